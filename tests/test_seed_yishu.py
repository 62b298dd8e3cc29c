"""Seeds 003 (欽定儀禮義疏 卷十八, 四庫全書本, unpunctuated) and 001 (欽定禮記義疏 卷二十九–三十,
punctuated, with a modern translation interleaved page by page)."""
import re

import pytest
from lxml import etree

from pipeline.chars import lossless_form
from pipeline.constants import CATEGORY_IDS
from pipeline.convert import convert_file
from pipeline.textlayers import layer_lines, layer_text
from pipeline.validate import iter_issues

from conftest import CORPUS, convert_seeds

NS = {"t": "http://www.tei-c.org/ns/1.0"}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
S003 = CORPUS / "003_2c7c22b06290c5d5.txt"
S001 = CORPUS / "001_bb2ea7f0d69008db.txt"
L003 = S003.read_text(encoding="utf-8").split("\n")
L001 = S001.read_text(encoding="utf-8").split("\n")
CATEGORY = re.compile(r"^(正义|存疑|存异|辨正|通论|馀论|余论|总论|案)")


@pytest.fixture(scope="module")
def conv(tmp_path_factory):
    return convert_seeds(tmp_path_factory, S003, S001)


def line(n: int, lines=L003) -> str:
    return lines[n - 1].strip("\u3000 ")


@pytest.mark.parametrize("seed", ["003", "001"])
def test_converts_losslessly_validly_deterministically(conv, seed, tei_all):
    path, root, report, data = conv[seed]
    src = S003 if seed == "003" else S001
    assert report.layout == "yishu" and not report.errors
    assert layer_text(root, "all") == lossless_form(src.read_text(encoding="utf-8"))
    assert [i for i in iter_issues(str(path)) if i.level != "warning"] == []
    assert tei_all.validate(root), tei_all.error_log
    assert convert_file(str(src))[0] == data


def expected_jing_003() -> list[str]:
    """The 經 and 記 lines read off the file: no category, 案, 右 or furniture line, the lines
    that only continue a wrapped commentary line (18, 155, 245, 280) left out, and a category
    glued to a 經 line (140, 144, 268, 322) cut off with the small notes."""
    out = []
    for n in range(6, 397):
        s = line(n)
        if not s or CATEGORY.match(s) or s.startswith("右") or n in (18, 155, 245, 280):
            continue
        s = re.split(r"正义(?=[\u4e00-\u9fff]氏)", s)[0]
        out.append(re.sub(r"〈[^〉]*〉", "", s))
    return out


def test_jing_of_003(conv):
    root = conv["003"][1]
    jing = layer_lines(root, "jing")
    assert jing == expected_jing_003()
    assert jing[0] == "聘遭丧入竟则遂也" and jing[-1] == "十筥曰稯十稯曰秅四百秉为一秅"
    assert not any(j.startswith("右") for j in jing)


def test_every_block_and_quotation_of_003_is_typed_and_attributed(conv):
    root = conv["003"][1]
    blocks = root.xpath("//t:body//t:div/t:note[@type='yishu' or @type='an']", namespaces=NS)   # children of a div
    glued = r"(?<!^)(?:正义|存疑|存异|辨正|通论|馀论|余论|总论)(?=[\u4e00-\u9fff]氏|朱子)"
    assert len(blocks) == sum(1 for n in range(6, 397) if CATEGORY.match(line(n))) + \
        sum(len(re.findall(glued, re.sub(r"〈[^〉]*〉", "", line(n)))) for n in range(6, 397))
    from pipeline import persons
    # a registry scholar by psn: (persons.xml), a person declared from the text by # (standOff)
    people = {"psn:" + p for p in persons.registry()} | \
        {"#" + p for p in root.xpath("//t:standOff//t:person/@xml:id", namespaces=NS)}
    categories = set(CATEGORY_IDS)
    for b in blocks:
        assert b.get("type") == "an" or b.get("subtype") in categories
        assert b.get("target"), etree.tostring(b, encoding=str)[:120]
    for p in root.xpath("//t:note[@type='yishu']/t:p", namespaces=NS):
        # words nobody is named for (馀论 citing 左传)
        assert p.get("resp") is None and p.find("t:persName", NS) is None
        assert not re.match(r"[\u4e00-\u9fff]氏[\u4e00-\u9fff]{1,2}?曰", "".join(p.itertext()))
    for cit in root.xpath("//t:note[@type='yishu']/t:cit", namespaces=NS):
        author = cit.find("t:bibl/t:author", NS)
        assert author is not None and author.get("ref") in people
    # one attribution per 氏曰 of the 義疏 lines, outside small notes
    said = sum(len(re.findall(r"[\u4e00-\u9fff]氏[\u4e00-\u9fff]{1,2}?曰|朱子曰|张子曰|程子曰",
                              re.sub(r"〈[^〉]*〉", "", line(n))))
               for n in range(6, 397))
    assert len(root.xpath("//t:body//t:cit/t:bibl/t:author[node()]", namespaces=NS)) == said


