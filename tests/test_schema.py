"""schema/zhushu.xsd (with the variants it cannot state, rules.variants): compiles, accepts our TEI,
rejects what we do not emit, and stays a subset of TEI P5."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner
from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schema" / "zhushu.xsd"
EXAMPLE = ROOT / "tei" / "004_788d901eea474415.xml"
TEI_ALL = ROOT.parent / "shared" / "tei-p5" / "tei_all.rng"

NS = "http://www.tei-c.org/ns/1.0"
XML = "http://www.w3.org/XML/1998/namespace"
T = f"{{{NS}}}"
XML_ID = f"{{{XML}}}id"
XML_LANG = f"{{{XML}}}lang"
N = {"t": NS}
# the parser settings of pipeline.xmlsafe
SAFE_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


class SchemaError(NamedTuple):
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.line}: {self.message}"


class Structure:
    """What `zhushu validate` reports as ZS-SCHEMA-001: schema/zhushu.xsd, then the variants it
    cannot state (pipeline.rules.variants). `validate` and `error_log` as lxml's validators."""

    error_log: list[SchemaError] = []

    def validate(self, doc) -> bool:
        from pipeline.validate import structure
        tree = doc.getroottree() if isinstance(doc, etree._Element) else doc
        self.error_log = [SchemaError(line, msg) for _, line, msg in structure(tree)]
        return not self.error_log


@pytest.fixture(scope="module")
def schema() -> Structure:
    return Structure()


@pytest.fixture(scope="module")
def tei_all() -> etree.RelaxNG:
    if not TEI_ALL.exists():
        pytest.skip(f"{TEI_ALL} not available")
    return etree.RelaxNG(etree.parse(str(TEI_ALL)))


@pytest.fixture(scope="module")
def example() -> etree._ElementTree:
    return etree.parse(str(EXAMPLE))


def fresh(example) -> etree._Element:
    return copy.deepcopy(example.getroot())


def one(root, path: str) -> etree._Element:
    found = root.xpath(path, namespaces=N)
    assert found, f"the example has no {path}"
    return found[0]


def el(tag: str, text: str | None = None, **attrs) -> etree._Element:
    e = etree.Element(T + tag)
    for k, v in attrs.items():
        e.set({"xml_id": XML_ID, "xml_lang": XML_LANG}.get(k, k), v)
    e.text = text
    return e


def errors(schema) -> str:
    return "\n".join(str(e) for e in schema.error_log)


# -- the schema and the example ----------------------------------------------------------------

def test_schema_compiles():
    from pipeline.validate import schema
    assert isinstance(schema(), etree.XMLSchema)


def test_schema_is_xsd_for_tei():
    root = etree.parse(str(SCHEMA)).getroot()
    assert root.tag == "{http://www.w3.org/2001/XMLSchema}schema"
    assert root.get("targetNamespace") == NS


def test_schema_is_strict_xsd_10():
    """A second, stricter implementation compiles it (deterministic content models, one type per
    name in a content model), accepts our TEI and enforces the fixed root language, which
    libxml2 skips (rules.variants checks it for libxml2)."""
    xmlschema = pytest.importorskip("xmlschema")
    xs = xmlschema.XMLSchema10(str(SCHEMA))
    valid = (ROOT / "tests" / "invalid" / "valid.xml").read_text(encoding="utf-8")
    assert xs.is_valid(valid) and xs.is_valid(YISHU_DOC)
    assert xs.is_valid(KANRIPO_DOC) and xs.is_valid(WORK_DOC)
    assert not xs.is_valid(valid.replace('xml:lang="lzh"', 'xml:lang="en"', 1))


def test_example_is_valid(schema, example):
    assert schema.validate(example), errors(schema)


def test_example_is_valid_tei_all(tei_all, example):
    assert tei_all.validate(example), errors(tei_all)


# -- documents the schema must reject ------------------------------------------------------------

def _unknown_element_in_body(r):
    one(r, "//t:div[not(t:div)]").append(el("foo", "x"))


def _unknown_tei_element_in_div(r):
    # <lg> is valid TEI, but not part of our subset
    lg = el("lg")
    lg.append(el("l", "x"))
    one(r, "//t:div[not(t:div)]").append(lg)


def _foreign_namespace_element(r):
    one(r, "//t:ab").append(etree.Element("{http://example.org/x}foo"))


def _text_directly_in_div(r):
    one(r, "//t:ab").tail = "stray text"


def _target(value):
    def mutate(r):
        one(r, "//t:note[@type='zhu'][@target]").set("target", value)
    return mutate


def _resp(value):
    def mutate(r):
        one(r, "//t:note[@type='shu'][@resp]").set("resp", value)
    return mutate


def _g_ref(value):
    def mutate(r):
        one(r, "//t:g").set("ref", value)
    return mutate


def _no_id_on_ab(r):
    del one(r, "//t:ab").attrib[XML_ID]


def _no_id_on_seg(r):
    del one(r, "//t:ab/t:seg").attrib[XML_ID]


def _no_id_on_shu(r):
    del one(r, "//t:note[@type='shu']").attrib[XML_ID]


def _bad_id(value):
    def mutate(r):
        one(r, "//t:ab").set(XML_ID, value)
    return mutate


def _sha256(value):
    def mutate(r):
        one(r, "//t:idno[@type='sha256']").text = value
    return mutate


def _attr(path, name, value):
    def mutate(r):
        one(r, path).set(name, value)
    return mutate


def _no_place_on_inline_note(r):
    del one(r, "//t:note[@type='zhu']").attrib["place"]


def _no_type_on_ab(r):
    del one(r, "//t:ab").attrib["type"]


def _two_chars_in_g(r):
    one(r, "//t:g").text = "??"


def _no_ref_on_g(r):
    del one(r, "//t:g").attrib["ref"]


def _desc_in_gap(r):
    # the edition's printed words (阙。) are text beside the gap, never the encoder's desc
    gap = one(r, "//t:seg[@type='que']/t:gap")
    gap.append(el("desc", gap.tail, type="que"))
    gap.tail = None


def _g_in_lacuna_gap(r):
    # the gap states the loss and holds nothing (TEI's desc would not admit a g either)
    one(r, "//t:seg[@type='que']/t:gap").append(el("g", "?", ref="#zs-g003F"))


def _head_after_ab(r):
    one(r, "//t:div[not(t:div)]").append(el("head", "卷", type="juan"))


def _p_inside_ab(r):
    one(r, "//t:ab").append(el("p", "x"))


def _seg_type(r):
    one(r, "//t:seg[@type='fanqie']").set("type", "foo")


def _label_type(r):
    one(r, "//t:label[@type='chuwen']").set("type", "lemma")


def _note_in_note(r):
    one(r, "//t:note[@type='zhu']").append(el("note", "x", type="zhu", place="inline", xml_id="zz1"))


def _forward_note_in_ab(r):
    one(r, "//t:ab").append(el("note", "x", type="translation"))


def _reserved_type_on_div_note(r):
    one(r, "//t:div[not(t:div)]").append(el("note", "x", type="zhu"))


def _nested_juan_div(r):
    one(r, "//t:div[not(t:div)]").append(el("div", type="juan", xml_id="dx"))


def _empty_list_person(r):
    lp = one(r, "//t:listPerson")
    for p in list(lp):
        lp.remove(p)


def _no_tei_header(r):
    r.remove(one(r, "t:teiHeader"))


def _wrong_namespace(r):
    for e in r.iter():
        if isinstance(e.tag, str) and e.tag.startswith(T):
            e.tag = "{http://www.tei-c.org/ns/2.0}" + e.tag[len(T):]


def _root_lang(r):
    r.set(XML_LANG, "en")


def _glyph_id(r):
    one(r, "//t:charDecl/t:char[t:localProp[@name='name']]").set(XML_ID, "glyph1")


def _version(r):
    one(r, "//t:application").set("version", "latest")


MUTATIONS = {
    "unknown element in body": _unknown_element_in_body,
    "TEI element outside the subset": _unknown_tei_element_in_div,
    "element in a foreign namespace": _foreign_namespace_element,
    "text directly in div": _text_directly_in_div,
    "target javascript:": _target("javascript:alert(1)"),
    "target data:": _target("data:text/html,<script>alert(1)</script>"),
    "target http:": _target("http://example.org/x.xml#u1"),
    "target relative file": _target("other.xml#u1"),
    "target without #": _target("u1.j1"),
    "target empty fragment": _target("#"),
    "target two pointers": _target("#u1.j1 #u1.j1"),
    "target with symbol": _target("#u1<j1"),
    "resp javascript:": _resp("javascript:alert(1)"),
    "resp bare id": _resp("jiagongyan"),
    "g ref http:": _g_ref("http://example.org/g.xml#zs-g003F"),
    "missing xml:id on ab": _no_id_on_ab,
    "missing xml:id on seg": _no_id_on_seg,
    "missing xml:id on shu note": _no_id_on_shu,
    "xml:id starting with a digit": _bad_id("1u"),
    "xml:id with a space": _bad_id("u 1"),
    "xml:id with a colon": _bad_id("u:1"),
    "sha256 too short": _sha256("a" * 63),
    "sha256 not hex": _sha256("g" * 64),
    "sha256 upper case": _sha256("A" * 64),
    "attribute we do not use (rend)": _attr("//t:ab/t:seg", "rend", "bold"),
    "attribute we do not use (style)": _attr("//t:note[@type='shu']", "style", "color:red"),
    "attribute in a foreign namespace": _attr("//t:ab", "{http://example.org/x}onclick", "x"),
    # XSD validators honour xsi:type (another type) and accept xsi:schemaLocation: refused too
    "xsi:type": _attr("//t:ab", "{http://www.w3.org/2001/XMLSchema-instance}type", "ab"),
    "xsi:schemaLocation": _attr("//t:text", "{http://www.w3.org/2001/XMLSchema-instance}schemaLocation",
                                "http://www.tei-c.org/ns/1.0 http://127.0.0.1:9/x.xsd"),
    "event-handler attribute": _attr("//t:p", "onclick", "alert(1)"),
    "no place on a shu note": lambda r: one(r, "//t:note[@type='shu']").attrib.pop("place"),
    "place other than inline on a shu note": _attr("//t:note[@type='shu']", "place", "foot"),
    "subtype on an inline note": _attr("//t:note[@type='zhu']", "subtype", "x"),
    "unknown ab type": _attr("//t:ab", "type", "zhu"),
    "unknown note type in ab": _attr("//t:note[@type='zhu']", "type", "jian"),
    "unknown shu subtype": _attr("//t:note[@type='shu']", "subtype", "lost"),
    "unknown gap reason": _attr("//t:gap", "reason", "illegible"),
    "unknown div type": _attr("//t:div", "type", "chapter"),
    "unknown g type": _attr("//t:g", "type", "variant"),
    "unknown title type": _attr("//t:title[@type='work']", "type", "sub"),
    "unknown idno type": _attr("//t:idno[@type='filename']", "type", "URI"),
    "bad xml:lang on ab": _attr("//t:ab", XML_LANG, "not a language"),
    "missing place on inline note": _no_place_on_inline_note,
    "missing type on ab": _no_type_on_ab,
    "two characters in g": _two_chars_in_g,
    "g without ref": _no_ref_on_g,
    "desc in a lacuna's gap": _desc_in_gap,
    "g in a lacuna's gap": _g_in_lacuna_gap,
    "head after the blocks": _head_after_ab,
    "p inside ab": _p_inside_ab,
    "unknown seg type": _seg_type,
    "unknown label type": _label_type,
    "note inside a note": _note_in_note,
    "forward note inside ab": _forward_note_in_ab,
    "reserved note type at div level": _reserved_type_on_div_note,
    "nested juan div": _nested_juan_div,
    "no teiHeader": _no_tei_header,
    "not the TEI namespace": _wrong_namespace,
    "root xml:lang not lzh": _root_lang,
    "glyph id outside zs-gXXXX": _glyph_id,
    "application version not a version": _version,
    # the variants (rules.variants): what the schema's unions let through
    "g directly in a jing ab": lambda r: one(r, "//t:ab").append(el("g", "?", ref="#zs-g003F")),
    "text between the paragraphs of a shu note": lambda r: setattr(one(r, "//t:note[@type='shu']/t:p"), "tail", "x"),
    "mentioned in a mark label": lambda r: one(r, "//t:note[@type='shu']/t:label[@type='mark']").append(el("mentioned", "x")),
    "chuwen label before the mark label": lambda r: one(r, "//t:note[@type='shu']/t:label[@type='mark']").addprevious(
        one(r, "//t:note[@type='shu']/t:label[@type='chuwen']")),
    "titles out of order": lambda r: one(r, "//t:titleStmt/t:title[@type='main']").addprevious(
        one(r, "//t:titleStmt/t:title[@type='juan']")),
    "idnos swapped": lambda r: one(r, "//t:idno[@type='filename']").addprevious(one(r, "//t:idno[@type='sha256']")),
}


@pytest.mark.parametrize("mutate", MUTATIONS.values(), ids=MUTATIONS.keys())
def test_mutation_is_invalid(schema, example, mutate):
    root = fresh(example)
    mutate(root)
    assert not schema.validate(root)
    # and as `zhushu validate` sees it: the serialized file, parsed again
    try:
        reparsed = etree.fromstring(etree.tostring(root), SAFE_PARSER)
    except etree.XMLSyntaxError:
        return                              # e.g. an xml:id that is not an NCName
    assert not schema.validate(reparsed)


