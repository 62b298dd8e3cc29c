"""Recovering 經 / 注 / 音義 where the text runs them together, from the 疏 that follows.

Most 注疏 e-texts print a 經 paragraph, its 注 and its 音義 as one run of text. What tells them
apart is the 疏: its 出文 lemmas quote the first and last characters of the 經 span (`“大凡”至
“变也”`) and of each 注 (`注“生时”至“法也”`), and its sub-lemmas (`○“大凡生於…”者`) quote 經
phrases (evidence.py). This module turns that evidence into layer boundaries:

1. The group's text is cut into sentences (at 。？！；), at each ○, and at each line start.
2. Hard evidence fixes labels: a ○ opens 音義; each 注 lemma fixes a 注 span (the occurrence
   that follows the 經 lemma's last characters wins over an earlier one inside the 經); each
   經 lemma fixes its span; gloss-like sentences right after a 注 are 音義.
3. Every sentence still open gets the most likely label by dynamic programming over the
   sequence (經 → 注 → 音義 → 經 …), scored with textual cues (`cues.py`) and the sub-lemmas
   (labelling.py).

The 四庫's unpunctuated text, which marks where a 注 opens but not where it ends, has its own
step for the 經 after a 注 (unmarked.py).

Every boundary is reported with how it was found and a confidence; weak ones become warnings.
"""
from __future__ import annotations

import bisect

from pipeline.model import MARK, Piece, Shu, Unit
from pipeline.readers.zhushu import bare_quotes, cues, pieces
from pipeline.readers.zhushu.evidence import (SENTENCE_END, Evidence, GroupText, locate_jing,
                                              locate_zhu)
from pipeline.readers.zhushu.labelling import (B, J, O, SCORE, Y, Z, ZHU_OPEN, Seg, by_line,
                                               label_rest)
from pipeline.readers.zhushu.unmarked import unmarked_jing
from pipeline.report import Report
from pipeline.sources.located import Located

_DROPPED = (O, B)
# A label printed by the layout (a delimiter, a marker), and a sentence that opens a line (a
# line of a run-on layout opens with 經).
CONF_DELIMITER, CONF_LINE = 1.0, 0.9
# A gloss-like sentence right after a 注 (反, 音X, 如字: 陸德明's formulas, cues.is_gloss), printed
# with no ○ before it: 音義, though a 注 may gloss a sound too.
CONF_GLOSS_CUE = 0.9
LOW_CONFIDENCE = 0.6                        # a boundary below this is also a warning


def segment(lines: list[Located], shus: list[Shu], zhu_resp: str, report: Report,
            marks: list[list[tuple[int, int, str]]] | None = None,
            free: tuple[str, ...] = (J, Z, Y), bare_quotes: bool = False,
            layer_model: cues.LayerModel | None = None,
            clauses: bare_quotes.QuotedClauses | None = None) -> list[Unit]:
    """Units (one per line) whose pieces are the 經, 注 and 音義 the evidence supports.

    `marks` (per line, offsets in the line) are what a layout prints to tell layers apart:
    (start, end, MARK) a marker kept as text, (start, end, B) a bracket dropped as delimiter,
    (start, end, Y) 音義 in brackets, (pos, pos, ZHU_OPEN) where a 注 begins. `free` are the
    labels that text no evidence fixes may take (a layout that marks every 注 allows only 經).
    `bare_quotes`: the 疏 quote the text unpunctuated, `X者` (the 四庫's): each quoted clause
    is 經 (bare_quotes.py), where the text would otherwise run on as 注.
    """
    g = GroupText(lines)
    ev = Evidence.of(shus)
    cuts = _base_cuts(g)
    forced: list[tuple[int, int, str, str, float]] = []       # (start, end, label, method, conf)
    opens: list[int] = []
    for li, line_marks in enumerate(marks or []):
        base = g.starts[li]
        for a, b, label in line_marks:
            if label == ZHU_OPEN:
                opens.append(base + a)
                cuts.add(base + a)
            else:
                forced.append((base + a, base + b, label, "delimiter", CONF_DELIMITER))
    kept = {k for a, b, label, *_ in forced if label in (MARK, SCORE) for k in range(a, b)}
    for i in g.circles:                 # a ○ a layout marks as text (a score, a printed mark) stays
        if i not in kept:
            forced.append((i, i + 1, O, "delimiter", CONF_DELIMITER))
    unmarked = unmarked_jing(g, shus, forced, opens, layer_model, clauses) if bare_quotes else []
    forced += unmarked
    zhu_spans = locate_zhu(g, ev, forced, opens)
    forced += zhu_spans
    forced += locate_jing(g, ev, forced, opens, cuts)
    for a, b, *_ in forced:
        cuts.update((a, b))
    bounds = sorted(cuts)
    segs = [Seg(a, b) for a, b in zip(bounds, bounds[1:])]     # a set: each b > a
    _apply(segs, [f for f in forced if f[2] != J] + unmarked)    # (disjoint: each in a 注 run)
    for s in segs:
        if s.start in opens and s.label is None:
            s.label, s.method, s.conf = Z, "delimiter", CONF_DELIMITER
    _yinyi_runs(g, segs)
    _apply(segs, [f for f in forced if f[2] == J])   # a 經 lemma span encloses 注 and 音義 too
    _line_starts(g, segs)
    label_rest(g, ev, segs, free)
    return _units(g, segs, zhu_resp, report)