def block_of(root, n_text: str):
    return next(b for b in root.xpath("//t:note[@type='yishu' or @type='an']", namespaces=NS)
                if n_text in "".join(b.itertext()))


def test_irregular_lines_of_003(conv):
    root = conv["003"][1]
    # 18: 之礼也 ends the 敖氏 quotation of line 17
    b = block_of(root, "敖氏继公曰毕归礼者不可以已之丧而废待宾")
    assert "".join(b.itertext()).endswith("废待宾之礼也")
    # 54: 馀论 glued after the 正义 of the same line
    b = block_of(root, "从臣位自哭而踊如奔丧礼")
    nxt = b.getnext()
    assert b.get("subtype") == "zhengyi" and nxt.get("subtype") == "yulun"
    assert nxt.find("t:cit/t:bibl/t:author", NS).get("ref") == "psn:jiagongyan"
    # 140: 正义 glued after the 經 and its small notes
    ab = root.xpath("//t:ab[t:seg='问大夫之币俟于郊为肆又赍皮马']", namespaces=NS)[0]
    assert [n.get("type") for n in ab.iterfind("t:note", NS)] == ["yinyi", "textual"]
    assert ab.getnext().get("subtype") == "zhengyi" and ab.getnext().get("target") == "#" + ab.get(XML_ID)
    # 283: 存疑 then 存异 on one line, each credited
    b = block_of(root, "仆为祝者大夫之臣摄官也")
    assert b.get("subtype") == "cunyi" and b.getnext().get("subtype") == "cunyi2"
    assert b.getnext().find("t:cit/t:bibl/t:author", NS).get("ref") == "psn:aojigong"
    # 179, 193, 311: a 右记 closing glued to the end of a line closes the section
    trailers = root.xpath("//t:trailer/text()", namespaces=NS)
    assert {"右记授次", "右记聘容", "右记主国礼宾之节与羞献"} <= set(trailers)
    assert "右遭丧" in trailers


def test_furniture_and_header_of_003(conv):
    root = conv["003"][1]
    q = lambda x: root.xpath(x, namespaces=NS)
    assert q("string(//t:title[@type='main'])") == "钦定仪礼义疏 卷十八"
    # 经部,礼类,仪礼之属: its narrowest category in the shared categories.xml
    assert q("//t:textClass/t:catRef/@target") == ["cat:siku.jing.li.yili"]
    assert q("//t:textClass/t:catRef/@scheme") == ["cat:siku"]
    # the website's provenance line that opens the file is the e-text's, in its bibl
    assert q("//t:body//t:fw/@type") == ["header", "title", "catalogue"]
    assert q("//t:sourceDesc/t:bibl[@type='etext']/t:note[@type='provenance']/text()") == \
        ["钦定仪礼义疏_(四库全书本)/卷18 中华文库"]
    repeat = q("//t:fw[@subtype='repeat']")[0]
    assert repeat.text == "钦定仪礼义疏卷十八" and repeat.get("sameAs") == "#" + q("//t:div/t:head")[0].get(XML_ID)
    assert q("string(//t:div[@type='pian']/t:head)") == "聘礼第八之四"


def test_small_notes_of_003(conv):
    root = conv["003"][1]
    kinds = lambda text: [(n.get("type"), n.get("subtype"), n.get("resp")) for n in root.iter("{%s}note" % NS["t"])
                          if n.get("place") == "inline" and "".join(n.itertext()) == text]
    assert kinds("竟音境下并同") == [("yinyi", None, "psn:ludeming")]      # every 音義 credited to 陸德明
    assert kinds("注今文赴作讣") == [("textual", None, None)]
    assert kinds("贾疏始死不忍异于生") == [("shu", "quoted", "psn:jiagongyan")]


