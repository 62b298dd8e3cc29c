"""What each line of the front matter is (the scanner's roles: furniture, a heading, a
section, a tail, an author line, prose, a table row, a 引用姓氏 entry, a 考證 entry) with the
division it opens, and the division kinds a heading names (提要, 序, 凡例, 引用姓氏, 目録, 原目,
御製, 傳述人, 考證, 卷首); the cells of a printed line and the notes in it.
"""
from __future__ import annotations

import re

from pipeline.chars import NUMERALS
from pipeline.chars import WHITESPACE_CHARS as _WS
from pipeline.constants import SIKU_HEADERS as HEADERS
from pipeline.model import Pos
from pipeline.readers import kaozheng

# Division kinds (Div.kind) and the sections inside some of them
TIYAO, XU, FANLI, XINGSHI, MULU, YUANMU = "tiyao", "xu", "fanli", "xingshi", "mulu", "yuanmu"
YUZHI, CHUANSHU, KAOZHENG, JUANSHOU = "yuzhi", "chuanshu", "kaozheng", "juanshou"
BA = "ba"                          # 跋語: an editor's afterword (考證跋語), TEI <back>
SHENGZHI, GANGLING, DYNASTY = "shengzhi", "gangling", "dynasty"
UNNAMED = "front"                  # prose before any heading the reader knows
BODY_KINDS = frozenset((JUANSHOU,))
TABLES = frozenset((MULU, XINGSHI))

# What a line is (the scanner's roles)
FW, HEADING, SECTION, TAIL, RESP, CLOSING, PROSE, ROW, ENTRY, KZ = (
    "fw", "heading", "section", "tail", "resp", "closing", "prose", "row", "entry", "kz")

_TITLE = re.compile(r"(?:注疏|註疏|義疏|正義)$")                     # the work, on its first leaf
_JUANSHOU = re.compile(r"^\S+卷首[上下]?$")
_GANGLING = re.compile(rf"^綱領[{NUMERALS}]*$")
_MULU = re.compile(r"目[録錄录]$")
TIYAO_OPENS = re.compile(r"^[(（【]臣[)）】]等[謹谨]按")         # (臣)等謹按: a 提要 with no heading
# 侍讀(臣)齊召南謹言…, 編修(臣紱)謹言…: an editor's afterword (跋語), with no heading
BA_OPENS = re.compile(r"^[^()（）]{0,8}[(（【]臣[^()（）【】]{0,3}[)）】][^()（）]{0,4}[謹谨]言")
# An author line under a heading: 唐朝散大夫…臣賈公彥等奉勅撰, 漢鄭氏目録　唐賈公彥疏
AUTHOR = re.compile(r"^[唐漢宋晉魏隋元明梁陳齊周].*(?:撰|錄|録|疏|注|註|奉|述|音義)$")
# Lengths that tell a heading or an author line from prose, in characters (notes left out):
# an author line names a dynasty, offices and a name (唐朝散大夫行太學博士…臣賈公彥等奉勅撰: under
# 40), and its run-over onto the next column is the verb (勅撰: 4 at most); a heading stands 2
# cells in at most, is one cell of 16 or fewer (三禮注解傳述人, 周禮正義序考證) with up to two cells
# of furniture beside it (類, 屬); a dynasty of the 引用姓氏 is 1–3 characters (漢, 三國); a
# 序 title under 10 (周禮正義序, 序周禮廢興), where prose that ends in 序 runs longer.
_AUTHOR_MAX = 40
_AUTHOR_RUN_ON = 4
_HEADING_INDENT = 2
_HEADING_MAX = 16
_HEADING_CELLS = 3
_DYNASTY_MAX = 3
_PREFACE_MAX = 10
_CLOSING_LINE = re.compile(r"^[總总][　 ]*[纂校][　 ]*官")


# -- the printed line: cells and notes ------------------------------------------------------------
def heading_text(text: str) -> str:
    """The text without its small notes and whitespace (what headings are matched on)."""
    return re.sub(r"\([^()]*\)", "", text).strip(_WS)


def _cells(text: str) -> list[str]:
    """The cells of a line, split at whitespace runs outside notes."""
    return [c for c, _ in cells_at(text)]


def cells_at(text: str) -> list[tuple[str, int]]:
    """The cells of a line with the offset of each in it."""
    out, start, depth = [], None, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if ch in _WS and not depth:
            if start is not None:
                out.append((text[start:i], start))
                start = None
        elif start is None:
            start = i
    if start is not None:
        out.append((text[start:], start))
    return out


