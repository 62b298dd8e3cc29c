"""Layout `runon`: 注疏 e-texts that run 經, 注 and 音義 together in one line per paragraph.

    大凡…此五代之所不变也。生时形体异，…所存法也。○大如字，徐音泰。七代之所更立者…
    ［疏］“大凡”至“变也”。○正义曰：…○注“生时”至“法也”。○正义曰：…

Nothing marks where the 經 ends and the 注 begins; the 音義 may follow a ○ or nothing at all.
The 疏 after each paragraph supplies the boundaries (see pipeline/readers/zhushu/segment.py). A file may
begin inside a 疏 whose heading is in the previous file: it is kept, marked detached.
"""
from __future__ import annotations

import re

from pipeline.chars import Q_OPEN
from pipeline.model import Unit
from pipeline.readers import common, sniffing
from pipeline.readers.zhushu.grammar import RawLine, ZhushuBuilder, located
from pipeline.readers.zhushu.segment import segment as segment_group
from pipeline.report import Report
from pipeline.sources.decoding import Source

NAME = "runon"
DESCRIPTION = "注疏 with 經, 注 and 音義 run together, one line per paragraph, then [疏] lines"
# The test of real structure (convert refuses a text this layout reads as next to none).
structure_missing = common.structure_missing

# The start of a [疏] line (matched on stripped lines).
_SHU_LINE = re.compile(r"[\[［【〔][疏疎][\]］】〕]|[疏疎](?=○?(?:注|註)?" + Q_OPEN + ")")


def sniff(text: str) -> tuple[float, str]:
    lines = sniffing.nonblank_lines(text)
    if not lines:
        return 0.0, "empty"
    shu = sum(1 for l in lines if _SHU_LINE.match(l))
    paren = sniffing.lines_with_paren_note(text)
    text_lines = len(lines) - shu
    if paren > text_lines // 4:
        return 0.0, f"{shu} [疏] lines, {paren} parenthesised notes"
    if not shu:
        # Chinese text with nothing else to go by: readable as 經 and 注 by cues alone.
        return (0.25, "Chinese text with no [疏] lines and no parenthesised notes; layers by "
                "cues only") if sniffing.mostly_cjk(text) else (0.0, "no [疏] lines")
    return min(1.0, 0.3 + shu / max(1, text_lines)), \
        f"{shu} [疏] lines after {text_lines} text lines with no parenthesised notes"


def continues(unit: list[RawLine], s: str) -> bool:
    return False                                # one line, one paragraph


def segment(raw_units: list[list[RawLine]], shus, b: ZhushuBuilder) -> list[Unit]:
    lines = located(raw_units)
    return segment_group(lines, shus, b.zhu_resp, b.report)


def read(src: Source, report: Report):
    b = ZhushuBuilder(src, report, NAME, segment, continues)
    b.feed(src.text)
    return b.finish()
