"""Layout `bare`: Kanripo's `tls` editions of the 經 alone (周禮 KR1d0001, 禮記 KR1d0052) and the
plain e-texts laid out the same way. Fixtures (tests/fixtures/kanripo/bare_*.txt) are written in
the style of the real files: `** N` headings with no `¶`, sections `N.M.` (周禮) and `N.M` glued to
the first phrase (禮記), `¶` a phrase break (mid-line, or missing on a paragraph's last line), page
markers that are paragraph counters (周禮, one before a section number on its line) or section
starts at the end of the section before (禮記), `# src:`/`# dating:` before each 禮記 paragraph,
a file with no section numbers (問喪), an empty phrase (`¶¶`), a gaiji."""
import glob
import re

import pytest
from lxml import etree

from conftest import ROOT, SHARED, _tei_all_schema, convert_checked
from pipeline.readers import pian

FIX = ROOT / "tests" / "fixtures" / "kanripo"
BARE = SHARED / "kanripo" / "bare"
T = "{http://www.tei-c.org/ns/1.0}"
NS = {"t": T[1:-1]}


def _convert(path):
    from pipeline.convert import convert_file
    data, report = convert_file(str(path))
    assert not report.errors, report.errors
    root = etree.fromstring(data)
    schema = _tei_all_schema()
    if schema is not None:
        assert schema.validate(root), schema.error_log
    assert convert_file(str(path))[0] == data                 # deterministic
    return root, report


def _file_text(path) -> str:
    """The file's text less the mandoku markup (# lines, an org heading's stars, page markers,
    ¶, note parentheses) and whitespace, each gaiji its character: what the TEI must hold."""
    from pipeline.chars import lossless_form
    from pipeline.sources import kanripo, mandoku
    raw = open(path, encoding="utf-8").read()
    text = "".join(re.sub(r"^\*+ +", "", l) for l in raw.split("\n") if not l.startswith("#"))
    gaiji = kanripo.Context.near(str(path)).gaiji_char
    text = mandoku.GAIJI.sub(lambda m: gaiji(m.group(1)), re.sub(r"<pb:[^<>]*>|¶", "", text))
    return lossless_form(text, frozenset("()"))


def _text(e) -> str:
    return re.sub(r"\s+", "", "".join(e.itertext()))


def _sections(root):
    """The numbered sections: 章 of a 篇 (n the 章's own number), or sections of a heading that
    is no 篇 of pian.tsv (n as printed)."""
    return root.xpath("//t:body/t:div/t:div[@type='section' or @type='zhang']", namespaces=NS)


def _printed(d) -> str:
    """The section number as printed (1.0): a 章's 篇 number as printed, and its own."""
    label = _text(d.find(f"{T}ab/{T}label")).rstrip(".")
    return label.rsplit(".", 1)[0] + "." + d.get("n") if d.get("type") == "zhang" else d.get("n")


def _units(root):
    return [_text(ab) for ab in root.iterfind(f".//{T}body//{T}ab")]


def _lossless(root, path):
    from pipeline.textlayers import layer_text
    assert layer_text(root, "all") == _file_text(path)


# -- the 周禮 (b0001) -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def zhouli():
    return _convert(FIX / "bare_zhouli.txt")


def test_zhouli_is_read_as_bare_and_lossless(zhouli):
    root, report = zhouli
    assert report.layout == "bare" and "Kanripo" in report.layout_reason
    _lossless(root, FIX / "bare_zhouli.txt")
    assert not report.issues


def test_zhouli_guan_heading_opens_the_division(zhouli):
    root, _ = zhouli
    top = root.findall(f"{T}text/{T}body/{T}div")
    assert [(d.get("type"), d.get("n")) for d in top] == [("pian", "1")]       # 天官冢宰, pian.tsv
    head = top[0].find(f"{T}head")
    assert head.get("type") == "pian" and _text(head) == "1天官冢宰"
    # the division of the file is the 官 its heading names
    assert root.findtext(f".//{T}titleStmt/{T}title[@type='juan']") == "天官冢宰"


