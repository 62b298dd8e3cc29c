"""Schematron on every output: TEI's own (the sch:pattern embedded in ../shared/tei-p5/tei_all.rng,
extracted at test time) and the ODD's constraintSpecs (schema/zhushu.odd), over the archival TEI
(tei/), a fresh conversion of the seeds, the Kanripo readers' fixtures, and, when ../shared is
beside the project, a sample of the Kanripo works. An official rule that fails here is a bug in
the encoding. Then: the runner finds what it should (each ODD rule on a broken copy of a seed)."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
from lxml import etree

from pipeline.constants import SHARED_FILES

from pipeline.validate import schematron

ROOT = Path(__file__).resolve().parents[1]
ODD = ROOT / "schema" / "zhushu.odd"
TEI_ALL = ROOT.parent / "shared" / "tei-p5" / "tei_all.rng"
KANRIPO = ROOT.parent / "shared" / "kanripo"
SEEDS = sorted((ROOT / "corpus").glob("*.txt"))
ARCHIVE = sorted((ROOT / "tei").glob("*.xml"))          # the documents and the shared files
DOCUMENTS = [p for p in ARCHIVE if p.name not in SHARED_FILES]
N = {"t": "http://www.tei-c.org/ns/1.0"}
PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
# one 卷 of each kind of Kanripo input: a 四庫 注疏 (WYG) with its front matter, a 四部叢刊 text,
# a bare one
SAMPLE = ("WYG/KR1d0053/KR1d0053_000.txt", "WYG/KR1d0053/KR1d0053_001.txt",
          "SBCK/KR1d0002/KR1d0002_001.txt")


@pytest.fixture(scope="module")
def tei_sch():
    if not TEI_ALL.exists():
        pytest.skip("../shared/tei-p5/tei_all.rng not present")
    return schematron.Schematron(schematron.from_rng(str(TEI_ALL)))


@pytest.fixture(scope="module")
def odd_sch():
    return schematron.Schematron(schematron.from_odd(str(ODD)))


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    from conftest import convert_seeds
    return {name: etree.ElementTree(root) for name, (_, root, _, _) in
            convert_seeds(tmp_path_factory, *SEEDS).items()}


@pytest.fixture(scope="module")
def kanripo_sample(tmp_path_factory):
    from pipeline.convert import convert_file
    files = [KANRIPO / f for f in SAMPLE if (KANRIPO / f).exists()]
    if not files:
        pytest.skip("../shared/kanripo not present")
    out = tmp_path_factory.mktemp("kanripo-sample")
    docs = {}
    for src in files:
        data, _ = convert_file(str(src), str(out / (src.stem + ".xml")))
        docs[src.name] = etree.ElementTree(etree.fromstring(data, PARSER))
    return docs


def _all_outputs(fresh, kanripo_fixture_outputs, extra=None):
    docs = {f"tei/{p.name}": etree.parse(str(p), PARSER) for p in ARCHIVE}
    docs.update({f"fresh/{k}": t for k, t in fresh.items()})
    docs.update({f"fixture/{k}": etree.ElementTree(r) for k, r in kanripo_fixture_outputs.items()})
    docs.update(extra or {})
    return docs


def _failures(sch, docs) -> list:
    return [(name, *f) for name, tree in docs.items() for f in sch.check(tree)]


def _documents(docs) -> dict:
    """The 卷 documents, without the corpus's shared files (persons.xml, categories.xml): the
    ODD describes the documents; the shared files are TEI of their own (tei_all checks them)."""
    return {k: t for k, t in docs.items() if k.rsplit("/", 1)[-1] not in SHARED_FILES}


def test_outputs_pass_tei_all_schematron(tei_sch, fresh, kanripo_fixture_outputs):
    docs = _all_outputs(fresh, kanripo_fixture_outputs)
    assert len(docs) >= 2 * len(SEEDS) + 10
    assert not _failures(tei_sch, docs)


def test_outputs_pass_the_odd_schematron(odd_sch, fresh, kanripo_fixture_outputs):
    docs = _all_outputs(fresh, kanripo_fixture_outputs)
    assert any(k.endswith("persons.xml") for k in docs)      # (tei_all's rules see them)
    assert not _failures(odd_sch, _documents(docs))


def test_kanripo_works_pass_both(tei_sch, odd_sch, kanripo_sample):
    assert not _failures(tei_sch, kanripo_sample)
    assert not _failures(odd_sch, _documents(kanripo_sample))


def test_the_odd_states_its_rules(odd_sch):
    """Every constraintSpec of the ODD became a pattern, each naming its ZS- rule."""
    patterns = odd_sch.xslt.findall("{http://www.w3.org/1999/XSL/Transform}mode")
    specs = etree.parse(str(ODD)).getroot().findall(".//{http://www.tei-c.org/ns/1.0}constraintSpec")
    assert len(patterns) == len(specs) >= 8
    for spec in specs:
        assert "ZS-" in "".join(spec.itertext()), spec.get("ident")


def _mutate(tree, path, change):
    tree = copy.deepcopy(tree)
    el = tree.xpath(path, namespaces=N)[0]
    change(el)
    return tree


def _set(attr, value):
    return lambda el: el.set(attr, value)


def _del(attr):
    return lambda el: el.attrib.pop(attr)


def _drop_child(tag):
    def drop(el):
        for ch in el.findall(f"{{{N['t']}}}{tag}"):
            el.remove(ch)
    return drop


@pytest.mark.parametrize("doc, path, change, rule", [
    ("004", "//t:note[@type='zhu']", _set("type", "gloss"), "ZS-TYPE-001"),
    ("001", "//t:note[@type='yishu'][@subtype]", _set("subtype", "zhengyi3"), "ZS-TYPE-001"),
    ("004", "//t:note[@type='shu'][@target]", _set("target", "#nowhere"), "ZS-PTR-001"),
    ("004", "//t:note[@type='zhu'][@resp]", _set("resp", "#nobody"), "ZS-PTR-001"),
    ("004", "//t:note[@type='shu'][@targetEnd]", _del("target"), "ZS-SHU-002"),
    ("004", "//t:label[@type='chuwen']", _drop_child("mentioned"), "ZS-SCHEMA-001"),
    ("004", "//t:titleStmt/t:title[@type='main']", _set("type", "sub"), "ZS-HDR-001"),
    # a g pointing at an element that is no declared character (a div): not at a missing id,
    # which ZS-PTR-001 reports too
    ("004", "//t:g", lambda g: g.set("ref", "#" + g.xpath("string(//t:body/t:div/@xml:id)", namespaces=N)),
     "ZS-CHAR-001"),
    ("001", "//t:fw[@subtype='repeat']", _del("sameAs"), "ZS-SCHEMA-001"),
])
def test_each_odd_rule_fires(odd_sch, doc, path, change, rule):
    tree = etree.parse(str(next(p for p in DOCUMENTS if p.name.startswith(doc))), PARSER)
    assert not odd_sch.check(tree)
    found = odd_sch.check(_mutate(tree, path, change))
    assert found and all(msg.startswith(rule) for *_, msg in found), found
    assert all(line > 0 for line, *_ in found), found


def test_tei_all_rule_fires_with_its_line(tei_sch):
    """A TEI rule (att.datable: @when with @from) is found, on its element's line."""
    tree = etree.parse(str(DOCUMENTS[-1]), PARSER)
    date = etree.SubElement(tree.find(".//t:editorialDecl/t:normalization/t:p", N), f"{{{N['t']}}}date", when="1815", to="1816")
    date.text = "嘉慶二十年"
    tree = etree.ElementTree(etree.fromstring(etree.tostring(tree), PARSER))
    found = tei_sch.check(tree)
    assert [msg for *_, msg in found] == ["The @when attribute cannot be used with any other att.datable.w3c attributes."]
    line = found[0][0]
    assert tree.xpath("//t:date", namespaces=N)[0].sourceline == line


