"""Layout `paren`: 阮元-style 十三經注疏 e-texts with the 注 in full-width parentheses.

    經 sentence。（注 ○音義）        one or more per line; the parenthesis may close on a later line
    [疏]注“X”至“Y”○释曰：…          or ［疏］; sections separated by ○; lemma lines may stand alone
    掌察。（阙。）                    a lost passage

This module is the layout's face (its sniff, its line grammar: where a note opens and closes,
and read); Kanripo's 四部叢刊 editions (mandoku) print the same layout unpunctuated and are
read by pipeline/readers/zhushu/sbck.py (`sniff_mandoku`, `paragraphs` come from there).
"""
from __future__ import annotations

import re

from pipeline.model import Piece, Pos, Unit
from pipeline.readers import common, sniffing
from pipeline.readers.zhushu import pieces, sbck
from pipeline.readers.zhushu.grammar import RawLine, ZhushuBuilder
from pipeline.report import Report
from pipeline.sources.decoding import Source
from pipeline.sources.located import Located

NAME = "paren"
DESCRIPTION = "注疏 with 注 in （…） after each 經 sentence and 音義 after ○ inside; [疏] lines"
# The test of real structure (convert refuses a text this layout reads as next to none).
structure_missing = common.structure_missing
# A Kanripo file of the layout: its sniff and its paragraphs
sniff_mandoku, paragraphs = sbck.sniff_mandoku, sbck.paragraphs

_PAREN = re.compile(r"[（()）]")
_OPEN = "（("
_SHU_LINE = re.compile(r"^[\[［【〔][疏疎][\]］】〕]")
# The sniff's scale: the share of lines with a note after a 經 sentence or a [疏] mark, so that
# five lines in six score 1 (the others are titles and the lines a parenthesis runs over).
_PER_MARKED_LINE = 1.2


def sniff(text: str) -> tuple[float, str]:
    lines = sniffing.nonblank_lines(text)
    if not lines:
        return 0.0, "empty"
    with_note = sniffing.lines_with_paren_note(text)
    shu = sum(1 for l in lines if _SHU_LINE.match(l))
    score = min(1.0, (with_note + shu) / max(1, len(lines)) * _PER_MARKED_LINE) if with_note else 0.0
    return score, f"{with_note} lines with a parenthesised note after a 經 sentence, {shu} [疏] lines"


def _depth(lines: list[RawLine]) -> int:
    d = 0
    for _, _, s in lines:
        for ch in _PAREN.findall(s):
            d = d + 1 if ch in _OPEN else max(0, d - 1)
    return d


def continues(unit: list[RawLine], s: str) -> bool:
    """Inside an open parenthesis every line belongs to the note; a line that opens with （
    is the note of the 經 just before."""
    return _depth(unit) > 0 or (bool(s) and s[0] in _OPEN)


def segment(raw_units: list[list[RawLine]], shus, b: ZhushuBuilder) -> list[Unit]:
    return [_unit(lines, b.zhu_resp, b.report) for lines in raw_units]


def _unit(lines: list[RawLine], zhu_resp: str, report: Report) -> Unit:
    out: list[Piece] = []
    jing = Located()
    note: Located | None = None
    depth, open_at = 0, None

    def flush_jing():
        nonlocal jing
        p = pieces.jing(jing)
        if p:
            out.append(p)
        jing = Located()

    for n, col, s in lines:
        pos = 0
        for m in _PAREN.finditer(s):
            chunk = s[pos:m.start()]
            (jing if depth == 0 else note).add(chunk, n, col + pos)
            pos = m.end()
            if m.group() in _OPEN:
                if depth == 0:
                    flush_jing()
                    note, open_at = Located(), (n, col + m.start())
                depth += 1
            elif depth == 0:
                report.warn("ZS-CONV-PAREN", f"stray {m.group()} with no opening parenthesis; dropped "
                            "as a delimiter", _p(n, col + m.start()))
            else:
                depth -= 1
                if depth == 0:
                    out.extend(pieces.note(note, out, zhu_resp, report))
                    note = None
        (jing if depth == 0 else note).add(s[pos:], n, col + pos)
        if depth == 0:
            flush_jing()
    if depth:
        report.warn("ZS-CONV-UNCLOSED", "（ never closed: the note runs to the end of its passage",
                    _p(*open_at))
        out.extend(pieces.note(note, out, zhu_resp, report))
    first = lines[0]
    return Unit(out, _p(first[0], first[1]))


def _p(line: int, col: int) -> Pos:
    return Pos(line, col)


def read(src: Source, report: Report):
    b = ZhushuBuilder(src, report, NAME, segment, continues)
    if src.mandoku is not None:
        return sbck.read_edition(b, src, report)
    b.feed(src.text)
    return b.finish()
