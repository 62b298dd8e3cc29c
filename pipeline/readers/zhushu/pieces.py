"""Building a unit's pieces from located text: 經 runs, 注, 音義 glosses, lacunae.

Shared by every 注疏 reader: once a reader has decided where a 注 or a 音義 run lies, the pieces
are made the same way whatever the layout.
"""
from __future__ import annotations

import re

from pipeline.model import JING, MARK, QUE, XIAOZHU, YINYI, ZHU, Piece, SmallNote
from pipeline.readers import yinyi
from pipeline.readers.zhushu.anchoring import gloss_candidates, gloss_target
from pipeline.report import Report
from pipeline.sources.located import Located

LUDEMING = "ludeming"
_LACUNA = re.compile(r"^[阙闕缺][文]?[。.]?$")


def jing(loc: Located, start: int = 0, end: int | None = None) -> Piece | None:
    text = loc.text[start:end]
    return Piece(JING, text, loc.pos(start)) if text else None


def is_lacuna(text: str) -> bool:
    return bool(_LACUNA.match(text))


def glosses(loc: Located, start: int, end: int, context: list[Piece], report: Report) -> list[Piece]:
    """One 音義 piece per gloss in loc.text[start:end]; extra ○ inside separate glosses too."""
    out: list[Piece] = []
    text = loc.text
    candidates = gloss_candidates(context)
    for chunk_start, chunk in _split_o(text, start, end):
        bare = "。" not in chunk and "，" not in chunk
        run: list[Piece] = []
        for off, g in yinyi.split_glosses(chunk):
            pos = loc.pos(chunk_start + off)
            piece = Piece(YINYI, g, pos, tokens=yinyi.tokenize(g), resp=LUDEMING)
            head = yinyi.head_of_tokens(piece.tokens)
            piece.target = gloss_target(candidates, head) if head else None
            if head and piece.target is None and bare and run:
                # Unpunctuated, a reading found in what explains the gloss before (説文云…,
                # 後放此) cuts no new gloss: its "head" is no word of the text.
                prev = run[-1]
                prev.text += g
                prev.tokens = yinyi.tokenize(prev.text)
                continue
            if head and piece.target is None:
                report.warn("ZS-CONV-GLOSS", f"音義 head “{head}” not found in the 經 or 注 it follows; "
                            "kept without a target", pos)
            run.append(piece)
        out += run
    return out


def _split_o(text: str, start: int, end: int):
    i = start
    while i < end:
        j = text.find("○", i, end)
        j = end if j == -1 else j
        if j > i:
            yield i, text[i:j]
        i = j + 1


def note(loc: Located, context: list[Piece], zhu_resp: str | None, report: Report) -> list[Piece]:
    """The pieces of a parenthesised note: `注 ○音義`, `○音義` alone, or `阙。` for a lost passage."""
    text = loc.text
    if not text:
        return []
    if is_lacuna(text):
        return [Piece(QUE, text, loc.pos(0))]
    cut = text.find("○")
    cut = len(text) if cut == -1 else cut
    out: list[Piece] = []
    if cut > 0:
        target = next((p for p in reversed(context) if p.layer == JING), None)
        z = Piece(ZHU, text[:cut], loc.pos(0), resp=zhu_resp, target=target)
        out.append(z)
        report.boundary("jing|zhu", "delimiter", 1.0, z.pos)
    if cut < len(text):
        report.boundary("zhu|yinyi", "delimiter", 1.0, loc.pos(cut))
        out += glosses(loc, cut, len(text), context + out, report)
    return out


# -- editions that print their circles (Kanripo) ----------------------------------------------------
# In a Kanripo file ○ and 〇 are characters the edition prints, not an e-text's delimiters: the
# circle that ends a 注 and opens its 音義 is kept, as a MARK piece, and so is each further one.
CIRCLES = "○〇"
# The 音義 named before its first gloss (纂圖互註禮記: 陸曰毋音无…).
_LU = re.compile(r"陸德明音義曰|陸[曰日]")


def printed_note(loc: Located, context: list[Piece], zhu_resp: str | None, report: Report,
                 crossref: re.Pattern | None = None) -> list:
    """The pieces of a note in small characters of an edition that prints its circles: the 注,
    then, after ○ or 〇, the 音義 glosses (read beside the 經 and 注 they gloss: `context`, the
    pieces before the note); with `crossref` (the 纂圖互註 editions), the 重言/重意/互註
    cross-references that close the note, each a small note of its own."""
    text = loc.text
    if not text:
        return []
    if is_lacuna(text):
        return [Piece(QUE, text, loc.pos(0))]
    ref = crossref.search(text) if crossref is not None else None
    end = ref.start() if ref else len(text)
    cut = min((i for i in (text.find(c, 0, end) for c in CIRCLES) if i >= 0), default=end)
    out: list = []
    if cut > 0:
        target = next((p for p in reversed(context) if p.layer == JING), None)
        z = Piece(ZHU, text[:cut], loc.pos(0), resp=zhu_resp, target=target)
        out.append(z)
        report.boundary("jing|zhu", "delimiter", 1.0, z.pos)
    if cut < end:
        report.boundary("zhu|yinyi", "delimiter", 1.0, loc.pos(cut))
        out += printed_glosses(loc, cut, end, context + out, report)
    if ref:
        out += crossrefs(loc, end, crossref)
    return out


def printed_glosses(loc: Located, start: int, end: int, context: list[Piece], report: Report) -> list:
    """The 音義 in loc.text[start:end], which opens with a circle: each circle a MARK piece, a
    leading 陸曰 another, and one 音義 piece per gloss (yinyi.split_beside)."""
    out: list = []
    text = loc.text
    candidates = gloss_candidates(context)
    texts = [t for _, t in candidates]

    def held(s: str) -> bool:
        return any(s in t for t in texts)

    i = start
    while i < end:
        if text[i] in CIRCLES:
            out.append(Piece(MARK, text[i], loc.pos(i)))
            i += 1
            continue
        j = min((k for k in (text.find(c, i, end) for c in CIRCLES) if k >= 0), default=end)
        m = _LU.match(text, i, j)
        if m:
            out.append(Piece(MARK, m.group(), loc.pos(i)))
            i = m.end()
        for off, g, head in yinyi.split_beside(text[i:j], held):
            pos = loc.pos(i + off)
            piece = Piece(YINYI, g, pos, tokens=yinyi.tokenize(g, head), resp=LUDEMING)
            head = yinyi.head_of_tokens(piece.tokens)
            piece.target = gloss_target(candidates, head) if head else None
            if head and piece.target is None:
                report.warn("ZS-CONV-GLOSS", f"音義 head “{head}” not found in the 經 or 注 it follows; "
                            "kept without a target", pos)
            out.append(piece)
        i = j
    return out


def crossrefs(loc: Located, start: int, crossref: re.Pattern) -> list[SmallNote]:
    """loc.text[start:], a run of cross-references (重言…重意…): one small note from each
    keyword to the next."""
    text = loc.text
    cuts = [m.start() for m in crossref.finditer(text, start)] or [start]
    cuts[0] = start
    return [SmallNote(XIAOZHU, text[a:b], loc.pos(a))
            for a, b in zip(cuts, cuts[1:] + [len(text)]) if b > a]