def test_unsupported_schematron_is_refused():
    from pipeline.errors import PipelineError
    sch = etree.fromstring(b'<schema xmlns="http://purl.oclc.org/dsdl/schematron"><phase id="x"/>'
                           b'<pattern><rule context="*"><assert test="true()">x</assert></rule></pattern></schema>')
    with pytest.raises(PipelineError, match="sch:phase"):
        schematron.Schematron(sch)


def test_validate_runs_a_schematron_on_request(run, tmp_path):
    """`zhushu validate --schematron FILE`: findings as ZS-SCH-001 at their line, the same with
    processes; a source that is no schema is unusable (exit 2)."""
    good = DOCUMENTS[-1]
    bad = tmp_path / "bad.xml"
    bad.write_text(good.read_text(encoding="utf-8").replace('type="zhu"', 'type="gloss"', 1), encoding="utf-8")
    code, out, _ = run("validate", good, "--schematron", ODD)
    assert code == 0 and "ZS-SCH-001" not in out
    code, out, _ = run("validate", good, bad, "--schematron", ODD)
    sch = [line for line in out.splitlines() if "ZS-SCH-001" in line]
    assert code == 1 and len(sch) == 1 and sch[0].startswith(f"{bad}:")
    assert "ZS-TYPE-001: note @type/@subtype gloss is not a category" in sch[0] and sch[0].endswith("[zs-type-001]")
    line = int(sch[0].split(":")[1])
    assert 'type="gloss"' in bad.read_text(encoding="utf-8").splitlines()[line - 1]
    assert run("validate", good, bad, "--schematron", ODD, "-j", "2")[1] == out
    code, out, err = run("validate", good, "--schematron", ROOT / "README.md")
    assert code == 2 and "ZS-SCHEMA-002" in out + err
