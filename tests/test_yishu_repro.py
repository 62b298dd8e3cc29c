"""The 義疏 reader on damaged input: 右… closings that close no 經 (tests/fixtures/repro/yishu_trailer_*),
lines continued across furniture (yishu_lossless_min, lossless_shuffled_lines), and the same
kinds of line shuffled at random. Every output must be lossless and valid against our schema
and rules and against tei_all."""
import random

import pytest
from lxml import etree

from conftest import ROOT, _tei_all_schema
from pipeline.chars import lossless_form
from pipeline.convert import convert_source
from pipeline.sources.decoding import source_from_bytes
from pipeline.textlayers import layer_text
from pipeline.validate import iter_issues

REPRO = ROOT / "tests" / "fixtures" / "repro"
NS = {"t": "http://www.tei-c.org/ns/1.0"}


def problems(path) -> list:
    """What `zhushu validate` finds in a file, warnings left out."""
    return [i for i in iter_issues(str(path)) if i.level != "warning"]


def assert_tei_all(root) -> None:
    schema = _tei_all_schema()
    if schema is not None:
        assert schema.validate(root), schema.error_log


@pytest.mark.parametrize("name, fmt", [
    ("yishu_trailer_schema_invalid.txt", "auto"),
    ("yishu_trailer_min.txt", "auto"),
    ("yishu_lossless_min.txt", "yishu"),        # auto-detection reads it as runon
    ("lossless_shuffled_lines.txt", "auto"),
])
def test_repro_converts_and_validates(run, tmp_path, name, fmt):
    src = REPRO / name
    out = tmp_path / "out.xml"
    code, _, err = run("convert", src, "--format", fmt, "-o", out, "-q")
    assert code == 0, err
    assert "ZS-CONV-LOSSLESS" not in err
    code, stdout, err = run("validate", out)
    assert code == 0, stdout + err
    root = etree.parse(str(out)).getroot()
    assert layer_text(root, "all") == lossless_form(src.read_text(encoding="utf-8"))
    assert_tei_all(root)


def convert(text: str, tmp_path, fmt: str = "yishu"):
    """Convert in-process; check lossless, no conversion error, valid (ours and tei_all)."""
    data, report = convert_source(source_from_bytes(text.encode("utf-8"), "t.txt"), fmt)
    assert not report.errors, report.errors
    root = etree.fromstring(data)
    assert layer_text(root, "all") == lossless_form(text)
    out = tmp_path / "t.xml"
    out.write_bytes(data)
    assert problems(out) == []
    assert_tei_all(root)
    return root


DIV = f"{{{NS['t']}}}div"


def body(root) -> list[tuple[str, str]]:
    """The body's elements that hold a line, as (what, text) in document order: the tree shape
    the closings get."""
    out = []
    for e in root.iterfind(".//t:body//*", NS):
        tag = etree.QName(e).localname
        # a block note is a child of a div (inline notes stand in a unit, quotation or translation)
        if tag in ("ab", "trailer", "fw", "head") or (tag == "note" and e.getparent().tag == DIV):
            where = "/".join(d.get("{http://www.w3.org/XML/1998/namespace}id")
                             for d in e.iterancestors(f"{{{NS['t']}}}div"))
            out.append((f"{tag}@{where}", "".join(e.itertext())))
    return out


def test_closing_after_commentary_only_joins_the_section_before(tmp_path):
    root = convert("卷二\n士冠礼筮于庙门\n右筮日\n正义敖氏继公曰此主人冠者之父兄也\n右记筮\n", tmp_path)
    assert body(root) == [
        ("head@d1", "卷二"),
        ("ab@d2/d1", "士冠礼筮于庙门"),
        ("trailer@d2/d1", "右筮日"),
        ("note@d2/d1", "正义敖氏继公曰此主人冠者之父兄也"),
        ("trailer@d2/d1", "右记筮"),
    ]


def test_closing_before_any_jing_is_furniture_after_the_commentary(tmp_path):
    # the file opens inside a section whose 經 lies in the previous file
    root = convert("而说襄仲曰不有君子其能国乎　敖氏继公曰于反币之外又重贿之\n右记特聘无行\n"
                   "曰子以君命在寡君\n正义郑氏康成曰此赞聘君拜聘享辞也\n右记公馆宾之辞\n", tmp_path)
    assert [w for w, _ in body(root)] == ["note@d2/d1", "fw@d2/d1", "ab@d3/d1", "note@d3/d1",
                                          "trailer@d3/d1"]
    assert root.find(".//t:fw", NS).text == "右记特聘无行"


