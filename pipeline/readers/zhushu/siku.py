"""Layout `siku`: 文淵閣 四庫全書 editions of the 注疏 as plain text, unpunctuated.

    钦定四库全书                                  furniture
    礼记注疏卷三                                  the 卷 (names the work)
    汉郑氏注　唐陆德明音义　孔颖达疏             the commentators
    檀弓上第三                                    a chapter: a section of the 卷
    經…注注文…音义【毋音无…】經…注…疏【公仪至闻也正义曰…○注仲子至立庶○正义曰…】

One line per 經 paragraph: a bare 注 opens each 注, 音义【…】 holds the glosses, 疏【…】 the
sub-commentary, whose lemmas have no quotation marks. Where a 注 ends and the next 經 sentence
begins nothing is printed; the 疏 lemmas tell (pipeline/readers/zhushu/segment.py).
"""
from __future__ import annotations

import re

from pipeline import persons
from pipeline.chars import WHITESPACE, WHITESPACE_CHARS as _WS
from pipeline.constants import SIKU_HEADER
from pipeline.model import MARK, XIAOZHU, YINYI, Fw, Pos, Prose, SmallNote, Unit
from pipeline.readers import common, kaozheng, pian
from pipeline.readers.common import CHAPTER, juan_line, juan_number
from pipeline.readers.yishu import reader as yishu
from pipeline.readers.zhushu import bare_quotes, cues, pieces
from pipeline.readers.zhushu.grammar import RawLine, ZhushuBuilder, located
from pipeline.readers.zhushu.labelling import SCORE, ZHU_OPEN, B
from pipeline.readers.zhushu.segment import segment as segment_group
from pipeline.readers.zhushu.shu import OPENER
from pipeline.report import Report
from pipeline.sources.decoding import Source
from pipeline.sources.located import Located

NAME = "siku"
DESCRIPTION = "四庫全書 注疏, unpunctuated: bare 注 before each 注, 音义【…】, 疏【…】 inline"
# The test of real structure (convert refuses a text this layout reads as next to none).
structure_missing = common.structure_missing

HEADER = re.compile(rf"^(?:{SIKU_HEADER})$")
_ROLE = r"[^\s　]{1,10}(?:注|註|疏|䟽|音义|音義|释文|釋文)"
RESPONSIBILITY = re.compile(rf"^{_ROLE}(?:[\s　]+{_ROLE})+$")
# The small-character notes after their markers: 【…】 in plain e-texts, (…) in Kanripo's; the
# 疏 also printed 䟽.
_YINYI = re.compile(r"(音义|音義)(?:【([^【】]*)】|\(([^()]*)\))")
_SHU = re.compile(r"(疏|䟽)(?:【([^【】]*)】|\(([^()]*)\))")
# The bare 注 that opens a 注, printed right before the 注's text (see zhu_markers).
_ZHU_MARK = re.compile(r"[注註]")
# The edition's misprints of 疏 before a 疏 (kanripo.md §0 rule 10): `注(釋曰…`, `蔬(正義曰…`.
# Only where the note opens in the 疏's own voice (13: 釋曰, 正義曰, or 注釋曰/注正義曰 where
# it turns to the 注 at once): an unmarked note after a 注 is something else, a lacuna
# `注(空空/)`.
_SHU_NOTE = re.compile(rf"(疏|䟽)(?:【([^【】]*)】|\(([^()]*)\))|"
                       rf"([注註蔬])\(((?:注|註)?(?:{OPENER})[^()]*)\)")
# A note's `)` and a `(` with only whitespace between: the note goes on (paragraphs.join joins
# those a line break separates; these stand on one line).
_GAP = re.compile(rf"\)[{''.join(sorted(WHITESPACE))}]*\(")
# A title's notes: where the title ends, and each note on it with its marker.
_NOTE_START = re.compile(r"(?:音義|音义|疏|䟽)?\(")
_TITLE_NOTE = re.compile(r"(音義|音义|疏|䟽)?\(([^()]*)\)")


