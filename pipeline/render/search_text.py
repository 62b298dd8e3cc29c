"""What search reads from one TEI file: its searchable units and its persons, taken from the tree
the page is rendered from (in the worker process, so no file is parsed twice).

A unit is an element the web page shows with an id and a data-layer: a 經 piece (seg of an ab),
an inline 注 or 音義, a small note, a 疏 section or sub-lemma, one scholar's words (p) of a 義疏
or 案 block, a translation. Its text is its own: a note inside it (a sub-lemma in a 疏, a small
note in a quotation) is a unit of its own, and the printed markers (疏, 注) and category tags
are not text. Matching never crosses from one unit to the next (docs/search.md).
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

import numpy as np
from lxml import etree

from pipeline import hanzi
from pipeline.constants import TEI_NS, XML_ID
from pipeline.render.pages import header_work, juan_of_div, pian_of_div

_T = "{%s}" % TEI_NS
_DIV, _HEAD, _AB, _SEG, _NOTE, _P, _CIT = (f"{_T}{n}" for n in ("div", "head", "ab", "seg", "note", "p", "cit"))
_LABEL, _G, _GAP = f"{_T}label", f"{_T}g", f"{_T}gap"
_NOT_TEXT = {"mark", "category"}               # label types that are print furniture, not text
_PAGE_PARTS = {f"{_T}{n}" for n in ("body", "front", "back", "group", "text")}


@dataclass
class Unit:
    id: str
    layer: str
    juan: str                                  # 卷二, from its own div[@type='juan']
    pian: str                                  # the head of its div[@type='section'], '' if none
    text: str                                  # as printed, whitespace dropped


@dataclass
class PageText:
    units: list[Unit] = field(default_factory=list)
    persons: dict[str, tuple[list[str], str]] = field(default_factory=dict)  # id → (names, floruit)


def _squeeze(s: str) -> str:
    return "".join(s.split())


def searchable(ch: str) -> bool:
    """Whether a character takes part in matching: not white space, not punctuation (the seeds'
    punctuation is an editor's, the 四庫 text has none; a query matches either way)."""
    return unicodedata.category(ch)[0] not in "PZC"


class _Matching(dict):
    """A str.translate table built as characters are met: folded (hanzi.fold), or dropped
    when not searchable."""

    def __missing__(self, code: int) -> str | None:
        ch = chr(code)
        self[code] = hanzi.fold(ch) if searchable(ch) else None
        return self[code]


_MATCHING = _Matching()
SEPARATOR = "\x00"                            # between units in a chunk: kept, never matched
_MATCHING[0] = SEPARATOR


def normalise(text: str) -> str:
    """The form matched against: searchable characters only, folded (hanzi.fold)."""
    return text.translate(_MATCHING)


_UNSEEN, _DROPPED = 0xFFFFFFFF, 0xFFFFFFFE
_CODES = np.full(0x110000, _UNSEEN, np.uint32)    # code point → its matched form's, as _MATCHING


def matching_codes(text: str) -> np.ndarray:
    """The code points of normalise(text), made for the whole text at once (a lookup in an array
    rather than a call per character): what the index's keys are made of."""
    cps = np.frombuffer(text.encode("utf-32-le"), np.dtype("<u4"))
    codes = _CODES[cps]
    unseen = codes == _UNSEEN
    if unseen.any():
        for code in np.unique(cps[unseen]).tolist():
            ch = _MATCHING[code]
            _CODES[code] = ord(ch) if ch else _DROPPED
        codes = _CODES[cps]
    return codes[codes != _DROPPED]


class _Reader:
    def __init__(self, tree: etree._ElementTree, header_juan: str):
        self.header_juan = header_juan
        self.work = header_work(tree)           # the 篇 of a div with no heading is named from it
        self.glyphs = {}                       # an empty g shows its glyph's mapping (html.xsl)
        for glyph in tree.iter(f"{_T}glyph", f"{_T}char"):
            mapping = glyph.find(f"{_T}mapping")
            if glyph.get(XML_ID) and mapping is not None and mapping.text:
                self.glyphs[glyph.get(XML_ID)] = mapping.text
        # the elements with a note, label, g or gap inside, whose text is not simply all of theirs
        self.mixed: set[etree._Element] = set()
        for el in tree.iter(_NOTE, _LABEL, _G, _GAP):
            parent = el.getparent()
            while parent is not None and parent not in self.mixed:
                self.mixed.add(parent)
                parent = parent.getparent()
        self.units: list[Unit] = []

    def walk(self, el: etree._Element, juan: str, pian: str) -> None:
        for child in el:
            tag = child.tag
            if tag == _DIV:
                j, p = juan, pian
                if child.get("type") == "juan":
                    j = juan_of_div(child, self.header_juan)
                elif child.get("type") in ("section", "pian"):
                    head = child.find(_HEAD)
                    p = pian_of_div(child, self.work, _squeeze("".join(head.itertext())) if head is not None else "")
                self.walk(child, j, p)
            elif tag == _AB and child.get("type") == "translation":
                self.unit(child, "translation", juan, pian)
            elif tag == _AB:
                for piece in child:
                    if piece.tag == _SEG:
                        if piece.get("type") is None:      # a lost passage's words are no 經
                            self.unit(piece, "jing", juan, pian)
                    elif piece.tag == _NOTE:
                        self.unit(piece, piece.get("type") or "", juan, pian)
            elif tag == _NOTE:
                self.note(child, juan, pian, True)
            elif tag in _PAGE_PARTS:
                self.walk(child, juan, pian)

    def note(self, note: etree._Element, juan: str, pian: str, block: bool = False) -> None:
        kind = note.get("type") or ""
        if kind in ("yishu", "an") and block:
            for p in note.iterchildren(_CIT, _P):   # one unit per scholar's words
                self.unit(p, kind, juan, pian)
        else:
            self.unit(note, kind, juan, pian)

    def unit(self, el: etree._Element, layer: str, juan: str, pian: str) -> None:
        parts: list[str] = []
        nested: list[etree._Element] = []
        if el not in self.mixed:               # the common case, in C: nothing to leave out
            parts = [etree.tostring(el, method="text", encoding=str, with_tail=False)]
        else:
            self.text_of(el, parts, nested)
        text = _squeeze("".join(parts))
        if el.get(XML_ID) and layer and text:
            self.units.append(Unit(el.get(XML_ID), layer, juan, pian, text))
        for note in nested:
            self.note(note, juan, pian)

    def text_of(self, el: etree._Element, parts: list[str], nested: list[etree._Element]) -> None:
        if el.text:
            parts.append(el.text)
        for child in el:
            if child.tag == _NOTE:
                nested.append(child)
            elif child.tag == _G and not "".join(child.itertext()):
                parts.append(self.glyphs.get((child.get("ref") or "").lstrip("#"), "〓"))
            elif not (child.tag == _LABEL and child.get("type") in _NOT_TEXT) and child.tag != _GAP \
                    and isinstance(child.tag, str):
                self.text_of(child, parts, nested)
            if child.tail:
                parts.append(child.tail)


def page_text(tree: etree._ElementTree, header_juan: str) -> PageText:
    """The units of the page in document order, and the persons of its listPerson."""
    root = tree.getroot()
    reader = _Reader(tree, header_juan)
    text = root.find(f"{_T}text")
    if text is not None:
        reader.walk(text, header_juan, "")
    page = PageText(reader.units)
    for person in root.iter(f"{_T}person"):
        pid = person.get(XML_ID)
        if not pid:
            continue
        names = []
        # the full name first: the one results show
        for name in sorted(person.findall(f"{_T}persName"), key=lambda n: n.get("type") != "full"):
            n = _squeeze("".join(name.itertext()))
            if n and n not in names:
                names.append(n)
        fl = person.find(f"{_T}floruit")
        page.persons[pid] = (names, _squeeze(fl.text or "") if fl is not None else "")
    return page
