"""The rules a schema cannot state. Each has a stable id, documented in docs/rules.md.

`check(tree)` yields (element, level, rule id, message). One pass builds the id index; each
rule then looks only at the elements it concerns.

`variants(root)` is the part of the structure that XSD 1.0 cannot state (schema/README.md):
validate.structure reports its findings with the schema's, as ZS-SCHEMA-001.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Iterator

from lxml import etree

from .anchoring import ABBREVIATED, agrees, matches, squeeze
from .chars import PUNCTUATION, WHITESPACE

TEI = "{http://www.tei-c.org/ns/1.0}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
POINTERS = ("target", "targetEnd", "corresp", "ref", "resp")
_POINTER_SET = frozenset(POINTERS)

RULES = {
    "ZS-ID-001": "xml:id values are unique",
    "ZS-PTR-001": "every pointer (@target, @targetEnd, @corresp, @ref, @resp) resolves to an xml:id in the file",
    "ZS-TYPE-001": "note @type and @subtype come from the taxonomy declared in the header",
    "ZS-SHU-001": "a 疏 lemma or sub-lemma agrees with the span it points at",
    "ZS-SHU-002": "a 疏 that quotes a lemma points at a span (unless marked detached)",
    "ZS-YINYI-001": "the head of a 音義 gloss occurs in the text it points at",
    "ZS-TEXT-001": "text is in Unicode NFC",
    "ZS-TEXT-002": "text has no U+FFFD replacement character",
    "ZS-ID-002": "xml:ids in the text follow the documented scheme (d1, u12, u12.z1, u12.s1.2, t3, fw1 …)",
    "ZS-CHAR-001": "Private Use and unassigned characters appear only inside a <g> whose @ref names a glyph declared in charDecl",
    "ZS-HDR-001": "the header names the work (a main title) and the source (file name and SHA-256); a missing 卷 is a warning",
}

# The ids our writer gives the body (docs/design.md): divs, heads and closings; units and their
# pieces, anchors, small notes, 疏 sections and sub-lemmas, 義疏 blocks and quotations;
# translations; furniture.
_ID_SCHEME = re.compile(r"^(?:d\d+(?:\.h|\.t\d+)?"
                        r"|u\d+(?:\.(?:[jzyqmna]\d+|n\d+|s\d+(?:\.\d+)?|c\d+(?:\.[qn]\d+)?))?"
                        r"|t\d+(?:\.n\d+)?|fw\d+)$")
_ID_SCHEME_ALL = re.compile(f"(?:(?:{_ID_SCHEME.pattern[1:-1]})(?:\n|$))*", re.M)
_SUSPECT = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff\U00020000-\U0003ffff]")


def check(tree) -> Iterator[tuple]:
    root = tree.getroot()
    body = root.find(f"{TEI}text/{TEI}body")
    w = _Walk(root, body)
    index = dict(w.ids)
    if len(index) != len(w.ids):
        # the one report of a duplicate (the schema's xml:id is an NCName, not an xs:ID)
        first: dict[str, object] = {}
        for v, el in w.ids:
            if v not in first:
                first[v] = el
                continue
            line = first[v].sourceline
            yield el, "error", "ZS-ID-001", f"duplicate xml:id {v!r}" + (f" (first on line {line})" if line else "")
    yield from _pointers(root, w.pointers, index.keys())
    yield from _types(root, w.note_values)
    if body is None:
        return
    whole = _TEXT(body)
    yield from _text(body, whole)
    yield from _id_scheme(w.body_ids)
    yield from _chars(root, body, whole)
    yield from _header(root)
    # thousands of notes per MB, nearly all in agreement: a function call each, no generator
    for note, subtype, target, target_end in w.shu_notes:
        finding = _shu(note, subtype, target, target_end, index)
        if finding is not None:
            yield finding
    texts: dict[str, list] = {}
    for note, target in w.glosses:
        finding = _yinyi(note, target, index, texts)
        if finding is not None:
            yield finding


class _Walk:
    """What the rules need, gathered in one walk over the elements (several XPaths over the
    same tree cost more): ids with their elements (the body's apart, for the scheme), pointer
    values by attribute, the note types used, and the 疏 and 音義 notes of the body with the
    attributes the rules read (so that no note is asked for them again)."""

    def __init__(self, root, body):
        self.ids: list[tuple[str, object]] = []
        self.body_ids: list[tuple[str, object]] = []
        self.pointers: dict[str, set[str]] = {a: set() for a in POINTERS}
        self.note_kinds: set[tuple] = set()     # (type, subtype) pairs of the text's notes
        self.shu_notes: list[tuple] = []        # (note, subtype, target, targetEnd)
        self.glosses: list[tuple] = []          # (note, target)
        for top in root.iterchildren("*"):
            parts = top.iterchildren("*") if top.tag == _TEXT_TAG else (top,)
            for part in parts:
                self._walk(part, part is body, top.tag == _TEXT_TAG)
        for el in (root, root.find(_TEXT_TAG)):      # the two elements not walked
            for k, v in (el.items() if el is not None else ()):
                if k == XML_ID:
                    self.ids.append((v, el))
                elif k in self.pointers:
                    self.pointers[k].add(v)
        self.ids += self.body_ids

    def _walk(self, top, in_body: bool, in_text: bool) -> None:
        # The hot loop of validation (every element): attributes are read once, as a list, and
        # most elements cost one C call and a few comparisons; notes are handled inline (a
        # method call each cost more than the rest of their handling).
        add_id = (self.body_ids if in_body else self.ids).append
        pointers = self.pointers
        add_kind = self.note_kinds.add
        add_shu, add_gloss = self.shu_notes.append, self.glosses.append
        for el in top.iter("*"):
            items = el.items()
            if not items:
                continue
            for k, v in items:
                if k == XML_ID:
                    add_id((v, el))
                elif k in _POINTER_SET:
                    pointers[k].add(v)
            if in_text and el.tag == _NOTE:
                a = dict(items)
                kind, subtype = a.get("type"), a.get("subtype")
                add_kind((kind, subtype))
                if not in_body:
                    continue
                if kind == "shu":
                    if "place" not in a:
                        add_shu((el, subtype, a.get("target"), a.get("targetEnd")))
                elif kind == "yinyi" and "target" in a:
                    add_gloss((el, a["target"]))

    @property
    def note_values(self) -> set[tuple[str, str]]:
        """("type", value) and ("subtype", value) of the notes in the text."""
        return {("type", k) for k, _ in self.note_kinds if k is not None} | \
               {("subtype", s) for _, s in self.note_kinds if s is not None}


_TEXT_TAG = f"{TEI}text"
_NOTE = f"{TEI}note"
_TEXT = etree.XPath("string()")


def _pointers(root, found: dict[str, set[str]], ids) -> Iterator[tuple]:
    for attr, vals in found.items():
        simple = {v[1:] for v in vals if v[:1] == "#" and " " not in v}
        bad = {v for v in vals if v[:1] != "#" or " " in v} if len(simple) != len(vals) else set()
        bad = {v for v in bad if not all(r.startswith("#") and r[1:] in ids for r in v.split())}
        bad |= {"#" + x for x in simple.difference(ids)}
        if not bad:
            continue
        for el in root.iterfind(f".//*[@{attr}]"):
            v = el.get(attr)
            if v in bad:
                for ref in v.split():
                    if not ref.startswith("#") or ref[1:] not in ids:
                        yield (el, "error", "ZS-PTR-001",
                               f"@{attr} {ref!r} does not resolve to an xml:id in this file")


def _types(root, used: set[tuple[str, str]]) -> Iterator[tuple]:
    declared = {c.get(XML_ID) for c in root.iterfind(f"{TEI}teiHeader//{TEI}taxonomy//{TEI}category")}
    if all(v in declared for _, v in used):
        return
    for el in root.iterfind(f"{TEI}text//{TEI}note"):
        for attr in ("type", "subtype"):
            v = el.get(attr)
            if v is not None and v not in declared:
                yield el, "error", "ZS-TYPE-001", f"note @{attr}={v!r} is not a category of the declared taxonomy"


def _text(body, whole: str) -> Iterator[tuple]:
    # One check over the whole text first; elements are visited only when it fails.
    bad_char = "\ufffd" in whole
    bad_nfc = not unicodedata.is_normalized("NFC", whole)
    if not (bad_char or bad_nfc):
        return
    for el in body.iter():
        for s in (el.text, el.tail):
            if not s:
                continue
            if bad_char and "\ufffd" in s:
                yield el, "error", "ZS-TEXT-002", "text contains U+FFFD (a character lost in decoding)"
            if bad_nfc and not unicodedata.is_normalized("NFC", s):
                yield el, "error", "ZS-TEXT-001", "text is not in Unicode NFC"


def _id_scheme(body_ids) -> Iterator[tuple]:
    ids = [v for v, _ in body_ids]
    if _ID_SCHEME_ALL.fullmatch("\n".join(ids)):   # one C call for the usual, clean case
        return
    for v, el in body_ids:
        if not _ID_SCHEME.match(v):
            yield (el, "error", "ZS-ID-002",
                   f"xml:id {v!r} is not in the documented scheme (see docs/design.md)")


def _unassigned(ch: str) -> bool:
    return unicodedata.category(ch) in ("Co", "Cn")


def _chars(root, body, whole: str) -> Iterator[tuple]:
    if not any(_unassigned(m.group()) for m in _SUSPECT.finditer(whole)):
        return
    glyphs = {g.get(XML_ID) for g in root.iterfind(f"{TEI}teiHeader//{TEI}charDecl/*")}
    for el in body.iter():
        declared = el.tag == f"{TEI}g" and (el.get("ref") or "")[1:] in glyphs
        for s, owner_ok in ((el.text, declared), (el.tail, False)):
            if not s:
                continue
            for m in _SUSPECT.finditer(s):
                if _unassigned(m.group()) and not owner_ok:
                    yield (el, "error", "ZS-CHAR-001", f"U+{ord(m.group()):04X} is a Private Use or "
                           "unassigned character outside a declared <g>")
                    break


def _header(root) -> Iterator[tuple]:
    h = root.find(f"{TEI}teiHeader")
    if h is None:
        return                                  # the schema says so
    title = "".join(h.xpath("string(.//t:titleStmt/t:title[@type='main'])", namespaces={"t": TEI[1:-1]}))
    if not title.strip():
        yield h, "error", "ZS-HDR-001", "the header has no main title (titleStmt/title[@type='main'])"
    src = {i.get("type"): (i.text or "").strip() for i in h.iterfind(f".//{TEI}sourceDesc//{TEI}idno")}
    if not src.get("filename") or not src.get("sha256"):
        yield h, "error", "ZS-HDR-001", "the header does not name its source (sourceDesc idno filename and sha256)"
    if h.find(f".//{TEI}titleStmt/{TEI}title[@type='juan']") is None:
        yield h, "warning", "ZS-HDR-001", "the header names no 卷 (titleStmt/title[@type='juan'])"


# -- spans ---------------------------------------------------------------------------------------
ANCHOR = f"{TEI}anchor"


def _piece_layer(piece) -> str | None:
    """The layer of a piece of a unit: a seg is 經, an inline note its @type."""
    tag = piece.tag
    if tag == _SEG:
        return "jing"
    if tag == _NOTE:
        return piece.get("type")
    return None


_SEG = f"{TEI}seg"


def _text_of(el) -> str:
    """All the text inside el: its .text alone when it has no children (most quotes and
    pieces), without building an iterator."""
    return (el.text or "") if not len(el) else "".join(el.itertext())


def _inner_text(sib) -> str:
    """The text a sibling inside a piece adds before its tail: none for an anchor, nor for a
    comment (whose content is no text, and which itertext refuses)."""
    return "" if sib.tag == ANCHOR or not isinstance(sib.tag, str) else "".join(sib.itertext())


def _after(point, stop=None) -> str:
    """The text of a piece after an anchor in it (up to the anchor `stop`, if given)."""
    if stop is not None and point.getnext() is stop:    # the usual sub-lemma: two anchors
        return point.tail or ""                         # around plain text
    out = [point.tail or ""]
    for sib in point.itersiblings():
        if sib is stop:
            break
        out.append(_inner_text(sib))
        out.append(sib.tail or "")
    return "".join(out)


def _before(point) -> str:
    """The text of a piece before an anchor in it."""
    piece = point.getparent()
    out = [piece.text or ""]
    for sib in piece:
        if sib is point:
            break
        out.append(_inner_text(sib))
        out.append(sib.tail or "")
    return "".join(out)


def _pieces_from(first):
    """The pieces of the units from `first` on, in document order."""
    yield first
    yield from first.itersiblings()
    ab = first.getparent().getnext()
    while ab is not None:
        if ab.tag == f"{TEI}ab":
            yield from ab
        ab = ab.getnext()


def span_text(start, end, layer: str) -> str:
    """The text of `layer` from the start of `start` to the end of `end` (pieces or anchors in
    them), piece by piece in document order."""
    if start is end and start.tag != ANCHOR:     # the usual span: one whole piece
        return _text_of(start) if _piece_layer(start) == layer else ""
    p0 = start.getparent() if start.tag == ANCHOR else start
    p1 = end.getparent() if end.tag == ANCHOR else end
    out: list[str] = []
    for piece in _pieces_from(p0):
        if _piece_layer(piece) == layer:
            if piece is p0 and start.tag == ANCHOR:
                text = _after(start, end if piece is p1 and end.tag == ANCHOR else None)
            elif piece is p1 and end.tag == ANCHOR:
                text = _before(end)
            else:
                text = "".join(piece.itertext())
            out.append(text)
        if piece is p1:
            break
    return "".join(out)


_P, _MENTIONED, _TERM, _LABEL = f"{TEI}p", f"{TEI}mentioned", f"{TEI}term", f"{TEI}label"


def _shu(note, subtype, target, target_end, ids) -> tuple | None:
    """A 疏 section (quotes in its chuwen label) or a sub-lemma (quotes opening its paragraph)
    agrees with the span it points at (@target … @targetEnd, read by the walk): None, or the
    finding."""
    sub = subtype == "sublemma"
    label = _quoting(note, sub)
    if label is None:
        return None
    if target is None:
        if subtype != "detached" and not sub:
            return note, "warning", "ZS-SHU-002", "疏 quotes a lemma but points at no span"
        if sub:
            return note, "error", "ZS-SHU-002", "sub-lemma points at no span"
        return None
    start = ids.get(target[1:])
    end = start if target_end is None else ids.get(target_end[1:])
    if start is None or end is None:
        return None                             # reported by ZS-PTR-001
    # the children loop, not iterchildren(tag): cheaper for the one or two children a label has
    quotes = [_text_of(m) for m in label if m.tag == _MENTIONED]
    if not quotes:
        return None
    first = "jing"
    if not sub and (label.text or "").lstrip().startswith(("注", "註")):
        first = "zhu"
    other = "zhu" if first == "jing" else "jing"
    # Most sub-lemmas quote the text between two adjacent anchors of one piece: that text is
    # the first anchor's tail, and only the piece's own layer can match (as span_text finds).
    if start is not end and start.getnext() is end and start.tag == ANCHOR and end.tag == ANCHOR:
        layer = _piece_layer(start.getparent())
        text = start.tail
        if (layer == first or layer == other) and text and (
                _verbatim(text, quotes) or agrees(text, quotes)):
            return None
    else:
        for layer in (first, other):
            text = span_text(start, end, layer)
            if text and (_verbatim(text, quotes) or agrees(text, quotes)):
                return None
    text = span_text(start, end, first) or span_text(start, end, other)
    what = "sub-lemma" if sub else "lemma"
    return note, "error", "ZS-SHU-001", (
        f"{what} “{'”至“'.join(quotes)}” does not match its span ({text[:8]!r}…{text[-8:]!r})")


# A quote the text repeats verbatim agrees with it (anchoring.agrees), unless squeezing could
# leave it ending in an abbreviation (以下, 云云) that agrees drops: so its last character must
# be neither punctuation nor the end of one. Four in five sub-lemmas pass this way, without
# being squeezed.
_NOT_LAST = PUNCTUATION | WHITESPACE | {a[-1] for a in ABBREVIATED}


def _verbatim(text: str, quotes: list[str]) -> bool:
    return len(quotes) == 1 and text == quotes[0] and text[-1] not in _NOT_LAST


def _quoting(note, sub: bool):
    """Where a 疏 note's quotes are: a sub-lemma's paragraph, a section's chuwen label (both
    among its first children: the schema puts them there)."""
    for c in note:
        tag = c.tag
        if sub and tag == _P:
            return c
        if not sub and tag == _LABEL and c.get("type") == "chuwen":
            return c
    return None


def _yinyi(note, target: str, ids, texts: dict[str, list[str]]) -> tuple | None:
    # the head is the note's first term, usually its first child: a loop over the children
    # costs less than find(), which goes through ElementPath
    term = next((c for c in note if c.tag == _TERM), None)
    if term is None or not target:
        return None
    own = texts.get(target)                     # [text, squeezed text], for the many glosses
    if own is None:                             # on one piece
        own_el = ids.get(target[1:])
        if own_el is None:
            return None
        own = texts[target] = [_text_of(own_el), None]
    head = _text_of(term)
    # a head without punctuation that the text holds as it stands is found by matches too
    # (squeezing both keeps that run whole): the text is squeezed only when it is not
    if head in own[0] and squeeze(head) == head:
        return None
    if own[1] is None:
        own[1] = squeeze(own[0])
    if not matches(own[1], head, "anywhere", squeezed=True):
        return note, "warning", "ZS-YINYI-001", f"音義 head “{head}” does not occur in {target}"
    return None


# -- variants: what XSD 1.0 cannot say -----------------------------------------------------------
# schema/zhushu.xsd gives an element whose attributes and content depend on its @type (or on its
# place among elements of the same name) the union of its variants; these checks narrow each
# element to its variant. The schema has already checked the union: names and values of the
# attributes, names and order of the children, so each check here only forbids what its variant
# lacks. Only the top of the body is walked (divs, their blocks and notes, the children of
# those), not every element. Findings are structural: ZS-SCHEMA-001, like the schema's own.

_AB, _FW, _DIV, _G = f"{TEI}ab", f"{TEI}fw", f"{TEI}div", f"{TEI}g"
_PERSNAME = f"{TEI}persName"
_SHU_SUBTYPES = (None, "detached")
_YISHU_SUBTYPES = frozenset(("zhengyi", "bianzheng", "tonglun", "yulun", "cunyi", "cunyi2", "zonglun",
                             "detached"))
# the names the layers use, which a later layer's note may not take as its @type
_RESERVED = frozenset(("jing", "zhu", "yinyi", "shu", "que", "detached", "chuwen", "mark", "sublemma",
                       "textual", "an", "xiaozhu", "quoted", "yishu", "zhengyi", "bianzheng", "tonglun",
                       "yulun", "cunyi", "cunyi2", "zonglun", "copy", "category"))
_PLAIN_SMALL = frozenset(("textual", "an", "xiaozhu", "shu"))
_CIT, _QUOTE, _GAP, _CORRESP = f"{TEI}cit", f"{TEI}quote", f"{TEI}gap", "corresp"
_NOT_ON_SMALL = ("target", _CORRESP, XML_LANG)          # what a small or plain note may not have
_NOT_ON_YISHU = ("resp", "targetEnd", _CORRESP, XML_LANG)
_NOT_IN_SMALL_GLOSS = frozenset((ANCHOR, _CIT, _QUOTE))
_NOT_IN_SHU = frozenset((_G, ANCHOR, _TERM, _MENTIONED))
_NOT_IN_QUOTATION = frozenset((ANCHOR, _CIT, _QUOTE))
_P_YISHU_KEYS, _P_YISHU_KEYS_RESP = [XML_ID], [XML_ID, "resp"]
_TRANSLATION_LANGS = ("zh-Hans", "zh-Hant")
_GLYPH_ID = re.compile(r"zs-g[0-9A-F]{4,6}\Z")
_SHA256 = re.compile(r"[0-9a-f]{64}\Z")
_TITLES = re.compile(r"main(?: work)?(?: juan)?\Z")


def _name(el) -> str:
    """note[@type='shu'], for messages."""
    kind = el.get("type")
    return el.tag.rsplit("}", 1)[-1] + (f"[@type={kind!r}]" if kind is not None else "")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _attr_name(a: str) -> str:
    return "xml:" + _local(a) if a.startswith("{") else a


# These checks visit a few thousand elements per MB, so each is written for the common, valid
# case: a handful of attribute reads and a loop over the children in plain Python (lxml's
# multi-tag filters cost more to set up than the loop), findings appended to `out`.

def variants(root) -> list[tuple]:
    """(element, message) for each element that fits the schema's union but not its variant."""
    out: list[tuple] = []
    if root.get(XML_LANG) != "lzh":
        out.append((root, "TEI/@xml:lang must be 'lzh'"))
    header = root.find(f"{TEI}teiHeader")
    if header is not None:
        _header_variants(header, out)
    for person in root.iterfind(f"{TEI}standOff/{TEI}listPerson/{TEI}person"):
        _person(person, out)
    body = root.find(f"{TEI}text/{TEI}body")
    if body is not None:
        for div in body.iterchildren(_DIV):
            _div(div, out)
    return out


