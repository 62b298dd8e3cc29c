"""schema/zhushu.odd: valid TEI, and in agreement with schema/zhushu.xsd: the same elements, the
same attributes on each, the same closed value lists. The test reads both files as they are
(xmlschema for the XSD; the ODD's moduleRef, classSpec and elementSpec for the ODD, with the
attributes TEI itself gives each element taken from tei_all.rng), and prints every difference
as one line: "XSD has element cit, ODD lacks it", "note/@type: XSD allows X, ODD does not"."""
from __future__ import annotations

import functools
import re
import shutil
from pathlib import Path

import pytest
import xmlschema
from lxml import etree
from xmlschema.validators import XsdElement, XsdUnion

from pipeline.constants import CATEGORY_IDS
from pipeline.tei.header import TAXONOMY

ROOT = Path(__file__).resolve().parents[1]
XSD = ROOT / "schema" / "zhushu.xsd"
ODD = ROOT / "schema" / "zhushu.odd"
TEI_ALL = ROOT.parent / "shared" / "tei-p5" / "tei_all.rng"
TEI_NS = "http://www.tei-c.org/ns/1.0"
T = f"{{{TEI_NS}}}"
RNG = "{http://relaxng.org/ns/structure/1.0}"
XML = "{http://www.w3.org/XML/1998/namespace}"


class Attr:
    """What a schema allows for one attribute of one element: `values`, the enumerated ones
    (the union of every declaration that enumerates), and `open`, whether some declaration
    allows any value of a datatype instead."""

    def __init__(self):
        self.values: set[str] = set()
        self.open = False


# ---------------------------------------------------------------- the XSD

def _enumeration(t) -> set[str] | None:
    """The values a simple type enumerates, None when it allows a datatype's values."""
    if isinstance(t, XsdUnion):
        out: set[str] = set()
        for member in t.member_types:
            v = _enumeration(member)
            if v is None:
                return None
            out |= v
        return out
    values = getattr(t, "enumeration", None)
    return set(values) if values else None


def xsd_model(path: Path) -> dict[str, dict[str, Attr]]:
    """{element: {attribute: Attr}} over every declaration of the element in the XSD (an
    element declared in several contexts has the union of their attributes and values)."""
    out: dict[str, dict[str, Attr]] = {}
    for c in xmlschema.XMLSchema(str(path)).iter_components():
        if not isinstance(c, XsdElement) or c.target_namespace != TEI_NS:
            continue
        atts = out.setdefault(c.local_name, {})
        for name, a in c.attributes.items():
            if name is None:
                continue
            at = atts.setdefault(name.replace(XML, "xml:"), Attr())
            values = _enumeration(a.type)
            if values is None:
                at.open = True
            else:
                at.values |= values
    return out


# ---------------------------------------------------------------- the ODD

@functools.cache
def tei_attributes(rng: Path) -> dict[str, dict[str, str | None]]:
    """{element: {attribute: its class, or None for the element's own}} as TEI (tei_all.rng)
    defines them: the attributes reached from the element's define through refs, never
    entering a nested element; a define `att.X.attribute.NAME` gives its attribute class X."""
    root = etree.parse(str(rng)).getroot()
    defines: dict[str, list] = {}
    for d in root.iter(f"{RNG}define"):
        defines.setdefault(d.get("name"), []).append(d)
    memo: dict[str, dict] = {}

    def walk(node, cls) -> dict:
        found = {}
        for ch in node.iterchildren(etree.Element):
            if ch.tag == f"{RNG}element":
                continue
            if ch.tag == f"{RNG}attribute":
                if ch.get("name"):
                    found[ch.get("name")] = cls
            elif ch.tag == f"{RNG}ref":
                name = ch.get("name")
                if name not in memo:
                    memo[name] = {}                 # a cycle reaches no new attribute
                    own = name.split(".attribute.")[0] if name.startswith("att.") and ".attribute." in name else cls
                    got = {}
                    for d in defines.get(name, []):
                        got.update(walk(d, own))
                    memo[name] = got
                found.update(memo[name])
            else:
                found.update(walk(ch, cls))
        return found

    out = {}
    for d in root.iter(f"{RNG}define"):
        el = d.find(f"{RNG}element")
        if el is not None and el.get("name"):
            out[el.get("name")] = walk(el, None)
    return out


