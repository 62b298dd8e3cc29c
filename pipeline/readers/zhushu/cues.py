"""Textual cues for where layers begin when nothing marks them: how a 注 opens, what a 音義 gloss
looks like. Used only where 疏 lemmas and delimiters leave a boundary open; each cue carries a
weight, and the weights become the confidence the report gives the boundary.
"""
from __future__ import annotations

import math
import re
from collections import Counter

from pipeline.chars import Q_CLOSE, Q_OPEN, QUOTE_MARKS

# The weights are on the scale of labelling's transitions: entering a 注 after a 經 costs
# OPENS_ZHU, so a cue of that weight or more opens a 注 by itself, a weaker one only with other
# evidence (a sub-lemma of the 注 in the sentence). The weights were set by hand from how
# exclusively each opener belongs to 鄭玄's 注 (no measurement tuned them).
OPENS_ZHU = 2.5
# How 鄭玄's 注 opens, strongest first: (pattern at the start of a sentence, weight).
ZHU_OPENERS: tuple[tuple[re.Pattern, float], ...] = tuple((re.compile(p), w) for p, w in (
    # an earlier commentator quoted by name: only the 注 cites them so
    (r"^(?:郑司农|鄭司農|司农|司農|郑大夫|鄭大夫|杜子春|郑众|鄭眾)云", 4.0),
    # 鄭玄 in his own name (玄謂), or on the text's variants (故書, 今文, 古文): the 注's alone
    (r"^(?:玄谓|玄謂|故书|故書|今文|古文)", 4.0),
    # a quoted word read as another (“X”讀為): the reading formula, the quotation marks surer
    (r"^" + Q_OPEN + "[^" + QUOTE_MARKS + "]{1,4}" + Q_CLOSE + "(?:读|讀|当|當|或)(?:为|為|如)", 3.5),
    # the formulas of reading and glossing a word: X讀為 / X當為 / X猶Y也 / X之言Y也
    (r"^[^，。" + QUOTE_MARKS + "]{1,4}(?:读|讀)(?:为|為|如)", 3.0),
    (r"^[^，。" + QUOTE_MARKS + "]{1,4}(?:当|當)为", 3.0),
    (r"^[^，。" + QUOTE_MARKS + "]{1,4}(?:犹|猶)[^，。]{1,6}也", 3.0),
    (r"^[^，。" + QUOTE_MARKS + "]{1,4}之言[^，。]{1,6}也", 3.0),
    # 謂 ("it means"): the 注's commonest explanation, enough alone
    (r"^(?:谓|謂)", OPENS_ZHU),
    # 言 ("it says") and 此 ("this") open a 注's paraphrase, but 經 sentences too: not alone
    (r"^言", 2.0),
    (r"^此", 1.0),
))
# 鄭玄's commonest opening: a word just read in the 經, a comma, and its sense (傧，进之也).
_DEFINITION = re.compile(r"^([^，。、《》" + QUOTE_MARKS + r"]{1,4})，([^。]*)")

# What 陸德明's glosses look like: a head, then a reading (反切, 直音, 如字) or a variant note.
_READING = r"(?:音[^，。、]|[^，。、\s]{2}反|如字)"
YINYI_GLOSS = re.compile(
    rf"^(?:[^，。]{{1,6}}，[^，。]{{0,4}}{_READING}"                   # 更，古行反 / 退复，扶又反
    rf"|[^，。]{{1,3}}{_READING}"                                     # 腐音辅 / 大如字
    r"|[^，。]{1,6}，(?:本又作|本亦作|本或作|又作|或作|亦作|一本作)"     # 庙，本亦作庿
    r"|(?:下同|注同|下注同|篇内同|篇內同|出注)[。]?$)")