def test_no_namespace_is_invalid(schema):
    data = EXAMPLE.read_bytes().replace(b' xmlns="http://www.tei-c.org/ns/1.0"', b"", 1)
    assert not schema.validate(etree.fromstring(data))


def test_duplicate_id_is_left_to_the_rules(schema):
    # xml:id is an NCName, not an xs:ID: uniqueness is rule ZS-ID-001 (one finding, at the
    # element; see test_validate_gate), so the structure does not report it a second time.
    from pipeline.validate import xmlsafe
    data = EXAMPLE.read_bytes().replace(b'xml:id="u2"', b'xml:id="u1"', 1)
    assert schema.validate(xmlsafe.parse(data, "t.xml")), errors(schema)


@pytest.mark.parametrize("value", ["1u", "u:1", "u 1", ""])
def test_id_is_an_ncname(schema, example, value):
    root = fresh(example)
    one(root, "//t:ab[@type='jing']").set(XML_ID, value)
    assert not schema.validate(root)
    assert "xml:id" in errors(schema) and "NCName" in errors(schema), errors(schema)


# -- the optional slots for upcoming layers ------------------------------------------------------

def forward_document(example) -> etree._Element:
    """004.xml with every optional (forward-compatible) construct of the schema used once."""
    root = fresh(example)
    div = one(root, "//t:div[not(t:div)]")
    div.set("corresp", "#d1")
    div.set(XML_LANG, "lzh")
    ab = one(root, "//t:ab")
    ab.set("corresp", "#u2")
    # an anchor inside a jing seg and inside an inline note
    one(root, "//t:ab/t:seg").append(el("anchor", xml_id="u1.a1"))
    zhu = one(root, "//t:note[@type='zhu']")
    zhu.insert(0, el("anchor", xml_id="u1.a2"))
    cit = el("cit")
    cit.append(el("bibl", "《王制》"))
    cit.append(el("quote", "引文"))
    zhu.append(cit)
    zhu.append(el("quote", "q", corresp="#u1.j1"))
    # a 疏 spanning two anchors, detached, with quotes in and between paragraphs
    shu = one(root, "//t:note[@type='shu']")
    shu.set("target", "#u1.a1")
    shu.set("targetEnd", "#u1.a2")
    shu.set("subtype", "detached")
    shu.set("corresp", "#u1 #u2")
    p = one(shu, "t:p")
    p.append(el("anchor", xml_id="u1.s1.a1"))
    p.append(el("quote", "q"))
    shu.append(el("quote", "q"))
    # div-level: page furniture, a translation, a translator's note, quotations, a section
    div.insert(1, el("fw", "卷三十八", type="header", n="1"))
    blocks = [
        el("fw", "一", type="pageNum"),
        el("ab", "译文", type="jing", xml_id="t.u1", corresp="#u1", xml_lang="zh-Hans"),
        el("p", "译文", xml_id="t.p1", corresp="#u1.j1", xml_lang="zh-Hans"),
        el("note", "译注", type="translation", subtype="gloss", xml_id="t.n1", resp="#zhengxuan",
           target="#u1.j1", corresp="#u1", xml_lang="zh-Hans"),
        el("quote", "q", xml_id="q1", corresp="#u1"),
    ]
    n = blocks[3]
    n.append(el("p", "para"))
    blocks.append(el("cit", xml_id="c1"))
    bibl = el("bibl")
    bibl.append(el("author", "郑氏", ref="#zhengxuan"))
    bibl[0].tail = "曰"
    blocks[-1].append(bibl)
    blocks[-1].append(el("quote", "q"))
    section = el("div", type="section", n="一", xml_id="d1.1", corresp="#d1", xml_lang="lzh")
    section.append(el("head", "章", type="section", xml_id="d1.1.h"))
    section.append(el("ab", type="jing", xml_id="s.u1"))
    inner = el("div", type="section", xml_id="d1.1.1")
    inner.append(el("p", "x"))
    section.append(inner)
    blocks.append(section)
    blocks.append(el("note", "x", type="translation", xml_id="t.n2"))
    div.extend(blocks)
    return root


def test_forward_constructs_are_valid(schema, example):
    assert schema.validate(forward_document(example)), errors(schema)


def test_forward_constructs_are_valid_tei_all(tei_all, example):
    assert tei_all.validate(forward_document(example)), errors(tei_all)


def test_block_after_nested_section_is_invalid(schema, example):
    # TEI's div model: once sections start, no more blocks (global items such as notes are fine)
    root = forward_document(example)
    one(root, "//t:div[@type='juan']").append(el("p", "x"))
    assert not schema.validate(root)


# -- everything the writer emits -----------------------------------------------------------------

def writer_document() -> etree._Element:
    """A document model that takes every branch of the writer (pipeline/tei/) that yields valid TEI."""
    from pipeline import tei
    from pipeline.model import (JING, QUE, YINYI, ZHU, Chuwen, Div, Document, Head, Meta, Para,
                                Piece, Pos, Shu, Token, Unit, assign_ids)
    at = Pos(1, 1)
    jing = Piece(JING, "經?文\ue000", at)
    a1, a2 = jing.anchor_at(1), jing.anchor_at(3)
    zhu = Piece(ZHU, "注┹文", at, resp="zhengxuan", target=jing)
    zhu.anchor_at(2)
    yinyi = Piece(YINYI, "", at, resp="ludeming", tokens=[
        Token("term", "闽?"), Token("text", "，"), Token("fanqie", "亡巾反"), Token("zhiyin", "音文"),
        Token("ruzi", "如字"), Token("mentioned", "x□")])
    empty_yinyi = Piece(YINYI, "", at, resp="ludeming", tokens=[], target=zhu)
    que = Piece(QUE, "阙。", at)
    chuwen = Chuwen(JING, ["經"], [Token("text", "“"), Token("mentioned", "經▯"), Token("text", "”")], at)
    doc = Document(
        Meta("004_x.txt", "0123456789abcdef" * 4, "paren", work="周禮注疏", juan="卷一",
             persons=["zhengxuan", "ludeming", "jiagongyan"]),
        [Div("juan", Head("卷一?", at), [
            Shu(None, [Para("x", at)], at, mark="疏", detached=True, resp="jiagongyan"),
            Unit([zhu, jing, yinyi, que, empty_yinyi], at),
            Shu(chuwen, [Para("释曰▯", at), Para("two", at)], at, mark="疏", resp="jiagongyan",
                target=a1, target_end=a2),
            Unit([Piece(JING, "x", at)], at),
            Shu(None, [], at),
         ], n="1"),
         Div("juan", None, [])])
    assign_ids(doc)
    return etree.fromstring(tei.serialize(tei.to_tei(doc)))


# -- the 義疏 layout: 義疏 and 案 blocks, small notes, translations, furniture, closings -----------

# The encoding declarations every document of the writer carries (editorialDecl, refsDecl,
# listPrefixDef), shared by the hand-written documents below.
DECLARATIONS = """    <editorialDecl>
      <normalization><p>Unicode NFC.</p></normalization>
      <punctuation><p>The e-text's own.</p></punctuation>
      <segmentation><p>By the reader.</p></segmentation>
      <interpretation><p>Spans and commentators inferred.</p></interpretation>
    </editorialDecl>
    <refsDecl>
      <citeStructure unit="juan" match="/TEI/text/body/div[@type='juan'][@n]" use="@n">
        <citeStructure unit="unit" match=".//ab[@xml:id]" use="@xml:id" delim="."/>
      </citeStructure>
    </refsDecl>
    <listPrefixDef>
      <prefixDef ident="psn" matchPattern="([A-Za-z0-9._-]+)" replacementPattern="persons.xml#$1"><p>persons.xml</p></prefixDef>
      <prefixDef ident="cat" matchPattern="([A-Za-z0-9._-]+)" replacementPattern="categories.xml#$1"><p>categories.xml</p></prefixDef>
    </listPrefixDef>
"""

YISHU_DOC = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0" xml:lang="lzh">
<teiHeader xml:lang="en">
  <fileDesc>
    <titleStmt>
      <title type="main">钦定仪礼义疏 卷十八</title>
      <title type="work">钦定仪礼义疏</title>
      <title type="juan">卷十八</title>
      <editor role="compiler"><orgName xml:lang="lzh-Hant">三禮館</orgName></editor>
      <respStmt><resp>TEI encoding</resp><name>Zhushu 0.1.0</name></respStmt>
    </titleStmt>
    <publicationStmt><authority>Zhushu</authority><idno type="URN">urn:zhushu:yili-yishu:18</idno><availability status="free"><licence target="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</licence></availability></publicationStmt>
    <sourceDesc>
      <bibl type="printed"><title>钦定仪礼义疏</title><edition>四库全书本</edition></bibl>
      <bibl type="etext">
        <title>钦定仪礼义疏</title>
        <biblScope unit="juan">卷十八</biblScope>
        <publisher>中华文库</publisher>
        <idno type="filename">003_x.txt</idno>
        <idno type="sha256">0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef</idno>
        <note type="provenance">钦定仪礼义疏_(四库全书本)/卷18 中华文库</note>
      </bibl>
    </sourceDesc>
  </fileDesc>
  <encodingDesc>
    <appInfo>
      <application ident="zhushu" version="0.1.0"><label>Zhushu</label><desc>reader: yishu</desc></application>
    </appInfo>
""" + DECLARATIONS + """    <charDecl>
      <char xml:id="zs-g25AF">
        <localProp name="name" value="placeholder for a missing character"/>
        <desc>the e-text prints ▯ (U+25AF) where a character is missing; which character is not known</desc>
      </char>
    </charDecl>
  </encodingDesc>
  <profileDesc>
    <langUsage>
      <language ident="en">English (this header)</language>
      <language ident="lzh-Hans">Literary Chinese (文言), simplified script</language>
      <language ident="lzh-Hant">Literary Chinese (文言), traditional script (names in the header)</language>
      <language ident="zh-Hans">Modern Chinese, simplified script (translation)</language>
    </langUsage>
    <textClass><catRef scheme="cat:siku" target="cat:siku.jing.li.yili"/></textClass>
  </profileDesc>
  <revisionDesc>
    <change n="zhushu-0.1.0">Converted by Zhushu 0.1.0 (reader: yishu).</change>
  </revisionDesc>
</teiHeader>
<standOff>
  <listPerson>
    <person xml:id="zs.刘智">
      <persName xml:lang="lzh"><surname>刘</surname><forename>智</forename></persName>
      <persName type="full">刘智</persName>
      <note>declared from the text: not in the registry of scholars</note>
    </person>
    <person xml:id="zs.王">
      <persName xml:lang="lzh"><surname>王</surname></persName>
      <note>declared from the text: not in the registry of scholars</note>
    </person>
  </listPerson>
