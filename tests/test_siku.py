"""The 四庫 style (`render pdf --style siku`) as a reader gets it: page counts against the leaves
of the TEI (pdfinfo), each page's text against the text of its leaf (pdftotext -raw: the
columns in reading order, then the 版心), the frame, column rules and 版心 where the geometry
puts them (pixels of a page rendered by pdftoppm), the punctuation rules in every printed column
and row, and the options. The source-lineation path runs on a small mandoku 卷 written for it
(tests/fixtures/siku-leaf); a Kanripo 卷 of ../shared is used when present."""
import html as htmlmod
import pathlib
import re
import subprocess

import pytest
from lxml import etree, html as lhtml

from conftest import CLOSING, OPENING, ROOT, SHARED, VERTICAL_FORMS, need_printing
from pipeline.numerals import hanzi, juan_label
from pipeline.render.pdf import PrintOptions, render_pdf

TEIS = sorted(str(p) for p in (ROOT / "tei").glob("[0-9]*.xml"))
FIXTURE = ROOT / "tests" / "fixtures" / "siku-leaf" / "KR9z0003_001.txt"
KANRIPO = SHARED / "kanripo" / "WYG" / "KR1d0003" / "KR1d0003_003.txt"
T = "{http://www.tei-c.org/ns/1.0}"
HEART_TOP = "欽定四庫全書"
PRIVATE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")

need_printing("pdfinfo", "pdftotext", "pdftoppm")


def convert(src, out_dir) -> str:
    from pipeline.convert import convert_file
    tei = str(pathlib.Path(out_dir) / (pathlib.Path(src).stem + ".xml"))
    convert_file(str(src), tei)
    return tei


def pages_of(path) -> int:
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info)[1])


def page_text(path, page) -> str:
    out = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", "-f", str(page), "-l", str(page), path, "-"],
                         capture_output=True, check=True).stdout.decode("utf-8")
    return "".join(out.split())


def glyph(g, root) -> str:
    """A tei:g as printed: a placeholder as the 缺字 square; a character that is not private-use
    as itself; else its declared Unicode form, else 〓."""
    if g.get("type") == "placeholder":
        return "□"
    if g.text and not PRIVATE.search(g.text):
        return g.text
    ref = (g.get("ref") or "").lstrip("#")
    decl = root.xpath(f"//*[@xml:id='{ref}']", namespaces={"xml": "http://www.w3.org/XML/1998/namespace"})
    mappings = [m.text for m in decl[0].iter(f"{T}mapping") if m.text and not PRIVATE.search(m.text)] if decl else []
    return (mappings or ["〓"])[0]


def sides_of(tei) -> list[tuple[str, str]]:
    """(pb/@n, text) of each side of the edition: the TEI's text in document order cut at pb,
    as the leaf prints it (placeholders □, quotation marks in vertical forms, no whitespace)."""
    root = etree.parse(tei).getroot()
    sides: list[list] = [["", ""]]          # whatever comes before the first pb (whitespace)

    def walk(el):
        if el.tag == f"{T}pb":
            sides.append([el.get("n"), ""])
        elif el.tag == f"{T}g":
            sides[-1][1] += glyph(el, root)
        elif el.tag == f"{T}ab" and el.get("type") == "translation":
            pass
        elif isinstance(el.tag, str):
            if el.text:
                sides[-1][1] += el.text
            for child in el:
                walk(child)
        if el.tail:
            sides[-1][1] += el.tail

    walk(root.find(f"{T}text"))
    assert not sides[0][1].strip()
    return [(n, "".join(t.split()).translate(VERTICAL_FORMS)) for n, t in sides[1:]]


def heart(n: str, work: str) -> str:
    """The 版心's text of the side n (3-1a): 欽定四庫全書, the work and 卷, the leaf number."""
    juan, leaf = re.fullmatch(r"(.+)-(\d+)[ab]", n).groups()
    return HEART_TOP + work + juan_label(juan) + hanzi(int(leaf))


def work_of(tei) -> str:
    return etree.parse(tei).getroot().findtext(f".//{T}titleStmt/{T}title[@type='work']")


@pytest.fixture(scope="module")
def fixture_tei(tmp_path_factory):
    return convert(FIXTURE, tmp_path_factory.mktemp("siku-fixture"))


