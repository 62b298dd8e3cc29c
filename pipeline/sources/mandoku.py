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
(`Paragraphs`): the result is a text of the same shape as a plain e-text of that layout, which
the reader reads as it reads any other, plus a position map back to the file and the events,
which the TEI writer places (pb, lb, the row split, g) by the count of characters before them.
"""
from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter

from pipeline.chars import WHITESPACE_CHARS as _WS
from pipeline.errors import PipelineError

PB = re.compile(r"<pb:(?P<work>[A-Za-z0-9]+)_(?P<ed>[A-Za-z]+)_(?P<juan>\d+)-(?P<leaf>\d+)(?P<side>[a-z])>")
GAIJI = re.compile(r"&(KR\d{4});")
_META = re.compile(r"#\+(?P<key>[A-Z]+):\s*(?P<value>.*?)\s*$")
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

    def ends_with_note(self) -> bool:
        return self.text.endswith(NOTE_CLOSE)


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
        if ROW not in s and "&" not in s:       # most runs: nothing to look for in them
            self._text(s, line, col)
            return
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
    with (default: GAIJI_BASE + its number)."""
    doc = Doc(name)
    b = _LineBuilder(gaiji_char or default_gaiji_char)
    pending: list[Page] = []                 # pages met before the next printed line begins

    def begin(n: int) -> None:
        nonlocal pending
        if b.empty() and not b.pages:
            b.n = n
            for page in pending:
                b.page(page)
            pending = []

    for n, raw in enumerate(text.split("\n"), 1):
        if raw.startswith("#"):
            _meta(doc, n, raw)
            continue
        # The commonest lines, in short (the loop below reads them the same way): a printed
        # line with its ¶ and no page marker, and a page marker on its own line.
        if raw.endswith(LINE_END) and raw.find(LINE_END) == len(raw) - 1 and "<" not in raw \
                and not raw.startswith("*"):
            begin(n)
            if len(raw) > 1:
                b.add(raw[:-1], n, 1)
            doc.lines.append(b.done(True))
            b.reset(n)
            continue
        if b.empty() and _PAGE_LINE.fullmatch(raw):
            pending.append(_page(raw[:-1], name, n, 1))
            continue
        at, page_alone = 0, False            # page_alone: a marker with nothing else so far
        stars = _ORG_HEADING.match(raw)
        if stars:
            at = stars.end()                 # org markup, like `#` lines: the heading's text stays
        for m in _MARKUP.finditer(raw, at):
            chunk = raw[at:m.start()]
            if chunk:
                begin(n)
                b.add(chunk, n, at + 1)
                page_alone = page_alone and not chunk.strip(_WS)
            if m.group() == LINE_END:
                if page_alone and b.empty():
                    page_alone = False       # the ¶ of a page marker's own line ends nothing
                else:
                    begin(n)
                    doc.lines.append(b.done(True))
                    b.reset(n)
            else:
                page = _page(m.group(), name, n, m.start() + 1)
                if b.empty():
                    pending.append(page)
                    page_alone = True
                else:
                    b.page(page)
            at = m.end()
        if at < len(raw):
            begin(n)
            b.add(raw[at:], n, at + 1)
    if not b.empty():
        doc.lines.append(b.done(False))
    doc.trailing_pages = pending
    return doc


_MARKUP = re.compile(r"<pb:[^<>]*>|¶")
_PAGE_LINE = re.compile(r"<pb:[^<>]*>¶")
# An org heading's stars (`** 1 曲禮上` in the tls editions): mandoku markup, not text.
_ORG_HEADING = re.compile(r"\*+ +")


def _meta(doc: Doc, n: int, raw: str) -> None:
    m = _META.match(raw)
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


# -- paragraphs: printed lines joined into the lines of a plain e-text ----------------------------
@dataclass(slots=True)
class Event:
    """Something the TEI marks at a point of the text: a page (pb), the start of a printed line
    (lb), the end of a note's first row (row), a gaiji (g, at its character). `at` is the
    offset in the logical text, then, once `Logical.counted` has run, the number of characters
    the lossless invariant keeps before it."""
    at: int
    kind: str
    value: object = None


