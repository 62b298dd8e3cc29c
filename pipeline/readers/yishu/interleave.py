"""Originals interleaved with a modern translation, page by page.

A run of N original lines is followed by N translated lines, the first beginning with 译.
This module finds the runs, pairs each translated line with its original, and notices what
goes wrong in real files: runs whose counts differ, "translations" that are near-copies of
the original, furniture printed again inside a translation run.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

TR_MARKS = ("译", "譯")                # the simplified and the traditional form


def tr_mark(line: str) -> str:
    """The 译 a translation line opens with, or ''."""
    return line[0] if line.startswith(TR_MARKS) else ""
# Modern vernacular Chinese by its grammar, not its vocabulary: the function words and
# particles of 白話 that 文言 does not use — the structural particle 的, the aspect particles 了
# and 着, the sentence particles 吗 呢 吧, the plural 们, the pronouns 它 她 他们 我们 你们, the
# demonstratives and question words 这 那 哪 什么 怎么 (么), the negation 没有, and the
# two-character conjunctions, prepositions and modal words of modern prose. A translation has
# them whatever it speaks of; a word of content (报告, 解释) says nothing of the register.
_MODERN = re.compile(r"[的了们这那么吗呢吧着它她哪]|没有|他们|我们|你们|"
                     r"因为|所以|如果|但是|可是|而且|虽然|或者|还是|并且|于是|以及|"
                     r"对于|关于|通过|由于|已经|就是|就会|可以|能够|应该|一定")
# A line reads as modern at one such word in 50 characters: half the rate of the sparsest tenth
# of the translated lines of the bilingual 禮記義疏 edition (3.8 %; their median 7.6 %), while a
# classical line meets one only by a stray character (那, 了) in a long sentence.
MODERN_SHARE = 0.02
_SKIP = re.compile(r"[\s，。、；：？！“”‘’「」『』《》（）()【】〈〉]")
# Likeness (similarity) of a translated line and an original. A translation keeps many of the
# original's characters (in the bilingual 禮記義疏 edition: median 0.67, the weakest pairs
# 0.25–0.35); a "translation" at 0.8 or more is a copy (曰 turned 说), marked as one; a
# classical line in a translation run at 0.6 or more copies an original of the run (unrelated
# lines of a run stay at 0.51 or less).
COPY_RATIO = 0.8
NEAR_COPY = 0.6
# The alignment of a run whose counts differ (_pair): a line left unpaired costs about what the
# weakest real pairs score, so a line is skipped only where that lines the others up better; a
# translated line standing for two originals scores their mean less a little, so that at equal
# likeness one to one wins.
UNPAIRED = -0.3
TWO_FOR_ONE = -0.05


@dataclass
class Layout:
    translation: dict[int, int | None] = field(default_factory=dict)   # line → original line
    copies: list[tuple[int, int, float]] = field(default_factory=list)  # (line, original, ratio)
    mismatches: list[tuple[list[int], list[int]]] = field(default_factory=list)
    runs: list[tuple[list[int], list[int]]] = field(default_factory=list)
    # runs whose translated lines largely repeat their originals: (originals, translations, mean
    # likeness of their pairs, at least COPY_RATIO)
    copied_runs: list[tuple[list[int], list[int], float]] = field(default_factory=list)

    def is_translation(self, line: int) -> bool:
        return line in self.translation


def modern(text: str) -> bool:
    """Does a line read as modern Chinese?"""
    return _modern_body(_SKIP.sub("", text))


def _modern_body(body: str) -> bool:
    """modern() of a line already without punctuation: modern words make at least MODERN_SHARE
    of it."""
    return bool(body) and len(_MODERN.findall(body)) / len(body) >= MODERN_SHARE


def similarity(a: str, b: str) -> float:
    """How alike two lines are: the share of characters they have in common, punctuation aside
    and 说 read as 曰 (the copies do that). On these texts it tracks difflib's ratio to within a
    few hundredths, at a fraction of the cost."""
    return _shared(_letters(_SKIP.sub("", a)), _letters(_SKIP.sub("", b)))


def _letters(body: str) -> tuple[int, Counter]:
    """What similarity compares of a line without punctuation: its length and its characters."""
    return len(body), Counter(body.replace("说", "曰"))


def _shared(a: tuple[int, Counter], b: tuple[int, Counter]) -> float:
    (na, ca), (nb, cb) = a, b
    if not na or not nb:
        return 0.0
    # the characters the two lines share: their counts' multiset intersection
    return _ratio(sum((ca & cb).values()), na, nb)


def _ratio(common: int, na: int, nb: int) -> float:
    """The likeness of two lines of na and nb characters (both some) that share `common`. The
    bound from lengths alone (_Likeness.bound) is the same formula with the shorter length for
    `common`, so a bound below a threshold rules the exact value out too."""
    return 2 * common / (na + nb)


class _Likeness:
    """similarity between lines of one file (by index), each line's characters counted once: a
    line in a translation run is compared with every original of its run.

    Counting characters is the costly part, and most questions are thresholds (is it a copy?):
    two lines share at most the characters of the shorter, so their lengths alone bound the
    likeness, and a bound below the threshold settles the question without counting."""

    def __init__(self, text: list[str]):
        self.text = text
        self._bodies: dict[int, str] = {}
        self._letters: dict[int, tuple[int, Counter]] = {}
        self._pairs: dict[tuple[int, int], float] = {}     # a pair is asked about several times

    def __call__(self, i: int, j: int) -> float:
        got = self._pairs.get((i, j))
        if got is None:
            got = self._pairs[i, j] = _shared(self.letters(i), self.letters(j))
        return got

    def matrix(self, rows: list[int], cols: list[int]) -> list[list[float]]:
        """The likeness of every line of `rows` with every line of `cols`."""
        return [[self(i, j) for j in cols] for i in rows]

    def body(self, i: int) -> str:
        """Line i without punctuation."""
        got = self._bodies.get(i)
        if got is None:
            got = self._bodies[i] = _SKIP.sub("", self.text[i])
        return got

    def letters(self, i: int) -> tuple[int, Counter]:
        got = self._letters.get(i)
        if got is None:
            got = self._letters[i] = _letters(self.body(i))
        return got

    def modern(self, i: int) -> bool:
        return _modern_body(self.body(i))

    def bound(self, i: int, j: int) -> float:
        """The most the likeness of lines i and j can be, from their lengths."""
        na, nb = len(self.body(i)), len(self.body(j))
        return 2 * min(na, nb) / (na + nb) if na and nb else 0.0

    def reaching(self, i: int, j: int, ratio: float) -> float | None:
        """The likeness of lines i and j if it is at least `ratio`, else None."""
        if self.bound(i, j) < ratio:
            return None
        return self.exact_reaching(i, j, ratio)

    def mean_reaching(self, pairs: list[tuple[int, int]], ratio: float) -> float | None:
        """The mean likeness of (translation, original) pairs if it is at least `ratio`, else
        None (float sums and quotients keep the order of their terms: the mean of the bounds
        bounds the mean)."""
        if sum(self.bound(o, r) for r, o in pairs) / len(pairs) < ratio:
            return None
        return self.exact_mean_reaching(pairs, ratio)

    # The bound pays for itself: without it, the questions find() asks of the bilingual 禮記義疏
    # edition cost some 18 % of its conversion more (issue 15, docs/performance.md). Its plain
    # twins, which the test holds the bounded forms to:
    def exact_reaching(self, i: int, j: int, ratio: float) -> float | None:
        got = self(i, j)
        return got if got >= ratio else None

    def exact_mean_reaching(self, pairs: list[tuple[int, int]], ratio: float) -> float | None:
        mean = sum(self(o, r) for r, o in pairs) / len(pairs)
        return mean if mean >= ratio else None


def find(lines: dict[int, str], furniture: set[int] = frozenset()) -> Layout:
    """Runs and pairs over the non-blank lines (line number → text). `furniture` are lines the
    reader knows to be page furniture: they are not counted, and one printed again inside a
    translation run is that run's, not a new original."""
    nums = sorted(lines)
    text = [lines[n].strip() for n in nums]
    furn = {i for i, n in enumerate(nums) if n in furniture}
    starts = [i for i, t in enumerate(text) if t.startswith(TR_MARKS)]
    out = Layout()
    alike = _Likeness(text)
    prev_end = 0
    for k, t in enumerate(starts):
        if t < prev_end:
            continue
        nxt = starts[k + 1] if k + 1 < len(starts) else len(text)
        originals = [i for i in range(prev_end, t) if i not in furn]
        end = _run_end(alike, furn, originals, t, nxt)
        translations = [i for i in range(t, end) if i not in furn]
        out.runs.append(([nums[i] for i in originals], [nums[i] for i in translations]))
        if len(originals) != len(translations):
            out.mismatches.append(([nums[i] for i in originals], [nums[i] for i in translations]))
        pairs = _pair(alike, originals, translations)
        for r, o in pairs:
            out.translation[nums[r]] = nums[o] if o is not None else None
            ratio = alike.reaching(o, r, COPY_RATIO) if o is not None else None
            if ratio is not None:
                out.copies.append((nums[r], nums[o], round(ratio, 2)))
        paired = [(r, o) for r, o in pairs if o is not None]
        mean = alike.mean_reaching(paired, COPY_RATIO) if paired else None
        if mean is not None:
            out.copied_runs.append(out.runs[-1] + (mean,))
        for i in range(t, end):
            if i in furn:
                out.translation.setdefault(nums[i], None)
        prev_end = end
    return out


