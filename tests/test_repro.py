"""Regression tests for the defects in ../shared/repro/README.md (the files are copied into
tests/fixtures/repro/). The 義疏 rows (yishu_trailer_*, yishu_lossless_min,
lossless_shuffled_lines) are covered by tests/test_reader_yishu.py's owners.

Each source must convert in one of two ways: exit 2 with one `FILE:LINE:COL: fatal: RULE: text`
line and no output, or exit 0 with an output that validates."""
import re

import pytest
from lxml import etree

from conftest import ROOT
from fuzzing.oracle import match_problem, problem_lines, run_cli, run_subprocess

REPRO = ROOT / "tests" / "fixtures" / "repro"
TEI = "{http://www.tei-c.org/ns/1.0}"


def one_problem(err: str, path, level: str = "fatal") -> re.Match:
    """The single message line of a refusal: `PATH:LINE:COL: LEVEL: RULE: text`."""
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == 1, f"expected one line, got {len(lines)}:\n{err}"
    m = match_problem(lines[0])
    assert m, f"not FILE:LINE:COL: LEVEL: RULE-ID: text: {lines[0]!r}"
    assert m["file"] == str(path) and m["level"] == level, lines[0]
    return m


def convert_and_validate(path, tmp_path):
    """convert PATH -o out.xml, then validate it: (convert run, validate run, TEI root)."""
    out = tmp_path / "out.xml"
    conv = run_cli("convert", path, "-o", out)
    assert conv.code == 0 and not conv.traceback, conv.describe()
    val = run_cli("validate", out)
    assert val.code == 0, f"{val.text}{val.err}"
    return conv, val, etree.parse(str(out)).getroot()


def declared_glyphs(root) -> set[str]:
    """The characters the writer declared for its <g>s: a char of charDecl saying what it is."""
    return {"#" + c.get("{http://www.w3.org/XML/1998/namespace}id")
            for c in root.iter(TEI + "char") if c.find(TEI + "localProp").get("name") == "name"}


def chars_outside_g(root, pred) -> list[str]:
    """Characters of the text (pred true) that are not inside a <g>."""
    def in_g(el):
        return el.tag == TEI + "g" or any(a.tag == TEI + "g" for a in el.iterancestors())
    found = []
    for el in root.find(f"{TEI}text").iter():
        if not isinstance(el.tag, str):
            continue
        if el.text and not in_g(el):
            found += [c for c in el.text if pred(c)]
        if el.tail and el.getparent() is not None and not in_g(el.getparent()):
            found += [c for c in el.tail if pred(c)]
    return found


# -- bytes that are not text: one line, exit 2, no output ----------------------------------------
@pytest.mark.parametrize("name,where", [
    ("bom_utf8_badbyte.txt", (1, 2)),          # BOM, 经, then 0xff: line 1, the 2nd character
    ("bom_utf16_oddlen.txt", (1, 2)),          # BOM, 使, then half a code unit
    ("bom_utf16_lone_surrogate.txt", (1, 1)),  # BOM, then a high surrogate with nothing after it
])
def test_bom_and_bytes_that_do_not_decode(name, where, tmp_path):
    src = REPRO / name
    run = run_cli("convert", src, "-o", tmp_path / "out.xml")
    assert run.code == 2 and not run.traceback, run.describe()
    m = one_problem(run.err, src)
    assert (int(m["line"]), int(m["col"])) == where, m.group(0)
    assert not (tmp_path / "out.xml").exists()


def test_an_empty_source_is_fatal_at_1_1(tmp_path):
    src = tmp_path / "empty.txt"
    src.write_bytes(b"")
    run = run_cli("convert", src)
    assert run.code == 2, run.describe()
    m = one_problem(run.err, src)
    assert (m["line"], m["col"]) == ("1", "1")


