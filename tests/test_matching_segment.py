"""The runon segmentation's cues (`cues.py`) and labelling (`labelling.py`): the weight each
opener gives, the margin of a Viterbi column, the evidence and the located text they read."""
from __future__ import annotations

import random

import pytest

from pipeline.model import Chuwen, Para, Pos, Shu
from pipeline.readers.zhushu import cues
from pipeline.readers.zhushu import labelling
from pipeline.readers.zhushu.evidence import Evidence
from pipeline.sources.located import Located

J, Z, Y = labelling.J, labelling.Z, labelling.Y


# --- cues.zhu_score: the first opener that matches, or a word of the 經 and its gloss ---------

@pytest.mark.parametrize("sentence, before, weight", [
    ("郑司农云：大夫，官名。", "", 4.0), ("杜子春云“蕃”当为“藩”。", "", 4.0), ("玄谓此亦王者之官。", "", 4.0),
    ("“蕃”读为“藩”。", "", 3.5), ("蕃读如藩。", "", 3.0), ("傧犹进也。", "", 3.0),
    ("谓天子也。", "", cues.OPENS_ZHU), ("言其大也。", "", 2.0), ("此天子之礼。", "", 1.0),
    ("傧，进之也。", "傧大夫", cues.DEFINITION_GLOSS), ("傧，进之。", "傧大夫", cues.DEFINITION),
    ("傧，进之也。", "大夫", 0.0), ("大凡生於天地之间者皆曰命。", "", 0.0), ("", "", 0.0),
])
def test_zhu_score(sentence, before, weight):
    assert cues.zhu_score(sentence, before) == weight


def test_margin():
    assert labelling._margin({J: (1.0, None)}) == 5.0
    assert labelling._margin({J: (1.0, None), Z: (1.0, J)}) == 0.0
    assert labelling._margin({J: (-2.5, None), Z: (4.0, J), Y: (3.5, Z)}) == 0.5


# --- Evidence: empty sub-lemmas left out, as the emission's `p and` did ---------------------------

def test_evidence_drops_empty_phrases():
    para = Para("○“，。”者，○“大凡”者，云“生时”者，云“？！”者", Pos(1, 1))
    shu = Shu(Chuwen(J, ["大凡"], [], Pos(1, 1)), [para], Pos(1, 1))
    ev = Evidence.of([shu])
    assert ev.jing == [["大凡"]] and ev.jing_phrases == ["生时"] and ev.zhu_phrases == []


# --- _units: a 經 or 注 run's text read off the line, not off a Located slice ----------------

def test_located_slice_text_is_text_slice():
    rng = random.Random(7)
    for _ in range(2000):
        loc = Located()
        for line in range(1, rng.randint(2, 5)):
            loc.add("".join(rng.choice("大凡　 \t，。○") for _ in range(rng.randint(0, 9))), line, 1)
        n = len(loc)
        a = rng.randint(0, n)
        b = rng.randint(a, n)
        assert loc.slice(a, b).text == loc.text[a:b]


def test_endswith_window_is_prefix_endswith():
    rng = random.Random(3)
    for _ in range(5000):
        chars = "".join(rng.choice("大凡生") for _ in range(rng.randint(0, 8)))
        e = "".join(rng.choice("大凡生") for _ in range(rng.randint(0, 3)))
        s = rng.randint(0, len(chars))
        assert chars.endswith(e, 0, s) == chars[:s].endswith(e)
