"""The TEI writer: the document model → TEI P5. The only module that builds TEI.

One function per node type (`_unit`, `_shu`, …), dispatched from a table; simple inline
mappings (token kinds → elements) are data. Anything it cannot place is a warning in the report.
"""
from __future__ import annotations

import bisect
import re
import unicodedata

from lxml import etree

from pipeline import __version__, persons
from pipeline.chars import SUSPECT, UNICODE_VERSION, glyph_kind, stood_in
from pipeline.constants import TEI as T, TEI_NS, XML_ID, XML_LANG, YISHU_CATEGORIES
from pipeline.model import (AN, FORENAME, HAO, JING, MARK, NATIVE, QUE, SHU, SURNAME, TEXTUAL,
                            TRANSLATION, XIAOZHU, YINYI, YISHU, ZHU, ZI, Div, Document, Fw,
                            Judgment, KaozhengEntry, Meta, NameEntry, NamePart, Piece, Prose, Shu,
                            SmallNote, Token, Translation, Unit, Work, YishuBlock)
from pipeline.report import Report
from pipeline.sources.kanripo import GAIJI_IMAGES


# The note taxonomy declared in every header; @type/@subtype in the body come only from here.
TAXONOMY = (
    (JING, "經 — the classic"),
    (ZHU, "注 — the Han commentary"),
    (YINYI, "音義 — 陸德明's glosses on sound and sense"),
    (SHU, "疏 — the Tang sub-commentary, anchored by its 出文 lemma"),
    ("detached", "a 疏 whose 出文 lies outside this file"),
    ("sublemma", "a part of a 疏 section that opens with a narrower quote of the 經 or 注"),
    (QUE, "阙 — a passage the edition marks as lost"),
    ("chuwen", "出文 — the lemma a 疏 section quotes"),
    ("mark", "a printed marker such as 疏"),
    (TEXTUAL, "a textual note in small characters (variant readings, editions)"),
    ("quoted", "a quotation of the 疏 in a small note, credited to its author"),
    (XIAOZHU, "any other note in small characters"),
    (YISHU, "義疏 — a block of the Qing 欽定三禮義疏 on one 經 passage"),
    *((cid, f"{label} — {what}") for cid, label, what in YISHU_CATEGORIES),
    (AN, "案 — the compilers' own judgment"),
    (TRANSLATION, "a modern Chinese translation interleaved with the original"),
    ("copy", "a 'translation' that is a near-copy of its original"),
)

# Token kinds → (element, @type). 'text' is plain text.
INLINE = {
    "term": ("term", None),
    "fanqie": ("seg", "fanqie"),
    "zhiyin": ("seg", "zhiyin"),
    "ruzi": ("seg", "ruzi"),
    "mentioned": ("mentioned", None),
}

# The body text we generate ourselves; huge_tree because a long 卷 may exceed libxml2's limits.
_TRUSTED = etree.XMLParser(huge_tree=True, collect_ids=False)
_TEXT_MARK = "\ue000ZHUSHU-BODY\ue000"           # where the body goes in the serialised skeleton
_OPEN = {k: f"<{n}>" if t is None else f'<{n} type="{t}">' for k, (n, t) in INLINE.items()}
_CLOSE = {k: f"</{n}>" for k, (n, _) in INLINE.items()}
# Characters that may need a <g> (placeholders, private use, U+FFFD, unassigned code points);
# chars.glyph_kind decides for each one found.
_SPECIAL = re.compile("[" + SUSPECT + "]")
# What put must do more than copy: markup characters to escape, and the _SPECIAL ones.
_ATTENTION = re.compile("[&<>" + SUSPECT + "]")
# How the header describes each kind of <g>.
_GLYPH_NAMES = {
    "placeholder": "placeholder for a missing character",
    "lost": "a character lost before conversion (U+FFFD, the decoder's replacement character)",
}


def glyph_id(ch: str) -> str:
    return f"zs-g{ord(ch):04X}"


def _el(parent, tag: str, text: str | None = None, **attrs):
    e = etree.SubElement(parent, T + tag)
    for k, v in attrs.items():
        if v is not None:
            e.set(XML_ID if k == "xml_id" else k, v)
    if text is not None:
        e.text = text
    return e


def _esc(s: str) -> str:
    if "&" in s or "<" in s or ">" in s:
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return s


_SCRIPT = {"zh-Hans": "simplified", "zh-Hant": "traditional"}


_ATTR_SPECIAL = re.compile('[&<>"]')


