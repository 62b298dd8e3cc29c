"""The body: divs, their furniture, heads and trailers, and the blocks in them (units of 經
with their pieces, translations, prose, entries of a list of persons), each block type
written by its own method, dispatched from a table."""
from __future__ import annotations

from pipeline.model import (FORENAME, HAO, JING, MARK, NATIVE, QUE, SURNAME, TRANSLATION, YINYI,
                            ZHU, ZI, Div, Fw, KaozhengEntry, NameEntry, NamePart, Piece, Prose, Shu,
                            SmallNote, Translation, Unit, YishuBlock)
from pipeline.tei.markup import _attrs, _ref, resp_attr
from pipeline.tei.notes import NoteWriter


class BodyWriter(NoteWriter):
    """The body of a document, div by div, block by block."""

    def unit(self, u: Unit) -> None:
        self.out.append(f'<ab type="{JING}" xml:id="{u.id}">')
        for p in u.pieces:
            if isinstance(p, SmallNote):
                self.small(p)
            else:
                self.PIECES[p.layer](self, p)
        self.out.append("</ab>\n")

    def translation(self, t: Translation) -> None:
        self.translation_langs.add(t.lang)
        self.out.append("<ab" + _attrs(dict(
            type=TRANSLATION, subtype="copy" if t.copy else None, xml_id=t.id,
            corresp=_ref(t.original.id) if t.original is not None else None)) +
            f' xml:lang="{t.lang}">')
        if t.mark:
            self.el("label", t.mark, type="mark")
        self.parts(t.parts)
        self.out.append("</ab>\n")

    def jing(self, p: Piece) -> None:
        if p.literal:                            # symbols printed as such: □ is no placeholder
            self.out.append(f'<seg xml:id="{p.id}">{self.text(p.text, literal=True)}</seg>')
        elif p.anchors:
            self.out.append(f'<seg xml:id="{p.id}">')
            self.put_anchored(p)
            self.out.append("</seg>")
        else:
            self.out.append(f'<seg xml:id="{p.id}">{self.text(p.text)}</seg>')

    def note_piece(self, p: Piece) -> None:
        resp = resp_attr(p.resp)
        target = f' target="#{p.target.id}"' if p.target else ""
        head = f'<note type="{p.layer}" place="inline" xml:id="{p.id}"{resp}{target}>'
        if p.tokens is None and not p.anchors:
            self.out.append(f"{head}{self.text(p.text)}</note>")
            return
        self.out.append(head)
        if p.tokens is not None:
            self.put_tokens(p.tokens)
        else:
            self.put_anchored(p)
        self.out.append("</note>")

    def que(self, p: Piece) -> None:
        # The edition's printed words (阙。) are text, in a seg of their own beside the gap
        # that states the loss: a gap's desc would hold them as the encoder's description.
        self.out.append(f'<seg type="{QUE}" xml:id="{p.id}"><gap reason="lost"/>{self.text(p.text)}</seg>')

    def mark(self, p: Piece) -> None:
        self.out.append(f'<label type="{MARK}" xml:id="{p.id}">{self.text(p.text)}</label>')

    PIECES = {JING: jing, ZHU: note_piece, YINYI: note_piece, QUE: que, MARK: mark}

    def fw(self, f: Fw) -> None:
        self.el("fw", f.text, type=f.kind, subtype="repeat" if f.same_as else None, xml_id=f.id,
                sameAs=_ref(f.same_as.id) if f.same_as else None)
        self.out.append("\n")

    def div(self, d: Div) -> None:
        self.out.append(f"<div{_attrs(dict(type=d.kind, n=d.n or None, xml_id=d.id))}>\n")
        for f in d.front:
            self.fw(f)
        if d.head is not None:
            self.el("head", d.head.text, type=d.head.kind, xml_id=d.head.id or None)
            self.out.append("\n")
        self.blocks(d.blocks)
        for t in d.trailers:
            if t.before:                        # notes and furniture between two closings
                self.blocks(t.before)
            self.el("trailer", t.text, xml_id=t.id or None)
            self.out.append("\n")
        self.out.append("</div>\n")

    def blocks(self, blocks: list) -> None:
        for b in blocks:
            handler = self.BLOCKS.get(type(b))
            if handler is None:
                if self.report:
                    self.report.error("ZS-TEI-UNPLACED", f"the TEI writer cannot place a {type(b).__name__}")
                continue
            handler(self, b)

    def prose(self, p: Prose) -> None:
        self.out.append(f'<p xml:id="{p.id}">')
        self.parts(p.parts)
        self.out.append("</p>\n")

    # The parts of a listed person's name → (element, @type); the native place is no part of
    # the name: a <placeName> after the <persName>.
    NAME_PARTS = {SURNAME: ("surname", None), FORENAME: ("forename", None), ZI: ("addName", "zi"),
                  HAO: ("addName", "hao"), NATIVE: ("placeName", None)}

    def name_entry(self, e: NameEntry) -> None:
        """An entry of a list of persons: a paragraph whose name (the parts e.name spans) is a
        <persName> pointing at the registry's person, when known; each part an element, those
        printed small marked rend="small"; the native place a <placeName>, remarks notes."""
        parts, out = e.parts, self.out
        first, last = (e.name[0], e.name[1] - 1) if e.name[1] > e.name[0] else (-1, -1)
        out.append(f'<p xml:id="{e.id}">')
        for i, p in enumerate(parts):
            if i == first:
                out.append(f'<persName{resp_attr(e.resp, "ref")}>')
            if isinstance(p, NamePart):
                tag, kind = self.NAME_PARTS[p.kind]
                attrs = (f' type="{kind}"' if kind else "") + (' rend="small"' if p.small else "")
                out.append(f"<{tag}{attrs}>{self.text(p.text)}</{tag}>")
            elif isinstance(p, SmallNote):
                self.small(p)
            else:
                self.put(p)
            if i == last:
                out.append("</persName>")
        out.append("</p>\n")

    # A Head only opens a div (TEI admits no head between blocks): a heading in the middle of
    # a 卷 opens a nested section div.
    BLOCKS = {Unit: unit, Shu: NoteWriter.shu, Fw: fw, Div: div, YishuBlock: NoteWriter.yishu,
              Translation: translation, KaozhengEntry: NoteWriter.kaozheng_entry, Prose: prose,
              NameEntry: name_entry}

    def body(self) -> str:
        self.out = []
        if self.doc.front:
            self.out.append("<front>\n")
            for d in self.doc.front:
                self.div(d)
            self.out.append("</front>\n")
        self.out.append("<body>\n")
        for d in self.doc.divs:
            self.div(d)
        back = self.doc.back
        if self.placer is not None and self.placer.pending() and not back:
            # pages and blank columns after the last character: at the end of the last div
            closing = self.out.pop()
            self.out += [self.placer.rest(), "\n", closing]
        self.out.append("</body>")
        if back:
            self.out.append("\n<back>\n")
            for d in back:
                self.div(d)
            if self.placer is not None and self.placer.pending():
                closing = self.out.pop()
                self.out += [self.placer.rest(), "\n", closing]
            self.out.append("</back>")
        return "".join(self.out)
