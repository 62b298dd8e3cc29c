"""The fast forms in the TEI writer, the 義疏 reader, detection and the model agree with the
plain ones they replace, and the writer's output reads back as its model.

The writer writes the commonest elements in one string each, and places a Kanripo source's
events with two shortcuts (a text without an event; a text that needs no escaping); the 義疏
reader looks for glued labels only where their 曰 or 案 is, splits plain runs without the
small-note splitter, finds furniture by its first character and resolves each printed name
once; detection stops at a reader that scores 1; the translation pairing counts modern words
only until there are enough; the id pass numbers a block's small notes quote by quote; a
piece's anchors are mostly appended, not searched for.
These tests hold them to the straightforward definitions on random inputs.
"""
import random
import re

from lxml import etree

from pipeline.chars import PLACEHOLDERS, WHITESPACE
from pipeline.model import (JING, MARK, YINYI, ZHU, Anchor, Div, Document, Meta, Piece, Pos, Quote,
                            SmallNote, Token, Unit, YishuBlock, assign_ids)
from pipeline.readers.yishu import smallnotes
from pipeline.readers.yishu.driver import _Reader
from pipeline.readers.yishu.lines import CATALOGUE, GLUED, GLUED_AN, HEADER, SOURCE, furniture_kind, glued_all
from pipeline.tei import INLINE, _Writer, glyph_id

# CJK text with what the writer must escape or wrap, and what the reader cuts at.
ALPHABET = "之也者其而以不曰案按正义存疑郑氏康成」”〈〉【】　 &<>\"" + "".join(sorted(PLACEHOLDERS)) + "\ue001\uf8ff"
_WS = "".join(WHITESPACE)


def _random_text(rnd: random.Random, n: int = 30) -> str:
    return "".join(rnd.choice(ALPHABET) for _ in range(rnd.randrange(n)))


def _writer() -> _Writer:
    return _Writer(Document(Meta("x.txt", "0" * 64, "yishu"), []), None)


def _plain_text(s: str, glyphs: set) -> str:
    """The writer's text, character by character: markup escaped, placeholders and private
    use characters in a <g>."""
    out = []
    for ch in s:
        if ch in PLACEHOLDERS or "\ue000" <= ch <= "\uf8ff":
            glyphs.add(ch)
            kind = ' type="placeholder"' if ch in PLACEHOLDERS else ""
            out.append(f'<g ref="#{glyph_id(ch)}"{kind}>{ch}</g>')
        else:
            out.append({"&": "&amp;", "<": "&lt;", ">": "&gt;"}.get(ch, ch))
    return "".join(out)


def test_text_is_the_plain_escaping():
    rnd = random.Random(11)
    w, glyphs = _writer(), set()
    for _ in range(5000):
        s = _random_text(rnd)
        assert w.text(s) == _plain_text(s, glyphs)
    assert set(w.glyphs) == glyphs


def _text_of(e) -> str:
    """The text of an element as the source had it: <g> holds its character."""
    return "".join(e.itertext())


def _text_before(e, child) -> str:
    """The text of element e before its child `child`."""
    out = [e.text or ""]
    for x in e:
        if x is child:
            break
        out += [_text_of(x), x.tail or ""]
    return "".join(out)


