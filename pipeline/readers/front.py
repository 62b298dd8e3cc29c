"""Layout `front`: the front matter of a 四庫全書 edition (Kanripo's `_000` file of a work).

    欽定四庫全書　　　　經部四                       furniture: the 庫 and the 部
    　周禮注疏　　　　　　禮類一(周禮之屬/)          the work, its 類 and (small) 屬
    目録                                            a division's heading
    　卷一 / 　　天官冢宰第一　　(治官之屬…/)         a table: each printed line a row
    　　　　(臣/)等謹按周禮注疏四十二巻漢鄭元注…      the 提要 (its heading may be missing)
    　　　　…乾隆四十二年三月恭校上                   its closing: the date, 總纂官, 總校官
    欽定四庫全書 / 　周禮正義序 / 　　唐…臣賈公彥等奉 / 　　勅撰 / text / 　周禮正義序
    　周禮正義序考證 / entries / 　周禮正義序考證      the 考證 of the division before

Each division starts on a new leaf with 欽定四庫全書 (the heading follows it, sometimes after
the work's title), except where it runs straight on: the 提要 after a 目録 opens with
`(臣)等謹按`, and 引用姓氏 and 三禮注解傳述人 start a leaf with their heading alone.

Divisions (Div.kind), in TEI `<front>`: tiyao 提要 · xu 序 (周禮正義序, 序周禮廢興 …) · fanli 凡例
· xingshi 引用姓氏 (a nested div per dynasty, kind dynasty) · mulu 目録/目錄 · yuanmu 原目 (鄭目録
with its 篇 notes: 音義 and 疏 as small notes of those kinds) · yuzhi 御製 (御製讀禮記文王世子篇) ·
chuanshu 三禮注解傳述人 · kaozheng 考證 (of a 序 or the 原目: its own division, as after a 卷).
In `<body>`: juanshou 卷首 (0068 prints it in its `_000`: sections shengzhi 聖制 and gangling
綱領N). The rule: what precedes the work's text (the editors' 提要, prefaces, 凡例, the lists of
scholars and of contents, and their 考證) is front matter; a 卷 of the work, 卷首 included (the
目録 lists it as a 卷, and 欽定儀禮義疏 prints its 卷首 in 卷 files), is the body. TEI needs a
body: a file with no 卷 gets an empty `<div type="juan" n="0"/>`.

Paragraphs (`paragraphs`): prose runs on from column to column and ends at a short column —
unless the next column is raised (抬頭: it starts left of the division's base indentation, to
honour 皇上, 御製, 聖祖 …, and goes on with the sentence: a line break, not a paragraph); a
凡例 item begins with 一, a 綱領 quotation at the margin; headings, furniture and table rows
stand alone (in a table a line opening with `(` is a new cell, not a continued note); the
transcription's bare ¶ of 欽定儀禮義疏 break nothing. The 考證 are read as the 注疏 reader
reads them (readers/siku.py, pipeline/readers/kaozheng.py).

The 提要's closing (the date ending 恭校上, the 總纂官 and 總校官 lines) is written as its
div's trailers: plain text, so the small 臣 in them is not kept small there (a note cannot stand
in a trailer of our model); so is the 屬 of the catalogue line in its fw. The 引用姓氏 entries
are parsed into names (`xingshi`): the person registry takes them, and the TEI marks them
(model.NameEntry → <persName>). A division is taken from its heading, furniture from its
cells, the rest as prose or table rows, so the front matter of other editions reads too (四部
叢刊's 周禮目録); a plain e-text of front matter (its notes in （）, 【】 or 〈〉) reads alike.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from pipeline import persons
from pipeline.chars import NUMERALS, WHITESPACE_CHARS as _WS
from pipeline.constants import SIKU_HEADERS as HEADERS
from pipeline.model import (AN, FORENAME, HAO, NATIVE, SHU, SURNAME, XIAOZHU, YINYI, ZI, Div,
                            Document, Fw, Head, Meta, NameEntry, NamePart, Pos, Prose, SmallNote,
                            assign_ids, persons_pointed_at)
from pipeline.readers import kaozheng
from pipeline.report import Report
from pipeline.sources.decoding import Source

NAME = "front"
DESCRIPTION = "四庫全書 front matter (Kanripo _000): 提要, 序, 凡例, 引用姓氏, 目録, 原目 and their 考證"

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

_BU = re.compile(rf"^[經史子集]部[{NUMERALS}]+$")                       # 經部四
_LEI = re.compile(rf"^\S{{1,4}}類[{NUMERALS}]+$")                        # 禮類一
_SHU_NOTE = re.compile(r"^\S{1,6}之屬$")                             # (周禮之屬)
_TITLE = re.compile(r"(?:注疏|註疏|義疏|正義)$")                     # the work, on its first leaf
_JUANSHOU = re.compile(r"^\S+卷首[上下]?$")
_GANGLING = re.compile(rf"^綱領[{NUMERALS}]*$")
_MULU = re.compile(r"目[録錄录]$")
# A 篇 of the 原目 (曲禮上第一, 喪服第十一○子夏傳) with its notes
_PIAN = re.compile(rf"^[^()第]{{1,8}}第[{NUMERALS}]+(?=音義|疏|䟽|注|○|$)")
_TIYAO_OPENS = re.compile(r"^[(（【]臣[)）】]等[謹谨]按")         # (臣)等謹按: a 提要 with no heading
# 侍讀(臣)齊召南謹言…, 編修(臣紱)謹言…: an editor's afterword (跋語), with no heading
_BA_OPENS = re.compile(r"^[^()（）]{0,8}[(（【]臣[^()（）【】]{0,3}[)）】][^()（）]{0,4}[謹谨]言")
# An author line under a heading: 唐朝散大夫…臣賈公彥等奉勅撰, 漢鄭氏目録　唐賈公彥疏
_AUTHOR = re.compile(r"^[唐漢宋晉魏隋元明梁陳齊周].*(?:撰|錄|録|疏|注|註|奉|述|音義)$")
_CLOSING_LINE = re.compile(r"^[總总][　 ]*[纂校][　 ]*官")
_DATE = re.compile(r"乾隆[^乾]{0,12}?恭校上$")                       # the 提要's date (乾隆 年 月恭校上)
_REMARK_WORDS = re.compile(r"以上|以下|附|未詳|不詳")
_VARIANT = ("又字", "一字", "一作", "又")
_FULL = 21                          # cells in a column of the 四庫 leaf (8 columns × 21)


# -- the printed line: cells and notes ------------------------------------------------------------
def _plain(text: str) -> str:
    """The text without its small notes and whitespace (what headings are matched on)."""
    return re.sub(r"\([^()]*\)", "", text).strip(_WS)


def _cells(text: str) -> list[str]:
    """The cells of a line, split at whitespace runs outside notes."""
    return [c for c, _ in _cells_at(text)]


def _cells_at(text: str) -> list[tuple[str, int]]:
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


class _Scanner:
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
        plain = _plain(text)
        cells = _cells(text)
        first = _plain(cells[0]) if cells else ""
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
                (len(plain) <= 40 and _AUTHOR.match(plain)) or
                (indent == self.resp_indent and len(plain) <= 4)):
            self.resp_indent = indent
            return self._then(RESP, head=True)
        if self.head and plain == self.head and self.kind not in (JUANSHOU, None):
            return self._then(TAIL, closes=True)    # the heading again: the division ends
        # a table names the divisions: there, only a new leaf's heading opens one
        if indent <= 2 and len(first) <= 16 and len(cells) <= 3 and (
                self.after_fw or self.kind not in TABLES):
            kind = _heading_kind(first, self.after_fw)
            if kind:
                self.kind, self.head, self.section, self.started = kind, first, None, True
                if kind == JUANSHOU:
                    self.top_head = first
                return self._then(HEADING, head=True)
        if _TIYAO_OPENS.match(text) and self.kind != TIYAO:
            self.kind, self.head, self.section, self.started = TIYAO, "", None, True
            return self._then(PROSE)
        if _BA_OPENS.match(text) and self.kind != BA:
            self.kind, self.head, self.section, self.started = BA, "", None, True
            return self._then(PROSE)
        if self.kind == JUANSHOU and (plain == "聖制" or (_GANGLING.match(first) and indent <= 1)):
            self.section, self.started = (SHENGZHI if plain == "聖制" else GANGLING), True
            return self._then(SECTION)
        if self.kind == XINGSHI and indent >= 1 and "(" not in text and len(plain) <= 3 \
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
    if after_fw and len(first) <= 10 and (first.endswith("序") or first.startswith("序")):
        return XU
    if after_fw and first.startswith("御製"):
        return YUZHI
    return None


# -- Kanripo: sniffing and paragraphs ------------------------------------------------------------
_STRONG = (("提要", re.compile(r"^(?:提要|[(（【]臣[)）】]等[謹谨]按)")), ("凡例", re.compile(r"凡例$")),
           ("引用姓氏", re.compile(r"^引用姓氏$")), ("目録", re.compile(r"^\S{0,8}目[録錄录]$")),
           ("原目", re.compile(r"原目$")), ("恭校上", re.compile(r"恭校上")),
           ("傳述人", re.compile(r"[傳传]述人$")))
_CUE_CHARS = frozenset("提凡姓目録錄录原述")
_PLAIN_CUES = ("提要", "凡例", "姓氏", "目録", "目錄", "目录", "原目", "恭校上", "述人")
_JUAN_TITLE = re.compile(rf"^\S+?[卷巻][第]?[{NUMERALS}]+(?:之[{NUMERALS}]+)?[上中下]?(?:\(.*\))?$")


def _census(lines) -> tuple[set, bool, int]:
    """(front headings seen, whether a 卷 title line was, lines of text) in (text, indent)
    lines, up to the first 卷 title: a file that has one is a 卷, whatever follows. The
    headings and 卷 titles are short first cells: the lines of text (most) are passed over
    with a look at their first cell's length and characters."""
    found, count = set(), 0
    for text, indent in lines:
        if not text.strip(_WS):
            continue
        count += 1
        if "恭校上" in text:
            found.add("恭校上")
        head = text.split("\u3000", 1)[0]
        if _TIYAO_OPENS.match(head):
            found.add("提要")
            continue
        if _BA_OPENS.match(head):
            found.add("跋語")
            continue
        if len(head) > 20 or indent > 4:
            continue
        first = _plain(head) if "(" in head else head
        if not _CUE_CHARS.isdisjoint(first):
            for name, pattern in _STRONG:
                if pattern.search(first):
                    found.add(name)
        if indent <= 1 and ("卷" in first or "巻" in first) and "\u3000" not in text.rstrip(_WS) \
                and _JUAN_TITLE.match(head):
            return found, True, count       # 禮記注疏卷一: a 卷 file (the 目録 prints bare 卷一)
    return found, False, count


