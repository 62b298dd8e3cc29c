"""Layout `bare`: the 經 alone, punctuated, in numbered sections (Kanripo's `tls` editions).

    ** 1 天官冢宰                     a 篇 (禮記) or 官 (周禮): `** N name`, or `N name`
    1.0.惟王建國，辨方正位，…         a numbered section: `N.M.` (周禮) or `N.M` (禮記), glued
    治官之屬：                        to its first phrase; further paragraphs follow it
    1.1.大宰之職，掌建邦之六典，…

One paragraph per line. Each 篇 heading opens a division (`<div type="pian" n="N">`, the
heading line its head, N its number in pian.tsv for the 三禮), each numbered section (章) a
division inside it (`<div type="zhang" n="M">` for the printed N.M). The number is
printed text of the edition: it stays where it is printed, as a `<label type="mark">` at the
head of the section's first unit. Each sentence (up to 。？！ and the quotation marks closing
it, or the end of its paragraph) is a 經 unit, each phrase in it (up to ，、；：。？！) a `seg`.
Nothing here is commentary: there are no 注, 音義 or 疏 layers.

In the Kanripo files (mandoku) `¶` ends a phrase, not a printed line (several can share a
line, and the last line of a paragraph may have none), paragraphs are separated by a blank
line (with `# src:`/`# dating:` comment lines before each paragraph of the 禮記, and a
`<pb:…>` before each paragraph of the 周禮: a running counter, not a printed page), and the
heading line has no `¶`: `paragraphs` rebuilds the paragraphs from the source lines.
"""
from __future__ import annotations

import re

from pipeline.chars import WHITESPACE_CHARS as _WS
from pipeline.model import JING, MARK, Div, Head, Piece, Pos, Unit
from pipeline.readers import sniffing
from pipeline.readers.common import PIAN, Builder
from pipeline.readers.pian import classic, title
from pipeline.report import Report
from pipeline.sources.decoding import Source
from pipeline.sources.located import Located
from pipeline.sources.mandoku import Line

NAME = "bare"
DESCRIPTION = "the 經 alone, punctuated, in numbered sections (N.M) under `** N` 篇 headings (Kanripo tls)"

# A numbered section of a 篇 (the edition's N.M): a 章.
ZHANG = "zhang"
_SP = f"[{re.escape(_WS)}]"
# `** 1 天官冢宰` (org heading; in a plain e-text the stars may be left out): the number, then
# a short name with no punctuation.
HEADING = re.compile(rf"^(?P<stars>\*+{_SP}*)?(?P<n>\d{{1,3}}){_SP}+"
                     rf"(?P<name>[^{re.escape(_WS)}，。、；：？！「」『』《》.\d]{{1,16}})$")
# A section number opening a paragraph: 1.2 (禮記, glued to the first phrase) or 1.0. (周禮).
# (Used with match(), which anchors it, also at an offset.)
NUMBER = re.compile(rf"(?P<n>\d{{1,3}}(?:\.\d{{1,3}})+)(?P<dot>\.?){_SP}*")
# Where a sentence ends (with the quotation marks and brackets closing it) and a phrase.
_SENTENCE_END = re.compile(r"[。？！?!]+[」』》〉）”’]*")
_PHRASE_END = re.compile(r"[，。、；：？！,;:?!]+[」』》〉）”’]*")
_PUNCT = re.compile(r"[，。、；：？！]")
# The sniffs' scale. A punctuated text has a mark every few characters: a plain e-text with
# fewer than one in 40 is not (its sections need the punctuation to be cut), a Kanripo file with
# fewer than one in 20 is one of the unpunctuated editions (most of them). Section numbers count
# up from one to the next at least 4 times in 5 (a few are misprinted); a plain text scores 0.5
# for that, up to 0.2 more as the numbers rise, and up to 0.2 more as numbered paragraphs make
# a tenth of its lines, capped at 0.9 (never 1: the other readers are always asked too). A
# Kanripo file with small notes on more than one line in 100 is a commentary's; else 0.4 for
# notes and punctuation, 0.3 each for `** N` headings and numbered sections.
_PLAIN_PUNCT_EVERY = 40
_MANDOKU_PUNCT_EVERY = 20
_RISING = 0.8
_PLAIN_BASE, _PER_RISING, _NUMBERED_MAX, _PER_NUMBERED, _PLAIN_CAP = 0.5, 0.2, 0.2, 2, 0.9
_NOTES_PER = 100
_MANDOKU_BASE, _PER_SIGN = 0.4, 0.3


