"""Kanripo's 欽定三禮義疏 (mandoku): the sniff of such a file and the joining of its printed
lines into the lines of a plain 義疏 e-text, which pipeline/readers/yishu/reader.py reads.
"""
from __future__ import annotations

import re

from pipeline import persons
from pipeline.chars import WHITESPACE_CHARS as _WS
from pipeline.readers import pian
from pipeline.readers.common import CHAPTER
from pipeline.readers.yishu import smallnotes
from pipeline.readers.yishu.attribution import ATTRIBUTION, OPENING, attributions
from pipeline.readers.yishu.lines import CLOSING, HEADER, LINE_LABEL, juan_title, opens, unnoted

#     曲禮曰毋不敬儼若思安定辭安民哉(毋音無陸氏徳/明曰女内一畫)¶    經 at the margin
#     　(禁止意儼/魚檢反)¶                                       its note, going on (indented)
#     　正義鄭氏康成曰禮主於敬儼矜莊貌人之坐思貌¶                 a category paragraph, indented
#     　必儼然安定辭審言語也上三句可以安民　孔氏¶                 　 separates two scholars; a name
#     　穎逹曰孝經云禮者敬而已矣…¶                                 can run over the line end
#     　案…¶                                                      the compilers' judgment
#
# The printed lines are joined into the lines of a plain 義疏 e-text: one 經 passage, one
# commentary paragraph per line. The indentation of a paragraph's first line is kept, and the
# reader reads it: at the margin 經, indented the commentary.

# A column of the 四庫 leaf holds 21 cells. A line one cell short still fills its column: a
# separator U+3000 at the line end is not transcribed, and a note's rows are counted whole.
_FULL = 21
_SLACK = 1
# A commentary line is printed one to three cells in; one at the margin lost them.
_LOST_INDENT = 3
# A title (a 篇 under the 卷 title: 綱領一, 士冠禮) is shorter than its column.
TITLE_MAX = _FULL - 1
# The mandoku sniff's scale: a file whose title names a 義疏 has 0.4 of it already; categories,
# 案 and scholars named count 4 per printed line, twice the plain sniff's 2 per line, for a
# commentary paragraph runs over several printed lines (a sign on one line in four or five: the
# full score).
_MANDOKU_BASE = 0.1
_TITLE_WEIGHT = 0.4
_SIGN_WEIGHT = 4


def sniff_mandoku(doc) -> tuple[float, str]:
    """The 義疏: commentary paragraphs that open with a category and a scholar (正義鄭氏康成曰),
    the compilers' 案, scholars named where a line or a separating U+3000 begins."""
    count = cats = said = 0
    for line in doc.lines:
        if line.blank:
            continue
        count += 1
        body = line.body
        m = LINE_LABEL.match(body)
        if m and (m.group("an") and line.indent or ATTRIBUTION.match(body, m.end())):
            cats += 1
        elif ATTRIBUTION.match(body):
            said += 1
        if "\u3000" in body:                    # a scholar after the separator
            said += sum(1 for part in body.split("\u3000")[1:] if ATTRIBUTION.match(part))
    title = "義疏" in doc.title or "義䟽" in doc.title or "义疏" in doc.title
    signs = cats + said
    if not count or signs < 2:
        return 0.0, f"{signs} 義疏 categories or quoted scholars"
    return min(1.0, _MANDOKU_BASE + _TITLE_WEIGHT * title + _SIGN_WEIGHT * signs / count), \
        f"{cats} 義疏 categories or 案, {said} scholars quoted, in {count} lines" + \
        (f"; the title {doc.title}" if title else "")


def category_lines(doc) -> int:
    """Lines that open with a 義疏 category and the scholar it quotes (the 注疏 reader asks)."""
    return sum(1 for line in doc.lines if (m := LINE_LABEL.match(line.body)) and m.group("label")
               and ATTRIBUTION.match(line.body, m.end()))


def paragraphs(lines) -> list:
    """The printed lines joined into the paragraphs of a plain 義疏 e-text.

    A 經 passage runs on at the margin while its lines fill their columns; its note goes on
    on an indented line that opens with `(`. A commentary paragraph opens with a category or
    案 and runs on over the indented lines that follow a full line; a line that opens with a
    scholar (the separator fell at the line start) goes on with it too. Titles, furniture,
    `右…` closings and blank columns stand alone; a line with no cell at all (a transcription
    artefact, 欽定儀禮義疏 has thousands) is no line of the book: it goes along with the
    paragraph it falls in, for its line break and its pages.

    Where the transcription lost a commentary line's indentation (欽定儀禮義疏), the margin
    line still tells: it opens with a category or a scholar, or it continues a full commentary
    line and the indented lines after it continue it, or it sits in a run of margin lines one
    to three cells short of a column (the indentation the print had) — unless a category
    paragraph comments on it: then it is 經."""
    out: list = []
    para: list | None = None
    kind = ""                                   # "jing", "comment" or "" (nothing open)
    last = None                                 # the open paragraph's last line with text
    blank = [not line.text.strip(_WS) for line in lines]
    nxt = _next_text(lines, blank)
    after_title = False
    margin: list[int] = []                      # widths of the open commentary's margin lines
    for i, line in enumerate(lines):
        if not line.text:                       # an artefact: no cell, no line of the book
            if para is not None:
                para.append(line)
            else:
                out.append([line])
            continue
        k = "blank" if blank[i] else _kind(line, kind, last, nxt[i], after_title, margin)
        after_title = k == "title" or (after_title and blank[i])
        if k == "cont":
            para.append(line)
            last = line
        elif k == "blank":
            out.append([line])
            para, kind, last = None, "", None
        elif k in ("alone", "title"):            # only a note going on continues a title
            para = [line]
            out.append(para)
            kind, last = "title", line
        else:
            para = [line]
            out.append(para)
            kind, last = k, line
        if k != "cont":
            margin = []
        if kind == "comment" and line.indent == 0:
            margin.append(_width(line))
    return out


