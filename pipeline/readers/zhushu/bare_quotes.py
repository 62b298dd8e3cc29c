"""The quotes of an unpunctuated 疏, found by the text they quote (the 四庫 注疏).

The 四庫 editions print the 疏 with no quotation marks and no 出文 lemma: after 正義曰 / 釋曰 it
takes the 經 clause by clause, each quoted as `X者` (`…故正立拱手而聽先生之教先生與之言則對者
此謂問時事之言…`), and after 注正義曰 / 注釋曰 the 注 as `云X者`. Where a quote begins is not
printed; what is known is that X ends right before a 者 and is text of the group the 疏 explains.
So for each 者 the quote is the longest X before it that the group's text holds (at least
MIN_QUOTE characters), taken in order: the 疏 follows its text, so each quote is looked for from
the previous one's place on. `X至Y者` (a passage by its first and last words) is one quote from
X to Y.

The group's text is indexed once (its trigrams); each 者 then looks at a bounded number of
occurrences of the trigram that ends its quote, and extends each backwards at most MAX_QUOTE
characters: the cost is linear in the 疏 and the group.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from pipeline.model import JING, ZHU
from pipeline.readers.zhushu.shu import OPENER

# The 疏's turn to the 注: 注正義曰 (孔穎達), 注釋曰 (賈公彥), a few printed 註….
ZHU_PART = re.compile(rf"[注註](?:{OPENER})")
# A quote's shortest length. Two characters (之禮, 是也) occur by chance in any 疏 sentence
# before 者; three that run on into the group's text in order are a clause of it (measured on
# the WYG 注疏: see docs/score.md).
MIN_QUOTE = 3
# A quote's longest: the 疏 quotes a clause, not a paragraph (the longest clause quoted in the
# WYG 注疏 runs to about 40 characters); this bounds the work per 者.
MAX_QUOTE = 60
# The first words of an `X至Y者` quote: a few characters, as in the 出文 lemmas of the other
# editions (shu.BARE_LEMMA allows 1–6).
MAX_FIRST = 8
# Occurrences of a quote's last three characters looked at from the previous quote's place on:
# the quoted clause lies near it (the 疏 takes the text in order), and a trigram common enough
# to occur more often than this in what follows is not what tells a quote.
MAX_TRIED = 24
BLOCKED = "\0"                     # stands for text a quote cannot cross (a marker, a note)
_NGRAM = 3
_PARTICLES = "也矣焉"                # sentence-final particles


@dataclass(slots=True)
class Found:
    """A quote of a 疏 paragraph and where the group's text holds it."""
    para: int                      # index of the paragraph in the 疏 section
    at: int                        # where X begins in the paragraph's text
    end: int                       # where it ends (the 者 is at `end`)
    start: int                     # where the quoted text begins in the searched text
    stop: int                      # and ends (exclusive)
    layer: str                     # JING: the 疏's 經 part; ZHU: after 注正義曰 / 注釋曰
    inner: tuple[int, int] | None = None   # X至Y: the end of X and the start of Y in the paragraph

    @property
    def length(self) -> int:
        return self.stop - self.start


class TextIndex:
    """Where each trigram of a text begins, built once."""

    def __init__(self, text: str):
        self.text = text
        grams: dict[str, list[int]] = {}
        for i in range(len(text) - _NGRAM + 1):
            g = text[i:i + _NGRAM]
            if BLOCKED not in g:
                grams.setdefault(g, []).append(i)
        self.grams = grams

    def longest_ending(self, hay: str, end: int, floor: int, lo: int,
                       hi: int | None = None) -> tuple[int, int] | None:
        """The longest X = hay[end - L:end] (MIN_QUOTE ≤ L ≤ MAX_QUOTE, not reaching before
        `floor`) that the text holds at or after `lo` (and ending by `hi`): (start, L), the
        earliest of equal lengths."""
        if end - floor < MIN_QUOTE:
            return None
        tail = hay[end - _NGRAM:end]
        where = self.grams.get(tail)
        if not where:
            return None
        text, best = self.text, None
        k = bisect.bisect_left(where, lo + MIN_QUOTE - _NGRAM)
        for p in where[k:k + MAX_TRIED]:
            stop = p + _NGRAM
            if hi is not None and stop > hi:
                break
            n = _NGRAM
            while n < MAX_QUOTE and end - n - 1 >= floor and stop - n - 1 >= lo \
                    and text[stop - n - 1] == hay[end - n - 1]:
                n += 1
            if n >= MIN_QUOTE and (best is None or n > best[1]):
                best = (stop - n, n)
        return best

    def longest_common(self, hay: str) -> tuple[int, int, int] | None:
        """The longest run of `hay` (MIN_QUOTE characters or more) the text holds: (where in
        hay, where in the text, length), the first of equal lengths. Each position of hay
        looks at MAX_TRIED occurrences of its trigram at most."""
        text, grams, best = self.text, self.grams, None
        for i in range(len(hay) - _NGRAM + 1):
            for p in grams.get(hay[i:i + _NGRAM], ())[:MAX_TRIED]:
                n = _NGRAM
                while n < MAX_QUOTE and i + n < len(hay) and p + n < len(text) and text[p + n] == hay[i + n]:
                    n += 1
                if best is None or n > best[2]:
                    best = (i, p, n)
        return best

    def longest_at(self, hay: str, i: int) -> tuple[int, int] | None:
        """The longest run of `hay` from i on (MIN_QUOTE characters or more) the text holds:
        (where in the text, length), the first of equal lengths."""
        text, best = self.text, None
        for p in self.grams.get(hay[i:i + _NGRAM], ())[:MAX_TRIED]:
            n = _NGRAM
            while n < MAX_QUOTE and i + n < len(hay) and p + n < len(text) and text[p + n] == hay[i + n]:
                n += 1
            if best is None or n > best[1]:
                best = (p, n)
        return best

    def last_before(self, q: str, lo: int, hi: int) -> int | None:
        """Where q last occurs in text[lo:hi]."""
        i = self.text.rfind(q, lo, hi)
        return None if i == -1 else i


