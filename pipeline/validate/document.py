"""The structure XSD 1.0 cannot state (schema/README.md), narrowed element by element: `check_document`
walks the document's top, checks the header, the facsimile and the persons here and each div of
the text with by_type.check_div. Only the top of the body is walked (divs, their blocks and
notes, the children of those), not every element. `validate.structure` reports the findings
with the schema's own, as ZS-SCHEMA-001.
"""
from __future__ import annotations

import re

from pipeline.chars import glyph_kind
from pipeline.constants import SHARED_PREFIXES, TEI, XML_ID, XML_LANG
from pipeline.validate.by_type import check_div

_NOTE, _PERSNAME, _DIV, _BACK = f"{TEI}note", f"{TEI}persName", f"{TEI}div", f"{TEI}back"
_GLYPH_ID = re.compile(r"zs-g[0-9A-F]{4,6}\Z")
_CHAR_ID = re.compile(r"KR[0-9]{4}\Z")                 # Kanripo's character table's ids
_KANRIPO_ID = re.compile(r"KR[0-9][a-z][0-9]{4}\Z")     # a Kanripo work (KR1d0053)
_SURFACE_ID = re.compile(r"f([0-9]{3,})-([0-9]+[a-z])\Z")   # f003-1a, the page 3-1a
_SHA256 = re.compile(r"[0-9a-f]{64}\Z")
_TITLES = re.compile(r"main(?: work)?(?: juan)?\Z")
_IDNOS = (["filename", "sha256"], ["filename", "sha256", "kanripo"])
_MAPPINGS = ([], ["standard"], ["PUA"], ["normalized"], ["standard", "normalized"], ["PUA", "normalized"])
_PRINTED_PARTS = frozenset(f"{TEI}{t}" for t in ("title", "editor", "edition", "date"))
_PREFIX_DEFS = [(ident, f"{name}#$1") for ident, name in SHARED_PREFIXES.items()]
_FRONT_KINDS = frozenset(("tiyao", "xu", "fanli", "xingshi", "mulu", "yuanmu", "yuzhi", "chuanshu", "front"))


def check_document(root) -> list[tuple]:
    """(element, message) for each element that fits the schema's union but not its variant."""
    out: list[tuple] = []
    if root.get(XML_LANG) != "lzh":
        out.append((root, "TEI/@xml:lang must be 'lzh'"))
    header = root.find(f"{TEI}teiHeader")
    if header is not None:
        _check_header(header, out)
    facsimile = root.find(f"{TEI}facsimile")
    if facsimile is not None:
        _surfaces(facsimile, out)
    for person in root.iterfind(f"{TEI}standOff/{TEI}listPerson/{TEI}person"):
        _person(person, out)
    for div in root.iterfind(f"{TEI}text/{TEI}front/{TEI}div"):
        check_div(div, out, False)
    body = root.find(f"{TEI}text/{TEI}body")
    if body is not None:
        back = body.getnext()
        back = back.findall(_DIV) if back is not None and back.tag == _BACK else []
        divs = body.findall(_DIV)
        begun = False                           # a 卷首 has begun the body
        for div in divs:
            kind = div.get("type")
            if kind in _FRONT_KINDS and not begun:
                out.append((div, f"div[@type={kind!r}] is front matter: in <front>, or in the body after a "
                            "卷首 (div[@type='juanshou'])"))
            begun = begun or kind == "juanshou"
            check_div(div, out, not back and div is divs[-1])
        for div in back:
            check_div(div, out, div is back[-1])
    return out


def _check_header(h, out: list) -> None:
    titles = h.findall(f"{TEI}fileDesc/{TEI}titleStmt/{TEI}title")
    if titles and not _TITLES.match(" ".join(t.get("type") or "" for t in titles)):
        out.append((titles[0], "titleStmt has a main title, then optional work and juan titles, each once"))
    for ed in h.iterfind(f"{TEI}fileDesc/{TEI}titleStmt/{TEI}editor"):
        org = ed.find(f"{TEI}orgName")
        if (ed.get("role") == "compiler") != (org is not None) or \
                (org is None) != bool(ed.get("ref") and ed.get(XML_LANG) and (ed.text or "").strip()) or \
                (org is not None and (ed.get("ref") or (ed.text or "").strip() or (org.tail or "").strip())):
            out.append((ed, "an editor is a commentator (role commentator: the name, @ref, @xml:lang) or the "
                        "compilers (role compiler: an orgName alone)"))
    bibls = h.findall(f"{TEI}fileDesc/{TEI}sourceDesc/{TEI}bibl")
    kinds = [b.get("type") for b in bibls]
    if bibls and kinds not in (["etext"], ["printed", "etext"]):
        out.append((bibls[0], "sourceDesc has the printed edition's bibl (optional), then the e-text's"))
    for b in bibls:
        if b.get("type") == "printed" and (b.find(f"{TEI}edition") is None or any(
                c.tag not in _PRINTED_PARTS for c in b)):
            out.append((b, "the printed edition's bibl has title, editor, edition (required) and date only"))
    bibl = h.find(f"{TEI}fileDesc/{TEI}sourceDesc/{TEI}bibl[@type='etext']")
    idnos = bibl.findall(f"{TEI}idno") if bibl is not None else []
    if len(idnos) >= 2:
        if [i.get("type") for i in idnos] not in _IDNOS:
            out.append((idnos[0], "the source is named by an idno of type filename, then one of type sha256 "
                        "(then, from Kanripo, one of type kanripo)"))
        elif not _SHA256.match(idnos[1].text or ""):
            out.append((idnos[1], "idno[@type='sha256'] is 64 lower-case hex digits"))
        elif len(idnos) == 3 and not _KANRIPO_ID.match(idnos[2].text or ""):
            out.append((idnos[2], "idno[@type='kanripo'] is a Kanripo id (KR1d0053)"))
    if bibl is not None and len(bibl) > len(idnos) + 2:          # a Kanripo source's header lines
        _bibl_notes(bibl, out)
    defs = h.findall(f"{TEI}encodingDesc/{TEI}listPrefixDef/{TEI}prefixDef")
    if defs and [(d.get("ident"), d.get("replacementPattern")) for d in defs] != _PREFIX_DEFS:
        out.append((defs[0], "listPrefixDef declares psn (persons.xml#$1), then cat (categories.xml#$1)"))
    ours = False                                # Kanripo's characters first, then ours
    for char in h.iterfind(f"{TEI}encodingDesc/{TEI}charDecl/{TEI}char"):
        prop = char.find(f"{TEI}localProp")
        if prop is not None and prop.get("name") == "name":
            ours = True
            _own_char(char, out)
        elif ours:
            out.append((char, "Kanripo's characters come before the characters of the e-text"))
        else:
            _char(char, out)