# -- plain e-texts ---------------------------------------------------------------------------------
def sniff(text: str) -> tuple[float, str]:
    """Only a text that is clearly this layout scores: punctuated, no notes in parentheses
    or brackets and no [疏] lines, and paragraphs opening with section numbers N.M that
    count up. Never 1: the other readers are always asked too."""
    lines = sniffing.nonblank_lines(text)
    if not lines:
        return 0.0, "empty"
    numbers = [m for m in map(NUMBER.match, lines) if m is not None]
    if len(numbers) < 2:
        return 0.0, f"{len(numbers)} numbered sections"
    punct = len(_PUNCT.findall(text))
    if punct * _PLAIN_PUNCT_EVERY < len(text):
        return 0.0, f"{len(numbers)} numbered sections, but unpunctuated"
    notes = sniffing.lines_with_paren_note(text) + text.count("【") + text.count("[疏]") + text.count("［疏］")
    if notes:
        return 0.0, f"{len(numbers)} numbered sections, {notes} notes or [疏] lines"
    keys = [tuple(int(x) for x in m.group("n").split(".")) for m in numbers]
    rising = sum(1 for a, b in zip(keys, keys[1:]) if b > a) / (len(keys) - 1)
    if rising < _RISING:
        return 0.0, f"{len(numbers)} section numbers, not in order"
    headings = sum(1 for s in lines if HEADING.match(s))
    share = len(numbers) / len(lines)
    return min(_PLAIN_CAP, _PLAIN_BASE + _PER_RISING * rising + min(_NUMBERED_MAX, _PER_NUMBERED * share)), \
        f"{len(numbers)} numbered sections in order, {headings} headings, punctuated, no notes"


# -- Kanripo's tls editions (mandoku) --------------------------------------------------------------
def sniff_mandoku(doc) -> tuple[float, str]:
    """No small notes, punctuated, `** N` headings, numbered sections."""
    text = "".join(line.text for line in doc.lines)     # its phrases' too: _split only cuts
    if not text:
        return 0.0, "no text"
    notes = text.count("(")
    punct = len(_PUNCT.findall(text))
    if punct * _MANDOKU_PUNCT_EVERY < len(text):     # unpunctuated: no need to cut the phrases
        return 0.0, f"{notes} small notes, {punct} punctuation marks"
    lines = _split(doc.lines)
    if notes * _NOTES_PER > len(lines):
        return 0.0, f"{notes} small notes, {punct} punctuation marks"
    headings = sum(1 for line in lines if HEADING.match(line.text.strip(_WS)))
    numbers = sum(1 for line in lines if NUMBER.match(line.body))
    return _MANDOKU_BASE + _PER_SIGN * bool(headings) + _PER_SIGN * bool(numbers), \
        f"no small notes, punctuated, {headings} `** N` headings, {numbers} numbered sections"


def paragraphs(lines) -> list:
    """The printed lines joined into the paragraphs of a plain e-text of this layout: a
    paragraph runs over the phrases (`¶`) of consecutive source lines; a blank line, a `#`
    line or a page marker line between two phrases ends it; a heading stands alone; a section
    number starts a paragraph."""
    out: list = []
    para = None
    last = 0                             # source line of the last text so far
    after_heading = False
    for line in _split(lines):
        if not line.cols:                # an empty phrase (`¶¶`): its line break kept alone
            out.append([line])
            continue
        heading = HEADING.match(line.text.strip(_WS)) is not None
        if para is None or heading or after_heading or NUMBER.match(line.body) \
                or line.cols[0][1] - last >= 2:
            para = [line]
            out.append(para)
        else:
            para.append(line)
        last, after_heading = line.cols[-1][1], heading
    return out


def _split(lines) -> list:
    """The printed lines, each cut where its text runs on over a break mandoku does not end a
    line at: a blank line, a `#` line or a page line between two runs (a paragraph's last
    phrase often has no `¶`), the end of a heading line, the start of a section number."""
    out = []
    for line in lines:
        cols, start, k = line.cols, 0, 0
        for i in range(1, len(cols)):
            off, src_line, _ = cols[i]
            prev_line = cols[i - 1][1]
            if src_line == prev_line:
                continue
            if src_line - prev_line >= 2 or HEADING.match(line.text[k:off].strip(_WS)) \
                    or NUMBER.match(line.text, off):
                out.append(_cut(line, start, k, off, i))
                start, k = i, off
        out.append(line if k == 0 else _cut(line, start, k, len(line.text), len(cols)))
    return out


