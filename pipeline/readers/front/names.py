"""The 引用姓氏 list of a 義疏's front matter: the scholars it quotes, each entry read by its
cells' positions into surname, given name, courtesy name, native place and remarks (`xingshi`),
for the person registry and the TEI's <persName>.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline import numerals
from pipeline.chars import WHITESPACE_CHARS as _WS
from pipeline.model import FORENAME, HAO, NATIVE, SURNAME, XIAOZHU, ZI, NamePart, Pos, SmallNote
from pipeline.readers.front.scanner import (ENTRY, PROSE, SECTION, XINGSHI, Scanner, heading_text,
                                            shifted)

_REMARK_WORDS = re.compile(r"以上|以下|附|未詳|不詳")
_VARIANT = ("又字", "一字", "一作", "又")
# The columns of an entry: the 字 stands before the native place's, which starts 7 cells in
# where the given name is small, and ends 9 cells in where it is full-size (a gap follows the
# surname there, and a place of three characters stands a cell earlier). Read off the lists of
# 欽定禮記義疏 (small names) and 欽定儀禮義疏 (full-size names).
_PLACE_STARTS_SMALL = 7
# A given name is 1–2 characters, a native place 2–4 (京兆, 河南洛陽): a note of 6 or more is a
# remark on the list.
_REMARK_MIN = 6
_PLACE_ENDS_FULL = 9


@dataclass
class Entry:
    """A scholar of a 引用姓氏 list, by the cells as printed (`pos`: where the entry starts).
    Fields are as printed (a cell with a variant keeps it: 邠卿臺卿一字); "" when the cell is
    empty. `dynasty` is the heading the entry stands under, or what a remark says (以下三國
    時人: 三國; 以上N人未詳世次: "" for those N)."""
    dynasty: str
    surname: str                      # 董 (printed 董氏; 朱子 → 朱)
    given: str                        # 名
    courtesy: str                     # 字
    native_place: str                 # 籍
    pos: Pos
    printed: str = ""                 # the entry's text, notes in ( )
    hao: str = ""                     # 號, where the list prints one (欽定儀禮義疏)
    remarks: tuple = ()               # variants (又字臺卿, 一作冲遠) and remarks, as printed


@dataclass
class _Tok:
    kind: str                         # text | note | gap
    s: str                            # as printed (a note without its parentheses)
    at: int                           # cells from the entry's start
    i: int                            # index in the line's text (a note's: its "(")
    w: int = 1                        # cells it fills


def _tokens(text: str, rows: dict | None = None) -> list[_Tok]:
    """The runs of a table line: full-size text, notes, U+3000 gaps, with the cell each starts
    at (a note is as wide as its longer row: its first row ends at rows[index] when known)."""
    out, at, i = [], 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "(":
            j = text.find(")", i)
            j = len(text) if j == -1 else j
            inner = text[i + 1:j]
            split = (rows or {}).get(i)
            width = max(split - i - 1, j - split) if split is not None else len(inner)
            out.append(_Tok("note", inner, at, i, width))
            at, i = at + width, j + 1
            continue
        kind = "gap" if ch in _WS else "text"
        j = i
        while j < len(text) and text[j] != "(" and (text[j] in _WS) == (kind == "gap"):
            j += 1
        out.append(_Tok(kind, text[i:j], at, i, j - i))
        at, i = at + (j - i), j
    return out


def _remark(s: str) -> bool:
    """A note that remarks on the list, not a cell of the entry: its words (以上, 今附於此 …),
    or too long for a name or a place and no variant (京兆筠州/一作 is a place and a variant)."""
    s = s.replace(" ", "")
    return bool(_REMARK_WORDS.search(s)) or (len(s) >= _REMARK_MIN and "一作" not in s and "一字" not in s)


_BEFORE = re.compile(r"以上([〇一二三四五六七八九十百]+)人")
_AFTER = re.compile(r"以下(\S{1,3}?)時人")


class Names:
    """A 引用姓氏 list read line by line: dynasty headings, entries, remark lines. Each entry
    is read by its cells' positions: after the surname (X氏, or X子 for 周子 程子 張子 朱子),
    the given name — a note right after it (欽定禮記義疏) or the full-size run after one gap
    (欽定儀禮義疏) —, then the courtesy name, in the columns before the native place's, and
    the native place (in small characters in both)."""

    def __init__(self):
        self.dynasty = ""
        self.entries: list[Entry] = []

    def dynasty_line(self, text: str) -> None:
        self.dynasty = heading_text(text)

    def line(self, text: str, pos: Pos, rows: dict | None = None) -> tuple[Entry | None, list]:
        """An entry line (`text` without indentation) → (its Entry, its NameEntry parts);
        (None, parts) for a line that is no entry (a remark)."""
        toks = _tokens(text, rows)
        head = toks[0] if toks else None
        m = re.fullmatch(r"(\S+?)([氏子])", head.s) if head and head.kind == "text" else None
        if m is None:
            self._remarked(text, None)
            return None, None
        e = Entry(self.dynasty, m.group(1), "", "", "", pos, text)
        parts: list = [NamePart(SURNAME, m.group(1)), m.group(2)]
        end = head.at + len(head.s)
        full_given = False
        remarked = False
        for t in toks[1:]:
            if t.kind == "gap":
                parts.append(t.s)
                continue
            note = t.kind == "note"
            if not e.given and not e.courtesy and not e.native_place and not remarked and (
                    (note and t.at == end) or (not note and t.at <= end + 1)):
                e.given, full_given = t.s, not note
                parts.append(NamePart(FORENAME, t.s, note))
            elif note and _remark(t.s) or remarked and not note:
                remarked = True
                e.remarks += (t.s,)
                parts.append(SmallNote(XIAOZHU, t.s, shifted(pos, t.i + 1)) if note else t.s)
            elif not note and t.s.startswith(_VARIANT):
                e.remarks += (t.s,)
                parts.append(t.s)
            elif note:
                parts.append(self._small_cell(e, t, full_given, pos))
            elif not e.courtesy and not e.native_place and t.at < _PLACE_ENDS_FULL:
                e.courtesy = t.s
                parts.append(NamePart(ZI, t.s))
            elif not e.hao and not e.native_place:
                e.hao = t.s
                parts.append(NamePart(HAO, t.s))
            else:
                e.remarks += (t.s,)
                parts.append(t.s)
        if e.hao and not e.native_place:       # a place printed full-size, in the 號's column
            e.native_place, e.hao = e.hao, ""
            for p in parts:
                if isinstance(p, NamePart) and p.kind == HAO:
                    p.kind = NATIVE
        self.entries.append(e)
        self._remarked("".join(e.remarks), e)
        return e, parts

    @staticmethod
    def _small_cell(e: Entry, t: _Tok, full_given: bool, pos: Pos):
        """A note of an entry after its given name: the courtesy name, in the columns before the
        native place's, or the native place (a note after it is a remark)."""
        in_place = t.at + t.w > _PLACE_ENDS_FULL if full_given else t.at >= _PLACE_STARTS_SMALL
        if not e.native_place and in_place or e.courtesy:
            if e.native_place:
                e.remarks += (t.s,)
                return SmallNote(XIAOZHU, t.s, shifted(pos, t.i + 1))
            e.native_place = t.s
            return NamePart(NATIVE, t.s, True)
        e.courtesy = t.s
        return NamePart(ZI, t.s, True)

    def _remarked(self, text: str, entry: Entry | None) -> None:
        """What a remark says of the entries around it: 以上N人未詳世次 (the N above, this one
        among them when it is the entry's own), 以下X時人 (this one and those after)."""
        m = _BEFORE.search(text)
        if m and "未詳" in text:
            for e in self.entries[-numerals.value(m.group(1)):]:
                e.dynasty = ""
        m = _AFTER.search(text)
        if m:
            self.dynasty = m.group(1)
            if entry is not None:
                entry.dynasty = self.dynasty