EXPECTED_JING_001 = [7, 10, 21, 23, 34, 40, 53, 61, 66, 69, 71, 75, 93, 95, 99, 101, 122, 128, 131, 149,
                     155, 157, 169]


def test_jing_of_001(conv):
    root = conv["001"][1]
    want = [re.sub(r"【[^】]*】", "", line(n, L001)) for n in EXPECTED_JING_001]
    want[EXPECTED_JING_001.index(128)] = want[EXPECTED_JING_001.index(128)].split("正义：")[0]
    assert layer_lines(root, "jing") == want


def test_translation_layer_of_001(conv):
    root = conv["001"][1]
    tr = root.xpath("//t:ab[@type='translation']", namespaces=NS)
    assert all(t.get("{http://www.w3.org/XML/1998/namespace}lang") == "zh-Hans" for t in tr)
    assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == "lzh"
    ids = {e.get(XML_ID): e for e in root.iter()}
    # line 12 translates line 6 (案庶子…), line 13 the 經 of line 7
    first = [t for t in tr if "".join(t.itertext()).startswith("译查考“庶子”")][0]
    assert "".join(ids[first.get("corresp")[1:]].itertext()).startswith("案庶子")
    nxt = first.getnext()
    while nxt.get("type") != "translation":
        nxt = nxt.getnext()
    assert ids[nxt.get("corresp")[1:]].get("type") == "jing"
    # document order is the source's: each translation follows what it translates
    body = list(root.find("t:text/t:body", NS).iter())
    at = {id(e): i for i, e in enumerate(body)}
    for t in tr:
        if t.get("corresp"):
            assert at[id(ids[t.get("corresp")[1:]])] < at[id(t)]


def test_anomaly_report_of_001(conv):
    report = conv["001"][2]
    text = "\n".join(i.message + f" @{i.line}" for i in report.warnings)
    assert "16 original lines (118–133) are followed by 14 translated lines (134–147)" in text
    copy = [i for i in report.warnings if i.rule == "ZS-CONV-TR-COPY"]
    assert any("76–91" in i.message and "60–75" in i.message for i in copy)
    assert any(i.rule == "ZS-CONV-FURNITURE" and "172" in i.message and "182–186" in i.message
               for i in report.warnings)
    assert any(i.rule == "ZS-CONV-PAGE-EDGE" and i.line == 18 and "line 11" in i.message
               for i in report.warnings)
    assert any(i.rule == "ZS-CONV-PAGE-EDGE" and i.line == 32 for i in report.warnings)


def test_copies_are_marked_not_dropped(conv):
    root = conv["001"][1]
    copies = root.xpath("//t:ab[@type='translation'][@subtype='copy']", namespaces=NS)
    texts = ["".join(c.itertext()) for c in copies]
    assert any(t.startswith("公与族燕，则以齿") for t in texts)          # line 87 copies line 71
    assert len(copies) >= 9


def test_text_filters(conv, run):
    path = conv["003"][0]
    code, out, _ = run("text", path, "--layer", "yishu", "--category", "cunyi")
    assert code == 0 and out.splitlines() and all(l.startswith("存疑") for l in out.splitlines())
    code, out, _ = run("text", path, "--resp", "lirugui")
    assert out.splitlines() and all(l.startswith("李氏如圭曰") for l in out.splitlines())
    code, out, _ = run("text", path, "--layer", "an")
    assert out.splitlines()[0].startswith("案不筵几")
    code, out, _ = run("text", conv["001"][0], "--layer", "translation")
    assert out.splitlines()[0] == "译以六德六行为根本。」"


def test_translation_marked_in_traditional_script():
    """Runs opened by 譯 (traditional) are found as 译 runs are, and labelled zh-Hant."""
    from conftest import convert_checked
    root, report = convert_checked(S001.read_text(encoding="utf-8").replace("\n译", "\n譯"))
    tr = root.xpath("//t:ab[@type='translation']", namespaces=NS)
    marks = root.xpath("//t:ab[@type='translation']/t:label[@type='mark']", namespaces=NS)
    assert len(tr) > 20 and marks and all(m.text == "譯" for m in marks)
    assert {t.get("{http://www.w3.org/XML/1998/namespace}lang") for t in tr} == {"zh-Hant"}
    # the header (en), the text (simplified), the names in the header, the translations
    assert root.xpath("//t:langUsage/t:language/@ident", namespaces=NS) == ["en", "lzh-Hans", "lzh-Hant", "zh-Hant"]
