"""Where a quote lands in the pieces of a group, and the anchor that points at it.

The pieces of one layer are read as one stream of squeezed characters (matching.squeeze), so a
quote is found across piece boundaries; a span found there is turned back into what the model
points at: whole pieces where it covers them, an anchor where it starts or ends inside one. The
出文 and sub-lemma resolution (lemmas.py), the 四庫 quote anchoring (quote_anchoring.py), the 音義
heads (pieces.py) and the segmenter all search streams this way.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from itertools import accumulate

from pipeline.matching import LOOSE_MIN, SKIP_RUN, BitPattern, find_all, loose_tolerance, squeeze
from pipeline.model import JING, ZHU, Para, Piece, Pointable, Pos, SubLemma

_SKIP_SPLIT = re.compile("(" + SKIP_RUN.pattern + ")")      # split keeps the skipped runs
LAYER_NAME = {JING: "經", ZHU: "注"}


@dataclass(slots=True)
class Stream:
    """The squeezed characters of some pieces, in order, and where each piece begins."""
    chars: str
    starts: list[int]                     # stream index of each piece's first character
    pieces: list[Piece]
    _start_set: frozenset = frozenset()
    _kept: dict = field(default_factory=dict)   # piece index -> its _kept_runs

    @classmethod
    def of(cls, pieces: list[Piece]) -> "Stream":
        parts, starts, n = [], [], 0
        for p in pieces:
            q = squeeze(p.text)
            starts.append(n)
            parts.append(q)
            n += len(q)
        return cls("".join(parts), starts, pieces, frozenset(starts))

    def where(self, i: int) -> tuple[int, int]:
        """(piece index, offset in that piece's text) of stream character i."""
        pi = bisect.bisect_right(self.starts, i) - 1
        return pi, self.offset_in(pi, i)

    def offset_in(self, pi: int, i: int) -> int:
        """The offset in the text of piece pi (the one that holds it) of stream character i."""
        runs = self._kept.get(pi)
        if runs is None:
            runs = self._kept[pi] = _kept_runs(self.pieces[pi].text)
        k = i - self.starts[pi]                  # the k-th character squeeze keeps
        r = bisect.bisect_right(runs[0], k) - 1
        return runs[1][r] + k - runs[0][r]

    def at_piece_start(self, i: int) -> bool:
        return i in self._start_set

    def at_piece_end(self, i: int) -> bool:
        return i == len(self.chars) - 1 or i + 1 in self._start_set


def _kept_runs(text: str) -> tuple[list[int], list[int]]:
    """The runs of characters squeeze keeps in `text`: where each begins in the squeezed text,
    and where in `text`. Summed from the lengths of the runs (a long line holds hundreds of
    them: no Python step per run)."""
    parts = _SKIP_SPLIT.split(text)         # kept, skipped, kept, …, kept
    kept = parts[0::2]
    text_at = list(accumulate(map(len, parts), initial=0))[0::2]
    squeezed_at = list(accumulate(map(len, kept), initial=0))
    # only the first and the last kept run can be empty: the text opens or ends with a skip
    first, last = (1 if not kept[0] else 0), len(kept) - (1 if len(kept) > 1 and not kept[-1] else 0)
    return squeezed_at[first:last], text_at[first:last]


@dataclass(slots=True)
class Span:
    start: Pointable
    end: Pointable | None                  # None: the span is `start` alone
    first: int                             # stream indices, for ordering between lemmas
    last: int
    mismatches: int = 0                    # characters where quote and text differ


def locate(stream: Stream, qs: list[str], lo: int = 0, hi: int | None = None,
           reach: str = "near", fuzzy: bool = True) -> Span | None:
    """The span that begins with qs[0] and ends with qs[-1] inside stream[lo:hi]. The quotes
    come squeezed: callers squeeze them once, as a lemma is looked for in several layers and
    passes.

    Starts at a piece boundary are preferred. `reach` picks the end: 'near' the first fitting
    end, 'far' the last one (a 經 lemma often covers several sentences of its paragraph).
    `fuzzy=False` accepts exact matches only (tried first across layers, by the callers).
    """
    if not qs or not qs[0]:
        return None
    hi = len(stream.chars) if hi is None else hi
    if len(qs) == 1:
        # Most quotes occur exactly (and then no fuzzy match is looked for): the first
        # occurrence at a piece start, else the first, is the one `order` below would pick.
        s = _first_exact(stream, qs[0], lo, hi)
        if s is not None:
            return span_at(stream, s, s + len(qs[0]) - 1)
        if not fuzzy:
            return None
    starts = find_all(stream.chars, qs[0], lo, hi, fuzzy)
    if not starts:
        return None

    at_piece_start, at_piece_end = stream.at_piece_start, stream.at_piece_end

    def order(start: tuple[int, int]) -> tuple:   # fewest differences, then at a piece start
        return start[1], not at_piece_start(start[0]), start[0]

    if len(qs) == 1:                                # the best start is the span
        s, bad = min(starts, key=order) if len(starts) > 1 else starts[0]
        return span_at(stream, s, s + len(qs[0]) - 1, bad)
    starts.sort(key=order)
    for s, bad in starts:
        ends = [(e + len(qs[-1]) - 1, b) for e, b in find_all(stream.chars, qs[-1], s, hi, fuzzy)]
        ends = [e for e in ends if e[0] >= s + len(qs[0]) - 1]
        if not ends:
            continue
        fitting = [e for e in ends if at_piece_end(e[0])] or ends
        e_last, bad_end = fitting[-1] if reach == "far" else fitting[0]
        return span_at(stream, s, e_last, bad + bad_end)
    return None


def _first_exact(stream: Stream, q: str, lo: int, hi: int) -> int | None:
    """The first exact occurrence of q in stream[lo:hi] at a piece start, else the first."""
    chars, starts = stream.chars, stream._start_set
    first = i = chars.find(q, lo, hi)
    while i != -1:
        if i in starts:
            return i
        i = chars.find(q, i + 1, hi)
    return None if first == -1 else first


# A loose quote is looked for near the exact occurrences of a few of its first characters: three
# (four from ten on, where three recur by chance more often), from its first, second or third
# character (one edit may fall among the first ones), each start tried one either side.
LOOSE_SEED, LOOSE_LONG, LOOSE_OFFSETS = 3, 10, (0, 1, 2)


def locate_loose(stream: Stream, q: str, lo: int = 0, hi: int | None = None) -> Span | None:
    """A long quote given loosely (a character left out, added or changed): the span near an
    occurrence of its first characters whose text is closest to it, if within tolerance.
    `q` is the quote as loose_quote gives it."""
    n = len(q)
    if n < LOOSE_MIN:
        return None
    k = LOOSE_SEED if n < LOOSE_LONG else LOOSE_SEED + 1
    tol = loose_tolerance(n)
    hi = len(stream.chars) if hi is None else hi
    chars = stream.chars
    pattern = BitPattern(q)
    tried: dict[int, list[int]] = {}        # start → distances: the offsets find the same starts
    for off in LOOSE_OFFSETS:
        for occ, _ in find_all(chars, q[off:off + k], lo, hi):
            best = None
            for s0 in sorted({occ - off - 1, occ - off, occ - off + 1}):
                if s0 < lo:
                    continue
                dist = tried.get(s0)
                if dist is None:
                    dist = tried[s0] = pattern.distances(chars[s0:min(hi, s0 + n + tol)], tol)
                for m in range(max(1, n - tol), len(dist)):
                    if dist[m] <= tol and (best is None or dist[m] < best[0]):
                        best = (dist[m], s0, s0 + m - 1)
            if best is not None:
                d, s0, e = best
                return span_at(stream, s0, e, max(1, d))
    return None


def span_at(stream: Stream, first: int, last: int, mismatches: int = 0) -> Span:
    # only punctuation beyond the edge: the span takes the whole piece on that side, and no
    # offset inside it need be worked out (a piece's kept runs are split out only when one is)
    starts, pieces = stream.starts, stream.pieces
    pi = bisect.bisect_right(starts, first) - 1
    a = pieces[pi]
    start = a if starts[pi] == first else a.anchor_at(stream.offset_in(pi, first))
    pj = bisect.bisect_right(starts, last, pi) - 1
    b = pieces[pj]
    at_end = last == len(stream.chars) - 1 or (pj + 1 < len(starts) and starts[pj + 1] == last + 1)
    end = b if at_end else b.anchor_at(stream.offset_in(pj, last) + 1)
    if start is a and end is b and a is b:
        return Span(a, None, first, last, mismatches)
    return Span(start, end, first, last, mismatches)


def gloss_candidates(pieces: list[Piece]) -> list[tuple[Piece, str]]:
    """Where 音義 heads are looked for, in order, with their squeezed text. 陸德明 glosses the 經
    first and marks 注同 when the 注 shares the reading, so 經 pieces come before 注, each from
    the nearest back."""
    return [(p, squeeze(p.text)) for p in reversed(pieces) if p.layer == JING] + \
           [(p, squeeze(p.text)) for p in reversed(pieces) if p.layer == ZHU]


def gloss_target(candidates: list[tuple[Piece, str]], head: str) -> Piece | None:
    """The first candidate piece whose text holds the 音義 head."""
    q = squeeze(head)
    if not q:
        return None
    for p, text in candidates:
        if q in text:
            return p
    if len(q) > 1:                        # a variant or a placeholder in a longer head
        for p, text in candidates:
            if find_all(text, q):
                return p
    return None


@dataclass(slots=True)
class SubQuote:
    """A quote of a 疏 paragraph that may be a sub-lemma: `“X”者` / `云“X”者` / `云“X”至“Y”`."""
    at: int                                # where it begins in the paragraph
    spans: list[tuple[int, int]]           # where its quote (or first … last) lies
    squeezed: list[str]                    # the quotes, squeezed once for every search

    def text(self, para: Para) -> list[str]:
        return [para.text[a:b] for a, b in self.spans]


def split_at(para: Para, cuts: list[tuple[SubQuote, Span]]) -> list[Para]:
    """The paragraph cut before each sub-lemma; each part from a sub-lemma on points at its span."""
    out, text = [], para.text
    if cuts[0][0].at > 0:
        out.append(Para(text[:cuts[0][0].at], para.pos))
    ends = [sq.at for sq, _ in cuts[1:]] + [len(text)]
    for (sq, span), end in zip(cuts, ends):
        at = sq.at
        sub = SubLemma([(a - at, b - at) for a, b in sq.spans], span.start, span.end)
        out.append(Para(text[at:end], shift(para.pos, at), sub))
    return out


def shift(pos: Pos, offset: int) -> Pos:
    return Pos(pos.line, pos.col + offset)