# How sure the sniffers are. Inline 疏【…】 with next to no punctuation (at most one mark in
# PUNCTUATED characters: a punctuated e-text has one a sentence) is this layout: BASE; the
# 四庫's header line adds HEADER_BONUS, and each inline note a share up to NOTES_BONUS (a text
# of NOTES_FULL notes is surely one), so a long 四庫 text outweighs any other reader's guess.
PUNCTUATED = 200
BASE, HEADER_BONUS, NOTES_BONUS, NOTES_FULL = 0.5, 0.3, 0.2, 50
# Kanripo's 四庫 has no header line to go by: its notes alone, to certainty at MANDOKU_FULL.
MANDOKU_FULL = 40


def sniff(text: str) -> tuple[float, str]:
    head = text[:2000]
    shu = len(_SHU.findall(text))
    yinyi = len(_YINYI.findall(text))
    siku = bool(re.search(SIKU_HEADER, head))
    punct = text.count("，") + text.count("。")
    if not shu or punct > len(text) // PUNCTUATED:
        return 0.0, f"{shu} 疏【…】, {punct} punctuation marks"
    return min(1.0, BASE + HEADER_BONUS * siku + min(NOTES_BONUS, (shu + yinyi) / NOTES_FULL)), \
        f"{shu} inline 疏【…】 and {yinyi} 音义【…】, unpunctuated" + (", 钦定四库全书" if siku else "")


def continues(unit: list[RawLine], s: str) -> bool:
    return False


# -- Kanripo's 四庫 editions (mandoku) --------------------------------------------------------------
def sniff_mandoku(doc) -> tuple[float, str]:
    """The 四庫 注疏: 音義(…) and 疏(…) notes after their markers, 注 inline."""
    text = "".join(line.text for line in doc.lines)
    shu = len(_SHU.findall(text))
    yinyi = len(_YINYI.findall(text))
    zhu = text.count("注")
    if not shu:
        return 0.0, f"no 疏(…) notes ({yinyi} 音義(…))"
    cats = yishu.category_lines(doc)
    if cats > shu + yinyi:                   # a 義疏 quoting a 疏 now and then
        return 0.0, f"{cats} lines open with a 義疏 category, more than its {shu + yinyi} notes"
    return min(1.0, BASE + (shu + yinyi) / MANDOKU_FULL), f"{shu} 疏(…) and {yinyi} 音義(…) notes, {zhu} 注 marks"


def paragraphs(lines) -> list:
    """The body runs on from column to column: one paragraph of every line printed at the
    margin, up to the next line printed indented (a title, the commentators) or blank, which
    stand alone, as the furniture of a plain e-text does; 欽定四庫全書 stands alone too. The
    line printed indented right under the commentators is the 篇 title (kanripo.md §0 rule 9):
    a paragraph of its own even when it carries notes, with the indented lines that go on with
    them (考工記's 音義 and 疏 under its title), but not the 經 at the margin after it. In a
    考證 an entry starts at the margin and runs on over the indented lines after it, but an
    indented line after a short one starts a further note of its own (又…, 疏…)."""
    from pipeline.sources.paragraphs import flow
    out: list = []
    body: list = []
    head = None
    after_commentators = False               # the line before was the commentators line
    title: list | None = None                # the 篇 title's paragraph while its notes go on
    for line in lines:
        text = line.text.strip(_WS)
        if title is not None and line.indent and line.opens_with_note():
            title.append(line)
            continue
        title = None
        if head is None and after_commentators and _pian_title(line, text):
            out += flow(body, _stands_alone)
            body, title = [], [line]
            out.append(title)
        elif head is None and kaozheng.HEAD.match(text):
            out += flow(body, _stands_alone)
            body, head = [], text
            out.append([line])
        elif head is not None:
            if text == head or line.blank or HEADER.match(text):
                out.append([line])
                head = None if text == head else head
            elif line.indent == 0 or not out or len(out[-1]) == 0 or out[-1][-1].blank or \
                    out[-1][-1].cells() < _FULL or _title(out[-1][-1]):
                out.append([line])
            else:
                out[-1].append(line)
        else:
            body.append(line)
        after_commentators = head is None and bool(RESPONSIBILITY.match(text))
    return out + flow(body, _stands_alone)


