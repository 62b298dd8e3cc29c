"""The TEI writer: the document model → TEI P5. The only module that builds TEI.

One function per node type (`_unit`, `_shu`, …), dispatched from a table; simple inline
mappings (token kinds → elements) are data. Anything it cannot place is a warning in the report.
"""
from __future__ import annotations

import re

from lxml import etree

from . import __version__, persons
from .chars import PLACEHOLDERS, is_pua
from .model import JING, QUE, SHU, YINYI, ZHU, Anchor, Div, Document, Head, Piece, Shu, Token, Unit
from .report import Report

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XML_ID = f"{{{XML_NS}}}id"
XML_LANG = f"{{{XML_NS}}}lang"
T = f"{{{TEI_NS}}}"

# The note taxonomy declared in every header; @type/@subtype in the body come only from here.
TAXONOMY = (
    (JING, "經 — the classic"),
    (ZHU, "注 — the Han commentary"),
    (YINYI, "音義 — 陸德明's glosses on sound and sense"),
    (SHU, "疏 — the Tang sub-commentary, anchored by its 出文 lemma"),
    ("detached", "a 疏 whose 出文 lies outside this file"),
    (QUE, "阙 — a passage the edition marks as lost"),
    ("chuwen", "出文 — the lemma a 疏 section quotes"),
    ("mark", "a printed marker such as 疏"),
)

# Token kinds → (element, @type). 'text' is plain text.
INLINE = {
    "term": ("term", None),
    "fanqie": ("seg", "fanqie"),
    "zhiyin": ("seg", "zhiyin"),
    "ruzi": ("seg", "ruzi"),
    "mentioned": ("mentioned", None),
}

_SPECIAL = re.compile("[" + re.escape("".join(sorted(PLACEHOLDERS))) + "\ue000-\uf8ff]")


def glyph_id(ch: str) -> str:
    return f"zs-g{ord(ch):04X}"


def _el(parent, tag: str, text: str | None = None, **attrs):
    e = etree.SubElement(parent, T + tag)
    for k, v in attrs.items():
        if v is not None:
            e.set(XML_ID if k == "xml_id" else k, v)
    if text is not None:
        e.text = text
    return e


