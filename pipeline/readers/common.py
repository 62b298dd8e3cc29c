"""The document builder every reader shares: 卷 and section divisions, blocks in document order,
closings and furniture, and the document's metadata at the end.

A reader feeds it what it recognises (a 卷 title, a section title, a block, a furniture line);
a layout that gathers blocks before it can place them (the 注疏's groups of units and their 疏:
readers/zhushu/grammar.py) extends it and closes them in `flush`.
"""
from __future__ import annotations

import re

from pipeline import numerals, persons
from pipeline.chars import NUMERALS
from pipeline.model import (Div, Document, Fw, Head, Meta, Pos, Shu, Translation, Unit, assign_ids,
                            persons_pointed_at)
from pipeline.readers import pian
from pipeline.report import Report
from pipeline.sources.decoding import Source

# (卷 also printed 巻: 儀禮注疏巻十一)
JUAN_LINE = re.compile(rf"^(?P<work>\S*?)[卷巻](?:第)?(?P<n>[{NUMERALS}]+)(?:之(?P<sub>[{NUMERALS}]+))?(?P<part>[上中下])?$")
# A chapter title standing alone: 祭法第二十三, 檀弓上第三, 聘礼第八之四.
CHAPTER = re.compile(rf"^[^\s　，。、【】（）()“”]{{1,10}}第[{NUMERALS}]+(?:之[{NUMERALS}]+)?$")
# The divisions a title or the sidecar names: a 篇 of the 三禮 (pian.tsv), an office (官) in it.
PIAN, GUAN = "pian", "guan"
# The blocks TEI can close with a trailer (written as <ab>: model.common); notes and fw are not.
_CLOSABLE = frozenset((Unit, Translation))


def juan_number(m: re.Match) -> str:
    """The @n of the 卷 a title match names, Arabic (卷二十九 → 29, 卷首上 → 0a: numerals.juan_n)."""
    groups = m.groupdict()
    return numerals.juan_n(groups["n"], groups.get("part") or "", groups.get("sub") or "")


def juan_line(s: str) -> re.Match | None:
    """JUAN_LINE.match(s), tried only on lines that hold a 卷: its lazy work name would walk
    every long line to its end."""
    return JUAN_LINE.match(s) if "卷" in s or "巻" in s else None


