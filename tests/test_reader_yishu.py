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
    # the registry's scholar is pointed at in the shared persons.xml; the unknown one is declared
    # in the file's standOff and pointed at there
    assert "psn:zhengxuan" in root.xpath("//t:cit/t:bibl/t:author/@ref", namespaces=NS)
    assert root.xpath("//t:standOff/t:listPerson/t:person/@xml:id", namespaces=NS) == ["zs.某甲"]
    assert any(i.rule == "ZS-CONV-SCHOLAR" and "某氏甲" in i.message for i in report.warnings)
    cits = root.xpath("//t:note[@subtype='tonglun']/t:cit", namespaces=NS)
    assert cits[0].find("t:bibl/t:author", NS).get("ref") == "#zs.某甲"
    assert layer_lines(root, "jing") == ["惟王建国辨方正位"]


def test_category_glued_after_another_and_after_jing_punctuated():
    text = ("卷一\n"
            "凡祭祀，赞玉齍。【齍音咨】正义：郑氏康成曰：「玉齍，玉敦也。」存疑：贾氏公彦曰：「未详。」\n"
            "案：此文疑有脱误。\n")
    root, report = convert(text)
    assert report.layout == "yishu"
    assert layer_lines(root, "jing") == ["凡祭祀，赞玉齍。"]
    assert [n.get("subtype") or n.get("type") for n in
            root.xpath("//t:body//t:div/t:note", namespaces=NS)] == ["zhengyi", "cunyi", "an"]
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


def test_a_closing_glued_to_a_commentary_line_closes_its_section():
    # any 右X, not only 右記X: the e-text joined the closing's own line to the one before
    text = ("卷三\n聘遭喪將命于大夫\n正義鄭氏康成曰遭喪謂主國君薨也右遭喪\n"
            "賓入竟而死遂也\n正義敖氏繼公曰此言賓死之禮右賓死\n")
    root, _ = convert(text)
    # closings with no section title above them to close stay furniture
    assert root.xpath("//t:fw/text()", namespaces=NS) == ["右遭喪", "右賓死"]
    assert [p.xpath("string()") for p in root.xpath("//t:note/t:cit", namespaces=NS)] == \
        ["鄭氏康成曰遭喪謂主國君薨也", "敖氏繼公曰此言賓死之禮"]
    assert layer_lines(root, "jing") == ["聘遭喪將命于大夫", "賓入竟而死遂也"]


def test_a_right_hand_side_is_no_closing():
    # 門右 before more commentary, 左右 and 之右 before the next 經: words of the text
    text = ("卷三\n賓入門\n正義鄭氏康成曰入門而右\n存疑敖氏繼公曰右者賓位也又在門右\n"
            "主人立于阼階\n正義孔氏穎達曰阼階在東西階在其左右\n主人升堂\n正義賈氏公彦曰升自堂之右\n"
            "賓升堂西面\n正義鄭氏康成曰升堂者將受命也\n")
    root, _ = convert(text)
    assert root.xpath("//t:trailer | //t:fw", namespaces=NS) == []
    assert layer_lines(root, "jing") == ["賓入門", "主人立于阼階", "主人升堂", "賓升堂西面"]


def test_website_provenance_is_furniture_by_its_shape():
    from pipeline.readers.yishu.lines import furniture_kind
    for line in ("周官义疏_(四库全书本)/卷3 中华文库", "礼记正义/卷12 - 维基文库，自由的图书馆",
                 "毛诗正义 卷5", "钦定周官义疏卷三 维基文库"):
        assert furniture_kind(line) == "source", line
    # 文庫 as a word of the text (or alone: nothing names a page), a 卷 in Chinese numerals
    for line in ("藏之文庫", "中华文库", "钦定周官义疏卷三", "正义郑氏康成曰卷犹收也"):
        assert furniture_kind(line) is None, line


def test_modern_chinese_is_told_by_its_function_words():
    from pipeline.readers.yishu.interleave import modern
    # modern prose on any subject: its particles and function words, not its vocabulary
    assert modern("天子在这里向诸侯说明了礼的意义。")
    assert modern("如果没有祭祀，百姓就会不安。")
    # classical prose, even with words a modern text also uses (报告, 结束, 解释, 时候)
    assert not modern("王使人报告于诸侯，礼毕而结束，君子解释其义，四时候之。")
    assert not modern("正义：郑氏康成曰：「遭丧，谓主国君薨也。」")
