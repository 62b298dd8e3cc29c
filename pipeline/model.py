"""The document model: plain data, shared by every reader and the TEI writer.

Readers build it; `assign_ids` numbers it; the TEI writer turns it into XML. No I/O here, and no
knowledge of TEI. Every node keeps the source position of its first character, so reports can
point at the input. Pointers between nodes are object references; ids are given once, at the end.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Union

# The layers a piece of text can belong to. The same names are used in TEI @type, in the HTML
# data-layer attributes and in `zhushu text --layer`.
JING, ZHU, YINYI, SHU, QUE = "jing", "zhu", "yinyi", "shu", "que"
MARK = "mark"           # a printed marker inside a unit (the bare 注 or 音义 of 四庫 texts)


@dataclass(slots=True, frozen=True)
class Pos:
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.line}:{self.col}"


@dataclass(slots=True)
class Token:
    """A run of inline text with a role: text, term, fanqie, zhiyin, ruzi, mentioned, placeholder."""
    kind: str
    text: str


@dataclass(slots=True, eq=False)
class Anchor:
    """A point inside a piece's text (before character `offset`) that a span can start or end at."""
    offset: int
    id: str = ""


@dataclass(slots=True, eq=False)
class Piece:
    """One run of a unit's inline text: a 經 sentence, a 注, one 音義 gloss, a lacuna remark."""
    layer: str
    text: str
    pos: Pos
    tokens: list[Token] | None = None      # structured content (音義); None means plain text
    resp: str | None = None                # person id of the commentator
    target: "Piece | None" = None          # the piece a note comments on
    anchors: list[Anchor] = field(default_factory=list)
    id: str = ""
    squeezed: str | None = field(default=None, repr=False)   # cache: text without punctuation

    def anchor_at(self, offset: int) -> "Piece | Anchor":
        """The pointable thing at `offset`: reuse an existing anchor there or make one."""
        i = bisect.bisect_left(self.anchors, offset, key=_offset)
        if i < len(self.anchors) and self.anchors[i].offset == offset:
            return self.anchors[i]
        a = Anchor(offset)
        self.anchors.insert(i, a)
        return a


Pointable = Union[Piece, Anchor]


def _offset(a: Anchor) -> int:
    return a.offset


@dataclass(slots=True, eq=False)
class Unit:
    """One 經 passage as the edition prints it, with its inline 注 and 音義 in reading order."""
    pieces: list[Piece]
    pos: Pos
    id: str = ""


@dataclass(slots=True, eq=False)
class Chuwen:
    """A 出文 lemma: which layer it quotes and the quoted characters (one whole, or first … last)."""
    layer: str
    quotes: list[str]
    tokens: list[Token]                    # the label as printed, quotes as 'mentioned'
    pos: Pos


@dataclass(slots=True, eq=False)
class SubLemma:
    """A narrower quote opening part of a 疏 section (`○“大凡…”者`, `云“协其礼”者`): the
    quoted characters (offsets in the paragraph's text) and the span they name."""
    quotes: list[tuple[int, int]]
    target: "Pointable | None" = None
    target_end: "Pointable | None" = None
    id: str = ""


@dataclass(slots=True, eq=False)
class Para:
    text: str
    pos: Pos
    sub: SubLemma | None = None             # set when the paragraph opens with a sub-lemma


@dataclass(slots=True, eq=False)
class Shu:
    """One 疏 section: its 出文 lemma, the span that lemma names, and the discussion."""
    chuwen: Chuwen | None
    paras: list[Para]
    pos: Pos
    mark: str = ""                         # the printed 疏 of a [疏] line, kept as text
    resp: str | None = None
    target: Pointable | None = None
    target_end: Pointable | None = None
    detached: bool = False                 # its heading lies outside the file
    id: str = ""


@dataclass(slots=True, eq=False)
class Head:
    """A heading the source prints: a 卷 line, a chapter title."""
    text: str
    pos: Pos
    kind: str = "juan"


@dataclass(slots=True, eq=False)
class Fw:
    """Page furniture the source repeats (钦定四库全书, a 卷 title, a catalogue line): kept in
    the text, marked as furniture."""
    text: str
    pos: Pos
    kind: str = "header"


@dataclass(slots=True, eq=False)
class Div:
    kind: str                              # juan | section
    head: Head | None
    blocks: list = field(default_factory=list)   # Unit | Shu | Fw | Div (sections, last)
    n: str = ""
    id: str = ""
    front: list = field(default_factory=list)    # Fw printed before the heading


@dataclass(slots=True)
class Meta:
    source_name: str
    sha256: str
    layout: str
    work: str = ""
    juan: str = ""
    section: str = ""
    persons: list[str] = field(default_factory=list)   # ids of the people @resp points at


@dataclass(slots=True, eq=False)
class Document:
    meta: Meta
    divs: list[Div]

    def units(self):
        return (b for b in self.blocks() if isinstance(b, Unit))

    def blocks(self):
        """Every block in document order, sections included."""
        def walk(div):
            for b in div.blocks:
                if isinstance(b, Div):
                    yield from walk(b)
                else:
                    yield b
        for d in self.divs:
            yield from walk(d)

    def all_divs(self):
        def walk(div):
            yield div
            for b in div.blocks:
                if isinstance(b, Div):
                    yield from walk(b)
        for d in self.divs:
            yield from walk(d)


_PIECE_LETTER = {JING: "j", ZHU: "z", YINYI: "y", QUE: "q", MARK: "m"}


def assign_ids(doc: Document) -> None:
    """Give every node its stable id. Ids depend only on document order, so re-conversion of the
    same source gives the same ids and citations like `#u12.z1` survive."""
    u = shu_n = 0
    for dn, div in enumerate(doc.all_divs(), 1):
        div.id = f"d{dn}"
    for block in doc.blocks():
        if isinstance(block, Unit):
            u += 1
            shu_n = 0
            block.id = f"u{u}"
            counts: dict[str, int] = {}
            anchor_n = 0
            for p in block.pieces:
                letter = _PIECE_LETTER[p.layer]
                counts[letter] = counts.get(letter, 0) + 1
                p.id = f"u{u}.{letter}{counts[letter]}"
                for a in p.anchors:
                    anchor_n += 1
                    a.id = f"u{u}.a{anchor_n}"
        elif isinstance(block, Shu):
            shu_n += 1
            block.id = f"u{u}.s{shu_n}"
            subs = (p.sub for p in block.paras if p.sub is not None)
            for k, sub in enumerate(subs, 1):
                sub.id = f"{block.id}.{k}"
