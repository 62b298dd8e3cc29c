"""The mandoku syntax of the Kanseki Repository (Kanripo): a source syntax, not a layout.

    #+TITLE: 禮記註疏                       metadata (and `# …` comments): the header, not text
    #+PROPERTY: JUAN 1
    <pb:KR1d0053_WYG_001-1a>¶               a page of the edition (its own line in WYG and SBCK)
    曲禮曰毋不敬注禮主於敬音義(毋音無/詞其)¶  `¶` ends each printed line (a column of the book)
    (畫象有姦之形禁止之/也案毋字與父母)¶      `(a/b)`: small characters in two rows, `/` where the
                                             first row ends; a note printed over several lines
                                             is written `(…)` again on each line
    …&KR0427;…                               a character Unicode lacks, from Kanripo's table
    ** 1 曲禮上                              an org heading (the tls editions): its stars are
                                             markup, its text the heading's

`parse` reads the markup once into printed lines (markup gone, each gaiji one character, notes
still in `( )`), with the pages, line breaks, row splits and gaiji as events at offsets of the
text. A layout reader then joins the printed lines into the paragraphs its plain e-texts have
(pipeline/sources/paragraphs.py). The files beside a 卷 file (Readme.org, the gaiji table, the
image lists) are read in pipeline/sources/kanripo.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.chars import WHITESPACE_CHARS as _WS
from pipeline.errors import PipelineError

PB = re.compile(r"<pb:(?P<work>[A-Za-z0-9]+)_(?P<ed>[A-Za-z]+)_(?P<juan>\d+)-(?P<leaf>\d+)(?P<side>[a-z])>")
GAIJI = re.compile(r"&(KR\d{4});")
META = re.compile(r"#\+(?P<key>[A-Z]+):\s*(?P<value>.*?)\s*$")
_PROPERTY = re.compile(r"(?P<name>[A-Za-z]+)\s+(?P<value>.*?)\s*$")
LINE_END = "¶"
# What the markup of a note is: its parentheses (the row split `/` is an event)
NOTE_OPEN, NOTE_CLOSE, ROW = "(", ")", "/"
# The characters the lossless invariant leaves out of a mandoku source, besides the markup
# parse() already removed: whitespace and the note's parentheses. Everything else is printed
# (○, □, 〇 are characters of the edition here, not an e-text's delimiters).
DELIMITERS = frozenset((NOTE_OPEN, NOTE_CLOSE))
# Gaiji with no character of their own are written with one of these (Kanripo's own private
# characters are in plane 15): U+100000 + the id's number.
GAIJI_BASE = 0x100000
# A note as Line.cells counts it: from its ( to the next ) or the end of the line
_CELL_NOTE = re.compile(r"\([^)]*\)?")


def looks_like(text: str) -> bool:
    """Is this a mandoku file? Its page markers, or its line ends with its metadata."""
    head = text[:20000]
    return bool(PB.search(head)) or ("#+TITLE:" in head and head.count(LINE_END) >= 3)


@dataclass(frozen=True)
class Page:
    """A page of the edition: `<pb:KR1d0053_WYG_003-1a>` is leaf 1, side a, of 卷 file 003."""
    id: str                  # KR1d0053_WYG_003-1a
    work: str                # KR1d0053
    edition: str             # WYG
    juan: str                # 003 (the file's number)
    leaf: int
    side: str

    @property
    def n(self) -> str:
        """The leaf as the edition numbers it, with the 卷: 3-1a."""
        return f"{int(self.juan)}-{self.leaf}{self.side}"

    @property
    def key(self) -> str:
        """003-1a: how the imglist and Readme.org anchors name the page."""
        return f"{self.juan}-{self.leaf}{self.side}"


@dataclass(slots=True)
class Line:
    """One printed line: a column of the edition, ended by ¶ (or a blank column)."""
    n: int                   # source line number of its first character
    indent: int              # leading U+3000 (cells left blank at its head)
    text: str                # what it prints, indentation kept; notes in ( ), gaiji one character
    cols: list               # (offset in text, source line, source column) at each run's start
    rows: list[int] = field(default_factory=list)        # offsets where a note's first row ends
    gaiji: list[tuple[int, str]] = field(default_factory=list)   # (offset, Kanripo id)
    pages: list[tuple[int, Page]] = field(default_factory=list)  # (offset, page) starting there
    ended: bool = True       # closed by ¶ (the last line of a file may not be)
    # False for a part a reader cut from a printed line after its start (a bare edition's
    # heading runs on into the next section with no ¶): read as a line of its own, but the
    # edition broke no line there, so it has no <lb>
    begins: bool = True

    @property
    def body(self) -> str:
        """The text without its indentation."""
        return self.text[self.indent:]

    @property
    def blank(self) -> bool:
        return not self.text.strip(_WS)

    def cells(self) -> int:
        """Cells the line fills: a character one, a note the longer of its two rows (the
        first ends at the note's first row split)."""
        n, at = 0, 0
        for m in _CELL_NOTE.finditer(self.text):
            a, b = m.start() + 1, m.end() - m.group().endswith(NOTE_CLOSE)
            split = next((r for r in self.rows if a <= r <= b), b)
            n += m.start() - at + max(split - a, b - split)
            at = m.end()
        return n + len(self.text) - at

    def opens_with_note(self) -> bool:
        return self.body.startswith(NOTE_OPEN)


@dataclass
class Doc:
    """A mandoku file read: its metadata, comments and printed lines."""
    name: str
    title: str = ""
    date: str = ""
    properties: dict = field(default_factory=dict)     # JUAN, ID, BASEEDITION, WITNESS, CAT …
    comments: list[tuple[int, str]] = field(default_factory=list)   # (line, text) of `# …` lines
    lines: list[Line] = field(default_factory=list)
    trailing_pages: list[Page] = field(default_factory=list)        # pages after the last line

    def pages(self) -> list[Page]:
        out = [p for line in self.lines for _, p in line.pages]
        return out + self.trailing_pages

    def gaiji_ids(self) -> list[str]:
        return sorted({g for line in self.lines for _, g in line.gaiji})


# -- reading the markup -------------------------------------------------------------------------
class _LineBuilder:
    def __init__(self, gaiji_char):
        self.gaiji_char = gaiji_char
        self.reset(0)

    def reset(self, n: int) -> None:
        self.n = n
        self.parts: list[str] = []
        self.cols: list = []
        self.rows: list[int] = []
        self.gaiji: list = []
        self.pages: list = []
        self.size = 0

    def add(self, s: str, line: int, col: int) -> None:
        """Append the printed text `s` (no markup but notes, gaiji and row splits) found at
        source line:col. A new run (for positions) starts only where markup left the text:
        after a row split or a gaiji."""
        at = 0
        for m in _TOKEN.finditer(s):
            if m.start() > at:
                self._text(s[at:m.start()], line, col + at)
            if m.group() == ROW:
                if self._in_note():
                    self.rows.append(self.size)
                else:
                    self._text(ROW, line, col + m.start())   # a slash outside a note is text
            else:                                           # &KRnnnn;
                self.gaiji.append((self.size, m.group(1)))
                self._text(self.gaiji_char(m.group(1)), line, col + m.start())
            at = m.end()
        if at < len(s):
            self._text(s[at:], line, col + at)

    def _in_note(self) -> bool:
        """Is the end of the text so far inside a note (a "(" more recent than any ")")?"""
        for part in reversed(self.parts):
            o, c = part.rfind(NOTE_OPEN), part.rfind(NOTE_CLOSE)
            if o != -1 or c != -1:
                return o > c
        return False

    def _text(self, s: str, line: int, col: int) -> None:
        self.cols.append((self.size, line, col))
        self.parts.append(s)
        self.size += len(s)

    def page(self, page: Page) -> None:
        self.pages.append((self.size, page))

    def empty(self) -> bool:
        return not self.parts

    def done(self, ended: bool) -> Line:
        text = "".join(self.parts)
        indent = len(text) - len(text.lstrip("\u3000"))
        return Line(self.n, indent, text, self.cols, self.rows, self.gaiji, self.pages, ended)


_TOKEN = re.compile(r"/|&(KR\d{4});")


def parse(text: str, name: str, gaiji_char=None) -> Doc:
    """Read a mandoku file's text. `gaiji_char(id)` gives the character a gaiji is written
    with (default: GAIJI_BASE + its number). The commonest lines are read in short
    (_Parser.common): that made reading Kanripo sources (parse and join) 1.2 times as fast
    as parse_plain (issue 15, measured on Kanripo's KR1d0053, old and new alternated)."""
    p = _Parser(name, gaiji_char)
    for n, raw in enumerate(text.split("\n"), 1):
        if not p.common(n, raw):
            p.read(n, raw)
    return p.finish()


def parse_plain(text: str, name: str, gaiji_char=None) -> Doc:
    """What parse reads, every line read in full (tests hold parse to it)."""
    p = _Parser(name, gaiji_char)
    for n, raw in enumerate(text.split("\n"), 1):
        p.read(n, raw)
    return p.finish()


class _Parser:
    """One file being read: the Doc so far, the printed line being built, and the pages met
    before the next printed line begins."""

    def __init__(self, name: str, gaiji_char):
        self.name, self.doc = name, Doc(name)
        self.b = _LineBuilder(gaiji_char or default_gaiji_char)
        self.pending: list[Page] = []

    def begin(self, n: int) -> None:
        """A printed line begins at source line `n`, unless one is under way: the pending pages
        begin with it."""
        b = self.b
        if b.empty() and not b.pages:
            b.n = n
            for page in self.pending:
                b.page(page)
            self.pending = []

    def end_line(self, n: int) -> None:
        """A ¶ on source line `n`: the printed line ends."""
        self.begin(n)
        self.doc.lines.append(self.b.done(True))
        self.b.reset(n)

    def common(self, n: int, raw: str) -> bool:
        """Read `raw` in short if it is one of the commonest lines (read reads them the same
        way): a printed line with its ¶ and no other markup, a page marker on its own line."""
        if raw.endswith(LINE_END) and raw.find(LINE_END) == len(raw) - 1 and "<" not in raw \
                and not raw.startswith(("#", "*")):
            self.begin(n)
            if len(raw) > 1:
                self.b.add(raw[:-1], n, 1)
            self.end_line(n)
            return True
        if self.b.empty() and _PAGE_LINE.fullmatch(raw):
            self.pending.append(_page(raw[:-1], self.name, n, 1))
            return True
        return False

    def read(self, n: int, raw: str) -> None:
        """Read source line `n`: metadata, or printed text with its markup."""
        if raw.startswith("#"):
            _meta(self.doc, n, raw)
            return
        b = self.b
        at, page_alone = 0, False            # page_alone: a marker with nothing else so far
        stars = _ORG_HEADING.match(raw)
        if stars:
            at = stars.end()                 # org markup, like `#` lines: the heading's text stays
        for m in _MARKUP.finditer(raw, at):
            chunk = raw[at:m.start()]
            if chunk:
                self.begin(n)
                b.add(chunk, n, at + 1)
                page_alone = page_alone and not chunk.strip(_WS)
            if m.group() == LINE_END:
                if page_alone and b.empty():
                    page_alone = False       # the ¶ of a page marker's own line ends nothing
                else:
                    self.end_line(n)
            else:
                page = _page(m.group(), self.name, n, m.start() + 1)
                if b.empty():
                    self.pending.append(page)
                    page_alone = True
                else:
                    b.page(page)
            at = m.end()
        if at < len(raw):
            self.begin(n)
            b.add(raw[at:], n, at + 1)

    def finish(self) -> Doc:
        if not self.b.empty():
            self.doc.lines.append(self.b.done(False))
        self.doc.trailing_pages = self.pending
        return self.doc


_MARKUP = re.compile(r"<pb:[^<>]*>|¶")
_PAGE_LINE = re.compile(r"<pb:[^<>]*>¶")
# An org heading's stars (`** 1 曲禮上` in the tls editions): mandoku markup, not text.
_ORG_HEADING = re.compile(r"\*+ +")


def _meta(doc: Doc, n: int, raw: str) -> None:
    m = META.match(raw)
    if m is None:
        doc.comments.append((n, raw[1:].strip()))
        return
    key, value = m.group("key"), m.group("value")
    if key == "TITLE":
        doc.title = doc.title or value
    elif key == "DATE":
        doc.date = value
    elif key == "PROPERTY":
        p = _PROPERTY.match(value)
        if p:
            doc.properties.setdefault(p.group("name").upper(), p.group("value"))
    else:
        doc.comments.append((n, raw[1:].strip()))


def _page(marker: str, name: str, line: int, col: int) -> Page:
    m = PB.fullmatch(marker)
    if m is None:
        raise PipelineError(f"page marker {marker!r} is not <pb:ID_EDITION_JJJ-NNs>", name, line, col,
                            rule="ZS-SRC-001")
    return Page(f"{m['work']}_{m['ed']}_{m['juan']}-{m['leaf']}{m['side']}", m["work"], m["ed"],
                m["juan"], int(m["leaf"]), m["side"])


def default_gaiji_char(gid: str) -> str:
    return chr(GAIJI_BASE + int(gid[2:]))
