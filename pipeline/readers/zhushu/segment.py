"""Recovering 經 / 注 / 音義 where the text runs them together, from the 疏 that follows.

Most 注疏 e-texts print a 經 paragraph, its 注 and its 音義 as one run of text. What tells them
apart is the 疏: its 出文 lemmas quote the first and last characters of the 經 span (`“大凡”至
“变也”`) and of each 注 (`注“生时”至“法也”`), and its sub-lemmas (`○“大凡生於…”者`) quote 經
phrases. This module turns that evidence into layer boundaries:

1. The group's text is cut into sentences (at 。？！；), at each ○, and at each line start.
2. Hard evidence fixes labels: a ○ opens 音義; each 注 lemma fixes a 注 span (the occurrence
   that follows the 經 lemma's last characters wins over an earlier one inside the 經); each
   經 lemma fixes its span; gloss-like sentences right after a 注 are 音義.
3. Every sentence still open gets the most likely label by dynamic programming over the
   sequence (經 → 注 → 音義 → 經 …), scored with textual cues (`cues.py`) and the sub-lemmas.

Every boundary is reported with how it was found and a confidence; weak ones become warnings.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from pipeline.matching import find_all, squeeze
from pipeline.model import JING, MARK, YINYI, ZHU, Piece, Pos, Shu, Unit
from pipeline.readers.zhushu import bare_quotes, cues, pieces
from pipeline.readers.zhushu.anchoring import Stream, SubQuote
from pipeline.readers.zhushu.lemmas import sub_quotes
from pipeline.report import Report
from pipeline.sources.located import Located

J, Z, Y, O = JING, ZHU, YINYI, "o"          # O: a ○ delimiter, dropped from the text
B = "b"                                     # a bracket delimiter (【 】), dropped from the text
ZHU_OPEN = "zhu-open"                       # a mark: a 注 begins here
SCORE = "score"                             # 經 printed in symbols (a drum score): kept as it is
_DROPPED = (O, B)
_SENTENCE_END = re.compile(r"[。？！；][”’」』）)]*")
_TRAILING = set("，。；：？！、”’」』）)")
_OPENING = set("“‘「『《（(")

# Label confidences by how a boundary was found.
CONF_DELIMITER, CONF_LEMMA, CONF_LEMMA_FUZZY, CONF_LINE = 1.0, 1.0, 0.8, 0.9
# An unpunctuated X者 quote (the clause is the group's; the 經 may begin before it), the cut
# statistics place before a quote, or alone (cues.LayerModel), and a run cut at its middle.
CONF_QUOTE, CONF_QUOTE_CUE, CONF_POSITION = 0.9, 0.75, 0.3
LOW_CONFIDENCE = 0.6


@dataclass
class Evidence:
    """What a group's 疏 says about the text before it."""
    jing: list[list[str]] = field(default_factory=list)     # quotes of each 經 lemma, in order
    zhu: list[list[str]] = field(default_factory=list)      # quotes of each 注 lemma, in order
    jing_phrases: list[str] = field(default_factory=list)   # sub-lemmas under 經 lemmas
    zhu_phrases: list[str] = field(default_factory=list)    # sub-lemmas under 注 lemmas
    # (squeezed, none empty: a sub-lemma of punctuation alone is evidence of nothing)

    @classmethod
    def of(cls, shus: list[Shu]) -> "Evidence":
        ev = cls()
        for s in shus:
            if s.chuwen is None:
                continue
            (ev.jing if s.chuwen.layer == JING else ev.zhu).append(s.chuwen.quotes)
            phrases = ev.jing_phrases if s.chuwen.layer == JING else ev.zhu_phrases
            for p in s.paras:
                phrases += [q.squeezed[0] for q in sub_quotes(p) if _is_phrase(q)]
        return ev


def _is_phrase(q: SubQuote) -> bool:
    """A sub-lemma that quotes one phrase (`“X”者`: a single quote has its 者), two characters
    or more, and not all punctuation."""
    a, b = q.spans[0]
    return len(q.spans) == 1 and b - a >= 2 and q.squeezed[0] != ""


@dataclass(slots=True)
class _Seg:
    start: int
    end: int
    label: str | None = None                  # forced label, or the one the DP chose
    method: str = ""                          # how a forced label was found
    conf: float = 0.0


