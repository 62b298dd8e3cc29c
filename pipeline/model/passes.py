"""Passes over a finished document (pipeline/model/walk.py gives them the nodes): the ids, the
persons pointed at, the statistics of the conversion report."""
from __future__ import annotations

from collections import Counter

from pipeline.model.nodes import (JING, MARK, QUE, YINYI, ZHU, Div, Document, Fw, Judgment,
                                  KaozhengEntry, NameEntry, Piece, Prose, Quote, Shu, SmallNote,
                                  Translation, Unit, YishuBlock)
from pipeline.model.walk import walk

_PIECE_LETTER = {JING: "j", ZHU: "z", YINYI: "y", QUE: "q", MARK: "m"}


def assign_ids(doc: Document) -> None:
    """Give every node its stable id. Ids depend only on document order, so re-conversion of the
    same source gives the same ids and citations like `#u12.z1` survive."""
    ids = _Ids()
    for node in walk(doc):
        number = ids.BY_TYPE.get(type(node))
        if number is not None:
            number(ids, node)


class _Ids:
    """The counters of the numbering: divs (d3, its heading d3.h, closings d3.t1), units (u12,
    its pieces u12.j1, u12.z1 and anchors u12.a1), the 疏 and 義疏 blocks after a unit (u12.s1,
    u12.c2, a quotation u12.c2.q1), furniture (fw4), translation lines (t2), prose paragraphs and
    entries of lists of persons (p5), 考證 entries (k3); a block's small notes and judgments
    after its id (u12.n1, k3.n2)."""

    def __init__(self):
        self.count: Counter[str] = Counter()    # by the id's prefix: d, fw, u, t, p, k
        self.after_unit = 0                     # 疏 and 義疏 blocks since the last unit
        self.block = ""                         # the id the block's notes are numbered after
        self.notes = self.quotes = self.anchors = 0
        self.letters: Counter[str] = Counter()  # a unit's pieces, by layer letter

    def _next(self, prefix: str) -> str:
        self.count[prefix] += 1
        return f"{prefix}{self.count[prefix]}"

    def _block(self, block, block_id: str) -> None:
        block.id = self.block = block_id
        self.notes = 0

    def div(self, div: Div) -> None:
        div.id = self._next("d")
        if div.head is not None:
            div.head.id = f"{div.id}.h"
        for k, t in enumerate(div.trailers, 1):
            t.id = f"{div.id}.t{k}"

    def fw(self, fw: Fw) -> None:
        fw.id = self._next("fw")

    def unit(self, u: Unit) -> None:
        self.after_unit = self.anchors = 0
        self.letters = Counter()
        self._block(u, self._next("u"))

    def piece(self, p: Piece) -> None:
        letter = _PIECE_LETTER[p.layer]
        self.letters[letter] += 1
        p.id = f"{self.block}.{letter}{self.letters[letter]}"
        for a in p.anchors:
            self.anchors += 1
            a.id = f"{self.block}.a{self.anchors}"

    def note(self, n: SmallNote | Judgment) -> None:
        self.notes += 1
        n.id = f"{self.block}.n{self.notes}"

    def shu(self, s: Shu) -> None:
        self.after_unit += 1
        s.id = f"u{self.count['u']}.s{self.after_unit}"
        subs = (p.sub for p in s.paras if p.sub is not None)
        for k, sub in enumerate(subs, 1):
            sub.id = f"{s.id}.{k}"

    def yishu(self, b: YishuBlock) -> None:
        self.after_unit += 1
        self._block(b, f"u{self.count['u']}.c{self.after_unit}")
        self.quotes = 0

    def quote(self, q: Quote) -> None:
        self.quotes += 1
        q.id = f"{self.block}.q{self.quotes}"

    def translation(self, t: Translation) -> None:
        self._block(t, self._next("t"))

    def paragraph(self, p: Prose | NameEntry) -> None:
        self._block(p, self._next("p"))         # an entry of a list is a paragraph too

    def kaozheng_entry(self, k: KaozhengEntry) -> None:
        self._block(k, self._next("k"))

    BY_TYPE = {Div: div, Fw: fw, Unit: unit, Piece: piece, SmallNote: note, Judgment: note, Shu: shu,
               YishuBlock: yishu, Quote: quote, Translation: translation, Prose: paragraph,
               NameEntry: paragraph, KaozhengEntry: kaozheng_entry}


def persons_pointed_at(doc: Document) -> list[str]:
    """The ids @resp and @ref point at, sorted: the commentators of pieces and 疏, the scholars
    of the 義疏 quotations, the 臣 of the 考證, the registered scholars of a list of persons, the
    authors of small notes wherever they stand."""
    return sorted({r for node in walk(doc) if (r := getattr(node, "resp", None))})


def stats(doc: Document) -> dict:
    """What the conversion report counts: units, their pieces, 疏 sections and those anchored."""
    blocks = doc.blocks()
    units = [b for b in blocks if type(b) is Unit]
    shus = [b for b in blocks if type(b) is Shu]
    return {"units": len(units), "pieces": sum(len(u.pieces) for u in units), "shu": len(shus),
            "shu_anchored": sum(1 for s in shus if s.target is not None)}
