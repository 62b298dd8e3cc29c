"""The 經 that follows a 注 with no marker: the 四庫 注疏, which prints the 注 that opens a 注 and
nothing that closes it. Where the 經 begins is told by the 疏's quotes (bare_quotes.py), the 卷's
other 疏, the 卷's own statistics (cues.LayerModel) or, with none, the middle of the run.
"""
from __future__ import annotations

import bisect

from pipeline.model import JING, MARK, YINYI, Shu
from pipeline.readers.zhushu import bare_quotes, cues
from pipeline.readers.zhushu.evidence import GroupText
from pipeline.readers.zhushu.labelling import B, O

# How sure the cut is: at the 疏's first quote in the run (the clause is the group's; the 經 may
# begin before it), where the statistics put it before that quote, and a run cut at its middle.
CONF_QUOTE, CONF_QUOTE_CUE, CONF_POSITION = 0.9, 0.75, 0.3
# A cut by the statistics alone: from CUT_CONF by a tenth per nat the best cut leads the next by,
# up to CUT_CONF_MAX; a little below the labelling's cue confidence (labelling.CUE_CONF), as a
# cut in unpunctuated text has no sentence end to fall on.
CUT_CONF, CUT_CONF_MAX = 0.4, 0.85


def unmarked_jing(g: GroupText, shus: list[Shu], forced, opens: list[int],
                   model: cues.LayerModel | None,
                   clauses: bare_quotes.QuotedClauses | None) -> list[tuple[int, int, str, str, float]]:
    """The 經 that follows a 注 unmarked. A run from a 注 marker to the next 注 marker (no note
    between) holds a 注 and then a 經: the next 注 explains a 經, and a 經 never opens with a
    marker. Where the 經 begins, strongest evidence first: the group's 疏 quotes it (`X者`,
    bare_quotes.py; where it quotes none, a clause another 疏 of the 卷 quotes), so the 經
    begins at the first quote in the run or before it; the text's own statistics
    (cues.LayerModel) place the cut at or before that, after MIN_ZHU — with no quote, only
    where some tail of the run reads as 經 at all; with neither, the run is split at its
    middle (position). A run that ends at a 音義 or 疏 note is left to the 注:
    quotes found in one are nearly all the 疏 quoting the 注 (measured: docs/score.md)."""
    ends = set(g.starts[1:]) | {len(g.text)}
    blocked = []
    for a, b, label, *_ in forced:
        if label in (MARK, B, YINYI, O):
            blocked.append((a, b))
            ends.add(a)
    ends = sorted(ends)
    opened = set(opens)
    runs = []                          # 注 runs a 注 marker ends: (start, end)
    for o in sorted(opens):
        i = bisect.bisect_right(ends, o)
        e = ends[i] if i < len(ends) else len(g.text)
        if g.text[e:e + 1] in _ZHU_MARKS and e + 1 in opened and e - o >= 2:
            runs.append((o, e))
    if not runs:
        return []
    first = _first_quotes(g, shus, blocked, runs)
    out = []
    for k, (a, e) in enumerate(runs):
        text = g.text[a:e]
        q, q_stop = first.get(k, (None, None))
        if q is None and clauses is not None:
            # no quote of the group's 疏 here: a 經 clause another 疏 of the 卷 quotes will do
            other = clauses.first_in(text, 1)
            if other is not None:
                q, q_stop = a + other[0], a + other[1]
        hi = (q - a) if q is not None else len(text) - 1
        if model is not None and model.trained and hi >= 1:
            cut, margin, tail = model.best_cut(text, min(MIN_ZHU, hi), hi, hi if q is not None else None)
            if tail >= 0 and model.reliable and (q is None or e - q_stop > bare_quotes.MAX_QUOTE):
                # no tail reads as 經, and no quote reaches near the run's end (the 經 a 疏
                # quotes runs on to the next 注): the marker that ends the run is the word 注
                # of the 注's own text (所謂注旄於干首者), a quote in it the 疏 quoting the 注
                continue
            if q is not None:
                method, conf = "quote", (CONF_QUOTE if cut == hi else CONF_QUOTE_CUE)
            else:
                method, conf = "cue", round(min(CUT_CONF_MAX, CUT_CONF + margin / 10), 2)
        elif q is not None:
            cut, method, conf = hi, "quote", CONF_QUOTE
        else:
            cut, method, conf = max(1, len(text) // 2), "position", CONF_POSITION
        out.append((a + cut, e, JING, method, conf))
    return out


_ZHU_MARKS = ("注", "註")
# The shortest 注 before an unmarked 經: 鄭玄 glosses a 經 in a few characters at least (禮記註疏:
# 20 of its 1,061 such runs hold a 注 of one or two characters, against SBCK, while the
# statistics alone cut 190 there). Measured in docs/score.md.
MIN_ZHU = 3


def _first_quotes(g: GroupText, shus: list[Shu], blocked, runs) -> dict[int, tuple[int, int]]:
    """For each run (by index), where the first of the 疏's `X者` quotes in it begins, and
    where the last ends."""
    paras = [p.text for s in shus for p in s.paras]
    if not paras:
        return {}
    text = list(g.text)
    for a, b in blocked:
        text[a:b] = bare_quotes.BLOCKED * (b - a)
    index = bare_quotes.TextIndex("".join(text))
    starts = [a for a, _ in runs]
    first: dict[int, tuple[int, int]] = {}
    for f in bare_quotes.find(paras, index, (JING,)):
        k = bisect.bisect_right(starts, f.start) - 1
        if k >= 0 and f.start < runs[k][1]:
            first[k] = (first[k][0] if k in first else f.start, min(f.stop, runs[k][1]))
    return first
