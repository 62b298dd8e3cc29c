"""Kanripo's 四部叢刊 editions of the paren layout (mandoku): the same layout unpunctuated, the
注 in double-row small characters right after the 經 phrase with no marker (ASCII ( ) in the
file), its 音義 after ○ or 〇 inside the same note:

    周禮卷第一                              the 卷 (its tail title repeats it; 儀禮 adds
    天官冢宰第一　鄭氏註                    the count of its characters in a note), a 篇
    惟王建國(建立也…〇雒音洛…)辨方正位(…)   經(注〇音義) …, flowing from column to column
    …(…/重意哀公問君子毋不敬也)〇敖不可長…  纂圖互註禮記: cross-references close a note; a
                                            full-size ○ or 〇 opens a new 經 section

This module holds the sniff of such a file (`sniff_mandoku`), the joining of its printed lines
into paragraphs (`paragraphs`), and the reading of its titles and flowing paragraphs
(`read_edition`); pipeline/readers/zhushu/paren.py, the layout's face, hands a Kanripo source here.
"""
from __future__ import annotations

import re
from collections import Counter

from pipeline import persons
from pipeline.chars import NUMERALS
from pipeline.chars import WHITESPACE_CHARS as _WS
from pipeline.model import MARK, XIAOZHU, YINYI, Div, Fw, Head, Piece, Pos, Prose, SmallNote, Unit
from pipeline.readers.common import Builder, juan_number
from pipeline.readers.zhushu import pieces
from pipeline.report import Report
from pipeline.sources.decoding import Source
from pipeline.sources.located import Located

_NOTE = re.compile(r"\([^()]*\)")
# A note that follows a marker belongs to the 注疏 layouts (音義(…), 疏(…)), not to this one.
_MARKERS = ("音義", "音义", "疏", "䟽")
# The 卷 title, at the head or the tail of a 卷: 周禮卷第一, 纂圖互註禮記卷之二, and (naming the
# work as the edition does) 纂圗互註禮記之十三.
_JUAN = re.compile(rf"^(?P<work>[^{_WS}()]{{0,8}}?)(?P<kw>卷[第之]?|之)(?P<n>[{NUMERALS}]+)$")
_MULU = re.compile(rf"^[^{_WS}()]{{0,6}}目[録錄]$")
# A 篇 title, with its commentator on the same line or not: 天官冢宰第一　鄭氏註,
# 士冠禮第一　儀禮　鄭氏注, 曲禮上第一; a half (天官冢宰下) only with its commentator.
_WORDS = rf"(?:[^{_WS}()]{{1,4}}[{_WS}]*){{0,2}}?鄭氏[註注]"
_PIAN = re.compile(rf"^(?P<name>[^{_WS}()]{{1,10}}?(?:第[{NUMERALS}]+|(?P<half>[上下])(?!第)))"
                   rf"(?P<resp>[{_WS}]*{_WORDS})?$")
# The commentator on a line of his own: 禮記　鄭氏註, 禮記(陸曰…)鄭氏註.
_RESP = re.compile(rf"^{_WORDS}$")
# 纂圖互註 editions close notes with cross-references to other places of the classics:
# 重言 (the same words), 重意 (the same sense), 互註 (other works).
_CROSSREF = re.compile(r"重言|重意|互[註注]")
# Full-size signs of a drum score (投壺): there ○ and 〇 are notes of the score, not section marks.
_SCORE = "○〇◍◛□■"
_CIRCLE = re.compile(f"[{pieces.CIRCLES}]")
_CONTEXT = 32          # the pieces before a note its 音義 heads are looked for in
# The mandoku sniff's scale. These editions print every line at the margin but a few titles; the
# 注疏 and 義疏 editions indent their commentary, a quarter of their lines or more: up to 75 % at
# the margin nothing makes up for it, and the score grows to its full over the next 20 %.
_FLUSH_FROM = 0.75
_FLUSH_SPAN = 0.2
# A 卷 of page markers only, and a 目録 (a list, no notes): some layout must read them, and this
# one does, just above the detector's floor (0.2), below any layout with a sign of its own.
_PAGES_ONLY = 0.25
_CONTENTS_ONLY = 0.3