def _next_text(lines, blank: list) -> list:
    """For each line, the next line that prints something (None at the end)."""
    out = [None] * len(lines)
    ahead = None
    for i in range(len(lines) - 1, -1, -1):
        out[i] = ahead
        if not blank[i]:
            ahead = lines[i]
    return out


def _kind(line, kind: str, last, nxt, after_title: bool, margin: list) -> str:
    """What a printed line is to the paragraph open before it: its continuation ("cont"), the
    start of a 經 or a commentary paragraph, a title or other line standing alone."""
    body = line.body
    masked = smallnotes.mask(body).rstrip(_WS)
    if line.indent == 0 and (HEADER.match(body) or juan_title(masked)):
        return "title"
    if line.indent and (CHAPTER.match(masked) or pian.title(masked) is not None):
        return "alone"
    opening = opens(body)
    full = last is not None and _full(last, kind, margin)
    if opening == "note":
        if kind == "title" and not last.text.endswith(")"):
            return "comment" if line.indent else "jing"
        return "cont" if kind else ("comment" if line.indent else "jing")
    if after_title and line.indent and not opening and len(masked) <= TITLE_MAX:
        return "alone"                          # the 篇 under the 卷 title (綱領一, 士冠禮)
    if opening == "label":
        return "cont" if kind == "comment" and full and not _opens_paragraph(body, last) else "comment"
    if opening == "said" or line.indent == 0 and _quotes_inside(body, masked):
        return "cont" if kind == "comment" else "comment"
    if line.indent == 0:
        if kind == "jing" and full:
            return "cont"
        if CLOSING.match(masked) and _width(line) < _FULL - _SLACK:
            return "alone"                      # 右…: closes a section
        goes_on = _goes_on(nxt)
        # a line that a category paragraph comments on is 經, though it follows commentary
        # printed at the margin
        commented = nxt is not None and nxt.indent > 0 and opens(nxt.body) == "label"
        if kind == "comment" and full and (goes_on or _SHU_NOTE.search(body) or
                                          last.indent == 0 and not commented):
            return "cont"
        if kind == "comment" and goes_on and _width(line) >= _FULL - _SLACK:
            return "comment"                    # a paragraph hung at the margin (卷首 綱領)
        return "jing"
    if kind == "comment" and full:
        return "cont"
    return "comment"



def _opens_paragraph(body: str, last) -> bool:
    """A category or 案 after a full line: a new paragraph, or a word of the one before? A
    category opens one when a scholar follows it or it stands alone (正義¶); 案 does unless
    the line before ends on 又 (又案) or on the 曰 of a scholar whose words begin with 案."""
    m = LINE_LABEL.match(body)
    if m is None:                               # 鄉飲酒總論: a scholar follows
        return True
    if m.group("label"):
        return m.end() == len(body) or bool(ATTRIBUTION.match(body, m.end()) or
                                             OPENING.match(body[m.end():]))
    return not last.text.endswith(("又", "曰"))


def _goes_on(line) -> bool:
    """Is this line the indented continuation of the one before (no label, scholar or note:
    a note going on could be a 經's as well)?"""
    return line is not None and line.indent > 0 and not opens(line.body)


def _quotes_inside(body: str, masked: str) -> bool:
    """Does a line separate two scholars with U+3000, or quote one the registry knows? No 經
    line does (a 經 can read like an attribution: 舎於子夏氏子夏曰): a line at the margin
    that does is commentary whose indentation the transcription lost."""
    return "\u3000" in unnoted(body) or "曰" in masked and any(
        persons.alias(m.group("alias")) if m.group("alias") else
        persons.lookup(m.group("sur"), m.group("given"))
        for m in attributions(masked))


# A note quoting the 疏 (賈疏…, 孔疏…) explains the 注, which only the commentary quotes
_SHU_NOTE = re.compile(r"\((?:賈|孔)[疏䟽]")



def _full(line, kind: str, margin: list = ()) -> bool:
    """Does the line fill its column? A commentary line at the margin lost the one to three
    cells of indentation it was printed with: alone, it fills its column one or two cells
    short; in a run of such lines, as wide as the widest of them (a cell less: a scholar's
    line starts a cell further in)."""
    width = _width(line)
    if kind == "comment" and line.indent == 0:
        if len(margin) > 1:
            return width >= max(_FULL - _LOST_INDENT - _SLACK, min(max(margin), _FULL - 1) - _SLACK)
        if opens(line.body) in ("label", "said"):      # printed 1 to 3 cells in
            return width >= _FULL - _LOST_INDENT - _SLACK
        return width + 1 >= _FULL - _SLACK
    return width >= _FULL - _SLACK


_SEGMENT = re.compile(r"\(([^()]*)\)")


def _width(line) -> int:
    """The cells a printed line fills: a character one, a note the longer of its two rows. A
    note whose row split was not transcribed (欽定儀禮義疏 has none) stood in two rows all
    the same: half its characters, rounded up."""
    text = line.text
    if "(" not in text:
        return len(text)
    rows, n, at = line.rows, 0, 0
    for m in _SEGMENT.finditer(text):
        n += m.start() - at
        a, b = m.start(1), m.end(1)
        split = next((r for r in rows if a <= r <= b), None)
        n += max(split - a, b - split) if split is not None else (b - a + 1) // 2
        at = m.end()
    return n + len(text) - at
