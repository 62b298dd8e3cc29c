"""The front matter's document: the divisions as the lines come (furniture waiting for the
heading it stands before, blocks into the open section or division, closings into trailers),
in TEI's <front>, <body> and <back>, and the persons they name.
"""
from __future__ import annotations

import re

from pipeline import persons
from pipeline.chars import NUMERALS
from pipeline.chars import WHITESPACE_CHARS as _WS
from pipeline.model import (AN, NATIVE, SHU, XIAOZHU, YINYI, Div, Document, Fw, Head, Meta,
                            NameEntry, NamePart, Pos, Prose, SmallNote, assign_ids,
                            persons_pointed_at)
from pipeline.readers import kaozheng
from pipeline.readers.front.names import Entry, Names
from pipeline.readers.front.scanner import (AUTHOR, BA, BODY_KINDS, CLOSING, DYNASTY, ENTRY, FW,
                                            HEADERS, HEADING, JUANSHOU, KAOZHENG, KZ, PROSE, RESP,
                                            SECTION, TAIL, TIYAO, UNNAMED, YUANMU, Scanner,
                                            cells_at, heading_text, shifted)
from pipeline.report import Report
from pipeline.sources.decoding import Source

_BU = re.compile(rf"^[經史子集]部[{NUMERALS}]+$")                       # 經部四
_LEI = re.compile(rf"^\S{{1,4}}類[{NUMERALS}]+$")                        # 禮類一
_SHU_NOTE = re.compile(r"^\S{1,6}之屬$")                             # (周禮之屬)
_DATE = re.compile(r"乾隆[^乾]{0,12}?恭校上$")                       # the 提要's date (乾隆 年 月恭校上)