def sniff_mandoku(doc) -> tuple[float, str]:
    """The 注 right after each 經 phrase, in small characters with no marker, every line printed
    at the margin: the share of notes after no marker times the share of lines at the margin
    (the 注疏 put their notes after 音義 and 疏, the 義疏 indent their commentary)."""
    printed = [line for line in doc.lines if not line.blank]
    if not printed:
        return _PAGES_ONLY, "no printed text (a 卷 of page markers only)"
    margin, body = sum(line.indent == 0 for line in printed), len(printed)
    mulu = _MULU.match(doc.lines[0].body.strip(_WS))
    flush = margin / body
    if flush <= _FLUSH_FROM and not mulu:          # no share of notes makes up for it (the 義疏)
        return 0.0, f"{margin} of {body} lines at the margin"
    notes = unmarked = circled = 0
    closed = False                        # the line before ended in a note: a ( line goes on
    for line in printed:
        text = line.text
        for m in _NOTE.finditer(text):
            circled += _CIRCLE.search(text, m.start(), m.end()) is not None
            if m.start() == line.indent and closed:
                continue
            notes += 1
            unmarked += not text.endswith(_MARKERS, 0, m.start())
        closed = text.endswith(")")
    if mulu and unmarked == notes:
        return _CONTENTS_ONLY, f"a 目録 of {body} lines"
    if not notes:
        return 0.0, "no small-character notes"
    score = unmarked / notes * min(1.0, max(0.0, (flush - _FLUSH_FROM) / _FLUSH_SPAN))
    return score, (f"{unmarked} of {notes} notes after no marker, {circled} with ○/〇 inside, "
                   f"{margin} of {body} lines at the margin")


def paragraphs(lines) -> list:
    """Lines flow on from column to column: a paragraph runs on while its lines are full (the
    edition's width: 17 cells in 周禮 and 儀禮; 21–25 in 纂圖互註禮記, whose full columns vary
    by a cell, so 20 is full there) and ends at a short one. A line that opens with a note goes
    on with the paragraph before (the note continued, or the 注 of the 經 the line before ends
    with). Titles (卷, 篇, the commentator) and indented lines stand alone, with the notes that
    continue them; a blank column stands alone."""
    full = _full_width(lines)
    paras: list = []
    title = True                          # paras[-1] is a title (or a blank column)
    flowing = False                       # the next line may flow on into paras[-1]
    for line in lines:
        if line.blank:
            paras.append([line])
            title, flowing = True, False
            continue
        if line.opens_with_note() and paras and not paras[-1][-1].blank:
            paras[-1].append(line)
        elif flowing and not _title_line(line):
            paras[-1].append(line)
        else:
            paras.append([line])
            title = _title_line(line)
        flowing = not title and line.cells() >= full
    return paras


# A full column: its width varies by a few cells where notes fill it (a note's rows count whole),
# so a width up to 4 cells narrower than the commonest, and at least a fifth as frequent, is
# full too; where a tenth of the columns are wider than that, notes widen them (纂圖互註禮記's
# full-size columns hold 20 or 21), and one cell less is full.
_NARROWER = 4
_COMMON_PART = 5
_WIDER_PART = 10


def _full_width(lines) -> int:
    """The cells of a full column: the narrowest common width (the commonest, or one at most
    _NARROWER cells narrower and at least 1/_COMMON_PART as frequent); one less where
    1/_WIDER_PART of the columns are wider."""
    counts = Counter(c for c in (line.cells() for line in lines if not line.blank) if c)
    if not counts:
        return 0
    mode, top = counts.most_common(1)[0]
    full = min(w for w, k in counts.items()
               if w == mode or (mode - _NARROWER <= w < mode and k > 1 and _COMMON_PART * k >= top))
    wider = sum(k for w, k in counts.items() if w > full)
    return full - 1 if _WIDER_PART * wider >= sum(counts.values()) else full


def _title_line(line) -> bool:
    """A printed line that is a title: indented, or a 卷, 目録, 篇 or commentator line (its
    full-size text, the notes left out)."""
    if line.indent:
        return True
    body = line.text
    lead = body.split("(", 1)[0].strip(_WS)
    if lead and (_MULU.match(lead) or ((m := _JUAN.match(lead)) and m.group("kw") != "之")):
        return True
    full = _NOTE.sub("", body).strip(_WS)
    return bool(full) and (_pian(full) is not None or _RESP.match(full) is not None)


def _pian(full: str) -> re.Match | None:
    m = _PIAN.match(full)
    return m if m and (m.group("resp") or not m.group("half")) else None


