"""The print edition's line grid (xslt/grid.xsl through xslt/print.xsl): lines of N cells, 雙行小注
as two balanced rows that continue on the next line, punctuation that hangs instead of opening a
line, narrow characters measured. Checked on small made-up texts and on every bundled seed."""
import pathlib
import unicodedata

import pytest
from lxml import etree, html

from conftest import CLOSING, OPENING, VERTICAL_FORMS
from pipeline.render.pdf import print_renderer
from pipeline.render.xslt import load_tei

ROOT = pathlib.Path(__file__).resolve().parents[1]
TEIS = sorted((ROOT / "tei").glob("[0-9]*.xml"))
TEI = "http://www.tei-c.org/ns/1.0"
WIDE_AMBIGUOUS = set("“”‘’…‥○□■◎※┹")


def width(c, small=False):
    """Units (quarter cells) of one character, as grid.xsl measures them."""
    if unicodedata.category(c) in ("Mn", "Me", "Cf"):
        w = 0
    elif unicodedata.east_asian_width(c) in "WF" or c in WIDE_AMBIGUOUS or 0xE000 <= ord(c) <= 0xF8FF:
        w = 4
    else:
        w = 2
    return w // 2 if small else w


def render(tei_path, **params):
    return html.fromstring(print_renderer(params).render(load_tei(str(tei_path)), str(tei_path)))


def lines_of(doc):
    """Each line as a list of items: ('big', text) or ('note', row 1, row 2)."""
    out = []
    for ln in doc.xpath("//*[contains(concat(' ', @class, ' '), ' ln ')]"):
        items = []
        for e in ln:
            if "wr" in e.get("class", "").split():
                r1, r2 = e.findall("span")
                items.append(("note", r1.text_content(), r2.text_content()))
            else:
                items.append(("big", e.text_content()))
        out.append((ln.get("class").split(), items))
    return out


def tei(body, tmp_path, name="t.xml"):
    path = tmp_path / name
    path.write_text(f'<TEI xmlns="{TEI}"><teiHeader><fileDesc><titleStmt><title type="work">測試</title>'
                    f'<title type="juan">卷一</title></titleStmt></fileDesc></teiHeader><text><body>'
                    f'<div type="juan" xml:id="d1">{body}</div></body></text></TEI>', encoding="utf-8")
    return path


def unit(jing, zhu=None):
    note = f'<note type="zhu" place="inline" xml:id="u1.z1">{zhu}</note>' if zhu else ""
    return f'<ab type="jing" xml:id="u1"><seg xml:id="u1.j1">{jing}</seg>{note}</ab>'


def test_a_note_longer_than_the_rest_of_the_line_continues_with_balanced_rows(tmp_path):
    doc = render(tei(unit("天地玄黄宇宙", "一二三四五六七八九十甲乙丙丁戊己庚辛壬癸"), tmp_path), cells=10)
    assert [items for _, items in lines_of(doc)] == [
        # 4 cells left: two full rows of 8 half-size characters
        [("big", "天地玄黄宇宙"), ("note", "一二三四五六七八", "九十甲乙丙丁戊己")],
        [("note", "庚辛", "壬癸")],                                        # the rest, balanced
    ]


def test_an_odd_note_puts_the_extra_character_in_the_first_row(tmp_path):
    doc = render(tei(unit("天地", "一二三四五"), tmp_path), cells=10)
    assert lines_of(doc)[0][1] == [("big", "天地"), ("note", "一二三", "四五")]


def test_closing_punctuation_hangs_at_the_end_of_the_line(tmp_path):
    doc = render(tei(unit("一二三四五六七八九十。」天地"), tmp_path), cells=10)
    assert [items for _, items in lines_of(doc)] == [[("big", "一二三四五六七八九十。」")], [("big", "天地")]]


def test_no_more_than_two_marks_hang(tmp_path):
    """Before a longer run of closing marks (’。” at the end of a line) the character they follow
    goes down with them: the page keeps room for two hanging marks, and none opens a line."""
    doc = render(tei(unit("一二三四五六七八九十’。”天地"), tmp_path), cells=10, layout="horizontal")
    assert [items for _, items in lines_of(doc)] == [[("big", "一二三四五六七八九")], [("big", "十’。”天地")]]
    doc = render(tei(unit("一二三四五六七八九十。”天地"), tmp_path), cells=10, layout="horizontal")
    assert [items for _, items in lines_of(doc)] == [[("big", "一二三四五六七八九十。”")], [("big", "天地")]]
    doc = render(tei(unit("一二三四五六七八九。’。”天"), tmp_path), cells=10, layout="horizontal")   # marks before the base too
    assert [items for _, items in lines_of(doc)] == [[("big", "一二三四五六七八")], [("big", "九。’。”天")]]


