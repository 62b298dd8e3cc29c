"""Pure text matching: a quote against a text, characters only (no model, no report).

The 注疏 readers use it to find what a 出文 lemma, a sub-lemma or a 音義 head quotes, and the
validator to check that a span agrees with the quotes that name it, by the same rules: lemma
quotes skip punctuation (傧进 = 傧，进), may differ from the text by one character (a variant or
an error: 令令野庐氏 for 令，令野卢氏), placeholders (? ┹ ▯ □) match any character, and a long
quote may be given loosely (an edit per eight characters, a closing 以下 / 云云).
"""
from __future__ import annotations

import re

from pipeline.chars import PLACEHOLDERS, PUNCTUATION, WHITESPACE

_SKIP = PUNCTUATION | WHITESPACE
_SOLID = re.compile("[^" + re.escape("".join(sorted(PLACEHOLDERS))) + "]+")   # quote minus placeholders
SKIP_RUN = re.compile("[" + re.escape("".join(sorted(_SKIP))) + "]+")
# A quote of this many characters or more may differ from the text in one (a variant, a
# misprint: 令令野庐氏 for 令，令野卢氏); a shorter one differing by one is any other word.
VARIANT_MIN = 3
# Of a quote's characters, at most one in WILD_SHARE may be matched by a placeholder of the text
# (or be one): a quote mostly standing on lost characters names nothing.
WILD_SHARE = 3
# A long quote given loosely may differ by one edit per LOOSE_PER characters (the 疏 quotes long
# passages with a character added, dropped or changed), from LOOSE_MIN characters on.
LOOSE_PER, LOOSE_MIN = 8, 6


def squeeze(s: str) -> str:
    """The characters that lemma matching compares: no punctuation, no whitespace."""
    return SKIP_RUN.sub("", s)


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
    allowed = 1 if n >= VARIANT_MIN else 0
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


def find_all_plain(hay: str, quote: str, lo: int = 0, hi: int | None = None,
                   fuzzy: bool = True) -> list[tuple[int, int]]:
    """find_all as it was written first: every candidate window verified one by one, with no
    exact-part or bit-mask filter; kept beside it for the tests to hold it to."""
    hi = len(hay) if hi is None else hi
    n = len(quote)
    if not n:
        return []
    exact = [(i, 0) for i in range(lo, hi - n + 1) if hay.startswith(quote, i)]
    if exact or not fuzzy:
        return exact
    allowed = 1 if n >= VARIANT_MIN else 0
    parts = [(quote[:n // 2], 0), (quote[n // 2:], n // 2)] if allowed else [(quote, 0)]
    if any(c in PLACEHOLDERS for c in quote):
        parts, run = [], ""
        for k, c in enumerate(quote + "?"):
            if c in PLACEHOLDERS:
                if run:
                    parts.append((run, k - len(run)))
                run = ""
            else:
                run += c
        if not parts:
            return [(s, 0) for s in range(lo, hi - n + 1)]
    cands = set()
    for part, shift in parts:
        for i in range(lo, hi - len(part) + 1):
            if part and hay.startswith(part, i):
                cands.add(i - shift)
    if any(ph in hay for ph in PLACEHOLDERS):
        for i in range(lo, hi):
            if hay[i] == quote[0] or hay[i] in PLACEHOLDERS:
                cands.add(i)
            if hay[i] == quote[-1] or hay[i] in PLACEHOLDERS:
                cands.add(i - n + 1)
    found = []
    for s in sorted(c for c in cands if lo <= c <= hi - n):
        bad = _mismatches(hay, s, quote, allowed, max(1, n // WILD_SHARE))
        if bad <= allowed:
            found.append((s, bad))
    return found


def _verified(hay: str, quote: str, starts, allowed: int) -> list[tuple[int, int]]:
    """The windows among `starts` that hold the quote, with their mismatches."""
    found = []
    wild_max = max(1, len(quote) // WILD_SHARE)
    for s in starts:
        bad = _mismatches(hay, s, quote, allowed, wild_max)
        if bad <= allowed:
            found.append((s, bad))
    return found


def _fuzzy_over_placeholders(hay: str, quote: str, lo: int, hi: int,
                             parts: list[tuple[str, int]], allowed: int) -> list[tuple[int, int]]:
    """find_all's fuzzy search in a text with placeholders. The windows it verifies are those
    where a part of the quote occurs exactly, or that agree with the quote at one of their ends
    (or hold a placeholder there). Where placeholders are dense (an e-text that prints its lost
    characters as ? or ┹ throughout: most windows hold one) that is nearly every window; so the
    windows are first filtered bit-parallel, all at once: bit s of `fit` says window s differs
    from the quote in at most `allowed` characters, placeholders aside, which any window that
    holds the quote does. Only the few that pass are tested for being one of those
    candidates, then verified as before."""
    n = len(quote)
    if hi - n < lo:
        return []
    masks: dict[str, int] = {}             # each character of the quote → where hay holds it
    wild = _placeholder_mask(hay)
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


def _placeholder_mask(hay: str) -> int:
    """Bit i set where hay[i] is a placeholder."""
    wild = 0
    for ph in PLACEHOLDERS:
        wild |= _positions_mask(hay, ph)
    return wild


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
    return bad <= (1 if len(q) >= VARIANT_MIN else 0)


ABBREVIATED = ("以下", "已下", "云云")


def loose_tolerance(n: int) -> int:
    """Edits a long quote may differ by: the 疏 quotes long passages loosely."""
    return max(1, n // LOOSE_PER)


def prefix_distances(q: str, t: str, cap: int) -> list[int]:
    """d[m] = edit distance between q and t[:m] (placeholders match anything); anything over cap
    reads cap + 1."""
    if not q:
        return [j if j <= cap else cap + 1 for j in range(len(t) + 1)]
    return BitPattern(q).distances(t, cap)


def prefix_distances_plain(q: str, t: str, cap: int) -> list[int]:
    """prefix_distances by the textbook table, one row per character of q (over cap reads cap +
    1): what BitPattern computes bit-parallel (one of the speed-ups that took the convert from
    5.1 to 8.8 MB/s, docs/performance.md), kept beside it for the tests to hold it to."""
    over = cap + 1
    prev = [min(j, over) for j in range(len(t) + 1)]
    for i in range(1, len(q) + 1):
        cur = [min(i, over)] + [over] * len(t)
        for j in range(1, len(t) + 1):
            a, b = q[i - 1], t[j - 1]
            same = a == b or a in PLACEHOLDERS or b in PLACEHOLDERS
            cur[j] = min(prev[j - 1] + (0 if same else 1), prev[j] + 1, cur[j - 1] + 1, over)
        prev = cur
    return prev


class BitPattern:
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
        allowed = 1 if len(whole) >= VARIANT_MIN else 0
        if _mismatches(t, 0, whole, allowed, max(1, len(whole) // WILD_SHARE)) <= allowed:
            return True
    q = loose_quote(quotes[0])
    if not q:
        return False
    tol = loose_tolerance(len(q))
    return edit_distance(q, t, tol) <= tol