def _cut(line, first: int, a: int, b: int, last: int):
    """The part of `line` from offset a to b (its runs first … last−1) as a line of its own."""
    text = line.text[a:b]
    end_of_text = b == len(line.text)
    pages = [(o - a, p) for o, p in line.pages if a <= o < b or (end_of_text and o == b)]
    return Line(line.cols[first][1], len(text) - len(text.lstrip("\u3000")), text,
                [(o - a, sl, sc) for o, sl, sc in line.cols[first:last]],
                [o - a for o in line.rows if a <= o < b],
                [(o - a, g) for o, g in line.gaiji if a <= o < b],
                pages, line.ended if end_of_text else False, line.begins and a == 0)


# -- reading ---------------------------------------------------------------------------------------
def structure_missing(doc) -> str | None:
    """What the reader saw when the text is not of this layout: a text of some length with no
    heading and no numbered section, or with the small notes of a commentary read as 經 (a
    Kanripo note's `(`, a plain e-text's 【): None when the structure is real."""
    units = list(doc.units())
    chars = sum(len(p.text) for u in units for p in u.pieces)
    notes = sum(p.text.count("(") + p.text.count("【") for u in units for p in u.pieces)
    if chars >= _MIN_CHARS and not any(d.n for d in doc.all_divs()):
        return f"{chars} characters in {len(units)} units, no `** N` heading and no numbered section"
    if notes >= 2 and notes * _NOTES_PER > len(units):
        return f"{notes} small notes in ( ) or 【】 read as 經"
    return None


# Below this, a text may be a fragment with no division of its own (a test, a quotation).
_MIN_CHARS = 200


def read(src: Source, report: Report):
    b = Builder(src, report, NAME)
    # No 注 to attribute: a work named is known enough, in works.tsv or not (Kanripo has tls
    # editions of many works); only a text naming none is reported.
    b.work_known = bool(b.work)
    pian: Div | None = None             # the open 篇 (or 官)
    name = ""
    mark: Piece | None = None           # a section number standing alone, for the next unit
    for n, raw in enumerate(src.text.split("\n"), 1):
        s = raw.strip(_WS)
        if not s:
            continue
        col = len(raw) - len(raw.lstrip(_WS)) + 1
        m = HEADING.match(s)
        if m:
            _flush_mark(b, mark)
            mark = None
            # a 篇 of the 三禮: its number in pian.tsv (the edition's may differ: its 禮記 prints a
            # 喪服大記 beside the 喪大記), a heading of a 三禮 classic not in the table a plain
            # section; any other work's 篇 numbered by the edition
            found = title(m.group("name"))
            kind = PIAN if found is not None or not classic(b.work) else "section"
            pian = b.div = Div(kind, Head(s, Pos(n, col), kind), n=str(found.n) if found else m.group("n"))
            b.divs.append(pian)
            name = name or m.group("name")
            continue
        loc = Located.of(raw, n, 1)
        text, at = loc.text, 0
        m = NUMBER.match(text)
        if m:
            _flush_mark(b, mark)
            # the 章 within its 篇, by the last part of the printed N.M; outside a 篇, a section
            # numbered as printed
            in_pian = pian is not None and pian.kind == PIAN
            section = Div(ZHANG if in_pian else "section", None,
                          n=m.group("n").rsplit(".", 1)[1] if in_pian else m.group("n"))
            if pian is None:
                b.divs.append(section)
            else:
                pian.blocks.append(section)
            b.div = section
            at = m.end()
            mark = Piece(MARK, text[:at], loc.pos(0))
        if at == len(text):
            continue                    # a number alone: it heads the next unit
        for a, e in _spans(_SENTENCE_END, text, at, len(text)):
            pieces = [mark] if mark is not None else []
            mark = None
            pieces += [Piece(JING, text[p:q], loc.pos(p)) for p, q in _spans(_PHRASE_END, text, a, e)]
            b.block(Unit(pieces, pieces[0].pos))
    _flush_mark(b, mark)
    doc = b.finish()
    if name and not src.meta.get("juan"):
        doc.meta.juan = name            # the file's division is the 篇 (官) its heading names
    return doc


def _flush_mark(b: Builder, mark: Piece | None) -> None:
    """A section number with no text after it before the next heading or number: a unit of
    its own."""
    if mark is not None:
        b.block(Unit([mark], mark.pos))


def _spans(end: re.Pattern, text: str, a: int, b: int):
    """text[a:b] cut after each match of `end`: (start, end) of each part."""
    for m in end.finditer(text, a, b):
        if m.end() > a:
            yield a, m.end()
            a = m.end()
    if a < b:
        yield a, b
