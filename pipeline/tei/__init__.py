"""The TEI writer: the document model → TEI P5. The only module that builds TEI: readers
build the model, the validator and the renderers read TEI; none of them writes it.

Where things are:

    __init__.py   this face: to_tei_text, work_to_tei, body_text; _Writer.build joins the
                  header, built with lxml, and the body, written as text
    header.py     teiHeader (taxonomy, charDecl, sources), facsimile, the standOff persons
    body.py       divs, heads, trailers, furniture; units and their pieces; translations, prose,
                  entries of a list of persons — one method per block type, from a table
    notes.py      small-character notes, 疏 notes with 出文 and sub-lemmas, 義疏 blocks and
                  their quotations, 考證 entries and judgments
    text.py       text as written: escapes, <g> for the characters that need one, tokens
    place.py      a Kanripo source's pages, lines, rows and gaiji placed into the text
    markup.py     namespaces, escaping, attributes, glyph ids, the token kinds' elements
    citation.py   the URN of each 卷 and the citeStructure of the header (refsDecl)

Anything the writer cannot place is an error in the report.
"""
from __future__ import annotations

import re
import unicodedata

from lxml import etree

from pipeline.constants import TEI as T
from pipeline.constants import TEI_NS, XML_LANG
from pipeline.model import Document, Meta, Work
from pipeline.report import Report
from pipeline.tei import citation
from pipeline.tei import header as _header
from pipeline.tei.body import BodyWriter
from pipeline.tei.header import TAXONOMY
from pipeline.tei.markup import INLINE, _el, _esc, glyph_id
from pipeline.tei.place import surface_id

__all__ = ["INLINE", "TAXONOMY", "TEI_NS", "_Writer", "_esc", "body_text", "glyph_id", "serialize",
           "surface_id", "to_tei", "to_tei_text", "work_to_tei"]

# The body text we generate ourselves; huge_tree because a long 卷 may exceed libxml2's limits.
_TRUSTED = etree.XMLParser(huge_tree=True, collect_ids=False)
_TEXT_MARK = "\ue000ZHUSHU-BODY\ue000"
_SCHEMA_PIS = "".join(pi + "\n" for pi in _header.SCHEMA_PIS).encode("ascii")           # where the body goes in the serialised skeleton


class _Writer(BodyWriter):
    """A whole TEI document: its body written as text (BodyWriter), then its header,
    facsimile and list of persons built with lxml around it."""

    def build(self) -> tuple[str, str, str]:
        """The serialised TEI in three parts: what comes before the body, the body as written,
        and what follows it (kept apart: joining them would copy the whole document once more)."""
        body = self.body()                     # first: it collects the glyphs the header declares
        if not unicodedata.is_normalized("NFC", body):
            # The source is read in NFC, but leaving whitespace out can bring a combining mark
            # next to another it must be reordered with, or to a base it composes with. Each
            # text node is normalised (the markup between nodes is ASCII, which no mark crosses).
            body = unicodedata.normalize("NFC", body)
            if self.report:
                self.report.warn("ZS-CONV-NFC", "combining marks brought together by leaving out "
                                 "whitespace were put back in NFC")
        root = etree.Element(T + "TEI", nsmap={None: TEI_NS})
        root.set(XML_LANG, "lzh")
        header = _el(root, "teiHeader")
        text_lang = text_language(body)
        self.doc.meta.cite = citation.of(self.doc)
        _header.header(header, self.doc.meta, self.glyphs, self.translation_langs, text_lang)
        etree.indent(header, level=1)
        root.text = header.tail = "\n"
        if self.doc.meta.edition is not None and self.doc.meta.edition.pages:
            _header.facsimile(root, self.doc.meta.edition)
            etree.indent(root[-1], level=1)
            root[-1].tail = "\n"
        if _header.declared_persons(self.doc.meta):     # TEI forbids an empty listPerson
            stand_off = _el(root, "standOff")
            _header.people(stand_off, self.doc.meta)
            etree.indent(stand_off, level=1)
            stand_off.tail = "\n"
        text = _el(root, "text", _TEXT_MARK)
        text.set(XML_LANG, text_lang)
        text.tail = "\n"
        before, after = etree.tostring(root, encoding="unicode").split(_TEXT_MARK, 1)
        return before + "\n", body, after


def text_language(body: str) -> str:
    """The language of the text with its script (hanzi.script): lzh-Hans, lzh-Hant, or lzh
    when the text tells neither."""
    from pipeline.hanzi import script
    found = script(body_text(body))
    return f"lzh-{found}" if found else "lzh"


def to_tei_text(doc: Document, report: Report | None = None) -> tuple[bytes, str]:
    """The TEI document as bytes, and its body as written (for the lossless check)."""
    before, body, after = _Writer(doc, report).build()
    return _document(before, body, after), body


def _document(before: str, body: str, after: str) -> bytes:
    return b"".join((b"<?xml version='1.0' encoding='UTF-8'?>\n", _SCHEMA_PIS, before.encode("utf-8"),
                     body.encode("utf-8"), after.encode("utf-8"), b"\n"))


class _WorkWriter(_Writer):
    """The TEI of a whole work: the header of its Readme.org, and its table of contents, each
    entry linked to the TEI of its 卷."""

    def __init__(self, work: Work, doc: Document):
        super().__init__(doc, None)
        self.work = work

    def body(self) -> str:
        out = ['<body>\n<div type="contents" xml:id="d1">\n<head type="contents" xml:id="d1.h">目次</head>\n<list>\n']
        for k, v in enumerate(self.work.volumes, 1):
            n = f' n="{_esc(v.page)}"' if v.page else ""
            title = self.text(v.title)
            if v.target:
                out.append(f'<item n="{k}"><ref target="{_esc(v.target)}"{n}>{title}</ref></item>\n')
            else:                                # withheld from this checkout, or not converted
                out.append(f'<item n="{k}">{title}</item>\n')
        out.append("</list>\n</div>\n</body>")
        return "".join(out)


def work_to_tei(work: Work, readme_sha256: str) -> bytes:
    """The work's TEI file: its source is the repository's Readme.org."""
    from pipeline.sources.kanripo import Edition
    meta = Meta("Readme.org", readme_sha256, "kanripo-work", work=work.title)
    code, name = work.editions[0] if work.editions else ("", "")
    meta.edition = Edition(work.id, "Readme.org", work.title, code, name)
    return _document(*_WorkWriter(work, Document(meta, [])).build())


def to_tei(doc: Document, report: Report | None = None) -> etree._Element:
    return etree.fromstring(to_tei_text(doc, report)[0], _TRUSTED)


def serialize(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8") + b"\n"


def body_text(body: str) -> str:
    """The text content of a body we wrote: tags removed, our three escapes undone."""
    text = re.sub(r"<[^>]*>", "", body)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
