"""What every 注疏 reader shares: 卷 lines, 疏 blocks, groups of units and their resolution.

A layout module supplies only how its unit lines become units (`segment`) and when a line
continues the unit before it (`continues`). The builder does the rest in one way for all layouts:
a *group* is the run of units since the last 疏 and the 疏 blocks after it; when the group closes,
its units are segmented and every 疏 lemma is resolved against them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Callable

from pipeline import persons
from pipeline.chars import NUMERALS, Q_CLOSE, Q_OPEN, QUOTE_MARKS, WHITESPACE
from pipeline.model import (Div, Document, Fw, Head, Judgment, KaozhengEntry, Meta, Pos, Prose, Shu,
                            SmallNote, Translation, Unit, YishuBlock, assign_ids)
from pipeline.readers import pian
from pipeline.readers.zhushu.lemmas import resolve_group
from pipeline.readers.zhushu.shu import (MARK, looks_like_shu, mark_text, opens_body, parse_block,
                                         resp_for, starts_section)
from pipeline.report import Report
from pipeline.sources.decoding import Source
from pipeline.sources.located import Located

JUAN_LINE = re.compile(rf"^(?P<work>\S*?)卷(?:第)?(?P<n>[{NUMERALS}]+)(?:之[{NUMERALS}]+)?[上中下]?$")
_WS = "".join(WHITESPACE)
# A chapter title standing alone: 祭法第二十三, 檀弓上第三, 聘礼第八之四.
CHAPTER = re.compile(rf"^[^\s　，。、【】（）()“”]{{1,10}}第[{NUMERALS}]+(?:之[{NUMERALS}]+)?$")
# A line holding nothing but a 出文 lemma (注“X”至“Y”。): its 疏 continues on the next line.
_QUOTE = Q_OPEN + "[^" + QUOTE_MARKS + "]*" + Q_CLOSE
_LEMMA_ONLY = re.compile("(?:注|註)?" + _QUOTE + "(?:至" + _QUOTE + ")?[。，]?○*")

RawLine = tuple[int, int, str]                 # line number, column of first char, stripped text
# The blocks TEI can close with a trailer (written as <ab>: model.common); notes and fw are not.
_CLOSABLE = frozenset((Unit, Translation))


def juan_line(s: str) -> re.Match | None:
    """JUAN_LINE.match(s), tried only on lines that hold a 卷: its lazy work name would walk
    every long line to its end."""
    return JUAN_LINE.match(s) if "卷" in s else None


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


class Builder:
    def __init__(self, src: Source, report: Report, layout: str,
                 segment: Callable[[list[list[RawLine]], list[Shu], "Builder"], list[Unit]],
                 continues: Callable[[list[RawLine], str], bool]):
        self.src, self.report, self.layout = src, report, layout
        self.segment, self.continues = segment, continues
        self.work = ""
        edition = src.kanripo
        self.set_work(src.meta.get("work", "") or (edition.title if edition is not None else ""))
        self.divs: list[Div] = []
        self.div: Div | None = None
        self.group = _Group()
        self.shu_loc: Located | None = None
        self.shu_mark = ""
        self.shu_mark_pos: Pos | None = None
        self.seen_unit = False
        self.juan_div: Div | None = None
        self.pending_front: list[Fw] = []
        self.bare_lemmas = False             # unpunctuated texts: lemmas without quotation marks
        self.lemmas_printed = True           # False: the edition prints no 出文 (a 疏 follows
                                             # the 經 and 注 it explains: Kanripo's 四庫 注疏)
        self.by_closing = False              # the text closes its sections with 右… lines
        self.layer_model = None              # cues.LayerModel of the text, where a reader has one
        self.quoted_clauses = None           # bare_quotes.QuotedClauses of the text's 疏, likewise
        self.classification = ""             # 四庫 catalogue line: 经部,礼类,仪礼之属
        self.declared: dict = {}             # scholars named in the text, not in the registry
        self.closing_div: Div | None = None
        self.last_closed: Div | None = None

    def set_work(self, work: str) -> None:
        """Name the work; its commentators follow from data/works.tsv. Without a known work the
        注 is 鄭玄's (the 三禮 default) and the 疏 author is read off the openers (釋曰/正義曰)."""
        self.work = work
        zhu, shu = persons.commentators(work)
        self.zhu_resp = zhu or "zhengxuan"
        self.shu_resp = shu or resp_for(self.src.text)
        self.work_known = zhu is not None

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
            self.juan(s, Pos(n, col), m.group("n"), m.group("work"))
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

    def block(self, b) -> None:
        """A finished block (a 經 unit, a 義疏 note, a translation) in document order. When the
        text closes its sections with 右… lines, blocks gather in the open section."""
        self.close_group()
        if self.div is None:
            self.juan_div = self.div = Div("juan", None, front=self.pending_front)
            self.pending_front = []
            self.divs.append(self.div)
        if self.by_closing:
            if self.closing_div is None:
                self.closing_div = Div("section", None)
                self.div.blocks.append(self.closing_div)
            self.closing_div.blocks.append(b)
        else:
            self.div.blocks.append(b)

    def closing(self, text: str, pos: Pos) -> None:
        """右…: closes the section of the blocks since the last closing, and names it. TEI
        admits a trailer only after a block (<ab>: a 經 unit or a translation line; notes and
        furniture are not blocks), so a closing with no block since the last closing joins the
        closings of the section before, with the notes and furniture printed since between
        them (TEI allows those after a trailer); with no section before, it is kept as
        furniture after them."""
        head = Head(text, pos, "closing")
        open_div = self.closing_div
        self.closing_div = None
        if open_div is not None and any(type(b) in _CLOSABLE for b in open_div.blocks):
            open_div.trailers.append(head)
            self.last_closed = open_div
        elif self.last_closed is not None:
            # What follows the section before in its parent (furniture, then the open section,
            # if any) moves in between its closings: nothing else can follow a closed section.
            blocks = self.div.blocks
            at = next(i for i in range(len(blocks) - 1, -1, -1) if blocks[i] is self.last_closed) + 1
            between = []
            for b in blocks[at:]:
                between += b.blocks if b is open_div else [b]
            del blocks[at:]
            head.before = between or None
            self.last_closed.trailers.append(head)
        elif open_div is not None:
            # not last_closed: a closing after this one could not be its trailer either
            open_div.blocks.append(Fw(text, pos, "title"))
        else:
            self.furniture(Fw(text, pos, "title"))

    def furniture(self, fw: Fw) -> None:
        """A furniture line: it stays in the text, between the blocks, marked as such (inside
        the open section, if any: the blocks after it go there too)."""
        self.close_group()
        if self.div is None:
            self.pending_front.append(fw)
        elif self.closing_div is not None:
            self.closing_div.blocks.append(fw)
        else:
            self.div.blocks.append(fw)

    def juan(self, text: str, pos: Pos, n: str = "", work: str = "") -> None:
        """A 卷 title line: a new top-level div."""
        self.close_group()
        self.closing_div = self.last_closed = None
        if work and not self.work:
            self.set_work(work)
        self.juan_div = self.div = Div("juan", Head(text, pos), n=n, front=self.pending_front)
        self.pending_front = []
        self.divs.append(self.div)

    def top_div(self, kind: str, text: str, pos: Pos) -> None:
        """A division of its own after the 卷 (a 考證): a top-level div with its heading."""
        self.close_group()
        self.closing_div = self.last_closed = None
        self.div = Div(kind, Head(text, pos, kind), front=self.pending_front)
        self.pending_front = []
        self.divs.append(self.div)

    def closing_of(self, div: Div, text: str, pos: Pos) -> None:
        """A title printed again at the end of what it heads (the 卷's, the 考證's): its
        trailer."""
        self.close_group()
        if div is None or not div.blocks:
            self.furniture(Fw(text, pos, "title"))
            return
        div.trailers.append(Head(text, pos, "closing"))
        if div is self.div:             # closed: what follows goes before the next heading
            self.div = None

    def section(self, text: str, pos: Pos) -> None:
        """A chapter title inside a 卷 (檀弓上第三, 聘礼第八之四): a nested section div."""
        self.close_group()
        self.closing_div = self.last_closed = None
        div = Div("section", Head(text, pos, "section"), front=self.pending_front)
        self.pending_front = []
        if self.juan_div is None:
            self.divs.append(div)
        else:
            self.juan_div.blocks.append(div)
        self.div = div

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
        shus = parse_block(self.shu_loc, self.shu_mark, self.shu_mark_pos, self.bare_lemmas) \
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

    def finish(self) -> Document:
        self.close_group()
        if self.pending_front:                  # furniture after the last block
            if self.div is None:
                self.juan_div = self.div = Div("juan", None)
                self.divs.append(self.div)
            self.div.blocks.extend(self.pending_front)
            self.pending_front = []
        if not self.work_known:
            self.report.warn("ZS-CONV-WORK", "work not named or not in works.tsv (give --work or a "
                             ".meta.json sidecar); 注 attributed to 鄭玄 by default")
        juan = next((_juan_of(d.head.text, self.work) for d in self.divs if d.head is not None), "")
        meta = Meta(self.src.basename, self.src.sha256, self.layout,
                    work=self.work, juan=self.src.meta.get("juan", juan),
                    section=self.src.meta.get("section", ""))
        meta.classification, meta.declared = self.classification, self.declared
        meta.delimiters, meta.edition, meta.events = self.src.delimiters, self.src.kanripo, self.src.events
        doc = Document(meta, self.divs)
        meta.persons = _persons(doc)
        assign_ids(doc)
        return doc