def test_zhouli_sections_keep_their_printed_number(zhouli):
    root, _ = zhouli
    secs = _sections(root)
    assert [(d.get("type"), d.get("n")) for d in secs] == [("zhang", "0"), ("zhang", "1"), ("zhang", "2")]
    for d in secs:
        first = d.find(f"{T}ab")
        label = first[0]
        assert label.tag == f"{T}label" and label.get("type") == "mark"
        assert _text(label) == "1." + d.get("n") + "."    # 1.0. as printed, with its final dot


def test_zhouli_units_are_sentences_within_paragraphs(zhouli):
    root, _ = zhouli
    assert _units(root) == [
        "1.0.惟王建國，辨方正位，體國經野，以為民極。", "乃立天官冢宰，以佐王均邦國。",
        "治官之屬：",                                     # a paragraph of its own ends its unit
        "大宰，卿一人；小宰，中大夫二人。",
        "1.1.大宰之職，掌建邦之六典，以佐王治邦國。", "一曰治典，以經邦國。",
        "1.2.小宰之職掌建邦之宮刑，以治王宮之政令，凡宮之糾禁。",
        "掌邦之六典、八法、八則之貳，以逆邦國都鄙官府之治。"]
    first = root.find(f".//{T}ab")
    assert [_text(s) for s in first.iterfind(f"{T}seg")] == ["惟王建國，", "辨方正位，", "體國經野，", "以為民極。"]
    from pipeline.textlayers import layer_lines
    assert layer_lines(root, "jing")[0] == "惟王建國，辨方正位，體國經野，以為民極。"   # the number is no 經


def test_zhouli_paragraph_counters_are_pages_in_order(zhouli):
    root, _ = zhouli
    pbs = root.findall(f".//{T}body//{T}pb")
    assert [p.get("n") for p in pbs] == [f"1-{k}a" for k in range(1, 8)]
    assert all(p.get("ed") == "tls" for p in pbs)
    surfaces = {s.get("{http://www.w3.org/XML/1998/namespace}id") for s in root.iter(f"{T}surface")}
    assert all(p.get("facs")[1:] in surfaces for p in pbs)
    # the marker with the section number after it on its line stands before that number
    label = _sections(root)[2].find(f"{T}ab/{T}label")
    assert [p.get("n") for p in label.iter(f"{T}pb")] == ["1-5a", "1-6a"]


def test_zhouli_comment_lines_stay_in_the_header(zhouli):
    root, _ = zhouli
    notes = [n.text for n in root.iterfind(f".//{T}sourceDesc//{T}note[@type='comment']")]
    assert "src: ÂÃ°¤Ø" in notes and "dating: 8110" in notes
    assert "8110" not in _text(root.find(f".//{T}body"))


# -- the 禮記 (b0052) -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def liji():
    return _convert(FIX / "bare_liji.txt")


def test_liji_sections_glued_to_their_first_phrase(liji):
    root, report = liji
    assert report.layout == "bare" and not report.issues
    _lossless(root, FIX / "bare_liji.txt")
    top = root.find(f"{T}text/{T}body/{T}div")
    # 喪服大記 is no 篇 of pian.tsv (the 喪大記 is): a section, numbered as printed
    assert (top.get("type"), top.get("n")) == ("section", "23") and _text(top.find(f"{T}head")) == "23喪服大記"
    secs = _sections(root)
    assert [d.get("n") for d in secs] == ["23.1", "23.2", "23.3"]
    assert [_text(d.find(f"{T}ab/{T}label")) for d in secs] == ["23.1", "23.2", "23.3"]