def _score(found: set, juan: bool, lines: int) -> tuple[float, str]:
    if juan:
        return 0.0, "a 卷 title line"
    if not lines:
        return 0.5, "no text, pages only (front matter not transcribed)"
    if not found:
        return 0.0, "no front matter headings"
    return min(1.0, 0.2 + 0.3 * len(found)), "front matter: " + ", ".join(sorted(found))


def sniff_mandoku(doc) -> tuple[float, str]:
    """The front matter: its headings (提要 or `(臣)等謹按`, 凡例, 引用姓氏, 目録, 原目,
    傳述人, the 提要's 恭校上: from two on, the full score), and no 卷 title (a 卷 file names
    itself: 禮記注疏卷一; the 目録 lists bare 卷一). A file of pages with no text is front
    matter nobody transcribed (四部叢刊's 纂圖互註禮記)."""
    return _score(*_census((line.body, line.indent) for line in doc.lines))


def sniff(text: str) -> tuple[float, str]:
    """A plain e-text of front matter, one printed line or paragraph a line: the same cues.
    Capped below the other readers' full scores: a plain text rarely is front matter only."""
    if not any(cue in text for cue in _PLAIN_CUES):
        return 0.0, "no front matter headings"
    lines = []
    for raw in text.split("\n"):
        body = raw.lstrip("\u3000 ")
        lines.append((body.rstrip(_WS), len(raw) - len(body)))
    found, juan, count = _census(lines)
    if len(found) < 2:
        return 0.0, f"front matter headings: {len(found)}"
    score, why = _score(found, juan, count)
    return min(score, 0.9), why


