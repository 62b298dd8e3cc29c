"""Labelling the sentences of run-on text that no evidence fixed: Viterbi over 經 → 注 → 音義.

Each sentence is scored for each label by its cues (cues.py: how 鄭玄's 注 opens, what 陸德明's
glosses look like) and by the 疏's sub-lemmas (a sentence quoted under a 經 lemma is 經); the
transitions say how the layers follow one another in the 注疏 (a 注 follows its 經, a 音義 its 注).
"""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.matching import squeeze
from pipeline.model import JING, MARK, YINYI, ZHU
from pipeline.readers.zhushu import cues
from pipeline.readers.zhushu.evidence import Evidence, GroupText

# The labels a segment of run-on text may take: the three layers, and what a layout prints
# between them (dropped or kept, never labelled by the cues).
J, Z, Y, O = JING, ZHU, YINYI, "o"          # O: a ○ delimiter, dropped from the text
B = "b"                                     # a bracket delimiter (【 】), dropped from the text
ZHU_OPEN = "zhu-open"                       # a mark: a 注 begins here
SCORE = "score"                             # 經 printed in symbols (a drum score): kept as it is


@dataclass(slots=True)
class Seg:
    start: int
    end: int
    label: str | None = None                  # forced label, or the one the DP chose
    method: str = ""                          # how a forced label was found
    conf: float = 0.0


# Transition scores between consecutive labels, and the baseline cost of each label.
# Entering a 注 costs what an opening cue must pay for (cues.OPENS_ZHU); staying in it is free
# (a 注 runs on until 音義 or evidence of 經); going back to 經 needs evidence too. A 音義 comes
# after its 注 (陸德明 glosses the 經 and 注 before him), rarely straight after a 經, and a 注
# never follows a 音義 without a 經 between; in run-on text it is opened by ○ or a gloss
# formula, so its baseline is low and only a gloss (GLOSS) lifts a sentence above it.
_TRANS = {(J, J): 0, (J, Z): -cues.OPENS_ZHU, (J, Y): -3, (Z, Z): 0, (Z, Y): 0, (Z, J): -2,
          (Y, Y): 0, (Y, J): 0, (Y, Z): -4}
_BASE = {J: 0.0, Z: 0.0, Y: -8.0}
GLOSS = 10.0            # a 陸德明 formula (反, 音X, 如字, 本又作): 音義 over the baseline
SUBLEMMA = 3.0          # the 疏 quotes the sentence under a lemma of that layer: as strong as a formula
# A cue label's confidence: from CUE_CONF by a tenth per nat the best label leads the next by,
# up to CUE_CONF_MAX (below the 0.9 of a printed line start: cues never equal the print).
CUE_CONF, CUE_CONF_MAX = 0.45, 0.85
def by_line(g: GroupText, segs: list[Seg]) -> list[list[Seg]]:
    """The segments of each line of the group (segs are in text order)."""
    out: list[list[Seg]] = [[] for _ in g.starts]
    for s in segs:
        out[g.line_of(s.start)].append(s)
    return out


def label_rest(g: GroupText, ev: Evidence, segs: list[Seg], free: tuple[str, ...]) -> None:
    """Viterbi over each line's segments; forced labels are fixed, the rest scored by cues."""
    for line_segs in by_line(g, segs):
        line = [s for s in line_segs if s.label not in (O, B, MARK, SCORE)]
        if not line or all(s.label is not None for s in line):
            continue
        _viterbi(g, ev, line, free)


def _emission(ev: Evidence, text: str, jing_before: str) -> dict[str, float]:
    """The score of each label for a segment's text."""
    sq = squeeze(text)
    e = dict(_BASE)
    e[Z] += cues.zhu_score(text, jing_before)
    if cues.is_gloss(text):
        e[Y] += GLOSS
    if any(p in sq for p in ev.jing_phrases):           # a sub-lemma lies in the segment
        e[J] += SUBLEMMA
    if any(p in sq for p in ev.zhu_phrases):
        e[Z] += SUBLEMMA
    return e


def _viterbi(g: GroupText, ev: Evidence, line: list[Seg], free: tuple[str, ...]) -> None:
    best: list[dict[str, tuple[float, str | None]]] = []
    prev: dict[str, tuple[float, str | None]] | None = None
    jing_before = ""
    for seg in line:
        text = g.text[seg.start:seg.end]
        em = _emission(ev, text, jing_before)
        col = {}
        for lab in ((seg.label,) if seg.label is not None else free):
            col[lab] = (em[lab], None) if prev is None else _best_into(prev, lab, em[lab])
        best.append(col)
        prev = col
        if seg.label in (J, None):
            jing_before += text
    lab = _argmax(best[-1])
    for i in range(len(line) - 1, -1, -1):
        seg = line[i]
        if seg.label is None:
            seg.label, seg.method = lab, "cue"
            seg.conf = round(min(CUE_CONF_MAX, CUE_CONF + _margin(best[i]) / 10), 2)
        lab = best[i][lab][1] or lab


def _best_into(prev: dict[str, tuple[float, str | None]], lab: str, e: float) -> tuple[float, str]:
    """The best way into `lab` from the previous column, with its score; the first of equal
    scores wins. (Inlined with the table by the label moved into, it bought 5 % of the 禮記
    convert at most: docs/performance.md, so it stays plain.)"""
    top, top_prev = None, None
    for p, (score, _) in prev.items():
        s = score + _TRANS[(p, lab)] + e
        if top is None or s > top:
            top, top_prev = s, p
    return top, top_prev


def _margin(col: dict[str, tuple[float, str | None]]) -> float:
    """How far the best score of a column lies ahead of the second best (5 with one label)."""
    if len(col) < 2:
        return 5.0
    scores = [score for score, _ in col.values()]
    top = max(scores)
    scores.remove(top)
    return top - max(scores)


def _argmax(col: dict[str, tuple[float, str | None]]) -> str:
    """The label of the best score in a column; the first of equal scores wins."""
    top, top_score = None, None
    for lab, (score, _) in col.items():
        if top is None or score > top_score:
            top, top_score = lab, score
    return top