class _Writer:
    def __init__(self, doc: Document, report: Report | None):
        self.doc, self.report = doc, report
        self.glyphs: set[str] = set()

    # -- text ------------------------------------------------------------------------------------
    def put(self, parent, text: str) -> None:
        """Append text to `parent`, wrapping placeholders and PUA characters in a declared <g>."""
        if _SPECIAL.search(text) is None:
            self._append(parent, text)
            return
        pos = 0
        for m in _SPECIAL.finditer(text):
            self._append(parent, text[pos:m.start()])
            ch = m.group()
            self.glyphs.add(ch)
            g = _el(parent, "g", ch, ref="#" + glyph_id(ch))
            if ch in PLACEHOLDERS:
                g.set("type", "placeholder")
            pos = m.end()
        self._append(parent, text[pos:])

    @staticmethod
    def _append(parent, s: str) -> None:
        if not s:
            return
        if len(parent):
            last = parent[-1]
            last.tail = (last.tail or "") + s
        else:
            parent.text = (parent.text or "") + s

    def put_anchored(self, parent, piece: Piece) -> None:
        pos = 0
        for a in piece.anchors:
            self.put(parent, piece.text[pos:a.offset])
            _el(parent, "anchor", xml_id=a.id)
            pos = a.offset
        self.put(parent, piece.text[pos:])

    def put_tokens(self, parent, tokens: list[Token]) -> None:
        for t in tokens:
            if t.kind == "text":
                self.put(parent, t.text)
            else:
                name, typ = INLINE[t.kind]
                e = _el(parent, name, type=typ)
                self.put(e, t.text)

    # -- blocks ----------------------------------------------------------------------------------
    def unit(self, parent, u: Unit) -> None:
        ab = _el(parent, "ab", type=JING, xml_id=u.id)
        for p in u.pieces:
            self.PIECES[p.layer](self, ab, p)
        ab.tail = "\n"

    def jing(self, ab, p: Piece) -> None:
        self.put_anchored(_el(ab, "seg", xml_id=p.id), p)

    def note_piece(self, ab, p: Piece) -> None:
        n = _el(ab, "note", type=p.layer, place="inline", xml_id=p.id, resp=_ref(p.resp),
                target=_ref(p.target.id) if p.target else None)
        if p.tokens is not None:
            self.put_tokens(n, p.tokens)
        else:
            self.put_anchored(n, p)

    def que(self, ab, p: Piece) -> None:
        gap = _el(ab, "gap", reason="lost", xml_id=p.id)
        _el(gap, "desc", p.text, type=QUE)         # TEI's desc admits no <g>: plain text

    PIECES = {JING: jing, ZHU: note_piece, YINYI: note_piece, QUE: que}

    def shu(self, parent, s: Shu) -> None:
        n = _el(parent, "note", type=SHU, subtype="detached" if s.detached else None, xml_id=s.id,
                resp=_ref(s.resp), target=_ref(s.target.id) if s.target else None,
                targetEnd=_ref(s.target_end.id) if s.target_end else None)
        if s.mark:
            self.put(_el(n, "label", type="mark"), s.mark)
        if s.chuwen:
            self.put_tokens(_el(n, "label", type="chuwen"), s.chuwen.tokens)
        for para in s.paras:
            self.put(_el(n, "p"), para.text)
        n.tail = "\n"

    def head(self, parent, h: Head) -> None:
        self.put(_el(parent, "head", type=h.kind), h.text)
        parent[-1].tail = "\n"

    # A Head only opens a div (TEI admits no head between blocks); mid-div headings will open
    # nested section divs when a layout needs them.
    BLOCKS = {Unit: unit, Shu: shu}

    def div(self, parent, d: Div) -> None:
        e = _el(parent, "div", type=d.kind, n=d.n or None, xml_id=d.id)
        e.text = "\n"
        if d.head is not None:
            self.head(e, d.head)
        for b in d.blocks:
            handler = self.BLOCKS.get(type(b))
            if handler is None:
                if self.report:
                    self.report.error("ZS-TEI-UNPLACED", f"the TEI writer cannot place a {type(b).__name__}")
                continue
            handler(self, e, b)
        e.tail = "\n"

    # -- document --------------------------------------------------------------------------------
    def build(self) -> etree._Element:
        root = etree.Element(T + "TEI", nsmap={None: TEI_NS})
        root.set(XML_LANG, "lzh")
        header = _el(root, "teiHeader")
        stand_off = _el(root, "standOff")
        text = _el(root, "text")
        body = _el(text, "body")
        body.text = "\n"
        for d in self.doc.divs:
            self.div(body, d)
        self.header(header)
        etree.indent(header, level=1)
        root.text = header.tail = "\n"
        if self.doc.meta.persons:              # TEI forbids an empty listPerson
            self.people(stand_off)
            etree.indent(stand_off, level=1)
            stand_off.tail = "\n"
        else:
            root.remove(stand_off)
        text.text = "\n"
        text.tail = "\n"
        return root

    def header(self, h) -> None:
        m = self.doc.meta
        fd = _el(h, "fileDesc")
        ts = _el(fd, "titleStmt")
        _el(ts, "title", " ".join(x for x in (m.work or "未題名", m.juan) if x), type="main")
        if m.work:
            _el(ts, "title", m.work, type="work")
        if m.juan:
            _el(ts, "title", m.juan, type="juan")
        rs = _el(ts, "respStmt")
        _el(rs, "resp", "TEI encoding, converted from a plain-text e-text")
        _el(rs, "name", f"Zhushu {__version__}")
        ps = _el(fd, "publicationStmt")
        _el(ps, "p", "Unpublished conversion. The source text is reproduced in full; all markup is "
                     "derived by Zhushu and listed in the conversion report.")
        bibl = _el(_el(fd, "sourceDesc"), "bibl")
        if m.work:
            _el(bibl, "title", m.work)
        if m.juan:
            _el(bibl, "biblScope", m.juan, unit="juan")
        _el(bibl, "idno", m.source_name, type="filename")
        _el(bibl, "idno", m.sha256, type="sha256")
        ed = _el(h, "encodingDesc")
        app = _el(_el(ed, "appInfo"), "application", ident="zhushu", version=__version__)
        _el(app, "label", "Zhushu")
        _el(app, "desc", f"reader: {m.layout}")
        tax = _el(_el(ed, "classDecl"), "taxonomy", xml_id="zs-types")
        for cid, desc in TAXONOMY:
            _el(_el(tax, "category", xml_id=cid), "catDesc", desc)
        if self.glyphs:
            cd = _el(ed, "charDecl")
            for ch in sorted(self.glyphs):
                g = _el(cd, "glyph", xml_id=glyph_id(ch))
                _el(g, "localProp", name="name", value="placeholder for a missing character"
                    if ch in PLACEHOLDERS else f"private use character U+{ord(ch):04X}")
                _el(g, "mapping", ch, type="standard")
        lu = _el(_el(h, "profileDesc"), "langUsage")
        _el(lu, "language", "Literary Chinese (文言)", ident="lzh")

    def people(self, so) -> None:
        lp = _el(so, "listPerson")
        for pid in self.doc.meta.persons:
            p = persons.get(pid)
            e = _el(lp, "person", xml_id=pid)
            pn = _el(e, "persName")
            pn.set(XML_LANG, "lzh")
            _el(pn, "surname", p.surnames[-1] if p.surnames else None)
            if p.given:
                _el(pn, "forename", p.given[-1])
            if p.courtesy:
                _el(pn, "addName", p.courtesy[-1], type="zi")
            _el(e, "persName", p.name, type="full")
            if p.dynasty:
                _el(e, "floruit", p.dynasty)
            if p.role:
                _el(e, "note", p.role)


def _ref(x: str | None) -> str | None:
    return "#" + x if x else None


def to_tei(doc: Document, report: Report | None = None) -> etree._Element:
    return _Writer(doc, report).build()


def serialize(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8") + b"\n"