def test_opening_punctuation_does_not_end_a_line(tmp_path):
    doc = render(tei(unit("一二三四五六七八九“十”"), tmp_path), cells=10, layout="horizontal")
    assert [items for _, items in lines_of(doc)] == [[("big", "一二三四五六七八九")], [("big", "“十”")]]


def test_closing_punctuation_does_not_open_the_second_row_of_a_note(tmp_path):
    doc = render(tei(unit("天地", "甲乙丙。丁戊"), tmp_path), cells=10)
    assert lines_of(doc)[0][1][1] == ("note", "甲乙丙。", "丁戊")


def test_opening_punctuation_does_not_end_the_first_row_of_a_note(tmp_path):
    """Issue 18: h004 printed a note whose first row ended on “ (下文注“ / 道之”…): the mark goes
    down to open the second row."""
    doc = render(tei(unit("天地", "一二三“四五六"), tmp_path), cells=10, layout="horizontal")
    assert lines_of(doc)[0][1][1] == ("note", "一二三", "“四五六")


def test_the_second_row_of_a_continued_note_does_not_take_a_lone_opening_mark(tmp_path):
    """Half a cell left (a narrow a after nine cells): one small character a row. Row 2 stays
    empty rather than hold the “ alone, which goes down to open the next line's rows."""
    doc = render(tei(unit("天地玄黄宇宙玄黄宇a", "一“二三”四"), tmp_path), cells=10, layout="horizontal")
    lines = [items for _, items in lines_of(doc)]
    assert lines[0][-1] == ("note", "一", "")
    assert lines[1] == [("note", "“二", "三”四")]


def test_an_opening_mark_ending_a_run_goes_down_with_the_run_after_it(tmp_path):
    """The line breaking sees one run at a time: a “ ending the text before a scholar's name
    would end the line when the name starts the next one (h000 p.1)."""
    shu = ('<note type="shu" xml:id="u1.s1" target="#u1.j1"><label type="mark">疏</label>'
           '<p>一二三四五六七“<persName>鄭玄</persName>曰”</p></note>')
    doc = render(tei(unit("天地") + shu, tmp_path), cells=10, layout="horizontal")
    assert [items for _, items in lines_of(doc)[1:]] == [
        [("big", "疏"), ("big", "一二三四五六七")],
        [("big", "“鄭玄"), ("big", "曰”")]]


def test_quotation_marks_take_their_vertical_forms_in_vertical_lines(tmp_path):
    path = tei(unit("曰“天‘地’”", "云“玄”"), tmp_path)
    assert lines_of(render(path, cells=10))[0][1] == [("big", "曰﹁天﹃地﹄﹂"), ("note", "云", "﹁玄﹂")]
    assert lines_of(render(path, cells=10, layout="horizontal"))[0][1] == [
        ("big", "曰“天‘地’”"), ("note", "云", "“玄”")]
    assert "“" in path.read_text(encoding="utf-8")                        # the TEI is unchanged


def test_placeholders_print_as_the_missing_character_square_and_gaiji_as_their_unicode_form(tmp_path):
    """A placeholder the e-text prints (┹ ▯ ?) is drawn as □, never as itself or as tofu; a
    character Unicode lacks (Kanripo's private-use code point) as its declared form, else 〓."""
    decl = ('<char xml:id="p1"><desc>placeholder</desc></char>'
            '<char xml:id="KR0943"><mapping type="normalized">萌</mapping></char>'
            '<char xml:id="KR1470"><desc>[口*(一/巾)]</desc></char>')
    path = tei(unit('天<g ref="#p1" type="placeholder">┹</g>地<g ref="#p1" type="placeholder">?</g>'
                    '<g ref="#KR0943">\U0010F3AF</g><g ref="#KR1470">\U0010F5BE</g>玄'), tmp_path)
    text = path.read_text(encoding="utf-8").replace("<teiHeader><fileDesc>",
                                                    f"<teiHeader><encodingDesc><charDecl>{decl}</charDecl></encodingDesc><fileDesc>")
    path.write_text(text, encoding="utf-8")
    assert lines_of(render(path, cells=10))[0][1] == [("big", "天□地□萌〓玄")]


