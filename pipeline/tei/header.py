"""The parts of a TEI document around its text, built with lxml: the teiHeader (the work, its
authors and commentators, the printed edition and the e-text, our licence, the editorial
principles, the prefixes that point into the corpus's shared files, the charDecl of every <g>
the body wrote and of Kanripo's gaiji, the languages, the 四庫 classification, the conversion
as a change), the facsimile of a Kanripo file's pages, and the standOff list of the persons the
text names who are not in the registry (the registry's are in persons.xml: tei/shared.py)."""
from __future__ import annotations

import re

from pipeline import __version__, persons
from pipeline.chars import UNICODE_VERSION, glyph_kind, stood_in
from pipeline.constants import SHARED_PREFIXES, XML_LANG
from pipeline.model import Meta
from pipeline.sources.kanripo import GAIJI_IMAGES
from pipeline.tei import citation
from pipeline.tei.markup import _el, glyph_id, person
from pipeline.tei.place import surface_id
from pipeline.tei.shared import TAXONOMY, siku_categories

__all__ = ["TAXONOMY", "header", "facsimile", "people", "availability", "SCHEMA_PIS"]

# How the header describes each kind of <g>.
_GLYPH_NAMES = {
    "placeholder": "placeholder for a missing character",
    "lost": "a character lost before conversion (U+FFFD, the decoder's replacement character)",
}
# The scripts of a translation's @xml:lang, as the header names them.
_SCRIPT = {"zh-Hans": "simplified", "zh-Hant": "traditional"}
# The licence of our encoding (the markup, the header, the shared files); the text is the
# source's, under whatever terms its source gives (sourceDesc).
LICENCE_URL = "https://creativecommons.org/licenses/by/4.0/"
LICENCE = ("The TEI encoding (markup, header and the corpus's shared files) made by Zhushu is "
           "licensed under the Creative Commons Attribution 4.0 International licence (CC BY 4.0). "
           "The text itself is that of the source described in sourceDesc, under the terms its "
           "source gives.")
# The schema every output names before its root (xml-model): the official tei_all, which
# every output is valid against; the validator never follows it (validate/xmlsafe.py).
SCHEMA_PIS = (
    '<?xml-model href="https://tei-c.org/release/xml/tei/custom/schema/relaxng/tei_all.rng" '
    'type="application/xml" schematypens="http://relaxng.org/ns/structure/1.0"?>',
)
# Kanripo's edition codes → the printed edition they transcribe.
_PRINTED = {"WYG": "四庫全書 文淵閣本", "SBCK": "四部叢刊本"}
# A website's provenance line: the edition in parentheses (四库全书本), the library's name.
_PROV_EDITION = re.compile(r"[(（]([^()（）]*本)[)）]")
_PROV_LIBRARY = re.compile(r"(\w{2,4}文[库庫])\s*$")
# The compilers of the 欽定三禮義疏: the 三禮館 the Qianlong emperor opened in 1736.
_YISHU_COMPILERS = "三禮館"
_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}:\d{2}))?")


def header(h, m: Meta, glyphs, translation_langs, text_lang: str = "lzh") -> None:
    """The teiHeader `h` of a document with metadata `m`: `glyphs` are the characters its body
    wrote in a <g>, `translation_langs` the languages of its translations, `text_lang` the
    language and script of its text (lzh-Hans, lzh-Hant)."""
    h.set(XML_LANG, "en")
    fd = _el(h, "fileDesc")
    ts = _el(fd, "titleStmt")
    _el(ts, "title", " ".join(x for x in (m.work or "未題名", m.juan or m.section) if x), type="main")
    if m.work:
        _el(ts, "title", m.work, type="work")
    if m.juan:
        _el(ts, "title", m.juan, type="juan")
    named = _responsible(ts, m)
    rs = _el(ts, "respStmt")
    _el(rs, "resp", "TEI encoding, converted from an e-text")
    _el(rs, "name", f"Zhushu {__version__}")
    ps = _el(fd, "publicationStmt")
    _el(ps, "authority", "Zhushu")     # TEI admits an idno only after an agency
    citation.idnos(ps, m)
    availability(ps)
    sd = _el(fd, "sourceDesc")
    printed(sd, m)
    etext(_el(sd, "bibl", type="etext"), m)
    ed = _el(h, "encodingDesc")
    app = _el(_el(ed, "appInfo"), "application", ident="zhushu", version=__version__)
    _el(app, "label", "Zhushu")
    _el(app, "desc", f"reader: {m.layout}")
    editorial(_el(ed, "editorialDecl"), m)
    citation.refs_decl(ed, m)
    prefixes(_el(ed, "listPrefixDef"))
    gaiji = m.edition.gaiji if m.edition is not None else []
    if glyphs or gaiji:
        char_decl(_el(ed, "charDecl"), gaiji, m.edition, glyphs)
    pd = _el(h, "profileDesc")
    lu = _el(pd, "langUsage")
    _el(lu, "language", "English (this header)", ident="en")
    _el(lu, "language", _LANG_NAMES.get(text_lang, _LANG_NAMES["lzh"]), ident=text_lang)
    if named and text_lang != "lzh-Hant":
        _el(lu, "language", _LANG_NAMES["lzh-Hant"] + " (names in the header)", ident="lzh-Hant")
    for lang in sorted(translation_langs):
        _el(lu, "language", f"Modern Chinese, {_SCRIPT[lang]} script (translation)", ident=lang)
    # the catalogue line the e-text prints, else the work's place in the catalogue (works.tsv)
    cats = siku_categories(m.classification or persons.siku_of(m.work or ""))
    if cats:
        _el(_el(pd, "textClass"), "catRef", scheme="cat:siku", target="cat:" + cats[-1])
    revisions(_el(h, "revisionDesc"), m)


