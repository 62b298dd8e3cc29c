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

This module is the layout's face: its sniffs, the paragraphs of a Kanripo file, read. What a
line is (the scanner) is in pipeline/readers/front/scanner.py, the 引用姓氏 entries in
names.py, the document's divisions in builder.py.
"""
from __future__ import annotations

import re
from collections import Counter

from pipeline.chars import NUMERALS
from pipeline.chars import WHITESPACE_CHARS as _WS
from pipeline.model import Document, Pos
from pipeline.readers.front import names
from pipeline.readers.front.builder import Builder
from pipeline.readers.front.scanner import (BA_OPENS, FANLI, GANGLING, HEADING, KAOZHENG, KZ, PROSE,
                                            RESP, TABLES, TAIL, TIYAO, TIYAO_OPENS, YUANMU, Scanner,
                                            heading_text)
from pipeline.report import Report
from pipeline.sources.decoding import Source

NAME = "front"
DESCRIPTION = "四庫全書 front matter (Kanripo _000): 提要, 序, 凡例, 引用姓氏, 目録, 原目 and their 考證"

# The scholars of a 引用姓氏 list (pipeline/readers/front/names.py), asked by tests and tools
xingshi = names.xingshi
# A 篇 of the 原目 (曲禮上第一, 喪服第十一○子夏傳) with its notes
_PIAN = re.compile(rf"^[^()第]{{1,8}}第[{NUMERALS}]+(?=音義|疏|䟽|注|○|$)")
_FULL = 21                          # cells in a column of the 四庫 leaf (8 columns × 21)
# The sniffs' scale. A heading is a short first cell (20: under a column) near the margin (a
# heading stands at most 4 cells in; prose and table rows deeper are passed over). Each kind of
# front-matter heading seen adds 0.3 to 0.2: two kinds (a 提要 and its 恭校上, a 目録 and a 凡例)
# make 0.8, three the full score. A file of pages with no text scores 0.5: front matter nobody
# transcribed, and no other layout has a sign in it. A plain e-text is capped at 0.9: it rarely
# is front matter only, and a layout with signs of its own takes it.
_HEAD_CELLS = 20
_HEAD_INDENT = 4
_SNIFF_BASE = 0.2
_PER_KIND = 0.3
_PAGES_ONLY = 0.5
_PLAIN_CAP = 0.9


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
        if TIYAO_OPENS.match(head):
            found.add("提要")
            continue
        if BA_OPENS.match(head):
            found.add("跋語")
            continue
        if len(head) > _HEAD_CELLS or indent > _HEAD_INDENT:
            continue
        first = heading_text(head) if "(" in head else head
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
        return _PAGES_ONLY, "no text, pages only (front matter not transcribed)"
    if not found:
        return 0.0, "no front matter headings"
    return min(1.0, _SNIFF_BASE + _PER_KIND * len(found)), "front matter: " + ", ".join(sorted(found))


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
    return min(score, _PLAIN_CAP), why


def paragraphs(lines) -> list:
    """The printed lines joined into the paragraphs read() reads (see the module's doc)."""
    from pipeline.readers.zhushu import siku
    sc = Scanner()
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


# -- reading ---------------------------------------------------------------------------------------
def read(src: Source, report: Report) -> Document:
    b = Builder(src, report, NAME)
    sc = Scanner()
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