def _pian_title(line, text: str) -> bool:
    """Is this line, printed right under the commentators, the 篇 title? It is printed
    indented, like every title of the 卷 (the body stands at the margin); a 卷 title or a 考證
    head printed there instead is not a 篇's."""
    return line.indent > 0 and not line.blank and not _title(line) and juan_line(text) is None


_FULL = 21            # cells in a column of the 四庫 leaf (8 columns × 21 per half-leaf)


def _stands_alone(line) -> bool:
    """Furniture stands alone: 欽定四庫全書, and what the body prints indented with no note in
    it (titles, the commentators; an indented passage of text and notes flows on)."""
    return bool(HEADER.match(line.text)) or (line.indent > 0 and "(" not in line.text)


def _title(line) -> bool:
    text = line.text.strip(_WS)
    return bool(kaozheng.HEAD.match(text) or HEADER.match(text))


# A drum score (the 投壺 of 禮記): beats printed as ○ 鼙 and □ 鼓, 半 a half beat.
_SCORE = re.compile(r"[○□半◍◛〇]{4,}")
_CIRCLE = re.compile("○")


def marks(text: str, circle_is_text: bool = False) -> list[tuple[int, int, str]]:
    """What the line prints to separate layers: 音义【…】 and the bare 注 before each 注. Where
    ○ is printed text (a Kanripo source), a drum score is 經 kept as it is, and any other ○ a
    printed mark after which the 經 goes on (儀禮注疏 sets one before each section)."""
    out: list[tuple[int, int, str]] = []
    taken = []
    if circle_is_text:
        for m in _SCORE.finditer(text):
            if "○" in m.group() and "□" in m.group():
                out.append((m.start(), m.end(), SCORE))
                taken.append(m.span())
        for m in _CIRCLE.finditer(text):
            if not any(a <= m.start() < b for a, b in taken):
                out.append((m.start(), m.end(), MARK))
    for m in _YINYI.finditer(text):
        a, b = m.span()
        inner = 2 if m.group(2) is not None else 3
        out += [(a, m.end(1), MARK), (m.end(1), m.end(1) + 1, B), (m.start(inner), m.end(inner), YINYI),
                (b - 1, b, B)]
        taken.append((a, b))
    candidates = [m.start() for m in _ZHU_MARK.finditer(text)
                  if m.start() > 0 and not any(a <= m.start() < b for a, b in taken)]
    for i in zhu_markers(text, candidates, [m.span() for m in _ANY_NOTE.finditer(text)]):
        out += [(i, i + 1, MARK), (i + 1, i + 1, ZHU_OPEN)]
    return out


def zhu_markers(text: str, candidates: list[int], notes: list[tuple[int, int]] = ()) -> list[int]:
    """Which of the 注 (註) at `candidates` are bare 注 markers: all but one followed by 云 after
    a marker with no note between. Inside a 注, `X注云` is the 注 citing a commentary by name
    (杜子春注云, 彼注云: X's commentary says), the word of its text; right after a 經 (the first
    marker after a note) 注云 opens a 注 that quotes its text (喪服: 注云君子子者則父在也, 鄭玄 on
    the 傳's words)."""
    out: list[int] = []
    for i in candidates:
        if out and text.startswith("云", i + 1) and not any(out[-1] < a < i for a, _ in notes):
            continue
        out.append(i)
    return out


def segment(raw_units: list[list[RawLine]], shus, b: ZhushuBuilder) -> list[Unit]:
    lines = located(raw_units)
    circle_is_text = "○" not in b.src.delimiters
    return segment_group(lines, shus, b.zhu_resp, b.report,
                         [marks(l.text, circle_is_text) for l in lines], free=("jing",),
                         bare_quotes=True, layer_model=b.layer_model, clauses=b.quoted_clauses)


# A note with its marker (a bare note too), as the body prints it; and the 注 marker.
_ANY_NOTE = re.compile(r"(?:音义|音義|疏|䟽|蔬|注|註)?(?:【[^【】]*】|\([^()]*\))")