</standOff>
<text xml:lang="lzh-Hans">
<body>
<div type="juan" n="18" xml:id="d1">
<fw type="source" xml:id="fw1">钦定仪礼义疏_四库全书本/卷18 中华文库</fw>
<fw type="header" xml:id="fw2">钦定四库全书</fw>
<head type="juan" xml:id="d1.h">钦定仪礼义疏卷十八</head>
<fw type="catalogue" xml:id="fw3">&lt;经部,礼类,仪礼之属,钦定仪礼义疏&gt;</fw>
<div type="section" xml:id="d2">
<ab type="jing" xml:id="u1"><seg xml:id="u1.j1">聘遭丧入竟则遂也</seg><note type="yinyi" place="inline" xml:id="u1.n1"><term>竟</term><seg type="zhiyin">音境</seg>下并同</note><note type="textual" place="inline" xml:id="u1.n2">注今文赴作讣</note><note type="an" place="inline" xml:id="u1.n3">案<g ref="#zs-g25AF" type="placeholder">▯</g>疑衍</note><note type="xiaozhu" place="inline" xml:id="u1.n4" resp="psn:zhengxuan">郑氏康成曰遂犹因也</note><note type="shu" subtype="quoted" place="inline" xml:id="u1.n5" resp="psn:jiagongyan">贾疏始死不忍异于生</note><label type="mark" xml:id="u1.m1">经</label></ab>
<note type="yishu" subtype="zhengyi" place="inline" xml:id="u1.c1" target="#u1"><label type="category">正义：</label><cit xml:id="u1.c1.q1"><bibl><author ref="psn:zhengxuan">郑氏康成</author>曰：</bibl><quote>遭丧，主国君薨也。<note type="yinyi" place="inline" xml:id="u1.c1.n1"><term>薨</term>，<seg type="fanqie">呼肱反</seg></note></quote></cit><cit xml:id="u1.c1.q2"><bibl><author ref="#zs.刘智">刘氏智</author>曰：</bibl><quote><note type="shu" subtype="quoted" place="inline" xml:id="u1.c1.n2" resp="psn:jiagongyan">贾疏文八年天王崩</note>其说<g ref="#zs-g25AF" type="placeholder">▯</g>是也<note type="textual" place="inline" xml:id="u1.c1.n3">監本作是</note><note type="an" place="inline" xml:id="u1.c1.n4">案此句衍</note><note type="xiaozhu" place="inline" xml:id="u1.c1.n5">小注</note></quote></cit><p xml:id="u1.c1.q3">无名之言</p></note>
<ab type="translation" xml:id="t1" corresp="#u1" xml:lang="zh-Hans"><label type="mark">译</label>出使遇到丧事<note type="yinyi" place="inline" xml:id="t1.n1"><term>竟</term><seg type="zhiyin">音境</seg></note>，<g ref="#zs-g25AF" type="placeholder">▯</g>就继续。</ab>
<note type="yishu" subtype="bianzheng" place="inline" xml:id="u1.c2" target="#u1"><p xml:id="u1.c2.q1">辨</p></note>
<fw type="header" subtype="repeat" xml:id="fw4" sameAs="#fw2">钦定四库全书</fw>
<note type="yishu" subtype="bianzheng" place="inline" xml:id="u1.c3" target="#u1" prev="#u1.c2"><p xml:id="u1.c3.q1">续</p></note>
<note type="an" place="inline" xml:id="u1.c4" target="#u1"><label type="category">案</label><p xml:id="u1.c4.q1">不筵几<note type="an" place="inline" xml:id="u1.c4.n1">案小</note></p></note>
<ab type="translation" subtype="copy" xml:id="t2" corresp="#u1.c4" xml:lang="zh-Hans">不筵几</ab>
<note type="yishu" subtype="tonglun" place="inline" xml:id="u1.c5" target="#u1"><p xml:id="u1.c5.q1">通</p></note>
<note type="yishu" subtype="yulun" place="inline" xml:id="u1.c6" target="#u1"><p xml:id="u1.c6.q1">餘</p></note>
<note type="yishu" subtype="cunyi" place="inline" xml:id="u1.c7" target="#u1"><p xml:id="u1.c7.q1">疑</p></note>
<note type="yishu" subtype="cunyi2" place="inline" xml:id="u1.c8" target="#u1"><p xml:id="u1.c8.q1">異</p></note>
<note type="yishu" subtype="zonglun" place="inline" xml:id="u1.c9" target="#u1"><p xml:id="u1.c9.q1">總</p></note>
<trailer xml:id="d2.t">右遭丧</trailer>
<fw type="title" subtype="repeat" xml:id="fw5" sameAs="#d1.h">钦定仪礼义疏卷十八</fw>
</div>
<div type="section" xml:id="d3">
<head type="section" xml:id="d3.h">聘礼第八之四</head>
<note type="yishu" subtype="detached" place="inline" xml:id="u1.c10"><p xml:id="u1.c10.q1">前卷之末</p></note>
<ab type="translation" xml:id="t3" corresp="#fw3" xml:lang="zh-Hans">经部</ab>
<ab type="jing" xml:id="u2"><seg xml:id="u2.j1">君薨</seg></ab>
<note type="an" place="inline" xml:id="u2.c1" target="#u2"><cit xml:id="u2.c1.q1"><bibl><author ref="psn:zhengxuan"/>又曰</bibl><quote>案</quote></cit></note>
<ab type="translation" xml:id="t4" xml:lang="zh-Hans">无所对应</ab>
<trailer xml:id="d3.t">右聘君薨</trailer>
</div>
<fw type="title" subtype="repeat" xml:id="fw6" sameAs="#d1.h">钦定仪礼义疏卷十八</fw>
<fw type="catalogue" subtype="repeat" xml:id="fw7" sameAs="#fw3">&lt;经部,礼类,仪礼之属,钦定仪礼义疏&gt;</fw>
</div>
</body>
</text>
</TEI>
"""


@pytest.fixture(scope="module")
def yishu_doc() -> etree._ElementTree:
    return etree.ElementTree(etree.fromstring(YISHU_DOC.encode("utf-8"), SAFE_PARSER))


def test_yishu_constructs_are_valid(schema, yishu_doc):
    assert schema.validate(yishu_doc), errors(schema)


def test_yishu_constructs_are_valid_tei_all(tei_all, yishu_doc):
    assert tei_all.validate(yishu_doc), errors(tei_all)


def test_yishu_document_uses_every_new_construct(yishu_doc):
    """The document above is the reference: keep it exercising what the schema allows."""
    r = yishu_doc.getroot()
    subtypes = {n.get("subtype") for n in r.xpath("//t:note[@type='yishu']", namespaces=N)}
    assert subtypes == {"zhengyi", "bianzheng", "tonglun", "yulun", "cunyi", "cunyi2", "zonglun", "detached"}
    for path in ("//t:div/t:note[@type='an'][@place='inline']/t:label[@type='category']",
                 "//t:note[@type='yishu'][@prev]",
                 "//t:ab[@type='jing']/t:note[@type='textual']", "//t:ab[@type='jing']/t:note[@type='an']",
                 "//t:ab[@type='jing']/t:note[@type='xiaozhu'][@resp]",
                 "//t:ab[@type='jing']/t:note[@type='shu'][@subtype='quoted'][@resp]",
                 "//t:quote/t:note[@type='yinyi']/t:seg", "//t:quote/t:note[@type='shu'][@subtype='quoted']",
                 "//t:quote/t:note[@type='textual']", "//t:quote/t:note[@type='an']",
                 "//t:quote/t:note[@type='xiaozhu']",
                 "//t:note[@type='an']/t:p/t:note[@type='an']",
                 "//t:cit[@xml:id]/t:bibl[t:author[@ref='#zs.刘智']]/following-sibling::t:quote",
                 "//t:cit/t:bibl/t:author[@ref][not(node())]", "//t:note[@type='yishu']/t:cit/following-sibling::t:p",
                 "//t:ab[@type='translation'][@subtype='copy']", "//t:ab[@type='translation']/t:label[@type='mark']",
                 "//t:ab[@type='translation']/t:note[@type='yinyi']",
                 "//t:fw[@subtype='repeat'][@sameAs='#d1.h']", "//t:fw[@sameAs='#fw2']",
                 "//t:div[@type='section'][not(t:head)]/t:trailer", "//t:div[@type='juan']/t:div/following-sibling::t:fw",
                 "//t:fw/following-sibling::t:head", "//t:textClass/t:catRef[@scheme='cat:siku']",
                 "//t:listPrefixDef/t:prefixDef[@ident='cat']", "//t:cit/t:bibl/t:author[@ref='psn:zhengxuan']",
                 "//t:person[@xml:id='zs.刘智'][t:persName[@type='full']]",
                 "//t:person[@xml:id='zs.王'][not(t:persName[@type='full'])]"):
        assert r.xpath(path, namespaces=N), path


def _y(path, name, value=None):
    """Set (or, with value None, remove) an attribute of the first element at path."""
    def mutate(r):
        e = one(r, path)
        if value is None:
            del e.attrib[name]
        else:
            e.set(name, value)
    return mutate


def _y_append(path, make):
    def mutate(r):
        one(r, path).append(make())
    return mutate


def _y_insert(path, make, at=0):
    def mutate(r):
        one(r, path).insert(at, make())
    return mutate


def _y_remove(path):
    def mutate(r):
        e = one(r, path)
        e.getparent().remove(e)
    return mutate


def _y_empty_section_with_trailer(r):
    # TEI admits a trailer only after a block or a nested div
    d = el("div", type="section", xml_id="dx")
    d.append(el("trailer", "右", xml_id="dx.t"))
    one(r, "//t:div[@xml:id='d3']").addnext(d)


def _y_yishu_without_p(r):
    """A block with neither a category label nor a quotation."""
    n = one(r, "//t:note[@xml:id='u1.c2']")
    for child in list(n):
        n.remove(child)


YISHU_MUTATIONS = {
    "yishu note with an unknown subtype": _y("//t:note[@type='yishu']", "subtype", "shuo"),
    "yishu note without subtype": _y("//t:note[@type='yishu']", "subtype"),
    "yishu note with a 疏 subtype": _y("//t:note[@type='yishu']", "subtype", "sublemma"),
    "an block with a subtype": _y("//t:div/t:note[@type='an']", "subtype", "zhengyi"),
    "yishu note without xml:id": _y("//t:note[@type='yishu']", XML_ID),
    "yishu note not placed inline": _y("//t:note[@type='yishu']", "place"),
    "an block not placed inline": _y("//t:div/t:note[@type='an']", "place"),
    "yishu note placed at the foot": _y("//t:note[@type='yishu']", "place", "foot"),
    "yishu note with resp": _y("//t:note[@type='yishu']", "resp", "#zhengxuan"),
    "yishu prev not a fragment": _y("//t:note[@prev]", "prev", "u1.c2"),
    "yishu target http:": _y("//t:note[@type='yishu'][@target]", "target", "http://example.org/#u1"),
    "yishu note with neither label nor quotation": _y_yishu_without_p,
    "yishu note with text outside p": _y_append("//t:note[@type='yishu']", lambda: el("label", "x", type="mark")),
    "label of an unknown type in yishu": _y("//t:note[@type='yishu']/t:label", "type", "lemma"),
    # who said it is the cit's author, never p/@resp (the old form) nor a persName
    "p with resp": _y("//t:note[@type='yishu']/t:p", "resp", "#zhengxuan"),
    "persName in the words nobody is named for": _y_insert("//t:note[@type='yishu']/t:p",
                                                          lambda: el("persName", "x", ref="#zhengxuan")),
    "cit with resp": _y("//t:note[@type='yishu']/t:cit", "resp", "#zhengxuan"),
    "quote with resp": _y("//t:cit/t:quote", "resp", "#zhengxuan"),
    "author ref to a non-fragment": _y("//t:cit/t:bibl/t:author", "ref", "zhengxuan"),
    "author ref javascript:": _y("//t:cit/t:bibl/t:author", "ref", "javascript:alert(1)"),
    "author ref to two people": _y("//t:cit/t:bibl/t:author", "ref", "psn:zhengxuan psn:jiagongyan"),
    "author ref through an undeclared prefix": _y("//t:cit/t:bibl/t:author", "ref", "viaf:zhengxuan"),
    "yishu p without xml:id": _y("//t:note[@type='yishu']/t:p", XML_ID),
    "yishu cit without xml:id": _y("//t:note[@type='yishu']/t:cit", XML_ID),
    "quotation without its attribution": _y_remove("//t:note[@type='yishu']/t:cit/t:bibl"),
    "attribution without the name or 又曰": lambda r: one(r, "//t:cit/t:bibl").remove(one(r, "//t:cit/t:bibl/t:author")),
    "words of a quotation with an xml:id": _y("//t:cit/t:quote", XML_ID, "zz"),
    "words of a quotation with a corresp": _y("//t:cit/t:quote", "corresp", "#u1"),
    "words before the attribution": lambda r: one(r, "//t:cit/t:bibl").addprevious(one(r, "//t:cit/t:quote")),
    "anchor in the words of a quotation": _y_append("//t:cit/t:quote", lambda: el("anchor", xml_id="zz")),
    "persName ref http:": _y("//t:cit/t:bibl/t:author", "ref", "http://example.org/p#x"),
    "persName ref starting with a CJK letter": _y("//t:cit/t:bibl/t:author", "ref", "#刘智"),
    "persName with a type": _y("//t:cit/t:bibl/t:author", "type", "full"),
    "persName after the words": _y_append("//t:cit/t:quote", lambda: el("author", "x", ref="#zhengxuan")),
    "two persNames in a quotation": _y_insert("//t:cit/t:bibl", lambda: el("author", "x")),
    "persName in a 疏 quotation": _y_append("//t:quote/t:note[@type='shu']", lambda: el("persName", "x")),
    "div-level note inside a quotation": _y_append("//t:cit/t:quote",
                                                   lambda: el("note", "x", type="an", xml_id="zz")),
    "div-level note inside words nobody is named for": _y_append("//t:note[@type='yishu']/t:p",
                                                                 lambda: el("note", "x", type="an", xml_id="zz")),
    "small note without place": _y("//t:quote/t:note[@type='textual']", "place"),
    "small note with a target": _y("//t:ab/t:note[@type='textual']", "target", "#u1.j1"),
    "small note of an unknown type": _y("//t:ab/t:note[@type='textual']", "type", "jiaokan"),
    "small zhu note in a quotation": _y("//t:quote/t:note[@type='textual']", "type", "zhu"),
    "small textual note with a term": _y_append("//t:ab/t:note[@type='textual']", lambda: el("term", "x")),
    "small an note with a subtype": _y("//t:ab/t:note[@type='an']", "subtype", "quoted"),
    "quoted shu without subtype": _y("//t:ab/t:note[@subtype='quoted']", "subtype"),
    "quoted shu with another subtype": _y("//t:quote/t:note[@subtype='quoted']", "subtype", "detached"),
    "quoted shu with anchors": _y_append("//t:quote/t:note[@subtype='quoted']", lambda: el("anchor", xml_id="zz")),
    "small note inside a small note": _y_append("//t:quote/t:note[@type='textual']",
                                                lambda: el("note", "x", type="an", place="inline", xml_id="zz")),
    "translation without xml:lang": _y("//t:ab[@type='translation']", XML_LANG),
    "translation in Literary Chinese": _y("//t:ab[@type='translation']", XML_LANG, "lzh"),
    "translation with an unknown subtype": _y("//t:ab[@type='translation']", "subtype", "paraphrase"),
    "translation without xml:id": _y("//t:ab[@type='translation']", XML_ID),
    "translation corresp javascript:": _y("//t:ab[@type='translation']", "corresp", "javascript:alert(1)"),
    "translation with a jing seg": _y_append("//t:ab[@type='translation']", lambda: el("seg", "x", xml_id="zz")),
    "translation with a zhu note": _y_append("//t:ab[@type='translation']",
                                             lambda: el("note", "x", type="zhu", place="inline", xml_id="zz")),
    "translation mark with an id": _y("//t:ab[@type='translation']/t:label", XML_ID, "zz"),
    "translation mark after the text": _y_append("//t:ab[@type='translation']", lambda: el("label", "译", type="mark")),
    "translation after a nested section": _y_append("//t:div[@type='juan']",
                                                    lambda: el("ab", "x", type="translation", xml_id="zz",
                                                               xml_lang="zh-Hans")),
    "jing ab with a subtype": _y("//t:ab[@type='jing']", "subtype", "copy"),
    "jing ab with a category label": _y_append("//t:ab[@type='jing']", lambda: el("label", "x", type="category")),
    "fw of an unknown type": _y("//t:fw", "type", "running"),
    "fw repeat without sameAs": _y("//t:fw[@sameAs]", "sameAs"),
    "fw sameAs without repeat": _y("//t:fw[@sameAs]", "subtype"),
    "fw with another subtype": _y("//t:fw[@sameAs]", "subtype", "first"),
    "fw sameAs http:": _y("//t:fw[@sameAs]", "sameAs", "http://example.org/#d1.h"),
    "fw with an element inside": _y_append("//t:fw", lambda: el("term", "x")),
    "head without xml:id": _y("//t:head", XML_ID),
    "head of an unknown type": _y("//t:head", "type", "closing"),
    "trailer without xml:id": _y("//t:trailer", XML_ID),
    "trailer with a type": _y("//t:trailer", "type", "closing"),
    "trailer before the blocks": _y_insert("//t:div[@xml:id='d3']",
                                           lambda: el("trailer", "右", xml_id="zz"), at=1),
    "block after the trailer": _y_append("//t:div[@xml:id='d3']",
                                         lambda: el("ab", type="jing", xml_id="zz")),
    "trailer in a section with no block": _y_empty_section_with_trailer,
    "head after furniture between blocks": _y_append("//t:div[@xml:id='d3']",
                                                     lambda: el("head", "x", type="section", xml_id="zz")),
    "reserved type yishu in a forward note": _y_append("//t:div[@xml:id='d3']",
                                                       lambda: el("note", "x", type="yishu", xml_id="zz")),
    "small-note type at div level": _y_append("//t:div[@xml:id='d3']",
                                              lambda: el("note", "x", type="textual", xml_id="zz")),
    # the classification points into categories.xml; the document declares no taxonomy
    "catRef scheme http:": _y("//t:catRef", "scheme", "http://example.org/siku"),
    "catRef without target": _y("//t:catRef", "target"),
    "catRef target not in siku": _y("//t:catRef", "target", "cat:zs-types"),
    "taxonomy declared in the document": lambda r: one(r, "//t:editorialDecl").addprevious(
        el("classDecl")) or one(r, "//t:classDecl").append(el("taxonomy", xml_id="siku")),
    "textClass before langUsage": lambda r: one(r, "//t:profileDesc").insert(0, one(r, "//t:textClass")),
    "person with a floruit but no full name": lambda r: (
        _y_remove("//t:person[@xml:id='zs.刘智']/t:persName[@type='full']")(r),
        one(r, "//t:person[@xml:id='zs.刘智']/t:note").addprevious(el("floruit", "清"))),
    "person without full name or note": lambda r: (
        _y_remove("//t:person[@xml:id='zs.刘智']/t:persName[@type='full']")(r),
        _y_remove("//t:person[@xml:id='zs.刘智']/t:note")(r)),
    "empty listPerson": _empty_list_person,
    "text in a person's name parts": lambda r: setattr(one(r, "//t:person/t:persName[1]"), "text", "x"),
    "declared person with an empty note": lambda r: setattr(one(r, "//t:person[@xml:id='zs.王']/t:note"), "text", None),
    "text before who said it in a quotation": lambda r: setattr(one(r, "//t:cit/t:bibl[t:author]"), "text", "x"),
    "text between the attribution and the words": lambda r: setattr(one(r, "//t:cit/t:bibl"), "tail", "x"),
    "two category labels": _y_insert("//t:note[@type='yishu'][t:label]", lambda: el("label", "x", type="category")),
    "translation label with a text before it": lambda r: setattr(one(r, "//t:ab[@type='translation'][t:label]"), "text", "x"),
}


@pytest.mark.parametrize("mutate", YISHU_MUTATIONS.values(), ids=YISHU_MUTATIONS.keys())
def test_yishu_mutation_is_invalid(schema, yishu_doc, mutate):
    root = copy.deepcopy(yishu_doc.getroot())
    mutate(root)
    assert not schema.validate(root)
    try:
        reparsed = etree.fromstring(etree.tostring(root), SAFE_PARSER)
    except etree.XMLSyntaxError:
        return
    assert not schema.validate(reparsed)


@pytest.mark.parametrize("old, new", [
    ('<ab type="translation" subtype="copy" xml:id="t2" corresp="#u1.c4" xml:lang="zh-Hans">',
     '<ab type="translation" subtype="copy" xml:id="t2" corresp="#u1.c4">'),
    ('<note type="textual" place="inline" xml:id="u1.n2">', '<note type="jiaokan" place="inline" xml:id="u1.n2">'),
    ('<trailer xml:id="d2.t">', '<trailer>'),
    ('<note type="yishu" subtype="yulun"', '<note type="yishu" subtype="shuo"'),
    ('<author ref="psn:zhengxuan">郑氏康成</author>', '<author ref="zhengxuan">郑氏康成</author>'),
], ids=["translation", "small note", "trailer", "yishu note", "quotation"])
def test_yishu_errors_are_reported_at_the_element(schema, old, new):
    """Inside nested sections too, the first error names the line of the offending element
    (one element pattern per name: see schema/README.md)."""
    assert YISHU_DOC.count(old) == 1
    line = YISHU_DOC[:YISHU_DOC.index(old)].count("\n") + 1
    root = etree.fromstring(YISHU_DOC.replace(old, new).encode("utf-8"), SAFE_PARSER)
    assert not schema.validate(root)
    assert schema.error_log[0].line == line, errors(schema)


def writer_yishu_document() -> etree._Element:
    """A 義疏 document model through the writer (pipeline/tei/): every new writer branch."""
    from pipeline import tei
    from pipeline.model import (AN, JING, SHU, TEXTUAL, XIAOZHU, YINYI, Div, Document, Fw, Head,
                                Meta, Piece, Pos, Quote, SmallNote, Token, Translation, Unit,
                                YishuBlock, assign_ids)
    at = Pos(1, 1)
    head = Head("钦定仪礼义疏卷十八", at)
    catalogue = Fw("<经部,礼类,仪礼之属,钦定仪礼义疏>", at, "catalogue")
    unit = Unit([Piece(JING, "聘遭丧入竟则遂也", at),
                 SmallNote(YINYI, "竟音境", at, tokens=[Token("term", "竟"), Token("zhiyin", "音境")]),
                 SmallNote(TEXTUAL, "注今文赴作讣", at), SmallNote(AN, "案▯衍", at),
                 SmallNote(XIAOZHU, "郑氏康成曰遂犹因也", at, resp="zhengxuan"),
                 SmallNote(SHU, "贾疏始死", at, resp="jiagongyan")], at)
    zhengyi = YishuBlock("zhengyi", "正义：", [
        Quote("郑氏康成", "曰：", ["遭丧，主国君薨也。", SmallNote(TEXTUAL, "監本作是", at)], at, resp="zhengxuan"),
        Quote("刘氏智", "曰：", [SmallNote(SHU, "贾疏文八年", at, resp="jiagongyan"), "其说是▯也"], at,
              resp="zs.刘智"),
        Quote("", "", ["无名之言"], at)], at, target=unit)
    cont = YishuBlock("zhengyi", "", [Quote("", "", ["续"], at)], at, target=unit, prev=zhengyi)
    an = YishuBlock(AN, "案", [Quote("", "", ["不筵几", SmallNote(AN, "案小", at)], at)], at, target=unit)
    detached = YishuBlock("detached", "", [Quote("", "", ["前卷"], at)], at)
    section = Div("section", None, [
        unit, zhengyi,
        Translation(["出使", SmallNote(YINYI, "竟音境", at, tokens=[Token("term", "竟"), Token("zhiyin", "音境")]),
                     "遇丧"], at, mark="译", original=unit),
        Fw("钦定四库全书", at, "header"), cont, an,
        Translation(["不筵几"], at, original=an, copy=True),
        Translation(["经部"], at, original=catalogue),
    ])
    section.trailers = [Head("右遭丧", at, "closing")]
    chapter = Div("section", Head("聘礼第八之四", at, "section"), [
        detached, Unit([Piece(JING, "君薨", at)], at), Translation(["无所对应"], at)])
    juan = Div("juan", head, [catalogue, section, chapter, Fw("钦定仪礼义疏卷十八", at, "title", same_as=head)],
               n="18", front=[Fw("钦定四库全书", at, "header")])
    meta = Meta("003_x.txt", "0123456789abcdef" * 4, "yishu", work="钦定仪礼义疏", juan="卷十八",
                persons=["zhengxuan", "jiagongyan", "zs.刘智"])
    meta.declared = {"zs.刘智": ("刘", "智")}
    meta.classification = "经部,礼类,仪礼之属"
    doc = Document(meta, [juan])
    assign_ids(doc)
    return etree.fromstring(tei.serialize(tei.to_tei(doc)))


# Every construct the writer has, in the 注疏 and the 義疏 layouts, against our schema and tei_all.
WRITER_DOCUMENTS = pytest.mark.parametrize("make", [writer_document, writer_yishu_document],
                                           ids=["zhushu", "yishu"])


@WRITER_DOCUMENTS
def test_writer_output_is_valid(schema, make):
    assert schema.validate(make()), errors(schema)


@WRITER_DOCUMENTS
def test_writer_output_is_valid_tei_all(tei_all, make):
    assert tei_all.validate(make()), errors(tei_all)


# -- Kanripo sources: the printed book, its facsimile, Kanripo's characters, the 考證, the front
#    matter and the work's own file ---------------------------------------------------------------

# A 卷 of a Kanripo 注疏 with every construct the writer has for it: the header's Kanripo lines,
# Kanripo's characters beside a glyph, the facsimile (relative, http and https images, pages with
# none), a 臣 named by his given name alone, front divisions of prose, pages, lines and row ends
# in every element that holds text (and after a gap, and at the end of the last div), a 考證
# with its lemmas, small notes and judgments.
KANRIPO_DOC = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0" xml:lang="lzh">
<teiHeader xml:lang="en">
  <fileDesc>
    <titleStmt>
      <title type="main">禮記註疏 卷一</title>
      <title type="work">禮記註疏</title>
      <title type="juan">卷一</title>
      <author ref="psn:zhengxuan" xml:lang="lzh-Hant">鄭玄</author>
      <editor role="commentator" ref="psn:kongyingda" xml:lang="lzh-Hant">孔穎達</editor>
      <respStmt><resp>TEI encoding</resp><name>Zhushu 0.1.0</name></respStmt>
    </titleStmt>
    <publicationStmt><authority>Zhushu</authority><idno type="URN">urn:zhushu:liji-zhushu-wyg:1</idno><availability status="free"><licence target="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</licence></availability></publicationStmt>
    <sourceDesc>
      <bibl type="printed"><title>禮記註疏</title><edition>四庫全書 文淵閣本</edition></bibl>
      <bibl type="etext">
        <title>禮記註疏</title>
        <biblScope unit="juan">卷一</biblScope>
        <publisher>Kanseki Repository (漢籍リポジトリ)</publisher>
        <ref target="https://github.com/kanripo/KR9z0001">https://github.com/kanripo/KR9z0001</ref>
        <idno type="filename">KR9z0001_001.txt</idno>
        <idno type="sha256">0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef</idno>
        <idno type="kanripo">KR9z0001</idno>
        <edition>四庫全書・文淵閣 (WYG)</edition>
        <date>2015-09-23 09:38:05</date>
        <note type="properties">JUAN 1; ID KR9z0001; BASEEDITION WYG</note>
        <note type="comment" n="line 1">-*- mode: mandoku-view -*-</note>
        <note type="comment" n="line 601"></note>
      </bibl>
    </sourceDesc>
  </fileDesc>
  <encodingDesc>
    <appInfo>
      <application ident="zhushu" version="0.1.0"><label>Zhushu</label><desc>reader: siku</desc></application>
    </appInfo>
""" + DECLARATIONS + """    <charDecl>
      <char xml:id="KR0001">
        <localProp name="kanripo" value="KR0001"/>
        <mapping type="standard">𫠦</mapping>
        <mapping type="normalized">所</mapping>
        <graphic url="https://raw.githubusercontent.com/kanripo/KR-Gaiji/master/images/KR0001.png"/>
      </char>
      <char xml:id="KR0002">
        <localProp name="kanripo" value="KR0002"/>
        <mapping type="PUA">&#xE000;</mapping>
        <mapping type="normalized">若</mapping>
      </char>
      <char xml:id="KR0003">
        <localProp name="kanripo" value="KR0003"/>
        <desc>normal form in Kanripo's table: 你:2,爾:1</desc>
        <desc>form in Kanripo's table: ⿰亻尔</desc>
        <graphic url="images/KR0003.png"/>
      </char>
      <char xml:id="KR0004">
        <localProp name="kanripo" value="KR0004"/>
        <mapping type="normalized">說</mapping>
      </char>
      <char xml:id="KR0005">
        <localProp name="kanripo" value="KR0005"/>
        <desc>Kanripo's table gives no form for it</desc>
      </char>
      <char xml:id="zs-g25A1">
        <localProp name="name" value="placeholder for a missing character"/>
        <desc>the e-text prints □ (U+25A1) where a character is missing; which character is not known</desc>
      </char>
    </charDecl>
  </encodingDesc>
  <profileDesc>
    <langUsage>
      <language ident="en">English (this header)</language>
      <language ident="lzh-Hant">Literary Chinese (文言), traditional script</language>
    </langUsage>
  </profileDesc>
  <revisionDesc>
    <change n="zhushu-0.1.0">Converted by Zhushu 0.1.0 (reader: siku).</change>
    <change when="2015-09-23T09:38:05">The e-text, as dated in its header.</change>
  </revisionDesc>
</teiHeader>
<facsimile>
  <surface xml:id="f000-1a" n="0-1a"><graphic url="WYG0115/WYG0115-0001a.png"/></surface>
  <surface xml:id="f000-1b" n="0-1b"/>
  <surface xml:id="f001-1a" n="1-1a"><graphic url="http://img.kanripo.org/general/skqs/wyg/WYG0115/WYG0115-0025c.png"/></surface>
  <surface xml:id="f001-1b" n="1-1b"><graphic url="https://example.org:8443/iiif/WYG0115-0025d.png"/></surface>
  <surface xml:id="f001-2a" n="1-2a"/>
  <surface xml:id="f001-31a" n="1-31a"/>
  <surface xml:id="f001-31b" n="1-31b"/>
</facsimile>
<standOff>
  <listPerson>
    <person xml:id="zs.臣紱">
      <persName xml:lang="lzh"><forename>紱</forename></persName>
      <note>declared from the text: not in the registry of scholars</note>
    </person>
  </listPerson>
</standOff>
<text xml:lang="lzh-Hant">
<front>
<div type="tiyao" xml:id="d1">
<head type="tiyao" xml:id="d1.h"><pb ed="WYG" n="0-1a" facs="#f000-1a"/><lb/>提要</head>
<p xml:id="p1"><lb/>臣等謹案禮記正義六十三卷<note type="xiaozhu" place="inline" xml:id="p1.n1">內府<milestone unit="row"/>藏<lb/>本</note>漢鄭元注<g ref="#KR0001">𫠦</g></p>
<p xml:id="p2"><lb/>夫禮者<note type="yinyi" place="inline" xml:id="p2.n1"><term>夫</term><seg type="zhiyin">音<lb/>扶</seg></note>經天地</p>
</div>
<div type="xu" xml:id="d2">
<fw type="header" xml:id="fw1"><lb/>欽定四庫全書</fw>
<head type="xu" xml:id="d2.h"><lb/>禮記正義序</head>
<p xml:id="p3"><lb/>夫禮者經天地理人倫<note type="textual" place="inline" xml:id="p3.n1">一本<lb/>無此</note></p>
<trailer xml:id="d2.t1"><lb/>禮記正義序</trailer>
</div>
<div type="kaozheng" xml:id="d6">
<head type="kaozheng" xml:id="d6.h"><lb/>禮記正義序考證</head>
<ab type="kaozheng" xml:id="k3"><label type="lemma"><lb/>經天地</label>○<note type="an" place="inline" xml:id="k3.n1" resp="psn:qizhaonan"><persName ref="psn:qizhaonan">臣召南</persName>按是也</note></ab>
</div>
<div type="xingshi" xml:id="d7">
<head type="xingshi" xml:id="d7.h"><lb/>引用姓氏</head>
<div type="dynasty" n="漢" xml:id="d8">
<head type="dynasty" xml:id="d8.h"><lb/>漢</head>
<p xml:id="p4"><persName ref="psn:zhengxuan"><surname><lb/>鄭</surname>氏<forename rend="small">玄</forename>　<addName type="zi" rend="small"><milestone unit="row"/>康成</addName></persName>　<placeName rend="small"><milestone unit="row"/>高密</placeName><note type="xiaozhu" place="inline" xml:id="p4.n1">注三<lb/>禮</note></p>
<p xml:id="p5"><persName><surname><lb/>司馬</surname>氏　<forename>遷</forename>　<addName type="hao"><g ref="#KR0001">𫠦</g>子</addName></persName></p>
</div>
</div>
<div type="front" xml:id="d9">
<p xml:id="p6"><pb ed="WYG" n="0-1b" facs="#f000-1b"/><lb/>無題之文</p>
</div>
</front>
<body>
<div type="juanshou" xml:id="d10">
<head type="juanshou" xml:id="d10.h"><lb/>欽定禮記義疏卷首</head>
<div type="shengzhi" xml:id="d11">
<head type="shengzhi" xml:id="d11.h"><lb/>聖制</head>
<p xml:id="p7"><lb/>禮以敬為本</p>
</div>
<div type="gangling" xml:id="d12">
<fw type="title" xml:id="fw5"><lb/>綱領一</fw>
<head type="gangling" xml:id="d12.h"><lb/>綱領一</head>
<p xml:id="p8"><lb/>記者禮之記也<note type="xiaozhu" place="inline" xml:id="p8.n1">小<milestone unit="row"/>注</note></p>
</div>
<trailer xml:id="d10.t1"><lb/>欽定禮記義疏卷首</trailer>
</div>
<div type="mulu" xml:id="d13">
<head type="mulu" xml:id="d13.h"><lb/>目録</head>
<p xml:id="p9"><lb/>卷一　曲禮上</p>
</div>
<div type="juan" n="1" xml:id="d3">
<fw type="header" xml:id="fw2"><pb ed="WYG" n="1-1a" facs="#f001-1a"/><lb/>欽定四庫全書</fw>
<head type="juan" xml:id="d3.h"><lb/>禮記注疏卷一</head>
<fw type="responsibility" xml:id="fw3"><lb/>漢鄭氏注　唐陸德明音義　孔穎達疏</fw>
<ab type="jing" xml:id="u1"><seg xml:id="u1.j1"><lb/>曲禮曰毋不<anchor xml:id="u1.a1"/>敬</seg><label type="mark" xml:id="u1.m1"><lb/>注</label><note type="zhu" place="inline" xml:id="u1.z1" resp="psn:zhengxuan" target="#u1.j1">禮主<pb ed="WYG" n="1-1b" facs="#f001-1b"/><lb/>於敬<g ref="#KR0001">𫠦</g></note><label type="mark" xml:id="u1.m2">音義</label><note type="yinyi" place="inline" xml:id="u1.y1" resp="psn:ludeming" target="#u1.j1"><term>曲<milestone unit="row"/>禮</term><seg type="fanqie">居<lb/>六反</seg><seg type="ruzi">如<milestone unit="row"/>字</seg><mentioned>毋<lb/>不</mentioned>禁<milestone unit="row"/>止之詞</note><note type="textual" place="inline" xml:id="u1.n1">一本<lb/>作敬<milestone unit="row"/>也</note><seg type="que" xml:id="u1.q1"><gap reason="lost"/>闕<lb/><milestone unit="row"/></seg><seg xml:id="u1.j2">儼若<g ref="#KR0002">&#xE000;</g>思</seg></ab>
<note type="shu" place="inline" xml:id="u1.s1" resp="psn:kongyingda" target="#u1.j1" corresp="#u1.j1"><label type="mark"><lb/>疏</label><label type="chuwen"><lb/>“<mentioned>曲禮曰<milestone unit="row"/>毋不敬</mentioned>”</label><p>正義曰<milestone unit="row"/>此一節<lb/>明人君<pb ed="WYG" n="1-2a" facs="#f001-2a"/><lb/>立治之本</p><note type="shu" subtype="sublemma" place="inline" xml:id="u1.s1.1" target="#u1.j1" corresp="#u1.j1"><p>○“<mentioned>曲禮<lb/>曰毋不敬</mentioned>”者<milestone unit="row"/>云云<g ref="#KR0003">&#x100003;</g></p></note></note>
<note type="yishu" subtype="zhengyi" place="inline" xml:id="u1.c1" target="#u1"><label type="category"><lb/>正義</label><cit xml:id="u1.c1.q1"><bibl><author ref="psn:zhengxuan"><lb/>鄭氏<milestone unit="row"/>康成</author>曰</bibl><quote><lb/>敬也<note type="xiaozhu" place="inline" xml:id="u1.c1.n1">小<milestone unit="row"/>注</note></quote></cit></note>
<div type="section" xml:id="d4">
<head type="section" xml:id="d4.h"><lb/>曲禮下</head>
<ab type="jing" xml:id="u2"><seg xml:id="u2.j1"><lb/>凡為君使者<g ref="#zs-g25A1" type="placeholder">□</g></seg></ab>
</div>
<trailer xml:id="d3.t1"><lb/>禮記注疏<milestone unit="row"/>卷一</trailer>
</div>
<div type="kaozheng" xml:id="d5">
<fw type="header" xml:id="fw4"><pb ed="WYG" n="1-31a" facs="#f001-31a"/><lb/>欽定四庫全書</fw>
<head type="kaozheng" xml:id="d5.h"><lb/>禮記注疏卷一考證</head>
<ab type="kaozheng" xml:id="k1"><label type="lemma"><lb/>曲禮曰毋不敬<milestone unit="row"/>注<g ref="#KR0004">&#x100004;</g></label>○<note type="an" place="inline" xml:id="k1.n1" resp="#zs.臣紱"><persName ref="#zs.臣紱"><lb/>臣<milestone unit="row"/>紱</persName><milestone unit="row"/>按此言<lb/>人君<note type="xiaozhu" place="inline" xml:id="k1.n2">小<lb/>注</note>當敬<g ref="#KR0005">&#x100005;</g><pb ed="WYG" n="1-31b" facs="#f001-31b"/><lb/>也</note></ab>
<ab type="kaozheng" xml:id="k2"><lb/>劉敞曰<note type="textual" place="inline" xml:id="k2.n1">監本<milestone unit="row"/>作某</note>云云<g ref="#KR0001">𫠦</g><lb/><note type="an" place="inline" xml:id="k2.n2" resp="psn:qizhaonan"><persName ref="psn:qizhaonan">臣召南</persName>按是也</note><note type="an" place="inline" xml:id="k2.n3">案<lb/>小</note></ab>
<trailer xml:id="d5.t1"><lb/>禮記注疏卷一考證</trailer>
<lb/><milestone unit="row"/>
</div>
</body>
</text>
</TEI>
"""

