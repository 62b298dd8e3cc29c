"""The pieces a span covers: from the piece that holds its start (a piece, or an anchor inside
one) to the piece that holds its end, in document order, across units. What a 疏 lists in its
@corresp, so that "every 疏 on this piece" is one lookup of the piece's id."""
from __future__ import annotations

from pipeline.model.nodes import Anchor, Document, Piece


class PieceOrder:
    """Every piece of the document's units (small notes among them) in document order, and for
    each piece and anchor the place of the piece it is or lies in; built once per document."""

    def __init__(self, doc: Document):
        self.pieces: list = []
        self.place: dict[int, int] = {}          # id() of a piece or an anchor → index in pieces
        for u in doc.units():
            for p in u.pieces:
                k = len(self.pieces)
                self.pieces.append(p)
                self.place[id(p)] = k
                if type(p) is Piece:
                    for a in p.anchors:
                        self.place[id(a)] = k

    def covered(self, target: Piece | Anchor | None, target_end: Piece | Anchor | None) -> list:
        """The pieces from target's to target_end's (target's alone without an end; none
        without a target, or when either is no piece of a unit, or the end comes first)."""
        if target is None:
            return []
        a = self.place.get(id(target))
        b = a if target_end is None else self.place.get(id(target_end))
        if a is None or b is None or b < a:
            return []
        return self.pieces[a:b + 1]