def parts(text: str) -> list[tuple[int, int, str]]:
    """The 經 part and the 注 part of a 疏 paragraph: (start, end, layer)."""
    m = ZHU_PART.search(text)
    if m is None:
        return [(0, len(text), JING)]
    out = [(0, m.start(), JING)] if m.start() else []
    return out + [(m.start(), len(text), ZHU)]


def find(paras: list[str], index: TextIndex, layers: tuple[str, ...] = (JING, ZHU),
         lo: int = 0, disjoint: bool = False, across: bool = False) -> list[Found]:
    """The quotes of a 疏 section's paragraphs (their texts, in order) in the indexed text, in
    order. The 經 part quotes `X者`; the 注 part `云X者` (its other 者 are mostly the 疏's own
    phrasing, 所以…者). Each is looked for from where the previous one of its part began, or,
    `disjoint`, ended (a span from the first quote to the last then holds them all).
    `across`: the paragraphs are one part quoting the other layer's text (the 經 part quoting
    the 注, `云X者` or `X者`; the 注 part quoting the 經, `經云X者` or `X者`): every 者 is tried
    as the 經 part's are (their `layer` says so), looked for from `layers[0]`'s place."""
    out: list[Found] = []
    place = {JING: lo, ZHU: lo}
    for pi, text in enumerate(paras):
        for a, b, layer in ([(0, len(text), layers[0])] if across else parts(text)):
            if layer not in layers:
                continue
            floor = a
            opened = a + len(m.group()) if layer == ZHU and (m := ZHU_PART.match(text, a)) else -1
            rule = JING if across else layer
            k = text.find("者", a, b)
            while k != -1:
                f = _quote(text, k, floor, index, place[layer], rule, pi, opened)
                if f is not None:
                    out.append(f)
                    place[layer] = f.stop if disjoint else f.start
                    floor = k + 1
                k = text.find("者", k + 1, b)
    return out


def _quote(text: str, k: int, floor: int, index: TextIndex, lo: int, layer: str,
           pi: int, opened: int = -1) -> Found | None:
    """The quote ending at the 者 at k, if any. In the 注 part X opens after a 云 (within
    MAX_QUOTE before the 者, after the last quote), or right after the part's 注正義曰 (`opened`:
    注正義曰禮主於敬者, the first words of the 注)."""
    if layer == ZHU:
        y = text.rfind("云", max(floor, k - MAX_QUOTE - 1), k)
        if y == -1 and floor <= opened < k and "者" not in text[opened:k]:
            y = opened - 1
        if y == -1 or k - y - 1 < MIN_QUOTE:
            return None
        floor = y + 1
    hit = index.longest_ending(text, k, floor, lo)
    if hit is None:
        return None
    start, n = hit
    if index.text[start + n:start + n + 2] == text[k:k + 2]:
        return None                  # the text goes on as the 疏 does (長者所視者): so does the quote
    while n > MIN_QUOTE and index.text[start] in _PARTICLES:
        start, n = start + 1, n - 1  # a clause does not open with 也: the 疏's sentence before ended so
    at = k - n
    if layer == ZHU and n < (k - floor) // 2:
        return None                  # 云X者 quotes the 注 near enough whole; this is some other text
    found = Found(pi, at, k, start, start + n, layer)
    if at - 1 > floor and text[at - 1] == "至":
        first = _first_words(text, at - 1, floor, index, lo, start)
        if first is not None:
            x_at, x_start = first
            found = Found(pi, x_at, k, x_start, start + n, layer, (at - 1, at))
    return found


def _first_words(text: str, zhi: int, floor: int, index: TextIndex, lo: int,
                 y_start: int) -> tuple[int, int] | None:
    """X of `X至Y`: the longest of the few characters before 至 that the text holds between the
    previous quote and Y (the last such place: X begins the passage that Y ends)."""
    best = None
    for n in range(1, MAX_FIRST + 1):
        if zhi - n < floor:
            break
        q = text[zhi - n:zhi]
        i = index.last_before(q, lo, y_start)
        if i is None:
            break
        best = (zhi - n, i)
    return best


