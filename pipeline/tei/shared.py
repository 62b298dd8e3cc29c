"""The two TEI files every document of a corpus shares, written by `zhushu convert` beside the
documents: persons.xml, the registry of scholars (data/scholars.tsv) as a listPerson, and
categories.xml, the note types (note/@type and @subtype) and the 四庫 classification as
taxonomies. A document points into them through the prefixes of constants.SHARED_PREFIXES
(psn:zhengxuan, cat:siku.jing.li), declared in its listPrefixDef (header.prefixes). Both are
the same bytes for every corpus: they depend on the registry and on this module alone."""
from __future__ import annotations

import functools

from lxml import etree

from pipeline import __version__, hanzi, persons
from pipeline.constants import CATEGORIES_FILE, PERSONS_FILE, TEI, TEI_NS, XML_LANG, YISHU_CATEGORIES
from pipeline.model import AN, JING, QUE, SHU, TEXTUAL, TRANSLATION, XIAOZHU, YINYI, YISHU, ZHU
from pipeline.tei.markup import _el

# The note types: @type/@subtype in the body come only from here.
TAXONOMY = (
    (JING, "經 — the classic"),
    (ZHU, "注 — the Han commentary"),
    (YINYI, "音義 — 陸德明's glosses on sound and sense"),
    (SHU, "疏 — the Tang sub-commentary, anchored by its 出文 lemma"),
    ("detached", "a 疏 whose 出文 lies outside this file"),
    ("sublemma", "a part of a 疏 section that opens with a narrower quote of the 經 or 注"),
    (QUE, "阙 — a passage the edition marks as lost"),
    ("chuwen", "出文 — the lemma a 疏 section quotes"),
    ("mark", "a printed marker such as 疏"),
    (TEXTUAL, "a textual note in small characters (variant readings, editions)"),
    ("quoted", "a quotation of the 疏 in a small note, credited to its author"),
    (XIAOZHU, "any other note in small characters"),
    (YISHU, "義疏 — a block of the Qing 欽定三禮義疏 on one 經 passage"),
    *((cid, f"{label} — {what}") for cid, label, what in YISHU_CATEGORIES),
    (AN, "案 — the compilers' own judgment"),
    (TRANSLATION, "a modern Chinese translation interleaved with the original"),
    ("copy", "a 'translation' that is a near-copy of its original"),
)

# The 四庫全書總目's 部 and, of the 經部, its 類 and the 屬 of the 禮類, as the catalogue prints
# them (traditional; a catalogue line in simplified forms finds them by hanzi.fold): id,
# name, children. The 經部 is all the corpus needs; the other 部 are there so that a catRef to
# one resolves.
SIKU = (
    ("siku.jing", "經部", (
        ("siku.jing.yi", "易類", ()), ("siku.jing.shu", "書類", ()), ("siku.jing.shi", "詩類", ()),
        ("siku.jing.li", "禮類", (
            ("siku.jing.li.zhouli", "周禮之屬", ()), ("siku.jing.li.yili", "儀禮之屬", ()),
            ("siku.jing.li.liji", "禮記之屬", ()), ("siku.jing.li.sanli", "三禮總義之屬", ()),
            ("siku.jing.li.tongli", "通禮之屬", ()), ("siku.jing.li.zali", "雜禮書之屬", ()))),
        ("siku.jing.chunqiu", "春秋類", ()), ("siku.jing.xiaojing", "孝經類", ()),
        ("siku.jing.wujing", "五經總義類", ()), ("siku.jing.sishu", "四書類", ()),
        ("siku.jing.yue", "樂類", ()), ("siku.jing.xiaoxue", "小學類", ()))),
    ("siku.shi", "史部", ()), ("siku.zi", "子部", ()), ("siku.ji", "集部", ()),
)


def _siku_classes(rows=SIKU):
    """(id, name) of every class of the 四部, depth first."""
    for cid, name, children in rows:
        yield cid, name
        yield from _siku_classes(children)


SIKU_IDS = {name: cid for cid, name in _siku_classes()}       # 禮記之屬 → siku.jing.li.liji
SIKU_NAMES = {cid: name for cid, name in _siku_classes()}     # and back


@functools.cache
def _by_folded() -> dict[str, str]:
    """hanzi.fold(name) → id: a catalogue line matches in either script."""
    return {hanzi.fold(name): cid for name, cid in SIKU_IDS.items()}