def printed(tei, out, **options):
    counts: list = []
    [(path, pages)] = render_pdf([tei], str(out), PrintOptions(style="siku", **options), keep_html=True,
                                 counts=counts)
    html = pathlib.Path(path).with_suffix(".print.html").read_text(encoding="utf-8")
    return path, pages, html, counts[0][1]


def check_source_leaves(tei, out, leaf):
    """Pages == leaves (full) or sides (half), and each page reads as its leaf then its 版心."""
    sides = sides_of(tei)
    work = work_of(tei)
    path, pages, _, counts = printed(tei, out, leaf=leaf)
    assert counts["lineation"] == "source"
    if leaf == "half":
        expected = [(t, heart(n, work)) for n, t in sides]
    else:
        leaves: dict[str, list] = {}
        for n, t in sides:
            leaves.setdefault(n[:-1], []).append((n, t))
        expected = [("".join(t for _, t in sorted(group, key=lambda s: s[0][-1])), heart(group[0][0], work))
                    for group in leaves.values()]
    assert pages == pages_of(path) == len(expected)
    for i, (text, head) in enumerate(expected, 1):
        got = page_text(path, i)
        assert got == text + head, (leaf, i)
    return counts


def test_fixture_source_lineation_full_and_half(fixture_tei, tmp_path):
    # 3 sides (1a, 1b, 2a): 2 leaves, 3 half-leaves
    assert [n for n, _ in sides_of(fixture_tei)] == ["1-1a", "1-1b", "1-2a"]
    counts = check_source_leaves(fixture_tei, tmp_path / "full", "full")
    check_source_leaves(fixture_tei, tmp_path / "half", "half")
    # the 27-character line of side 1b is drawn smaller, not wrapped; nothing more is
    assert counts["squeezed"] == 1 and counts["crowded"] == 0


def test_fixture_columns_are_the_editions_lines_and_notes_split_at_the_milestone(fixture_tei, tmp_path):
    _, _, html, _ = printed(fixture_tei, tmp_path)
    doc = lhtml.fromstring(html)
    first = doc.xpath("//div[@class='pg'][1]//div[contains(@class,'half') and contains(@class,' a')]")[0]
    columns = first.xpath("./*[contains(concat(' ', @class, ' '), ' ln ')]")
    texts = ["".join("".join(c.itertext()).split()) for c in columns]
    assert texts[:4] == ["欽定四庫全書", "周禮注疏卷一", "漢鄭氏注唐陸徳明音義賈公彦疏",
                         "小宰之職掌建邦之宮刑以治王宮之政令凡宮之糾"]
    assert len(columns) == 8
    # the line of the 音義 and the 疏: each note's rows split where the edition put its /
    rows = columns[6].xpath(".//span[@class='r']")
    assert ["".join(r.itertext()) for r in rows] == ["鄭如字謂宮中之", "刑也干同杜作官",
                                                     "注釋曰後鄭以宮刑宮中之刑不", "從子春官刑者見秋官司宼已云"]
    # a note with no / in the edition is balanced: 直吏反下及注皆同 (9) → 5 + 4
    side_b = doc.xpath("//div[@class='pg'][1]//div[contains(@class,'half') and contains(@class,' b')]")[0]
    rows = side_b.xpath(".//span[@class='r']")[-2:]
    assert ["".join(r.itertext()) for r in rows] == ["治直吏反下", "及注皆同"]
    # the empty line of the edition is an empty column, and the side is filled up to 8
    cols_b = side_b.xpath("./*[contains(concat(' ', @class, ' '), ' ln ')]")
    assert len(cols_b) == 8 and "".join(cols_b[2].itertext()) == ""