def _base_cuts(g: GroupText) -> set[int]:
    cuts = {0, len(g.text)} | set(g.starts)
    for m in SENTENCE_END.finditer(g.text):
        cuts.add(m.end())
    for i in g.circles:
        cuts.update((i, i + 1))
    return cuts


def _apply(segs: list[Seg], forced) -> None:
    """Give each forced label to the open segments inside its span (segs are in text order:
    each span looks only at its own segments, so the cost is the spans and segments, once)."""
    starts = [s.start for s in segs]
    for a, b, label, method, conf in forced:
        for k in range(bisect.bisect_left(starts, a), len(segs)):
            s = segs[k]
            if s.end > b:
                break
            if s.label is None:
                s.label, s.method, s.conf = label, method, conf


def _yinyi_runs(g: GroupText, segs: list[Seg]) -> None:
    """A ○ opens 音義, and gloss-like sentences go on with it; gloss-like sentences straight
    after a 注 are 音義 too (e-texts that run the 音義 on after the 注 with no ○ before it)."""
    prev = None
    for s in segs:
        text = g.text[s.start:s.end]
        if s.label is None and prev is not None:
            if prev.label == O:
                s.label, s.method, s.conf = Y, "delimiter", CONF_DELIMITER
            elif prev.label in (Z, Y) and cues.is_gloss(text):
                s.label, s.method, s.conf = Y, "cue", CONF_GLOSS_CUE
        prev = s


def _line_starts(g: GroupText, segs: list[Seg]) -> None:
    """A line opens with 經."""
    starts = set(g.starts)
    for s in segs:
        if s.start in starts and s.label is None:
            s.label, s.method, s.conf = J, "line", CONF_LINE


def _units(g: GroupText, segs: list[Seg], zhu_resp: str, report: Report) -> list[Unit]:
    units = []
    per_line = by_line(g, segs)
    for li, loc in enumerate(g.lines):
        base = g.starts[li]
        out: list[Piece] = []
        runs = _runs(per_line[li])
        for label, a, b, first in runs:
            if label in _DROPPED:
                continue
            pos = g.pos(a)
            if label == MARK:
                out.append(Piece(MARK, g.text[a:b], pos))
                continue
            if label == SCORE:
                out.append(Piece(J, g.text[a:b], pos, literal=True))
                continue
            if out or label != J:
                prev = next((p.layer for p in reversed(out) if p.layer != MARK), J)
                kind = f"{prev}|{label}"
                report.boundary(kind, first.method, first.conf, pos)
                if first.conf < LOW_CONFIDENCE:
                    report.warn("ZS-CONV-BOUNDARY", f"uncertain {kind.replace('|', '→')} boundary "
                                f"(found by {first.method}, confidence {first.conf})", pos)
            if label == J:
                out.append(Piece(J, loc.text[a - base:b - base], pos))
            elif label == Z:
                target = next((p for p in reversed(out) if p.layer == J), None)
                out.append(Piece(Z, loc.text[a - base:b - base], pos, resp=zhu_resp, target=target))
            else:       # only glosses need the source positions inside the run
                sub = loc.slice(a - base, b - base)
                out += pieces.glosses(sub, 0, len(sub), out, report)
        units.append(Unit(out, loc.pos(0)))
    return units


def _runs(segs: list[Seg]):
    """Consecutive segments with one label, as (label, start, end, first segment)."""
    runs = []
    for s in segs:
        if runs and runs[-1][0] == s.label and s.label != O:
            runs[-1][2] = s.end
        else:
            runs.append([s.label, s.start, s.end, s])
    return [tuple(r) for r in runs]
