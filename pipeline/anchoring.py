"""Find the text a 出文 lemma or a 音義 head names, and point at it.

Lemma quotes skip punctuation (傧进 = 傧，进), may differ from the text by one character (a variant or
an error: 令令野庐氏 for 令，令野卢氏), and placeholders (? ┹ ▯ □) match any character. A span that
starts or ends inside a piece gets an anchor there; a span that covers whole pieces points at them.
"""
from __future__ import annotations

from dataclasses import dataclass

from .chars import PLACEHOLDERS, PUNCTUATION, WHITESPACE
from .model import JING, ZHU, Piece, Pointable, Shu, Unit
from .report import Report

_SKIP = PUNCTUATION | WHITESPACE


def squeeze(s: str) -> str:
    """The characters that lemma matching compares: no punctuation, no whitespace."""
    return "".join(c for c in s if c not in _SKIP)


@dataclass(slots=True)
class Stream:
    """The characters of some pieces, punctuation removed, each remembering where it came from."""
    chars: str
    where: list[tuple[int, int]]          # (piece index, offset in piece.text)
    pieces: list[Piece]

    @classmethod
    def of(cls, pieces: list[Piece]) -> "Stream":
        chars, where = [], []
        for pi, p in enumerate(pieces):
            for off, c in enumerate(p.text):
                if c not in _SKIP:
                    chars.append(c)
                    where.append((pi, off))
        return cls("".join(chars), where, pieces)


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
    allowed = 1 if n >= 3 else 0
    found = []
    for s in range(lo, hi - n + 1):
        bad = 0
        for k in range(n):
            if not _same(hay[s + k], quote[k]):
                bad += 1
                if bad > allowed:
                    break
        else:
            found.append((s, bad))
    return found


def matches(text: str, quote: str, where: str) -> bool:
    """Does squeezed `text` start (where='start'), end ('end') with or contain ('anywhere')
    `quote`, tolerating one differing character in quotes of three or more? For the validator."""
    t, q = squeeze(text), squeeze(quote)
    if len(t) < len(q):
        return False
    if where == "anywhere":
        return bool(find_all(t, q, fuzzy=len(q) > 1))
    t = t[: len(q)] if where == "start" else t[len(t) - len(q):]
    bad = sum(1 for a, b in zip(t, q) if not _same(a, b))
    return bad <= (1 if len(q) >= 3 else 0)


def _pointer(piece: Piece, offset: int, at_end: bool) -> Pointable:
    """The whole piece when only punctuation lies beyond the boundary, else an anchor."""
    if at_end:
        if all(c in _SKIP for c in piece.text[offset:]):
            return piece
    elif all(c in _SKIP for c in piece.text[:offset]):
        return piece
    return piece.anchor_at(offset)


@dataclass(slots=True)
class Span:
    start: Pointable
    end: Pointable | None                  # None: the span is `start` alone
    first: int                             # stream indices, for ordering between lemmas
    last: int
    mismatches: int = 0                    # characters where quote and text differ


def locate(stream: Stream, quotes: list[str], lo: int = 0, hi: int | None = None,
           reach: str = "near") -> Span | None:
    """The span that begins with quotes[0] and ends with quotes[-1] inside stream[lo:hi].

    Starts at a piece boundary are preferred. `reach` picks the end: 'near' the first fitting
    end, 'far' the last one (a 經 lemma often covers several sentences of its paragraph).
    """
    qs = [squeeze(q) for q in quotes]
    if not qs or not qs[0]:
        return None
    hi = len(stream.chars) if hi is None else hi
    starts = find_all(stream.chars, qs[0], lo, hi)
    if not starts:
        return None

    def at_piece_start(i: int) -> bool:
        return i == 0 or stream.where[i - 1][0] != stream.where[i][0]

    def at_piece_end(i: int) -> bool:
        return i == len(stream.where) - 1 or stream.where[i + 1][0] != stream.where[i][0]

    starts.sort(key=lambda s: (s[1], not at_piece_start(s[0]), s[0]))
    for s, bad in starts:
        if len(qs) == 1:
            e_last, bad_end = s + len(qs[0]) - 1, 0
        else:
            ends = [(e + len(qs[-1]) - 1, b) for e, b in find_all(stream.chars, qs[-1], s, hi)]
            ends = [e for e in ends if e[0] >= s + len(qs[0]) - 1]
            if not ends:
                continue
            fitting = [e for e in ends if at_piece_end(e[0])] or ends
            e_last, bad_end = fitting[-1] if reach == "far" else fitting[0]
        return _span(stream, s, e_last, bad + bad_end)
    return None


