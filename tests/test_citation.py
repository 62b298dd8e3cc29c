"""Issue 17, citable structure: 卷 and 篇 divs with Arabic @n (pian.tsv's numbers), the
citeStructure every file declares and the URN of each 卷, and `zhushu resolve` finding each
citation's one element — on the seeds (tei/, which test_golden keeps equal to a conversion) and
on the Kanripo fixtures, converted here."""
from __future__ import annotations

import pathlib
import re

import pytest
from lxml import etree

from pipeline import numerals
from pipeline.constants import SHARED_FILES
from pipeline.readers import pian
from pipeline.resolve import citations, resolve, tei_xpath

ROOT = pathlib.Path(__file__).resolve().parents[1]
TEI_DIR = ROOT / "tei"
SEEDS = sorted(p for p in TEI_DIR.glob("*.xml") if p.name not in SHARED_FILES)   # the documents
FIXTURES = ROOT / "tests" / "fixtures"
NS = {"t": "http://www.tei-c.org/ns/1.0"}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"

# What each seed holds, read off its source by hand: the 卷 (title or sidecar), the 篇 (title,
# or the sidecar's "section") with its number in the classic, and the office 002 is the text of.
JUAN = {"000": ["46"], "001": ["29", "30"], "002": ["18"], "003": ["18"], "004": ["38"]}
PIAN = {"000": ["23"], "001": ["9"], "002": ["3"], "003": ["8"], "004": ["5"]}
URNS = {"000": ["urn:zhushu:liji-zhengyi:46"], "001": ["urn:zhushu:liji-yishu:29", "urn:zhushu:liji-yishu:30"],
        "002": ["urn:zhushu:zhouli-zhushu:18"], "003": ["urn:zhushu:yili-yishu:18"],
        "004": ["urn:zhushu:zhouli-zhushu:38"]}


def _tree(path) -> etree._ElementTree:
    return etree.parse(str(path))


def _divs(tree, kind: str) -> list:
    return tree.xpath(f"//t:body//t:div[@type='{kind}']", namespaces=NS)


@pytest.fixture(scope="module")
def kanripo_tei(tmp_path_factory, run):
    """The Kanripo fixtures (a work with its Readme.org, the navigation work, the bare files)
    converted as a user converts them."""
    out = tmp_path_factory.mktemp("kanripo")
    for src in ("kanripo/KR9z0001", "kanripo-nav/KR9z0002", "kanripo/bare_liji.txt", "kanripo/bare_zhouli.txt"):
        code, _, err = run("convert", FIXTURES / src, "-o", out / pathlib.Path(src).name.replace(".txt", ".xml")
                           if src.endswith(".txt") else out / pathlib.Path(src).name, "-q")
        assert code == 0, err
    return sorted(p for p in out.rglob("*.xml") if p.name not in SHARED_FILES and "contents" not in _tree(p).xpath("string(//t:body/t:div/@type)", namespaces=NS))


@pytest.fixture(scope="module")
def run():
    from click.testing import CliRunner

    from pipeline.cli import main

    def _run(*args):
        r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
        return r.exit_code, r.stdout, r.stderr
    return _run


def test_numerals_both_ways():
    assert [numerals.value(s) for s in ("二十九", "三十八", "十", "一百一十", "四十六", "兩")] == [29, 38, 10, 110, 46, 2]
    assert all(numerals.value(numerals.hanzi(i)) == i for i in range(1000))
    assert [numerals.juan_n(*a) for a in (("二十九",), ("首", "上"), ("首",), ("三", "", "二"))] == ["29", "0a", "0", "3-2"]
    assert [numerals.juan_label(n) for n in ("29", "0a", "3-2", "x")] == ["卷二十九", "卷首上", "卷三之二", "卷x"]


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.name[:3])
def test_seed_juan_and_pian_numbers(path):
    tree = _tree(path)
    seed = path.name[:3]
    assert [d.get("n") for d in _divs(tree, "juan")] == JUAN[seed]
    pians = _divs(tree, "pian")
    assert [d.get("n") for d in pians] == PIAN[seed]
    for d in pians:
        head = d.find("t:head", NS)
        if head is not None:        # a printed title: its 篇 in pian.tsv is the div's number
            assert str(pian.title("".join(head.itertext()).strip()).n) == d.get("n")
        else:                       # opened by the sidecar: nothing added to the text
            assert seed in ("000", "002", "004") and not "".join(d.xpath("text()")).strip()
    guan = _divs(tree, "guan")
    assert [g.get("n") for g in guan] == (["大宗伯"] if seed == "002" else [])
    assert tree.xpath("//t:publicationStmt/t:idno[@type='URN']/text()", namespaces=NS) == URNS[seed]


