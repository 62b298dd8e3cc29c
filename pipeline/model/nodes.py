"""The nodes of the document model: plain data, with no I/O, no knowledge of TEI and no
caches. Every node keeps the source position of its first character, so reports can point at
the input. Pointers between nodes are object references; ids are given once, at the end
(pipeline/model/passes.py)."""
from __future__ import annotations

import bisect
import operator
from dataclasses import dataclass, field
from typing import Union

# The layers a piece of text can belong to. The same names are used in TEI @type, in the HTML
# data-layer attributes and in `zhushu text --layer`.
JING, ZHU, YINYI, SHU, QUE = "jing", "zhu", "yinyi", "shu", "que"
MARK = "mark"           # a printed marker inside a unit (the bare 注 or 音义 of 四庫 texts)
TEXTUAL, AN, XIAOZHU = "textual", "an", "xiaozhu"   # kinds of small notes (see SmallNote)
YISHU, TRANSLATION = "yishu", "translation"


@dataclass(slots=True, frozen=True)
class Pos:
    """line:col of a character in the source, 1-based."""
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
    tokens: list[Token] | None = None      # structured content (音義), concatenating to `text`;
                                           # None means plain text
    resp: str | None = None                # person id of the commentator
    target: "Piece | None" = None          # the piece a note comments on
    anchors: list[Anchor] = field(default_factory=list)
    id: str = ""
    literal: bool = False                  # printed symbols (a drum score's ○ □): no placeholders

    def anchor_at(self, offset: int) -> "Piece | Anchor":
        """The pointable thing at `offset`: reuse an existing anchor there or make one."""
        anchors = self.anchors
        if not anchors or anchors[-1].offset < offset:   # spans are mostly resolved in text order
            a = Anchor(offset)
            anchors.append(a)
            return a
        i = bisect.bisect_left(anchors, offset, key=_offset)
        if anchors[i].offset == offset:
            return anchors[i]
        a = Anchor(offset)
        anchors.insert(i, a)
        return a


Pointable = Union[Piece, Anchor]


_offset = operator.attrgetter("offset")       # bisect's key: a C call, not a Python function


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
    """A heading the source prints: a 卷 line, a chapter title, a closing 右… line.

    `before` (closings only): the 義疏 notes and furniture printed between the previous closing
    and this one when no 經 (nor translation) came between. TEI closes only a div that holds a
    block, so they stay in the section before, between its trailers, in source order."""
    text: str
    pos: Pos
    kind: str = "juan"
    id: str = ""
    before: list | None = None


@dataclass(slots=True, eq=False)
class SmallNote:
    """A note in small characters, 〈…〉 or 【…】, inside a 經 line or a 義疏 quotation: a sound
    gloss (yinyi), a textual note (textual), a quotation of the 疏 (shu, with its author),
    the compilers' remark (an), or anything else (xiaozhu)."""
    kind: str
    text: str
    pos: Pos
    resp: str | None = None
    tokens: list[Token] | None = None      # a sound gloss's, concatenating to `text`
    id: str = ""


@dataclass(slots=True, eq=False)
class Quote:
    """One scholar's words in a 義疏 block: the attribution as printed (郑氏康成) and its verb
    (曰), then text and small notes. `who` is empty for words nobody is named for."""
    who: str
    verb: str
    parts: list                            # str | SmallNote
    pos: Pos
    resp: str | None = None
    id: str = ""


@dataclass(slots=True, eq=False)
class YishuBlock:
    """A 義疏 block on one 經 unit: a category (正義, 辨正, 通論, 餘論, 存疑, 存異, 總論) or the
    compilers' own judgment 案, with its quotations in order."""
    category: str                          # zhengyi … zonglun, or an
    label: str                             # as printed: 正义, 正义：, 存疑。, 案
    quotes: list[Quote]
    pos: Pos
    target: "Unit | None" = None
    prev: "YishuBlock | None" = None       # the block this one continues across a page edge
    id: str = ""


@dataclass(slots=True, eq=False)
class Translation:
    """One line of a modern translation interleaved with the original (`mark` is its 译)."""
    parts: list                            # str | SmallNote
    pos: Pos
    mark: str = ""
    original: object | None = None         # the block it translates
    copy: bool = False                     # a near-copy of the original, not a translation
    lang: str = "zh-Hans"                  # zh-Hant for a translation in traditional script
    id: str = ""


@dataclass(slots=True, eq=False)
class Fw:
    """Page furniture the source repeats (钦定四库全书, a 卷 title, a catalogue line): kept in
    the text, marked as furniture."""
    text: str
    pos: Pos
    kind: str = "header"
    same_as: "Fw | Head | None" = None     # the first printing of furniture printed again
    id: str = ""


@dataclass(slots=True, eq=False)
class Judgment:
    """A 四庫 editor's judgment in a 考證 entry: `(臣召南)按…`, credited to that 臣."""
    who: str                               # 臣召南, as printed
    verb: str                              # 按 (謹按, 案)
    parts: list                            # str | SmallNote, what he says
    pos: Pos
    resp: str | None = None
    id: str = ""


@dataclass(slots=True, eq=False)
class KaozhengEntry:
    """One entry of a 卷's 考證 (the 四庫 editors' textual notes): the lemma it quotes, then
    its remarks (text, small notes, judgments), as printed."""
    lemma: str
    parts: list                            # str | SmallNote | Judgment
    pos: Pos
    id: str = ""