def _span(stream: Stream, first: int, last: int, mismatches: int = 0) -> Span:
    pi, off = stream.where[first]
    pj, offj = stream.where[last]
    a, b = stream.pieces[pi], stream.pieces[pj]
    start = _pointer(a, off, at_end=False)
    end = _pointer(b, offj + 1, at_end=True)
    if start is a and end is b and a is b:
        return Span(a, None, first, last, mismatches)
    return Span(start, end, first, last, mismatches)


def gloss_target(pieces: list[Piece], head: str) -> Piece | None:
    """The piece whose text holds a 音義 head. 陸德明 glosses the 經 first and marks 注同 when the
    注 shares the reading, so 經 pieces are searched before 注, each from the nearest back."""
    q = squeeze(head)
    if not q:
        return None
    ordered = [p for p in reversed(pieces) if p.layer == JING] + \
              [p for p in reversed(pieces) if p.layer == ZHU]
    for p in ordered:
        if find_all(squeeze(p.text), q, fuzzy=len(q) > 1):
            return p
    return None


def resolve_group(units: list[Unit], shus: list[Shu], report: Report) -> None:
    """Point each 疏 of a group at the span its 出文 names in the group's units.

    Lemmas are taken in order: each one's start lies after the previous start of the same layer,
    and a 經 lemma reaches as far as it can before the next 經 lemma begins.
    """
    pieces = [p for u in units for p in u.pieces]
    streams = {JING: Stream.of([p for p in pieces if p.layer == JING]),
               ZHU: Stream.of([p for p in pieces if p.layer == ZHU])}
    lo = {JING: 0, ZHU: 0}
    with_lemma = [s for s in shus if s.chuwen]
    for i, shu in enumerate(with_lemma):
        cw = shu.chuwen
        layers = [cw.layer, ZHU if cw.layer == JING else JING]
        span = None
        for layer in layers:
            st = streams[layer]
            reach = "far" if layer == JING else "near"
            span = locate(st, cw.quotes, lo[layer], reach=reach)
            if span is None:
                continue
            nxt = next((t.chuwen for t in with_lemma[i + 1:] if t.chuwen.layer == layer), None)
            if nxt is not None:
                nstarts = [s for s, _ in find_all(st.chars, squeeze(nxt.quotes[0]), span.first + 1)]
                if nstarts and nstarts[0] <= span.last:
                    bounded = locate(st, cw.quotes, lo[layer], nstarts[0], reach=reach)
                    span = bounded or span
            lo[layer] = span.first + 1
            if layer != cw.layer:
                report.warn("ZS-CONV-LEMMA-LAYER",
                            f"出文 {_show(cw)} names the {_LAYER_NAME[cw.layer]} but matches the "
                            f"{_LAYER_NAME[layer]}", cw.pos)
            break
        if span is None:
            report.warn("ZS-CONV-LEMMA", f"出文 {_show(cw)} not found in the preceding 經 or 注; "
                        "the 疏 is kept without a target", cw.pos)
            continue
        shu.target, shu.target_end = span.start, span.end
        conf = 1.0 if span.mismatches == 0 else 0.8
        report.boundary("shu-target", "lemma", conf, cw.pos,
                        f"{_show(cw)}" + (f" ({span.mismatches} differing)" if span.mismatches else ""))
    jing = [p for p in pieces if p.layer == JING]
    for shu in shus:
        if shu.chuwen is None and not shu.detached and jing:
            shu.target, shu.target_end = jing[0], (jing[-1] if len(jing) > 1 else None)
            report.warn("ZS-CONV-NOLEMMA", "疏 without a 出文 lemma; attached to the preceding 經",
                        shu.pos)


_LAYER_NAME = {JING: "經", ZHU: "注"}


def _show(cw) -> str:
    return "".join(t.text for t in cw.tokens)