def test_each_line_is_indented_as_the_edition_indents_it_and_a_raised_line_stands_out(tmp_path):
    """The TEI keeps a line's indentation (<lb/><space quantity="2" unit="chars"/>: the source's
    leading U+3000, which the text drops as whitespace), and the leaf prints it: the 卷 title one
    cell down, the commentators two; in a 提要 set four cells down, the line that opens with
    御纂 is raised to one (抬頭), as 欽定禮記義疏's 提要 prints it."""
    text = FIXTURE.read_text(encoding="utf-8").replace(
        "小宰之職掌建邦之宮刑以治王宮之政令凡宮之糾¶", "　　　　小宰之職掌建邦之宮刑以治王宮之政¶\n　御纂令凡宮之糾¶")
    src = tmp_path / "KR9z0003_001.txt"
    src.write_text(text, encoding="utf-8")
    tei = convert(src, tmp_path / "tei")
    xml = pathlib.Path(tei).read_text(encoding="utf-8")
    assert '<lb/><space quantity="1" unit="chars"/>周禮注疏卷一' in xml
    assert '<lb/><space quantity="4" unit="chars"/>小宰' in xml
    _, _, html, _ = printed(tei, tmp_path / "pdf")
    doc = lhtml.fromstring(html)
    side_a = doc.xpath("//div[@class='pg'][1]//div[contains(concat(' ', @class, ' '), ' half ')]")[0]
    indents = [next((int(c[1:]) for c in col.get("class").split() if re.fullmatch(r"i\d+", c)), 0)
               for col in side_a.xpath("./*[contains(concat(' ', @class, ' '), ' ln ')]")]
    assert indents[:6] == [0, 1, 2, 4, 1, 0]          # 欽定四庫全書, title, commentators, 提要, 御纂, 禁注…
    assert "padding-top:calc(var(--pad) + 4 * var(--cell))" in html   # deeper than siku.css's .i3


def test_the_heart_names_the_juan_of_the_text_not_the_file_number_of_its_pages(tmp_path):
    """Kanripo numbers pages by its files: KR1d0037_010's pages are 10-1a … but hold 卷八."""
    src = tmp_path / "KR9z0003_010.txt"
    src.write_text(FIXTURE.read_text(encoding="utf-8").replace("JUAN 1", "JUAN 8").replace("_001-", "_010-")
                   .replace("周禮注疏卷一", "周禮注疏卷八"), encoding="utf-8")
    _, _, html, _ = printed(convert(src, tmp_path / "tei"), tmp_path / "pdf")
    assert set(re.findall(r'class="ht title">([^<]*)<', html)) == {"周禮注疏 卷八"}
    assert "xmlns:zs" not in html                       # no namespace of the stylesheet leaks out


def test_empty_lines_between_the_printed_ones_give_way_when_a_side_has_too_many(tmp_path):
    """Kanripo's 欽定儀禮義疏 has two empty lines after nearly every printed one (23 to a side):
    they are dropped from a side that has more lines than columns, and only from such a side."""
    text = FIXTURE.read_text(encoding="utf-8")
    a, rest = text.split("<pb:KR9z0003_WYG_001-1b>")
    head, lines = a.split("<pb:KR9z0003_WYG_001-1a>¶\n")
    src = tmp_path / "KR9z0003_001.txt"
    src.write_text(head + "<pb:KR9z0003_WYG_001-1a>¶\n" + lines.replace("¶\n", "¶\n¶\n¶\n")
                   + "<pb:KR9z0003_WYG_001-1b>" + rest, encoding="utf-8")
    _, _, html, counts = printed(convert(src, tmp_path / "tei"), tmp_path / "pdf")
    doc = lhtml.fromstring(html)
    side_a, side_b = doc.xpath("//div[@class='pg'][1]//div[contains(concat(' ', @class, ' '), ' half ')]")
    columns = side_a.xpath("./*[contains(concat(' ', @class, ' '), ' ln ')]")
    assert len(columns) == 8 and all("".join(c.itertext()) for c in columns)
    assert counts["crowded"] == 0
    # side 1b fits: its one empty line stays an empty column
    assert "" in ["".join(c.itertext()) for c in side_b.xpath("./*[contains(concat(' ', @class, ' '), ' ln ')]")]


@pytest.mark.skipif(not KANRIPO.exists(), reason="../shared/kanripo absent")
def test_kanripo_juan_leaf_for_leaf(tmp_path):
    tei = convert(KANRIPO, tmp_path)
    counts = check_source_leaves(tei, tmp_path / "full", "full")
    check_source_leaves(tei, tmp_path / "half", "half")
    assert counts["crowded"] == 0 and counts["punctuation"] == 0


