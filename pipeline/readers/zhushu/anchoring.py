"""Find the text a 出文 lemma or a 音義 head names, and point at it.

Lemma quotes skip punctuation (傧进 = 傧，进), may differ from the text by one character (a variant or
an error: 令令野庐氏 for 令，令野卢氏), and placeholders (? ┹ ▯ □) match any character. A span that
starts or ends inside a piece gets an anchor there; a span that covers whole pieces points at them.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from itertools import accumulate

from pipeline.chars import (PLACEHOLDERS, PUNCTUATION, Q_CLOSE, Q_OPEN, QUOTE_MARKS, WHITESPACE,
                            without)
from pipeline.model import JING, ZHU, Para, Piece, Pointable, Pos, Shu, SubLemma, Unit
from pipeline.readers.zhushu import bare_quotes
from pipeline.readers.zhushu.shu import SubQuotes
from pipeline.report import Report

_SKIP = PUNCTUATION | WHITESPACE
_SOLID = re.compile("[^" + re.escape("".join(sorted(PLACEHOLDERS))) + "]+")   # quote minus placeholders
_SKIP_RUN = re.compile("[" + re.escape("".join(sorted(_SKIP))) + "]+")
_SKIP_SPLIT = re.compile("(" + _SKIP_RUN.pattern + ")")      # split keeps the skipped runs
_SKIP_CHARS = "".join(sorted(_SKIP))
_LONG = 200                     # from this length on, a replace per character beats the regex


def squeeze(s: str) -> str:
    """The characters that lemma matching compares: no punctuation, no whitespace."""
    # Most quotes are letters only, which no skipped character is (a test holds it): then there
    # is nothing to remove, and isalpha says so at a fraction of the substitution's cost. A long
    # text (a line, a long 疏 or 注) loses its few kinds of punctuation faster by str.replace.
    if s.isalpha():
        return s
    return _SKIP_RUN.sub("", s) if len(s) < _LONG else without(s, _SKIP_CHARS)


def squeezed(p: Piece) -> str:
    """squeeze(p.text)."""
    return squeeze(p.text)


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
            q = squeezed(p)
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


def _same(a: str, b: str) -> bool:
    return a == b or a in PLACEHOLDERS or b in PLACEHOLDERS


def find_all(hay: str, quote: str, lo: int = 0, hi: int | None = None,
             fuzzy: bool = True) -> list[tuple[int, int]]:
    """Occurrences of `quote` in hay[lo:hi] as (start, mismatches): exact ones, or, when there
    are none and `fuzzy`, ones where placeholders stand in or a single character differs
    (quotes of three or more characters)."""
    hi = len(hay) if hi is None else hi
    n = len(quote)
    if not n:
        return []
    exact, i = [], hay.find(quote, lo, hi)
    while i != -1:
        exact.append((i, 0))
        i = hay.find(quote, i + 1, hi)
    if exact or not fuzzy:
        return exact
    allowed = 1 if n >= 3 else 0
    # Only windows that can match are verified: ones where a placeholder of the text falls,
    # and ones where a piece of the quote occurs exactly. With one difference allowed, one half
    # of the quote occurs exactly; placeholders in the quote cut it into further pieces.
    parts = [(quote[:n // 2], 0), (quote[n // 2:], n // 2)] if allowed else [(quote, 0)]
    if any(c in PLACEHOLDERS for c in quote):
        parts = [(m.group(), m.start()) for m in _SOLID.finditer(quote)]
        if not parts:
            return [(s, 0) for s in range(lo, hi - n + 1)]
    if any(ph in hay for ph in PLACEHOLDERS):
        return _fuzzy_over_placeholders(hay, quote, lo, hi, parts, allowed)
    cands: set[int] = set()
    for part, shift in parts:
        if not part:
            continue
        i = hay.find(part, lo, hi)
        while i != -1:
            cands.add(i - shift)
            i = hay.find(part, i + 1, hi)
    return _verified(hay, quote, sorted(c for c in cands if lo <= c <= hi - n), allowed)


def _verified(hay: str, quote: str, starts, allowed: int) -> list[tuple[int, int]]:
    """The windows among `starts` that hold the quote, with their mismatches."""
    found = []
    wild_max = max(1, len(quote) // 3)     # placeholders may stand in, but not for most of it
    for s in starts:
        bad = _mismatches(hay, s, quote, allowed, wild_max)
        if bad <= allowed:
            found.append((s, bad))
    return found


def _fuzzy_over_placeholders(hay: str, quote: str, lo: int, hi: int,
                             parts: list[tuple[str, int]], allowed: int) -> list[tuple[int, int]]:
    """find_all's fuzzy search in a text with placeholders. The windows it verifies are those
    where a part of the quote occurs exactly, or that agree with the quote at one of their ends
    (or hold a placeholder there). Where placeholders are dense (seed 004: most windows hold
    one) that is nearly every window; so the windows are first filtered bit-parallel, all at
    once: bit s of `fit` says window s differs from the quote in at most `allowed` characters,
    placeholders aside, which any window that holds the quote does. Only the few that pass
    are tested for being one of those candidates, then verified as before."""
    n = len(quote)
    if hi - n < lo:
        return []
    masks = _char_masks(hay)
    wild = masks.get(_WILD, 0)
    exact, fit = -1, -1                    # windows that differ nowhere / in at most one place
    for i, c in enumerate(quote):
        if c in PLACEHOLDERS:
            continue
        m = masks.get(c)
        if m is None:
            m = masks[c] = _positions_mask(hay, c)
        agree = (m | wild) >> i            # bit s: window s agrees with the quote at i
        fit = (fit & agree) | exact if allowed else exact & agree
        exact &= agree
        if not fit:
            return []
    fit = (fit >> lo) & ((1 << (hi - n - lo + 1)) - 1)
    ends = ({quote[0]} | PLACEHOLDERS, {quote[-1]} | PLACEHOLDERS)
    starts = []
    while fit:
        low = fit & -fit
        fit ^= low
        s = lo + low.bit_length() - 1
        if hay[s] in ends[0] or hay[s + n - 1] in ends[1] or \
                any(part and hay.startswith(part, s + shift) for part, shift in parts):
            starts.append(s)
    return _verified(hay, quote, starts, allowed)


_WILD = ""                                 # _char_masks' key for the placeholders' mask


def _char_masks(hay: str) -> dict[str, int]:
    """Bit masks of where characters occur in `hay` (filled in as they are asked for), starting
    with the placeholders'."""
    wild = 0
    for ph in PLACEHOLDERS:
        wild |= _positions_mask(hay, ph)
    return {_WILD: wild}