@dataclass(slots=True, eq=False)
class Prose:
    """A paragraph of prose outside the 經 and its commentaries (a 提要, a 序, a 凡例 item, an
    entry of a list of names): text and small notes, as printed."""
    parts: list                            # str | SmallNote
    pos: Pos
    id: str = ""


# The parts of a name in a list of persons (NamePart.kind), and a place they are named after.
SURNAME, FORENAME, ZI, HAO, NATIVE = "surname", "forename", "zi", "hao", "native"


@dataclass(slots=True, eq=False)
class NamePart:
    """One cell of an entry in a list of persons, as printed: the surname (董 of 董氏), the
    given name, the courtesy name (字, zi), a literary name (號, hao), the native place (籍);
    `small` when printed in small characters."""
    kind: str
    text: str
    small: bool = False


@dataclass(slots=True, eq=False)
class NameEntry:
    """An entry of a list of persons (the 引用姓氏 of a 義疏): its cells in order, as printed,
    the name's parts marked (NamePart), with the text between them (氏, spacing) and any
    remark in small characters (SmallNote). `name` is the slice of the parts the name spans
    (董氏仲舒寛夫: from the surname to the courtesy name, 氏 included). `resp` is the scholar's
    registry id, if known."""
    parts: list                            # str | NamePart | SmallNote
    pos: Pos
    name: tuple[int, int] = (0, 0)
    resp: str | None = None
    id: str = ""


@dataclass(slots=True, eq=False)
class Div:
    kind: str                              # juan | section | kaozheng | a front division
                                           # (tiyao 提要, xu 序, fanli 凡例, xingshi 引用姓氏, mulu 目録 …)
    head: Head | None
    blocks: list = field(default_factory=list)   # Unit | Shu | Fw | Div (sections, last)
    n: str = ""
    id: str = ""
    front: list = field(default_factory=list)    # Fw printed before the heading
    trailers: list = field(default_factory=list)  # closing lines (右…) naming the section (Head,
                                                  # each with the blocks printed just before it)


@dataclass(slots=True)
class Meta:
    source_name: str
    sha256: str
    layout: str
    work: str = ""
    juan: str = ""
    section: str = ""
    persons: list[str] = field(default_factory=list)   # ids of the people @resp points at
    declared: dict = field(default_factory=dict)        # id → (surname, given): not in the registry
    classification: str = ""                            # 四庫 catalogue: 经部,礼类,仪礼之属
    # What the lossless invariant leaves out of this source besides whitespace: a plain
    # e-text's brackets and ○ (chars.DELIMITERS), a Kanripo file's note parentheses.
    delimiters: frozenset = frozenset()
    edition: object | None = None       # a Kanripo source's edition (kanripo.Edition)
    # A website's provenance line opening a plain e-text (钦定仪礼义疏_(四库全书本)/卷18 中华文库),
    # as printed: it goes to the header's e-text bibl, not the body.
    provenance: list = field(default_factory=list)
    sidecar: dict = field(default_factory=dict)  # the source's .meta.json (edition, e-text keys)
    events: list = field(default_factory=list)   # pages, lines, rows, gaiji (sources.paragraphs.Event)
    cite: object | None = None          # its URNs and citable levels (tei.citation.Cite), by the writer


@dataclass(slots=True, eq=False)
class Document:
    meta: Meta
    divs: list[Div]
    front: list[Div] = field(default_factory=list)     # front matter: TEI <front>
    back: list[Div] = field(default_factory=list)      # back matter (跋語): TEI <back>

    def units(self):
        return (b for b in self.blocks() if isinstance(b, Unit))

    def blocks(self) -> list:
        """Every block in document order: a section's blocks in its place, those printed
        between a div's closings (Head.before) after the div's blocks. (pipeline/model/walk.py
        goes on into the nodes inside each block.)"""
        out: list = []
        for d in (*self.front, *self.divs, *self.back):
            _gather_blocks(d, out)
        return out

    def all_divs(self) -> list:
        """Every div in document order, a section after the div it is in."""
        out: list = []
        for d in (*self.front, *self.divs, *self.back):
            _gather_divs(d, out)
        return out


def _gather_blocks(div: Div, out: list) -> None:
    for b in div.blocks:
        if type(b) is Div:
            _gather_blocks(b, out)
        else:
            out.append(b)
    for t in div.trailers:
        if t.before:
            out.extend(t.before)


def _gather_divs(div: Div, out: list) -> None:
    out.append(div)
    for b in div.blocks:
        if type(b) is Div:
            _gather_divs(b, out)


@dataclass(slots=True)
class Volume:
    """One entry of a work's table of contents: a 卷 (or a part of one: its 考證), the file it
    is in, and the TEI written for it (None: not converted, or not in this checkout)."""
    title: str
    file: str                              # the source file it is in (KR1d0053_001.txt)
    page: str = ""                         # where it starts in the edition (001-31a)
    target: str | None = None              # the TEI file, relative to the work's file


@dataclass(slots=True)
class Work:
    """A whole work converted from a repository (Kanripo's Readme.org): its title, editions
    and table of contents, written as a TEI file of its own beside its 卷."""
    id: str                                # KR1d0053
    title: str
    editions: list = field(default_factory=list)     # (code, name)
    volumes: list = field(default_factory=list)      # Volume
    source: str = ""                       # the repository directory as given
