"""The text a 疏 note's span covers, in a TEI tree, for the validator (ZS-SHU-001).

A span runs from `@target` to `@targetEnd`: pieces of the 經 passages (`ab[@type='jing']`'s
seg and note children) or anchors inside them. Its 經 text is the 經 pieces' text between the
two points, its 注 text the 注 pieces' — wherever the other layer's pieces fall in between.

The pieces are read once into two strings, the 經 and the 注 of the whole body in document
order, with each piece's and each anchor's offset in both: a span's text is then a slice, so
checking every 疏 of a document costs the document once, however long or overlapping the spans
(a walk from start to end for each note would cost the spans' summed length: quadratic on a
hostile file whose every note spans everything).
"""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.constants import TEI, XML_ID

_AB, _SEG, _NOTE, _ANCHOR = f"{TEI}ab", f"{TEI}seg", f"{TEI}note", f"{TEI}anchor"
LAYERS = ("jing", "zhu")


@dataclass(slots=True)
class _Point:
    """Where a piece or an anchor sits: the length of the 經 and of the 注 before it, and how
    much of its own layer it covers (a piece's length; 0 for an anchor, which is a point)."""
    jing: int
    zhu: int
    layer: str | None          # the layer of the piece (or of the anchor's piece)
    length: int

    def start(self, layer: str) -> int:
        return self.jing if layer == "jing" else self.zhu

    def end(self, layer: str) -> int:
        return self.start(layer) + (self.length if self.layer == layer else 0)


class Spans:
    """The 經 and 注 of a body and where every piece and anchor falls in them."""

    def __init__(self, body):
        self.points: dict = {}
        self.pieces: list = []                  # the pieces with an id, in document order
        self.index: dict = {}                   # a piece or an anchor → its piece's place there
        texts: dict[str, list[str]] = {"jing": [], "zhu": []}
        size = {"jing": 0, "zhu": 0}
        for ab in body.iter(_AB):
            if ab.get("type") != "jing":
                continue
            for piece in ab:
                if piece.get(XML_ID) is not None:
                    self.index[piece] = len(self.pieces)
                    self.pieces.append(piece)
                layer = _layer(piece)
                if len(piece):
                    text = self._anchors(piece, layer, size)
                else:                            # most pieces: text alone
                    text = piece.text or "" if isinstance(piece.tag, str) else ""
                self.points[piece] = _Point(size["jing"], size["zhu"], layer, len(text))
                if layer in size:
                    texts[layer].append(text)
                    size[layer] += len(text)
        self.layer_text = {k: "".join(v) for k, v in texts.items()}

    def _anchors(self, piece, layer: str | None, size: dict[str, int]) -> str:
        """The text of a piece with children, each anchor among them placed."""
        parts = [piece.text or ""]
        at = len(parts[0])
        for child in piece:
            if child.tag == _ANCHOR:
                if piece in self.index:
                    self.index[child] = self.index[piece]
                own = size[layer] + at if layer in size else 0
                self.points[child] = _Point(own if layer == "jing" else size["jing"],
                                            own if layer == "zhu" else size["zhu"], layer, 0)
            elif isinstance(child.tag, str):
                inner = "".join(child.itertext())
                parts.append(inner)
                at += len(inner)
            if child.tail:
                parts.append(child.tail)
                at += len(child.tail)
        return "".join(parts)

    def piece_index(self, el) -> int | None:
        """Where the piece `el` is, or holds the anchor `el`, among the pieces; None if neither."""
        return self.index.get(el)

    def covers(self, el) -> bool:
        return el in self.points

    def text(self, start, end, layer: str) -> str:
        """The `layer` text from the start of `start` to the end of `end`; "" when they are not
        pieces or anchors of the body's 經 passages, or end before they start."""
        a, b = self.points.get(start), self.points.get(end)
        if a is None or b is None:
            return ""
        lo, hi = a.start(layer), b.end(layer)
        return self.layer_text[layer][lo:hi] if hi > lo else ""


def _layer(piece) -> str | None:
    """The layer of a piece of a 經 passage: a seg is 經 (a lost passage's, que, none of the two
    layers), an inline note its @type."""
    if piece.tag == _SEG:
        return "jing" if piece.get("type") is None else None
    if piece.tag == _NOTE:
        return piece.get("type")
    return None