def paragraphs(lines) -> list:
    """The printed lines joined into the paragraphs read() reads (see the module's doc)."""
    from pipeline.readers.zhushu import siku
    sc = _Scanner()
    marked = []                          # (line, role, division number, mode)
    division = 0
    for line in lines:
        if line.blank:
            marked.append((line, None, division, sc.mode))
            continue
        role = sc.role(line.body, line.indent)
        division += sc.started
        marked.append((line, role, division, sc.mode))
    shapes = _shapes(marked)
    out: list = []
    para: list | None = None             # the open prose (or author) paragraph
    para_role = None
    kz: list | None = None               # the lines of an open 考證, read as the 注疏 reader does
    for line, role, d, mode in marked:
        if kz is not None:
            if role in (KZ, TAIL, None):
                kz.append(line)
                if role == TAIL:
                    out += siku.paragraphs(kz)
                    kz = None
                continue
            out += siku.paragraphs(kz)   # a 考證 with no tail: ended by the next leaf's header
            kz = None
        if role is None:                 # a blank column, or the transcription's bare ¶
            if out and (not line.text or mode in TABLES):
                out[-1].append(line)
            else:
                out.append([line])
                para = None
            continue
        if role == HEADING and mode == KAOZHENG:
            kz, para = [line], None
            continue
        if para is not None and role == para_role and (
                line.indent == para[0].indent if role == RESP else
                role == PROSE and _continues(para, line, mode, shapes.get(d, (0, _FULL)))):
            para.append(line)
            continue
        out.append([line])
        para, para_role = (out[-1], role) if role in (PROSE, RESP) else (None, None)
    if kz is not None:
        out += siku.paragraphs(kz)
    return out


