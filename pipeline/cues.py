"""Textual cues for where layers begin when nothing marks them: how a 注 opens, what a 音義 gloss
looks like. Used only where 疏 lemmas and delimiters leave a boundary open; each cue carries a
weight, and the weights become the confidence the report gives the boundary.
"""
from __future__ import annotations

import re

from .chars import Q_CLOSE, Q_OPEN, QUOTE_MARKS

# How 鄭玄's 注 opens, strongest first: (pattern at the start of a sentence, weight).
ZHU_OPENERS: tuple[tuple[re.Pattern, float], ...] = tuple((re.compile(p), w) for p, w in (
    (r"^(?:郑司农|鄭司農|司农|司農|郑大夫|鄭大夫|杜子春|郑众|鄭眾)云", 4.0),
    (r"^(?:玄谓|玄謂|故书|故書|今文|古文)", 4.0),
    (r"^" + Q_OPEN + "[^" + QUOTE_MARKS + "]{1,4}" + Q_CLOSE + "(?:读|讀|当|當|或)(?:为|為|如)", 3.5),
    (r"^[^，。" + QUOTE_MARKS + "]{1,4}(?:读|讀)(?:为|為|如)", 3.0),
    (r"^[^，。" + QUOTE_MARKS + "]{1,4}(?:当|當)为", 3.0),
    (r"^[^，。" + QUOTE_MARKS + "]{1,4}(?:犹|猶)[^，。]{1,6}也", 3.0),
    (r"^[^，。" + QUOTE_MARKS + "]{1,4}之言[^，。]{1,6}也", 3.0),
    (r"^(?:谓|謂)", 2.5),
    (r"^言", 2.0),
    (r"^此", 1.0),
))
# The openers as one alternation, tried once per sentence instead of once per opener: at the
# same position the alternatives are tried in order, so the first that matches is the first
# opener of the list that matches (each is wrapped in a group, the only capturing ones, so
# lastindex names it).
_OPENER = re.compile("|".join(f"({pat.pattern})" for pat, _ in ZHU_OPENERS))
_OPENER_WEIGHTS = (0.0,) + tuple(w for _, w in ZHU_OPENERS)
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
    m = _OPENER.match(sentence)
    best = _OPENER_WEIGHTS[m.lastindex] if m else 0.0
    m = _DEFINITION.match(sentence)
    if m and m.group(1) in jing_before:
        rest = m.group(2)
        w = 3.0 if rest.endswith("也") or rest.startswith(("谓", "謂", "犹", "猶")) else 1.5
        best = max(best, w)
    return best


def is_gloss(sentence: str) -> bool:
    """Does a sentence look like one 音義 gloss?"""
    return bool(YINYI_GLOSS.match(sentence))
