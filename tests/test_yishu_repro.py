"""The 義疏 reader on damaged input: 右… closings that close no 經 (tests/fixtures/repro/yishu_trailer_*).
Every output must be lossless and valid against our schema and rules and against tei_all."""
import pytest
from lxml import etree

from pipeline.chars import lossless_form
from pipeline.convert import convert_source
from pipeline.source import source_from_bytes
from pipeline.textlayers import layer_text
from pipeline.validate import iter_issues

from conftest import ROOT, _tei_all_schema

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


def body(root) -> list[tuple[str, str]]:
    """The body's elements that hold a line, as (what, text) in document order: the tree shape
    the closings get."""
    out = []
    for e in root.iterfind(".//t:body//*", NS):
        tag = etree.QName(e).localname
        if tag in ("ab", "trailer", "fw", "head") or (tag == "note" and e.get("place") is None):
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