def layer_model(text: str) -> cues.LayerModel:
    """The 經 and 注 statistics of a text's unambiguous runs (cues.LayerModel). In a paragraph
    line, the full-size run between two notes is read at its 注 markers: what comes before the
    first is 經 (a note is followed by 經: kanripo.md §0 rule 11), what follows the last, up to
    the next note, is 注; a run between two 注 markers holds a 注 and an unmarked 經, and teaches
    nothing. Lines with no note (titles, furniture) are left out."""
    jing, zhu = [], []
    for raw in text.split("\n"):
        if "(" not in raw and "【" not in raw:
            continue
        s = raw.strip(_WS)
        chunks = _ANY_NOTE.split(s)
        for k, chunk in enumerate(chunks):
            cuts = zhu_markers(chunk, [m.start() for m in _ZHU_MARK.finditer(chunk)])
            runs = [chunk[a:b] for a, b in zip([0] + [c + 1 for c in cuts], cuts + [len(chunk)])]
            if runs[0]:
                jing.append(runs[0])
            if len(runs) == 2 and runs[1] and k + 1 < len(chunks):
                zhu.append(runs[1])
    return cues.LayerModel(jing, zhu)


def quoted_clauses(text: str) -> bare_quotes.QuotedClauses:
    """The 經 clauses the 卷's 疏 quote (bare_quotes.QuotedClauses), from every 疏 note."""
    return bare_quotes.QuotedClauses([next(g for g in (m.group(2), m.group(3), m.group(5)) if g is not None)
                                      for m in _SHU_NOTE.finditer(text)])


def read(src: Source, report: Report):
    b = ZhushuBuilder(src, report, NAME, segment, continues)
    b.layer_model = layer_model(src.text)
    b.quoted_clauses = quoted_clauses(src.text)
    b.bare_lemmas = True
    b.lemmas_printed = src.mandoku is None
    kaozheng_head = None                      # inside a 考證: its head line, which also ends it
    after_commentators = False                # the paragraph before was the commentators line
    for n, raw in enumerate(src.text.split("\n"), 1):
        s = raw.strip(_WS)
        if not s:
            continue
        col = len(raw) - len(raw.lstrip(_WS)) + 1
        pos = Pos(n, col)
        if kaozheng_head is not None:
            if s == kaozheng_head:
                b.closing_of(b.div, s, pos)
                kaozheng_head = None
            elif HEADER.match(s):
                b.furniture(Fw(s, pos, "header"))
            else:
                b.block(kaozheng.entry(s, pos, report, b.declared))
        elif HEADER.match(s):
            b.furniture(Fw(s, pos, "header"))
        elif kaozheng.HEAD.match(s):
            b.top_div("kaozheng", s, pos)
            kaozheng_head = s
        elif (m := juan_line(s)) and b.juan_div is not None and b.juan_div.head is not None \
                and (b.juan_div.head.text == s or (b.juan_div.n and b.juan_div.n == juan_number(m))):
            # the 卷's title printed again at its end (also with a variant form: 巻/卷, 疏/䟽)
            b.closing_of(b.juan_div, s, pos)
        elif m:
            b.juan(s, pos, juan_number(m), m.group("work"))
        elif RESPONSIBILITY.match(s):
            _commentators(b, s)
            b.furniture(Fw(s, pos, "responsibility"))
            after_commentators = True
            continue
        elif src.mandoku is not None and after_commentators and raw.startswith("\u3000"):
            _pian(b, n, col, s)                       # the 篇 title under the commentators
        elif CHAPTER.match(s) or pian.title(s) or (src.mandoku is not None and _title_line(raw, s)):
            b.section(s, pos)
        else:
            _line(b, n, col, s)
        after_commentators = False
    return b.finish()


def _title_line(raw: str, s: str) -> bool:
    """In a Kanripo 四庫 注疏 the body is printed at the margin: a short line printed indented,
    with no note, is a title (曲禮上, 檀弓下, 大學: the 篇 without 第N)."""
    return raw.startswith("\u3000") and "(" not in s and len(s) <= 16


def _line(b: ZhushuBuilder, n: int, col: int, s: str) -> None:
    """A paragraph line: its 經/注/音義 text is a unit, each 疏【…】 in it a 疏 block."""
    _body(b, _printed(b, n, col, s))