# -- characters the TEI must carry ------------------------------------------------------------------
def test_private_use_characters_of_every_plane_are_in_declared_g(tmp_path):
    conv, val, root = convert_and_validate(REPRO / "pua_unwrapped.txt", tmp_path)
    from pipeline.chars import is_pua
    assert chars_outside_g(root, is_pua) == []
    refs = {g.get("ref") for g in root.iter(TEI + "g")}
    assert refs and refs <= declared_glyphs(root)
    # and every plane: the BMP area's edges, planes 15 and 16 to their last character
    src = tmp_path / "pua.txt"
    pua = "\ue000\uf8ff\U000f0000\U000ffffd\U00100000\U0010fffd"
    src.write_text("卷一\n经" + pua + "（注。）\n[疏]“经”者，释曰：经。\n", encoding="utf-8")
    conv, val, root = convert_and_validate(src, tmp_path)
    assert chars_outside_g(root, is_pua) == []
    assert sorted(c for g in root.iter(TEI + "g") for c in (g.text or "") if is_pua(c)) == sorted(pua)


# The first and the last ideograph of each CJK extension (Unicode 15.1; Python 3.11's tables are
# 14.0 and know neither H nor I, nor the ends of C and E added later).
EXTENSIONS = {"A": "\u3400\u4dbf", "B": "\U00020000\U0002a6df", "C": "\U0002a700\U0002b739",
              "D": "\U0002b740\U0002b81d", "E": "\U0002b820\U0002cea1", "F": "\U0002ceb0\U0002ebe0",
              "G": "\U00030000\U0003134a", "H": "\U00031350\U000323af", "I": "\U0002ebf0\U0002ee5d"}


def test_extension_h_and_i_ideographs_are_ordinary_text(tmp_path):
    conv, val, root = convert_and_validate(REPRO / "ext_h_i_rejected.txt", tmp_path)
    assert root.find(f".//{TEI}g") is None
    body = "".join(root.find(f"{TEI}text").itertext())
    assert "\U00031350" in body and "\U0002ebf0" in body


@pytest.mark.parametrize("ext", sorted(EXTENSIONS))
def test_every_cjk_extension_is_ordinary_text(ext, tmp_path):
    src = tmp_path / f"ext{ext}.txt"
    chars = EXTENSIONS[ext]
    src.write_text(f"卷一\n经{chars}（注{chars}。）\n[疏]“经{chars}”者，释曰：经。\n", encoding="utf-8")
    conv, val, root = convert_and_validate(src, tmp_path)
    assert [g.text for g in root.iter(TEI + "g")] == []
    assert "".join(root.find(f"{TEI}text").itertext()).count(chars) >= 3


def test_replacement_character_is_warned_and_kept_in_a_declared_g(tmp_path):
    src = REPRO / "fffd_passthrough.txt"
    text = src.read_text(encoding="utf-8")
    line = text[:text.index("\ufffd")].count("\n") + 1
    col = text.index("\ufffd") - (text.rfind("\n", 0, text.index("\ufffd")) + 1) + 1
    conv, val, root = convert_and_validate(src, tmp_path)
    warned = [m for m in problem_lines(conv.err) if m["level"] == "warning"
              and m.groupdict().get("file") == str(src)
              and (m.groupdict().get("line"), m.groupdict().get("col")) == (str(line), str(col))]
    assert warned, f"no warning at {src}:{line}:{col}:\n{conv.err}"
    assert chars_outside_g(root, lambda c: c == "\ufffd") == []
    gs = [g for g in root.iter(TEI + "g") if g.text == "\ufffd"]
    assert gs and {g.get("ref") for g in gs} <= declared_glyphs(root)


# -- validate must not hang --------------------------------------------------------------------------
def test_an_xml_id_outside_the_scheme_is_reported_at_once():
    path = REPRO / "validate_hang_xmlid.xml"
    run = run_subprocess("validate", str(path), timeout=10)
    assert run.code is not None, f"validate {path}: no answer after {run.seconds:.0f} s"
    assert run.code == 1, run.describe()
    assert any(m["rule"].startswith("ZS-ID-") for m in problem_lines(run.text)), run.text