def _runs(s: str) -> list[tuple[int, str, bool]]:
    """(offset, text, is a note) of the full-size runs and the notes of `s` (a note's text
    without its parentheses)."""
    out, at = [], 0
    for m in _NOTE.finditer(s):
        if m.start() > at:
            out.append((at, s[at:m.start()], False))
        out.append((m.start() + 1, m.group()[1:-1], True))
        at = m.end()
    if at < len(s):
        out.append((at, s[at:], False))
    return out


def _juan_title(text: str, work_title: str) -> re.Match | None:
    """A 卷 title: 卷第N or 卷之N after the work's name, or 之N after a name that ends as the
    edition's title does (纂圗互註禮記之十三)."""
    m = _JUAN.match(text) if text else None
    if m and m.group("kw") == "之" and not (work_title and len(m.group("work")) >= 2 and
                                           m.group("work").endswith(work_title[-2:])):
        return None
    return m


def read_edition(b: Builder, src: Source, report: Report):
    """The document of a Kanripo 四部叢刊 edition, built with `b` (the layout's Builder). The
    units are made here, each a block: these editions print no 疏 to resolve against them."""
    crossref = _CROSSREF if any(k in src.mandoku.title for k in ("互註", "互注")) else None
    title = src.mandoku.title
    mulu: Div | None = None                       # an open 目録 (a front-matter 卷)
    seen_text = False
    for n, raw in enumerate(src.text.split("\n"), 1):
        s = raw.strip(_WS)
        if not s:
            continue
        col = len(raw) - len(raw.lstrip(_WS)) + 1
        runs = _runs(s)
        lead = runs[0][1].strip(_WS) if not runs[0][2] else ""
        if mulu is None and not seen_text and _MULU.match(lead):
            b.top_div("mulu", lead, Pos(n, col))
            mulu = b.div
            _title_rest(b, runs[1:], n, col)
        elif mulu is not None:
            if lead == mulu.head.text:
                _closing(b, mulu, lead, runs[1:], n, col)
                mulu = None
            else:
                b.block(Prose(_prose_parts(runs, n, col), Pos(n, col)))
        elif not _edition_title(b, runs, lead, n, col, title, seen_text):
            body, tail = _glued_tail(b, s, title)
            for unit in _edition_paragraph(s[:body], n, col, b.zhu_resp, report, crossref):
                b.block(unit)
            seen_text = True
            if tail is not None:
                t_runs = _runs(s[body:])
                _closing(b, b.juan_div, t_runs[0][1], t_runs[1:], n, col + body)
    if not b.divs:
        # nothing printed but pages (S0054_000): an empty 卷 holds them
        b.juan_div = b.div = Div("juan", None)
        b.divs.append(b.div)
    return b.finish()


def _edition_title(b: Builder, runs, lead: str, n: int, col: int, work_title: str,
                   seen_text: bool) -> bool:
    """A 卷, 篇 or commentator title: its head, its notes (陸德明's on a 篇: prose after the
    head) and its commentator (furniture); a 卷 title printed again, the 卷's trailer (also
    when the head is lost with its page and the title comes after the text)."""
    m = _juan_title(lead, work_title)
    if m:
        juan = b.juan_div
        if juan is not None and juan.blocks and (juan.n == juan_number(m) if juan.head is not None
                                                 else seen_text):
            _closing(b, juan, lead, runs[1:], n, col)
        else:
            b.juan(lead, Pos(n, col), juan_number(m), m.group("work"))
            _title_rest(b, runs[1:], n, col)
        return True
    full = "".join(t for _, t, note in runs if not note).strip(_WS)
    if not full:
        return False
    p = _pian(full)
    if p is not None and lead.startswith(p.group("name")):
        name = p.group("name")
        off = runs[0][0] + runs[0][1].index(name)
        b.section(name, Pos(n, col + off))
        first = runs[0]
        rest = [(first[0] + first[1].index(name) + len(name), first[1][first[1].index(name) + len(name):],
                 False)] + runs[1:]
        _title_rest(b, rest, n, col)
        return True
    if _RESP.match(full):
        _title_rest(b, runs, n, col)
        return True
    return False


