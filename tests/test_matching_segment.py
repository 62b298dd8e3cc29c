"""The fast paths of the runon segmentation (`segment.py`, `cues.py`) held to the plain versions
they replace: same labels, methods, confidences and scores on randomised and tabled input."""
from __future__ import annotations

import random

import pytest

from pipeline.matching import squeeze
from pipeline.model import Chuwen, Para, Pos, Shu
from pipeline.readers.zhushu import cues
from pipeline.readers.zhushu import labelling
from pipeline.readers.zhushu import segment as seg
from pipeline.readers.zhushu.evidence import Evidence, GroupText
from pipeline.sources.located import Located

J, Z, Y = labelling.J, labelling.Z, labelling.Y


# --- cues.zhu_score: one alternation instead of one match per opener --------------------------

def _zhu_score_plain(sentence: str, jing_before: str) -> float:
    best = 0.0
    for pat, w in cues.ZHU_OPENERS:
        if pat.match(sentence):
            best = max(best, w)
            break
    m = cues._DEFINITION.match(sentence)
    if m and m.group(1) in jing_before:
        best = max(best, cues.definition_weight(m.group(2)))
    return best


_OPENER_SENTENCES = [
    "郑司农云：大夫，官名。", "鄭司農云", "杜子春云“蕃”当为“藩”。", "玄谓此亦王者之官。",
    "故书“毁”为“甈”。", "今文无“之”。", "“蕃”读为“藩”。", "「蕃」當為「藩」。", "蕃读如藩。",
    "蕃当为藩。", "傧犹进也。", "傧之言进也。", "谓天子也。", "言其大也。", "此天子之礼。",
    "傧，进之也。", "傧，谓进之。", "傧，进之。", "大，如字。", "", "。", "“”读为", "云云",
]
_ALPHABET = "郑司农云玄谓故书今文古文读为當当如或犹猶之言也謂此傧进，。“”「」大夫之官"


def test_zhu_score_table():
    for s in _OPENER_SENTENCES:
        for before in ("", "傧大夫", "大蕃"):
            assert cues.zhu_score(s, before) == _zhu_score_plain(s, before), s


def test_zhu_score_random():
    rng = random.Random(5)
    for _ in range(20000):
        s = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 12)))
        if rng.random() < 0.5:
            s = rng.choice(_OPENER_SENTENCES) + s
        before = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 8)))
        assert cues.zhu_score(s, before) == _zhu_score_plain(s, before), s


# --- labelling._viterbi: steps inline, the margin without a sort ---------------------------------

def _emission_plain(g, ev, s, jing_before):
    text = g.text[s.start:s.end]
    sq = squeeze(text)
    e = dict(labelling._BASE)
    e[Z] += _zhu_score_plain(text, jing_before)
    if cues.is_gloss(text):
        e[Y] += labelling.GLOSS
    if any(p and p in sq for p in ev.jing_phrases):
        e[J] += labelling.SUBLEMMA
    if any(p and p in sq for p in ev.zhu_phrases):
        e[Z] += labelling.SUBLEMMA
    return e


def _best_step_plain(prev, lab, em):
    top = None
    for p, (score, _) in prev.items():
        s = score + labelling._TRANS[(p, lab)] + em
        if top is None or s > top[0]:
            top = (s, p)
    return top


def _viterbi_plain(g, ev, line, free):
    best = []
    jing_before = ""
    for i, s in enumerate(line):
        em = _emission_plain(g, ev, s, jing_before)
        col = {}
        for lab in ((s.label,) if s.label is not None else free):
            col[lab] = _best_step_plain(best[-1], lab, em[lab]) if i else (em[lab], None)
        best.append(col)
        if s.label in (J, None):
            jing_before += g.text[s.start:s.end]
    lab = labelling._argmax(best[-1])
    for i in range(len(line) - 1, -1, -1):
        s = line[i]
        if s.label is None:
            s.label, s.method = lab, "cue"
            alt = sorted((v[0] for v in best[i].values()), reverse=True)
            margin = alt[0] - alt[1] if len(alt) > 1 else 5.0
            s.conf = round(min(labelling.CUE_CONF_MAX, labelling.CUE_CONF + margin / 10), 2)
        lab = best[i][lab][1] or lab


_SENTENCES = _OPENER_SENTENCES[:-3] + [
    "大凡生於天地之间者皆曰命。", "其万物死皆曰折。", "更，古行反。", "腐音辅。", "下同。",
    "庙，本亦作庿。", "此五代之所不变也。", "○", "傧者，进也；", "王者之礼？", "惟王建国！",
]


def _random_line(rng: random.Random):
    text = "".join(rng.choice(_SENTENCES) for _ in range(rng.randint(1, 12)))
    g = GroupText([Located.of(text, 1, 1)])
    cuts = sorted(seg._base_cuts(g))
    segs = [labelling.Seg(a, b) for a, b in zip(cuts, cuts[1:])]
    for s in segs:
        if rng.random() < 0.2:
            s.label, s.method, s.conf = rng.choice((J, Z, Y)), "lemma", 1.0
    phrases = [squeeze(rng.choice(_SENTENCES))[:rng.randint(1, 4)] for _ in range(rng.randint(0, 3))]
    ev = Evidence(jing_phrases=[p for p in phrases[:2] if p], zhu_phrases=[p for p in phrases[2:] if p])
    return g, ev, segs


@pytest.mark.parametrize("free", [(J, Z, Y), (J, Z), (J,)])
def test_viterbi_random(free):
    rng = random.Random(len(free))
    for _ in range(3000):
        g, ev, segs = _random_line(rng)
        if not segs:
            continue                    # _label_rest passes only lines with segments
        fast = [labelling.Seg(s.start, s.end, s.label, s.method, s.conf) for s in segs]
        labelling._viterbi(g, ev, fast, free)
        _viterbi_plain(g, ev, segs, free)
        assert [(s.label, s.method, s.conf) for s in fast] == \
            [(s.label, s.method, s.conf) for s in segs], g.text


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