# Two characters are a quote only where the 疏's phrasing says they are one: right after the
# part's opener (釋曰百羞者…, 正義曰取俎謂…), the office a 敘官 疏 names (釋曰封人在此者), and
# 云/言 … 者 (云萬民者, 言碩牲者). Elsewhere two characters before a 者 come by chance; so do
# the 疏's own 此X (釋曰此六者…: these six) after the opener.
SHORT = 2
_SHORT_OPENING = re.compile(rf"[注註傳]?(?:{OPENER})(?P<q>[^者此][^者]{{{SHORT - 1}}})(?:者|謂|在此者)")
_SHORT_SAID = re.compile(rf"[云言](?P<q>[^者]{{{SHORT}}})者")


def find_short(paras: list[str], text: str, layer: str, lo: int = 0) -> list[Found]:
    """The two-character quotes of a 疏 part (its paragraphs' texts) that `text` holds, each
    looked for from the previous one's end on (the 疏 takes its text in order)."""
    out: list[Found] = []
    for pi, para in enumerate(paras):
        said = list(_SHORT_SAID.finditer(para))
        opening = _SHORT_OPENING.match(para) if pi == 0 else None
        for m in ([opening] if opening and not (said and said[0].start() < opening.end()) else []) + said:
            q = m.group("q")
            i = text.find(q, lo)
            if i == -1 or BLOCKED in q:
                continue
            out.append(Found(pi, m.start("q"), m.end("q"), i, i + SHORT, layer))
            lo = i + SHORT
    return out


# A quote with a variant character (言入於酒府者 of 入于酒府, 關市無索者 of 關市毋索): the X of an
# X者 that the text holds with one character changed, at least VARIANT_QUOTE long (three would
# be a word of the text with any third character); its ends agree with the text, as a clause
# quoted from its first word to its last does.
VARIANT_QUOTE = 4


def find_variant(paras: list[str], text: str, layer: str) -> list[Found]:
    """The X者 quotes of a 疏 part (its paragraphs' texts) that `text` holds with one character
    differing, the longest X (up to MAX_FIRST) before each 者, in order."""
    out: list[Found] = []
    lo = 0
    for pi, para in enumerate(paras):
        k = para.find("者")
        while k != -1:
            hit = _variant_before(para, k, text, lo)
            if hit is not None:
                n, i = hit
                out.append(Found(pi, k - n, k, i, i + n, layer))
                lo = i + n
            k = para.find("者", k + 1)
    return out


def _variant_before(para: str, k: int, text: str, lo: int) -> tuple[int, int] | None:
    for n in range(min(MAX_FIRST, k), VARIANT_QUOTE - 1, -1):
        q = para[k - n:k]
        if "者" in q or BLOCKED in q:
            continue
        i = text.find(q[0], lo)
        while i != -1 and i + n <= len(text):
            w = text[i:i + n]
            if w[-1] == q[-1]:
                differing = [b for a, b in zip(w, q) if a != b]
                # 池也重霤者 of 池視重霤: two quotes, the 疏's sentence ending at 也 between them
                if len(differing) == 1 and differing[0] not in _PARTICLES:
                    return n, i
            i = text.find(q[0], i + 1)
    return None


class QuotedClauses:
    """The 經 clauses the 疏 of a whole 卷 quote (`X者` in their 經 parts), to find a 經 that a
    later (or earlier) 疏 quotes where the group's own 疏 quotes none. Every X of CLAUSE_MIN to
    CLAUSE_MAX characters that ends right before a 者 is kept: which of them is the quote is not
    known, but only one that the run's text holds can matter. Found in a run a 注 marker ends,
    such a clause is nearly always the 經 (禮記註疏: 199 places against 11 in the 注, docs/score.md);
    in a run a note ends, mostly the 注 repeating the 經's words, so it is not used there."""

    CLAUSE_MIN = 4       # three characters before 者 recur by chance across a 卷's 疏
    CLAUSE_MAX = 15      # a clause, not a sentence: the set grows by this many strings a 者

    def __init__(self, shu_texts: list[str]):
        self.clauses: set[str] = set()
        self.heads: set[str] = set()
        lo_len, hi_len = self.CLAUSE_MIN, self.CLAUSE_MAX
        for text in shu_texts:
            for a, b, layer in parts(text):
                if layer != JING:
                    continue
                k = text.find("者", a, b)
                while k != -1:
                    for n in range(lo_len, min(hi_len, k - a) + 1):
                        self.clauses.add(text[k - n:k])
                        self.heads.add(text[k - n:k - n + lo_len])
                    k = text.find("者", k + 1, b)

    def first_in(self, text: str, lo: int = 0) -> tuple[int, int] | None:
        """The first place at or after `lo` where text holds a quoted clause: (start, end) of
        the longest one starting there."""
        n_min, n_max = self.CLAUSE_MIN, self.CLAUSE_MAX
        for p in range(lo, len(text) - n_min + 1):
            if text[p:p + n_min] not in self.heads:
                continue
            best = None
            for n in range(n_min, min(n_max, len(text) - p) + 1):
                if text[p:p + n] in self.clauses:
                    best = p + n
            if best is not None:
                return p, best
        return None