def odd_model(path: Path, rng: Path | None) -> dict[str, dict[str, Attr]]:
    """{element: {attribute: Attr}} of the ODD's schemaSpec. Elements: those its moduleRefs
    include. Attributes: with `rng`, TEI's attributes of each element, less those its classSpec
    or elementSpec deletes, plus those its elementSpec adds; without, the attributes each
    elementSpec declares (add or change), as the ODD's own convention has it. Values: each
    attDef's closed valList."""
    root = etree.parse(str(path)).getroot()
    spec = root.find(f".//{T}schemaSpec")
    included = {e for m in spec.iter(f"{T}moduleRef") for e in (m.get("include") or "").split()}
    deleted_by_class = {(c.get("ident"), a.get("ident"))
                        for c in spec.iter(f"{T}classSpec") for a in c.iter(f"{T}attDef")
                        if a.get("mode") == "delete"}
    out: dict[str, dict[str, Attr]] = {}
    for el in included:
        es = spec.find(f"{T}elementSpec[@ident='{el}']")
        defs = {} if es is None else {a.get("ident"): a for a in es.iter(f"{T}attDef")}
        atts: dict[str, Attr] = {}
        if rng is not None:
            for name, cls in tei_attributes(rng).get(el, {}).items():
                if (cls, name) not in deleted_by_class and defs.get(name, etree.Element("x")).get("mode") != "delete":
                    atts[name] = Attr()
        for name, a in defs.items():
            if a.get("mode") == "delete":
                atts.pop(name, None)
                continue
            at = atts.setdefault(name, Attr())
            closed = a.find(f"{T}valList[@type='closed']")
            if closed is not None:
                at.values = {v.get("ident") for v in closed.iter(f"{T}valItem")}
            else:
                at.open = True
        for name, at in atts.items():
            if name not in defs:
                at.open = True                       # TEI's own datatype, unchanged
        out[el] = atts
    return out


def differences(xsd: dict[str, dict[str, Attr]], odd: dict[str, dict[str, Attr]]) -> list[str]:
    """Every way the two disagree, one line each. An attribute the XSD leaves open in some
    declaration (a note between the blocks takes any @type: its variants are checked in
    pipeline/validate/by_type.py) agrees with a closed ODD list that holds every value the XSD
    enumerates."""
    def one_sided(x, o, say) -> list[str]:
        return [say(k, "XSD", "ODD") for k in sorted(set(x) - set(o))] + \
               [say(k, "ODD", "XSD") for k in sorted(set(o) - set(x))]

    out = one_sided(xsd, odd, lambda el, has, lacks: f"{has} has element {el}, {lacks} lacks it")
    for el in sorted(set(xsd) & set(odd)):
        xa, oa = xsd[el], odd[el]
        out += one_sided(xa, oa, lambda name, has, lacks: f"{el}/@{name}: {has} allows it, {lacks} does not")
        for name in sorted(set(xa) & set(oa)):
            x, o = xa[name], oa[name]
            if x.values and o.open:
                out.append(f"{el}/@{name}: XSD enumerates {' '.join(sorted(x.values))}, ODD has no closed valList")
                continue
            for v in sorted(x.values - o.values):
                out.append(f"{el}/@{name}: XSD allows {v}, ODD does not")
            if not x.open:
                for v in sorted(o.values - x.values):
                    out.append(f"{el}/@{name}: ODD allows {v}, XSD does not")
    return out


def _rng() -> Path | None:
    return TEI_ALL if TEI_ALL.exists() else None


def test_odd_agrees_with_the_xsd():
    diff = differences(xsd_model(XSD), odd_model(ODD, _rng()))
    assert not diff, "schema/zhushu.xsd and schema/zhushu.odd disagree:\n" + "\n".join(diff)


def test_the_comparison_sees_every_element_and_value():
    """The models are not empty by accident: all 85 elements, and the value lists the writer
    relies on."""
    xsd, odd = xsd_model(XSD), odd_model(ODD, _rng())
    assert len(xsd) == len(odd) == 85
    assert odd["note"]["place"].values == {"inline"}
    assert {"jing", "translation", "kaozheng"} == odd["ab"]["type"].values == xsd["ab"]["type"].values
    assert xsd["note"]["type"].open and odd["note"]["type"].values >= xsd["note"]["type"].values


def test_note_values_are_the_taxonomy():
    """note/@type and @subtype are closed in the ODD on what the header's taxonomy declares
    (ZS-TYPE-001 checks each file against its own), the 義疏 categories among them; the
    header's own notes (a Kanripo source's properties and comments) are not layers."""
    odd = odd_model(ODD, None)
    declared = {cid for cid, _ in TAXONOMY}
    assert odd["note"]["type"].values - {"properties", "comment", "provenance"} <= declared
    assert odd["note"]["subtype"].values <= declared
    assert set(CATEGORY_IDS) <= odd["note"]["subtype"].values
    assert "yishu" in odd["note"]["type"].values


def test_the_type_rule_lists_the_shared_taxonomy():
    """ZS-TYPE-001 in the ODD's Schematron (which cannot open categories.xml) lists exactly the
    categories the shared file declares."""
    root = etree.parse(str(ODD)).getroot()
    let = root.find(".//{http://purl.oclc.org/dsdl/schematron}let[@name='categories']")
    listed = re.findall(r"'([^']+)'", let.get("value"))
    assert listed == [cid for cid, _ in TAXONOMY]