class Builder:
    def __init__(self, src: Source, report: Report, layout: str):
        self.src, self.report, self.layout = src, report, layout
        self.work = ""
        edition = src.kanripo
        self.set_work(src.meta.get("work", "") or (edition.title if edition is not None else ""))
        self.divs: list[Div] = []
        self.div: Div | None = None
        self.juan_div: Div | None = None
        self.pending_front: list[Fw] = []
        self.by_closing = False              # the text closes its sections with 右… lines
        self.classification = ""             # 四庫 catalogue line: 经部,礼类,仪礼之属
        self.declared: dict = {}             # scholars named in the text, not in the registry
        self.provenance: list[str] = []      # a website's provenance line (Meta.provenance)
        self.closing_div: Div | None = None
        self.last_closed: Div | None = None

    def set_work(self, work: str) -> None:
        """Name the work; its commentators follow from data/works.tsv. Without a known work the
        注 is 鄭玄's (the 三禮 default)."""
        self.work = work
        zhu, shu = persons.commentators(work)
        self.zhu_resp = zhu or "zhengxuan"
        self.shu_resp = shu
        self.work_known = zhu is not None

    def flush(self) -> None:
        """Place whatever the reader holds open before the next block or division: nothing
        here; a layout that gathers blocks first (the 注疏 group) closes them."""

    def block(self, b) -> None:
        """A finished block (a 經 unit, a 義疏 note, a translation) in document order. When the
        text closes its sections with 右… lines, blocks gather in the open section."""
        self.flush()
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
        self.flush()
        if self.div is None:
            self.pending_front.append(fw)
        elif self.closing_div is not None:
            self.closing_div.blocks.append(fw)
        else:
            self.div.blocks.append(fw)

    def juan(self, text: str, pos: Pos, n: str = "", work: str = "") -> None:
        """A 卷 title line: a new top-level div."""
        self.flush()
        self.closing_div = self.last_closed = None
        if work and not self.work:
            self.set_work(work)
        self.juan_div = self.div = Div("juan", Head(text, pos), n=n, front=self.pending_front)
        self.pending_front = []
        self.divs.append(self.div)

    def top_div(self, kind: str, text: str, pos: Pos) -> None:
        """A division of its own after the 卷 (a 考證): a top-level div with its heading."""
        self.flush()
        self.closing_div = self.last_closed = None
        self.div = Div(kind, Head(text, pos, kind), front=self.pending_front)
        self.pending_front = []
        self.divs.append(self.div)

    def closing_of(self, div: Div, text: str, pos: Pos) -> None:
        """A title printed again at the end of what it heads (the 卷's, the 考證's): its
        trailer."""
        self.flush()
        if div is None or not div.blocks:
            self.furniture(Fw(text, pos, "title"))
            return
        div.trailers.append(Head(text, pos, "closing"))
        if div is self.div:             # closed: what follows goes before the next heading
            self.div = None

    def section(self, text: str, pos: Pos) -> None:
        """A chapter title inside a 卷 (檀弓上第三, 聘礼第八之四): a nested div, a 篇 of the 三禮
        (type pian, @n its number in pian.tsv: each 之N part of a 篇 its own div with the 篇's
        number) or any other section."""
        self.flush()
        self.closing_div = self.last_closed = None
        # (a title followed by more on its line, 喪服第十一之一　子夏傳: the title before the space)
        found = pian.title(text) or (pian.title(text.split()[0]) if text.split() else None)
        kind, n = (PIAN, str(found.n)) if found is not None else ("section", "")
        div = Div(kind, Head(text, pos, kind), n=n, front=self.pending_front)
        self.pending_front = []
        if self.juan_div is None:
            self.divs.append(div)
        else:
            self.juan_div.blocks.append(div)
        self.div = div

    def finish(self) -> Document:
        self.flush()
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
        meta.provenance = self.provenance
        meta.delimiters, meta.edition, meta.events = self.src.delimiters, self.src.kanripo, self.src.events
        doc = Document(meta, self.divs)
        juan_of_meta(doc)
        pian_of_meta(doc)
        meta.persons = persons_pointed_at(doc)
        assign_ids(doc)
        return doc


def juan_of_meta(doc: Document) -> None:
    """The 卷 a sidecar names (`"juan": "卷四十六"`) as the @n of the one 卷 div that prints no
    title of its own (an excerpt opening inside its 卷)."""
    juans = [d for d in doc.divs if d.kind == "juan"]
    m = juan_line(doc.meta.juan.strip())
    if len(juans) == 1 and not juans[0].n and juans[0].head is None and m is not None:
        juans[0].n = juan_number(m)


def pian_of_meta(doc: Document) -> None:
    """The 篇 a sidecar names (`"section": "祭法"`, `"春官 · 大宗伯"`) as a div around each 卷's
    blocks, when the text prints no 篇 title of its own: no head (nothing is added to the text),
    only its type and number; an office (官) named after the 篇 (大宗伯 in 春官), a div inside
    it named by @n. A range of offices (象胥 … 家士) is no one office: the 篇 alone."""
    parts = [x.strip() for x in doc.meta.section.split("·")]
    found = pian.title(parts[0]) if parts[0] else None
    if found is None or any(d.kind == PIAN for d in doc.all_divs()):
        return
    guan = parts[1] if len(parts) == 2 and "…" not in parts[1] and parts[1] else ""
    for juan in doc.divs:
        if juan.kind != "juan":
            continue
        inner = Div(GUAN, None, blocks=juan.blocks, n=guan) if guan else None
        juan.blocks = [Div(PIAN, None, blocks=[inner] if inner else juan.blocks, n=str(found.n))]


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