def grid_text(tei) -> str:
    """What the grid prints of a seed: the text of its body less translations and the
    furniture print.xsl leaves out, placeholders □, vertical quotation marks."""
    root = etree.parse(tei).getroot()
    parts = []

    def walk(el):
        skip = (el.tag == f"{T}ab" and el.get("type") == "translation") or el.tag == f"{T}teiHeader" \
            or (el.tag == f"{T}fw" and (el.get("type") == "source" or el.get("subtype") == "repeat"))
        if el.tag == f"{T}g":
            parts.append(glyph(el, root))
        elif not skip and isinstance(el.tag, str):
            parts.append(el.text or "")
            for child in el:
                walk(child)
        if el.getparent() is not None and el.getparent().tag not in (f"{T}body", f"{T}div"):
            parts.append(el.tail or "")

    walk(root.find(f"{T}text"))
    return "".join("".join(parts).split()).translate(VERTICAL_FORMS)


@pytest.mark.parametrize("tei", TEIS, ids=lambda p: pathlib.Path(p).stem[:3])
def test_seed_on_the_grid_reads_as_the_document(tei, tmp_path):
    path, pages, html, counts = printed(tei, tmp_path)
    assert counts["lineation"] == "grid"
    assert pages == pages_of(path) == html.count('<div class="pg"') and pages >= 1
    work = work_of(tei)
    joined = ""
    sides = re.findall(r'<div class="ht title">([^<]*)</div><div class="ht number">([^<]*)</div>', html)
    assert len(sides) == pages
    for i, (title, number) in enumerate(sides, 1):
        text = page_text(path, i)
        tail = HEART_TOP + "".join(htmlmod.unescape(title).split()) + number
        assert text.endswith(tail), i
        assert title.startswith(work)
        joined += text[: -len(tail)]
    assert joined == grid_text(tei)
    # the leaves of each 卷 numbered from 一
    juans = len(etree.parse(tei).getroot().findall(f"{T}text/{T}body/{T}div"))
    numbers, k = [n for _, n in sides], 0
    for n in numbers:
        k = 1 if n == "一" else k + 1
        assert n == hanzi(k)
    assert numbers.count("一") == juans


def geometry(html) -> dict[str, float]:
    root = re.search(r":root\{([^}]*)\}", html)[1]
    return {k: float(v[:-2]) if v.endswith("mm") else float(v)
            for k, v in (d.split(":") for d in root.split(";"))}


def dark_runs(values, threshold=160) -> list[tuple[int, int]]:
    """(first, last) indexes of each run of dark pixels."""
    runs, start = [], None
    for i, v in enumerate(list(values) + [255]):
        if v < threshold and start is None:
            start = i
        elif v >= threshold and start is not None:
            runs.append((start, i - 1))
            start = None
    return runs


def read_pgm(path):
    data = pathlib.Path(path).read_bytes()
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    w, h = int(m[1]), int(m[2])
    pix = data[m.end():]
    return w, h, lambda x, y: pix[y * w + x]


def test_frame_rules_and_heart_are_where_the_geometry_puts_them(fixture_tei, tmp_path):
    path, _, html, _ = printed(fixture_tei, tmp_path)
    g = geometry(html)
    dpi = 100
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-f", "1", "-l", "1", path, str(tmp_path / "p")], check=True)
    [pgm] = tmp_path.glob("p*.pgm")
    w, h, px = read_pgm(pgm)
    mm = dpi / 25.4
    o, gap, r, p, c = g["--outer"], g["--gap"], g["--rule"], g["--pitch"], g["--cell"]
    x0, y0, lw, lh, n = g["--left"], g["--top"], g["--leaf-width"], g["--leaf-height"], int(g["--columns"])
    assert abs(w - g["--paper-width"] * mm) <= 1 and w > h                    # landscape: a whole leaf
    xr = x0 + lw - o - gap - r                                               # inside edge of the right inner rule
    rules = [x0 + o / 2, x0 + o + gap + r / 2]                               # outer, inner (left)
    rules += [xr - 2 * n * p - g["--heart"] + k * p + r / 2 for k in range(1, n)]     # half b's column rules
    rules += [xr - n * p - g["--heart"] + r / 2]                              # 版心, left side
    rules += [xr - j * p + r / 2 for j in range(n, 0, -1)]                    # half a, the 版心's right side first
    rules += [xr + r / 2, x0 + lw - o / 2]                                    # inner, outer (right)
    # along a row of pixels in the room below the text, where only the vertical rules are dark
    y = int((y0 + lh - o - gap - r - g["--pad"] / 2) * mm)
    runs = dark_runs(px(x, y) for x in range(w))
    centres = [(a + b) / 2 / mm for a, b in runs]
    assert len(centres) == len(rules) == 2 * n + 4
    for got, want in zip(centres, rules):
        assert abs(got - want) < 1.5 / mm * 1.5, (got, want)
    # down a column of pixels just inside the inner frame, left of any text: the four horizontal rules
    x = int((x0 + o + gap + r + 0.08 * p) * mm)
    runs = dark_runs(px(x, yy) for yy in range(h))
    tops = [y0 + o / 2, y0 + o + gap + r / 2, y0 + lh - o - gap - r / 2, y0 + lh - o / 2]
    assert [abs((a + b) / 2 / mm - t) < 1.5 / mm * 1.5 for (a, b), t in zip(runs, tops)] == [True] * 4
    assert len(runs) == 4
    # the 魚尾 down the middle of the 版心: black from its top to the notch (0.45 of its height)
    x = int((xr - n * p - g["--heart"] / 2) * mm)
    top = y0 + o + gap + r + 7.2 * c
    runs = [(a / mm, b / mm) for a, b in dark_runs(px(x, yy) for yy in range(h))]
    fish = [(a, b) for a, b in runs if abs(a - top) < 1.0]
    assert len(fish) == 1 and abs((fish[0][1] - fish[0][0]) - 0.45 * 0.9 * c) < 0.6