class _Group:
    """The text of a group's lines, concatenated, with the way back to each line."""

    def __init__(self, lines: list[Located]):
        self.lines = lines
        self.starts, n = [], 0
        for loc in lines:
            self.starts.append(n)
            n += len(loc)
        self.text = "".join(loc.text for loc in lines)
        self.stream = Stream.of([Piece(J, loc.text, Pos(0, 0)) for loc in lines])
        self.circles = _positions(self.text, "○")          # each ○ delimiter

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1

    def pos(self, offset: int) -> Pos:
        i = self.line_of(offset)
        return self.lines[i].pos(offset - self.starts[i])

    def offset(self, stream_index: int) -> int:
        pi, off = self.stream.where(stream_index)
        return self.starts[pi] + off

    def start_offset(self, stream_index: int) -> int:
        """The offset of stream character `stream_index`, taking opening quotes before it."""
        pos = self.offset(stream_index)
        line_start = self.starts[self.line_of(pos)]
        while pos > line_start and self.text[pos - 1] in _OPENING:
            pos -= 1
        return pos

    def end_offset(self, stream_index: int) -> int:
        """The offset just after stream character `stream_index`, taking trailing punctuation."""
        pos = self.offset(stream_index) + 1
        line_end = self._line_end(pos - 1)
        while pos < line_end and self.text[pos] in _TRAILING:
            pos += 1
        return pos

    def _line_end(self, offset: int) -> int:
        i = self.line_of(offset)
        return self.starts[i + 1] if i + 1 < len(self.starts) else len(self.text)


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
    g = _Group(lines)
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
    unmarked = _unmarked_jing(g, shus, forced, opens, layer_model, clauses) if bare_quotes else []
    forced += unmarked
    zhu_spans = _locate_zhu(g, ev, forced, opens)
    forced += zhu_spans
    forced += _locate_jing(g, ev, forced, opens, cuts)
    for a, b, *_ in forced:
        cuts.update((a, b))
    bounds = sorted(cuts)
    segs = [_Seg(a, b) for a, b in zip(bounds, bounds[1:])]     # a set: each b > a
    _apply(segs, [f for f in forced if f[2] != J] + unmarked)    # (disjoint: each in a 注 run)
    for s in segs:
        if s.start in opens and s.label is None:
            s.label, s.method, s.conf = Z, "delimiter", CONF_DELIMITER
    _yinyi_runs(g, segs)
    _apply(segs, [f for f in forced if f[2] == J])   # a 經 lemma span encloses 注 and 音義 too
    _line_starts(g, segs)
    _label_rest(g, ev, segs, free)
    return _units(g, segs, zhu_resp, report)