def test_a_note_that_does_not_fit_at_all_starts_the_next_line(tmp_path):
    doc = render(tei(unit("一二三四五六七八九十", "甲乙"), tmp_path), cells=10)
    assert [items for _, items in lines_of(doc)] == [[("big", "一二三四五六七八九十")], [("note", "甲", "乙")]]


def test_narrow_characters_are_measured_as_half_a_cell(tmp_path):
    doc = render(tei(unit("ABCDEFGHIJ一二三四五"), tmp_path), cells=10)     # 10 × ½ + 5 = 10 cells
    assert [items for _, items in lines_of(doc)] == [[("big", "ABCDEFGHIJ一二三四五")]]
    assert len(doc.xpath("//span[@class='n']")) == 10                       # drawn in half-cell boxes
    doc = render(tei(unit("ABCDEFGHIJ一二三四五六"), tmp_path), cells=10)
    assert [items for _, items in lines_of(doc)] == [[("big", "ABCDEFGHIJ一二三四五")], [("big", "六")]]


def test_ambiguous_marks_get_a_full_cell_box(tmp_path):
    doc = render(tei(unit("“一”二"), tmp_path), cells=10, layout="horizontal")
    assert [s.text for s in doc.xpath("//span[@class='f']")] == ["“", "”"]


def test_the_shu_is_indented_and_its_lines_hold_one_cell_less(tmp_path):
    shu = ('<note type="shu" xml:id="u1.s1" target="#u1.j1"><label type="mark">疏</label>'
           '<label type="chuwen">“天地”</label><p>释曰：一二三四五六七八九十</p></note>')
    doc = render(tei(unit("天地") + shu, tmp_path), cells=10, layout="horizontal")
    lines = lines_of(doc)
    assert lines[1][0] == ["ln", "shu", "i1"] and lines[2][0] == ["ln", "shu", "i1"]
    assert "".join(t for _, *rest in lines[1][1] for t in rest) == "疏“天地”释曰：一"   # 9 cells
    assert lines[1][1][0] == ("big", "疏")                                   # the mark opens it


def test_lines_per_page_and_cells_per_line_are_parameters():
    doc = render(ROOT / "tei" / "004_788d901eea474415.xml", cells=20, lines=6)
    pages = doc.xpath("//div[@class='pg']")
    counts = [len(p) for p in pages]
    assert counts[:-1] == [6] * (len(pages) - 1) and 1 <= counts[-1] <= 6
    css = doc.xpath("string(//style)")
    # 257 mm of A4 height over 20 cells is 12.85 mm, but two cells must stay free below the lines
    # for hanging marks and the 20 mm margin spares 12 (the page number needs 8): the lines give
    # up 13.7 mm, and 243.3 mm over 20 cells is 12.165 mm
    assert "--cell:12.165mm" in css and "--hang:25.7mm" in css


def test_every_juan_starts_a_page_with_its_own_running_head():
    doc = render(ROOT / "tei" / "001_bb2ea7f0d69008db.xml")
    pages = doc.xpath("//div[@class='pg']")
    names = [p.get("style") for p in pages]
    first_j2 = names.index("page:j2")
    assert set(names[:first_j2]) == {"page:j1"} and set(names[first_j2:]) == {"page:j2"}
    assert pages[first_j2][0].text_content() == "钦定礼记义疏卷三十"
    # headings are h1 (卷) and h2 (a section in it): Chromium makes bookmarks of them
    assert [(h.tag, h.text_content()) for h in doc.xpath("//h1 | //h2")] == [
        ("h1", "钦定礼记义疏卷二十九"), ("h1", "钦定礼记义疏卷三十"), ("h2", "礼运第九之一")]
    css = doc.xpath("string(//style)")
    assert '@page j1{@top-center{content:"钦定礼记义疏 · 卷二十九"}}' in css
    assert '@page j2{@top-center{content:"钦定礼记义疏 · 卷三十"}}' in css


# -- every seed: the rules hold on real text, and no character is lost --------------------------