def _attrs(attrs: dict) -> str:
    out = []
    for k, v in attrs.items():
        if v is not None:
            if _ATTR_SPECIAL.search(v) is not None:     # values are mostly ids: nothing to escape
                v = _esc(v).replace('"', "&quot;")
            out.append(f' {"xml:id" if k == "xml_id" else k}="{v}"')
    return "".join(out)


class _Placer:
    """Places a Kanripo source's events in the text as it is written. Each event sits before
    the character the lossless invariant counts as its `at` (pipeline/sources/mandoku.py): the writer
    writes the text in source order, so counting what it writes finds the place. A page is
    `<pb ed n facs/>`, the start of a printed line `<lb/>`, the end of a note's first row
    `<milestone unit="row"/>`; a gaiji's character goes in `<g ref="#KR0427">`."""

    def __init__(self, events, delimiters: frozenset):
        from pipeline.chars import WHITESPACE
        self.events, self.i, self.kept = events, 0, 0
        self.dropped = "".join(sorted(WHITESPACE | delimiters))
        self.uncounted = re.compile("[" + re.escape(self.dropped) + "]")

    def pending(self) -> bool:
        return self.i < len(self.events)

    def _kept(self, text: str) -> int:
        if text.isalpha() or self.uncounted.search(text) is None:   # most text: all counts
            return len(text)
        return len(text) - len(self.uncounted.findall(text))

    def _counter(self, text: str):
        """index(k): where in `text` its k-th kept character is. Worked out once per text:
        a long 疏 holds an event every column."""
        if text.isalpha() or self.uncounted.search(text) is None:
            return lambda k: k
        runs = [(m.start(), m.end()) for m in re.finditer(f"[^{re.escape(self.dropped)}]+", text)]
        firsts, n = [], 0
        for a, b in runs:
            firsts.append(n)
            n += b - a

        def index(k: int) -> int:
            r = bisect.bisect_right(firsts, k) - 1
            return runs[r][0] + k - firsts[r] if r >= 0 and k - firsts[r] < runs[r][1] - runs[r][0] \
                else len(text)
        return index

    def place(self, text: str, marked) -> str:
        """`text` as written, its events placed; `marked` writes the text between them."""
        events, i, end = self.events, self.i, self.kept + self._kept(text)
        if i >= len(events) or not self._here(events[i], end):     # most texts: no event
            self.kept = end
            return marked(text) if _ATTENTION.search(text) else text
        if _ATTENTION.search(text) is None:
            marked = str                        # no slice of it needs escaping or a <g> either
        out, start, index = [], 0, self._counter(text)
        while i < len(events) and self._here(events[i], end):
            e = events[i]
            at = index(e.at - self.kept)
            if at > start:
                out.append(marked(text[start:at]))
                start = at
            if e.kind == "g":
                out.append(f'<g ref="#{e.value}">{_esc(text[at:at + 1])}</g>')
                start = at + 1
            else:
                out.append(_event(e))
            i += 1
        if start < len(text):
            out.append(marked(text[start:]))
        self.i, self.kept = i, end
        return "".join(out)

    @staticmethod
    def _here(e, end: int) -> bool:
        """Does event `e` fall in the text that ends at `end`? A page or line break falls before
        the character it precedes; the end of a note's first row after the one it follows (an
        empty second row ends a note: its split belongs at that note's end)."""
        return e.at < end or (e.at == end and e.kind == "row")

    def skip(self, text: str) -> str:
        """Count `text` as written where no event may stand (a gap's desc): its events come
        back, to be written after it."""
        end = self.kept + self._kept(text)
        out = []
        while self.i < len(self.events) and self.events[self.i].at < end:
            e = self.events[self.i]
            if e.kind != "g":
                out.append(_event(e))
            self.i += 1
        self.kept = end
        return "".join(out)

    def rest(self) -> str:
        out = [_event(e) for e in self.events[self.i:] if e.kind != "g"]
        self.i = len(self.events)
        return "".join(out)


def _event(e) -> str:
    if e.kind == "pb":
        p = e.value
        return f'<pb ed="{p.edition}" n="{p.n}" facs="#{surface_id(p)}"/>'
    if e.kind == "lb":
        return "<lb/>"
    return '<milestone unit="row"/>'


def surface_id(page) -> str:
    """The xml:id of a page's <surface> in the facsimile: f003-1a."""
    return f"f{page.key}"


