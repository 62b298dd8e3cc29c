"""Seed 004 (周禮注疏 卷三十八, 注 in parentheses) end to end: layers, anchoring, invariants."""
import re

from lxml import etree

from pipeline.chars import lossless_form
from pipeline.textlayers import layer_lines, layer_text
from pipeline.validate import iter_issues

from conftest import SEED_004

SRC = SEED_004.read_text(encoding="utf-8")
UNIT_LINES = [l.strip(" \u00a0\u3000") for l in SRC.splitlines()
              if l.strip() and not l.strip(" \u00a0\u3000").startswith("[疏]") and "（" in l]


def expected_layers():
    """An independent reading of the layout: text outside （） is 經; inside, 注 before ○,
    音義 after it; （阙。） is neither."""
    jing, zhu, yinyi = [], [], []
    for line in UNIT_LINES:
        for outside, inside in re.findall(r"([^（）]*)（([^（）]*)）", line):
            jing.append(outside)
            if inside.startswith("阙"):
                continue
            z, _, y = inside.partition("○")
            zhu.append(z)
            yinyi.append(y)
    return "".join(jing), "".join(zhu), "".join(yinyi)


def root_of(data):
    return etree.fromstring(data)


def test_converts_cleanly(converted_004):
    _, data, report = converted_004
    assert report.layout == "paren"
    assert not report.errors
    assert report.stats["shu"] == 39 and report.stats["shu_anchored"] == 39


def test_passes_zhushu_validate(converted_004):
    path, _, _ = converted_004
    assert [i for i in iter_issues(str(path)) if i.level != "warning"] == []


def test_valid_against_tei_all(converted_004, tei_all):
    _, data, _ = converted_004
    doc = etree.fromstring(data)
    assert tei_all.validate(doc), tei_all.error_log


def test_lossless(converted_004):
    _, data, _ = converted_004
    assert layer_text(root_of(data), "all") == lossless_form(SRC)


def test_layers_are_exact(converted_004):
    _, data, _ = converted_004
    root = root_of(data)
    jing, zhu, yinyi = expected_layers()
    assert layer_text(root, "jing") == lossless_form(jing)
    assert layer_text(root, "zhu") == lossless_form(zhu)
    assert layer_text(root, "yinyi") == lossless_form(yinyi)
    first = layer_lines(root, "jing")[0]
    assert first == "貉、戎、狄之国使，掌传王之言而谕说焉，以和亲之。"
    assert "谓蕃国" not in "".join(layer_lines(root, "jing"))


def test_every_shu_is_anchored_to_its_lemma(converted_004):
    _, data, _ = converted_004
    root = root_of(data)
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    shus = root.xpath("//t:note[@type='shu'][not(ancestor::t:note)]", namespaces=ns)
    # a [疏] line may hold further sections: ○注“都家”至“朝者”○释曰 (lines 37, 135)
    inner = len(re.findall(r"○注?“[^”]+”(?:至“[^”]+”)?○?释曰", SRC))
    assert inner == 2
    assert len(shus) == SRC.count("[疏]") + inner
    ids = {e.get("{http://www.w3.org/XML/1998/namespace}id"): e for e in root.iter()}
    for s in shus:
        assert s.get("target"), etree.tostring(s, encoding=str)[:200]
        target = ids[s.get("target")[1:]]
        label = "".join(s.find("t:label[@type='chuwen']", ns).itertext())
        kind = "zhu" if label.startswith("注") else "jing"
        if target.tag.endswith("seg"):
            assert kind == "jing"
        else:
            assert target.get("type") == kind


def test_lemma_with_a_differing_character(converted_004):
    _, data, _ = converted_004
    root = root_of(data)
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    s = root.xpath("//t:note[@type='shu'][t:label/t:mentioned='令令野庐氏']", namespaces=ns)[0]
    target = root.xpath(f"//*[@xml:id='{s.get('target')[1:]}']", namespaces=ns)[0]
    assert "".join(target.itertext()) == "令，令野卢氏。"


def test_deterministic(tmp_path):
    from pipeline.convert import convert_file
    a, _ = convert_file(str(SEED_004), str(tmp_path / "a.xml"))
    b, _ = convert_file(str(SEED_004), str(tmp_path / "b.xml"))
    assert a == b
    assert (tmp_path / "a.xml").read_bytes() == (tmp_path / "b.xml").read_bytes()


def test_header(converted_004):
    _, data, _ = converted_004
    root = root_of(data)
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    assert root.xpath("string(//t:title[@type='main'])", namespaces=ns) == "周禮注疏 卷三十八"
    assert root.xpath("string(//t:idno[@type='filename'])", namespaces=ns) == SEED_004.name
    import hashlib
    assert root.xpath("string(//t:idno[@type='sha256'])", namespaces=ns) == \
        hashlib.sha256(SEED_004.read_bytes()).hexdigest()
    # the 注's author and the commentators are the registry's scholars (persons.xml), pointed at
    from pipeline import persons
    credited = root.xpath("//t:titleStmt/t:author/@ref | //t:titleStmt/t:editor/@ref", namespaces=ns)
    assert {"psn:zhengxuan", "psn:ludeming", "psn:jiagongyan"} <= set(credited)
    declared = set(root.xpath("//t:standOff//t:person/@xml:id", namespaces=ns))
    for resp in root.xpath("//@resp", namespaces=ns):
        # a registry scholar by psn:, a person declared from the text by #
        assert (resp.startswith("psn:") and resp[4:] in persons.registry()) or \
            (resp.startswith("#") and resp[1:] in declared), resp


def test_lacuna_and_placeholders_kept(converted_004):
    _, data, _ = converted_004
    root = root_of(data)
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    gaps = root.xpath("//t:gap[@reason='lost']", namespaces=ns)
    assert len(gaps) == SRC.count("（阙。）") == 5
    # the gap states the loss; the printed words are text beside it, in the seg of the lacuna
    assert all(len(g) == 0 and not g.text and g.getparent().get("type") == "que"
               and "".join(g.getparent().itertext()) == "阙。" for g in gaps)
    gs = root.xpath("//t:g[@type='placeholder']", namespaces=ns)
    assert len(gs) == SRC.count("?") + SRC.count("┹")