_LANG_NAMES = {
    "lzh": "Literary Chinese (文言)",
    "lzh-Hans": "Literary Chinese (文言), simplified script",
    "lzh-Hant": "Literary Chinese (文言), traditional script",
}


def _responsible(ts, m: Meta) -> bool:
    """The author of the 注 and the commentators (疏, 音義) of the work, pointing at the
    registry; of a 義疏, its compilers. True when a name was written."""
    if m.layout == "yishu" or "义疏" in m.work or "義疏" in m.work:
        e = _el(ts, "editor", role="compiler")
        _el(e, "orgName", _YISHU_COMPILERS).set(XML_LANG, "lzh-Hant")
        return True
    zhu, shu = persons.commentators(m.work) if m.work else (None, None)
    named = False
    if zhu:
        _el(ts, "author", persons.get(zhu).name, ref=person(zhu)).set(XML_LANG, "lzh-Hant")
        named = True
    for pid in (shu, "ludeming" if "ludeming" in m.persons else None):
        if pid:
            e = _el(ts, "editor", persons.get(pid).name, role="commentator", ref=person(pid))
            e.set(XML_LANG, "lzh-Hant")
            named = True
    return named


def availability(parent) -> None:
    av = _el(parent, "availability", status="free")
    _el(av, "licence", LICENCE, target=LICENCE_URL)


def printed(sd, m: Meta) -> None:
    """The printed edition the e-text transcribes, as far as the source says: Kanripo's edition
    code (WYG: 四庫全書 文淵閣本), the edition a website names in its provenance line, or the
    sidecar's `edition`, `edition_editor`, `edition_date`. Nothing when none says."""
    side = m.sidecar
    e = m.edition
    edition = side.get("edition") or (_PRINTED.get(e.edition) if e is not None else None)
    if edition is None:
        found = next((x for p in m.provenance if (x := _PROV_EDITION.search(p))), None)
        edition = found.group(1) if found else None
    if not edition:
        return
    b = _el(sd, "bibl", type="printed")
    for tag, value in (("title", m.work or (e.title if e is not None else "")),
                       ("editor", side.get("edition_editor")), ("edition", edition),
                       ("date", side.get("edition_date"))):
        if value:
            _el(b, tag, value)


def etext(bibl, m: Meta) -> None:
    """The e-text converted: its title and 卷, who published it (Kanripo's repository, a
    website, the sidecar's `etext`, `etext_url`), the file and its checksum, Kanripo's edition
    and header lines, its licence when the sidecar states one (`etext_licence`), and a
    website's provenance line as printed."""
    if m.work:
        _el(bibl, "title", m.work)
    if m.juan:
        _el(bibl, "biblScope", m.juan, unit="juan")
    side, e = m.sidecar, m.edition
    library = next((x.group(1) for p in m.provenance if (x := _PROV_LIBRARY.search(p))), None)
    publisher = side.get("etext") or ("Kanseki Repository (漢籍リポジトリ)" if e is not None else library)
    if publisher:
        _el(bibl, "publisher", publisher)
    url = side.get("etext_url") or (f"https://github.com/kanripo/{e.work_id}" if e is not None else None)
    if url:
        _el(bibl, "ref", url, target=url)
    _el(bibl, "idno", m.source_name, type="filename")
    _el(bibl, "idno", m.sha256, type="sha256")
    if e is not None:
        kanripo_bibl(bibl, e)
    if side.get("etext_licence"):
        _el(_el(bibl, "availability"), "licence", side["etext_licence"])
    for line in m.provenance:
        _el(bibl, "note", line, type="provenance")