class _Writer:
    """The body is written as XML text: element by element through the lxml API costs about
    2.5 µs per element, three times the whole of this path. The header, small and fixed, is
    built with lxml and the body spliced into it. Every conversion checks the written body's
    text against the source (convert._check_lossless), and tests validate the whole output.
    The attributes of the commonest elements are written straight into their tags: they hold
    our ids, our types and person ids (from the registry, or built from a name in CJK
    characters), none of which needs escaping; _attrs escapes the rest. The commonest
    elements are written in one string each, and the text of a paragraph or piece that needs
    no escaping is checked once, not slice by slice."""

    def __init__(self, doc: Document, report: Report | None):
        self.doc, self.report = doc, report
        self.glyphs: dict[str, str] = {}       # character → its <g>, as written
        self.translation_langs: set[str] = set()
        self.out: list[str] = []
        # A Kanripo source's pages, lines, rows and gaiji, placed as the text is written (the
        # placer is given _marked at each call: holding it would make a cycle, which keeps the
        # whole document alive until the cyclic collector's next pass)
        self.placer = _Placer(doc.meta.events, doc.meta.delimiters) if doc.meta.events else None

    # -- text ------------------------------------------------------------------------------------
    def put(self, text: str) -> None:
        """Text, with placeholders and PUA characters wrapped in a declared <g>."""
        self.out.append(self.text(text))

    def text(self, text: str, literal: bool = False) -> str:
        """Text as put writes it, for an element written in one piece: escaped, the characters
        that need one in a <g> (none, `literal`: symbols printed as such), and a Kanripo
        source's pages and lines placed in it."""
        if self.placer is not None:
            return self.placer.place(text, _esc if literal else self._marked)
        if literal:
            return _esc(text)
        # most text is copied as it is: the check is made here, not in a call
        return text if _ATTENTION.search(text) is None else self._marked(text)

    def plain(self, text: str) -> bool:
        """Does `text` go out as it is (nothing to escape, wrap or place)?"""
        return self.placer is None and _ATTENTION.search(text) is None

    def _slicer(self, whole: str):
        """What writes the slices of `whole`: `text`, or, when the whole needs nothing, str,
        which gives a str back as it is (a C call instead of a check per slice)."""
        return str if self.plain(whole) else self.text

    def _marked(self, text: str) -> str:
        text = _esc(text)
        if _SPECIAL.search(text) is not None:
            text = _SPECIAL.sub(self._glyph, text)
        return text

    def _glyph(self, m: re.Match) -> str:
        ch = m.group()
        g = self.glyphs.get(ch)                 # a file uses few, most of them many times
        if g is None:
            kind = glyph_kind(ch)
            if kind is None:                    # an ordinary character beyond the BMP
                return ch
            attr = ' type="placeholder"' if kind == "placeholder" else ""
            g = self.glyphs[ch] = f'<g ref="#{glyph_id(ch)}"{attr}>{ch}</g>'
        return g

    def el(self, tag: str, text: str | None = None, **attrs) -> None:
        """A whole element with plain text content (or empty)."""
        a = _attrs(attrs) if attrs else ""
        if text is None:
            self.out.append(f"<{tag}{a}/>")
        else:
            self.out.append(f"<{tag}{a}>{self.text(text)}</{tag}>")

    def put_anchored(self, piece: Piece) -> None:
        out, s, pos = self.out, piece.text, 0
        text = self._slicer(s)
        for a in piece.anchors:
            out.append(f'{text(s[pos:a.offset])}<anchor xml:id="{a.id}"/>')
            pos = a.offset
        out.append(text(s[pos:]))

    def put_tokens(self, tokens: list[Token], whole: str | None = None) -> None:
        """`whole`, when given, is the text the tokens concatenate to (a gloss's, a small
        note's): checked once for what needs escaping or a <g>, not token by token."""
        out, text = self.out, (self.text if whole is None else self._slicer(whole))
        for t in tokens:
            if t.kind == "text":
                out.append(text(t.text))
            else:
                out.append(f"{_OPEN[t.kind]}{text(t.text)}{_CLOSE[t.kind]}")

    # -- blocks ----------------------------------------------------------------------------------
    def unit(self, u: Unit) -> None:
        self.out.append(f'<ab type="{JING}" xml:id="{u.id}">')
        for p in u.pieces:
            if isinstance(p, SmallNote):
                self.small(p)
            else:
                self.PIECES[p.layer](self, p)
        self.out.append("</ab>\n")

    def small(self, n: SmallNote) -> None:
        """A small-character note inline: its kind is the note type; a quoted 疏 is a shu note
        of subtype quoted, credited to its author."""
        sub = ' subtype="quoted"' if n.kind == SHU else ""
        resp = f' resp="#{n.resp}"' if n.resp else ""
        self.out.append(f'<note type="{n.kind}"{sub} place="inline" xml:id="{n.id}"{resp}>')
        if n.tokens is not None:
            self.put_tokens(n.tokens, n.text)
        else:
            self.put(n.text)
        self.out.append("</note>")

    def parts(self, parts: list) -> None:
        for part in parts:
            if isinstance(part, SmallNote):
                self.small(part)
            else:
                self.put(part)

    def yishu(self, b: YishuBlock) -> None:
        kind = f'type="{AN}"' if b.category == AN else f'type="{YISHU}" subtype="{b.category}"'
        target = f' target="#{b.target.id}"' if b.target and b.target.id else ""
        prev = f' prev="#{b.prev.id}"' if b.prev and b.prev.id else ""
        out = self.out
        out.append(f'<note {kind} xml:id="{b.id}"{target}{prev}>')
        if b.label:
            out.append(f'<label type="category">{self.text(b.label)}</label>')
        for q in b.quotes:
            resp = f' resp="#{q.resp}"' if q.resp else ""
            parts = q.parts
            if len(parts) == 1 and type(parts[0]) is str:      # most quotations: one run of text
                # name, verb and text checked for escapes and <g> at once: they rarely need any
                if self.plain(q.who + q.verb + parts[0]):
                    out.append(self._quote_head(q, resp, str) + parts[0] + "</p>")
                else:
                    out.append(self._quote_head(q, resp, self.text) + self.text(parts[0]) + "</p>")
            else:
                out.append(self._quote_head(q, resp, self.text))
                self.parts(parts)
                out.append("</p>")
        out.append("</note>\n")

    @staticmethod
    def _quote_head(q, resp: str, text) -> str:
        """A quotation's <p> start tag, name and verb; `text` writes the name and the verb."""
        if q.who:                           # a placeholder in a name is still a <g>
            ref = f' ref="#{q.resp}"' if q.resp else ""
            return f'<p xml:id="{q.id}"{resp}><persName{ref}>{text(q.who)}</persName>{text(q.verb)}'
        return f'<p xml:id="{q.id}"{resp}>{text(q.verb)}'

    def translation(self, t: Translation) -> None:
        self.translation_langs.add(t.lang)
        self.out.append("<ab" + _attrs(dict(
            type=TRANSLATION, subtype="copy" if t.copy else None, xml_id=t.id,
            corresp=_ref(t.original.id) if t.original is not None else None)) +
            f' xml:lang="{t.lang}">')
        if t.mark:
            self.el("label", t.mark, type="mark")
        self.parts(t.parts)
        self.out.append("</ab>\n")

    def jing(self, p: Piece) -> None:
        if p.literal:                            # symbols printed as such: □ is no placeholder
            self.out.append(f'<seg xml:id="{p.id}">{self.text(p.text, literal=True)}</seg>')
        elif p.anchors:
            self.out.append(f'<seg xml:id="{p.id}">')
            self.put_anchored(p)
            self.out.append("</seg>")
        else:
            self.out.append(f'<seg xml:id="{p.id}">{self.text(p.text)}</seg>')

    def note_piece(self, p: Piece) -> None:
        resp = f' resp="#{p.resp}"' if p.resp else ""
        target = f' target="#{p.target.id}"' if p.target else ""
        head = f'<note type="{p.layer}" place="inline" xml:id="{p.id}"{resp}{target}>'
        if p.tokens is None and not p.anchors:
            self.out.append(f"{head}{self.text(p.text)}</note>")
            return
        self.out.append(head)
        if p.tokens is not None:
            self.put_tokens(p.tokens, p.text)
        else:
            self.put_anchored(p)
        self.out.append("</note>")

    def que(self, p: Piece) -> None:
        # TEI's desc admits no <g> nor a page or line break: its text is written plain, and
        # what falls in it is placed after the gap.
        after = self.placer.skip(p.text) if self.placer is not None else ""
        self.out.append(f'<gap reason="lost" xml:id="{p.id}"><desc type="{QUE}">{_esc(p.text)}</desc></gap>{after}')

    def mark(self, p: Piece) -> None:
        self.out.append(f'<label type="{MARK}" xml:id="{p.id}">{self.text(p.text)}</label>')

    PIECES = {JING: jing, ZHU: note_piece, YINYI: note_piece, QUE: que, MARK: mark}

    def shu(self, s: Shu) -> None:
        detached = ' subtype="detached"' if s.detached else ""
        resp = f' resp="#{s.resp}"' if s.resp else ""
        self.out.append(f'<note type="{SHU}"{detached} xml:id="{s.id}"{resp}'
                        f'{_pointing(s.target, s.target_end)}>')
        if s.mark:
            self.el("label", s.mark, type="mark")
        if s.chuwen:
            self.out.append('<label type="chuwen">')
            self.put_tokens(s.chuwen.tokens)
            self.out.append("</label>")
        for para in s.paras:
            if para.sub is None:
                self.out.append(f"<p>{self.text(para.text)}</p>")
            else:
                self.sublemma(para)
        self.out.append("</note>\n")

    def sublemma(self, para) -> None:
        """A paragraph that opens with a sub-lemma: a note of its own, pointing at the span."""
        sub, out, s = para.sub, self.out, para.text
        text = self._slicer(s)
        out.append(f'<note type="{SHU}" subtype="sublemma" xml:id="{sub.id}"'
                   f'{_pointing(sub.target, sub.target_end)}><p>')
        pos = 0
        for a, b in sub.quotes:
            out.append(f"{text(s[pos:a])}<mentioned>{text(s[a:b])}</mentioned>")
            pos = b
        out.append(f"{text(s[pos:])}</p></note>")

    def fw(self, f: Fw) -> None:
        self.el("fw", f.text, type=f.kind, subtype="repeat" if f.same_as else None, xml_id=f.id,
                sameAs=_ref(f.same_as.id) if f.same_as else None)
        self.out.append("\n")

    def div(self, d: Div) -> None:
        self.out.append(f"<div{_attrs(dict(type=d.kind, n=d.n or None, xml_id=d.id))}>\n")
        for f in d.front:
            self.fw(f)
        if d.head is not None:
            self.el("head", d.head.text, type=d.head.kind, xml_id=d.head.id or None)
            self.out.append("\n")
        self.blocks(d.blocks)
        for t in d.trailers:
            if t.before:                        # notes and furniture between two closings
                self.blocks(t.before)
            self.el("trailer", t.text, xml_id=t.id or None)
            self.out.append("\n")
        self.out.append("</div>\n")

    def blocks(self, blocks: list) -> None:
        for b in blocks:
            handler = self.BLOCKS.get(type(b))
            if handler is None:
                if self.report:
                    self.report.error("ZS-TEI-UNPLACED", f"the TEI writer cannot place a {type(b).__name__}")
                continue
            handler(self, b)

    def kaozheng_entry(self, k: KaozhengEntry) -> None:
        """A 考證 entry: a paragraph opening with the lemma it quotes; each 臣's judgment a
        note of his, opening with his name."""
        self.out.append(f'<ab type="kaozheng" xml:id="{k.id}">')
        if k.lemma:
            self.out.append(f'<label type="lemma">{self.text(k.lemma)}</label>')
        for part in k.parts:
            if isinstance(part, Judgment):
                resp = f' resp="#{part.resp}"' if part.resp else ""
                ref = f' ref="#{part.resp}"' if part.resp else ""
                self.out.append(f'<note type="{AN}" place="inline" xml:id="{part.id}"{resp}>'
                                f'<persName{ref}>{self.text(part.who)}</persName>{self.text(part.verb)}')
                self.parts(part.parts)
                self.out.append("</note>")
            elif isinstance(part, SmallNote):
                self.small(part)
            else:
                self.put(part)
        self.out.append("</ab>\n")

    def prose(self, p: Prose) -> None:
        self.out.append(f'<p xml:id="{p.id}">')
        self.parts(p.parts)
        self.out.append("</p>\n")

    # The parts of a listed person's name → (element, @type); the native place is no part of
    # the name: a <placeName> after the <persName>.
    NAME_PARTS = {SURNAME: ("surname", None), FORENAME: ("forename", None), ZI: ("addName", "zi"),
                  HAO: ("addName", "hao"), NATIVE: ("placeName", None)}

    def name_entry(self, e: NameEntry) -> None:
        """An entry of a list of persons: a paragraph whose name (the parts e.name spans) is a
        <persName> pointing at the registry's person, when known; each part an element, those
        printed small marked rend="small"; the native place a <placeName>, remarks notes."""
        parts, out = e.parts, self.out
        first, last = (e.name[0], e.name[1] - 1) if e.name[1] > e.name[0] else (-1, -1)
        out.append(f'<p xml:id="{e.id}">')
        for i, p in enumerate(parts):
            if i == first:
                out.append(f'<persName ref="#{e.resp}">' if e.resp else "<persName>")
            if isinstance(p, NamePart):
                tag, kind = self.NAME_PARTS[p.kind]
                attrs = (f' type="{kind}"' if kind else "") + (' rend="small"' if p.small else "")
                out.append(f"<{tag}{attrs}>{self.text(p.text)}</{tag}>")
            elif isinstance(p, SmallNote):
                self.small(p)
            else:
                self.put(p)
            if i == last:
                out.append("</persName>")
        out.append("</p>\n")

    # A Head only opens a div (TEI admits no head between blocks): a heading in the middle of
    # a 卷 opens a nested section div.
    BLOCKS = {Unit: unit, Shu: shu, Fw: fw, Div: div, YishuBlock: yishu, Translation: translation,
              KaozhengEntry: kaozheng_entry, Prose: prose, NameEntry: name_entry}

    def body(self) -> str:
        self.out = []
        if self.doc.front:
            self.out.append("<front>\n")
            for d in self.doc.front:
                self.div(d)
            self.out.append("</front>\n")
        self.out.append("<body>\n")
        for d in self.doc.divs:
            self.div(d)
        back = self.doc.back
        if self.placer is not None and self.placer.pending() and not back:
            # pages and blank columns after the last character: at the end of the last div
            closing = self.out.pop()
            self.out += [self.placer.rest(), "\n", closing]
        self.out.append("</body>")
        if back:
            self.out.append("\n<back>\n")
            for d in back:
                self.div(d)
            if self.placer is not None and self.placer.pending():
                closing = self.out.pop()
                self.out += [self.placer.rest(), "\n", closing]
            self.out.append("</back>")
        return "".join(self.out)

    # -- document --------------------------------------------------------------------------------
    def build(self) -> tuple[str, str, str]:
        """The serialised TEI in three parts: what comes before the body, the body as written,
        and what follows it (kept apart: joining them would copy the whole document once more)."""
        body = self.body()                     # first: it collects the glyphs the header declares
        if not unicodedata.is_normalized("NFC", body):
            # The source is read in NFC, but leaving whitespace out can bring a combining mark
            # next to another it must be reordered with, or to a base it composes with. Each
            # text node is normalised (the markup between nodes is ASCII, which no mark crosses).
            body = unicodedata.normalize("NFC", body)
            if self.report:
                self.report.warn("ZS-CONV-NFC", "combining marks brought together by leaving out "
                                 "whitespace were put back in NFC")
        root = etree.Element(T + "TEI", nsmap={None: TEI_NS})
        root.set(XML_LANG, "lzh")
        header = _el(root, "teiHeader")
        self.header(header)
        etree.indent(header, level=1)
        root.text = header.tail = "\n"
        if self.doc.meta.edition is not None and self.doc.meta.edition.pages:
            self.facsimile(root)
            etree.indent(root[-1], level=1)
            root[-1].tail = "\n"
        if self.doc.meta.persons:              # TEI forbids an empty listPerson
            stand_off = _el(root, "standOff")
            self.people(stand_off)
            etree.indent(stand_off, level=1)
            stand_off.tail = "\n"
        text = _el(root, "text", _TEXT_MARK)
        text.tail = "\n"
        before, after = etree.tostring(root, encoding="unicode").split(_TEXT_MARK, 1)
        return before + "\n", body, after

    def header(self, h) -> None:
        m = self.doc.meta
        fd = _el(h, "fileDesc")
        ts = _el(fd, "titleStmt")
        _el(ts, "title", " ".join(x for x in (m.work or "未題名", m.juan or m.section) if x), type="main")
        if m.work:
            _el(ts, "title", m.work, type="work")
        if m.juan:
            _el(ts, "title", m.juan, type="juan")
        rs = _el(ts, "respStmt")
        _el(rs, "resp", "TEI encoding, converted from a plain-text e-text")
        _el(rs, "name", f"Zhushu {__version__}")
        ps = _el(fd, "publicationStmt")
        _el(ps, "p", "Unpublished conversion. The source text is reproduced in full; all markup is "
                     "derived by Zhushu and listed in the conversion report.")
        bibl = _el(_el(fd, "sourceDesc"), "bibl")
        if m.work:
            _el(bibl, "title", m.work)
        if m.juan:
            _el(bibl, "biblScope", m.juan, unit="juan")
        _el(bibl, "idno", m.source_name, type="filename")
        _el(bibl, "idno", m.sha256, type="sha256")
        if m.edition is not None:
            self.kanripo_bibl(bibl, m.edition)
        ed = _el(h, "encodingDesc")
        app = _el(_el(ed, "appInfo"), "application", ident="zhushu", version=__version__)
        _el(app, "label", "Zhushu")
        _el(app, "desc", f"reader: {m.layout}")
        cd = _el(ed, "classDecl")
        tax = _el(cd, "taxonomy", xml_id="zs-types")
        for cid, desc in TAXONOMY:
            _el(_el(tax, "category", xml_id=cid), "catDesc", desc)
        if m.classification:
            _el(_el(cd, "taxonomy", xml_id="siku"), "desc", "四庫全書總目: 部, 類, 屬")
        gaiji = m.edition.gaiji if m.edition is not None else []
        if self.glyphs or gaiji:
            cd = _el(ed, "charDecl")
            for row in gaiji:
                self.gaiji_char(cd, row, m.edition)
            for ch in sorted(self.glyphs):
                g = _el(cd, "glyph", xml_id=glyph_id(ch))
                kind = glyph_kind(ch)
                name = _GLYPH_NAMES.get(kind) or (
                    f"private use character U+{ord(ch):04X}" if kind == "private" else
                    f"U+{stood_in(ch):04X} of the source, a control character XML cannot hold "
                    f"(this private character stands for it)" if kind == "control" else
                    f"U+{ord(ch):04X}, a code point Unicode {UNICODE_VERSION} does not assign")
                _el(g, "localProp", name="name", value=name)
                _el(g, "mapping", ch, type="standard")
        pd = _el(h, "profileDesc")
        lu = _el(pd, "langUsage")
        _el(lu, "language", "Literary Chinese (文言)", ident="lzh")
        for lang in sorted(self.translation_langs):
            _el(lu, "language", f"Modern Chinese, {_SCRIPT[lang]} script (translation)", ident=lang)
        if m.classification:
            tc = _el(pd, "textClass")
            _el(tc, "classCode", m.classification, scheme="#siku")

    def kanripo_bibl(self, bibl, e) -> None:
        """The Kanripo file and its edition: the repository's id, the edition (WYG, 四庫全書・
        文淵閣), the e-text's date and properties, and its comment lines, kept in the header."""
        _el(bibl, "idno", e.work_id, type="kanripo")
        if e.edition:
            _el(bibl, "edition", f"{e.edition_name} ({e.edition})" if e.edition_name else e.edition)
        if e.date:
            _el(bibl, "date", e.date)
        if e.properties:
            _el(bibl, "note", "; ".join(f"{k} {v}" for k, v in e.properties.items()), type="properties")
        for line, comment in e.comments:
            _el(bibl, "note", comment, type="comment", n=f"line {line}")

    @staticmethod
    def gaiji_char(cd, row, edition) -> None:
        """A character Unicode lacks, as Kanripo's table describes it: its id, its form (a
        Unicode character, or Kanripo's private one), its normal form, its image."""
        c = _el(cd, "char", xml_id=row.id)
        _el(c, "localProp", name="kanripo", value=row.id)
        if len(row.form) == 1:
            _el(c, "mapping", row.form, type="PUA" if glyph_kind(row.form) == "private" else "standard")
        norm = row.normalized
        if len(norm) == 1:
            _el(c, "mapping", norm, type="normalized")
        elif norm:
            _el(c, "desc", f"normal form in Kanripo's table: {norm}")
        if row.form and len(row.form) != 1:
            _el(c, "desc", f"form in Kanripo's table: {row.form}")
        if not row.image and not row.form and not norm:
            _el(c, "desc", "not described: Kanripo's character table was not found" if not
                edition.gaiji_table else "Kanripo's table gives no form for it")
        if row.image:
            _el(c, "graphic", url=GAIJI_IMAGES + row.image)

    def facsimile(self, root) -> None:
        """A surface for each page of a Kanripo file, with the image of it where the edition's
        image list has one; each <pb facs> points at its surface."""
        e = self.doc.meta.edition
        fx = _el(root, "facsimile")
        for page, image in e.pages:
            sf = _el(fx, "surface", xml_id=surface_id(page), n=page.n)
            if image:
                _el(sf, "graphic", url=e.facs_base + image)

    def people(self, so) -> None:
        lp = _el(so, "listPerson")
        for pid in self.doc.meta.persons:
            if pid in self.doc.meta.declared:           # named in the text, not in the registry
                sur, given = self.doc.meta.declared[pid]
                e = _el(lp, "person", xml_id=pid)
                pn = _el(e, "persName")
                pn.set(XML_LANG, "lzh")
                _el(pn, "surname", sur)
                if given:
                    _el(pn, "forename", given)
                _el(e, "note", "declared from the text: not in the registry of scholars")
                continue
            p = persons.get(pid)
            e = _el(lp, "person", xml_id=pid)
            pn = _el(e, "persName")
            pn.set(XML_LANG, "lzh")
            _el(pn, "surname", _canonical(p.surnames, p.name))
            if p.given:
                _el(pn, "forename", _canonical(p.given, p.name))
            if p.courtesy:
                _el(pn, "addName", _canonical(p.courtesy, ""), type="zi")
            _el(e, "persName", p.name, type="full")
            if p.dynasty:
                _el(e, "floruit", p.dynasty)
            if p.role:
                _el(e, "note", p.role)