def _header_variants(h, out: list) -> None:
    titles = h.findall(f"{TEI}fileDesc/{TEI}titleStmt/{TEI}title")
    if titles and not _TITLES.match(" ".join(t.get("type") or "" for t in titles)):
        out.append((titles[0], "titleStmt has a main title, then optional work and juan titles, each once"))
    idnos = h.findall(f"{TEI}fileDesc/{TEI}sourceDesc/{TEI}bibl/{TEI}idno")
    if len(idnos) == 2:
        if [i.get("type") for i in idnos] != ["filename", "sha256"]:
            out.append((idnos[0], "the source is named by an idno of type filename, then one of type sha256"))
        elif not _SHA256.match(idnos[1].text or ""):
            out.append((idnos[1], "idno[@type='sha256'] is 64 lower-case hex digits"))
    for i, tax in enumerate(h.iterfind(f"{TEI}encodingDesc/{TEI}classDecl/{TEI}taxonomy")):
        want, content = (("zs-types", f"{TEI}category"), ("siku", f"{TEI}desc"))[min(i, 1)]
        first = next(tax.iterchildren("*"), None)
        if tax.get(XML_ID) != want or first is None or first.tag != content:
            out.append((tax, "the first taxonomy is zs-types, with categories; the second siku, with a desc"))
    for glyph in h.iterfind(f"{TEI}encodingDesc/{TEI}charDecl/{TEI}glyph"):
        if not _GLYPH_ID.match(glyph.get(XML_ID) or ""):
            out.append((glyph, "glyph/@xml:id is zs-g and 4 to 6 upper-case hex digits"))


