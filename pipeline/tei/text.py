"""The text of the body as the writer writes it: escaped, the characters that need one in a
declared <g>, a Kanripo source's pages and lines placed in it; and the small elements every
block uses (a whole element, a piece with anchors, a run of tokens)."""
from __future__ import annotations

import re

from pipeline.chars import glyph_kind
from pipeline.model import Document, Piece, Token
from pipeline.report import Report
from pipeline.tei.markup import _CLOSE, _OPEN, _SPECIAL, _attrs, _esc, glyph_id
from pipeline.tei.place import Placer


class TextWriter:
    """The body is written as XML text: element by element through the lxml API costs about
    2.5 µs per element, three times the whole of this path. The header, small and fixed, is
    built with lxml and the body spliced into it. Every conversion checks the written body's
    text against the source (convert._check_lossless), and tests validate the whole output.
    The attributes of the commonest elements are written straight into their tags: they hold
    our ids, our types and person ids (from the registry, or built from a name in CJK
    characters), none of which needs escaping; _attrs escapes the rest. The commonest
    elements are written in one string each."""

    def __init__(self, doc: Document, report: Report | None):
        self.doc, self.report = doc, report
        self.glyphs: dict[str, str] = {}       # character → its <g>, as written
        self.translation_langs: set[str] = set()
        self.out: list[str] = []
        # A Kanripo source's pages, lines, rows and gaiji, placed as the text is written (the
        # placer is given _marked at each call: holding it would make a cycle, which keeps the
        # whole document alive until the cyclic collector's next pass)
        self.placer = Placer(doc.meta.events, doc.meta.delimiters) if doc.meta.events else None

    def put(self, text: str) -> None:
        """Text, with placeholders and PUA characters wrapped in a declared <g>."""
        self.out.append(self.text(text))

    def text(self, text: str, literal: bool = False) -> str:
        """Text as put writes it, for an element written in one piece: escaped, the characters
        that need one in a <g> (none, `literal`: symbols printed as such), and a Kanripo
        source's pages and lines placed in it."""
        if self.placer is not None:
            return self.placer.place(text, _esc if literal else self._marked)
        return _esc(text) if literal else self._marked(text)

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
        out, text, s, pos = self.out, self.text, piece.text, 0
        for a in piece.anchors:
            out.append(f'{text(s[pos:a.offset])}<anchor xml:id="{a.id}"/>')
            pos = a.offset
        out.append(text(s[pos:]))

    def put_tokens(self, tokens: list[Token]) -> None:
        out, text = self.out, self.text
        for t in tokens:
            if t.kind == "text":
                out.append(text(t.text))
            else:
                out.append(f"{_OPEN[t.kind]}{text(t.text)}{_CLOSE[t.kind]}")