# A work's own file: its table of contents, entries linked to the TEI of their 卷 or not.
WORK_DOC = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0" xml:lang="lzh">
<teiHeader xml:lang="en">
  <fileDesc>
    <titleStmt>
      <title type="main">禮記註疏</title>
      <title type="work">禮記註疏</title>
      <author ref="psn:zhengxuan" xml:lang="lzh-Hant">鄭玄</author>
      <editor role="commentator" ref="psn:kongyingda" xml:lang="lzh-Hant">孔穎達</editor>
      <respStmt><resp>TEI encoding</resp><name>Zhushu 0.1.0</name></respStmt>
    </titleStmt>
    <publicationStmt><authority>Zhushu</authority><availability status="free"><licence target="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</licence></availability></publicationStmt>
    <sourceDesc>
      <bibl type="printed"><title>禮記註疏</title><edition>四庫全書 文淵閣本</edition></bibl>
      <bibl type="etext">
        <title>禮記註疏</title>
        <publisher>Kanseki Repository (漢籍リポジトリ)</publisher>
        <ref target="https://github.com/kanripo/KR9z0001">https://github.com/kanripo/KR9z0001</ref>
        <idno type="filename">Readme.org</idno>
        <idno type="sha256">0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef</idno>
        <idno type="kanripo">KR9z0001</idno>
        <edition>四庫全書・文淵閣 (WYG)</edition>
      </bibl>
    </sourceDesc>
  </fileDesc>
  <encodingDesc>
    <appInfo>
      <application ident="zhushu" version="0.1.0"><label>Zhushu</label><desc>reader: kanripo-work</desc></application>
    </appInfo>
    <editorialDecl>
      <normalization><p>Unicode NFC.</p></normalization>
      <punctuation><p>The e-text's own.</p></punctuation>
      <segmentation><p>By the reader.</p></segmentation>
      <interpretation><p>Spans and commentators inferred.</p></interpretation>
    </editorialDecl>
    <listPrefixDef>
      <prefixDef ident="psn" matchPattern="([A-Za-z0-9._-]+)" replacementPattern="persons.xml#$1"><p>persons.xml</p></prefixDef>
      <prefixDef ident="cat" matchPattern="([A-Za-z0-9._-]+)" replacementPattern="categories.xml#$1"><p>categories.xml</p></prefixDef>
    </listPrefixDef>
    <charDecl>
      <char xml:id="zs-g25A1">
        <localProp name="name" value="placeholder for a missing character"/>
        <desc>the e-text prints □ (U+25A1) where a character is missing; which character is not known</desc>
      </char>
    </charDecl>
  </encodingDesc>
  <profileDesc>
    <langUsage>
      <language ident="en">English (this header)</language>
      <language ident="lzh-Hant">Literary Chinese (文言), traditional script</language>
    </langUsage>
  </profileDesc>
  <revisionDesc>
    <change n="zhushu-0.1.0">Converted by Zhushu 0.1.0 (reader: kanripo-work).</change>
  </revisionDesc>
