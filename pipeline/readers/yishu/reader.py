"""Layout `yishu`: the Qing 欽定三禮義疏 (周官, 儀禮, 禮記), punctuated or not.

    聘遭丧入竟则遂也〈竟音境下并同〉                      a 經 line, small notes in 〈…〉 or 【…】
    正义郑氏康成曰遭丧主国君薨也…　敖氏继公曰…          a category line: quotations, each attributed
    存疑。孔氏颖达曰：「…」                               categories: 正义 辨正 通论 馀论 存疑 存异 总论
    案不筵几对上几筵既设而言…                            the compilers' own judgment
    右遭丧                                                closes a section and names it

A category may start in the middle of a line, after the 經 or after another category; a line
cut at the page edge continues the one before; furniture (钦定四库全书, the 卷 title, the
catalogue line) stays in the text, marked. Punctuated editions may interleave a modern
translation page by page (pipeline/readers/yishu/interleave.py): it becomes its own layer, each line linked
to the original it translates.

Kanripo's editions (mandoku, pipeline/sources/mandoku.py) are read by the same reader: `paragraphs`
joins their printed lines into lines of this shape, each keeping the indentation of its first
printed line, and the reader tells 經 (at the margin) from the commentary (indented) by it.
"""
from __future__ import annotations

from pipeline.model import Unit, YishuBlock
from pipeline.readers import sniffing
from pipeline.readers.common import Builder
from pipeline.readers.yishu import kanripo
from pipeline.readers.yishu.attribution import ATTRIBUTION
from pipeline.readers.yishu.driver import _Reader
from pipeline.readers.yishu.lines import CLOSING, Lines
from pipeline.report import Report
from pipeline.sources.decoding import Source

NAME = "yishu"
DESCRIPTION = "欽定三禮義疏: 經 lines, category lines (正义 存疑 …) with 氏曰 quotations, 案, 右 closings"

# A Kanripo file of the layout: its sniff, its paragraphs, and the count the 注疏 reader asks
sniff_mandoku, paragraphs, category_lines = kanripo.sniff_mandoku, kanripo.paragraphs, kanripo.category_lines

# The sniff's scale. Two category lines are the fewest that make a 義疏 (a 注疏 text may quote one
# 正義 or hold one 案 in its 疏); from there the score starts at 0.4, above the detector's floor
# (0.2), and rises by 2 per category line per line of text: 1 when three lines in ten open a
# category (a 義疏 comments on each 經 passage in one to a few lines).
_FEWEST = 2
_BASE = 0.4
_PER_LINE = 2
# A text of a few 經 passages (200 characters) that holds no category block is no 義疏 read: a
# shorter one may be a single 經 passage with its commentary lost.
_STRUCTURE_MIN = 200


def sniff(text: str) -> tuple[float, str]:
    count = len(sniffing.nonblank_lines(text))
    if not count:
        return 0.0, "empty"
    t = Lines(text)
    cats = sum(1 for n, m in t.labels.items() if m and
               (ATTRIBUTION.match(t.stripped[n], m.end()) or m.group("an")))
    # a glued label is followed by an attribution, so only lines with its 曰 can hold one
    glued = sum(len(t.glued(n)) for n, s in t.stripped.items() if "曰" in s)
    if cats + glued < _FEWEST:
        return 0.0, f"{cats + glued} 義疏 categories"
    return min(1.0, _BASE + _PER_LINE * (cats + glued) / count), \
        f"{cats + glued} 義疏 categories (正义, 存疑 …) or 案 in {count} lines"


def structure_missing(doc) -> str | None:
    """None, or what the reader saw when it found no 義疏 block at all in a text of some length."""
    blocks = [b for b in doc.blocks() if isinstance(b, YishuBlock)]
    units = [b for b in doc.blocks() if isinstance(b, Unit)]
    chars = sum(len(getattr(p, "text", "")) for u in units for p in u.pieces)
    if not blocks and chars >= _STRUCTURE_MIN:
        return f"{chars} characters in {len(units)} units, no 義疏 category block"
    return None


def read(src: Source, report: Report):
    b = Builder(src, report, NAME)
    lines = Lines(src.text)
    p = _Reader(b, report, src.text, lines, indented=src.mandoku is not None)
    b.by_closing = any(CLOSING.match(p.stripped[n]) for n in p.content)
    for n, raw in lines.raw.items():            # in line order
        if p.layout.is_translation(n):
            p.translation(n, raw)
        else:
            p.original(n, raw)
    p.report_layout()
    b.work_known = bool(b.work)
    b.declared = dict(p.speakers.unknown)
    return b.finish()