def siku_categories(classification: str) -> list[str]:
    """The category ids of a catalogue line's parts (经部,礼类,仪礼之属 → siku.jing, siku.jing.li,
    siku.jing.li.yili); a part the table does not hold is left out."""
    ids = _by_folded()
    parts = (hanzi.fold(p.strip()) for p in classification.split(","))
    return [ids[p] for p in parts if p in ids]


def _document(title: str, what: str):
    root = etree.Element(TEI + "TEI", nsmap={None: TEI_NS})
    root.set(XML_LANG, "en")
    fd = _el(_el(root, "teiHeader"), "fileDesc")
    _el(_el(fd, "titleStmt"), "title", title)
    ps = _el(fd, "publicationStmt")
    _el(ps, "authority", "Zhushu")
    from pipeline.tei.header import availability
    availability(ps)
    _el(_el(fd, "sourceDesc"), "p", what)
    return root


def _serialise(root) -> bytes:
    etree.indent(root)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8") + b"\n"


def persons_document() -> bytes:
    """persons.xml: every scholar of the registry, in its order."""
    root = _document("Zhushu: the registry of scholars",
                     f"Zhushu {__version__}'s registry of scholars (pipeline/data/scholars.tsv): the "
                     "persons the documents of this corpus point at as psn:<id>.")
    lp = _el(_el(root, "standOff"), "listPerson")
    for p in persons.registry().values():
        person(lp, p)
    return _serialise(root)


def person(lp, p: persons.Person) -> None:
    """A scholar of the registry: name parts, full name, authority ids, dynasty, dates where
    established, role."""
    e = _el(lp, "person", xml_id=p.id)
    pn = _el(e, "persName")
    pn.set(XML_LANG, "lzh-Hant")
    _el(pn, "surname", _canonical(p.surnames, p.name))
    if p.given:
        _el(pn, "forename", _canonical(p.given, p.name))
    if p.courtesy:
        _el(pn, "addName", _canonical(p.courtesy, ""), type="zi")
    full = _el(e, "persName", p.name, type="full")
    full.set(XML_LANG, "lzh-Hant")
    for authority, value in p.authorities:
        _el(e, "idno", value, type=authority)
    if p.birth:
        _el(e, "birth", when=_year(p.birth))
    if p.death:
        _el(e, "death", when=_year(p.death))
    if p.dynasty:
        fl = _el(e, "floruit", p.dynasty)
        fl.set(XML_LANG, "lzh-Hant")
    if p.role:
        _el(e, "note", p.role)
    if p.source:
        _el(e, "note", p.source, type="source")


def _year(y: str) -> str:
    """A year as TEI dates it (xsd:gYear: four digits, a minus sign before a year BCE)."""
    n = int(y)
    return f"-{-n:04d}" if n < 0 else f"{n:04d}"


def _canonical(forms: tuple[str, ...], name: str) -> str | None:
    """The form of a name part the registry's full name uses (traditional), else the second
    listed form (lists run simplified|traditional|variants), else the only one."""
    if not forms:
        return None
    return next((f for f in forms if f in name), forms[1] if len(forms) > 1 else forms[0])


def categories_document() -> bytes:
    """categories.xml: the note types and the 四庫 classification, as taxonomies."""
    root = _document("Zhushu: the categories of notes and the 四庫 classification",
                     f"Zhushu {__version__}: the note types (note/@type and @subtype, cat:<id>) and "
                     "the classification of the 四庫全書總目 (textClass/catRef, cat:siku.*).")
    cd = _el(_el(root[0], "encodingDesc"), "classDecl")
    tax = _el(cd, "taxonomy", xml_id="zs-types")
    for cid, desc in TAXONOMY:
        _el(_el(tax, "category", xml_id=cid), "catDesc", desc)
    siku = _el(cd, "taxonomy", xml_id="siku")
    _el(siku, "desc", "四庫全書總目: 部, 類, 屬")

    def walk(parent, rows):
        for cid, name, children in rows:
            c = _el(parent, "category", xml_id=cid)
            d = _el(c, "catDesc", name)
            d.set(XML_LANG, "lzh-Hant")
            walk(c, children)
    walk(siku, SIKU)
    _el(_el(_el(root, "text"), "body"), "p", "The categories are declared in the header.")
    return _serialise(root)


def documents() -> dict[str, bytes]:
    """The shared files by name."""
    return {PERSONS_FILE: persons_document(), CATEGORIES_FILE: categories_document()}
