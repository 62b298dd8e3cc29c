"""The 注疏 line grammar: how the lines of a 注疏 text become 經 units and their 疏.

A layout module supplies only how its unit lines become units (`segment`) and when a line
continues the unit before it (`continues`); the builder does the rest in one way for all 注疏
layouts: a *group* is the run of units since the last 疏 and the 疏 blocks after it; when the
group closes, its units are segmented and every 疏 lemma is resolved against them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from pipeline.chars import Q_CLOSE, Q_OPEN, QUOTE_MARKS, WHITESPACE_CHARS as _WS
from pipeline.model import Div, Pos, Shu, Unit
from pipeline.readers import pian
from pipeline.readers.common import CHAPTER, Builder, juan_line, juan_number
from pipeline.readers.zhushu.lemmas import resolve_group
from pipeline.readers.zhushu.shu import (MARK, looks_like_shu, mark_text, opens_body, parse_block,
                                         resp_for, starts_section)
from pipeline.report import Report
from pipeline.sources.decoding import Source
from pipeline.sources.located import Located

# A line holding nothing but a 出文 lemma (注“X”至“Y”。): its 疏 continues on the next line.
_QUOTE = Q_OPEN + "[^" + QUOTE_MARKS + "]*" + Q_CLOSE
_LEMMA_ONLY = re.compile("(?:注|註)?" + _QUOTE + "(?:至" + _QUOTE + ")?[。，]?○*")

RawLine = tuple[int, int, str]                 # line number, column of first char, stripped text


def located(raw_units: list[list[RawLine]]) -> list[Located]:
    """Each unit's lines as one Located text."""
    out = []
    for unit in raw_units:
        loc = Located()
        for n, col, s in unit:
            loc.add(s, n, col)
        out.append(loc)
    return out


@dataclass
class _Group:
    units: list[list[RawLine]] = field(default_factory=list)
    shus: list[Shu] = field(default_factory=list)