class Builder:
    """The divisions as the lines come: the furniture before a heading waits for it (a div's
    front), blocks go into the open section or division, closings into its trailers."""

    def __init__(self, src: Source, report: Report, layout: str):
        self.src, self.report, self.layout = src, report, layout
        self.front: list[Div] = []
        self.body: list[Div] = []
        self.back: list[Div] = []
        self.div: Div | None = None            # the open top-level division
        self.section: Div | None = None        # the open section in it (卷首, 引用姓氏)
        self.pending: list[Fw] = []            # furniture before the next heading
        self.declared: dict = {}
        self.classification: list[str] = []
        self.names = Names()
        self.brackets = self._brackets(src.delimiters)
        edition = src.kanripo
        self.work = src.meta.get("work", "") or (edition.title if edition is not None else "")
        _, self.shu_resp = persons.commentators(self.work)
        self.yinyi_resp = persons.named_in("陸德明")

    @staticmethod
    def _brackets(delimiters: frozenset) -> dict:
        """A plain e-text's note brackets (those its delimiters hold) as ( ), the brackets of a
        Kanripo file's notes, which the reader reads (they are markup: no TEI text keeps them)."""
        pairs = {"（": "）", "【": "】", "〈": "〉"}
        return str.maketrans({c: p for a, z in pairs.items() if a in delimiters and z in delimiters
                              for c, p in ((a, "("), (z, ")"))})

    # -- lines -------------------------------------------------------------------------------
    def line(self, role: str, sc: Scanner, text: str, pos: Pos) -> None:
        if sc.started and role == PROSE:       # a division that opens with its text (提要)
            self._open(sc.kind, None, pos)
        if role == FW:
            same = self.div.head if sc.kind == JUANSHOU and self.div is not None and \
                self.div.head is not None and heading_text(text) == self.div.head.text else None
            self.pending += self._furniture(text, pos, same)
        elif role == HEADING:
            self._heading(sc.kind, text, pos)
        elif role == SECTION:
            kind = sc.section if sc.kind == JUANSHOU else DYNASTY
            if kind == DYNASTY:
                self.names.dynasty_line(text)
            self._section(kind, text, pos)
        elif role == TAIL:
            self._trailer(self._unnoted(text), pos)
        elif role == RESP:
            self.block(Fw(text, pos, "responsibility"))
        elif role == CLOSING:
            self._trailer(self._unnoted(text), pos, TIYAO)
        elif role == KZ:
            self.block(kaozheng.entry(text, pos, self.report, self.declared))
        elif role == ENTRY:
            entry, parts = self.names.line(text, pos)
            if entry is None:
                self.block(Prose(self._parts(text, pos), pos))
            else:
                # the name: from the surname (and its 氏) to the last of its parts
                last = max(k for k, p in enumerate(parts) if isinstance(p, NamePart) and p.kind != NATIVE)
                self.block(NameEntry(parts, pos, (0, max(2, last + 1)), _registered(entry)))
        elif role == PROSE and sc.kind == TIYAO and (m := _DATE.search(text)):
            if text[:m.start()].strip(_WS):
                self.block(Prose(self._parts(text[:m.start()], pos), pos))
            self._trailer(m.group(), shifted(pos, m.start()), TIYAO)
        else:                                  # prose, a table's row
            self.block(Prose(self._parts(text, pos, sc.kind == YUANMU), pos))

    def _furniture(self, text: str, pos: Pos, same=None) -> list[Fw]:
        """A furniture line's cells, each a fw: 欽定四庫全書, the 部, the work's title, the 類
        and its 屬 (small; the catalogue classification for the header too)."""
        out = []
        for cell, at in cells_at(text):
            kind = "title"
            for part in self._parts(cell, shifted(pos, at)):
                if isinstance(part, SmallNote):          # (周禮之屬): the 類's 屬
                    out.append(Fw(part.text, part.pos, kind))
                    if _SHU_NOTE.match(part.text):
                        self.classification.append(part.text)
                    continue
                main = part.strip(_WS)
                kind = "header" if main in HEADERS else "catalogue" if _BU.match(main) or \
                    _LEI.match(main) else "title"
                out.append(Fw(part, shifted(pos, at), kind, same_as=same if kind == "title" else None))
                if kind == "catalogue":
                    self.classification.append(re.sub(f"[{NUMERALS}]+$", "", main))
        return out

    def _heading(self, kind: str, text: str, pos: Pos) -> None:
        """A division's heading: the head (its first cell, any note after it a small note), the
        other cells of its line furniture (類, 屬) or its author (唐孔穎達撰)."""
        cells = cells_at(text)
        first, _ = cells[0]
        cut = first.find("(")
        div = self._open(kind, Head(first if cut == -1 else first[:cut], pos, kind), pos)
        if cut != -1:
            div.blocks.append(Prose(self._parts(first[cut:], shifted(pos, cut)), shifted(pos, cut)))
        for cell, at in cells[1:]:
            if AUTHOR.match(cell) and "(" not in cell:
                div.blocks.append(Fw(cell, shifted(pos, at), "responsibility"))
            else:
                div.blocks += self._furniture(cell, shifted(pos, at))

    def _open(self, kind: str, head: Head | None, pos: Pos) -> Div:
        div = Div(kind, head, front=self.pending)
        self.pending = []
        self.section = None
        self._place(div)
        self.div = div
        return div

    def _place(self, div: Div) -> None:
        """A division goes in <front> or <body> by its kind, in the order printed: once the
        body has begun, whatever follows is in it too (TEI writes the front first)."""
        if div.kind == BA:
            self.back.append(div)
            return
        (self.body if div.kind in BODY_KINDS or self.body else self.front).append(div)

    def _section(self, kind: str, text: str, pos: Pos) -> None:
        if self.div is None:
            self._open(UNNAMED, None, pos)
        cut = text.find("(")
        head = text if cut == -1 else text[:cut]
        head = head.strip(_WS)
        self.section = Div(kind, Head(head, pos, kind), n=head if kind == DYNASTY else "",
                           front=self.pending)
        self.pending = []
        self.div.blocks.append(self.section)
        if cut != -1:
            self.section.blocks.append(Prose(self._parts(text[cut:], shifted(pos, cut)), shifted(pos, cut)))

    def _trailer(self, text: str, pos: Pos, kind: str | None = None) -> None:
        """A closing line of the open division (its title again, the 提要's date and
        signatures)."""
        div = self.div
        if div is None or (kind and div.kind != kind) or not (div.blocks or div.trailers):
            self.block(Fw(text, pos, "title"))
            return
        self._flush()
        div.trailers.append(Head(text, pos, "closing"))
        self.section = None

    def block(self, b) -> None:
        if self.div is None or self.div.trailers:
            # nothing open, or the open division closed already: a division of its own
            div = Div(self.div.kind if self.div is not None else UNNAMED, None, front=self.pending)
            self.pending = []
            self._place(div)
            self.div, self.section = div, None
        self._flush()
        (self.section or self.div).blocks.append(b)

    def _flush(self) -> None:
        """Furniture no heading followed: it stays where it was printed."""
        if self.pending:
            (self.section or self.div).blocks.extend(self.pending)
            self.pending = []

    # -- text ---------------------------------------------------------------------------------
    def _parts(self, text: str, pos: Pos, marked: bool = False) -> list:
        """Text and its small notes. In the 原目 a note after 音義 is a gloss of 陸德明's
        (yinyi), after 疏 or 䟽 the 疏 (its author's); a note opening with 案/按 is the
        editors' (an)."""
        out: list = []
        at, i = 0, 0
        while i < len(text):
            if text[i] != "(":
                i += 1
                continue
            j = text.find(")", i + 1)
            if j == -1:
                break
            if i > at:
                out.append(text[at:i])
            inner = text[i + 1:j]
            kind, resp = XIAOZHU, None
            if marked and text.endswith(("音義", "音义"), 0, i):
                kind, resp = YINYI, self.yinyi_resp
            elif marked and text.endswith(("疏", "䟽"), 0, i):
                kind, resp = SHU, self.shu_resp
            elif inner.startswith(("案", "按")):
                kind = AN
            if inner:
                out.append(SmallNote(kind, inner, shifted(pos, i + 1), resp))
            at = i = j + 1
        if at < len(text):
            out.append(text[at:])
        return [p for p in out if p != ""]

    @staticmethod
    def _unnoted(text: str) -> str:
        """A line for a plain-text element (a trailer): its note brackets left out (they are
        markup; what they held stays)."""
        return text.replace("(", "").replace(")", "")

    # -- the document -------------------------------------------------------------------------
    def finish(self) -> Document:
        if self.pending:
            if self.div is None:
                self.block(self.pending.pop(0))
            self._flush()
        src = self.src
        body = self.body or [Div("juan", None, n="0")]
        heads = [d.head.text for d in self.front if d.head is not None and d.kind != KAOZHENG]
        meta = Meta(src.basename, src.sha256, self.layout, work=self.work, juan=src.meta.get("juan", ""),
                    section=src.meta.get("section", "、".join(heads[:6])))
        seen = []
        for c in self.classification:
            if c not in seen:
                seen.append(c)
        meta.classification = ",".join(seen)
        meta.declared = self.declared
        meta.delimiters, meta.edition, meta.events = src.delimiters, src.kanripo, src.events
        doc = Document(meta, body, self.front, self.back)
        meta.persons = persons_pointed_at(doc)
        assign_ids(doc)
        return doc


def _registered(e: Entry) -> str | None:
    """The registry's id for a listed scholar, by his surname and given or courtesy name."""
    return (persons.lookup(e.surname, e.given) if e.given else None) or \
        (persons.lookup(e.surname, e.courtesy) if e.courtesy else None)