def test_closings_after_furniture_translation_and_each_other(tmp_path):
    text = ("钦定四库全书\n右前记\n卷二\n士冠礼筮于庙门\n钦定四库全书\n右筮日\n钦定四库全书\n右记筮\n"
            "主人玄冠朝服\n正义敖氏继公曰此主人冠者之父兄也\n")
    root = convert(text, tmp_path)
    assert [w for w, _ in body(root)] == [
        "fw@d1", "fw@d1", "head@d1", "ab@d2/d1", "fw@d2/d1", "trailer@d2/d1", "fw@d2/d1",
        "trailer@d2/d1", "ab@d3/d1", "note@d3/d1"]
    text = ("卷一\n文王之为世子，朝于王季日三。\n正义：郑氏康成曰：「朝，朝见也。」\n"
            "译文王做世子的时候，每天三次朝见王季。\n正义：郑玄说：“朝，就是朝见。”\n右第一节\n")
    root = convert(text, tmp_path)
    assert [w for w, _ in body(root)][-2:] == ["ab@d2/d1", "trailer@d2/d1"]


def test_line_continued_across_furniture_is_a_block_of_its_own(tmp_path):
    root = convert("余论虽非正解\n欽定四庫全書\n欽定儀禮義疏\n提要\n", tmp_path)
    first, second = root.xpath("//t:note[@type='yishu']", namespaces=NS)
    assert second.get("prev") == "#" + first.get("{http://www.w3.org/XML/1998/namespace}id")
    assert [w for w, _ in body(root)] == ["note@d1", "fw@d1", "note@d1"]


def test_line_after_a_glued_closing_does_not_extend_the_block_before_it(tmp_path):
    text = ("卷十八\n聘遭丧入竟则遂也\n正义郑氏康成曰遭丧主国君薨也右记遭丧\n之礼也\n"
            "不筵几\n正义郑氏康成曰致命不于庙\n")
    root = convert(text, tmp_path)
    assert [t for _, t in body(root)][1:4] == ["聘遭丧入竟则遂也", "正义郑氏康成曰遭丧主国君薨也", "右记遭丧"]


# -- every arrangement ---------------------------------------------------------------------------
# Short texts with every kind of line the reader tells apart; shuffled, cut and repeated at
# random, each arrangement must still convert to lossless, valid TEI.
UNPUNCTUATED = """\
钦定仪礼义疏_(四库全书本)/卷18 中华文库
钦定四库全书
钦定仪礼义疏卷十八
聘礼第八之四
聘遭丧入竟则遂也〈竟音境下并同〉
正义郑氏康成曰遭丧主国君薨也　敖氏继公曰遂者不以丧而废其事也
之礼也
存疑贾氏公彦曰此谓未入竟之时〈贾疏文十二年左氏传文〉
案不筵几对上几筵既设而言
右记遭丧
不筵几〈注古文筵作延〉正义郑氏康成曰致命不于庙就尸柩于殡宫
辨正敖氏继公曰不筵几者丧礼之变也右记不筵几
有大客后至则先客不飨食致之
通论陆氏佃曰卑不与尊齐礼
右记大客后至
<经部,礼类,仪礼之属,钦定仪礼义疏>
""".splitlines()

PUNCTUATED = """\
钦定礼记义疏卷二十九
文王世子第八
文王之为世子，朝于王季日三。
正义：郑氏康成曰：「朝，朝见也。」孔氏颖达曰：「此一节论文王为世子之礼。」
案：此记文王之孝也。
译文王做世子的时候，每天三次朝见王季。
正义：郑玄说：“朝，就是朝见。”孔颖达说：“这一节论述文王做世子的礼。”
按：这里记载文王的孝行。
右第一节
鸡初鸣而衣服，至于寝门外。【鸣音名】
存疑。陈氏澔曰：「三朝之礼，未必然也。」
也，故记之。
钦定四库全书
译鸡叫头遍就穿好衣服，来到寝门外。
存疑。陈澔说：“三次朝见的礼节，未必是这样。”
右第二节
""".splitlines()


def arrangements(lines: list[str], seed: int, n: int):
    rng = random.Random(seed)
    for _ in range(n):
        how = rng.randrange(3)
        if how == 0:                                   # every line once, in any order
            out = lines[:]
            rng.shuffle(out)
        elif how == 1:                                 # some lines, some twice
            out = rng.choices(lines, k=rng.randrange(1, 2 * len(lines)))
        else:                                          # the text with runs of lines moved
            out = lines[:]
            for _ in range(rng.randrange(1, 4)):
                a = rng.randrange(len(out))
                b = rng.randrange(a, min(len(out), a + 4)) + 1
                run = out[a:b]
                del out[a:b]
                at = rng.randrange(len(out) + 1)
                out[at:at] = run
        yield "\n".join(out) + "\n"


@pytest.mark.parametrize("lines, seed", [(UNPUNCTUATED, 1), (UNPUNCTUATED, 2), (PUNCTUATED, 3),
                                         (PUNCTUATED, 4), (UNPUNCTUATED + PUNCTUATED, 5)])
def test_any_arrangement_of_lines_is_lossless_and_valid(tmp_path, lines, seed):
    for text in arrangements(lines, seed, 40):
        try:
            convert(text, tmp_path)
        except AssertionError as e:
            raise AssertionError(f"{e}\n--- the text:\n{text}") from None
