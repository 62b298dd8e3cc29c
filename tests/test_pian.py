"""The 篇 of the 三禮 (pipeline/readers/pian.py): a title line with or without 第N, in either script."""
import pathlib

import pytest

from pipeline.readers import pian

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("line, work, n", [
    ("曲禮上", "禮記", 1), ("大學", "禮記", 42), ("檀弓上第三", "禮記", 3), ("曲礼下第二", "禮記", 2),
    ("内則", "禮記", 12), ("內則第十二", "禮記", 12), ("孔子閒居", "禮記", 29), ("喪服四制第四十九", "禮記", 49),
    ("天官冢宰下", "周禮", 1), ("冬官考工記第六", "周禮", 6), ("士冠禮第一之一", "儀禮", 1),
    ("士喪禮上第十二之一", "儀禮", 12), ("有司徹第十七之二", "儀禮", 17), ("乡射礼第五", "儀禮", 5)])
def test_a_title_line_names_its_pian(line, work, n):
    p = pian.title(line)
    assert p is not None and (p.work, p.n) == (work, n)


@pytest.mark.parametrize("line", ["大學之道在明明德", "曲禮曰毋不敬", "王制之", "第一", "", "喪服傳曰", "　　公食大夫禮"])
def test_a_sentence_is_no_title(line):
    assert pian.title(line) is None


def test_the_list_is_whole():
    by_work = {}
    for line in (ROOT / "pipeline" / "data" / "pian.tsv").open(encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            work, n, _ = line.split("\t")
            by_work.setdefault(work, []).append(int(n))
    assert {w: ns == list(range(1, len(ns) + 1)) and len(ns) for w, ns in by_work.items()} == \
        {"周禮": 6, "儀禮": 17, "禮記": 49}