def _unmarked_jing(g: _Group, shus: list[Shu], forced, opens: list[int],
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
        if label in (MARK, B, Y, O):
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
                method, conf = "cue", round(min(0.85, 0.4 + margin / 10), 2)
        elif q is not None:
            cut, method, conf = hi, "quote", CONF_QUOTE
        else:
            cut, method, conf = max(1, len(text) // 2), "position", CONF_POSITION
        out.append((a + cut, e, J, method, conf))
    return out


_ZHU_MARKS = ("注", "註")
# The shortest 注 before an unmarked 經: 鄭玄 glosses a 經 in a few characters at least (禮記註疏:
# 20 of its 1,061 such runs hold a 注 of one or two characters, against SBCK, while the
# statistics alone cut 190 there). Measured in docs/score.md.
MIN_ZHU = 3


def _first_quotes(g: _Group, shus: list[Shu], blocked, runs) -> dict[int, tuple[int, int]]:
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
    for f in bare_quotes.find(paras, index, (J,)):
        k = bisect.bisect_right(starts, f.start) - 1
        if k >= 0 and f.start < runs[k][1]:
            first[k] = (first[k][0] if k in first else f.start, min(f.stop, runs[k][1]))
    return first


def _positions(text: str, ch: str) -> list[int]:
    """Where `ch` occurs in `text` (str.find: a Python loop over every character is slow)."""
    out, i = [], text.find(ch)
    while i != -1:
        out.append(i)
        i = text.find(ch, i + 1)
    return out


def _base_cuts(g: _Group) -> set[int]:
    cuts = {0, len(g.text)} | set(g.starts)
    for m in _SENTENCE_END.finditer(g.text):
        cuts.add(m.end())
    for i in g.circles:
        cuts.update((i, i + 1))
    return cuts


def _inside(pos: int, spans) -> bool:
    return any(a <= pos < b for a, b, *_ in spans)


def _locate_zhu(g: _Group, ev: Evidence, forced, opens: list[int]):
    """注 spans from the 注 lemmas, taken in order. A start that follows the 經 lemma's last
    characters (or a sentence end) is preferred over one inside the 經 (七代 of 七代之所更立者
    vs 七代通数…)."""
    ends = [squeeze(q[-1]) for q in ev.jing if q]
    chars = g.stream.chars
    spans, lo = [], 0
    for quotes in ev.zhu:
        q1, q2 = squeeze(quotes[0]), squeeze(quotes[-1])
        best = None
        for s, bad in find_all(chars, q1, lo):
            off = g.offset(s)
            if _inside(off, forced) or off in g.starts:
                continue
            score = -bad
            if any(e and chars.endswith(e, 0, s) for e in ends):     # no copy of chars[:s]
                score += 3
            prev = g.text[off - 1] if off else ""
            if off in opens:                        # right after a printed 注 marker
                score += 3
            elif prev in "。？！；”":
                score += 1.5
            elif prev in "，：":
                score += 0.5
            if best is None or score > best[0]:
                best = (score, s, bad)
        if best is None:
            continue
        _, s, bad = best
        end = None
        if len(quotes) == 1:
            end, bad_end = s + len(q1) - 1, 0
        else:
            line_end_stream = _stream_line_end(g, s)
            for e, b in find_all(chars, q2, s, line_end_stream):
                e_last = e + len(q2) - 1
                if e_last < s + len(q1) - 1 or _inside(g.offset(e_last), forced):
                    continue
                end, bad_end = e_last, b
                nxt = g.end_offset(e_last)
                if nxt >= len(g.text) or g.text[nxt - 1] in "。？！；”○" or g.text[nxt:nxt + 1] == "○":
                    break                                   # a sentence end: take it
        if end is None:
            continue
        a, b = g.start_offset(s), g.end_offset(end)
        conf = CONF_LEMMA if bad + bad_end == 0 else CONF_LEMMA_FUZZY
        spans.append((a, b, Z, "lemma", conf))
        lo = end + 1
    return spans


def _stream_line_end(g: _Group, s: int) -> int:
    pi = g.stream.where(s)[0]
    return g.stream.starts[pi + 1] if pi + 1 < len(g.stream.starts) else len(g.stream.chars)


def _locate_jing(g: _Group, ev: Evidence, forced, opens: list[int], cuts: set[int]):
    """經 spans from the 經 lemmas: from the first characters (at a line or sentence start) to
    the last occurrence of the last characters outside any 注 or 音義, before the next 經 lemma;
    an occurrence followed by a boundary (a sentence end, a marker, a 注) is preferred."""
    bounds = set(cuts) | set(opens) | {a for a, *_ in forced}
    chars = g.stream.chars
    starts = []
    lo = 0
    for quotes in ev.jing:
        q1 = squeeze(quotes[0])
        cands = [s for s, _ in find_all(chars, q1, lo) if not _inside(g.offset(s), forced)]
        if not cands:
            starts.append(None)
            continue
        at_start = [s for s in cands if g.offset(s) in g.starts
                    or g.text[g.offset(s) - 1] in "。？！；”○"]
        s = (at_start or cands)[0]
        starts.append(s)
        lo = s + 1
    spans = []
    for k, (quotes, s) in enumerate(zip(ev.jing, starts)):
        if s is None:
            continue
        q1, q2 = squeeze(quotes[0]), squeeze(quotes[-1])
        hi = next((t for t in starts[k + 1:] if t is not None), _stream_line_end(g, s))
        if len(quotes) == 1:
            end = s + len(q1) - 1
        else:
            ends = [e + len(q2) - 1 for e, _ in find_all(chars, q2, s, hi)
                    if not _inside(g.offset(e + len(q2) - 1), forced)]
            ends = [e for e in ends if e >= s + len(q1) - 1]
            if not ends:
                continue
            bounded = [e for e in ends if g.end_offset(e) in bounds]
            end = (bounded or ends)[-1]
            if not ev.zhu:
                # Nothing fixes the 注 here, so the last occurrence may lie inside it: take the
                # first one after which a sentence opens as 鄭玄's 注 do, if there is one.
                for e in bounded:
                    after = g.end_offset(e)
                    nxt = _SENTENCE_END.search(g.text, after)
                    sentence = g.text[after:nxt.end() if nxt else len(g.text)]
                    if cues.zhu_score(sentence, g.text[g.start_offset(s):after]) >= 2.5:
                        end = e
                        break
        a, b = g.start_offset(s), g.end_offset(end)
        spans.append((a, b, J, "lemma", CONF_LEMMA))
    return spans


def _apply(segs: list[_Seg], forced) -> None:
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


def _yinyi_runs(g: _Group, segs: list[_Seg]) -> None:
    """A ○ opens 音義, and gloss-like sentences go on with it; gloss-like sentences straight
    after a 注 are 音義 too (002 prints them with no ○)."""
    prev = None
    for s in segs:
        text = g.text[s.start:s.end]
        if s.label is None and prev is not None:
            if prev.label == O:
                s.label, s.method, s.conf = Y, "delimiter", CONF_DELIMITER
            elif prev.label in (Z, Y) and cues.is_gloss(text):
                s.label, s.method, s.conf = Y, "cue", 0.9
        prev = s


def _line_starts(g: _Group, segs: list[_Seg]) -> None:
    """A line opens with 經."""
    starts = set(g.starts)
    for s in segs:
        if s.start in starts and s.label is None:
            s.label, s.method, s.conf = J, "line", CONF_LINE


# Transition scores between consecutive labels, and the baseline cost of each label.
# Entering a 注 costs what an opening cue must pay for; staying in it is free (a 注 runs on
# until 音義 or evidence of 經); going back to 經 needs evidence too.
_TRANS = {(J, J): 0, (J, Z): -2.5, (J, Y): -3, (Z, Z): 0, (Z, Y): 0, (Z, J): -2,
          (Y, Y): 0, (Y, J): 0, (Y, Z): -4}
_BASE = {J: 0.0, Z: 0.0, Y: -8.0}
# _TRANS by the label moved into, then the label left: _INTO[lab][p] == _TRANS[p, lab] (the
# Viterbi step looks up nine a sentence; a pair key is a tuple built and hashed each time)
_INTO = {lab: {p: t for (p, to), t in _TRANS.items() if to == lab} for lab in (J, Z, Y)}


def _by_line(g: _Group, segs: list[_Seg]) -> list[list[_Seg]]:
    """The segments of each line of the group (segs are in text order)."""
    out: list[list[_Seg]] = [[] for _ in g.starts]
    for s in segs:
        out[g.line_of(s.start)].append(s)
    return out


def _label_rest(g: _Group, ev: Evidence, segs: list[_Seg], free: tuple[str, ...]) -> None:
    """Viterbi over each line's segments; forced labels are fixed, the rest scored by cues."""
    for line_segs in _by_line(g, segs):
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
        e[Y] += 10
    if any(map(sq.__contains__, ev.jing_phrases)):      # a sub-lemma lies in the segment
        e[J] += 3
    if any(map(sq.__contains__, ev.zhu_phrases)):
        e[Z] += 3
    return e


def _viterbi(g: _Group, ev: Evidence, line: list[_Seg], free: tuple[str, ...]) -> None:
    best: list[dict[str, tuple[float, str | None]]] = []
    prev: dict[str, tuple[float, str | None]] | None = None
    jing_before = ""
    for seg in line:
        text = g.text[seg.start:seg.end]
        em = _emission(ev, text, jing_before)
        col = {}
        for lab in ((seg.label,) if seg.label is not None else free):
            e = em[lab]
            if prev is None:
                col[lab] = (e, None)
                continue
            # The best way into `lab`; the first of equal scores wins. (Inline: this runs
            # nine times a sentence, and a call per step cost a tenth of the labelling.)
            into = _INTO[lab]
            top, top_prev = None, None
            for p, (score, _) in prev.items():
                s = score + into[p] + e
                if top is None or s > top:
                    top, top_prev = s, p
            col[lab] = (top, top_prev)
        best.append(col)
        prev = col
        if seg.label in (J, None):
            jing_before += text
    lab = _argmax(best[-1])
    for i in range(len(line) - 1, -1, -1):
        seg = line[i]
        if seg.label is None:
            seg.label, seg.method = lab, "cue"
            seg.conf = round(min(0.85, 0.45 + _margin(best[i]) / 10), 2)
        lab = best[i][lab][1] or lab


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


def _units(g: _Group, segs: list[_Seg], zhu_resp: str, report: Report) -> list[Unit]:
    units = []
    per_line = _by_line(g, segs)
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


def _runs(segs: list[_Seg]):
    """Consecutive segments with one label, as (label, start, end, first segment)."""
    runs = []
    for s in segs:
        if runs and runs[-1][0] == s.label and s.label != O:
            runs[-1][2] = s.end
        else:
            runs.append([s.label, s.start, s.end, s])
    return [tuple(r) for r in runs]


