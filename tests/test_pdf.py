"""The print edition as a reader gets it: `zhushu render pdf` on every seed in both layouts,
printed by Debian's Chromium, checked with poppler-utils (pdffonts, pdftotext, pdftoppm) — fonts
embedded, the 經 of the first unit recovered in reading order, no U+FFFD, pages not blank, the
Extension B character 𤣥 drawn from a real font. Page images go to build/screenshots/ for a person
to look at. make test installs chromium, the fonts and poppler-utils when they are missing."""
import os
import pathlib
import subprocess

import pytest
from lxml import etree

from conftest import need_printing
from pipeline.render import pdf
from pipeline.render.pdf import PrintOptions, paper_size, render_pdf

ROOT = pathlib.Path(__file__).resolve().parents[1]
TEIS = sorted(str(p) for p in (ROOT / "tei").glob("[0-9]*.xml"))
SHOTS = ROOT / "build" / "screenshots"
TEI = "{http://www.tei-c.org/ns/1.0}"

need_printing("pdffonts", "pdftotext", "pdftoppm")


@pytest.fixture(scope="module", params=["vertical", "horizontal"])
def printed(request, tmp_path_factory):
    """Every seed printed once per layout: (layout, {seed: (pdf path, pages)})."""
    out = tmp_path_factory.mktemp("pdf-" + request.param)
    done = render_pdf(TEIS, str(out), PrintOptions(layout=request.param))
    return request.param, {pathlib.Path(p).stem[:3]: (p, n) for p, n in done}


def poppler(*args):
    return subprocess.run(args, capture_output=True, check=True).stdout


def text_of(path):
    """The text in content-stream order (-raw): the order Chromium drew it, column by column."""
    return poppler("pdftotext", "-raw", "-enc", "UTF-8", path, "-").decode("utf-8")


def first_unit_jing(tei_path):
    ab = etree.parse(tei_path).find(f".//{TEI}body//{TEI}ab[@type='jing']")
    return ["".join(seg.itertext()) for seg in ab.findall(f"{TEI}seg")]


def test_one_pdf_per_seed_with_the_pages_the_layout_made(printed):
    layout, pdfs = printed
    assert sorted(pdfs) == ["000", "001", "002", "003", "004"]
    for seed, (path, pages) in pdfs.items():
        info = poppler("pdfinfo", path).decode()
        assert f"Pages:           {pages}" in info, (layout, seed)     # nothing spilled over
        assert pages >= 2


def test_every_font_is_embedded(printed):
    _, pdfs = printed
    for seed, (path, _) in pdfs.items():
        rows = poppler("pdffonts", path).decode().splitlines()[2:]
        assert rows, seed
        for row in rows:
            # name type encoding emb sub uni object ID: the "emb" column of every font is "yes"
            assert row.split()[-5] == "yes", (seed, row)


def test_the_first_unit_reads_in_order_and_nothing_is_replaced(printed):
    layout, pdfs = printed
    for seed, (path, _) in pdfs.items():
        text = "".join(text_of(path).split())
        assert "\ufffd" not in text, seed
        at = 0
        for seg in first_unit_jing(TEIS[int(seed)]):
            found = text.find("".join(seg.split()), at)
            assert found >= 0, (layout, seed, seg)
            at = found + len(seg)


def test_running_head_and_chinese_page_numbers(printed):
    _, pdfs = printed
    path, _ = pdfs["004"]
    pages = text_of(path).split("\f")
    # each page opens with its margin boxes: the running head, then the page number (cjk-decimal);
    # the head is letter-spaced, which pdftotext reads as spaces between its characters
    assert [["".join(x.split()) for x in p.split("\n")[:2]] for p in (pages[0], pages[1], pages[11])] == [
        ["周禮注疏·卷三十八", "一"], ["周禮注疏·卷三十八", "二"], ["周禮注疏·卷三十八", "一二"]]


def test_pdf_is_tagged_with_bookmarks_for_the_headings(printed):
    _, pdfs = printed
    data = pathlib.Path(pdfs["003"][0]).read_bytes()
    assert b"/StructTreeRoot" in data and b"/Outlines" in data


def test_pages_are_not_blank(printed):
    layout, pdfs = printed
    SHOTS.mkdir(parents=True, exist_ok=True)
    for seed, (path, _) in pdfs.items():
        stem = SHOTS / f"pdf-{seed}-{layout}"
        subprocess.run(["pdftoppm", "-r", "40", "-f", "1", "-l", "1", "-gray", "-png", path, str(stem)], check=True)
        pgm = poppler("pdftoppm", "-r", "20", "-f", "1", "-l", "1", "-gray", path)
        pixels = pgm[pgm.index(b"255\n") + 4:]
        # ink on the page: the mean darkness (at 20 dpi a glyph is a few grey pixels, not black ones)
        ink = sum(255 - b for b in pixels) / (255 * len(pixels))
        assert ink > 0.02, (layout, seed, ink)


