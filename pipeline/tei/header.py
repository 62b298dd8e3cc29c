"""The parts of a TEI document around its text, built with lxml: the teiHeader (file,
encoding and profile descriptions, the note taxonomy, the charDecl of every <g> the body
wrote and of Kanripo's gaiji), the facsimile of a Kanripo file's pages, and the standOff
list of the persons the text names."""
from __future__ import annotations

from pipeline import __version__, persons
from pipeline.chars import UNICODE_VERSION, glyph_kind, stood_in
from pipeline.constants import XML_LANG, YISHU_CATEGORIES
from pipeline.model import (AN, JING, QUE, SHU, TEXTUAL, TRANSLATION, XIAOZHU, YINYI, YISHU, ZHU,
                            Meta)
from pipeline.sources.kanripo import GAIJI_IMAGES
from pipeline.tei import citation
from pipeline.tei.markup import _el, glyph_id
from pipeline.tei.place import surface_id

# The note taxonomy declared in every header; @type/@subtype in the body come only from here.
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
# How the header describes each kind of <g>.
_GLYPH_NAMES = {
    "placeholder": "placeholder for a missing character",
    "lost": "a character lost before conversion (U+FFFD, the decoder's replacement character)",
}
# The scripts of a translation's @xml:lang, as the header names them.
_SCRIPT = {"zh-Hans": "simplified", "zh-Hant": "traditional"}


def header(h, m: Meta, glyphs, translation_langs) -> None:
    """The teiHeader `h` of a document with metadata `m`: `glyphs` are the characters its body
    wrote in a <g>, `translation_langs` the languages of its translations."""
    fd = _el(h, "fileDesc")
    ts = _el(fd, "titleStmt")
    _el(ts, "title", " ".join(x for x in (m.work or "未題名", m.juan or m.section) if x), type="main")
    if m.work:
        _el(ts, "title", m.work, type="work")
    if m.juan:
        _el(ts, "title", m.juan, type="juan")
    rs = _el(ts, "respStmt")
    _el(rs, "resp", "TEI encoding, converted from a plain-text e-text")
    _el(rs, "name", f"Zhushu {__version__}")
    ps = _el(fd, "publicationStmt")
    _el(ps, "authority", "Zhushu")     # TEI admits an idno only after an agency
    citation.idnos(ps, m)
    _el(_el(ps, "availability"), "p", "Unpublished conversion. The source text is reproduced in full; "
        "all markup is derived by Zhushu and listed in the conversion report.")
    bibl = _el(_el(fd, "sourceDesc"), "bibl")
    if m.work:
        _el(bibl, "title", m.work)
    if m.juan:
        _el(bibl, "biblScope", m.juan, unit="juan")
    _el(bibl, "idno", m.source_name, type="filename")
    _el(bibl, "idno", m.sha256, type="sha256")
    if m.edition is not None:
        kanripo_bibl(bibl, m.edition)
    ed = _el(h, "encodingDesc")
    app = _el(_el(ed, "appInfo"), "application", ident="zhushu", version=__version__)
    _el(app, "label", "Zhushu")
    _el(app, "desc", f"reader: {m.layout}")
    citation.refs_decl(ed, m)
    cd = _el(ed, "classDecl")
    tax = _el(cd, "taxonomy", xml_id="zs-types")
    for cid, desc in TAXONOMY:
        _el(_el(tax, "category", xml_id=cid), "catDesc", desc)
    if m.classification:
        _el(_el(cd, "taxonomy", xml_id="siku"), "desc", "四庫全書總目: 部, 類, 屬")
    gaiji = m.edition.gaiji if m.edition is not None else []
    if glyphs or gaiji:
        char_decl(_el(ed, "charDecl"), gaiji, m.edition, glyphs)
    pd = _el(h, "profileDesc")
    lu = _el(pd, "langUsage")
    _el(lu, "language", "Literary Chinese (文言)", ident="lzh")
    for lang in sorted(translation_langs):
        _el(lu, "language", f"Modern Chinese, {_SCRIPT[lang]} script (translation)", ident=lang)
    if m.classification:
        tc = _el(pd, "textClass")
        _el(tc, "classCode", m.classification, scheme="#siku")


