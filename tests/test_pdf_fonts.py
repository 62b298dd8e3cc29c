"""The print fonts (pipeline/render/fonts.py): Noto Serif CJK TC converted to TrueType once and
embedded by Chromium as named CID fonts, never as Type 3 glyphs; the conversion keeps the outlines
and metrics and gives the same bytes twice; a cache that cannot be written prints with the
installed fonts and says so once. The first run builds the faces (about a minute each)."""
import pathlib
import subprocess

import pytest

from conftest import need_printing
from pipeline.render import fonts
from pipeline.render.pdf import PrintOptions, render_pdf

ROOT = pathlib.Path(__file__).resolve().parents[1]
TEIS = sorted(str(p) for p in (ROOT / "tei").glob("[0-9]*.xml"))

fontTools = pytest.importorskip("fontTools")
from fontTools.ttLib import TTFont  # noqa: E402

need_printing("pdffonts")


def font_rows(path):
    """pdffonts as (name, type, embedded) per font."""
    out = subprocess.run(["pdffonts", path], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines()[2:]:
        cols = line.split()
        # name type… encoding emb sub uni object ID: the type may be two words (CID TrueType)
        rows.append((cols[0], " ".join(cols[1:-6]), cols[-5]))
    return rows


@pytest.fixture(scope="module")
def print_fonts():
    built = fonts.print_fonts()
    assert built.faces, "the print fonts could not be built"
    return built


@pytest.fixture(scope="module")
def printed(print_fonts, tmp_path_factory):
    """Every seed printed vertically with the built fonts: {seed: pdf path}."""
    out = tmp_path_factory.mktemp("pdf-fonts")
    return {pathlib.Path(p).stem[:3]: p for p, _ in render_pdf(TEIS, str(out), PrintOptions())}


def test_no_type3_font_and_noto_is_embedded_as_a_named_cid_font(printed):
    for seed, path in printed.items():
        rows = font_rows(path)
        assert rows, seed
        assert not [r for r in rows if r[1] == "Type 3"], (seed, rows)
        regular = [r for r in rows if r[0].endswith("+ZhushuSerifTC-Regular")]
        assert regular and all(r[1] == "CID TrueType" and r[2] == "yes" for r in regular), (seed, rows)


def test_the_bold_heading_face_is_ours_too(printed):
    # the 篇 and 卷 headings are set at weight 600: Chromium takes the Bold face for them
    names = {r[0].split("+")[-1] for path in printed.values() for r in font_rows(path)}
    assert "ZhushuSerifTC-Bold" in names
    assert names <= {"ZhushuSerifTC-Regular", "ZhushuSerifTC-Bold", "BabelStoneHan"}, names


def test_the_cached_faces_are_truetype_with_the_source_metrics(print_fonts):
    regular = TTFont(print_fonts.faces[0], lazy=True)
    source_path, index = fonts._source(80, required=True)
    source = TTFont(source_path, fontNumber=index, lazy=True)
    assert "glyf" in regular and "CFF " not in regular
    assert regular["name"].getDebugName(6) == "ZhushuSerifTC-Regular"
    assert regular["name"].getDebugName(1) == "Zhushu Serif TC"
    assert "VORG" in regular                       # vertical origins as the CFF had them
    # glyph names are not kept (post format 3): glyphs are compared by their ids
    gid, src_gid = (lambda n: regular.getGlyphID(n)), (lambda n: source.getGlyphID(n))
    cmap, src_cmap = regular.getBestCmap(), source.getBestCmap()
    assert {c: gid(n) for c, n in cmap.items()} == {c: src_gid(n) for c, n in src_cmap.items()}
    glyf = regular["glyf"]
    for ch in "禮記正義鄭玄注疏，。「」":
        name, src_name = cmap[ord(ch)], src_cmap[ord(ch)]
        assert regular["hmtx"][name][0] == source["hmtx"][src_name][0], ch
        assert regular["vmtx"][name] == source["vmtx"][src_name], ch
        assert glyf[name].numberOfContours > 0, ch


def test_the_conversion_keeps_the_outlines_and_gives_the_same_bytes(tmp_path, print_fonts):
    """A CFF font of a few glyphs cut from the installed face, converted twice."""
    from fontTools import subset
    from fontTools.pens.boundsPen import BoundsPen
    source_path, index = fonts._source(80, required=True)
    source = TTFont(source_path, fontNumber=index)
    options = subset.Options()
    options.layout_features = ["vert", "vrt2"]
    sub = subset.Subsetter(options)
    sub.populate(text="禮記正義卷四十六「」，。")
    sub.subset(source)
    small = tmp_path / "small.otf"
    source.save(small)
    one, two = tmp_path / "one.ttf", tmp_path / "two.ttf"
    fonts.build_face(str(small), 0, str(one), "Regular")
    fonts.build_face(str(small), 0, str(two), "Regular")
    assert one.read_bytes() == two.read_bytes()
    cff, ttf = TTFont(small), TTFont(one)
    cff_glyphs, ttf_glyphs = cff.getGlyphSet(), ttf.getGlyphSet()
    for ch in "禮記正義「」":
        name, ttf_name = cff.getBestCmap()[ord(ch)], ttf.getBestCmap()[ord(ch)]
        assert cff.getGlyphID(name) == ttf.getGlyphID(ttf_name)
        a, b = BoundsPen(cff_glyphs), BoundsPen(ttf_glyphs)
        cff_glyphs[name].draw(a)
        ttf_glyphs[ttf_name].draw(b)
        # the outline's extent moves by at most the conversion's tolerance (1 unit of 1000)
        assert all(abs(x - y) <= 1.5 for x, y in zip(a.bounds, b.bounds)), (ch, a.bounds, b.bounds)


def test_the_rules_go_into_the_head_of_every_document():
    f = fonts.PrintFonts(css="@font-face{}", env={})
    html = '<html lang="lzh"><head><meta charset="utf-8"/><style>x</style></head><body/></html>'
    assert fonts.with_fonts(html, f).startswith('<html lang="lzh"><head><style>@font-face{}</style><meta')
    assert fonts.with_fonts(html, fonts.INSTALLED) == html


def test_an_unwritable_cache_prints_with_the_installed_fonts_and_says_so_once(run, tmp_path, monkeypatch):
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache directory would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    out = tmp_path / "out"
    code, _, err = run("render", "pdf", TEIS[0], TEIS[2], "-o", out)
    assert code == 0, err
    assert err.count("print fonts not built") == 1, err
    assert "printing with the installed fonts" in err
    for name in ("000_5a9685f2ae5c6de4.pdf", "002_3cfb79cd5f7996b0.pdf"):
        rows = font_rows(str(out / name))
        # Chromium's own choice again: the installed Noto Serif CJK as Type 3 glyphs
        assert any(r[1] == "Type 3" for r in rows), rows
        assert not any("Zhushu" in r[0] for r in rows), rows
