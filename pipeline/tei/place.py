"""Placing a Kanripo source's events in the text as the writer writes it: pages (<pb>),
printed lines (<lb/>, then <space> for an indented one), the end of a note's first row (<milestone unit="row"/>) and gaiji
(<g ref="#KR0427">)."""
from __future__ import annotations

import bisect
import re

from pipeline.chars import WHITESPACE
from pipeline.tei.markup import _ATTENTION, _esc


class Placer:
    """Places a Kanripo source's events in the text as it is written. Each event sits before
    the character the lossless invariant counts as its `at` (pipeline/sources/mandoku.py): the writer
    writes the text in source order, so counting what it writes finds the place. A page is
    `<pb ed n facs/>`, the start of a printed line `<lb/>`, the end of a note's first row
    `<milestone unit="row"/>`; a gaiji's character goes in `<g ref="#KR0427">`."""

    def __init__(self, events, delimiters: frozenset):
        self.events, self.i, self.kept = events, 0, 0
        self.dropped = "".join(sorted(WHITESPACE | delimiters))
        self.uncounted = re.compile("[" + re.escape(self.dropped) + "]")

    def pending(self) -> bool:
        return self.i < len(self.events)

    def _kept(self, text: str) -> int:
        """How many characters of `text` the lossless invariant keeps."""
        return len(text) - len(self.uncounted.findall(text))

    def _counter(self, text: str):
        """index(k): where in `text` its k-th kept character is. Most text keeps all, and then
        index is k itself: looking for a dropped character first made the TEI stage 1.4 times
        as fast as _counter_plain alone (issue 15: the seeds and Kanripo's KR1d0053, old and
        new alternated in one run)."""
        if text.isalpha() or self.uncounted.search(text) is None:
            return lambda k: k
        return self._counter_plain(text)

    def _counter_plain(self, text: str):
        """index(k) for any `text`: worked out once per text, as a long 疏 holds an event
        every column."""
        runs = [(m.start(), m.end()) for m in re.finditer(f"[^{re.escape(self.dropped)}]+", text)]
        firsts, n = [], 0
        for a, b in runs:
            firsts.append(n)
            n += b - a

        def index(k: int) -> int:
            r = bisect.bisect_right(firsts, k) - 1
            return runs[r][0] + k - firsts[r] if r >= 0 and k - firsts[r] < runs[r][1] - runs[r][0] \
                else len(text)
        return index

    def place(self, text: str, marked) -> str:
        """`text` as written, its events placed; `marked` writes the text between them. Two
        shortcuts over place_plain, which made the TEI stage 1.2 times as fast (measured as
        _counter's): most texts hold no event, and in a text with nothing to escape or wrap
        no slice needs `marked` either."""
        end = self.kept + self._kept(text)
        if self.i >= len(self.events) or not self._here(self.events[self.i], end):
            self.kept = end
            return marked(text) if _ATTENTION.search(text) else text
        if _ATTENTION.search(text) is None:
            marked = str                        # gives each slice back as it is
        return self._placed(text, marked, end)

    def place_plain(self, text: str, marked) -> str:
        """What place writes, without its shortcuts (tests hold place to it)."""
        return self._placed(text, marked, self.kept + self._kept(text))

    def _placed(self, text: str, marked, end: int) -> str:
        """`text`, which ends at kept character `end`, with the events that fall in it."""
        events, i = self.events, self.i
        out, start, index = [], 0, self._counter(text)
        while i < len(events) and self._here(events[i], end):
            e = events[i]
            at = index(e.at - self.kept)
            if at > start:
                out.append(marked(text[start:at]))
                start = at
            if e.kind == "g":
                out.append(f'<g ref="#{e.value}">{_esc(text[at:at + 1])}</g>')
                start = at + 1
            else:
                out.append(_event(e))
            i += 1
        if start < len(text):
            out.append(marked(text[start:]))
        self.i, self.kept = i, end
        return "".join(out)

    @staticmethod
    def _here(e, end: int) -> bool:
        """Does event `e` fall in the text that ends at `end`? A page or line break falls before
        the character it precedes; the end of a note's first row after the one it follows (an
        empty second row ends a note: its split belongs at that note's end)."""
        return e.at < end or (e.at == end and e.kind == "row")

    def rest(self) -> str:
        out = [_event(e) for e in self.events[self.i:] if e.kind != "g"]
        self.i = len(self.events)
        return "".join(out)


def _event(e) -> str:
    if e.kind == "pb":
        p = e.value
        return f'<pb ed="{p.edition}" n="{p.n}" facs="#{surface_id(p)}"/>'
    if e.kind == "lb":
        # the cells the edition leaves blank at the line's head (the source's U+3000, which the
        # text drops as whitespace): how the 四庫 sets 經, commentary and 抬頭 apart
        return f'<lb/><space quantity="{e.value}" unit="chars"/>' if e.value else "<lb/>"
    return '<milestone unit="row"/>'


def surface_id(page) -> str:
    """The xml:id of a page's <surface> in the facsimile: f003-1a."""
    return f"f{page.key}"