def test_units_written_in_one_string_read_back_as_the_model():
    """Random units of 經 pieces with anchors, 注 and 音義 pieces with tokens, marks and small
    notes: the written XML parses, and each element holds its piece's text, with every anchor
    at its offset."""
    rnd = random.Random(12)
    for k in range(2000):
        pieces = []
        for i in range(rnd.randrange(1, 6)):
            text = _random_text(rnd) or "之"
            kind = rnd.choice((JING, ZHU, YINYI, MARK, "small"))
            if kind == "small":
                note = SmallNote(rnd.choice(("yinyi", "textual", "shu")), text, Pos(1, 1),
                                 resp=rnd.choice((None, "zhengxuan")), id=f"u{k}.n{i}")
                if rnd.random() < 0.3:         # tokens concatenate to the text, as a reader's do
                    note.tokens = [Token("text", text), Token("fanqie", "之也")]
                    note.text = text + "之也"
                pieces.append(note)
                continue
            p = Piece(kind, text, Pos(1, 1), id=f"u{k}.p{i}")
            if kind in (ZHU, YINYI) and rnd.random() < 0.3:
                p.tokens = [Token(rnd.choice(["text", *INLINE]), _random_text(rnd, 8))
                            for _ in range(rnd.randrange(1, 4))]
                p.text = "".join(t.text for t in p.tokens)
            elif kind in (JING, ZHU):
                offsets = sorted(rnd.sample(range(len(text) + 1), rnd.randrange(min(3, len(text) + 1))))
                p.anchors = [Anchor(o, f"u{k}.a{i}.{j}") for j, o in enumerate(offsets)]
            pieces.append(p)
        w = _writer()
        w.out = []
        w.unit(Unit(pieces, Pos(1, 1), id=f"u{k}"))
        ab = etree.fromstring("".join(w.out))
        assert ab.get("{http://www.w3.org/XML/1998/namespace}id") == f"u{k}"
        assert len(ab) == len(pieces)
        for e, p in zip(ab, pieces):
            want = "".join(t.text for t in p.tokens) if p.tokens is not None else p.text
            assert _text_of(e) == want
            anchors = [a for a in e.iter("anchor")]
            assert [a.get("{http://www.w3.org/XML/1998/namespace}id") for a in anchors] == \
                [a.id for a in getattr(p, "anchors", [])]
            for a, model in zip(anchors, getattr(p, "anchors", [])):
                assert _text_before(e, a) == p.text[:model.offset]


def test_yishu_blocks_written_in_one_string_read_back_as_the_model():
    from pipeline.tei.markup import person
    rnd = random.Random(13)
    for k in range(2000):
        quotes = []
        for i in range(rnd.randrange(1, 4)):
            parts = [_random_text(rnd) or "之"]
            if rnd.random() < 0.5:
                parts.append(SmallNote("textual", _random_text(rnd) or "也", Pos(1, 1), id=f"n{i}"))
            who = rnd.choice(("", "郑氏康成", "?氏"))
            quotes.append(Quote(who, "曰" if who else "", parts, Pos(1, 1),
                                resp=rnd.choice((None, "zhengxuan", "zs.刘智")), id=f"c{k}.q{i}"))
        b = YishuBlock("zhengyi", rnd.choice(("", "正义", "正义：")), quotes, Pos(1, 1), id=f"c{k}")
        w = _writer()
        w.out = []
        w.yishu(b)
        note = etree.fromstring("".join(w.out))
        ps = [c for c in note if c.tag in ("cit", "p")]
        assert len(ps) == len(quotes)
        label = note.find("label")
        assert (label is not None and _text_of(label) == b.label) or (label is None and not b.label)
        for p, q in zip(ps, quotes):
            assert p.get("resp") is None               # who said it is never @resp
            words = "".join(x if isinstance(x, str) else x.text for x in q.parts)
            if not (q.who or q.verb or q.resp):        # words nobody is named for
                assert p.tag == "p" and _text_of(p) == words
                continue
            bibl, quote = p
            assert p.tag == "cit" and bibl.tag == "bibl" and quote.tag == "quote"
            name = bibl.find("author")
            ref = person(q.resp)                       # psn:zhengxuan, or #zs.刘智 declared from the text
            assert (name is not None and _text_of(name) == q.who and name.get("ref") == ref) or \
                (name is None and not q.who and not q.resp) or \
                (name is not None and not q.who and _text_of(name) == "" and name.get("ref") == ref)
            assert _text_of(bibl) == q.who + q.verb and _text_of(quote) == words
            assert _text_of(p) == q.who + q.verb + words


def test_label_search_only_where_it_can_match():
    """The 義疏 reader looks for glued labels only in text with a 曰 and for a glued 案 only in
    text with 案 or 按: elsewhere the regexes find nothing."""
    rnd = random.Random(14)
    for _ in range(20000):
        s = _random_text(rnd, 40)
        if rnd.random() < 0.3:
            s = s.replace("曰", "")
        assert [m.span() for m in glued_all(s)] == [m.span() for m in GLUED.finditer(s)]
        if "曰" not in s:
            assert not GLUED.findall(s)
        if "案" not in s and "按" not in s:
            assert not GLUED_AN.findall(s)


