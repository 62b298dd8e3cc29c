"""Stray delimiters: a （ ） ( ) ［ ］ [ ] 【 】 〈 〉 or ○ that no reader consumed (an e-text's
typo, such as a 疏 ending in an unmatched `)`) — in a Kanripo source only a note's parenthesis
is one, the rest is printed text. The lossless invariant says delimiters are not text, so they
leave the model here, each reported with its position; offsets that point into the text are
shifted."""
from __future__ import annotations

import re

from pipeline.chars import DELIMITERS
from pipeline.model.nodes import (Document, Fw, Head, Judgment, KaozhengEntry, Para, Piece, Pos,
                                  Prose, Quote, Shu, SmallNote, Translation, Unit, YishuBlock)
from pipeline.model.walk import walk
from pipeline.report import Report


def drop(doc: Document, report: Report) -> None:
    """Drop the delimiters of the document's source (doc.meta.delimiters) that no reader
    consumed, each reported."""
    strays = _Strays(doc.meta.delimiters or DELIMITERS, report)
    for node in walk(doc):
        clean = strays.BY_TYPE.get(type(node))
        if clean is not None:
            clean(strays, node)


class _Strays:
    """Each node's texts cleaned in the order printed: a unit's pieces with the unit, a list of
    parts whole, with the notes and judgments in it (the walk's own visits of those are passed
    over), so that the report lists the strays in print order."""

    def __init__(self, delimiters: frozenset, report: Report):
        self.delim = re.compile("[" + re.escape("".join(sorted(delimiters))) + "]")
        self.report = report

    def text_of(self, node: Head | Fw) -> None:
        node.text = self.clean(node.text, node.pos)[0]

    def unit(self, u: Unit) -> None:
        for p in u.pieces:
            self.piece(p) if isinstance(p, Piece) else self.note(p)

    def shu(self, s: Shu) -> None:
        for para in s.paras:
            self.para(para)
        if s.chuwen is not None:
            for t in s.chuwen.tokens:
                t.text = self.clean(t.text, s.chuwen.pos)[0]

    def yishu(self, b: YishuBlock) -> None:
        b.label = self.clean(b.label, b.pos)[0]

    def parts_of(self, node: Quote | Translation | Prose) -> None:
        node.parts = self.parts(node.parts, node.pos)

    def kaozheng_entry(self, k: KaozhengEntry) -> None:
        k.lemma = self.clean(k.lemma, k.pos)[0]
        k.parts = self.parts(k.parts, k.pos)

    BY_TYPE = {Head: text_of, Fw: text_of, Unit: unit, Shu: shu, YishuBlock: yishu, Quote: parts_of,
               Translation: parts_of, Prose: parts_of, KaozhengEntry: kaozheng_entry}

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
        if not gone:
            return
        for a in p.anchors:
            a.offset = _shift(a.offset, gone)
        if p.tokens is not None:
            for t in p.tokens:
                t.text = self.delim.sub("", t.text)

    def para(self, para: Para) -> None:
        para.text, gone = self.clean(para.text, para.pos)
        if gone and para.sub is not None:
            para.sub.quotes = [(_shift(a, gone), _shift(b, gone)) for a, b in para.sub.quotes]


def _shift(offset: int, gone: list[int]) -> int:
    return offset - sum(1 for g in gone if g < offset)
