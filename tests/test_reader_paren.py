"""The `paren` reader on the other shapes its family takes (volumes other than seed 004)."""
from lxml import etree

from pipeline.chars import lossless_form
from pipeline.convert import convert_source
from pipeline.sources.decoding import source_from_bytes
from pipeline.textlayers import layer_lines, layer_text
from pipeline.validate import iter_issues

NS = {"t": "http://www.tei-c.org/ns/1.0"}
SHU = "//t:note[@type='shu'][not(ancestor::t:note)]"      # sections, not their sub-lemmas

# 音義 on a line of its own inside the parenthesis; two 經+注 groups on one line; [疏] alone;
# the lemma and each ○注 section on lines of their own; no blank lines; U+3000 indentation.
WRAPPED = """周礼注疏卷第一
　　惟王建国，（建，立也。周公居摄而作六典之职，谓之《周礼》。营邑於土中。
　　○王，于况反。）辨方正位，（辨，别也。郑司农云：“别四方，正君臣之位。”）
[疏]
“惟王”至“正位”
○释曰：此经为总目，下皆仿此。
○注“建立”至“土中”
○释曰：云“建，立也”者，以营邑言之。
　　体国经野，（体犹分也。○体，如字。）
[疏]注“体犹分也”。○释曰：分国为九区。
"""

# ASCII-space indentation, ［疏］, 正義曰 (孔穎達), a lost passage, placeholders, blank lines.
RIJI = """卷二十

  曲礼曰：毋不敬，俨若思，安定辞。（礼主於敬。○毋音无。）

  ［疏］“曲礼”至“定辞”。○正義曰：此一节明人君立治之本。○“毋不敬”者，谓君上接下。

  掌?。（阙。）
"""


def convert(text: str, **meta):
    src = source_from_bytes(text.encode("utf-8"), "t.txt", meta=meta)
    data, report = convert_source(src)
    return etree.fromstring(data), data, report, src


def test_wrapped_note_and_standalone_lemmas(tmp_path, tei_all):
    root, data, report, src = convert(WRAPPED)
    assert report.layout == "paren"
    assert not report.errors
    assert layer_text(root, "all") == lossless_form(src.text)
    assert layer_lines(root, "jing") == ["惟王建国，辨方正位，", "体国经野，"]
    assert layer_lines(root, "zhu") == [
        "建，立也。周公居摄而作六典之职，谓之《周礼》。营邑於土中。",
        "辨，别也。郑司农云：“别四方，正君臣之位。”", "体犹分也。"]
    assert layer_lines(root, "yinyi") == ["王，于况反。", "体，如字。"]
    shus = root.xpath(SHU, namespaces=NS)
    assert [(s.get("target"), s.get("targetEnd")) for s in shus] == [
        ("#u1.j1", "#u1.j2"), ("#u1.z1", None), ("#u2.z1", None)]
    assert root.xpath("string(//t:title[@type='work'])", namespaces=NS) == "周礼注疏"
    # the work names the 疏's commentator: credited in the header and on every 疏, pointed at in
    # the shared persons.xml (psn:), not declared in the file
    assert root.xpath("string(//t:titleStmt/t:editor[@role='commentator'][1]/@ref)", namespaces=NS) == \
        "psn:jiagongyan"
    assert {s.get("resp") for s in shus} == {"psn:jiagongyan"}
    assert root.xpath("//t:person", namespaces=NS) == []
    out = tmp_path / "w.xml"
    out.write_bytes(data)
    assert [i for i in iter_issues(str(out)) if i.level != "warning"] == []
    assert tei_all.validate(root), tei_all.error_log


def test_ascii_indent_fullwidth_brackets_and_kong_shu(tmp_path):
    root, data, report, src = convert(RIJI, work="禮記正義")
    assert layer_text(root, "all") == lossless_form(src.text)
    assert layer_lines(root, "jing") == ["曲礼曰：毋不敬，俨若思，安定辞。", "掌?。"]
    shu = root.xpath(SHU, namespaces=NS)[0]
    assert shu.get("resp") == "psn:kongyingda" and shu.get("target") == "#u1.j1"
    assert [p.text for p in shu.iterfind("t:p", NS)][0] == "正義曰：此一节明人君立治之本。"
    assert root.xpath("count(//t:gap[@reason='lost'])", namespaces=NS) == 1
    out = tmp_path / "r.xml"
    out.write_bytes(data)
    assert [i for i in iter_issues(str(out)) if i.level != "warning"] == []


def test_lemma_inside_a_piece_gets_anchors():
    text = "卷一\n王曰：大哉，善乎。（言善也。）\n[疏]“善乎”○释曰：赞之也。\n"
    root, data, report, src = convert(text, work="周禮注疏")
    shu = root.xpath(SHU, namespaces=NS)[0]
    start = root.xpath(f"//*[@xml:id='{shu.get('target')[1:]}']", namespaces=NS)[0]
    assert start.tag.endswith("anchor")
    assert shu.get("targetEnd") == "#u1.j1"
    assert layer_text(root, "all") == lossless_form(src.text)


def test_unclosed_parenthesis_is_a_warning_and_lossless():
    text = "卷一\n王曰：大哉。（言善也。○哉，音灾"
    root, data, report, src = convert(text, work="周禮注疏")
    assert [i.rule for i in report.warnings if i.rule == "ZS-CONV-UNCLOSED"]
    w = next(i for i in report.warnings if i.rule == "ZS-CONV-UNCLOSED")
    assert (w.line, w.col) == (2, 7)
    assert layer_text(root, "all") == lossless_form(src.text)


def test_unresolvable_lemma_is_reported_not_dropped():
    text = "卷一\n王曰：大哉。（言善也。）\n[疏]注“不见”至“此文”○释曰：无。\n"
    root, data, report, src = convert(text, work="周禮注疏")
    assert any(i.rule == "ZS-CONV-LEMMA" and i.line == 3 for i in report.warnings)
    shu = root.xpath(SHU, namespaces=NS)[0]
    assert shu.get("target") is None and "".join(shu.itertext()).endswith("释曰：无。")