class Scanner:
    """What each line of the front matter is, line by line: the state is the open division.
    The same decisions are made on the printed lines (`paragraphs`) and on the paragraphs they
    make (`read`): a heading, furniture or a table row is a paragraph of one line, and a prose
    paragraph opens as its first line does."""

    def __init__(self):
        self.kind: str | None = None       # the open division
        self.head = ""                     # its heading, as printed: its tail repeats it
        self.top_head = ""                 # the 卷首's (its sections have their own)
        self.section: str | None = None
        self.after_fw = True               # after furniture (or at the start): a heading may follow
        self.after_head = False            # after the heading: an author line may follow
        self.resp_indent = -1              # the author line's (it may go on: …奉 / 勅撰)
        self.started = False               # this line opened a division or section

    @property
    def mode(self) -> str | None:
        """What the line's division is, for paragraphing: its section's kind inside a 卷首."""
        return self.section if self.kind == JUANSHOU and self.section else self.kind

    def role(self, text: str, indent: int) -> str:
        """The role of a line (its text without indentation, notes in parentheses)."""
        self.started = False
        plain = heading_text(text)
        cells = _cells(text)
        first = heading_text(cells[0]) if cells else ""
        if self.kind == KAOZHENG:
            if plain == self.head:
                return self._then(TAIL, closes=True)
            if first not in HEADERS:
                return self._then(KZ)
            self.kind = None                # no tail: the next leaf's header ends it
        if first in HEADERS:
            return self._then(FW, fw=True)
        if self.after_fw and "(" not in cells[0] and _TITLE.search(first) and \
                not _heading_kind(first, True):
            return self._then(FW, fw=True)
        if self.kind == JUANSHOU and plain == self.top_head:
            # on a new leaf its title again; after the text, its tail
            return self._then(FW if self.after_fw else TAIL, fw=self.after_fw,
                              closes=not self.after_fw)
        if self.after_head and self.kind in (XU, YUANMU, CHUANSHU) and "(" not in text and (
                (len(plain) <= _AUTHOR_MAX and AUTHOR.match(plain)) or
                (indent == self.resp_indent and len(plain) <= _AUTHOR_RUN_ON)):
            self.resp_indent = indent
            return self._then(RESP, head=True)
        if self.head and plain == self.head and self.kind not in (JUANSHOU, None):
            return self._then(TAIL, closes=True)    # the heading again: the division ends
        # a table names the divisions: there, only a new leaf's heading opens one
        if indent <= _HEADING_INDENT and len(first) <= _HEADING_MAX and len(cells) <= _HEADING_CELLS and (
                self.after_fw or self.kind not in TABLES):
            kind = _heading_kind(first, self.after_fw)
            if kind:
                self.kind, self.head, self.section, self.started = kind, first, None, True
                if kind == JUANSHOU:
                    self.top_head = first
                return self._then(HEADING, head=True)
        if TIYAO_OPENS.match(text) and self.kind != TIYAO:
            self.kind, self.head, self.section, self.started = TIYAO, "", None, True
            return self._then(PROSE)
        if BA_OPENS.match(text) and self.kind != BA:
            self.kind, self.head, self.section, self.started = BA, "", None, True
            return self._then(PROSE)
        if self.kind == JUANSHOU and (plain == "聖制" or (_GANGLING.match(first) and indent <= 1)):
            self.section, self.started = (SHENGZHI if plain == "聖制" else GANGLING), True
            return self._then(SECTION)
        if self.kind == XINGSHI and indent >= 1 and "(" not in text and len(plain) <= _DYNASTY_MAX \
                and not plain.endswith(("氏", "子")):
            self.started = True
            return self._then(SECTION)            # a dynasty
        if self.kind == TIYAO and _CLOSING_LINE.match(plain):
            return self._then(CLOSING)
        if self.kind == XINGSHI:
            return self._then(ENTRY)
        if self.kind == MULU:
            return self._then(ROW)
        return self._then(PROSE)

    def _then(self, role: str, fw: bool = False, head: bool = False, closes: bool = False) -> str:
        self.after_fw, self.after_head = fw, head
        if role != RESP:
            self.resp_indent = -1
        if closes:
            self.kind, self.section = None, None
        return role


def _heading_kind(first: str, after_fw: bool) -> str | None:
    """The division a heading names (its first cell, notes removed). 序 and 御製 headings are
    only taken at a division's start (after 欽定四庫全書 or the work's title, or the file's
    start): prose lines end in 序 too."""
    if kaozheng.HEAD.match(first):
        return KAOZHENG
    if first == "提要":
        return TIYAO
    if first.endswith("凡例"):
        return FANLI
    if first == "引用姓氏":
        return XINGSHI
    if first.endswith("原目"):
        return YUANMU
    if _MULU.search(first) and not first[:-1].endswith("氏目"):
        return MULU
    if first.endswith(("傳述人", "传述人")):
        return CHUANSHU
    if _JUANSHOU.match(first):
        return JUANSHOU
    if after_fw and len(first) <= _PREFACE_MAX and (first.endswith("序") or first.startswith("序")):
        return XU
    if after_fw and first.startswith("御製"):
        return YUZHI
    return None


def shifted(pos: Pos, offset: int) -> Pos:
    """The position `offset` characters further along the line."""
    return Pos(pos.line, pos.col + offset)