def test_kanripo_juan_and_pian_numbers(kanripo_tei):
    juans = pians = 0
    for path in kanripo_tei:
        tree = _tree(path)
        for d in _divs(tree, "juan"):
            assert re.fullmatch(r"\d{1,3}(-\d{1,3})?[abc]?", d.get("n") or ""), (path.name, d.get("n"))
            head = d.find("t:head", NS)
            m = re.search(r"卷(?:第|之)?([〇一二三四五六七八九十百]+)", "".join(head.itertext())) if head is not None else None
            if m:               # the numeral the title prints, read again here
                assert d.get("n") == str(numerals.value(m.group(1))), path.name
                juans += 1
        for d in _divs(tree, "pian"):
            head = d.find("t:head", NS)
            title = "".join(head.itertext()).strip()
            printed = re.match(r"^\**\s*(\d+)\s*", title)           # bare: `** 1 曲禮上`
            found = pian.title(title[printed.end():] if printed else title)
            # a 篇 of the 三禮: its number in pian.tsv; any other (bare's 喪服大記): the edition's
            assert d.get("n") == (str(found.n) if found else printed.group(1)), (path.name, title)
            pians += 1
    assert juans >= 2 and pians >= 3


def _unit_ids(tree) -> set:
    """The units (ab with an id) inside a citable (numbered) division."""
    return {ab.get(XML_ID) for ab in tree.xpath("//t:body//t:ab[@xml:id][ancestor::t:div[@type='juan' or @type='pian'][@n]]",
                                                namespaces=NS)}


def _all_tei(kanripo_tei):
    return [*SEEDS, *kanripo_tei]


def test_every_declared_citation_names_exactly_one_element(kanripo_tei):
    """The citeStructure's match/use XPaths evaluated with lxml: every value at every level is
    unique, and every unit of a citable division is cited."""
    for path in _all_tei(kanripo_tei):
        tree = _tree(path)
        # declared wherever a numbered 卷 or 篇 is (bare_liji's 喪服大記 is no 篇 of pian.tsv)
        numbered = tree.xpath("//t:body//t:div[@type='juan' or @type='pian'][@n][.//t:ab]", namespaces=NS)
        assert bool(tree.xpath("//t:encodingDesc/t:refsDecl/t:citeStructure", namespaces=NS)) == bool(numbered), path.name
        if not numbered:
            continue
        cited = citations(tree)
        values = [v for v, _ in cited]
        assert len(values) == len(set(values)), path.name
        units = {el.get(XML_ID) for _, el in cited if etree.QName(el).localname == "ab"}
        assert units == _unit_ids(tree) and units, path.name
        # each 卷 div is a top-level citation whose URN the header declares
        urns = tree.xpath("//t:publicationStmt/t:idno[@type='URN']/text()", namespaces=NS)
        tops = [v for v, el in cited if "." not in v]
        assert [u.rsplit(":", 1)[1] for u in urns] == tops, path.name


def test_resolve_round_trip_every_unit_of_every_seed():
    for path in SEEDS:
        tree = _tree(path)
        base = tree.xpath("string(//t:publicationStmt/t:idno[@type='URN'][1])", namespaces=NS).rsplit(":", 1)[0]
        cited = citations(tree)
        assert cited
        for value, el in cited:
            found = resolve(f"{base}:{value}", [str(p) for p in SEEDS])
            assert found.path == str(path) and found.line == el.sourceline
            assert found.element.get(XML_ID) == el.get(XML_ID)


def test_resolve_cli(run):
    code, out, err = run("resolve", "urn:zhushu:liji-zhengyi:46.23.u2", TEI_DIR)
    assert code == 0 and err == ""
    line = out.rstrip("\n")
    assert "\n" not in line
    where, text = line.split("\t")
    assert re.fullmatch(r".*000_5a9685f2ae5c6de4\.xml:\d+: ab u2", where)
    assert text.startswith("天下有王，分地建国")
    code, out, _ = run("resolve", "urn:zhushu:liji-yishu:30.9", TEI_DIR)
    assert code == 0 and ": div d3\t" in out and "礼运第九之一" in out
    # 卷二十九 prints no 篇 title: its units are cited from the 卷
    code, out, _ = run("resolve", "urn:zhushu:liji-yishu:29.u3", TEI_DIR)
    assert code == 0 and ": ab u3\t" in out


@pytest.mark.parametrize("urn, says", [
    ("urn:zhushu:liji-zhengyi:45.23.u2", "no document here has the URN urn:zhushu:liji-zhengyi:45"),
    ("urn:zhushu:nosuchwork:1", "no document here has the URN"),
    ("urn:zhushu:liji-zhengyi:46.9.u1", "no element of its document has this citation"),
    ("urn:zhushu:liji-zhengyi:46.23.u999", "no element of its document has this citation"),
    ("liji 46", "not a citation"),
])
def test_resolve_unknown_urn_is_one_line(run, urn, says):
    code, out, err = run("resolve", urn, TEI_DIR)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "ZS-CITE-001" in err and says in err and "Traceback" not in err


def test_citation_xpaths_are_in_the_tei_namespace():
    assert tei_xpath("/TEI/text/body/div[@type='juan']") == "/tei:TEI/tei:text/tei:body/tei:div[@type='juan']"
    assert (tei_xpath(".//ab[@xml:id][not(ancestor::div[@type='pian' or @type='zhang'])]")
            == ".//tei:ab[@xml:id][not(ancestor::tei:div[@type='pian' or @type='zhang'])]")


def test_citation_header_is_valid_tei(tei_all, kanripo_tei):
    for path in _all_tei(kanripo_tei):
        assert tei_all.validate(_tree(path)), (path.name, tei_all.error_log)