def xingshi(source) -> list[Entry]:
    """The scholars of a 引用姓氏 list: `source` is a Kanripo file's text (or its parsed
    lines, mandoku.Line), or a plain text whose lines are the list's printed lines. The list
    is found by its heading (the whole text is the list when there is none). Positions are the
    file's (the text's, for a plain text)."""
    from pipeline.sources import mandoku
    if isinstance(source, str):
        if mandoku.looks_like(source):
            source = mandoku.parse(source, "").lines
        else:
            lines = []
            for n, raw in enumerate(source.split("\n"), 1):
                body = raw.lstrip("\u3000")
                indent = len(raw) - len(body)
                lines.append((body.rstrip(_WS), indent, Pos(n, indent + 1), None))
            return _names(lines)
    lines = []
    for line in source:
        rows = {}
        for r in line.rows:                    # the note each row split is in
            opened = line.text.rfind("(", 0, r)
            if opened != -1:
                rows[opened - line.indent] = r - line.indent
        lines.append((line.text[line.indent:].rstrip(_WS), line.indent, _line_pos(line), rows))
    return _names(lines)


def _line_pos(line) -> Pos:
    """The file position of a printed line's first character after its indentation."""
    off = line.indent
    for start, sl, sc in reversed(line.cols):
        if start <= off:
            return Pos(sl, sc + off - start)
    return Pos(line.n, off + 1)


def _names(lines) -> list[Entry]:
    """(text, indent, pos, rows) lines → the entries of the 引用姓氏 list among them."""
    sc = Scanner()
    roles = []
    for text, indent, pos, rows in lines:
        roles.append(sc.role(text, indent) if text.strip(_WS) else None)
        roles[-1] = (roles[-1], sc.kind)
    listed = any(kind == XINGSHI for _, kind in roles)
    names = Names()
    for (text, indent, pos, rows), (role, kind) in zip(lines, roles):
        if role is None or (listed and kind != XINGSHI):
            continue
        if role == SECTION:
            names.dynasty_line(text)
        elif role in (ENTRY, PROSE):
            names.line(text, pos, rows)
    return names.entries
