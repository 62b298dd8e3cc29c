"""cues.LayerModel: where a 注 running on into the next 經 is cut."""
from pipeline.readers.zhushu.cues import LayerModel

JING = ["子曰學而時習之不亦說乎有朋自遠方來不亦樂乎", "人不知而不慍不亦君子乎"]
ZHU = ["馬曰子者男子之通稱謂孔子也王曰時者學者以時誦習之", "誦習以時學無廢業所以為說懌也"]


def test_statistics_cut_where_the_zhu_words_stop():
    model = LayerModel(JING, ZHU)
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