def _shapes(marked) -> dict:
    """Per division: (base indentation, column width) of its prose, the commonest of each over
    its full lines (a short line ends a paragraph; one raised left of the base is 抬頭)."""
    lines_of: dict = {}
    for line, role, d, _ in marked:
        if role == PROSE:
            lines_of.setdefault(d, []).append(line)
    out = {}
    for d, lines in lines_of.items():
        width = max(10, Counter(line.cells() for line in lines).most_common(1)[0][0])
        full = [line.indent for line in lines if line.cells() >= width - 1] or [0]
        out[d] = (Counter(full).most_common(1)[0][0], width)
    return out


def _continues(para: list, line, mode: str | None, shape: tuple[int, int]) -> bool:
    """Does the prose line `line` go on with the paragraph `para`?"""
    base, width = shape
    last = next(x for x in reversed(para) if not x.blank)
    short = last.cells() < width - 1
    if mode == FANLI:                    # an item begins with 一
        return not (line.body.startswith("一") and (short or line.indent < last.indent))
    if mode == GANGLING:                 # a quotation begins at the margin, runs on indented
        return line.indent > 0
    if mode == TIYAO and "恭校上" in line.body and not line.body.startswith("乾隆"):
        return True                      # the date broken over two columns
    if mode == YUANMU and last.text.endswith(")") and _PIAN.match(line.body):
        return False                     # a 篇 after a note that filled its column
    return not short or line.indent < base