def test_plain_runs_split_as_the_small_note_splitter_does():
    rnd = random.Random(15)
    for _ in range(5000):
        s = _random_text(rnd, 40)
        if rnd.random() < 0.5:
            s = re.sub("[〈〉【】]", "", s)
        want = []
        for _, part in smallnotes.split(s, Pos(3, 4)):
            if isinstance(part, str):
                part = part.strip(_WS)
                if not part:
                    continue
            want.append(part)
        got = _Reader._parts(s, 3, 4)
        assert [p if isinstance(p, str) else (p.kind, p.text, p.pos) for p in got] == \
            [p if isinstance(p, str) else (p.kind, p.text, p.pos) for p in want]


def test_small_notes_numbered_across_the_quotes_of_a_block():
    rnd = random.Random(16)
    for _ in range(2000):
        blocks = [YishuBlock("zhengyi", "正义", [
            Quote("", "", [SmallNote("textual", "之", Pos(1, 1)) if rnd.random() < 0.4 else "也"
                           for _ in range(rnd.randrange(4))], Pos(1, 1))
            for _ in range(rnd.randrange(4))], Pos(1, 1)) for _ in range(rnd.randrange(1, 4))]
        assign_ids(Document(Meta("x.txt", "0" * 64, "yishu"), [Div("juan", None, blocks)]))
        for b in blocks:
            notes = [p for q in b.quotes for p in q.parts if isinstance(p, SmallNote)]
            assert [n.id for n in notes] == [f"{b.id}.n{k}" for k in range(1, len(notes) + 1)]
            assert [q.id for q in b.quotes] == [f"{b.id}.q{k}" for k in range(1, len(b.quotes) + 1)]


def test_anchor_at_keeps_one_anchor_per_offset_in_order():
    rnd = random.Random(17)
    for _ in range(3000):
        p = Piece(JING, "之" * 20, Pos(1, 1))
        made: dict[int, Anchor] = {}
        for _ in range(rnd.randrange(8)):
            # mostly in text order, as spans are resolved, sometimes back
            off = rnd.randrange(21) if rnd.random() < 0.3 else \
                min(20, (p.anchors[-1].offset if p.anchors else 0) + rnd.randrange(3))
            a = p.anchor_at(off)
            assert made.setdefault(off, a) is a
        assert [a.offset for a in p.anchors] == sorted(made)
        assert all(made[a.offset] is a for a in p.anchors)


def test_furniture_found_as_by_the_patterns_alone():
    rnd = random.Random(18)
    openings = ["钦定四库全书", "欽定四庫全書", "<经部,礼类,仪礼之属>", "<经部>》>", "中华文库", "之"]
    for _ in range(5000):
        s = rnd.choice(openings) + _random_text(rnd, 6) if rnd.random() < 0.7 else rnd.choice(openings)
        plain = "header" if HEADER.match(s) else "catalogue" if CATALOGUE.match(s) else \
            "source" if len(s) < 60 and SOURCE.search(s) else None
        assert furniture_kind(s) == plain


def test_speakers_remembered_as_resolved_each_time():
    """Resolving an attribution once per printed name gives the ids and the reports that
    resolving every one does."""
    from pipeline.readers.yishu.attribution import ATTRIBUTION, Speakers
    from pipeline.report import Report
    rnd = random.Random(19)
    names = ["郑氏康成", "孔氏颖达", "贾氏公彦", "朱子", "程子", "王氏某", "李氏甲乙", "?氏"]
    for _ in range(300):
        text = "".join(rnd.choice(names) + "曰" + _random_text(rnd, 6).replace("曰", "")
                       for _ in range(rnd.randrange(1, 12)))
        cached, plain = Speakers(Report("x")), Speakers(Report("x"))
        for k, m in enumerate(ATTRIBUTION.finditer(text)):
            assert cached.resolve(m, Pos(1, k)) == plain._resolve(m, Pos(1, k))
        assert cached.unknown == plain.unknown
        assert cached.report.lines() == plain.report.lines()


def _detect_plain(text: str) -> tuple[str, str]:
    """detect as every sniff asked, the best score chosen, ties to the first name."""
    from pipeline.errors import PipelineError
    from pipeline.readers import READERS
    scored = sorted(((m.sniff(text), m.NAME) for m in READERS.values()), key=lambda x: (-x[0][0], x[1]))
    (score, why), best = scored[0]
    if score < 0.2:
        raise PipelineError("cannot tell the layout (" + "; ".join(
            f"{n}: {w}" for (s, w), n in scored) + "); give --format", "", rule="ZS-CONV-LAYOUT")
    return best, why