def _positions_mask(hay: str, c: str) -> int:
    """Bit i set where hay[i] == c."""
    mask, i = 0, hay.find(c)
    while i != -1:
        mask |= 1 << i
        i = hay.find(c, i + 1)
    return mask


def _mismatches(hay: str, s: int, quote: str, allowed: int, wild_max: int) -> int:
    """Characters where hay[s:] and quote differ, placeholders aside; allowed + 1 as soon as
    there are more, or as soon as placeholders stand in for more than wild_max of them (most
    windows fail within a few characters)."""
    bad = wild = 0
    for k in range(len(quote)):
        a, b = hay[s + k], quote[k]
        if a == b:
            continue
        if a in PLACEHOLDERS or b in PLACEHOLDERS:
            wild += 1
            if wild > wild_max:
                return allowed + 1
            continue
        bad += 1
        if bad > allowed:
            return bad
    return bad


def matches(text: str, quote: str, where: str, squeezed: bool = False) -> bool:
    """Does `text` start (where='start'), end ('end') with or contain ('anywhere') `quote`,
    punctuation ignored, tolerating one differing character in quotes of three or more?
    For the validator; `squeezed` says `text` is already without punctuation."""
    t, q = (text if squeezed else squeeze(text)), squeeze(quote)
    if len(t) < len(q):
        return False
    if where == "anywhere":
        return q in t or bool(find_all(t, q, fuzzy=len(q) > 1))
    t = t[: len(q)] if where == "start" else t[len(t) - len(q):]
    bad = sum(1 for a, b in zip(t, q) if not _same(a, b))
    return bad <= (1 if len(q) >= 3 else 0)


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
            return _span(stream, s, s + len(qs[0]) - 1)
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
        return _span(stream, s, s + len(qs[0]) - 1, bad)
    starts.sort(key=order)
    for s, bad in starts:
        ends = [(e + len(qs[-1]) - 1, b) for e, b in find_all(stream.chars, qs[-1], s, hi, fuzzy)]
        ends = [e for e in ends if e[0] >= s + len(qs[0]) - 1]
        if not ends:
            continue
        fitting = [e for e in ends if at_piece_end(e[0])] or ends
        e_last, bad_end = fitting[-1] if reach == "far" else fitting[0]
        return _span(stream, s, e_last, bad + bad_end)
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