# -- 引用姓氏: the scholars a 義疏 quotes ---------------------------------------------------------
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
    return bool(_REMARK_WORDS.search(s)) or (len(s) >= 6 and "一作" not in s and "一字" not in s)


_CN = {c: k for k, c in enumerate("〇一二三四五六七八九")}


def _number(s: str) -> int:
    """二十四 → 24 (the counts the remarks give)."""
    if s.isdigit():
        return int(s)
    n, cur = 0, 0
    for ch in s:
        if ch == "十":
            n += (cur or 1) * 10
            cur = 0
        elif ch == "百":
            n += (cur or 1) * 100
            cur = 0
        elif ch in _CN:
            cur = _CN[ch]
    return n + cur


_BEFORE = re.compile(r"以上([〇一二三四五六七八九十百]+)人")
_AFTER = re.compile(r"以下(\S{1,3}?)時人")


class _Names:
    """A 引用姓氏 list read line by line: dynasty headings, entries, remark lines. Each entry
    is read by its cells' positions: after the surname (X氏, or X子 for 周子 程子 張子 朱子),
    the given name — a note right after it (欽定禮記義疏) or the full-size run after one gap
    (欽定儀禮義疏) —, then the courtesy name, in the columns before the native place's, and
    the native place (in small characters in both)."""

    def __init__(self):
        self.dynasty = ""
        self.entries: list[Entry] = []

    def dynasty_line(self, text: str) -> None:
        self.dynasty = _plain(text)

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
                parts.append(SmallNote(XIAOZHU, t.s, _at(pos, t.i + 1)) if note else t.s)
            elif not note and t.s.startswith(_VARIANT):
                e.remarks += (t.s,)
                parts.append(t.s)
            elif note:
                # the columns: 字 before the native place's, which starts 7 cells in where the
                # name is small, and ends 9 cells in where it is full-size (a gap follows the
                # surname there, and a place of three characters stands a cell earlier)
                if not e.native_place and (t.at + t.w > 9 if full_given else t.at >= 7) or \
                        e.courtesy:
                    if e.native_place:
                        e.remarks += (t.s,)
                        parts.append(SmallNote(XIAOZHU, t.s, _at(pos, t.i + 1)))
                        continue
                    e.native_place = t.s
                    parts.append(NamePart(NATIVE, t.s, True))
                else:
                    e.courtesy = t.s
                    parts.append(NamePart(ZI, t.s, True))
            elif not e.courtesy and not e.native_place and t.at < 9:
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

    def _remarked(self, text: str, entry: Entry | None) -> None:
        """What a remark says of the entries around it: 以上N人未詳世次 (the N above, this one
        among them when it is the entry's own), 以下X時人 (this one and those after)."""
        m = _BEFORE.search(text)
        if m and "未詳" in text:
            for e in self.entries[-_number(m.group(1)):]:
                e.dynasty = ""
        m = _AFTER.search(text)
        if m:
            self.dynasty = m.group(1)
            if entry is not None:
                entry.dynasty = self.dynasty


def _at(pos: Pos, offset: int) -> Pos:
    return Pos(pos.line, pos.col + offset)


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
    sc = _Scanner()
    roles = []
    for text, indent, pos, rows in lines:
        roles.append(sc.role(text, indent) if text.strip(_WS) else None)
        roles[-1] = (roles[-1], sc.kind)
    listed = any(kind == XINGSHI for _, kind in roles)
    names = _Names()
    for (text, indent, pos, rows), (role, kind) in zip(lines, roles):
        if role is None or (listed and kind != XINGSHI):
            continue
        if role == SECTION:
            names.dynasty_line(text)
        elif role in (ENTRY, PROSE):
            names.line(text, pos, rows)
    return names.entries