def _canonical(forms: tuple[str, ...], name: str) -> str | None:
    """The form of a name part the registry's full name uses (traditional), else the second
    listed form (lists run simplified|traditional|variants), else the only one."""
    if not forms:
        return None
    return next((f for f in forms if f in name), forms[1] if len(forms) > 1 else forms[0])


def _pointing(target, target_end) -> str:
    """@target and @targetEnd of a note, written directly: they hold ids we made, which need
    no escaping (the generic _attrs costs more than the rest of a 疏 note)."""
    out = f' target="#{target.id}"' if target and target.id else ""
    return out + f' targetEnd="#{target_end.id}"' if target_end and target_end.id else out


def _ref(x: str | None) -> str | None:
    return "#" + x if x else None


def to_tei_text(doc: Document, report: Report | None = None) -> tuple[bytes, str]:
    """The TEI document as bytes, and its body as written (for the lossless check)."""
    before, body, after = _Writer(doc, report).build()
    return b"".join((b"<?xml version='1.0' encoding='UTF-8'?>\n", before.encode("utf-8"),
                     body.encode("utf-8"), after.encode("utf-8"), b"\n")), body


class _WorkWriter(_Writer):
    """The TEI of a whole work: the header of its Readme.org, and its table of contents, each
    entry linked to the TEI of its 卷."""

    def __init__(self, work: Work, doc: Document):
        super().__init__(doc, None)
        self.work = work

    def body(self) -> str:
        out = ['<body>\n<div type="contents" xml:id="d1">\n<head type="contents" xml:id="d1.h">目次</head>\n<list>\n']
        for k, v in enumerate(self.work.volumes, 1):
            n = f' n="{_esc(v.page)}"' if v.page else ""
            title = self.text(v.title)
            if v.target:
                out.append(f'<item n="{k}"><ref target="{_esc(v.target)}"{n}>{title}</ref></item>\n')
            else:                                # withheld from this checkout, or not converted
                out.append(f'<item n="{k}">{title}</item>\n')
        out.append("</list>\n</div>\n</body>")
        return "".join(out)