ABBREVIATED = ("以下", "已下", "云云")


def loose_tolerance(n: int) -> int:
    """Edits a long quote may differ by: the 疏 quotes long passages loosely."""
    return max(1, n // 8)


def prefix_distances(q: str, t: str, cap: int) -> list[int]:
    """d[m] = edit distance between q and t[:m] (placeholders match anything); anything over cap
    reads cap + 1."""
    if not q:
        return [j if j <= cap else cap + 1 for j in range(len(t) + 1)]
    return _BitPattern(q).distances(t, cap)


class _BitPattern:
    """A quote prepared for prefix_distances, once for the many windows a loose search tries.

    Bit-parallel (Myers 1999, in Hyyrö's form for a distance from the start of both strings):
    bit i of the vectors holds the change in distance from row i to row i + 1 of the usual
    table, so each character of t costs a dozen integer operations instead of a row of cells.
    """
    __slots__ = ("n", "wild", "eq")

    def __init__(self, q: str):
        self.n = len(q)
        self.wild = 0                          # the positions of q that are placeholders
        positions: dict[str, int] = {}         # each other character's positions in q
        for i, c in enumerate(q):
            if c in PLACEHOLDERS:
                self.wild |= 1 << i
            else:
                positions[c] = positions.get(c, 0) | (1 << i)
        # where each character of a text matches q, placeholders included: one look-up a
        # character (a character q lacks matches at q's placeholders only)
        self.eq = {c: m | self.wild for c, m in positions.items()}
        self.eq.update(dict.fromkeys(PLACEHOLDERS, (1 << self.n) - 1))

    def distances(self, t: str, cap: int) -> list[int]:
        n, wild, eqs, over = self.n, self.wild, self.eq, cap + 1
        mask, high = (1 << n) - 1, 1 << (n - 1)
        pv, mv, score = mask, 0, n             # column 0: the distance grows by one each row
        out = [n if n <= cap else over]
        # The distance drops by at most one a column: once score - (columns left) > cap, every
        # later one is over cap too (a window that does not hold the quote: most of those a
        # loose search tries), and the rest need not be computed.
        left = cap + len(t)                    # score + j > left: column j and the rest are over
        for j, c in enumerate(t, 1):
            eq = eqs.get(c, wild)
            xv = eq | mv
            xh = (((eq & pv) + pv) ^ pv) | eq
            # x ^ mask for ~x & mask: the carry bit n it may keep is shifted out below
            ph = mv | ((xh | pv) ^ mask)
            mh = pv & xh
            if ph & high:
                score += 1
            elif mh & high:
                score -= 1
            ph = ((ph << 1) | 1) & mask        # row 0 grows by one each column: shift in a 1
            mh = (mh << 1) & mask
            pv = mh | ((xv | ph) ^ mask)
            mv = ph & xv
            if score + j > left:
                out += [over] * (len(t) - j + 1)
                break
            out.append(score if score <= cap else over)
        return out


def edit_distance(a: str, b: str, cap: int) -> int:
    """Levenshtein distance (placeholders match anything), or cap + 1 once it exceeds cap."""
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    return prefix_distances(a, b, cap)[len(b)]


def loose_quote(quote: str) -> str:
    """The characters a loose quote must match: squeezed, without a closing 以下 / 云云."""
    q = squeeze(quote)
    return q[:-2] if q.endswith(ABBREVIATED) else q


def locate_loose(stream: Stream, q: str, lo: int = 0, hi: int | None = None) -> Span | None:
    """A long quote given loosely (a character left out, added or changed): the span near an
    occurrence of its first characters whose text is closest to it, if within tolerance.
    `q` is the quote as loose_quote gives it."""
    n = len(q)
    if n < 6:
        return None
    k = 3 if n < 10 else 4
    tol = loose_tolerance(n)
    hi = len(stream.chars) if hi is None else hi
    chars = stream.chars
    pattern = _BitPattern(q)
    tried: dict[int, list[int]] = {}        # start → distances: the offsets find the same starts
    for off in (0, 1, 2):
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
                return _span(stream, s0, e, max(1, d))
    return None


def agrees(text: str, quotes: list[str]) -> bool:
    """Does the text of a span agree with the quotes that name it? Whatever the resolver can
    find agrees: a first … last pair at its edges, one differing character each; one quote
    as the whole text, placeholders standing in and one character differing (as find_all
    matches it), or — a long quote — within loose tolerance (a closing 以下 / 云云 not counted)."""
    t = squeeze(text)
    if len(quotes) > 1:
        return matches(t, quotes[0], "start", squeezed=True) and \
            matches(t, quotes[-1], "end", squeezed=True)
    whole = squeeze(quotes[0])
    if whole == t:                              # the usual case, before any arithmetic
        return True
    if whole and len(whole) == len(t):
        allowed = 1 if len(whole) >= 3 else 0
        if _mismatches(t, 0, whole, allowed, max(1, len(whole) // 3)) <= allowed:
            return True
    q = loose_quote(quotes[0])
    if not q:
        return False
    tol = loose_tolerance(len(q))
    return edit_distance(q, t, tol) <= tol


def _span(stream: Stream, first: int, last: int, mismatches: int = 0) -> Span:
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
    return [(p, squeezed(p)) for p in reversed(pieces) if p.layer == JING] + \
           [(p, squeezed(p)) for p in reversed(pieces) if p.layer == ZHU]


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


def resolve_group(units: list[Unit], shus: list[Shu], report: Report, lemmas: bool = True,
                  bare: bool = False) -> None:
    """Point each 疏 of a group at the span its 出文 names in the group's units.

    Lemmas are taken in order: each one's start lies after the previous start of the same layer,
    and a 經 lemma reaches as far as it can before the next 經 lemma begins. `bare`: the 疏 are
    unpunctuated (the 四庫's); one with no 出文 is anchored by its `X者` quotes (_by_quotes).
    """
    pieces = [p for u in units for p in u.pieces]
    streams: dict[str, Stream] = {}

    def stream(layer: str) -> Stream:
        if layer not in streams:
            streams[layer] = Stream.of([p for p in pieces if p.layer == layer])
        return streams[layer]

    lo = {JING: 0, ZHU: 0}
    with_lemma = [s for s in shus if s.chuwen]
    squeezed_quotes = [[squeeze(q) for q in s.chuwen.quotes] for s in with_lemma]
    for i, shu in enumerate(with_lemma):
        cw, qs = shu.chuwen, squeezed_quotes[i]
        layers = [cw.layer, ZHU if cw.layer == JING else JING]
        span = None
        for layer, fuzzy in ((layers[0], False), (layers[1], False), (layers[0], True), (layers[1], True)):
            st = stream(layer)
            reach = "far" if layer == JING else "near"
            span = locate(st, qs, lo[layer], reach=reach, fuzzy=fuzzy)
            if span is None:
                continue
            later = range(i + 1, len(with_lemma))
            nxt = next((k for k in later if with_lemma[k].chuwen.layer == layer), None)
            if nxt is not None:
                nstarts = [s for s, _ in find_all(st.chars, squeezed_quotes[nxt][0], span.first + 1)]
                if nstarts and nstarts[0] <= span.last:
                    bounded = locate(st, qs, lo[layer], nstarts[0], reach=reach, fuzzy=fuzzy)
                    span = bounded or span
            lo[layer] = span.first + 1
            if layer != cw.layer:
                report.warn("ZS-CONV-LEMMA-LAYER",
                            f"出文 {_show(cw)} names the {_LAYER_NAME[cw.layer]} but matches the "
                            f"{_LAYER_NAME[layer]}", cw.pos)
            break
        if span is None:
            report.warn("ZS-CONV-LEMMA", f"出文 {_show(cw)} not found in the preceding 經 or 注; "
                        "the 疏 is kept without a target", cw.pos)
            continue
        shu.target, shu.target_end = span.start, span.end
        conf = 1.0 if span.mismatches == 0 else 0.8
        report.boundary("shu-target", "lemma", conf, cw.pos,
                        f"{_show(cw)}" + (f" ({span.mismatches} differing)" if span.mismatches else ""))
    for shu in with_lemma:
        _sublemmas(shu, stream, report)
    jing = [p for p in pieces if p.layer == JING]
    if bare and pieces:
        shus[:] = _by_quotes(shus, stream, report)
    for shu in shus:
        if shu.chuwen is None and not shu.detached and shu.target is None and jing:
            shu.target, shu.target_end = jing[0], (jing[-1] if len(jing) > 1 else None)
            if lemmas:
                report.warn("ZS-CONV-NOLEMMA", "疏 without a 出文 lemma; attached to the preceding 經",
                            shu.pos)
            else:       # an edition that prints none (the 四庫's): the 疏 follows what it explains
                report.boundary("shu-target", "position", 0.5, shu.pos,
                                "no 出文 printed" + (", no quote found" if bare else ""))


_LAYER_NAME = {JING: "經", ZHU: "注"}

# A sub-lemma opens a paragraph (“X”者) or follows 云 (云“X”者, 云“X”至“Y”); 「」 quote as “” do.
_SUB = SubQuotes(Q_OPEN + r"(?P<q1>[^" + QUOTE_MARKS + r"]{1,80})" + Q_CLOSE +
                 r"(?:至" + Q_OPEN + r"(?P<q2>[^" + QUOTE_MARKS + r"]{1,80})" + Q_CLOSE + r")?(?P<zhe>者)?")


@dataclass(slots=True)
class SubQuote:
    """A quote of a 疏 paragraph that may be a sub-lemma: `“X”者` / `云“X”者` / `云“X”至“Y”`."""
    at: int                                # where it begins in the paragraph
    spans: list[tuple[int, int]]           # where its quote (or first … last) lies
    squeezed: list[str]                    # the quotes, squeezed once for every search

    def text(self, para: Para) -> list[str]:
        return [para.text[a:b] for a, b in self.spans]


def sub_quotes(para: Para) -> list[SubQuote]:
    """The paragraph's quotes that have a 者 or a second quote (others quote some other text):
    the segmenter takes 經 and 注 phrases from them, the resolver points them."""
    return [_sub_quote(m) for m in _SUB.finditer(para.text) if m.group("zhe") or m.group("q2")]


def _sub_quote(m: re.Match) -> SubQuote:
    q1, q2 = m.group("q1", "q2")
    if q2:
        return SubQuote(m.start(), [m.span("q1"), m.span("q2")], [squeeze(q1), squeeze(q2)])
    return SubQuote(m.start(), [m.span("q1")], [squeeze(q1)])


# The searches a sub-lemma goes through, in order, for each layer of its section first: exact
# in either layer, then with one differing character.
_SUB_PASSES = {layer: ((layer, False), (other, False), (layer, True), (other, True))
               for layer, other in ((JING, ZHU), (ZHU, JING))}


def _sublemmas(shu: Shu, stream, report: Report) -> None:
    """Split a 疏 section's paragraphs at each sub-lemma that names a span of its group, and
    point each at that span. Sub-lemmas are taken in order, like the lemmas."""
    passes = _SUB_PASSES[shu.chuwen.layer]
    lo = {JING: 0, ZHU: 0}
    paras: list[Para] = []
    for para in shu.paras:
        cuts: list[tuple[SubQuote, Span]] = []
        quotes = sub_quotes(para)
        for sq in quotes:
            span = _sub_span(para, sq, passes, lo, stream)
            if span is not None:
                cuts.append((sq, span))
            elif sq.at == 0:                    # ○“X”者 opening a sub-section: surely a lemma
                report.warn("ZS-CONV-SUBLEMMA", f"sub-lemma “{'”至“'.join(sq.text(para))}” not found in "
                            "the 經 or 注 of its group; left as text", _shift(para.pos, sq.at))
        if cuts:
            paras += _split_at(para, cuts)
        else:
            paras.append(para)
    shu.paras = paras


def _sub_span(para: Para, sq: SubQuote, passes, lo: dict[str, int], stream) -> Span | None:
    """The span a sub-lemma names, searched from the previous sub-lemma of each layer on (exact,
    then one differing character, then loosely), moving that layer's start past it."""
    qs = sq.squeezed
    for lay, fuzzy in passes:
        span = locate(stream(lay), qs, lo[lay], None, "near", fuzzy)
        if span is not None:
            lo[lay] = span.first + 1
            return span
    if len(qs) > 1:
        return None
    a, b = sq.spans[0]
    q = loose_quote(para.text[a:b])
    for lay, _ in passes[:2]:
        span = locate_loose(stream(lay), q, lo[lay])
        if span is not None:
            lo[lay] = span.first + 1
            return span
    return None


def _split_at(para: Para, cuts: list[tuple[SubQuote, Span]]) -> list[Para]:
    """The paragraph cut before each sub-lemma; each part from a sub-lemma on points at its span."""
    out, text = [], para.text
    if cuts[0][0].at > 0:
        out.append(Para(text[:cuts[0][0].at], para.pos))
    ends = [sq.at for sq, _ in cuts[1:]] + [len(text)]
    for (sq, span), end in zip(cuts, ends):
        at = sq.at
        sub = SubLemma([(a - at, b - at) for a, b in sq.spans], span.start, span.end)
        out.append(Para(text[at:end], _shift(para.pos, at), sub))
    return out


def _shift(pos: Pos, offset: int) -> Pos:
    return Pos(pos.line, pos.col + offset)


def _show(cw) -> str:
    return "".join(t.text for t in cw.tokens)


def _by_quotes(shus: list[Shu], stream, report: Report) -> list[Shu]:
    """The 疏 of an unpunctuated edition with no 出文 (the 四庫 注疏), anchored by their quotes
    (bare_quotes.py). A section turns to the 注 at 注正義曰 / 注釋曰: from there on it is a section
    of its own, which explains the 注 (marked neither 疏 nor by a lemma: the edition prints the
    two parts as one note). The 經 part points from its first quoted clause to its last, the 注
    part from its first `云X者` to its last, and each quote is a sub-lemma pointing at exactly
    the characters it quotes. A part with no quote found keeps no target (the caller attaches
    it by position)."""
    out: list[Shu] = []
    for shu in shus:
        if shu.chuwen is not None or shu.detached:
            out.append(shu)
            continue
        for part, layer in _parts(shu):
            _anchor_part(part, layer, stream, report)
            out.append(part)
    return out


def _parts(shu: Shu) -> list[tuple[Shu, str]]:
    """The section's 經 part and, from 注正義曰 / 注釋曰 on, its 注 part."""
    for i, para in enumerate(shu.paras):
        m = bare_quotes.ZHU_PART.search(para.text)
        if m is None:
            continue
        head, tail = shu.paras[:i], shu.paras[i + 1:]
        if m.start():
            head = head + [Para(para.text[:m.start()], para.pos)]
        zhu = Para(para.text[m.start():], _shift(para.pos, m.start()))
        if not head:
            return [(shu, ZHU)]
        jing_part = Shu(None, head, shu.pos, mark=shu.mark, resp=shu.resp)
        zhu_part = Shu(None, [zhu] + tail, zhu.pos, resp=shu.resp)
        return [(jing_part, JING), (zhu_part, ZHU)]
    return [(shu, JING)]


def _anchor_part(shu: Shu, layer: str, stream, report: Report) -> None:
    """One part of a 疏 section, anchored by the first of: its quotes of its own layer, the
    words of it it repeats, its quotes of the other layer (the 經 part quoting the 注, the 注
    part the 經), its two-character quotes where its phrasing marks them (own layer first),
    the other layer's words, its X者 quotes with a variant character."""
    texts = [p.text for p in shu.paras]
    st = stream(layer)
    if st.chars:
        index = bare_quotes.TextIndex(st.chars)
        found = bare_quotes.find(texts, index, (layer,), disjoint=True)
        if found:
            _point(shu, found, st, report, f"{'云X者' if layer == ZHU else 'X者'} quote", CONF_QUOTE)
            return
        if _by_words(shu, layer, st, index, report):
            return
    other = ZHU if layer == JING else JING
    ot = stream(other)
    other_index = bare_quotes.TextIndex(ot.chars) if ot.chars else None
    if other_index is not None:
        found = bare_quotes.find(texts, other_index, (other,), disjoint=True, across=True)
        if found:
            _point(shu, found, ot, report, "X者 quote", CONF_ACROSS, f" of the {_LAYER_NAME[other]}")
            return
    for lay, s in ((layer, st), (other, ot)):
        found = bare_quotes.find_short(texts, s.chars, lay)
        if found:
            _point(shu, found, s, report, "two-character quote", CONF_SHORT,
                   "" if lay == layer else f" of the {_LAYER_NAME[lay]}")
            return
    if other_index is not None and _by_words(shu, other, ot, other_index, report, MIN_WORDS_ACROSS, _NAMED):
        return
    for lay, s in ((layer, st), (other, ot)):
        found = bare_quotes.find_variant(texts, s.chars, lay)
        if found:
            _point(shu, found, s, report, "X者 quote", CONF_VARIANT,
                   " with a differing character" + ("" if lay == layer else f", of the {_LAYER_NAME[lay]}"))
            return


def _point(shu: Shu, found: list, st: Stream, report: Report, what: str, conf: float,
           where: str = "") -> None:
    """The part points from its first quote to its last, and each quote is a sub-lemma on
    exactly the characters it quotes."""
    first, last = found[0], found[-1]
    span = _span(st, first.start, last.stop - 1)
    shu.target, shu.target_end = span.start, span.end
    report.boundary("shu-target", "quote", conf, shu.pos,
                    f"{len(found)} {what}" + ("s" if len(found) > 1 else "") + where)
    by_para: dict[int, list[tuple[SubQuote, Span]]] = {}
    for f in found:
        spans = [(f.at, f.inner[0]), (f.inner[1], f.end)] if f.inner else [(f.at, f.end)]
        text = shu.paras[f.para].text
        sq = SubQuote(f.at, spans, [text[a:b] for a, b in spans])
        by_para.setdefault(f.para, []).append((sq, _span(st, f.start, f.stop - 1)))
    paras: list[Para] = []
    for i, para in enumerate(shu.paras):
        paras += _split_at(para, by_para[i]) if i in by_para else [para]
    shu.paras = paras


CONF_QUOTE = 0.9        # the 疏 quotes the clause; a quote of three characters may be chance
CONF_WORDS = 0.6        # the 疏 uses the text's words, unmarked: they are what it explains
CONF_ACROSS = 0.8       # the 經 part quoting the 注 (or the 注 part the 經): it explains that
CONF_SHORT = 0.7        # two characters, in a quote's frame (云XX者): a word of the text
CONF_VARIANT = 0.6      # X者 with one character of X differing: a variant, or a paraphrase
# The fewest characters of the text a 疏 with no `X者` must repeat to be anchored by them: the
# 疏 of a short passage says its words (釋曰衽於奥主於婦席…, 言彌略者), often only a word or two
# of it (卿大夫, 不言一); the shortest a quote may be (bare_quotes.MIN_QUOTE), looked for only in
# the text of the group the 疏 follows. Four would leave a quarter more of the 儀禮 疏 to position.
MIN_WORDS = bare_quotes.MIN_QUOTE
# The other layer's words (the 經 part saying the 注's): five characters, or three after the
# name of whose words they are (鄭云, 注云, 經云): four and three unnamed are often words both
# layers use (天子之臣), or a third text both quote (其職云掌盜賊之…).
MIN_WORDS_ACROSS = 5
_NAMED = re.compile("[鄭注經]云")


def _by_words(shu: Shu, layer: str, st: Stream, index, report: Report, least: int = MIN_WORDS,
              named: re.Pattern | None = None) -> bool:
    """A part with no `X者` quote, anchored by the longest run of its text that `layer` of the
    group holds (the 疏 saying the words of what it explains), `least` characters or more, or
    MIN_WORDS where `named` says whose words they are (鄭云X); the boundary's note quotes them.
    With none long enough, the part keeps no target."""
    best = None
    for para in shu.paras:
        hit = index.longest_common(para.text)
        if hit is not None and hit[2] >= least and (best is None or hit[2] > best[2]):
            best = hit
        for m in named.finditer(para.text) if named is not None else ():
            at = index.longest_at(para.text, m.end())
            if at is not None and at[1] >= MIN_WORDS and (best is None or at[1] > best[2]):
                best = (m.end(), *at)
    if best is None or best[2] < MIN_WORDS:
        return False
    _, at, n = best
    span = _span(st, at, at + n - 1)
    shu.target, shu.target_end = span.start, span.end
    report.boundary("shu-target", "quote", CONF_WORDS, shu.pos,
                    f"the {_LAYER_NAME[layer]}'s words, unmarked: “{st.chars[at:at + n]}”")
    return True
