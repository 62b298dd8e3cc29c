"""The 四庫 layout of the 注疏 (fixtures written from the layout's description): bare 注 before
each 注, 音义【…】 and 疏【…】 inline, no punctuation, furniture lines."""
import pytest
from lxml import etree

from pipeline.chars import lossless_form
from pipeline.convert import convert_file
from pipeline.readers import detect
from pipeline.textlayers import layer_lines, layer_text
from pipeline.validate import iter_issues

from conftest import ROOT

NS = {"t": "http://www.tei-c.org/ns/1.0"}
FIX = ROOT / "tests" / "fixtures" / "siku"
LIJI, ZHOULI = FIX / "liji_juan3.txt", FIX / "zhouli_juan18.txt"


@pytest.fixture(scope="module", params=[LIJI, ZHOULI], ids=["liji", "zhouli"])
def conv(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("siku") / (request.param.stem + ".xml")
    data, report = convert_file(str(request.param), str(out))
    return request.param, out, etree.fromstring(data), report, data


def test_detected(conv):
    src = conv[0]
    assert detect(src.read_text(encoding="utf-8"))[0] == "siku"


def test_lossless_valid_deterministic(conv, tei_all):
    src, out, root, report, data = conv
    assert not report.errors
    assert layer_text(root, "all") == lossless_form(src.read_text(encoding="utf-8"))
    assert [i for i in iter_issues(str(out)) if i.level != "warning"] == []
    assert tei_all.validate(root), tei_all.error_log
    assert convert_file(str(src))[0] == data


def test_liji_layers():
    root = etree.fromstring(convert_file(str(LIJI))[0])
    assert layer_lines(root, "jing") == [
        "公仪仲子之丧檀弓免焉仲子舍其孙而立其子檀弓曰何居我未之前闻也",
        "趋而就子服伯子于门右曰仲子舍其孙而立其子何也",
        "伯子曰仲子亦犹行古之道也昔者文王舍伯邑考而立武王微子舍其孙腯而立衍也"]
    assert layer_lines(root, "zhu") == [
        "仲子鲁同姓也檀弓鲁人之知礼者也", "居读为姬姓之姬齐鲁之间语助也", "伯子鲁大夫子服景伯之子也",
        "伯子为亲者隐耳立孙宜也", "微子適子死立其弟衍殷礼也"]
    assert layer_lines(root, "yinyi") == ["免音问", "舍音舍", "居音基", "腯徒忽反"]


def test_liji_structure_and_people():
    root = etree.fromstring(convert_file(str(LIJI))[0])
    q = lambda x: root.xpath(x, namespaces=NS)
    assert q("string(//t:title[@type='main'])") == "礼记注疏 卷三"
    assert q("//t:div[@type='juan']/t:fw/@type") == ["header", "responsibility"]
    assert q("string(//t:div[@type='section']/t:head)") == "檀弓上第三"
    assert set(q("//t:person/@xml:id")) == {"zhengxuan", "ludeming", "kongyingda"}
    # the 經 lemma spans both 經 sentences of the line; each 注 lemma its 注
    shus = q("//t:note[@type='shu'][not(ancestor::t:note)]")
    assert [(s.get("target"), s.get("targetEnd")) for s in shus[:3]] == [
        ("#u1.j1", "#u1.j2"), ("#u1.z1", None), ("#u1.z2", None)]
    assert all(s.get("target") for s in shus)


def test_zhouli_commentators_from_its_lines():
    root = etree.fromstring(convert_file(str(ZHOULI))[0])
    assert set(root.xpath("//t:person/@xml:id", namespaces=NS)) == {"zhengxuan", "ludeming", "jiagongyan"}
    assert layer_lines(root, "jing") == ["王命诸侯则傧", "国有大故则旅上帝及四望", "王大封则先告后土"]
    assert layer_lines(root, "yinyi") == ["傧必刃反", "乡许亮反", "大封如字"]