def editorial(ed, m: Meta) -> None:
    """What the encoding normalised and what it inferred, and how."""
    _el(_el(ed, "normalization"), "p",
        "The text is the e-text's, in Unicode NFC; no character is changed or converted between "
        "simplified and traditional forms. Characters that are not plain text (placeholders for "
        "a missing character, private-use and unassigned code points) are <g> declared in "
        "charDecl.")
    kanripo = m.edition is not None
    _el(_el(ed, "punctuation"), "p",
        "The punctuation is the e-text's own: none is added or removed. " + (
            "Of Kanripo's markup only the parentheses of small-character notes and the stars of "
            "headings are left out; ○ and □ are printed characters and kept."
            if kanripo else
            "Brackets and ○ that only separate the layers (注 in parentheses, 【】 around a 疏) "
            "are left out, as the conversion report lists."))
    _el(_el(ed, "segmentation"), "p",
        f"The layers (經, 注, 音義, 疏, 義疏 and their categories) are cut by the reader "
        f"'{m.layout}' from the layout of the e-text: its markers (注, 疏, [疏], 音義), its "
        "brackets, its lines and indentation; where none marks a cut, from the 疏's quotations of "
        "the 經 and 注 and the way a 注 opens (see the conversion report).")
    _el(_el(ed, "interpretation"), "p",
        "Inferred, not printed: each 疏 section's span (@target, @targetEnd) from its 出文 lemma "
        "(X至Y) matched against the 經 and 注; each 音義 gloss's head; the commentator of each "
        "layer (@resp) from the work (pipeline/data/works.tsv); the scholar a 義疏 quotation "
        "credits (X氏Y曰) from the registry of scholars (persons.xml).")


def prefixes(lp) -> None:
    """The prefixes of pointers into the corpus's shared files (psn:zhengxuan)."""
    for ident, target in SHARED_PREFIXES.items():
        pd = _el(lp, "prefixDef", ident=ident, matchPattern="([A-Za-z0-9._-]+)",
                 replacementPattern=f"{target}#$1")
        _el(pd, "p", f"{ident}:x points at the element with xml:id x in {target}, beside this file.")


def revisions(rd, m: Meta) -> None:
    """The conversion as a change, without a date (the same input gives the same bytes); a
    Kanripo e-text's own #+DATE as the change before it."""
    _el(rd, "change", f"Converted to TEI by Zhushu {__version__} (reader: {m.layout}) from "
                      f"{m.source_name}, sha256 {m.sha256}.", n=f"zhushu-{__version__}")
    date = _DATE.match(m.edition.date) if m.edition is not None and m.edition.date else None
    if date:
        when = date.group(1) + ("T" + date.group(2) if date.group(2) else "")
        _el(rd, "change", f"The e-text, as dated in its header ({m.edition.date}).", when=when)


def char_decl(cd, gaiji, edition, glyphs) -> None:
    """The charDecl `cd`: a <char> for each of Kanripo's gaiji the file uses, and one for each
    character the body wrote in a <g>, described by what it is. A placeholder claims no
    character (no mapping: ? or □ stands for a character the e-text could not give, it is not
    that character); a private-use one maps to itself as PUA."""
    for row in gaiji:
        gaiji_char(cd, row, edition)
    for ch in sorted(glyphs):
        c = _el(cd, "char", xml_id=glyph_id(ch))
        kind = glyph_kind(ch)
        name = _GLYPH_NAMES.get(kind) or (
            f"private use character U+{ord(ch):04X}" if kind == "private" else
            f"U+{stood_in(ch):04X} of the source, a control character XML cannot hold "
            f"(this private character stands for it)" if kind == "control" else
            f"U+{ord(ch):04X}, a code point Unicode {UNICODE_VERSION} does not assign")
        _el(c, "localProp", name="name", value=name)
        if kind == "placeholder":
            _el(c, "desc", f"the e-text prints {ch} (U+{ord(ch):04X}) where a character is missing; "
                           "which character is not known")
        elif kind in ("private", "control"):
            _el(c, "mapping", ch, type="PUA")


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
    """The persons the text names who are not in the registry (its own: pointed at as #id)."""
    lp = _el(so, "listPerson")
    for pid in declared_persons(meta):
        sur, given = meta.declared[pid]
        e = _el(lp, "person", xml_id=pid)
        pn = _el(e, "persName")
        pn.set(XML_LANG, "lzh")
        _el(pn, "surname", sur)
        if given:
            _el(pn, "forename", given)
        _el(e, "note", "declared from the text: not in the registry of scholars")


def declared_persons(meta: Meta) -> list[str]:
    return [pid for pid in meta.persons if pid in meta.declared]