_RESP, _PARTS = attrgetter("resp"), attrgetter("parts")


def structure_missing(doc: Document) -> str | None:
    """What a 注疏 reader saw when it recovered next to no structure (no 注 and no 疏 in a text
    of some length: every line read as 經), or None when the structure is real."""
    from pipeline.model import ZHU
    units = [b for b in doc.blocks() if isinstance(b, Unit)]
    chars = sum(len(p.text) for u in units for p in u.pieces)
    zhu = sum(1 for u in units for p in u.pieces if getattr(p, "layer", None) == ZHU)
    shu = sum(1 for b in doc.blocks() if isinstance(b, Shu))
    if chars >= _MIN_CHARS and not zhu and not shu:
        return f"{chars} characters in {len(units)} units, no 注 and no 疏"
    return None


# Below this, a text may be a fragment with no commentary at all (a test, a quotation).
_MIN_CHARS = 200


def _juan_of(head: str, work: str) -> str:
    """The 卷 a heading names, without the work: 禮記注疏卷一 → 卷一 (also when the work is
    spelled otherwise, 禮記註疏)."""
    if work and head.startswith(work):
        return head[len(work):]
    return head[head.index("卷"):] if "卷" in head[1:] else head


def _persons(doc: Document) -> list[str]:
    """The ids @resp points at, sorted: the commentators of pieces and 疏, the scholars of the
    義疏 quotations, and the authors of small notes (a quoted 疏) wherever they stand — in a
    quotation or in a translation line."""
    used = set()
    for b in doc.blocks():
        if isinstance(b, Unit):
            used.update(p.resp for p in b.pieces)
        elif isinstance(b, Shu):
            used.add(b.resp)
        elif isinstance(b, YishuBlock):
            for q in b.quotes:
                used.add(q.resp)
                used.update(p.resp for p in q.parts if isinstance(p, SmallNote))
        elif isinstance(b, (Translation, Prose)):
            used.update(p.resp for p in b.parts if isinstance(p, SmallNote))
        elif isinstance(b, KaozhengEntry):
            used.update(p.resp for p in b.parts if isinstance(p, Judgment))
    return sorted(r for r in used if r)