def _title_rest(b: Builder, runs, n: int, col: int) -> None:
    """What a title line prints after the title: the commentator (furniture, which names the
    注's author) and notes (陸德明's on the 篇 name: a paragraph of its own)."""
    for off, text, note in runs:
        text = text.strip(_WS)
        if not text:
            continue
        pos = Pos(n, col + off)
        if note:
            b.block(Prose([_title_note(text, pos)], pos))
        else:
            pid = persons.named_in(text)
            if pid and text.endswith(("注", "註")):
                b.zhu_resp, b.work_known = pid, True
            b.furniture(Fw(text, pos, "responsibility"))


def _title_note(text: str, pos: Pos) -> SmallNote:
    if text.lstrip(pieces.CIRCLES).startswith("陸"):
        return SmallNote(YINYI, text, pos, resp=pieces.LUDEMING)
    return SmallNote(XIAOZHU, text, pos)


def _prose_parts(runs, n: int, col: int) -> list:
    return [SmallNote(XIAOZHU, t, Pos(n, col + off)) if note else t for off, t, note in runs if t.strip(_WS)]


def _closing(b: Builder, div: Div, text: str, rest, n: int, col: int) -> None:
    """A title printed again at the end of what it heads: its trailer, and what the edition
    prints after it in small characters (儀禮's count of the 經 and 注 characters, 終, 畢) a
    trailer of its own."""
    had = len(div.trailers)
    b.closing_of(div, text.strip(_WS), Pos(n, col))
    small = "".join(t.strip(_WS) for _, t, _ in rest)
    if not small:
        return
    pos = Pos(n, col + rest[0][0])
    if len(div.trailers) > had:
        div.trailers.append(Head(small, pos, "closing"))
    else:                                  # the title was kept as furniture: so is this
        b.furniture(Fw(small, pos, "title"))


def _glued_tail(b: Builder, s: str, work_title: str) -> tuple[int, int | None]:
    """(end of the body, start of the tail title or None): a 卷's tail title printed right
    after its last note, on the same line (…(音如)周禮卷第七); it names the 卷 the head did."""
    juan = b.juan_div
    at = s.rfind(")")
    if juan is None or juan.head is None or at < 0:
        return len(s), None
    after = s[at + 1:].split("(", 1)[0]
    m = _juan_title(after.strip(_WS), work_title)
    if m is None or juan_number(m) != juan.n:
        return len(s), None
    return at + 1, at + 1


def _edition_paragraph(s: str, n: int, col: int, zhu_resp: str, report: Report, crossref) -> list[Unit]:
    """A paragraph of 經 phrases, each with its note: units, a new one at each full-size ○ or 〇
    (纂圖互註禮記's sections; the circle kept as a MARK piece opening it). A full-size 互註 (or
    重言) right before a note is a MARK, and the note a cross-reference."""
    units: list[Unit] = []
    cur: list = []                        # the open unit's pieces (and small notes)
    ctx: list[Piece] = []                 # its pieces: where its notes' 音義 heads are looked for

    def add(p) -> None:
        cur.append(p)
        if isinstance(p, Piece):
            ctx.append(p)

    def close() -> None:
        nonlocal cur, ctx
        if cur:
            units.append(Unit(cur, cur[0].pos))
        cur, ctx = [], []

    def full_size(a: int, z: int, before_note: bool) -> bool:
        """text[a:z], printed full-size; True when it ends in a cross-reference mark."""
        i = a
        for m in _CIRCLE.finditer(text, a, z):
            k = m.start()
            if (k > a and text[k - 1] in _SCORE) or (k + 1 < z and text[k + 1] in _SCORE):
                continue
            if k > i:
                add(pieces.jing(loc, i, k))
            close()
            add(Piece(MARK, text[k], loc.pos(k)))
            i = k + 1
        ref = crossref.search(text, max(i, z - 2), z) if crossref is not None and before_note else None
        mark_at = ref.start() if ref is not None and ref.end() == z else z
        if mark_at > i:
            add(pieces.jing(loc, i, mark_at))
        if mark_at < z:
            add(Piece(MARK, text[mark_at:z], loc.pos(mark_at)))
        return mark_at < z

    loc = Located.of(s, n, col)
    text, at = loc.text, 0
    for m in _NOTE.finditer(text):
        is_ref = full_size(at, m.start(), True)
        note = loc.slice(m.start() + 1, m.end() - 1)
        if is_ref and note.text:
            add(SmallNote(XIAOZHU, note.text, note.pos(0)))
        else:
            for p in pieces.printed_note(note, ctx[-_CONTEXT:], zhu_resp, report, crossref):
                add(p)
        at = m.end()
    full_size(at, len(text), False)
    close()
    return units
