"""The validator's shortcuts accept only what the full checks accept.

ZS-SHU-001 compares a first … last lemma with the edges of its span only, and rejects a single
quote at once when the span is several times its length; ZS-YINYI-001 takes a head the text
holds as it stands. Each must agree with matching.agrees and matching.matches on every text,
including the abbreviations (以下, 云云) and punctuation that squeezing drops.
"""
import random

from test_matching import random_texts

from pipeline.matching import agrees, matches, squeeze
from pipeline.validate.rules import _agrees

ALPHABET = "甲乙以已下云，。“”　?"


def test_edges_of_a_span_agree_as_the_whole_span_does():
    rng = random.Random(24)
    spans = random_texts(21, ALPHABET, 400, 400) + random_texts(25, ALPHABET, 12, 400)
    checked = 0
    for t in spans:
        for quotes in ([t[:2], t[-2:]], [t[:5], t[-3:]], [t], [t[:3]], [t[1:]],
                       [t[:rng.randint(1, 4)] + "，", "。" + t[-rng.randint(1, 4):]]):
            if all(quotes):
                checked += 1
                assert _agrees(t, quotes) == agrees(t, quotes), (t, quotes)
    assert checked > 1000


def test_a_head_held_as_it_stands_is_found_by_matches():
    texts = random_texts(22, ALPHABET, 16, 3000)
    heads = random_texts(23, ALPHABET, 3, 60)
    taken = 0
    for t in texts:
        for h in heads:
            if h in t and squeeze(h) == h:
                taken += 1
                assert matches(squeeze(t), h, "anywhere", squeezed=True), (t, h)
    assert taken > 1000
