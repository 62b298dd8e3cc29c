"""Printed lines joined into the paragraphs a layout reader reads (the lines of a plain e-text
of its layout), with the events the TEI writer places in them and the way back to the file.

A reader of a Kanripo file chooses its paragraphs (`flow`, or its own grouping of the lines
`mandoku.parse` read) and `join` makes them one text: a `Logical`, whose `source_pos` maps a
position of the text back to the file and whose events (pages, line starts, the end of a
note's first row, gaiji) `counted` gives at the count of kept characters before them.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from operator import attrgetter, itemgetter

from pipeline.sources.mandoku import NOTE_CLOSE, NOTE_OPEN, Line


@dataclass(slots=True)
class Event:
    """Something the TEI marks at a point of the text: a page (pb), the start of a printed line
    (lb; its value the cells left blank at the line's head), the end of a note's first row
    (row), a gaiji (g, at its character). `at` is the
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
            events += _line_events(line, size, base, skip)
            if len(text) > skip:                         # not all left out
                placed.append((size, base, line))
            piece = text[skip:]
            out.append(piece)
            size += len(piece)
        out.append("\n")
        size += 1
    return Logical("".join(out), placed, line_starts, events)     # in text order already


def _line_events(line: Line, size: int, base: int, skip: int) -> list[Event]:
    """_events, in short for the lines that have no page and no gaiji (most): their break,
    then their rows. That made reading Kanripo sources (parse and join) 1.2 times as fast
    (issue 15, measured on Kanripo's KR1d0053, old and new alternated)."""
    if line.pages or line.gaiji:
        return _events(line, size, base, skip)
    events = [Event(size, "lb", line.indent)] if line.begins else []
    return events + [Event(base + off, "row") for off in line.rows]


def _events(line: Line, size: int, base: int, skip: int) -> list[Event]:
    """A line's events, at `size` in the logical text (`base` + an offset in the line) with
    the first `skip` characters of the line left out, in the order they are printed: a page
    that begins with the line comes before its line break; then the line's own row splits,
    gaiji and pages, by offset."""
    inline = [(max(off, skip), 0, Event(base + max(off, skip), "pb", page))
              for off, page in line.pages]
    out = [e for off, _, e in inline if off <= skip]
    if line.begins:
        out.append(Event(size, "lb", line.indent))
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