def _person(person, out: list) -> None:
    names = person.findall(_PERSNAME)
    first = names[0] if names else None
    if first is not None and (first.get(XML_LANG) is None or first.get("type") is not None
                              or first.find(f"{TEI}surname") is None or (first.text or "").strip()
                              or any((c.tail or "").strip() for c in first)):
        out.append((first, "a person's first persName has @xml:lang and the name parts (surname …) only"))
    if len(names) > 1:
        full = names[1]
        if full.get("type") != "full" or full.get(XML_LANG) is not None or len(full) or not full.text:
            out.append((full, "a person's second persName is the full name as text, @type='full'"))
    else:
        note = person.find(f"{TEI}note")
        if note is not None and not note.text:
            out.append((note, "a person declared from the text has a note saying so"))


def _div(div, out: list) -> None:
    for el in div.iterchildren("*"):
        tag = el.tag
        if tag == _AB:
            _ab(el, out)
        elif tag == _NOTE:
            _note_div(el, out)
        elif tag == _DIV:
            _div(el, out)
        elif tag == _FW and (el.get("subtype") is None) != (el.get("sameAs") is None):
            out.append((el, "fw[@subtype='repeat'] and @sameAs go together"))


def _ab(ab, out: list) -> None:
    if ab.get("type") == "jing":
        if ab.get("subtype") is not None:
            out.append((ab, "ab[@type='jing'] may not have @subtype"))
        for c in ab:
            tag = c.tag
            if tag == _NOTE:
                _note_inline(c, False, out)
            elif tag == _G:
                out.append((c, "g is not allowed directly in ab[@type='jing'] (only in its seg and notes)"))
            elif tag == _LABEL and c.get(XML_ID) is None:
                out.append((c, "a label in ab[@type='jing'] has an xml:id"))
        return
    if ab.get(XML_LANG) not in _TRANSLATION_LANGS:
        out.append((ab, "ab[@type='translation'] has @xml:lang 'zh-Hans' or 'zh-Hant'"))
    for i, c in enumerate(ab.iterchildren("*")):
        tag = c.tag
        if tag == _NOTE:
            _note_inline(c, True, out)
        elif tag == _LABEL:
            if i or (ab.text or "").strip() or c.get(XML_ID) is not None:
                out.append((c, "ab[@type='translation'] may open with a label, without an xml:id"))
        elif tag == _SEG or tag == _GAP:
            out.append((c, f"{_local(tag)} is not allowed in ab[@type='translation']"))