def test_liji_units_and_phrases(liji):
    from pipeline.sources import kanripo
    gaiji = kanripo.Context.near(str(FIX / "bare_liji.txt")).gaiji_char
    root, _ = liji
    assert _units(root) == [
        "23.1君之喪，三日子、夫人杖，五日既殯，授大夫世婦杖。",
        "23.2大夫之喪，三日之朝既殯，主人主婦室老皆杖。",
        # a paragraph whose last phrase has no ¶ ends before the next paragraph
        "士之喪，二日而殯，三日之朝，主人杖，婦人皆杖。",
        "於君命，夫人命，如大夫。",
        f"23.3子曰：「君子之{gaiji('KR0427')}也，必以其時。」"]
    # ¶ in the middle of a line is a phrase break too: one <lb/> per printed phrase, but the
    # first phrase goes on the printed line the heading began (no ¶ ends the heading's line)
    first = root.find(f".//{T}ab")
    assert len(first.findall(f".//{T}lb")) == 4 and first.find(f"{T}seg").find(f"{T}lb") is None
    assert [_text(s) for s in first.iterfind(f"{T}seg")] == ["君之喪，", "三日子、", "夫人杖，", "五日既殯，", "授大夫世婦杖。"]


def test_liji_section_marker_at_line_end_is_placed_at_the_next_section(liji):
    root, _ = liji
    secs = _sections(root)
    for d, page in zip(secs[1:], ("23-2a", "23-3a")):
        label = d.find(f"{T}ab/{T}label")
        assert [p.get("n") for p in label.iter(f"{T}pb")] == [page]


def test_liji_src_and_dating_comments_in_the_header(liji):
    root, _ = liji
    notes = root.findall(f".//{T}sourceDesc//{T}note[@type='comment']")
    src = [n for n in notes if n.text.startswith("src: LIJI")]
    assert [n.text.split(";")[0] for n in src] == [f"src: LIJI 22.02.0{k}" for k in range(1, 6)]
    assert all(n.get("n", "").startswith("line ") for n in src)


def test_liji_gaiji_declared(liji):
    root, _ = liji
    assert root.find(f".//{T}charDecl/{T}char[@{{http://www.w3.org/XML/1998/namespace}}id='KR0427']") is not None
    assert root.find(f".//{T}body//{T}g[@ref='#KR0427']") is not None


def test_file_with_no_section_numbers():
    root, report = _convert(FIX / "bare_nonumbers.txt")
    assert report.layout == "bare"
    _lossless(root, FIX / "bare_nonumbers.txt")
    assert not _sections(root)
    top = root.find(f"{T}text/{T}body/{T}div")
    # tls numbers 問喪 36 (it prints a 喪服大記 beside the 喪大記); pian.tsv, 鄭玄's order, 35
    assert top.get("n") == "35" and [e.tag for e in top][:2] == [f"{T}head", f"{T}ab"]
    assert _units(root) == ["親始死，雞斯，徒跣，扱上衽，交手哭。", "三日而斂，在床曰尸，在棺曰柩。"]


def test_a_line_run_on_over_a_paragraph_break_is_cut_there():
    """mandoku ends a printed line only at ¶: a paragraph's last phrase without one runs on
    into the next paragraph, over the blank and # lines (and a page marker) between them.
    The reader cuts it there, the page, gaiji and positions going with the part they are in."""
    from pipeline.readers import bare
    from pipeline.sources import mandoku, paragraphs
    text = ("#+TITLE: 禮記\n<pb:KR1d0052_tls_023-1a>¶\n** 23 喪服大記\n\n23.1婦人皆杖。\n\n"
            "# src: LIJI 22.02.04;\n<pb:KR1d0052_tls_023-2a>於&KR0427;命，¶\n")
    doc = mandoku.parse(text, "x.txt")
    assert [line.text for line in doc.lines] == ["23 喪服大記23.1婦人皆杖。於\U001001ab命，"]
    paras = bare.paragraphs(doc.lines)
    assert [[line.text for line in p] for p in paras] == [["23 喪服大記"], ["23.1婦人皆杖。"], ["於\U001001ab命，"]]
    # one printed line: only its first part begins one (<lb/>)
    assert [p[0].begins for p in paras] == [True, False, False]
    head, first, second = (p[0] for p in paras)
    assert [p.key for _, p in head.pages] == ["023-1a"] and not first.pages
    assert [(o, p.key) for o, p in second.pages] == [(0, "023-2a")]
    assert second.gaiji == [(1, "KR0427")] and not first.gaiji
    assert (second.n, second.cols[0][1:]) == (8, (8, 25))
    logical = paragraphs.join(paras)
    assert logical.text == "23 喪服大記\n23.1婦人皆杖。\n於\U001001ab命，\n"
    assert [e.at for e in logical.events if e.kind == "lb"] == [0]
    assert logical.source_pos(3, 1) == (8, 25)