def lines_of(html):
    """The text of every printed column and every note row of a siku document."""
    doc = lhtml.fromstring(html)
    cols = ["".join(c.itertext()) for c in doc.xpath("//*[contains(concat(' ', @class, ' '), ' ln ')]")]
    rows = ["".join(r.itertext()) for r in doc.xpath("//span[@class='r']")]
    return [t for t in cols + rows if t.strip()]


def column_length(col) -> int:
    """The cells a printed column takes, hanging closing marks included (none may hang past the
    frame): its full-size characters, and each note piece as long as its longer row."""
    def cells(text):
        return len(text) - sum(1 for ch in text if ch.isascii()) / 2     # narrow: half a cell
    return sum(max(cells("".join(r.itertext())) for r in run) if run.get("class") == "wr"
               else cells("".join(run.itertext())) for run in col)


def broken(text) -> bool:
    text = text.strip("\u3000 ")
    return bool(text) and (text[0] in CLOSING or text[-1] in OPENING)


def test_no_column_or_row_breaks_the_punctuation_rules(fixture_tei, tmp_path):
    for tei in TEIS:
        _, _, html, _ = printed(tei, tmp_path / pathlib.Path(tei).stem)
        # seed 000's text itself ends on “: its last column and row cannot help ending on it
        end = grid_text(tei)[-8:]
        bad = [t for t in lines_of(html) if broken(t) and not "".join(t.split()).endswith(end)]
        assert bad == [], (tei, bad[:3])


@pytest.mark.skipif(not KANRIPO.exists(), reason="../shared/kanripo absent")
def test_kanripo_lines_keep_the_punctuation_rules(tmp_path):
    # the edition's own lines: counted by the stylesheet, and none in this 卷
    _, _, html, counts = printed(convert(KANRIPO, tmp_path), tmp_path)
    assert [t for t in lines_of(html) if broken(t)] == [] and counts["punctuation"] == 0


def test_columns_and_cells_change_the_grid(tmp_path):
    seed = TEIS[4]
    _, pages8, html8, _ = printed(seed, tmp_path / "c8")
    _, pages6, html6, _ = printed(seed, tmp_path / "c6", columns=6, cells=18)
    g = geometry(html6)
    assert g["--columns"] == 6 and g["--cells"] == 18
    doc = lhtml.fromstring(html6)
    assert {len(h.xpath("./*")) for h in doc.xpath("//div[starts-with(@class,'half')]")} == {6}
    assert pages6 > pages8
    # a column holds 18 cells at most, its closing marks too: none hangs across the frame
    assert max(map(column_length, doc.xpath("//*[contains(concat(' ', @class, ' '), ' ln ')]"))) == 18


@pytest.mark.parametrize("args, says", [
    (["--columns", "0"], "--columns"),
    (["--cells", "3"], "--cells 3"),
    (["--layout", "horizontal"], "vertical only"),
    (["--leaf", "quarter"], "--leaf"),
    (["--lineation", "guess"], "--lineation"),
])
def test_bad_options_say_so_in_one_line(run, tmp_path, args, says):
    code, _, err = run("render", "pdf", TEIS[2], "-o", tmp_path, "--style", "siku", *args)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