def _note_inline(note, small: bool, out: list) -> None:
    """A note inside a 經 passage (small=False), or inside a translation or a 義疏 quotation
    (small: a 音義 note or a plain one)."""
    kind = note.get("type")
    if kind == "zhu" or kind == "yinyi":
        if small and kind == "zhu":
            out.append((note, "a 注 note is not allowed here (only small notes)"))
        elif note.get("subtype") is not None:
            out.append((note, f"{_name(note)} may not have @subtype"))
        elif small:
            _plain_attributes(note, out)
            for c in note:
                if c.tag in _NOT_IN_SMALL_GLOSS:
                    out.append((c, f"{_local(c.tag)} is not allowed in a small {_name(note)}"))
        return
    if (note.get("subtype") is not None) != (kind == "shu"):
        out.append((note, "only a quoted 疏, note[@type='shu'][@subtype='quoted'], has a @subtype"))
    _plain_attributes(note, out)
    for c in note:
        if c.tag != _G and isinstance(c.tag, str):         # (a comment is no element)
            out.append((c, f"{_local(c.tag)} is not allowed in {_name(note)} (text and g only)"))


def _plain_attributes(note, out: list) -> None:
    for a in _NOT_ON_SMALL:
        if note.get(a) is not None:
            out.append((note, f"a small {_name(note)} may not have @{_attr_name(a)}"))


