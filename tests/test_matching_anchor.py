"""The fast forms of lemma and sub-lemma anchoring agree with the plain definitions.

find_all filters windows bit-parallel where the text has placeholders, and locate takes a
short cut for a single exact quote; these tests hold them to straightforward versions (the
candidate-by-candidate search they replace) on random texts dense with placeholders.
"""
import random

from pipeline.matching import find_all, find_all_plain, squeeze
from pipeline.model import JING, Piece, Pos
from pipeline.readers.zhushu.anchoring import Stream, locate

ALPHABET = "之也者其而以不為人子"
WILD = "?┹▯□"


def _text(rnd, n, wild_rate):
    return "".join(rnd.choice(WILD) if rnd.random() < wild_rate else rnd.choice(ALPHABET[:rnd.randint(2, 10)])
                   for _ in range(n))


def test_find_all_matches_the_plain_search():
    rnd = random.Random(7)
    for _ in range(30000):
        hay = _text(rnd, rnd.randint(0, 60), rnd.choice((0, 0.05, 0.3, 0.7)))
        if rnd.random() < 0.5 and len(hay) > 4:          # quotes taken from the text, altered
            a = rnd.randrange(len(hay) - 2)
            quote = list(hay[a:a + rnd.randint(1, 12)])
            for _ in range(rnd.randint(0, 2)):
                quote[rnd.randrange(len(quote))] = rnd.choice(ALPHABET + WILD)
            quote = "".join(quote)
        else:
            quote = _text(rnd, rnd.randint(1, 10), rnd.choice((0, 0.1, 0.5)))
        lo = rnd.randint(0, max(0, len(hay) - 1)) if rnd.random() < 0.5 else 0
        hi = rnd.randint(lo, len(hay)) if rnd.random() < 0.5 else None
        fuzzy = rnd.random() < 0.9
        assert find_all(hay, quote, lo, hi, fuzzy) == find_all_plain(hay, quote, lo, hi, fuzzy), \
            (hay, quote, lo, hi, fuzzy)


def _where_plain(stream, i):
    """(piece index, offset in its text) of stream character i, counting kept characters."""
    for pi in range(len(stream.pieces) - 1, -1, -1):
        if stream.starts[pi] <= i:
            break
    k = i - stream.starts[pi]
    for off, c in enumerate(stream.pieces[pi].text):
        if squeeze(c):
            if k == 0:
                return pi, off
            k -= 1
    raise AssertionError("past the piece")


def _point(stream, i, whole, edge):
    """What a span's end at stream character i points at, as a comparable value."""
    pi, off = _where_plain(stream, i)
    return ("piece", pi) if whole else ("anchor", pi, off + edge)


def _locate_plain(stream, qs, lo, hi, fuzzy):
    """locate with one quote as first written: every occurrence listed, the best picked by
    (mismatches, not at a piece start, position); the span as comparable values."""
    hi = len(stream.chars) if hi is None else hi
    starts = find_all_plain(stream.chars, qs[0], lo, hi, fuzzy)
    if not starts:
        return None
    s, bad = min(starts, key=lambda st: (st[1], not stream.at_piece_start(st[0]), st[0]))
    e = s + len(qs[0]) - 1
    return (_point(stream, s, stream.at_piece_start(s), 0),
            _point(stream, e, stream.at_piece_end(e), 1), s, e, bad)


def _shown(span, stream):
    """A span from locate as the same comparable values."""
    def show(p):
        if isinstance(p, Piece):
            return ("piece", max(k for k, q in enumerate(stream.pieces) if q is p))
        owner = next(k for k, q in enumerate(stream.pieces) if any(a is p for a in q.anchors))
        return ("anchor", owner, p.offset)
    if span is None:
        return None
    end = span.start if span.end is None else span.end
    return show(span.start), show(end), span.first, span.last, span.mismatches


def test_locate_one_quote_matches_the_plain_search():
    rnd = random.Random(11)
    for _ in range(5000):
        texts = []
        for _ in range(rnd.randint(1, 6)):
            t = _text(rnd, rnd.randint(0, 12), rnd.choice((0, 0.2)))
            cut = rnd.randint(0, len(t))
            texts.append(t[:cut] + rnd.choice(("", "，", "。“", "” ")) + t[cut:])
        stream = Stream.of([Piece(JING, t, Pos(1, 1)) for t in texts])
        if not stream.chars:
            continue
        a = rnd.randrange(len(stream.chars))
        q = list(stream.chars[a:a + rnd.randint(1, 6)])
        if rnd.random() < 0.3:
            q[rnd.randrange(len(q))] = rnd.choice(ALPHABET + WILD)
        q = "".join(q)
        lo = rnd.randint(0, len(stream.chars) - 1) if rnd.random() < 0.3 else 0
        hi = rnd.randint(lo, len(stream.chars)) if rnd.random() < 0.3 else None
        fuzzy = rnd.random() < 0.5
        # a span's pointers are compared by value: the plain version is worked out first,
        # before locate adds anchors to the pieces
        want = _locate_plain(stream, [q], lo, hi, fuzzy)
        got = _shown(locate(stream, [q], lo, hi, reach="near", fuzzy=fuzzy), stream)
        assert got == want, (texts, q, lo, hi, fuzzy)