# A note that opens a paragraph with no marker before it (Kanripo's 四庫 注疏): its marker is
# lost, with the lines before it, in a lacuna the edition prints as a note (`(闕七行/)`, 禮記註疏
# 卷二十一, where the 疏 goes on after the gap as `(十萬/)(二千年也…)`). Small characters are
# never 經: it is a small note of no known kind.
_OPENING_NOTE = re.compile(r"\(([^()]*)\)")


def _body(b: ZhushuBuilder, loc: Located) -> None:
    """_line on a paragraph's printed text (what a title's notes leave of it too)."""
    text = loc.text
    at = 0
    if b.src.mandoku is not None and (m := _OPENING_NOTE.match(text)):
        inner = loc.slice(m.start(1), m.end(1))
        b.block(Prose([SmallNote(XIAOZHU, inner.text, inner.pos(0))], loc.pos(0)))
        at = m.end()
    for m in _SHU_NOTE.finditer(text):
        if m.start() > at:
            b.unit_runs(_runs(loc.slice(at, m.start())))
        inner = next(g for g in (2, 3, 5) if m.group(g) is not None)   # 【…】, (…), misprinted (…)
        mark = m.group(1) or m.group(4)
        pos = loc.pos(m.start())
        if m.group(4):
            b.report.warn("ZS-CONV-MARKER", f"a 疏 printed {mark}( (its text opens "
                          f"{m.group(5)[:4]}…): read as 疏, the marker kept as printed", pos)
        b.shu_block(loc.slice(m.start(inner), m.end(inner)), mark, pos)
        at = m.end()
    if at < len(text):
        b.unit_runs(_runs(loc.slice(at, len(text))))


def _printed(b: ZhushuBuilder, n: int, col: int, s: str) -> Located:
    """A paragraph's text as it is printed, whitespace left out and, in a Kanripo source, a
    note continued after a gap made one note: `疏(…曲禮曲)　(見其進…)` (0028_008:325) prints
    the 疏 in two groups of columns with blank cells between, one note as a line-initial `(`
    after a `)` is (paragraphs.join)."""
    loc = Located()
    at = 0
    if b.src.mandoku is not None:
        for m in _GAP.finditer(s):
            loc.add(s[at:m.start()], n, col + at)
            at = m.end()
    loc.add(s[at:], n, col + at)
    return loc


def _runs(loc: Located) -> list[RawLine]:
    """The runs of a Located text as the raw lines of one unit."""
    return [(start.line, start.col, part) for part, start in zip(loc.parts, loc.starts)]


def _pian(b: ZhushuBuilder, n: int, col: int, s: str) -> None:
    """The 篇 title at the top of a 卷, with the notes printed on it: `天官冢宰下音義(…)`,
    `冬官考工記第六音義(…)疏(…)`. The title is the section's head; a <head> holds no note, so
    a 音義 on it stands right after the head (as the front matter's title notes do), and a 疏
    on it explains the title: it points at the head. Whatever follows the notes is body."""
    loc = _printed(b, n, col, s)
    text = loc.text
    first = _NOTE_START.search(text)
    cut = first.start() if first else len(text)
    if cut == 0:                                      # no title before the notes: body
        _body(b, loc)
        return
    b.section(text[:cut], loc.pos(0))
    at = cut
    for m in _TITLE_NOTE.finditer(text, cut):
        if m.start() != at:
            break
        mark, inner = m.group(1) or "", loc.slice(m.start(2), m.end(2))
        pos = loc.pos(m.start())
        if mark in ("疏", "䟽"):
            b.heading_shu(inner, mark, pos)
        else:
            kind, resp = (YINYI, pieces.LUDEMING) if mark else (XIAOZHU, None)
            note = SmallNote(kind, inner.text, inner.pos(0), resp=resp)
            b.block(Prose([mark, note] if mark else [note], pos))
        at = m.end()
    if at < len(text):
        _body(b, loc.slice(at, len(text)))


def _commentators(b: ZhushuBuilder, line: str) -> None:
    """汉郑氏注　唐陆德明音义　孔颖达疏: who wrote the 注 and the 疏 of this text."""
    for part in re.split(rf"[{_WS}]+", line):
        pid = persons.named_in(part)
        if pid and part.endswith(("注", "註")):
            b.zhu_resp, b.work_known = pid, True
        elif pid and part.endswith(("疏", "䟽")):
            b.shu_resp = pid