def work_to_tei(work: Work, readme_sha256: str) -> bytes:
    """The work's TEI file: its source is the repository's Readme.org."""
    from pipeline.sources.kanripo import Edition
    meta = Meta("Readme.org", readme_sha256, "kanripo-work", work=work.title)
    code, name = work.editions[0] if work.editions else ("", "")
    meta.edition = Edition(work.id, "Readme.org", work.title, code, name)
    before, body, after = _WorkWriter(work, Document(meta, [])).build()
    return b"".join((b"<?xml version='1.0' encoding='UTF-8'?>\n", before.encode("utf-8"),
                     body.encode("utf-8"), after.encode("utf-8"), b"\n"))


def to_tei(doc: Document, report: Report | None = None) -> etree._Element:
    return etree.fromstring(to_tei_text(doc, report)[0], _TRUSTED)


def serialize(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8") + b"\n"


_TAG = re.compile(r"<[^>]*>")
_ESCAPE = re.compile("&(?:lt|gt|amp);")
_UNESCAPED = {"&lt;": "<", "&gt;": ">", "&amp;": "&"}


def body_text(body: str) -> str:
    """The text content of a body we wrote: tags removed, our three escapes undone (in one
    pass: escapes are few, and a replace per escape copies the whole text)."""
    text = _TAG.sub("", body)
    if "&" in text:
        text = _ESCAPE.sub(lambda m: _UNESCAPED[m.group()], text)
    return text
