"""The validator's shortcuts accept only what the full checks accept.

ZS-SHU-001 takes a quote the text repeats verbatim without squeezing either, and ZS-YINYI-001
a head the text holds as it stands; both must agree with anchoring.agrees and
anchoring.matches on every text, including the abbreviations (以下, 云云) and punctuation that
squeezing drops.
"""
from pipeline.anchoring import agrees, matches, squeeze
from pipeline.rules import _verbatim

from test_matching import random_texts

ALPHABET = "甲乙以已下云，。“”　?"


def test_a_verbatim_quote_agrees_as_agrees_says():
    taken = 0
    for t in random_texts(21, ALPHABET, 24) + ["甲乙以下", "甲云云", "以下。", "甲，"]:
        if t and _verbatim(t, [t]):
            taken += 1
            assert agrees(t, [t]), t
    assert taken > 1000                     # the shortcut is taken, not dead code
    # a quote ending in an abbreviation is left to agrees, which drops it
    assert not _verbatim("甲乙以下", ["甲乙以下"]) and not agrees("甲乙以下", ["甲乙以下"])
    assert not _verbatim("甲乙", ["甲乙", "乙"])      # two quotes: first … last, not the shortcut


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