@dataclass
class Logical:
    """Printed lines joined into paragraphs: the text a layout reader reads, the way back to
    the file, and the events."""
    text: str
    # (start, base, printed line) for each printed line with text in `text`: that text begins
    # at `start`, and the line's offset k is at base + k (what was left out lies before start)
    placed: list
    line_starts: list[int]   # offset of each line of `text`
    events: list[Event]

    def source_pos(self, line: int, col: int) -> tuple[int, int]:
        """The file position of `text`'s line:col (1-based): in the run of the printed line
        it falls in (or the last before it) that begins where it is or before."""
        if not 0 < line <= len(self.line_starts):
            return line, col
        off = self.line_starts[line - 1] + col - 1
        i = bisect.bisect_right(self.placed, off, key=itemgetter(0)) - 1
        if i < 0:
            return line, col
        _, base, printed = self.placed[i]
        at = off - base                                  # the offset in the printed line
        start, sl, sc = printed.cols[bisect.bisect_right(printed.cols, (at, float("inf"), 0)) - 1]
        return sl, sc + at - start

    def counted(self, dropped: frozenset) -> list[Event]:
        """The events with `at` as the number of characters before them that the lossless
        invariant keeps (what the TEI writer counts as it writes the text)."""
        uncounted = re.compile("[" + re.escape("".join(sorted(dropped))) + "]")
        gaps = [m.start() for m in uncounted.finditer(self.text)]     # where they are not kept
        # stable: a pb before the lb at the same point
        return [Event(e.at - bisect.bisect_left(gaps, e.at), e.kind, e.value)
                for e in sorted(self.events, key=attrgetter("at"))]


def join(paragraphs: list[list[Line]]) -> Logical:
    """The logical text of paragraphs of printed lines: the lines of a paragraph joined (their
    indentation after the first left out, a note continued from one line to the next made one
    note), the paragraphs one per line."""
    out: list[str] = []
    placed: list = []
    line_starts: list[int] = []
    events: list[Event] = []
    size = 0
    for para in paragraphs:
        line_starts.append(size)
        for k, line in enumerate(para):
            text, skip = line.text, 0
            if k:
                skip = line.indent                       # a continuation's indentation
                if text.startswith(NOTE_OPEN, skip) and out and out[-1].endswith(NOTE_CLOSE):
                    out[-1] = out[-1][:-1]              # the note goes on: one note, not two
                    size -= 1
                    skip += 1
            base = size - skip
            if line.pages or line.gaiji:
                events += _events(line, size, base, skip)
            else:                                        # most lines: the break, then the rows
                if line.begins:
                    events.append(Event(size, "lb"))
                events += [Event(base + off, "row") for off in line.rows]
            if len(text) > skip:                         # not all left out
                placed.append((size, base, line))
            piece = text[skip:]
            out.append(piece)
            size += len(piece)
        out.append("\n")
        size += 1
    return Logical("".join(out), placed, line_starts, events)     # in text order already


def _events(line: Line, size: int, base: int, skip: int) -> list[Event]:
    """A line's events, at `size` in the logical text (`base` + an offset in the line) with
    the first `skip` characters of the line left out, in the order they are printed: a page
    that begins with the line comes before its line break; then the line's own row splits,
    gaiji and pages, by offset."""
    inline = [(max(off, skip), 0, Event(base + max(off, skip), "pb", page))
              for off, page in line.pages]
    out = [e for off, _, e in inline if off <= skip]
    if line.begins:
        out.append(Event(size, "lb"))
    inline = [x for x in inline if x[0] > skip]
    inline += [(off, 1, Event(base + off, "row")) for off in line.rows]
    inline += [(off, 2, Event(base + off, "g", gid)) for off, gid in line.gaiji]
    return out + [e for *_, e in sorted(inline, key=lambda x: (x[0], x[1]))]


