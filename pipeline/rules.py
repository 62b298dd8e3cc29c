"""The rules a schema cannot state. Each has a stable id, documented in docs/rules.md.

`check(tree)` yields (element, level, rule id, message). One pass builds the id index; each
rule then looks only at the elements it concerns.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Iterator

from lxml import etree

from .anchoring import agrees, matches, squeeze

TEI = "{http://www.tei-c.org/ns/1.0}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
POINTERS = ("target", "targetEnd", "corresp", "ref", "resp")

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
        seen: set[str] = set()
        for v, el in w.ids:
            if v in seen:
                yield el, "error", "ZS-ID-001", f"duplicate xml:id {v!r}"
            seen.add(v)
    yield from _pointers(root, w.pointers, index.keys())
    yield from _types(root, w.note_values)
    if body is None:
        return
    whole = _TEXT(body)
    yield from _text(body, whole)
    yield from _id_scheme(w.body_ids)
    yield from _chars(root, body, whole)
    yield from _header(root)
    for note in w.shu_notes:
        yield from _shu(note, index)
    squeezed: dict[str, str] = {}
    for note in w.glosses:
        yield from _yinyi(note, index, squeezed)


class _Walk:
    """What the rules need, gathered in one walk over the elements (several XPaths over the
    same tree cost more): ids with their elements (the body's apart, for the scheme), pointer
    values by attribute, the note types used, and the 疏 and 音義 notes of the body."""

    def __init__(self, root, body):
        self.ids: list[tuple[str, object]] = []
        self.body_ids: list[tuple[str, object]] = []
        self.pointers: dict[str, set[str]] = {a: set() for a in POINTERS}
        self.note_values: set[tuple[str, str]] = set()
        self.shu_notes: list = []
        self.glosses: list = []
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
        ids = self.body_ids if in_body else self.ids
        pointers = self.pointers
        for el in top.iter("*"):
            note = in_text and el.tag == _NOTE
            for k, v in el.items():
                if k == XML_ID:
                    ids.append((v, el))
                elif k in pointers:
                    pointers[k].add(v)
                elif note and k in ("type", "subtype"):
                    self.note_values.add((k, v))
            if note and in_body:
                kind = el.get("type")
                if kind == "shu" and el.get("place") is None:
                    self.shu_notes.append(el)
                elif kind == "yinyi" and el.get("target") is not None:
                    self.glosses.append(el)


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


def _after(point, stop=None) -> str:
    """The text of a piece after an anchor in it (up to the anchor `stop`, if given)."""
    out = [point.tail or ""]
    for sib in point.itersiblings():
        if sib is stop:
            break
        out.append("".join(sib.itertext()) if sib.tag != ANCHOR else "")
        out.append(sib.tail or "")
    return "".join(out)


def _before(point) -> str:
    """The text of a piece before an anchor in it."""
    piece = point.getparent()
    out = [piece.text or ""]
    for sib in piece:
        if sib is point:
            break
        out.append("".join(sib.itertext()) if sib.tag != ANCHOR else "")
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
        return "".join(start.itertext()) if _piece_layer(start) == layer else ""
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


_P, _MENTIONED = f"{TEI}p", f"{TEI}mentioned"
_CHUWEN = f"{TEI}label[@type='chuwen']"


def _shu(note, ids) -> Iterator[tuple]:
    """A 疏 section (quotes in its chuwen label) or a sub-lemma (quotes opening its paragraph)
    agrees with the span it points at."""
    subtype = note.get("subtype")
    sub = subtype == "sublemma"
    label = note.find(_P) if sub else note.find(_CHUWEN)
    if label is None:
        return
    target = note.get("target")
    if target is None:
        if subtype != "detached" and not sub:
            yield note, "warning", "ZS-SHU-002", "疏 quotes a lemma but points at no span"
        elif sub:
            yield note, "error", "ZS-SHU-002", "sub-lemma points at no span"
        return
    start = ids.get(target[1:])
    target_end = note.get("targetEnd")
    end = start if target_end is None else ids.get(target_end[1:])
    if start is None or end is None:
        return                                  # reported by ZS-PTR-001
    quotes = ["".join(m.itertext()) for m in label.iterfind(_MENTIONED)]
    if not quotes:
        return
    first = "jing"
    if not sub and (label.text or "").lstrip().startswith(("注", "註")):
        first = "zhu"
    for layer in (first, "zhu" if first == "jing" else "jing"):
        text = span_text(start, end, layer)
        if text and agrees(text, quotes):
            return
    text = span_text(start, end, first) or span_text(start, end, "zhu" if first == "jing" else "jing")
    what = "sub-lemma" if sub else "lemma"
    yield note, "error", "ZS-SHU-001", (
        f"{what} “{'”至“'.join(quotes)}” does not match its span ({text[:8]!r}…{text[-8:]!r})")


def _yinyi(note, ids, squeezed: dict[str, str]) -> Iterator[tuple]:
    term = note.find(f"{TEI}term")
    target = note.get("target")
    if term is None or not target or target[1:] not in ids:
        return
    head = "".join(term.itertext())
    own = squeezed.get(target)
    if own is None:
        own = squeezed[target] = squeeze("".join(ids[target[1:]].itertext()))
    if not matches(own, head, "anywhere", squeezed=True):
        yield note, "warning", "ZS-YINYI-001", f"音義 head “{head}” does not occur in {target}"