def char_decl(cd, gaiji, edition, glyphs) -> None:
    """The charDecl `cd`: a <char> for each of Kanripo's gaiji the file uses, a <glyph> for
    each character the body wrote in a <g>."""
    for row in gaiji:
        gaiji_char(cd, row, edition)
    for ch in sorted(glyphs):
        g = _el(cd, "glyph", xml_id=glyph_id(ch))
        kind = glyph_kind(ch)
        name = _GLYPH_NAMES.get(kind) or (
            f"private use character U+{ord(ch):04X}" if kind == "private" else
            f"U+{stood_in(ch):04X} of the source, a control character XML cannot hold "
            f"(this private character stands for it)" if kind == "control" else
            f"U+{ord(ch):04X}, a code point Unicode {UNICODE_VERSION} does not assign")
        _el(g, "localProp", name="name", value=name)
        _el(g, "mapping", ch, type="standard")


def kanripo_bibl(bibl, e) -> None:
    """The Kanripo file and its edition: the repository's id, the edition (WYG, 四庫全書・
    文淵閣), the e-text's date and properties, and its comment lines, kept in the header."""
    _el(bibl, "idno", e.work_id, type="kanripo")
    if e.edition:
        _el(bibl, "edition", f"{e.edition_name} ({e.edition})" if e.edition_name else e.edition)
    if e.date:
        _el(bibl, "date", e.date)
    if e.properties:
        _el(bibl, "note", "; ".join(f"{k} {v}" for k, v in e.properties.items()), type="properties")
    for line, comment in e.comments:
        _el(bibl, "note", comment, type="comment", n=f"line {line}")


def gaiji_char(cd, row, edition) -> None:
    """A character Unicode lacks, as Kanripo's table describes it: its id, its form (a
    Unicode character, or Kanripo's private one), its normal form, its image."""
    c = _el(cd, "char", xml_id=row.id)
    _el(c, "localProp", name="kanripo", value=row.id)
    if len(row.form) == 1:
        _el(c, "mapping", row.form, type="PUA" if glyph_kind(row.form) == "private" else "standard")
    norm = row.normalized
    if len(norm) == 1:
        _el(c, "mapping", norm, type="normalized")
    elif norm:
        _el(c, "desc", f"normal form in Kanripo's table: {norm}")
    if row.form and len(row.form) != 1:
        _el(c, "desc", f"form in Kanripo's table: {row.form}")
    if not row.image and not row.form and not norm:
        _el(c, "desc", "not described: Kanripo's character table was not found" if not
            edition.gaiji_table else "Kanripo's table gives no form for it")
    if row.image:
        _el(c, "graphic", url=GAIJI_IMAGES + row.image)


def facsimile(root, e) -> None:
    """A surface for each page of a Kanripo file, with the image of it where the edition's
    image list has one; each <pb facs> points at its surface."""
    fx = _el(root, "facsimile")
    for page, image in e.pages:
        sf = _el(fx, "surface", xml_id=surface_id(page), n=page.n)
        if image:
            _el(sf, "graphic", url=e.facs_base + image)


def people(so, meta: Meta) -> None:
    lp = _el(so, "listPerson")
    for pid in meta.persons:
        if pid in meta.declared:           # named in the text, not in the registry
            sur, given = meta.declared[pid]
            e = _el(lp, "person", xml_id=pid)
            pn = _el(e, "persName")
            pn.set(XML_LANG, "lzh")
            _el(pn, "surname", sur)
            if given:
                _el(pn, "forename", given)
            _el(e, "note", "declared from the text: not in the registry of scholars")
            continue
        p = persons.get(pid)
        e = _el(lp, "person", xml_id=pid)
        pn = _el(e, "persName")
        pn.set(XML_LANG, "lzh")
        _el(pn, "surname", _canonical(p.surnames, p.name))
        if p.given:
            _el(pn, "forename", _canonical(p.given, p.name))
        if p.courtesy:
            _el(pn, "addName", _canonical(p.courtesy, ""), type="zi")
        _el(e, "persName", p.name, type="full")
        if p.dynasty:
            _el(e, "floruit", p.dynasty)
        if p.role:
            _el(e, "note", p.role)


def _canonical(forms: tuple[str, ...], name: str) -> str | None:
    """The form of a name part the registry's full name uses (traditional), else the second
    listed form (lists run simplified|traditional|variants), else the only one."""
    if not forms:
        return None
    return next((f for f in forms if f in name), forms[1] if len(forms) > 1 else forms[0])