def test_detect_stops_at_a_certain_layout_with_the_same_choice_and_reason():
    """Texts mixing lines of every seed layout: the layout and the reason (or the error) are
    those of asking every reader."""
    import glob
    import os

    from pipeline.errors import PipelineError
    from pipeline.readers import READERS, detect
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    seeds = [open(p, encoding="utf-8").read().split("\n")
             for p in sorted(glob.glob(os.path.join(here, "corpus", "*.txt")))]
    assert all(0 <= m.sniff("\n".join(s))[0] <= 1 for s in seeds for m in READERS.values())
    rnd = random.Random(20)
    for _ in range(300):
        picks = rnd.sample(seeds, rnd.randrange(1, 3))
        text = "\n".join(l for s in picks for l in rnd.sample(s, rnd.randrange(1, min(40, len(s)))))
        try:
            want = _detect_plain(text)
        except PipelineError as e:
            want = str(e)
        try:
            got = detect(text)
        except PipelineError as e:
            got = str(e)
        assert got == want


def test_body_text_undoes_the_escapes_of_the_writer():
    from pipeline.tei import _esc, body_text
    rnd = random.Random(21)
    for _ in range(5000):
        s = "".join(rnd.choice("之&<>;ltgamp") for _ in range(rnd.randrange(20)))
        assert body_text(f"<p>{_esc(s)}</p>") == s
        assert body_text(f'<p xml:id="x">{_esc(s)}<lb/></p>') == s


def test_sublemmas_written_slice_by_slice_read_back_as_the_paragraph():
    from pipeline.model import Para, SubLemma
    rnd = random.Random(23)
    for k in range(3000):
        text = _random_text(rnd, 40) or "之"
        cuts = sorted(rnd.sample(range(len(text) + 1), 2 * rnd.randrange(min(3, (len(text) + 1) // 2) + 1)))
        quotes = list(zip(cuts[::2], cuts[1::2]))
        w = _writer()
        w.out = []
        w.sublemma(Para(text, Pos(1, 1), SubLemma(quotes, id=f"s{k}")))
        note = etree.fromstring("".join(w.out))
        p = note.find("p")
        assert _text_of(p) == text
        assert [_text_of(m) for m in p.iter("mentioned")] == [text[a:b] for a, b in quotes]


def _placer(rnd: random.Random, size: int):
    """A placer over random events (pages, line starts, rows, gaiji) in `size` kept characters."""
    from pipeline.sources.mandoku import DELIMITERS, Page
    from pipeline.sources.paragraphs import Event
    from pipeline.tei.place import Placer
    page = Page("KR1d0053_WYG_003-1a", "KR1d0053", "WYG", "003", 1, "a")
    events = sorted((Event(rnd.randrange(size + 1), rnd.choice(("pb", "lb", "row", "g")), None)
                     for _ in range(rnd.randrange(12))), key=lambda e: e.at)
    for e in events:
        e.value = page if e.kind == "pb" else "KR0427" if e.kind == "g" else None
    return Placer(events, DELIMITERS)


def test_placer_shortcuts_place_as_the_plain_placing():
    """Random texts (with whitespace and the note parentheses the count leaves out) placed one
    after another: place writes what place_plain writes, and its counter finds each kept
    character where _counter_plain does."""
    rnd = random.Random(24)
    alphabet = ALPHABET + "()" + _WS
    for _ in range(2000):
        texts = [_random_text(rnd, 12) if rnd.random() < 0.5 else
                 "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(12))) for _ in range(8)]
        seed = rnd.random()
        fast, plain = _placer(random.Random(seed), 60), _placer(random.Random(seed), 60)
        w = _writer()
        for t in texts:
            assert fast.place(t, w._marked) == plain.place_plain(t, w._marked)
            assert (fast.i, fast.kept) == (plain.i, plain.kept)
            index, index_plain = fast._counter(t), fast._counter_plain(t)
            assert [index(k) for k in range(len(t) + 1)] == [index_plain(k) for k in range(len(t) + 1)]
        assert fast.rest() == plain.rest()