# -- plain e-texts of the layout ------------------------------------------------------------------
def test_plain_text_is_detected_and_read_the_same_way():
    text = (FIX / "bare_plain.txt").read_text(encoding="utf-8")
    root, report = convert_checked(text, {"work": "禮記"})
    assert report.layout == "bare" and not report.issues
    assert [_printed(d) for d in _sections(root)] == ["1.1", "1.2", "1.3"]
    assert _units(root) == ["1.1《曲禮》曰：毋不敬，儼若思，安定辭。", "安民哉！",
                            "1.2敖不可長，欲不可從，志不可滿，樂不可極。",
                            "1.3賢者狎而敬之，畏而愛之。", "愛而知其惡，憎而知其善。",
                            "臨財毋苟得，臨難毋苟免。"]


def test_kanripo_file_reads_as_its_own_plain_text():
    """The text the reader gets from a Kanripo file is a plain e-text of the layout: converted
    as one, it gives the same divisions and units."""
    from pipeline import readers
    from pipeline.convert import convert_source
    from pipeline.report import Report
    from pipeline.sources.decoding import read_source, source_from_bytes
    for name in ("bare_zhouli.txt", "bare_liji.txt"):
        src = read_source(str(FIX / name))
        readers.prepare(src, "bare", Report(name))
        assert readers.detect(src.text)[0] == "bare"
        # named as the Kanripo file names its work (a heading of the 禮記 not in pian.tsv is no 篇)
        plain = etree.fromstring(convert_source(source_from_bytes(src.text.encode("utf-8"), "p.txt",
                                                                  meta={"work": src.kanripo.title}))[0])
        kanripo, _ = _convert(FIX / name)
        assert _units(plain) == _units(kanripo)
        assert [d.get("n") for d in plain.iter(f"{T}div")] == [d.get("n") for d in kanripo.iter(f"{T}div")]


def test_plain_sniff_never_claims_the_other_layouts():
    from pipeline.readers import bare
    texts = [p for p in sorted(glob.glob(str(ROOT / "corpus" / "*.txt")))]
    texts += sorted(glob.glob(str(ROOT / "tests" / "fixtures" / "siku" / "*.txt")))
    texts += sorted(glob.glob(str(ROOT / "tests" / "fixtures" / "repro" / "*.txt")))
    for p in texts:
        text = open(p, encoding="utf-8", errors="replace").read()
        assert bare.sniff(text)[0] == 0.0, p
    # numbered lines alone are not enough: unpunctuated, or with notes, or out of order
    assert bare.sniff("1.1天子之禮\n1.2諸侯之禮\n")[0] == 0.0
    assert bare.sniff("1.1天子，禮也。（注云：天子之禮。）\n1.2諸侯，禮也。（注。）\n")[0] == 0.0
    assert bare.sniff("1.3天子，禮也。\n1.2諸侯，禮也。\n1.1大夫，禮也。\n")[0] == 0.0


