"""schema/zhushu.rng: compiles, accepts our TEI, rejects what we do not emit, and stays a subset of TEI P5."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schema" / "zhushu.rng"
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


@pytest.fixture(scope="module")
def schema() -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(str(SCHEMA)))


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


def errors(schema: etree.RelaxNG) -> str:
    return "\n".join(str(e) for e in schema.error_log)


# -- the schema and the example ----------------------------------------------------------------

def test_schema_compiles(schema):
    assert isinstance(schema, etree.RelaxNG)


def test_schema_is_relax_ng_xml_syntax():
    root = etree.parse(str(SCHEMA)).getroot()
    assert root.tag == "{http://relaxng.org/ns/structure/1.0}grammar"
    assert root.get("ns") == NS


def test_example_is_valid(schema, example):
    assert schema.validate(example), errors(schema)


def test_example_is_valid_tei_all(tei_all, example):
    assert tei_all.validate(example), errors(tei_all)


# -- documents the schema must reject ------------------------------------------------------------

def _unknown_element_in_body(r):
    one(r, "//t:div").append(el("foo", "x"))


def _unknown_tei_element_in_div(r):
    # <lg> is valid TEI, but not part of our subset
    lg = el("lg")
    lg.append(el("l", "x"))
    one(r, "//t:div").append(lg)


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


def _g_in_gap_desc(r):
    # TEI's <desc> does not admit <g>: our schema must not either
    one(r, "//t:gap/t:desc").append(el("g", "?", ref="#zs-g003F"))


def _head_after_ab(r):
    one(r, "//t:div").append(el("head", "卷", type="juan"))


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
    one(r, "//t:div").append(el("note", "x", type="zhu"))


def _nested_juan_div(r):
    one(r, "//t:div").append(el("div", type="juan", xml_id="dx"))


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
    one(r, "//t:glyph").set(XML_ID, "glyph1")


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
    "event-handler attribute": _attr("//t:p", "onclick", "alert(1)"),
    "place on a shu note": _attr("//t:note[@type='shu']", "place", "inline"),
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
    "g in gap/desc": _g_in_gap_desc,
    "head after the blocks": _head_after_ab,
    "p inside ab": _p_inside_ab,
    "unknown seg type": _seg_type,
    "unknown label type": _label_type,
    "note inside a note": _note_in_note,
    "forward note inside ab": _forward_note_in_ab,
    "reserved note type at div level": _reserved_type_on_div_note,
    "nested juan div": _nested_juan_div,
    "empty listPerson": _empty_list_person,
    "no teiHeader": _no_tei_header,
    "not the TEI namespace": _wrong_namespace,
    "root xml:lang not lzh": _root_lang,
    "glyph id outside zs-gXXXX": _glyph_id,
    "application version not a version": _version,
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


@pytest.mark.parametrize("parser", [
    SAFE_PARSER,
    etree.XMLParser(recover=True),
], ids=["safe parser", "recovering parser"])
def test_duplicate_id_is_invalid(schema, parser):
    # xml:id is xsd:ID, so uniqueness is checked, as in TEI. libxml2 checks it on a parsed
    # document (an ID already registered on a tree built in memory is not re-checked).
    data = EXAMPLE.read_bytes().replace(b'xml:id="u2"', b'xml:id="u1"', 1)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return                              # rejected by the parser already
    assert not schema.validate(root)


# -- the optional slots for upcoming layers ------------------------------------------------------

def forward_document(example) -> etree._Element:
    """004.xml with every optional (forward-compatible) construct of the schema used once."""
    root = fresh(example)
    div = one(root, "//t:div")
    div.set("corresp", "#d1")
    div.set(XML_LANG, "lzh")
    ab = one(root, "//t:ab")
    ab.set("corresp", "#u2")
    # an anchor inside a jing seg and inside an inline note
    one(root, "//t:ab/t:seg").append(el("anchor", xml_id="u1.a1"))
    zhu = one(root, "//t:note[@type='zhu']")
    zhu.insert(0, el("anchor", xml_id="u1.a2"))
    cit = el("cit", resp="#zhengxuan")
    cit.append(el("quote", "引文"))
    cit.append(el("bibl", "《王制》"))
    zhu.append(cit)
    zhu.append(el("quote", "q", resp="#zhengxuan"))
    # a 疏 spanning two anchors, detached, with quotes in and between paragraphs
    shu = one(root, "//t:note[@type='shu']")
    shu.set("target", "#u1.a1")
    shu.set("targetEnd", "#u1.a2")
    shu.set("subtype", "detached")
    shu.set("corresp", "#u1 #u2")
    p = one(shu, "t:p")
    p.append(el("anchor", xml_id="u1.s1.a1"))
    p.append(el("quote", "q", resp="#zhengxuan"))
    shu.append(el("quote", "q"))
    # div-level: page furniture, a translation, a translator's note, quotations, a section
    div.insert(1, el("fw", "卷三十八", type="header", n="1"))
    blocks = [
        el("fw", "一", type="pageNum"),
        el("ab", "译文", type="jing", xml_id="t.u1", corresp="#u1", xml_lang="zh-Hans"),
        el("p", "译文", xml_id="t.p1", corresp="#u1.j1", xml_lang="zh-Hans"),
        el("note", "译注", type="translation", subtype="gloss", xml_id="t.n1", resp="#zhengxuan",
           target="#u1.j1", corresp="#u1", xml_lang="zh-Hans"),
        el("quote", "q", xml_id="q1", resp="#zhengxuan"),
    ]
    n = blocks[3]
    n.append(el("p", "para"))
    blocks.append(el("cit", resp="#zhengxuan"))
    blocks[-1].append(el("quote", "q"))
    section = el("div", type="section", n="一", xml_id="d1.1", corresp="#d1", xml_lang="lzh")
    section.append(el("head", "章", type="section"))
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
    """A document model that takes every branch of pipeline/tei.py that yields valid TEI."""
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
         ], n="一"),
         Div("juan", None, [])])
    assign_ids(doc)
    return etree.fromstring(tei.serialize(tei.to_tei(doc)))


def test_writer_output_is_valid(schema):
    root = writer_document()
    assert schema.validate(root), errors(schema)


def test_writer_output_is_valid_tei_all(tei_all):
    root = writer_document()
    assert tei_all.validate(root), errors(tei_all)
