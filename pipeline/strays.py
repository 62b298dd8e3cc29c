"""Stray delimiters: a （ ） ( ) ［ ］ [ ] 【 】 〈 〉 or ○ that no reader consumed (000 ends a 疏 with
an unmatched `)`). The lossless invariant says delimiters are not text, so they leave the
model here, each reported with its position; offsets that point into the text are shifted."""
from __future__ import annotations

import re

from .chars import DELIMITERS
from .model import Document, Fw, Para, Piece, Pos, Shu, SmallNote, Translation, Unit, YishuBlock
from .report import Report

_DELIM = re.compile("[" + re.escape("".join(sorted(DELIMITERS))) + "]")


def drop(doc: Document, report: Report) -> None:
    # Strays are rare: each text is tested here, in the loop, and only one that holds a
    # delimiter goes to a function (a call per piece of text was most of this pass).
    stray = _DELIM.search
    for d in doc.all_divs():
        for h in [d.head, *d.trailers, *d.front]:
            if h is not None:
                h.text = _clean(h.text, h.pos, report)[0]
    for b in doc.blocks():
        if isinstance(b, Unit):
            for p in b.pieces:
                if stray(p.text) is not None:
                    _piece(p, report) if isinstance(p, Piece) else _note(p, report)
        elif isinstance(b, Shu):
            for para in b.paras:
                if stray(para.text) is not None:
                    _para(para, report)
            if b.chuwen is not None:
                for t in b.chuwen.tokens:
                    if stray(t.text) is not None:
                        t.text = _clean(t.text, b.chuwen.pos, report)[0]
        elif isinstance(b, YishuBlock):
            if stray(b.label) is not None:
                b.label = _clean(b.label, b.pos, report)[0]
            for q in b.quotes:
                parts = q.parts        # the usual quotation, one clean run of text, tested here
                if len(parts) != 1 or type(parts[0]) is not str or not parts[0] or \
                        stray(parts[0]) is not None:
                    q.parts = _parts(parts, q.pos, report)
        elif isinstance(b, Translation):
            b.parts = _parts(b.parts, b.pos, report)
        elif isinstance(b, Fw):
            b.text = _clean(b.text, b.pos, report)[0]


def _parts(parts: list, pos: Pos, report: Report) -> list:
    if len(parts) == 1 and type(parts[0]) is str and parts[0] and _DELIM.search(parts[0]) is None:
        return parts                              # the usual quotation: one clean run of text
    out = []
    for p in parts:
        if isinstance(p, SmallNote):
            _note(p, report)
        elif _DELIM.search(p) is not None:
            p = _clean(p, pos, report)[0]
        if p != "":
            out.append(p)
    return out


def _note(n: SmallNote, report: Report) -> None:
    if _DELIM.search(n.text) is None:
        return
    n.text = _clean(n.text, n.pos, report)[0]
    if n.tokens is not None:
        for t in n.tokens:
            t.text = _DELIM.sub("", t.text)


def _clean(text: str, pos: Pos, report: Report) -> tuple[str, list[int]]:
    if _DELIM.search(text) is None:               # the usual case: nothing stray
        return text, []
    gone = [m.start() for m in _DELIM.finditer(text)]
    for i in gone:
        report.warn("ZS-CONV-STRAY", f"stray delimiter {text[i]!r} dropped", Pos(pos.line, pos.col + i))
    return (_DELIM.sub("", text), gone) if gone else (text, gone)


def _shift(offset: int, gone: list[int]) -> int:
    return offset - sum(1 for g in gone if g < offset)


def _piece(p: Piece, report: Report) -> None:
    if _DELIM.search(p.text) is None:
        return
    p.text, gone = _clean(p.text, p.pos, report)
    for a in p.anchors:
        a.offset = _shift(a.offset, gone)
    if p.tokens is not None:
        for t in p.tokens:
            t.text = _DELIM.sub("", t.text)
    p.squeezed = None


def _para(para: Para, report: Report) -> None:
    if _DELIM.search(para.text) is None:
        return
    para.text, gone = _clean(para.text, para.pos, report)
    if para.sub is not None:
        para.sub.quotes = [(_shift(a, gone), _shift(b, gone)) for a, b in para.sub.quotes]