def _note_div(note, out: list) -> None:
    kind = note.get("type")
    if kind == "shu":
        _shu_variant(note, out)
    elif kind == "yishu" or kind == "an":
        _yishu_variant(note, kind, out)
    else:                                       # forward: a later layer's note
        if kind in _RESERVED:
            out.append((note, f"note[@type={kind!r}] is not allowed between the blocks"))
        if note.get("prev") is not None:
            out.append((note, f"{_name(note)} may not have @prev"))
        for c in note:
            tag = c.tag
            if tag == _P:
                _plain_p(c, note, out)
            elif tag == _LABEL or tag == _NOTE:
                out.append((c, f"{_local(tag)} is not allowed in {_name(note)}"))


def _shu_variant(note, out: list) -> None:
    if note.get("subtype") not in _SHU_SUBTYPES:
        out.append((note, "note[@type='shu'] between the blocks has no @subtype, or 'detached'"))
    if note.get(XML_ID) is None:
        out.append((note, "note[@type='shu'] has an xml:id"))
    if note.get("prev") is not None:
        out.append((note, "note[@type='shu'] may not have @prev"))
    text = bool((note.text or "").strip())
    labels = []
    for c in note:
        tag = c.tag
        if tag == _P:
            _plain_p(c, note, out)
        elif tag == _LABEL:
            labels.append(c.get("type"))
            if labels[-1] == "mark" and c.find(_MENTIONED) is not None:
                out.append((c, "label[@type='mark'] holds text and g only"))
        elif tag in _NOT_IN_SHU:
            out.append((c, f"{_local(tag)} is not allowed in note[@type='shu']"))
        if c.tail and not text:
            text = bool(c.tail.strip())
    if text:
        out.append((note, "note[@type='shu'] may not hold text of its own"))
    if labels and labels not in (["mark"], ["chuwen"], ["mark", "chuwen"]):
        out.append((note, "a 疏 opens with an optional label of type mark, then one of type chuwen"))


