"""What a group's 疏 says about the run-on text before it, and where its lemmas put 注 and 經.

The 出文 lemmas quote the first and last characters of the 經 span (`“大凡”至“变也”`) and of each
注 (`注“生时”至“法也”`); the sub-lemmas (`○“大凡生於…”者`) quote 經 or 注 phrases. The group's lines
are read as one text (GroupText) with the way back to each line and to the squeezed stream the
quotes are searched in.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from pipeline.matching import find_all, squeeze
from pipeline.model import JING, ZHU, Piece, Pos, Shu
from pipeline.readers.zhushu import cues
from pipeline.readers.zhushu.anchoring import Stream, SubQuote
from pipeline.readers.zhushu.lemmas import sub_quotes
from pipeline.sources.located import Located

SENTENCE_END = re.compile(r"[。？！；][”’」』）)]*")
_TRAILING = set("，。；：？！、”’」』）)")
_OPENING = set("“‘「『《（(")
# A span found by its lemma, quoted exactly or with one character differing.
CONF_LEMMA, CONF_LEMMA_FUZZY = 1.0, 0.8


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


class GroupText:
    """The text of a group's lines, concatenated, with the way back to each line."""

    def __init__(self, lines: list[Located]):
        self.lines = lines
        self.starts, n = [], 0
        for loc in lines:
            self.starts.append(n)
            n += len(loc)
        self.text = "".join(loc.text for loc in lines)
        self.stream = Stream.of([Piece(JING, loc.text, Pos(0, 0)) for loc in lines])
        self.circles = positions(self.text, "○")          # each ○ delimiter

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


def positions(text: str, ch: str) -> list[int]:
    """Where `ch` occurs in `text` (str.find: a Python loop over every character is slow)."""
    out, i = [], text.find(ch)
    while i != -1:
        out.append(i)
        i = text.find(ch, i + 1)
    return out


def inside(pos: int, spans) -> bool:
    return any(a <= pos < b for a, b, *_ in spans)


# Where a 注 lemma's first characters are taken, of their occurrences: a 注 follows the 經 it
# explains, so right after the 經 lemma's last characters is likeliest (七代 of 七代通数 over 七代
# of 七代之所更立者), as is right after a printed 注 marker; a 注 starts a sentence far more
# often than a clause; each differing character counts against it.
START_AFTER_JING, START_AFTER_MARKER, START_AFTER_SENTENCE, START_AFTER_CLAUSE = 3.0, 3.0, 1.5, 0.5
START_VARIANT = 1


def locate_zhu(g: GroupText, ev: Evidence, forced, opens: list[int]):
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
            if inside(off, forced) or off in g.starts:
                continue
            score = -bad * START_VARIANT
            if any(e and chars.endswith(e, 0, s) for e in ends):     # no copy of chars[:s]
                score += START_AFTER_JING
            prev = g.text[off - 1] if off else ""
            if off in opens:
                score += START_AFTER_MARKER
            elif prev in "。？！；”":
                score += START_AFTER_SENTENCE
            elif prev in "，：":
                score += START_AFTER_CLAUSE
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
                if e_last < s + len(q1) - 1 or inside(g.offset(e_last), forced):
                    continue
                end, bad_end = e_last, b
                nxt = g.end_offset(e_last)
                if nxt >= len(g.text) or g.text[nxt - 1] in "。？！；”○" or g.text[nxt:nxt + 1] == "○":
                    break                                   # a sentence end: take it
        if end is None:
            continue
        a, b = g.start_offset(s), g.end_offset(end)
        conf = CONF_LEMMA if bad + bad_end == 0 else CONF_LEMMA_FUZZY
        spans.append((a, b, ZHU, "lemma", conf))
        lo = end + 1
    return spans


def _stream_line_end(g: GroupText, s: int) -> int:
    pi = g.stream.where(s)[0]
    return g.stream.starts[pi + 1] if pi + 1 < len(g.stream.starts) else len(g.stream.chars)


def locate_jing(g: GroupText, ev: Evidence, forced, opens: list[int], cuts: set[int]):
    """經 spans from the 經 lemmas: from the first characters (at a line or sentence start) to
    the last occurrence of the last characters outside any 注 or 音義, before the next 經 lemma;
    an occurrence followed by a boundary (a sentence end, a marker, a 注) is preferred."""
    bounds = set(cuts) | set(opens) | {a for a, *_ in forced}
    chars = g.stream.chars
    starts = []
    lo = 0
    for quotes in ev.jing:
        q1 = squeeze(quotes[0])
        cands = [s for s, _ in find_all(chars, q1, lo) if not inside(g.offset(s), forced)]
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
                    if not inside(g.offset(e + len(q2) - 1), forced)]
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
                    nxt = SENTENCE_END.search(g.text, after)
                    sentence = g.text[after:nxt.end() if nxt else len(g.text)]
                    if cues.zhu_score(sentence, g.text[g.start_offset(s):after]) >= cues.OPENS_ZHU:
                        end = e
                        break
        a, b = g.start_offset(s), g.end_offset(end)
        spans.append((a, b, JING, "lemma", CONF_LEMMA))
    return spans