def _run_end(alike: _Likeness, furn: set[int], originals: list[int], t: int, nxt: int) -> int:
    """Where the translation run starting at t ends: after as many lines as its originals, as
    long as each reads as a translation (modern Chinese, a copy of one of the originals, or
    furniture printed again); a classical line that copies nothing starts the next run."""
    want = len(originals)
    i, got = t, 0
    while i < nxt:
        if i in furn:
            i += 1
            continue
        is_modern = alike.modern(i)
        if got >= want and not is_modern:
            break
        # a copy is looked for near the original its place pairs it with, then anywhere
        near = originals[max(0, got - 2):got + 3]
        translated = i == t or is_modern or any(
            alike.reaching(o, i, NEAR_COPY) is not None for o in near + [o for o in originals if o not in near])
        if not translated:
            break
        got += 1
        i += 1
    return i


def _pair(alike: _Likeness, originals: list[int], translations: list[int]):
    """(translation, original) pairs. Equal counts pair in order; otherwise a monotone
    alignment by likeness, which lets one translated line stand for two originals."""
    if len(originals) == len(translations):
        return list(zip(translations, originals))
    n, m = len(originals), len(translations)
    # the cheap bound (shared characters) is enough to align lines
    sim = alike.matrix(originals, translations)
    # best[i][j]: best score pairing the first i originals with the first j translations
    neg = float("-inf")
    best = [[neg] * (m + 1) for _ in range(n + 1)]
    back = [[None] * (m + 1) for _ in range(n + 1)]
    best[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            if best[i][j] == neg:
                continue
            moves = []
            if i < n and j < m:
                moves.append((i + 1, j + 1, sim[i][j]))                  # one to one
            if i + 1 < n and j < m:
                moves.append((i + 2, j + 1, (sim[i][j] + sim[i + 1][j]) / 2 + TWO_FOR_ONE))
            if i < n:
                moves.append((i + 1, j, UNPAIRED))                       # an original untranslated
            if j < m:
                moves.append((i, j + 1, UNPAIRED))                       # a translation of nothing
            for a, b, s in moves:
                if best[i][j] + s > best[a][b]:
                    best[a][b], back[a][b] = best[i][j] + s, (i, j)
    pairs, i, j = [], n, m
    while (i, j) != (0, 0):
        pi, pj = back[i][j]
        if pj < j:
            pairs.append((translations[pj], originals[pi] if pi < i else None))
        i, j = pi, pj
    return list(reversed(pairs))