def test_every_element_has_one_elementspec():
    root = etree.parse(str(ODD)).getroot()
    included = [e for m in root.iter(f"{T}moduleRef") for e in (m.get("include") or "").split()]
    specs = [s.get("ident") for s in root.iter(f"{T}elementSpec")]
    assert sorted(included) == sorted(set(included)) == sorted(specs)
    for s in root.iter(f"{T}elementSpec"):
        assert s.get("mode") == "change" and (s.findtext(f"{T}desc") or "").strip(), s.get("ident")
        for vl in s.iter(f"{T}valList"):
            assert vl.get("type") == "closed", s.get("ident")
            for item in vl.iter(f"{T}valItem"):
                assert (item.findtext(f"{T}desc") or "").strip(), (s.get("ident"), item.get("ident"))


def _copy_schemas(tmp_path: Path) -> tuple[Path, Path]:
    for name in ("zhushu.xsd", "xml.xsd", "zhushu.odd"):
        shutil.copy(ROOT / "schema" / name, tmp_path / name)
    return tmp_path / "zhushu.xsd", tmp_path / "zhushu.odd"


@pytest.mark.parametrize("side, old, new, expected", [
    # the XSD alone changes: a value, an attribute, an element
    ("xsd", '<xs:enumeration value="lost"/>', '<xs:enumeration value="lost"/><xs:enumeration value="illegible"/>',
     "gap/@reason: XSD allows illegible, ODD does not"),
    ("xsd", '<xs:complexType name="trailer" mixed="true">\n    <xs:group ref="phrase"/>',
     '<xs:complexType name="trailer" mixed="true">\n    <xs:group ref="phrase"/>\n    <xs:attribute name="n" type="nonEmpty"/>',
     "trailer/@n: XSD allows it, ODD does not"),
    ("xsd", '<xs:element name="anchor" type="anchor"/>\n        <xs:element name="term" type="phrase"/>',
     '<xs:element name="anchor" type="anchor"/>\n        <xs:element name="hi" type="phrase"/>\n        <xs:element name="term" type="phrase"/>',
     "XSD has element hi, ODD lacks it"),
    # the ODD alone changes
    ("odd", '<valItem ident="fanqie">', '<valItem ident="fanqie2"><desc>x</desc></valItem><valItem ident="fanqie">',
     "seg/@type: ODD allows fanqie2, XSD does not"),
    ("odd", '<valItem ident="ruzi"><desc>如字, read as usual</desc></valItem>', "",
     "seg/@type: XSD allows ruzi, ODD does not"),
    ("odd", 'include="TEI back body', 'include="TEI body', "XSD has element back, ODD lacks it"),
    # the trailer's one attribute, its xml:id, taken out of its elementSpec
    ("odd", re.compile(r'(<elementSpec ident="trailer".*?)<attList>.*?</attList>', re.S), r"\1",
     "trailer/@xml:id: XSD allows it, ODD does not"),
])
def test_a_change_on_one_side_alone_fails(tmp_path, side, old, new, expected):
    xsd, odd = _copy_schemas(tmp_path)
    target = xsd if side == "xsd" else odd
    text = target.read_text(encoding="utf-8")
    if isinstance(old, re.Pattern):
        text, n = old.subn(new, text, count=1)
        assert n == 1, old
    else:
        assert old in text, old
        text = text.replace(old, new, 1)
    target.write_text(text, encoding="utf-8")
    diff = differences(xsd_model(xsd), odd_model(odd, _rng()))
    assert expected in diff, diff


def test_odd_deletes_what_tei_gives_and_we_do_not_use():
    """With TEI's own attributes: @rend, @n, @xml:base … are gone from every element that does
    not use them (the ODD's classSpecs delete them, its elementSpecs give back what we use)."""
    if _rng() is None:
        pytest.skip("../shared/tei-p5/tei_all.rng not present")
    odd = odd_model(ODD, TEI_ALL)
    assert set(odd["seg"]) == {"xml:id", "type"}
    assert set(odd["lb"]) == set()
    assert "rend" in odd["surname"] and "rend" not in odd["note"]


def test_odd_is_valid_tei(tei_all):
    odd = etree.parse(str(ODD))
    assert tei_all.validate(odd), str(tei_all.error_log)


def test_odd_passes_tei_all_schematron():
    if _rng() is None:
        pytest.skip("../shared/tei-p5/tei_all.rng not present")
    from pipeline.validate import schematron
    found = schematron.Schematron(schematron.from_rng(str(TEI_ALL))).check(etree.parse(str(ODD)))
    assert not found, found