def zhu_score(sentence: str, jing_before: str) -> float:
    """How strongly a sentence reads as the opening of a 注, given the 經 text just before it."""
    best = next((w for pattern, w in ZHU_OPENERS if pattern.match(sentence)), 0.0)
    m = _DEFINITION.match(sentence)
    if m and m.group(1) in jing_before:
        best = max(best, definition_weight(m.group(2)))
    return best


# 鄭玄's commonest opening, a word of the 經 and its sense: worth opening a 注 alone when the
# sense reads as a gloss (ends on 也, or opens 謂 / 猶: 傧，进之也), half that otherwise (a word
# and a comma may be the 經's own sentence going on).
DEFINITION_GLOSS, DEFINITION = 3.0, 1.5


def definition_weight(sense: str) -> float:
    """The weight of `X，sense` after a 經 that holds X."""
    return DEFINITION_GLOSS if sense.endswith("也") or sense.startswith(("谓", "謂", "犹", "猶")) \
        else DEFINITION


def is_gloss(sentence: str) -> bool:
    """Does a sentence look like one 音義 gloss?"""
    return bool(YINYI_GLOSS.match(sentence))


# The particles a 注 closes on (cues.LayerModel.ENDING).
ENDED = "也耳焉矣"


class LayerModel:
    """How 經 and 注 text read, character by character, learnt from a text's own unambiguous
    runs (the 四庫 注疏: a run between a note and the next 注 marker is 經, one from a 注 marker
    to the next note is 注). Where a 注 runs on into the next 經 unmarked, the cut that best
    splits the run into 注 then 經 is the one these statistics favour: 鄭玄's 注 is made of
    glosses (猶, 謂, 也, 云, 之言), the 經 of narrative and rule (不, 則, 而, 曰).

    Character bigrams, each backed off to its character's frequency (interpolated with
    BACKOFF pseudo-counts), that to a uniform share of one in the text's alphabet."""

    BACKOFF = 2.0            # pseudo-counts a bigram's estimate gives its unigram's (a few: a
                             # 卷 has some 10,000 characters of each layer, most bigrams rare)

    def __init__(self, jing: list[str], zhu: list[str]):
        self.layers = {}
        alphabet = set("".join(jing)) | set("".join(zhu))
        self.v = len(alphabet) + 1
        for name, runs in (("jing", jing), ("zhu", zhu)):
            uni = Counter("".join(runs))
            bi = Counter(r[i:i + 2] for r in runs for i in range(len(r) - 1))
            ctx = Counter("".join(r[:-1] for r in runs))     # each character a bigram opens
            self.layers[name] = (uni, bi, ctx, sum(uni.values()))
        self.zhu_length = LogNormal.of([len(r) for r in zhu if r])

    # Characters of each layer the statistics must have seen to overrule a printed mark: a
    # 卷 of the WYG 注疏 gives from about 900 characters of unambiguous 經 (周禮注疏卷八, with
    # long 注) to many thousands; a fragment of a few runs tells which cut is likelier, not
    # whether a 注 marker is one.
    RELIABLE = 300
    # What a cut right after a closing particle is worth (nats): 鄭玄's 注 ends on 也 (耳, 焉,
    # 矣) far more often than a 經 sentence runs on past one, and the bigrams alone see only the
    # particle, not that a clause ends there. Measured on 禮記註疏 (docs/score.md): 0 → 3 → 8 →
    # 14 → 30 nats put 42, 42, 46, 45, 44 of its 59 卷 at the 經 target; 周禮, 儀禮 unchanged.
    ENDING = 8.0
    # What the lengths of the 卷's own unambiguous 注 runs say of a cut (its 注 head as long as
    # such runs are), times this: the bigrams alone favour a 注 of a few characters and a long
    # 經 wherever the 注 repeats the 經's words (老夫老人稱也 … 春秋傳曰老夫耄矣). The 經 tail is
    # not weighed so: the 經 after a 注 runs on as a story does (檀弓), unlike the 經 before one.
    # Measured on 禮記註疏 (docs/score.md): 0 → 1 → 2 → 3 put 56, 56, 57, 56 of its 59 卷 at
    # the 經 target.
    LENGTH_WEIGHT = 2.0
    # How much likelier (nats) a cut before the 疏's first quote in a run must be than the cut
    # at the quote: the 疏 quotes the first clause of the 經 after a 注 far more often than a
    # later one (禮記註疏: 379 runs against 118), so the statistics overrule the quote only
    # when they are clear. Measured on 禮記註疏 (docs/score.md): 12 → 24 → 36 nats put 55, 57,
    # 56 of its 59 卷 at the 經 target.
    QUOTE_MARGIN = 24.0

    @property
    def trained(self) -> bool:
        return all(n for *_, n in self.layers.values())

    @property
    def reliable(self) -> bool:
        return all(n >= self.RELIABLE for *_, n in self.layers.values())

    def _logp(self, layer: str, prev: str, c: str) -> float:
        uni, bi, ctx, n = self.layers[layer]
        p_uni = (uni.get(c, 0) + 1) / (n + self.v)
        if not prev:
            return math.log(p_uni)
        return math.log((bi.get(prev + c, 0) + self.BACKOFF * p_uni) / (ctx.get(prev, 0) + self.BACKOFF))

    def gains(self, text: str) -> list[float]:
        """gain[c]: log P(text[:c] as 注) − log P(text[:c] as 經)."""
        gain = [0.0]
        for i, ch in enumerate(text):
            prev = text[i - 1] if i else ""
            gain.append(gain[-1] + self._logp("zhu", prev, ch) - self._logp("jing", prev, ch))
        return gain

    def best_cut(self, text: str, lo: int, hi: int, quote: int | None = None) -> tuple[int, float, float]:
        """The cut c in [lo, hi] that makes text[:c] the likeliest 注 and text[c:] the
        likeliest 經, a cut right after a 注's closing particle (ENDED) counting ENDING more,
        and the 注 weighed by its length (LENGTH_WEIGHT); `quote` (the place of the 疏's
        first quote) is kept unless a cut before it is QUOTE_MARGIN likelier. Returns the cut;
        how far ahead of the runner-up (in nats) it lies; and the log-odds that the most 經-like
        tail text[c:] (c in [lo, hi]) is 注 rather than 經 (above 0: no tail reads as 經)."""
        gain = self.gains(text)
        ending, weight, n, zhu_length = self.ENDING, self.LENGTH_WEIGHT, len(text), self.zhu_length

        def worth(c: int) -> float:
            return (gain[c] + (ending if c and text[c - 1] in ENDED else 0.0)
                    + weight * zhu_length.logp(c))

        best = max(range(lo, hi + 1), key=lambda c: (worth(c), -c))
        if quote is not None and worth(quote) >= worth(best) - self.QUOTE_MARGIN:
            best = quote
        others = [worth(c) for c in range(lo, hi + 1) if abs(c - best) > 1]
        margin = (worth(best) - max(others)) if others else 0.0
        return best, margin, min(gain[n] - gain[c] for c in range(lo, hi + 1))


class LogNormal:
    """A distribution of lengths: log-normal, fitted to the lengths seen (a 卷's 注 runs run
    from a few characters to a hundred, most near their geometric mean)."""

    def __init__(self, mu: float, var: float):
        self.mu, self.var = mu, var

    @classmethod
    def of(cls, lengths: list[int]) -> "LogNormal":
        logs = [math.log(n) for n in lengths] or [math.log(10)]
        mu = sum(logs) / len(logs)
        # a floor under the variance: a handful of runs of one length is no certainty
        return cls(mu, max(0.1, sum((x - mu) ** 2 for x in logs) / len(logs)))

    def logp(self, n: int) -> float:
        """The log-density of length n (n ≥ 1)."""
        x = math.log(n)
        return -x - (x - self.mu) ** 2 / (2 * self.var) - 0.5 * math.log(2 * math.pi * self.var)