def test_mandoku_sniff_needs_no_notes_and_punctuation():
    from pipeline.readers import bare
    from pipeline.sources import mandoku
    siku = ("#+TITLE: 禮記註疏\n<pb:KR1d0053_WYG_001-1a>¶\n欽定四庫全書¶\n"
            "曲禮曰毋不敬注禮主於敬音義(毋音無/詞其)¶\n儼若思注言人之坐思疏(正義曰/此一節)¶\n")
    assert bare.sniff_mandoku(mandoku.parse(siku, "x.txt"))[0] == 0.0
    for name in ("bare_zhouli.txt", "bare_liji.txt", "bare_nonumbers.txt"):
        doc = mandoku.parse((FIX / name).read_text(encoding="utf-8"), name)
        assert bare.sniff_mandoku(doc)[0] >= 0.7


def test_not_this_layout_is_refused_unless_asked_for():
    """A text read as bare with next to no structure: convert refuses it; with --format bare
    it is written, with a warning."""
    from pipeline.convert import convert_source
    from pipeline.errors import PipelineError
    from pipeline.readers import bare
    from pipeline.sources.decoding import source_from_bytes
    long = "子曰，學而時習之，不亦說乎。" * 20
    src = source_from_bytes(("#+TITLE: 論語\n<pb:KR1h0004_tls_001-1a>¶\n" + long + "¶\n").encode(), "x.txt")
    assert bare.sniff_mandoku(src.mandoku)[0] > 0.2
    with pytest.raises(PipelineError) as e:
        convert_source(src)
    assert e.value.rule == "ZS-CONV-EMPTY" and "no numbered section" in e.value.message
    _, report = convert_source(src, "bare")
    assert [i.rule for i in report.issues] == ["ZS-CONV-EMPTY"]
    notes = "天子之禮(注/云)也。¶\n" * 3
    src = source_from_bytes(("#+TITLE: x\n<pb:KR1d0052_tls_001-1a>¶\n** 1 曲禮上\n\n" + notes).encode(), "y.txt")
    _, report = convert_source(src, "bare")
    assert "ZS-CONV-EMPTY" in [i.rule for i in report.issues]
    root, report = _convert(FIX / "bare_nonumbers.txt")     # a heading is structure enough
    assert not report.issues


# -- the whole of ../shared/kanripo/bare ------------------------------------------------------------
_SECTION_LINE = re.compile(r"^(?:<pb:[^<>]*>)?(\d+\.\d+)(\.?)(?=\D)")


@pytest.mark.skipif(not BARE.exists(), reason="../shared/kanripo/bare not present")
def test_every_bare_file():
    from pipeline.sources import mandoku
    files = sorted(glob.glob(str(BARE / "*" / "*_[0-9][0-9][0-9].txt")))
    assert len(files) == 56
    total = 0
    for path in files:
        root, report = _convert(path)
        assert report.layout == "bare", path
        _lossless(root, path)
        raw = open(path, encoding="utf-8").read()
        # one division per `** N` heading, its head the heading
        headings = re.findall(r"^\*\* (\d+) (\S+)$", raw, re.M)
        top = root.findall(f"{T}text/{T}body/{T}div")
        # its number: the 篇's in pian.tsv, or as printed for a heading the table does not have
        assert [(d.get("n"), _text(d.find(f"{T}head"))) for d in top] == \
            [(str(pian.title(name).n) if pian.title(name) else n, f"{n}{name}") for n, name in headings], path
        assert [d.get("type") for d in top] == ["pian" if pian.title(name) else "section" for _, name in headings]
        # one section per printed number, in order, the number printed at its head
        numbers = [m.groups() for m in map(_SECTION_LINE.match, raw.split("\n")) if m]
        secs = _sections(root)
        assert [_printed(d) for d in secs] == [n for n, _ in numbers], path
        assert [_text(d.find(f"{T}ab/{T}label")) for d in secs] == [n + dot for n, dot in numbers], path
        total += len(secs)
        # every page marker, in order
        pages = [p.n for p in mandoku.parse(raw, path).pages()]
        assert [p.get("n") for p in root.iter(f"{T}pb")] == pages, path
    assert total == 383 + 1342                  # 周禮 職 sections, 禮記 sections (問喪 has none)