def printed_text(tei_path):
    """What the print edition must show, in order: the body's text without translations, the
    e-text's source line and repeated furniture, with ○ before each 疏 sub-lemma."""
    root = etree.parse(str(tei_path)).getroot()
    t = "{%s}" % TEI
    out = []

    def walk(e):
        if e.tag == t + "ab" and e.get("type") == "translation" or e.tag == t + "fw" and (
                e.get("sameAs") or e.get("type") == "source"):
            return
        if e.tag == t + "note" and e.get("subtype") == "sublemma":
            out.append("○")
        # a placeholder for a missing character is printed as the 缺字 square
        out.append("□" if e.tag == t + "g" and e.get("type") == "placeholder" else e.text or "")
        for c in e:
            walk(c)
            out.append(c.tail or "")
    walk(root.find(f"{t}text"))
    return "".join(out).translate({ord(c): None for c in "\n\r\t"}).translate(VERTICAL_FORMS)


@pytest.fixture(scope="module", params=[13, 24], ids=["13-cells", "24-cells"])
def seeds(request):
    return request.param, {p.stem[:3]: (p, lines_of(render(p, cells=request.param))) for p in TEIS}


def test_no_line_and_no_second_row_opens_with_closing_punctuation(seeds):
    _, docs = seeds
    for name, (_, lines) in docs.items():
        for n, (_, items) in enumerate(lines):
            first = items[0][1]
            assert first[0] not in CLOSING, (name, n, items)
            for item in items:
                if item[0] == "note" and item[2]:
                    assert item[2][0] not in CLOSING, (name, n, item)


def test_no_line_and_no_first_row_ends_with_opening_punctuation(seeds):
    """Save where the text itself ends on the mark (h000's last 疏 ends on “: nothing can follow)."""
    _, docs = seeds
    for name, (path, lines) in docs.items():
        ends = block_endings(path)
        for n, (_, items) in enumerate(lines):
            last = items[-1]
            text = last[1] if last[0] == "big" else last[2] or last[1]
            if text[-1] in OPENING:
                tail = "".join(t for _, *rows in items for t in rows)[-4:]
                assert any(end.endswith(tail) for end in ends), (name, n, items)
            for item in items:
                if item[0] == "note" and item[2]:
                    assert item[1][-1] not in OPENING, (name, n, item)


def block_endings(tei_path):
    """The last characters of each block the print edition sets (a 經 unit, a 疏, a heading …)."""
    root = etree.parse(str(tei_path)).getroot()
    blocks = root.xpath("//t:body//t:div/*[not(self::t:div)]", namespaces={"t": TEI})
    return {"".join(b.itertext()).strip().translate(VERTICAL_FORMS)[-4:] for b in blocks}


def test_lines_hold_their_cells_save_for_hanging_punctuation(seeds):
    cells, docs = seeds
    for name, (_, lines) in docs.items():
        for n, (classes, items) in enumerate(lines):
            indent = next((int(c[1:]) for c in classes if c[:1] == "i" and c[1:].isdigit()), 0)
            cap = 4 * (cells - indent)
            length = 0
            for item in items:
                if item[0] == "big":
                    length += sum(width(c) for c in item[1])
                else:
                    length += max(sum(width(c, True) for c in r) for r in item[1:])
            # what may hang past the end: the closing punctuation the line ends with
            last = items[-1]
            if last[0] == "big":
                text = "".join(i[1] for i in items if i[0] == "big")
                hang = text[len(text.rstrip("".join(CLOSING))):]
                hanging = sum(width(c) for c in hang)
            else:
                hanging = max(sum(width(c, True) for c in r[len(r.rstrip("".join(CLOSING))):]) for r in last[1:])
            assert length - hanging <= cap, (name, n, items)


def test_the_last_piece_of_every_note_is_balanced(seeds):
    _, docs = seeds
    for name, (_, lines) in docs.items():
        for n, (_, items) in enumerate(lines):
            for i, item in enumerate(items):
                if item[0] != "note":
                    continue
                continued = (i == len(items) - 1 and n + 1 < len(lines) and lines[n + 1][1][0][0] == "note")
                if continued:
                    continue
                r1, r2 = item[1], item[2]
                if r2[:1] and r2[0] not in CLOSING and (r1[-1:] in CLOSING or r2[1:2] in CLOSING
                                                         or r2[0] in OPENING):
                    moved = 1                     # the split moved around punctuation
                else:
                    moved = len(r1) - len(r1.rstrip("".join(CLOSING)))
                assert abs(len(r1) - len(r2)) <= 1 + moved, (name, n, item)


def test_every_character_of_the_text_is_printed_in_order(seeds):
    _, docs = seeds
    for name, (path, lines) in docs.items():
        got = "".join(t for _, items in lines for _, *rows in items for t in rows)
        assert got == printed_text(path), name
