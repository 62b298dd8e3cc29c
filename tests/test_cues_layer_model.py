"""cues.LayerModel: where a 注 running on into the next 經 is cut."""
from pipeline.readers.zhushu.cues import LayerModel

JING = ["子曰學而時習之不亦說乎有朋自遠方來不亦樂乎", "人不知而不慍不亦君子乎"]
ZHU = ["馬曰子者男子之通稱謂孔子也王曰時者學者以時誦習之", "誦習以時學無廢業所以為說懌也"]


def test_statistics_cut_where_the_zhu_words_stop():
    model = LayerModel(JING, ZHU)
    model.LENGTH_WEIGHT = 0.0               # three 注 runs say little of a 注's length
    run = "男子之通稱謂孔子" + "有朋自遠方來"      # no particle: the statistics alone
    cut, _, tail = model.best_cut(run, 1, len(run) - 1)
    assert run[cut:] == "有朋自遠方來"
    assert tail < 0                         # the tail reads as 經


def test_a_cut_after_the_zhus_closing_particle_is_preferred():
    # statistics that cannot tell the layers apart: the 也 that closes the 注 decides
    same = ["學而時習之"]
    model = LayerModel(same, same)
    run = "習謂誦習也不亦說乎"
    cut, margin, _ = model.best_cut(run, 1, len(run) - 1)
    assert run[:cut] == "習謂誦習也"
    assert margin > 0


# Characters neither layer has seen read the same in both: with as many characters of each,
# the statistics say nothing of a run written in them, and what decides is shown alone.
FLAT_JING = ["子丑寅卯"] * 6
FLAT_ZHU = ["辰巳午未申酉戌亥"] * 3          # 注 runs of eight
UNSEEN = "一二三四五六七八九十百千"


def test_the_cut_makes_the_zhu_as_long_as_the_juans_own():
    model = LayerModel(FLAT_JING, FLAT_ZHU)
    cut, _, _ = model.best_cut(UNSEEN, 1, len(UNSEEN) - 1)
    assert cut == 7                          # the 注 runs' length, 8, less a little: the mode
    model.LENGTH_WEIGHT = 0.0                # of a log-normal lies below its median
    cut, _, _ = model.best_cut(UNSEEN, 1, len(UNSEEN) - 1)
    assert cut == 1                          # nothing to go by: the first cut


def test_the_quote_is_kept_unless_a_cut_before_it_is_clearly_likelier():
    model = LayerModel(FLAT_JING, FLAT_ZHU)
    model.LENGTH_WEIGHT = 0.0
    run = "一二也四五六七八九十"                # a closing particle at 3, the 疏 quotes from 7
    assert model.best_cut(run, 1, 7)[0] == 3
    assert model.best_cut(run, 1, 7, quote=7)[0] == 7     # ENDING (8 nats) < QUOTE_MARGIN
    model.QUOTE_MARGIN = 4.0
    assert model.best_cut(run, 1, 7, quote=7)[0] == 3


def test_the_tail_log_odds_are_those_of_the_most_jing_like_tail():
    model = LayerModel(JING, ZHU)
    run = "有朋自遠方來" + "謂孔子也"          # a 經 tail exists, though the run ends as 注
    cut, _, tail = model.best_cut(run, 1, len(run) - 1)
    assert tail < 0
    _, _, tail = model.best_cut("男子之通稱謂孔子也", 1, 8)
    assert tail > 0                          # no tail reads as 經
