"""Seeds 000 (禮記正義·祭法) and 002 (周禮注疏·大宗伯): 經, 注 and 音義 run together; the 疏 tells
them apart. Expected layers are read off the files by hand, as a scholar would mark them."""
import pytest

from pipeline.chars import lossless_form
from pipeline.convert import convert_file
from pipeline.textlayers import layer_lines, layer_text
from pipeline.validate import iter_issues

from conftest import CORPUS, convert_seeds

NS = {"t": "http://www.tei-c.org/ns/1.0"}
S000 = CORPUS / "000_5a9685f2ae5c6de4.txt"
S002 = CORPUS / "002_3cfb79cd5f7996b0.txt"
L000 = S000.read_text(encoding="utf-8").split("\n")
L002 = S002.read_text(encoding="utf-8").split("\n")


def between(line: str, start: str, end: str) -> str:
    """line from the first `start` through the first `end` after it."""
    a = line.index(start)
    return line[a:line.index(end, a) + len(end)]


EXPECTED_000 = {
    "jing": [between(L000[0], "大凡", "此五代之所不变也。") + between(L000[0], "七代之所更立者", "其馀不变也。"),
             between(L000[2], "天下有王", "庶士、庶人无庙，死曰鬼。")],
    "zhu": [between(L000[0], "生时形体异", "周之礼乐所存法也。"),
            between(L000[0], "七代通数颛顼", "后王无所取焉。"),
            between(L000[2], "建国，封诸侯也。", "当为“皇考”，字之误。")],
    "yinyi": ["大如字，徐音泰。", "腐音辅。", "更，古行反。", "数，色主反，下同。"]
    + [g + "。" for g in L000[2][L000[2].index("○庙") + 1:].rstrip("。").split("。")],
}
EXPECTED_002 = {
    "jing": ["王命诸侯，则傧。", "国有大故，则旅上帝及四望。", "王大封，则先告后土。", "乃颁祀于邦国都家乡邑。"],
    "zhu": [between(L002[1], "傧，进之也。", "则於祭焉。"), L002[3][len("国有大故，则旅上帝及四望。"):],
            "后土，土神也。黎所食者。", between(L002[7], "“颁”读为", "所食采地。")],
    "yinyi": ["假，音格，至也。", "依，於岂反。", "乡，许亮反。", "策，初革反。", "颁，音班。"],
}


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    return convert_seeds(tmp_path_factory, S000, S002)


@pytest.mark.parametrize("seed,expected", [("000", EXPECTED_000), ("002", EXPECTED_002)])
@pytest.mark.parametrize("layer", ["jing", "zhu", "yinyi"])
def test_layers_exact(converted, seed, expected, layer):
    _, root, report, _ = converted[seed]
    assert report.layout == "runon"
    assert layer_lines(root, layer) == expected[layer]


def test_zhu_carries_no_jing_and_the_reverse(converted):
    for seed, exp in (("000", EXPECTED_000), ("002", EXPECTED_002)):
        root = converted[seed][1]
        jing = "".join(layer_lines(root, "jing"))
        for z in exp["zhu"]:
            assert z not in jing


@pytest.mark.parametrize("seed", ["000", "002"])
def test_lossless_valid_deterministic(converted, seed, tei_all, tmp_path):
    path, root, report, data = converted[seed]
    src = S000 if seed == "000" else S002
    assert layer_text(root, "all") == lossless_form(src.read_text(encoding="utf-8"))
    assert [i for i in iter_issues(str(path)) if i.level != "warning"] == []
    assert tei_all.validate(root), tei_all.error_log
    again, _ = convert_file(str(src))
    assert again == data


def test_every_heading_and_sublemma_of_000_is_anchored(converted):
    _, root, report, _ = converted["000"]
    shus = root.xpath("//t:note[@type='shu'][not(ancestor::t:note)]", namespaces=NS)
    assert len(shus) == 5 and all(s.get("target") for s in shus)
    subs = root.xpath("//t:note[@subtype='sublemma']", namespaces=NS)
    assert len(subs) == 59 and all(s.get("target") for s in subs)
    # the second 曰考庙 of the 經 (官师一庙，曰考庙) is found in order, not the first
    quoted = [s for s in subs if "".join(s.find("t:p/t:mentioned", NS).itertext()) == "曰考庙"]
    assert len(quoted) == 2 and quoted[0].get("target") != quoted[1].get("target")


def test_detached_fragment_of_002(converted):
    _, root, report, _ = converted["002"]
    first = root.xpath("//t:note[@type='shu']", namespaces=NS)[0]
    assert first.get("subtype") == "detached" and first.get("target") is None
    assert "".join(first.itertext()).startswith("云“出接宾曰摈”者")
    assert any(i.rule == "ZS-CONV-DETACHED" and i.line == 1 for i in report.warnings)


def test_report_lists_boundaries_with_method_and_confidence(converted, tmp_path):
    _, _, report, _ = converted["000"]
    kinds = {(b.kind, b.method) for b in report.boundaries}
    assert ("jing|zhu", "lemma") in kinds and ("zhu|yinyi", "delimiter") in kinds
    assert all(0 < b.confidence <= 1 and b.line >= 1 and b.col >= 1 for b in report.boundaries)
    _, _, report2, _ = converted["002"]
    assert ("zhu|yinyi", "cue") in {(b.kind, b.method) for b in report2.boundaries}