# -- reading ---------------------------------------------------------------------------------------
def read(src: Source, report: Report) -> Document:
    b = _Builder(src, report)
    sc = _Scanner()
    for n, raw in enumerate(src.text.split("\n"), 1):
        body = raw.lstrip("\u3000")
        text = body.strip(_WS)
        if not text:
            continue
        lead = len(body) - len(body.lstrip(_WS))       # other whitespace before the text
        text = text.translate(b.brackets)
        role = sc.role(text, len(raw) - len(body))
        b.line(role, sc, text, Pos(n, len(raw) - len(body) + lead + 1))
    return b.finish()


class _Builder:
    """The divisions as the lines come: the furniture before a heading waits for it (a div's
    front), blocks go into the open section or division, closings into its trailers."""

    def __init__(self, src: Source, report: Report):
        self.src, self.report = src, report
        self.front: list[Div] = []
        self.body: list[Div] = []
        self.back: list[Div] = []
        self.div: Div | None = None            # the open top-level division
        self.section: Div | None = None        # the open section in it (卷首, 引用姓氏)
        self.pending: list[Fw] = []            # furniture before the next heading
        self.declared: dict = {}
        self.classification: list[str] = []
        self.names = _Names()
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
    def line(self, role: str, sc: _Scanner, text: str, pos: Pos) -> None:
        if sc.started and role == PROSE:       # a division that opens with its text (提要)
            self._open(sc.kind, None, pos)
        if role == FW:
            same = self.div.head if sc.kind == JUANSHOU and self.div is not None and \
                self.div.head is not None and _plain(text) == self.div.head.text else None
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
            self._trailer(m.group(), _at(pos, m.start()), TIYAO)
        else:                                  # prose, a table's row
            self.block(Prose(self._parts(text, pos, sc.kind == YUANMU), pos))

    def _furniture(self, text: str, pos: Pos, same=None) -> list[Fw]:
        """A furniture line's cells, each a fw: 欽定四庫全書, the 部, the work's title, the 類
        and its 屬 (small; the catalogue classification for the header too)."""
        out = []
        for cell, at in _cells_at(text):
            kind = "title"
            for part in self._parts(cell, _at(pos, at)):
                if isinstance(part, SmallNote):          # (周禮之屬): the 類's 屬
                    out.append(Fw(part.text, part.pos, kind))
                    if _SHU_NOTE.match(part.text):
                        self.classification.append(part.text)
                    continue
                main = part.strip(_WS)
                kind = "header" if main in HEADERS else "catalogue" if _BU.match(main) or \
                    _LEI.match(main) else "title"
                out.append(Fw(part, _at(pos, at), kind, same_as=same if kind == "title" else None))
                if kind == "catalogue":
                    self.classification.append(re.sub(f"[{NUMERALS}]+$", "", main))
        return out

    def _heading(self, kind: str, text: str, pos: Pos) -> None:
        """A division's heading: the head (its first cell, any note after it a small note), the
        other cells of its line furniture (類, 屬) or its author (唐孔穎達撰)."""
        cells = _cells_at(text)
        first, _ = cells[0]
        cut = first.find("(")
        div = self._open(kind, Head(first if cut == -1 else first[:cut], pos, kind), pos)
        if cut != -1:
            div.blocks.append(Prose(self._parts(first[cut:], _at(pos, cut)), _at(pos, cut)))
        for cell, at in cells[1:]:
            if _AUTHOR.match(cell) and "(" not in cell:
                div.blocks.append(Fw(cell, _at(pos, at), "responsibility"))
            else:
                div.blocks += self._furniture(cell, _at(pos, at))

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
            self.section.blocks.append(Prose(self._parts(text[cut:], _at(pos, cut)), _at(pos, cut)))

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
                out.append(SmallNote(kind, inner, _at(pos, i + 1), resp))
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
        meta = Meta(src.basename, src.sha256, NAME, work=self.work, juan=src.meta.get("juan", ""),
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