</teiHeader>
<text xml:lang="lzh-Hant">
<body>
<div type="contents" xml:id="d1">
<head type="contents" xml:id="d1.h">目次</head>
<list>
<item n="1"><ref target="KR9z0001_000.xml">禮記註疏 提要</ref></item>
<item n="2"><ref target="KR9z0001_001.xml" n="001-1a">禮記註疏 卷一</ref></item>
<item n="3"><ref target="KR9z0001_001.xml" n="001-31a">禮記註疏 卷一考證<g ref="#zs-g25A1" type="placeholder">□</g></ref></item>
<item n="4">禮記註疏 卷二<g ref="#zs-g25A1" type="placeholder">□</g></item>
</list>
</div>
</body>
</text>
</TEI>
"""


def _rules(tree) -> list[tuple]:
    """The rules' findings on `tree`, its psn: and cat: pointers resolved in the shared files
    beside the file it was read from (Zhushu's own, schema/, for a document made here)."""
    from pipeline.validate import rules, shared
    url = tree.docinfo.URL
    return list(rules.check(tree, shared.corpus_of(str(Path(url).parent) if url else str(ROOT / "schema"))))


def _parsed(text: str) -> etree._ElementTree:
    return etree.ElementTree(etree.fromstring(text.encode("utf-8"), SAFE_PARSER))


@pytest.fixture(scope="module")
def kanripo_doc() -> etree._ElementTree:
    return _parsed(KANRIPO_DOC)


@pytest.fixture(scope="module")
def work_doc() -> etree._ElementTree:
    return _parsed(WORK_DOC)


KANRIPO_DOCUMENTS = pytest.mark.parametrize("doc", [KANRIPO_DOC, WORK_DOC], ids=["juan", "work"])


@KANRIPO_DOCUMENTS
def test_kanripo_constructs_are_valid(schema, doc):
    assert schema.validate(_parsed(doc)), errors(schema)


@KANRIPO_DOCUMENTS
def test_kanripo_constructs_are_valid_tei_all(tei_all, doc):
    assert tei_all.validate(_parsed(doc)), errors(tei_all)


@KANRIPO_DOCUMENTS
def test_kanripo_constructs_pass_the_rules(doc):
    """Pointers (@facs to its surface), ids (the front's too), characters: no finding but the
    work file's missing 卷, a warning."""
    found = [(rule, msg) for _, level, rule, msg in _rules(_parsed(doc)) if level == "error"]
    assert not found, found


def test_kanripo_document_uses_every_new_construct(kanripo_doc, work_doc):
    """The documents above are the reference: keep them exercising what the schema allows."""
    r, w = kanripo_doc.getroot(), work_doc.getroot()
    for path in ("//t:idno[@type='kanripo']", "//t:bibl/t:edition", "//t:bibl/t:date",
                 "//t:bibl/t:note[@type='properties']", "//t:bibl/t:note[@type='comment'][@n][2]",
                 "//t:char/t:mapping[@type='standard']/following-sibling::t:mapping[@type='normalized']",
                 "//t:char/t:mapping[@type='PUA']", "//t:char[not(t:mapping)][t:desc[2]]/t:graphic",
                 "//t:char[t:mapping[@type='normalized']][not(t:mapping[@type!='normalized'])]",
                 "//t:charDecl/t:char[t:localProp/@name='kanripo']/following-sibling::t:char[t:localProp/@name='name'][t:desc][not(t:mapping)]",
                 "/t:TEI/t:teiHeader/following-sibling::*[1][self::t:facsimile]",
                 "//t:surface/t:graphic[starts-with(@url, 'http:')]",
                 "//t:surface/t:graphic[starts-with(@url, 'https:')]",
                 "//t:surface/t:graphic[not(contains(@url, ':'))]", "//t:surface[not(t:graphic)]",
                 "//t:person[t:persName[1]/*[1][self::t:forename]]",
                 "//t:front/t:div[@type='tiyao']/t:head[@type='tiyao']", "//t:front/t:div/t:fw",
                 "//t:front//t:p[@xml:id]/t:note[@type='xiaozhu']", "//t:p/t:note[@type='yinyi']/t:seg/t:lb",
                 "//t:fw/t:pb", "//t:head/t:lb", "//t:trailer/t:milestone", "//t:seg/t:lb",
                 "//t:seg[@xml:id]/t:g[@ref='#KR0002']", "//t:label[@type='mark']/t:lb",
                 "//t:note[@type='zhu']/t:pb", "//t:term/t:milestone", "//t:seg[@type='fanqie']/t:lb",
                 "//t:seg[@type='ruzi']/t:milestone", "//t:note[@type='yinyi']/t:mentioned/t:lb",
                 "//t:note[@type='textual']/t:lb", "//t:seg[@type='que']/t:gap/following-sibling::t:lb",
                 "//t:note[@type='shu']/t:label[@type='chuwen']/t:mentioned/t:milestone",
                 "//t:note[@type='shu']/t:p/t:pb", "//t:note[@subtype='sublemma']/t:p/t:mentioned/t:lb",
                 "//t:label[@type='category']/t:lb", "//t:cit/t:bibl/t:author/t:milestone",
                 "//t:note[@type='yishu']/t:cit/t:quote/t:note[@type='xiaozhu']/t:milestone",
                 "//t:note[@type='yishu']/t:cit/t:quote/t:lb",
                 "//t:body/t:div[@type='kaozheng']/t:head[@type='kaozheng']/t:lb",
                 "//t:ab[@type='kaozheng']/t:label[@type='lemma']/t:g",
                 "//t:ab[@type='kaozheng']/t:note[@type='an'][@resp]/t:persName[@ref]/t:lb",
                 "//t:note[@type='an']/t:persName/following-sibling::t:note[@type='xiaozhu']/t:lb",
                 "//t:note[@type='an'][t:persName]/t:pb", "//t:ab[@type='kaozheng']/t:note[@type='textual']",
                 "//t:ab[@type='kaozheng']/t:note[@type='an'][not(t:persName)]",
                 "//t:ab[@type='kaozheng'][not(t:label)]/t:lb",
                 "//t:div[@type='kaozheng']/t:trailer/following-sibling::t:lb",
                 "//t:div[@type='kaozheng']/*[last()][self::t:milestone]",
                 "//t:front/t:div[@type='kaozheng']/t:ab[@type='kaozheng']/t:note[t:persName]",
                 "//t:front/t:div[@type='xingshi']/t:div[@type='dynasty'][@n]/t:head[@type='dynasty']",
                 "//t:div[@type='dynasty']/t:p/*[1][self::t:persName[@ref]]/t:surname/t:lb",
                 "//t:p/t:persName/t:forename[@rend='small']", "//t:p/t:persName/t:addName[@type='zi'][@rend]",
                 "//t:p/t:persName/t:addName[@type='hao']/t:g", "//t:p/t:persName[not(@ref)]",
                 "//t:p/t:persName/following-sibling::t:placeName[@rend='small']/t:milestone",
                 "//t:p[t:persName]/t:note[@type='xiaozhu']", "//t:front/t:div[@type='front'][not(t:head)]/t:p/t:pb",
                 "//t:front/t:div[@type='xu']/t:trailer",
                 "//t:body/t:div[@type='juanshou']/t:div[@type='shengzhi']/t:head[@type='shengzhi']",
                 "//t:div[@type='juanshou']/t:div[@type='gangling']/t:fw[@type='title']",
                 "//t:div[@type='juanshou']/t:trailer",
                 "//t:body/t:div[@type='juanshou']/following-sibling::t:div[@type='mulu']/t:head[@type='mulu']"):
        assert r.xpath(path, namespaces=N), path
    for path in ("//t:div[@type='contents']/t:list/t:item[@n]/t:ref[@n][@target]",
                 "//t:item/t:ref[not(@n)]", "//t:ref/t:g", "//t:item[not(t:ref)]/t:g"):
        assert w.xpath(path, namespaces=N), path


def _first_div_with(path):
    return lambda r: one(r, path).getparent()


KANRIPO_MUTATIONS = {
    # the printed book: pages, lines, row ends
    "pb without facs": _y("//t:pb", "facs"),
    "pb without n": _y("//t:pb", "n"),
    "pb without ed": _y("//t:pb", "ed"),
    "pb n not a page": _y("//t:pb", "n", "1a"),
    "pb n with the 卷 padded": _y("//t:pb", "n", "001-1a x"),
    "pb ed not a code": _y("//t:pb", "ed", "WYG 2"),
    "pb facs http:": _y("//t:pb", "facs", "http://img.kanripo.org/x.png"),
    "pb facs bare id": _y("//t:pb", "facs", "f001-1a"),
    "pb facs two pointers": _y("//t:pb", "facs", "#f001-1a #f001-1b"),
    "pb with text": lambda r: setattr(one(r, "//t:pb"), "text", "1a"),
    "pb with a type": _y("//t:pb", "type", "page"),
    "milestone of another unit": _y("//t:milestone", "unit", "line"),
    "milestone without unit": _y("//t:milestone", "unit"),
    "lb with n": _y("//t:lb", "n", "3"),
    "lb with text": lambda r: setattr(one(r, "//t:lb"), "text", "x"),
    "lb inside g": _y_append("//t:g[@ref='#KR0001']", lambda: el("lb")),
    "lb inside a lacuna's gap": _y_append("//t:gap", lambda: el("lb")),
    "lb directly in a jing ab": _y_insert("//t:ab[@type='jing']", lambda: el("lb")),
    "lb directly in a jing ab after a lacuna": lambda r: one(r, "//t:seg[@type='que']").addnext(el("lb")),
    "lb directly in a translation": lambda r: (one(r, "//t:ab[@xml:id='u2']").addnext(
        el("ab", "譯", type="translation", xml_id="t1", xml_lang="zh-Hans")),
        one(r, "//t:ab[@xml:id='t1']").append(el("lb")))[-1],
    "lb between the blocks of a div": lambda r: one(r, "//t:ab[@xml:id='u1']").addnext(el("lb")),
    "lb before the head": _y_insert("//t:div[@xml:id='d3']", lambda: el("lb")),
    "lb at the end of a div not the last": _y_append("//t:div[@xml:id='d3']", lambda: el("lb")),
    "lb at the end of a front div": _y_append("//t:div[@xml:id='d2']", lambda: el("lb")),
    "lb in the list of persons": _y_append("//t:listPerson", lambda: el("lb")),
    # the facsimile
    "facsimile after standOff": lambda r: one(r, "//t:standOff").addnext(one(r, "//t:facsimile")),
    "facsimile without surface": lambda r: [one(r, "//t:facsimile").remove(s) for s in list(one(r, "//t:facsimile"))],
    "surface without xml:id": _y("//t:surface", XML_ID),
    "surface without n": _y("//t:surface", "n"),
    "surface n not a page": _y("//t:surface", "n", "leaf 1"),
    "surface id not the page": _y("//t:surface", XML_ID, "page1"),
    "surface id and n disagree": _y("//t:surface", "n", "0-1b"),
    "surface with two graphics": _y_append("//t:surface[t:graphic]", lambda: el("graphic", url="a.png")),
    "surface with a zone": _y_append("//t:surface", lambda: el("zone")),
    "graphic url javascript:": _y("//t:surface/t:graphic", "url", "javascript:alert(1)"),
    "graphic url data:": _y("//t:surface/t:graphic", "url", "data:image/png;base64,AAAA"),
    "graphic url file:": _y("//t:surface/t:graphic", "url", "file:///etc/passwd"),
    "graphic url ftp:": _y("//t:surface/t:graphic", "url", "ftp://example.org/a.png"),
    "graphic url with a query": _y("//t:surface/t:graphic", "url", "https://example.org/a.png?x=1"),
    "graphic url with a fragment": _y("//t:surface/t:graphic", "url", "a.png#x"),
    "graphic url with a space": _y("//t:surface/t:graphic", "url", "WYG0115/a b.png"),
    "graphic url protocol-relative": _y("//t:surface/t:graphic", "url", "//evil.example/a.png"),
    "graphic without url": _y("//t:surface/t:graphic", "url"),
    "graphic with text": lambda r: setattr(one(r, "//t:surface/t:graphic"), "text", "x"),
    # Kanripo's characters
    "char without xml:id": _y("//t:char", XML_ID),
    "char id not a Kanripo id": _y("//t:char", XML_ID, "KR12"),
    "char property not its id": _y("//t:char/t:localProp", "value", "KR9999"),
    "char property of another name": _y("//t:char/t:localProp", "name", "name"),
    "char without its property": _y_remove("//t:char/t:localProp"),
    "char mapping of another type": _y("//t:char/t:mapping", "type", "IDS"),
    "char mapping of two characters": lambda r: setattr(one(r, "//t:char/t:mapping"), "text", "所所"),
    "char with two standard mappings": lambda r: one(r, "//t:char/t:mapping[@type='normalized']").set("type", "standard"),
    "char normal form before its form": lambda r: one(r, "//t:char/t:mapping[@type='standard']").addprevious(
        one(r, "//t:char[t:mapping[@type='standard']]/t:mapping[@type='normalized']")),
    "char with three mappings": _y_insert("//t:char[t:mapping[2]]", lambda: el("mapping", "x", type="PUA"), at=1),
    "char with an empty desc": lambda r: setattr(one(r, "//t:char/t:desc"), "text", None),
    "char graphic url javascript:": _y("//t:char/t:graphic", "url", "javascript:alert(1)"),
    "char after the glyphs": lambda r: one(r, "//t:char[t:localProp/@name='name']").addnext(one(r, "//t:char")),
    "placeholder char with a mapping": _y_append("//t:char[t:localProp/@name='name']",
                                                 lambda: el("mapping", "□", type="standard")),
    "placeholder char without its desc": _y_remove("//t:char[t:localProp/@name='name']/t:desc"),
    "glyph for a placeholder": lambda r: setattr(one(r, "//t:char[t:localProp/@name='name']"), "tag", T + "glyph"),
    "char desc before its mapping": lambda r: one(r, "//t:char/t:mapping").addprevious(el("desc", "x")),
    # the header's Kanripo lines
    "kanripo idno not a Kanripo id": lambda r: setattr(one(r, "//t:idno[@type='kanripo']"), "text", "禮記"),
    "kanripo idno before sha256": lambda r: one(r, "//t:idno[@type='sha256']").addprevious(one(r, "//t:idno[@type='kanripo']")),
    "two kanripo idnos": lambda r: one(r, "//t:idno[@type='kanripo']").addnext(el("idno", "KR9z0002", type="kanripo")),
    "edition before the idnos": lambda r: one(r, "//t:idno[@type='filename']").addprevious(
        one(r, "//t:bibl[@type='etext']/t:edition")),
    "empty edition": lambda r: setattr(one(r, "//t:bibl[@type='etext']/t:edition"), "text", None),
    "empty printed edition": lambda r: setattr(one(r, "//t:bibl[@type='printed']/t:edition"), "text", None),
    "Kanripo lines in the printed bibl": _y_append("//t:bibl[@type='printed']",
                                                   lambda: el("idno", "KR9z0001", type="kanripo")),
    "e-text bibl before the printed": lambda r: one(r, "//t:bibl[@type='printed']").addprevious(
        one(r, "//t:bibl[@type='etext']")),
    "empty date": lambda r: setattr(one(r, "//t:bibl/t:date"), "text", None),
    "bibl note of another type": _y("//t:bibl/t:note[@type='comment']", "type", "remark"),
    "comment without its line": _y("//t:bibl/t:note[@type='comment']", "n"),
    "comment line not a line": _y("//t:bibl/t:note[@type='comment']", "n", "601"),
    "properties with a line": _y("//t:bibl/t:note[@type='properties']", "n", "line 4"),
    "properties after a comment": lambda r: one(r, "//t:bibl/t:note[@type='comment'][last()]").addnext(
        one(r, "//t:bibl/t:note[@type='properties']")),
    "two properties": _y_append("//t:bibl[@type='etext']", lambda: el("note", "JUAN 2", type="properties")),
    "empty properties": lambda r: setattr(one(r, "//t:bibl/t:note[@type='properties']"), "text", None),
    "element inside a comment": _y_append("//t:bibl/t:note[@type='comment']", lambda: el("lb")),
    # people
    "person not declared from the text without surname": lambda r: (
        one(r, "//t:person[@xml:id='zs.臣紱']/t:note").addprevious(el("persName", "紱", type="full")),
        _y_remove("//t:person[@xml:id='zs.臣紱']/t:note")(r)),
    "declared person without name parts": lambda r: one(r, "//t:person[@xml:id='zs.臣紱']/t:persName").remove(
        one(r, "//t:person[@xml:id='zs.臣紱']/t:persName/t:forename")),
    "forename before surname": _y_append("//t:person[@xml:id='zs.臣紱']/t:persName", lambda: el("surname", "x")),
    "two forenames": _y_insert("//t:person[@xml:id='zs.臣紱']/t:persName", lambda: el("forename", "x")),
    # the front matter
    "front after body": lambda r: one(r, "//t:body").addnext(one(r, "//t:front")),
    "front div of an unknown type": _y("//t:front/t:div", "type", "preface"),
    "front div of a body type": _y("//t:front/t:div", "type", "juan"),
    "front head of another type": _y("//t:front/t:div/t:head", "type", "xu"),
    "empty front": lambda r: [one(r, "//t:front").remove(d) for d in list(one(r, "//t:front"))],
    "front div with n": _y("//t:front/t:div", "n", "一"),
    "body div of a front type": _y("//t:body/t:div", "type", "tiyao"),
    "head of another type than its div": _y("//t:div[@type='juan']/t:head", "type", "section"),
    "section head typed juan": _y("//t:div[@type='section']/t:head", "type", "juan"),
    # the divisions of the front and of a 卷首
    "front kind in the body before a 卷首": lambda r: one(r, "//t:div[@type='juanshou']").addprevious(
        one(r, "//t:div[@type='mulu']")),
    "front kind in the body without a 卷首": _y_remove("//t:div[@type='juanshou']"),
    "卷首 in the front": _y("//t:front/t:div[@type='front']", "type", "juanshou"),
    "dynasty outside a 引用姓氏": _y("//t:div[@type='shengzhi']", "type", "dynasty"),
    "section in a 引用姓氏": lambda r: (_y("//t:div[@type='dynasty']", "type", "section")(r),
                                    _y("//t:div[@type='section']/t:head[@type='dynasty']", "type", "section")(r)),
    "section in a 卷首": lambda r: (_y("//t:div[@type='gangling']", "type", "section")(r),
                                 _y("//t:head[@type='gangling']", "type", "section")(r)),
    "gangling in a 卷": lambda r: one(r, "//t:div[@xml:id='d4']").addnext(one(r, "//t:div[@type='gangling']")),
    "gangling at the top of the body": lambda r: one(r, "//t:div[@type='juanshou']").addnext(
        one(r, "//t:div[@type='gangling']")),
    "division in a 序": _y_append("//t:front/t:div[@type='xu']",
                                 lambda: etree.fromstring('<div xmlns="http://www.tei-c.org/ns/1.0" type="section" '
                                                          'xml:id="d99"><p>x</p></div>')),
    "head of a dynasty typed section": _y("//t:head[@type='dynasty']", "type", "section"),
    "unknown section type": _y("//t:div[@type='shengzhi']", "type", "zhang"),
    # the entries of a list of persons
    "text before the name": lambda r: setattr(one(r, "//t:p[@xml:id='p4']"), "text", "x"),
    "name after a note": lambda r: one(r, "//t:p[@xml:id='p4']/t:note").addnext(
        one(r, "//t:p[@xml:id='p4']/t:persName")),
    "two names": _y_append("//t:p[@xml:id='p4']", lambda: el("persName", "x")),
    "native place before the name": lambda r: one(r, "//t:p[@xml:id='p4']/t:persName").addprevious(
        one(r, "//t:p[@xml:id='p4']/t:placeName")),
    "native place without a name": lambda r: one(r, "//t:p[@xml:id='p1']").append(el("placeName", "x")),
    "addName of another type": _y("//t:p/t:persName/t:addName", "type", "shi"),
    "addName without type": _y("//t:p/t:persName/t:addName", "type"),
    "rend of another value": _y("//t:p/t:persName/t:forename", "rend", "large"),
    "placeName with a ref": _y("//t:p/t:placeName", "ref", "#zhengxuan"),
    "name part inside a name part": _y_append("//t:p/t:persName/t:surname", lambda: el("forename", "x")),
    "placeName inside the name": _y_append("//t:p/t:persName", lambda: el("placeName", "x")),
    "name entry persName with a type": _y("//t:p/t:persName", "type", "full"),
    "name entry ref http:": _y("//t:p/t:persName[@ref]", "ref", "http://example.org/#x"),
    "name parts in a quotation's author": _y_append("//t:note[@type='yishu']/t:cit/t:bibl/t:author",
                                                       lambda: el("surname", "x")),
    "rend on a declared name part": _y("//t:person/t:persName/t:forename", "rend", "small"),
    # prose
    "zhu note in prose": _y("//t:p[@xml:id='p1']/t:note", "type", "zhu"),
    "small note with a target in prose": _y("//t:p[@xml:id='p1']/t:note", "target", "#p2"),
    "persName in prose": _y_append("//t:p[@xml:id='p1']", lambda: el("persName", "x")),
    "note in a prose note": _y_append("//t:p[@xml:id='p1']/t:note",
                                      lambda: el("note", "x", type="xiaozhu", place="inline", xml_id="p1.n9")),
    "label in prose": _y_append("//t:p[@xml:id='p1']", lambda: el("label", "x", type="mark")),
    # the 考證
    "kaozheng div inside a 卷": lambda r: one(r, "//t:div[@xml:id='d4']").addnext(one(r, "//t:div[@type='kaozheng']")),
    "kaozheng entry in a 卷": lambda r: one(r, "//t:ab[@xml:id='u1']").addnext(one(r, "//t:ab[@type='kaozheng']")),
    "jing ab in a kaozheng div": lambda r: one(r, "//t:ab[@type='kaozheng']").addnext(one(r, "//t:ab[@xml:id='u1']")),
    "shu note in a kaozheng div": lambda r: one(r, "//t:ab[@type='kaozheng']").addnext(one(r, "//t:note[@type='shu']")),
    "prose in a kaozheng div": lambda r: one(r, "//t:ab[@type='kaozheng']").addnext(one(r, "//t:p[@xml:id='p1']")),
    "kaozheng entry with a subtype": _y("//t:ab[@type='kaozheng']", "subtype", "copy"),
    "kaozheng entry with a language": _y("//t:ab[@type='kaozheng']", XML_LANG, "zh-Hans"),
    "kaozheng entry without xml:id": _y("//t:ab[@type='kaozheng']", XML_ID),
    "lemma not first": _y_append("//t:ab[@type='kaozheng']", lambda: el("label", "x", type="lemma")),
    "text before the lemma": lambda r: setattr(one(r, "//t:ab[@type='kaozheng'][t:label]"), "text", "x"),
    "lemma with an xml:id": _y("//t:label[@type='lemma']", XML_ID, "k1.m1"),
    "mark label in a kaozheng entry": _y("//t:label[@type='lemma']", "type", "mark"),
    "lemma label in a jing ab": _y("//t:ab[@type='jing']/t:label", "type", "lemma"),
    "seg in a kaozheng entry": _y_append("//t:ab[@type='kaozheng']", lambda: el("seg", "x", xml_id="k1.j1")),
    "zhu note in a kaozheng entry": _y("//t:ab[@type='kaozheng']/t:note[@type='textual']", "type", "zhu"),
    "judgment with text before the name": lambda r: setattr(one(r, "//t:note[@type='an'][t:persName]"), "text", "按"),
    "judgment naming two": _y_append("//t:note[@type='an'][t:persName]", lambda: el("persName", "臣x")),
    "judgment with a term": _y_append("//t:note[@type='an'][t:persName]", lambda: el("term", "x")),
    "judgment with a target": _y("//t:note[@type='an'][t:persName]", "target", "#k1"),
    "judgment with a subtype": _y("//t:note[@type='an'][t:persName]", "subtype", "quoted"),
    "judgment persName ref http:": _y("//t:note[@type='an']/t:persName", "ref", "http://example.org/#x"),
    "persName in a plain small note": _y_append("//t:note[@type='textual']", lambda: el("persName", "x")),
    "persName in a 注": _y_append("//t:note[@type='zhu']", lambda: el("persName", "x")),
    "note in a 注": _y_append("//t:note[@type='zhu']",
                             lambda: el("note", "x", type="xiaozhu", place="inline", xml_id="u1.n9")),
    "judgment in a jing ab": lambda r: one(r, "//t:ab[@type='jing']").append(one(r, "//t:note[@type='an'][t:persName]")),
    "note in a small note in a judgment": _y_append("//t:note[@type='an']/t:note",
                                                    lambda: el("note", "x", type="xiaozhu", place="inline", xml_id="k1.n9")),
    "judgment in a judgment": lambda r: one(r, "//t:note[@type='an'][t:persName]").append(
        one(r, "//t:ab[@xml:id='k2']/t:note[t:persName]")),
    # the work's table of contents
    "list outside the contents": lambda r: one(r, "//t:ab[@xml:id='u1']").addnext(
        etree.fromstring('<list xmlns="http://www.tei-c.org/ns/1.0"><item n="1">x</item></list>')),
}

WORK_MUTATIONS = {
    "ref target http:": _y("//t:item/t:ref", "target", "http://example.org/KR9z0001_001.xml"),
    "ref target javascript:": _y("//t:item/t:ref", "target", "javascript:alert(1)"),
    "ref target a path": _y("//t:item/t:ref", "target", "../KR9z0001_001.xml"),
    "ref target a fragment": _y("//t:item/t:ref", "target", "#d1"),
    "ref target not TEI": _y("//t:item/t:ref", "target", "KR9z0001_001.txt"),
    "ref target with a space": _y("//t:item/t:ref", "target", "KR9z0001 001.xml"),
    "ref n not a page": _y("//t:item/t:ref", "n", "1-1a"),
    "ref with a type": _y("//t:item/t:ref", "type", "juan"),
    "item without n": _y("//t:item", "n"),
    "item n not a number": _y("//t:item", "n", "一"),
    "item with text beside its ref": lambda r: setattr(one(r, "//t:item/t:ref"), "tail", "x"),
    "item with two refs": _y_append("//t:item[t:ref]", lambda: el("ref", "x", target="a.xml")),
    "empty list": lambda r: [one(r, "//t:list").remove(i) for i in list(one(r, "//t:list"))],
    "contents without its list": _y_remove("//t:list"),
    "contents with an ab": _y_append("//t:div[@type='contents']", lambda: el("ab", type="jing", xml_id="u1")),
    "contents head of another type": _y("//t:div[@type='contents']/t:head", "type", "juan"),
    "contents div nested": lambda r: one(r, "//t:div[@type='contents']").append(el("div", type="contents", xml_id="d2")),
}


@pytest.mark.parametrize("mutate", KANRIPO_MUTATIONS.values(), ids=KANRIPO_MUTATIONS.keys())
def test_kanripo_mutation_is_invalid(schema, kanripo_doc, mutate):
    _assert_invalid(schema, kanripo_doc, mutate)


@pytest.mark.parametrize("mutate", WORK_MUTATIONS.values(), ids=WORK_MUTATIONS.keys())
def test_work_mutation_is_invalid(schema, work_doc, mutate):
    _assert_invalid(schema, work_doc, mutate)


def _assert_invalid(schema, doc, mutate):
    root = copy.deepcopy(doc.getroot())
    mutate(root)
    assert not schema.validate(root)
    try:
        reparsed = etree.fromstring(etree.tostring(root), SAFE_PARSER)
    except etree.XMLSyntaxError:
        return
    assert not schema.validate(reparsed)


@pytest.mark.parametrize("old, new, rule", [
    ('facs="#f001-1b"', 'facs="#d3"', "ZS-PTR-001"),                  # an id, not a surface
    ('facs="#f001-1b"', 'facs="#f009-1b"', "ZS-PTR-001"),             # no such surface
    ('xml:id="k2.n2" resp="psn:qizhaonan"><persName ref="psn:qizhaonan">',
     'xml:id="k2.n2" resp="psn:qizhaonan"><persName ref="#zs.臣召南">', "ZS-PTR-001"),
    ('xml:id="k2.n2" resp="psn:qizhaonan">', 'xml:id="k2.n2" resp="psn:zhaonan">', "ZS-PTR-001"),
    ('<p xml:id="p2">', '<p xml:id="preface-2">', "ZS-ID-002"),       # the front's ids too
    ('<head type="kaozheng" xml:id="d5.h">', '<head type="kaozheng" xml:id="kz.h">', "ZS-ID-002"),
    ('漢鄭元注<g ref="#KR0001">𫠦</g>', '漢鄭元注\U00100001', "ZS-CHAR-001"),  # in the front
    ('<g ref="#KR0002">&#xE000;</g>思', '&#xE000;思', "ZS-CHAR-001"),
    ('<g ref="#KR0005">&#x100005;</g>', '<g ref="#KR0006">&#x100005;</g>', "ZS-PTR-001"),
], ids=["facs to a div", "facs to nothing", "judge undeclared", "judge not in the registry", "front id", "kaozheng id",
        "PUA in the front", "PUA outside g", "g to an undeclared char"])
def test_kanripo_rules(old, new, rule):
    """What the rules add for Kanripo sources, found at the element."""
    assert KANRIPO_DOC.count(old) == 1, old
    text = KANRIPO_DOC.replace(old, new.encode().decode("unicode_escape") if "\\U" in new else new)
    tree = _parsed(text)
    found = [(r, el.sourceline) for el, level, r, _ in _rules(tree) if level == "error"]
    line = KANRIPO_DOC[:KANRIPO_DOC.index(old)].count("\n") + 1
    assert (rule, line) in found, found


def test_work_links_are_not_pointers(work_doc):
    """A work's entries link to files beside it: not same-document pointers (ZS-PTR-001)."""
    assert not [f for f in _rules(work_doc) if f[1] == "error"]


@pytest.mark.parametrize("old, new", [
    ('<lb/>夫禮者<note', '<lb n="2"/>夫禮者<note'),
    ('<surface xml:id="f001-2a" n="1-2a"/>', '<surface xml:id="f001-2a" n="1-2b"/>'),
    ('<label type="lemma"><lb/>曲禮曰', '<label type="lemma" xml:id="k1.m1"><lb/>曲禮曰'),
    ('<lb/><milestone unit="row"/>\n</div>', '<lb/><fw type="header" xml:id="fw9">x</fw><milestone unit="row"/>\n</div>'),
], ids=["lb in the front", "surface", "lemma", "events before furniture"])
def test_kanripo_errors_are_reported_at_the_element(schema, old, new):
    assert KANRIPO_DOC.count(old) == 1, old
    line = KANRIPO_DOC[:KANRIPO_DOC.index(old)].count("\n") + 1
    assert not schema.validate(_parsed(KANRIPO_DOC.replace(old, new)))
    assert any(e.line == line for e in schema.error_log), errors(schema)


# -- the writer on a Kanripo repository -----------------------------------------------------------

# A small repository in the mandoku syntax (written for this test, in the style of Kanripo's
# files): a 卷 of a 四庫 注疏 with 注, 音義 and 疏 in double rows over three pages, characters
# from Kanripo's table, its 考證 with a known 臣 and one named by his given name alone; its
# Readme.org; the image list of its _data branch; a character table.
KANRIPO_JUAN = """# -*- mode: mandoku-view -*-
#+TITLE: 禮記註疏
#+DATE: 2015-09-23 09:38:05
#+PROPERTY: JUAN 1
<pb:KR9z0001_WYG_001-1a>¶
欽定四庫全書¶
　禮記注疏卷一¶
　　漢鄭氏注　唐陸德明音義　孔穎達疏¶
　曲禮上¶
曲禮曰毋不敬注禮主於敬音義(毋音無禁止之/詞其字從女)儼若思¶
注儼矜莊貌人之坐思貌必儼然音義(儼魚檢反/矜居氷反)疏(正)¶
(義曰此一節明人君立治之本先當肅心謹身愼口/之事也&KR0001;)¶
# ?
<pb:KR9z0001_WYG_001-1b>¶
安定辭注審言語也&KR0002;音義(辭如字/)疏(正義曰安定/審也)¶
敖不可長注四者慢遊之道&KR0003;音義(敖五報反慢/也)疏(正義曰此一)¶
(節承上人君敬愼之道/此亦據人君而言也)¶
　禮記注疏卷一¶
<pb:KR9z0001_WYG_001-2a>¶
　禮記注疏卷一考證¶
曲禮曰毋不敬注禮主於敬○(臣紱/)按此言人君當敬¶
　也古人以周禮為經禮儀禮為曲禮&KR0004;(句)其説¶
　是也¶
敖不可長疏承上人君敬愼之道○(臣召南/)按敖讀為¶
　傲諸本同¶
　禮記注疏卷一考證¶
"""
KANRIPO_README = """#+TITLE: 禮記註疏 / WYG
#+DATE: 2015-08-24 22:10:01.111733
* 版本
 |       WYG|【四庫全書・文淵閣】|
目次
 - [[file:KR9z0001_001.txt::001-1a][禮記註疏 卷一]]
 - [[file:KR9z0001_001.txt::001-2a][禮記註疏 卷一考證]]
 - [[file:KR9z0001_002.txt::002-1a][禮記註疏 卷二]]
"""
KANRIPO_IMAGES = "001-1a00\tWYG 001-1a\tWYG0001/WYG0001-0001a.png\n001-1b00\tWYG 001-1b\tWYG0001/WYG0001-0001b.png\n"
# a character with its Unicode form and a normal form, one with a private form, one with an
# IDS and a composite normal form, one with nothing but its id
KANRIPO_GAIJI = ("#+STARTUP: inlineimages\n"
                 "KR0001\t00000010\t\U0002B826\t所\t[[file:images/KR0001.png]]\n"
                 "KR0002\t00000009\t\ue000\t若\t[[file:images/KR0002.png]]\n"
                 "KR0003\t00000008\t⿰亻尔\t你:2,爾:1\t[[file:images/KR0003.png]]\n"
                 "KR0004\t00000007\t\t\t\n")


@pytest.fixture(scope="module")
def kanripo_outputs(tmp_path_factory) -> dict[str, etree._Element]:
    """`zhushu convert` of the repository above: {file name: root} for the 卷 and the work."""
    from pipeline.cli import main
    top = tmp_path_factory.mktemp("kanripo")
    repo = top / "KR9z0001"
    images = top / "_data" / "KR9z0001" / "imglist"
    for d in (repo, images, top / "KR-Gaiji"):
        d.mkdir(parents=True)
    (repo / "KR9z0001_001.txt").write_text(KANRIPO_JUAN, encoding="utf-8")
    (repo / "Readme.org").write_text(KANRIPO_README, encoding="utf-8")
    (images / "KR9z0001_001.txt").write_text(KANRIPO_IMAGES, encoding="utf-8")
    (top / "KR-Gaiji" / "charlist.org.txt").write_text(KANRIPO_GAIJI, encoding="utf-8")
    out = top / "out"
    r = CliRunner().invoke(main, ["convert", str(repo), "-o", str(out), "-q",
                                  "--facs-base", "https://img.example.org/wyg/"], catch_exceptions=False)
    assert r.exit_code == 0, r.stdout + r.stderr
    return {p.name: etree.parse(str(p), SAFE_PARSER).getroot() for p in sorted(out.glob("*.xml"))}


def test_kanripo_writer_output_is_valid(schema, kanripo_outputs):
    from pipeline.validate.shared import is_shared
    # the 卷, the work, and the corpus's shared files beside them
    assert set(kanripo_outputs) == {"KR9z0001.xml", "KR9z0001_001.xml", "persons.xml", "categories.xml"}
    for name, root in kanripo_outputs.items():
        if is_shared(name):
            continue
        assert schema.validate(root), f"{name}: {errors(schema)}"
        found = [(rule, msg) for _, level, rule, msg in _rules(root.getroottree()) if level == "error"]
        assert not found, (name, found)


def test_kanripo_writer_output_is_valid_tei_all(tei_all, kanripo_outputs):
    for name, root in kanripo_outputs.items():       # the shared files too: TEI documents
        assert tei_all.validate(root), f"{name}: {errors(tei_all)}"


def test_kanripo_writer_output_has_the_new_constructs(kanripo_outputs):
    """The writer takes the branches the schema was extended for (if one stops, the schema may
    hold a slot nothing fills: see which, and the reference documents above)."""
    r, w = kanripo_outputs["KR9z0001_001.xml"], kanripo_outputs["KR9z0001.xml"]
    for path in ("//t:idno[@type='kanripo']", "//t:bibl/t:edition", "//t:bibl/t:date",
                 "//t:bibl/t:note[@type='properties']", "//t:bibl/t:note[@type='comment'][@n='line 13']",
                 "//t:char/t:mapping[@type='standard']", "//t:char/t:mapping[@type='PUA']",
                 "//t:char/t:mapping[@type='normalized']", "//t:char/t:desc", "//t:char/t:graphic[@url]",
                 "//t:surface/t:graphic[starts-with(@url, 'https://img.example.org/wyg/')]",
                 "//t:surface[not(t:graphic)]", "//t:fw/t:pb[@ed='WYG'][@n='1-1a'][@facs='#f001-1a']",
                 "//t:seg/t:pb", "//t:head/t:lb", "//t:trailer/t:lb", "//t:label[@type='mark']/t:lb",
                 "//t:note[@type='yinyi']/t:milestone[@unit='row']", "//t:seg[@type='fanqie']/t:milestone",
                 "//t:note[@type='shu']/t:p/t:milestone", "//t:note[@type='zhu']/t:g[@ref='#KR0002']",
                 "//t:div[@type='kaozheng']/t:head[@type='kaozheng']/t:pb",
                 "//t:ab[@type='kaozheng']/t:label[@type='lemma']",
                 "//t:note[@type='an'][@resp='#zs.臣紱']/t:persName[@ref='#zs.臣紱']",
                 "//t:note[@type='an'][@resp='psn:qizhaonan']", "//t:note[@type='an']/t:note[@type='xiaozhu']",
                 "//t:person[@xml:id='zs.臣紱']/t:persName/t:forename"):
        assert r.xpath(path, namespaces=N), path
    assert len(r.xpath("//t:pb", namespaces=N)) == 3
    assert w.xpath("//t:div[@type='contents']/t:list/t:item/t:ref[@target='KR9z0001_001.xml'][@n='001-2a']",
                   namespaces=N)
    assert w.xpath("//t:item[not(t:ref)]", namespaces=N)                 # 卷二 is not in the checkout


@pytest.fixture(scope="module")
def fixture_outputs(kanripo_fixture_outputs) -> dict[str, etree._Element]:
    return kanripo_fixture_outputs


def test_readers_fixtures_are_valid(schema, fixture_outputs):
    """Whatever the Kanripo readers write from their own fixtures is in the subset: structure
    and rules (a reader's new construct fails here first)."""
    from pipeline.validate.shared import is_shared
    for name, root in fixture_outputs.items():
        if is_shared(name):
            continue
        assert schema.validate(root), f"{name}: {errors(schema)}"
        found = [(rule, msg) for _, level, rule, msg in _rules(root.getroottree()) if level == "error"]
        assert not found, (name, found)


def test_readers_fixtures_are_valid_tei_all(tei_all, fixture_outputs):
    for name, root in fixture_outputs.items():
        assert tei_all.validate(root), f"{name}: {errors(tei_all)}"