def test_extension_b_character_has_a_real_glyph(printed):
    """𤣥 (U+248E5) is not in Noto Serif CJK: BabelStone Han draws it, so it is embedded in 003's
    PDF and the character comes back out of the text; 004 needs no such font."""
    _, pdfs = printed
    fonts = poppler("pdffonts", pdfs["003"][0]).decode()
    assert "BabelStoneHan" in fonts
    assert "𤣥" in text_of(pdfs["003"][0])
    assert "BabelStoneHan" not in poppler("pdffonts", pdfs["004"][0]).decode()


def test_placeholders_are_drawn_as_the_missing_character_square(printed):
    """Issue 18: 004's ? and ┹ and 001's ▯ were printed as themselves (a sideways squiggle, a box
    drawing, tofu). Every placeholder of the TEI is a □ in the PDF's text, and none is left raw."""
    layout, pdfs = printed
    for seed, marks in (("001", "▯"), ("004", "?┹")):
        tei = next(p for p in TEIS if pathlib.Path(p).name.startswith(seed))
        placeholders = len(etree.parse(tei).findall(f".//{TEI}body//{TEI}g[@type='placeholder']"))
        text = text_of(pdfs[seed][0])
        assert not any(m in text for m in marks), (layout, seed)
        assert text.count("□") == placeholders, (layout, seed)


def test_quotation_marks_are_the_vertical_forms_in_vertical_pdfs(printed):
    layout, pdfs = printed
    text = text_of(pdfs["004"][0])
    if layout == "vertical":
        assert "﹁" in text and "﹂" in text and not any(q in text for q in "“”‘’")
    else:
        assert "“" in text and "”" in text and "﹁" not in text


# -- the command ---------------------------------------------------------------------------------

def test_cli_prints_a_directory(run, tmp_path):
    code, _, err = run("render", "pdf", ROOT / "tei" / "002_3cfb79cd5f7996b0.xml", "-o", tmp_path,
                       "--layout", "horizontal", "--paper", "A5", "--cells", "18", "--keep-html")
    assert code == 0, err
    assert "wrote 1 PDF (" in err and "horizontal, A5" in err
    assert (tmp_path / "002_3cfb79cd5f7996b0.pdf").exists()
    assert "--cell:6mm" in (tmp_path / "002_3cfb79cd5f7996b0.print.html").read_text(encoding="utf-8")
    assert "pts (A5)" in poppler("pdfinfo", str(tmp_path / "002_3cfb79cd5f7996b0.pdf")).decode()


@pytest.mark.parametrize("args, message", [
    (["--paper", "Z9"], "unknown paper 'Z9'"),
    (["--margin", "100"], "leaves less than 20 mm of A4 paper"),
])
def test_cli_refuses_bad_options_in_one_line(run, tmp_path, args, message):
    code, _, err = run("render", "pdf", TEIS[2], "-o", tmp_path, *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_missing_chromium_names_the_package(run, tmp_path, monkeypatch):
    monkeypatch.setattr(pdf, "CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setattr(pdf.shutil, "which", lambda name: None)
    code, _, err = run("render", "pdf", TEIS[2], "-o", tmp_path)
    assert code == 2 and "apt-get install chromium" in err and len(err.strip().splitlines()) == 1


def test_missing_fonts_name_the_packages(run, tmp_path, monkeypatch):
    monkeypatch.setattr(pdf, "FONTS", {**pdf.FONTS, "No Such Han Font": "fonts-no-such"})
    code, _, err = run("render", "pdf", TEIS[2], "-o", tmp_path)
    assert code == 2 and "apt-get install fonts-no-such" in err and len(err.strip().splitlines()) == 1


def test_hostile_or_foreign_xml_is_refused_naming_the_file(run, tmp_path):
    xxe = tmp_path / "xxe.xml"
    xxe.write_text('<!DOCTYPE TEI [<!ENTITY x SYSTEM "file:///etc/passwd">]><TEI>&x;</TEI>', encoding="utf-8")
    code, _, err = run("render", "pdf", xxe, "-o", tmp_path / "out")
    assert code == 2 and str(xxe) in err and "root:" not in err
    other = tmp_path / "other.xml"
    other.write_text("<html/>", encoding="utf-8")
    code, _, err = run("render", "pdf", other, "-o", tmp_path / "out")
    assert code == 2 and "not a TEI document" in err
    assert not list(tmp_path.glob("out/*.pdf"))


def test_paper_names_and_sizes():
    assert paper_size("a5") == (148, 210) and paper_size("16K") == (185, 260)
    assert paper_size("150x230") == (150.0, 230.0) and paper_size("150 × 230 mm") == (150.0, 230.0)


def test_chromium_can_be_named_by_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("ZHUSHU_CHROMIUM", "/usr/bin/chromium")
    assert pdf.find_chromium() == "/usr/bin/chromium"
    assert os.access(pdf.find_chromium(), os.X_OK)