def _plain_p(p, note, out: list) -> None:
    """A paragraph of a 疏 or of a later layer's note: as a block-level p."""
    if p.get("resp") is not None:
        out.append((p, f"p in {_name(note)} may not have @resp"))
    for c in p:
        if c.tag == _PERSNAME or c.tag == _NOTE:
            out.append((c, f"{_local(c.tag)} is not allowed in a p of {_name(note)}"))


def _yishu_variant(note, kind: str, out: list) -> None:
    sub = note.get("subtype")
    if kind == "yishu" and sub not in _YISHU_SUBTYPES:
        out.append((note, f"note[@type='yishu'] has a @subtype of {', '.join(sorted(_YISHU_SUBTYPES))}"))
    elif kind == "an" and sub is not None:
        out.append((note, "note[@type='an'] may not have @subtype"))
    if note.get(XML_ID) is None:
        out.append((note, f"{_name(note)} has an xml:id"))
    for a in _NOT_ON_YISHU:
        if note.get(a) is not None:
            out.append((note, f"{_name(note)} may not have @{_attr_name(a)}"))
    text = bool((note.text or "").strip())
    if not len(note):
        out.append((note, f"{_name(note)} holds a label of type category, or quotations, or both"))
    first = True                                # no element before (comments aside)
    for c in note:
        tag = c.tag
        if tag == _P:
            keys = c.keys()
            if keys != _P_YISHU_KEYS and keys != _P_YISHU_KEYS_RESP:   # the usual two, at once
                if XML_ID not in keys:
                    out.append((c, "a quotation of a 義疏 block has an xml:id"))
                for a in (_CORRESP, XML_LANG):
                    if a in keys:
                        out.append((c, f"a quotation of a 義疏 block may not have @{_attr_name(a)}"))
            for cc in c:
                if cc.tag == _NOTE:
                    _note_inline(cc, True, out)
                elif cc.tag in _NOT_IN_QUOTATION:
                    out.append((cc, f"{_local(cc.tag)} is not allowed in a quotation of a 義疏 block"))
                elif cc.tag == _PERSNAME and (c.text or "").strip():     # the schema puts it first
                    out.append((cc, "a quotation of a 義疏 block opens with who said it (persName)"))
        elif tag == _LABEL:
            if c.get("type") != "category" or c.find(_MENTIONED) is not None or not first:
                out.append((c, f"{_name(note)} opens with one label, of type category, of text and g"))
        elif isinstance(tag, str):
            out.append((c, f"{_local(tag)} is not allowed in {_name(note)}"))
        first = first and not isinstance(tag, str)
        if c.tail and not text:
            text = bool(c.tail.strip())
    if text:
        out.append((note, f"{_name(note)} may not hold text of its own"))