def flow(lines: list[Line], stands_alone) -> list[list[Line]]:
    """Paragraphs for text that flows from column to column: each line continues the one
    before, but a line `stands_alone(line)` says is its own paragraph (a title, furniture), and
    a blank column ends the paragraph before it (it is kept, as a paragraph of its own, for its
    line break)."""
    paras: list[list[Line]] = []
    open_para: list[Line] | None = None
    for line in lines:
        if line.blank or stands_alone(line):
            paras.append([line])
            open_para = None
        elif open_para is None:
            open_para = [line]
            paras.append(open_para)
        else:
            open_para.append(line)
    return paras


# -- the work around a file: Readme.org, page images, the gaiji table -----------------------------
@dataclass
class Readme:
    title: str = ""
    editions: list[tuple[str, str]] = field(default_factory=list)    # (code, name)
    contents: list[tuple[str, str, str]] = field(default_factory=list)  # (file, page key, title)


_README_LINK = re.compile(r"\[\[file:(?P<file>[^\]:]+)(?:::(?P<page>[^\]]+))?\]\[(?P<title>[^\]]*)\]\]")
_README_EDITION = re.compile(r"^\s*\|\s*(?P<code>[A-Za-z0-9]+)\s*\|\s*【?(?P<name>[^|】]*)】?\s*\|")


def read_readme(path: str) -> Readme | None:
    """The repository's Readme.org: its title, editions (版本) and table of contents (目次)."""
    from pipeline import files
    try:
        data = files.read_regular(path, 4 * 1024 * 1024)
    except PipelineError:
        return None
    r = Readme()
    for raw in data.decode("utf-8", "replace").split("\n"):
        m = _META.match(raw)
        if m and m.group("key") == "TITLE":
            r.title = m.group("value").split(" / ")[0].strip()
            continue
        m = _README_EDITION.match(raw)
        if m:
            r.editions.append((m.group("code"), m.group("name").strip()))
            continue
        m = _README_LINK.search(raw)
        if m:
            r.contents.append((m.group("file"), m.group("page") or "", m.group("title")))
    return r


@dataclass
class Gaiji:
    """One row of Kanripo's character table (KR-Gaiji/charlist.org.txt)."""
    id: str
    form: str = ""           # its character in Unicode (or Kanripo's private character), if any
    normalized: str = ""     # its normal form: a character, `X?`, `X:4,Y:1`, a formula or IDS
    image: str = ""          # images/KR0427.png


def read_gaiji_table(path: str) -> dict[str, Gaiji]:
    from pipeline import files
    table: dict[str, Gaiji] = {}
    data = files.read_regular(path, 32 * 1024 * 1024)
    for raw in data.decode("utf-8", "replace").split("\n"):
        cols = raw.split("\t")
        if len(cols) < 2 or not re.fullmatch(r"KR\d{4}", cols[0]):
            continue
        image = re.search(r"\[\[file:([^\]]+)\]\]", cols[4]) if len(cols) > 4 else None
        table[cols[0]] = Gaiji(cols[0], cols[2].strip() if len(cols) > 2 else "",
                               cols[3].strip() if len(cols) > 3 else "",
                               image.group(1) if image else "")
    return table


def find_near(start: str, *relative: str) -> str | None:
    """The first of `relative` paths that exists in `start` or one of the directories above it
    (a Kanripo checkout keeps KR-Gaiji and the _data branch beside the text repositories)."""
    d = os.path.abspath(start)
    for _ in range(4):
        for rel in relative:
            p = os.path.join(d, rel)
            if os.path.exists(p):
                return p
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return None


def read_imglist(path: str) -> dict[str, str]:
    """page key (003-1a) → image path (WYG0115/WYG0115-0025c.png), for the pages that have one."""
    from pipeline import files
    out: dict[str, str] = {}
    try:
        data = files.read_regular(path, 16 * 1024 * 1024)
    except PipelineError:
        return out
    for raw in data.decode("utf-8", "replace").split("\n"):
        cols = raw.split("\t")
        if len(cols) >= 3 and cols[2].strip() and "missing" not in cols[2]:
            key = cols[1].split()[-1] if cols[1].strip() else cols[0][:-2]
            out[key] = cols[2].strip()
    return out
