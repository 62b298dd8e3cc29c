"""Stray delimiters: a （ ） ( ) ［ ］ [ ] 【 】 〈 〉 or ○ that no reader consumed (000 ends a 疏 with
an unmatched `)`) — in a Kanripo source only a note's parenthesis is one, the rest is printed
text. The lossless invariant says delimiters are not text, so they leave the model here, each
reported with its position; offsets that point into the text are shifted."""
from __future__ import annotations

import re

from pipeline.chars import DELIMITERS
from pipeline.model import (Document, Fw, Judgment, KaozhengEntry, Para, Piece, Pos, Prose, Shu,
                            SmallNote, Translation, Unit, YishuBlock)
from pipeline.report import Report


def drop(doc: Document, report: Report) -> None:
    """Drop the delimiters of the document's source (doc.meta.delimiters) that no reader
    consumed, each reported."""
    _Strays(doc.meta.delimiters or DELIMITERS, report).drop(doc)


class _Strays:
    def __init__(self, delimiters: frozenset, report: Report):
        self.delim = re.compile("[" + re.escape("".join(sorted(delimiters))) + "]")
        self.report = report

    def drop(self, doc: Document) -> None:
        # Strays are rare: each text is tested here, in the loop, and only one that holds a
        # delimiter goes to a method (a call per piece of text was most of this pass).
        stray = self.delim.search
        for d in doc.all_divs():
            for h in [d.head, *d.trailers, *d.front]:
                if h is not None:
                    h.text = self.clean(h.text, h.pos)[0]
        for b in doc.blocks():
            if isinstance(b, Unit):
                for p in b.pieces:
                    if stray(p.text) is not None:
                        self.piece(p) if isinstance(p, Piece) else self.note(p)
            elif isinstance(b, Shu):
                for para in b.paras:
                    if stray(para.text) is not None:
                        self.para(para)
                if b.chuwen is not None:
                    for t in b.chuwen.tokens:
                        if stray(t.text) is not None:
                            t.text = self.clean(t.text, b.chuwen.pos)[0]
            elif isinstance(b, YishuBlock):
                if stray(b.label) is not None:
                    b.label = self.clean(b.label, b.pos)[0]
                for q in b.quotes:
                    parts = q.parts    # the usual quotation, one clean run of text, tested here
                    if len(parts) != 1 or type(parts[0]) is not str or not parts[0] or \
                            stray(parts[0]) is not None:
                        q.parts = self.parts(parts, q.pos)
            elif isinstance(b, Translation):
                b.parts = self.parts(b.parts, b.pos)
            elif isinstance(b, Fw):
                b.text = self.clean(b.text, b.pos)[0]
            elif isinstance(b, Prose):
                b.parts = self.parts(b.parts, b.pos)
            elif isinstance(b, KaozhengEntry):
                b.lemma = self.clean(b.lemma, b.pos)[0]
                b.parts = self.parts(b.parts, b.pos)

    def parts(self, parts: list, pos: Pos) -> list:
        out = []
        for p in parts:
            if isinstance(p, SmallNote):
                self.note(p)
            elif isinstance(p, Judgment):
                p.who = self.clean(p.who, p.pos)[0]
                p.parts = self.parts(p.parts, p.pos)
            elif self.delim.search(p) is not None:
                p = self.clean(p, pos)[0]
            if p != "":
                out.append(p)
        return out

    def note(self, n: SmallNote) -> None:
        if self.delim.search(n.text) is None:
            return
        n.text = self.clean(n.text, n.pos)[0]
        if n.tokens is not None:
            for t in n.tokens:
                t.text = self.delim.sub("", t.text)

    def clean(self, text: str, pos: Pos) -> tuple[str, list[int]]:
        gone = [m.start() for m in self.delim.finditer(text)]
        for i in gone:
            self.report.warn("ZS-CONV-STRAY", f"stray delimiter {text[i]!r} dropped",
                             Pos(pos.line, pos.col + i))
        return (self.delim.sub("", text), gone) if gone else (text, gone)

    def piece(self, p: Piece) -> None:
        p.text, gone = self.clean(p.text, p.pos)
        for a in p.anchors:
            a.offset = _shift(a.offset, gone)
        if p.tokens is not None:
            for t in p.tokens:
                t.text = self.delim.sub("", t.text)
        p.squeezed = None

    def para(self, para: Para) -> None:
        para.text, gone = self.clean(para.text, para.pos)
        if para.sub is not None:
            para.sub.quotes = [(_shift(a, gone), _shift(b, gone)) for a, b in para.sub.quotes]


def _shift(offset: int, gone: list[int]) -> int:
    return offset - sum(1 for g in gone if g < offset)
