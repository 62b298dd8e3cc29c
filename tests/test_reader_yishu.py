"""The 義疏 reader on shapes the seeds show only once or not at all."""
from lxml import etree

from pipeline.textlayers import layer_lines

from conftest import convert_checked

NS = {"t": "http://www.tei-c.org/ns/1.0"}


def convert(text: str):
    return convert_checked(text)


def test_unknown_scholar_is_declared_and_reported():
    text = ("钦定周官义疏卷一\n天官冢宰第一\n惟王建国辨方正位\n"
            "正义郑氏康成曰建立也　王氏安石曰建国者建其国也\n通论某氏甲曰此言建国之始\n案此王者之事\n")
    root, report = convert(text)
    people = root.xpath("//t:person/@xml:id", namespaces=NS)
    assert "zhengxuan" in people and "zs.某甲" in people
    assert any(i.rule == "ZS-CONV-SCHOLAR" and "某氏甲" in i.message for i in report.warnings)
    ps = root.xpath("//t:note[@subtype='tonglun']/t:p", namespaces=NS)
    assert ps[0].get("resp") == "#zs.某甲"
    assert layer_lines(root, "jing") == ["惟王建国辨方正位"]


def test_category_glued_after_another_and_after_jing_punctuated():
    text = ("卷一\n"
            "凡祭祀，赞玉齍。【齍音咨】正义：郑氏康成曰：「玉齍，玉敦也。」存疑：贾氏公彦曰：「未详。」\n"
            "案：此文疑有脱误。\n")
    root, report = convert(text)
    assert report.layout == "yishu"
    assert layer_lines(root, "jing") == ["凡祭祀，赞玉齍。"]
    assert [n.get("subtype") or n.get("type") for n in
            root.xpath("//t:body//t:note[not(@place)]", namespaces=NS)] == ["zhengyi", "cunyi", "an"]
    assert layer_lines(root, "yishu", category="cunyi") == ["存疑：贾氏公彦曰：「未详。」"]


def test_closing_line_closes_a_section():
    text = ("卷二\n士冠礼筮于庙门\n正义郑氏康成曰筮者以蓍问日吉凶于易也\n右筮日\n"
            "主人玄冠朝服\n正义敖氏继公曰此主人冠者之父兄也\n")
    root, _ = convert(text)
    sections = root.xpath("//t:div[@type='section']", namespaces=NS)
    assert sections[0].find("t:trailer", NS).text == "右筮日"
    assert [s.find("t:trailer", NS) is None for s in sections] == [False, True]


def test_closings_with_nothing_new_to_close_stay_valid(tmp_path):
    from pipeline.validate import iter_issues
    text = ("卷二\n右前篇\n士冠礼筮于庙门\n正义郑氏康成曰筮者以蓍问日吉凶于易也\n存疑。\n右筮日\n右记筮\n")
    root, _ = convert(text)
    assert root.xpath("//t:div[@type='section']/t:trailer/text()", namespaces=NS) == ["右筮日", "右记筮"]
    assert root.xpath("//t:fw/text()", namespaces=NS) == ["右前篇"]
    out = tmp_path / "c.xml"
    out.write_bytes(etree.tostring(root.getroottree(), xml_declaration=True, encoding="UTF-8"))
    assert [i for i in iter_issues(str(out)) if i.level != "warning"] == []