def _bibl_notes(bibl, out: list) -> None:
    """A Kanripo file's header lines: its properties in one note, then a note per comment line,
    numbered by its line."""
    seen_comment = False
    for note in bibl.iterchildren(_NOTE):
        if note.get("type") == "provenance":
            continue
        if note.get("type") == "properties":
            if seen_comment or note.get("n") is not None or not note.text:
                out.append((note, "note[@type='properties'] comes once, before the comments, without @n, "
                            "not empty"))
            seen_comment = True                 # (a second one is out of place too)
        elif note.get("n") is None:
            out.append((note, "note[@type='comment'] names its line (@n 'line 12')"))
        else:
            seen_comment = True


def _char(char, out: list) -> None:
    """A character from Kanripo's table: its id (KR0427) as xml:id and as its property, then its
    form and its normal form, one mapping each at most."""
    cid = char.get(XML_ID) or ""
    if not _CHAR_ID.match(cid):
        out.append((char, "char/@xml:id is a Kanripo character id, KR and 4 digits"))
    prop = char.find(f"{TEI}localProp")
    if prop is not None and prop.get("value") != cid:
        out.append((prop, "char/localProp[@name='kanripo'] gives the char's own id"))
    kinds = [m.get("type") for m in char.iterchildren(f"{TEI}mapping")]
    if kinds not in _MAPPINGS:
        out.append((char, "a char maps its form (standard or PUA), then its normal form (normalized), "
                    "each once at most"))


def _own_char(char, out: list) -> None:
    """A character the writer put in a <g>: its id (zs-g and its code point), what it is, then
    a desc for a placeholder (no mapping: it claims no character), a PUA mapping for a
    private-use character or a control character's stand-in, nothing else."""
    cid = char.get(XML_ID) or ""
    if not _GLYPH_ID.match(cid) or int(cid[4:], 16) > 0x10FFFF:
        out.append((char, "char/@xml:id is zs-g and a code point in 4 to 6 upper-case hex digits"))
        return
    ch = chr(int(cid[4:], 16))
    kind = glyph_kind(ch)
    want = ([f"{TEI}desc"] if kind == "placeholder" else
            [f"{TEI}mapping"] if kind in ("private", "control") else [])
    rest = [c for c in char.iterchildren("*")][1:]
    if [c.tag for c in rest] != want or (want and kind != "placeholder" and
                                         (rest[0].get("type") != "PUA" or rest[0].text != ch)):
        out.append((char, "a placeholder's char has a desc and no mapping; a private-use one a "
                    "mapping of type PUA to itself; any other none"))


def _surfaces(facsimile, out: list) -> None:
    for s in facsimile.iterchildren(f"{TEI}surface"):
        m = _SURFACE_ID.match(s.get(XML_ID) or "")
        if m is None or s.get("n") != f"{int(m.group(1))}-{m.group(2)}":
            out.append((s, "surface/@xml:id is f and the page as Kanripo names it (f003-1a), "
                        "@n the page (3-1a)"))


def _person(person, out: list) -> None:
    names = person.findall(_PERSNAME)
    first = names[0] if names else None
    if first is not None and (first.get(XML_LANG) is None or first.get("type") is not None
                              or not len(first) or (first.text or "").strip()
                              or any((c.tail or "").strip() for c in first)):
        out.append((first, "a person's first persName has @xml:lang and the name parts (surname …) only"))
    elif first is not None and first[0].tag != f"{TEI}surname" and len(names) > 1:
        out.append((first, "only a person declared from the text may be named without a surname"))
    if len(names) > 1:
        full = names[1]
        if full.get("type") != "full" or full.get(XML_LANG) is not None or len(full) or not full.text:
            out.append((full, "a person's second persName is the full name as text, @type='full'"))
    else:
        note = person.find(f"{TEI}note")
        if note is not None and not note.text:
            out.append((note, "a person declared from the text has a note saying so"))