class ZhushuBuilder(Builder):
    def __init__(self, src: Source, report: Report, layout: str,
                 segment: Callable[[list[list[RawLine]], list[Shu], "ZhushuBuilder"], list[Unit]],
                 continues: Callable[[list[RawLine], str], bool]):
        super().__init__(src, report, layout)
        self.segment, self.continues = segment, continues
        self.group = _Group()
        self.shu_loc: Located | None = None
        self.shu_mark = ""
        self.shu_mark_pos: Pos | None = None
        self.seen_unit = False
        self.bare_lemmas = False             # unpunctuated texts: lemmas without quotation marks
        self.lemmas_printed = True           # False: the edition prints no 出文 (a 疏 follows
                                             # the 經 and 注 it explains: Kanripo's 四庫 注疏)
        self.layer_model = None              # cues.LayerModel of the text, where a reader has one
        self.quoted_clauses = None           # bare_quotes.QuotedClauses of the text's 疏, likewise

    def set_work(self, work: str) -> None:
        """Name the work; without a known work the 疏 author is read off the openers (釋曰/正義曰)."""
        super().set_work(work)
        self.shu_resp = self.shu_resp or resp_for(self.src.text)

    # -- lines -------------------------------------------------------------------------------
    def feed(self, text: str) -> None:
        line = self.line
        for n, raw in enumerate(text.split("\n"), 1):
            if raw and not raw.isspace():      # blank lines carry nothing, wherever they fall
                line(n, raw)

    def line(self, n: int, raw: str) -> None:
        s = raw.strip(_WS)
        col = len(raw) - len(raw.lstrip(_WS)) + 1
        open_unit = self.group.units[-1] if self.group.units and not self.group.shus \
            and self.shu_loc is None else None
        if open_unit is not None and self.continues(open_unit, s):
            open_unit.append((n, col, s))
            return
        if not s:
            return
        m = juan_line(s)
        if m:
            self.juan(s, Pos(n, col), juan_number(m), m.group("work"))
            return
        if CHAPTER.match(s) or pian.title(s):            # a 篇 title, with or without 第N
            self.section(s, Pos(n, col))
            return
        m = MARK.match(s)
        if m:
            self.close_shu()
            self.shu_mark, self.shu_mark_pos = mark_text(m), Pos(n, col)
            self.shu_loc = Located.of(s[m.end():], n, col + m.end())
            return
        if self.shu_loc is not None and self._continues_shu(s):
            self.shu_loc.add(s, n, col)
            return
        self.close_shu()
        if not self.seen_unit and not self.group.units and looks_like_shu(s):
            # The file starts inside a 疏 whose heading lies in the previous file.
            self.shu_mark, self.shu_mark_pos = "", Pos(n, col)
            self.shu_loc = Located.of(s, n, col)
            return
        self.unit_line(n, col, s)

    def unit_line(self, n: int, col: int, s: str) -> None:
        """A line that opens a new unit (a 經 paragraph)."""
        self.close_shu()
        if self.group.shus:
            self.close_group()
        self.group.units.append([(n, col, s)])

    def unit_runs(self, runs: list[RawLine]) -> None:
        """A unit printed in runs (its text with a gap left out: a note continued after blank
        cells, 四庫 Kanripo): one unit, as unit_line makes of one run."""
        self.unit_line(*runs[0])
        self.group.units[-1] += runs[1:]

    def heading_shu(self, loc: Located, mark: str, pos: Pos) -> None:
        """A 疏 printed on the heading of the open division (考工記's under its 篇 title): it
        explains the title, not a 經 of the group, so it points at the head."""
        self.close_group()
        self.shu_block(loc, mark, pos)
        shus, self.group.shus = self.group.shus, []
        resolve_group([], shus, self.report, self.lemmas_printed, self.bare_lemmas)
        head = self.div.head if self.div is not None else None
        for s in shus:
            s.target = s.target or head
            self.block(s)

    def shu_block(self, loc: Located, mark: str, pos: Pos) -> None:
        """A whole 疏 block found inside a line (四庫: 疏【…】)."""
        self.close_shu()
        self.shu_loc, self.shu_mark, self.shu_mark_pos = loc, mark, pos
        self.close_shu()

    def _continues_shu(self, s: str) -> bool:
        text = self.shu_loc.text
        return (s.startswith("○") or opens_body(s) or starts_section(s)
                or not text or bool(_LEMMA_ONLY.fullmatch(text)))

    # -- blocks ------------------------------------------------------------------------------
    def close_shu(self) -> None:
        if self.shu_loc is None:
            return
        if not self.shu_loc.text:
            self.report.warn("ZS-CONV-EMPTY-SHU", "[疏] with no text", self.shu_mark_pos)
        shus = parse_block(self.shu_loc, self.shu_mark, self.shu_mark_pos, self.bare_lemmas,
                           circles_are_text="○" not in self.src.delimiters) \
            if self.shu_loc.text else \
            [Shu(None, [], self.shu_mark_pos, mark=self.shu_mark)]
        for s in shus:
            s.resp = self.shu_resp
        self.group.shus.extend(shus)
        self.shu_loc = None

    def close_group(self) -> None:
        self.close_shu()
        if not self.group.units and not self.group.shus:
            return                              # nothing open (every 義疏 block asks)
        g, self.group = self.group, _Group()
        units = self.segment(g.units, g.shus, self) if g.units else []
        if units:
            self.seen_unit = True
        elif not self.seen_unit:
            for s in g.shus:
                s.detached = True
                self.report.warn("ZS-CONV-DETACHED", "疏 before any 經 of the file (its heading lies "
                                 "outside the file); kept, marked detached", s.pos)
        resolve_group(units, g.shus, self.report, self.lemmas_printed, self.bare_lemmas)
        if self.div is None:
            self.juan_div = self.div = Div("juan", None, front=self.pending_front)
            self.pending_front = []
            self.divs.append(self.div)
        self.div.blocks.extend(units)
        self.div.blocks.extend(g.shus)

    flush = close_group
