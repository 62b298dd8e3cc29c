"""Layout `yishu`: the Qing 欽定三禮義疏 (周官, 儀禮, 禮記), punctuated or not.

    聘遭丧入竟则遂也〈竟音境下并同〉                      a 經 line, small notes in 〈…〉 or 【…】
    正义郑氏康成曰遭丧主国君薨也…　敖氏继公曰…          a category line: quotations, each attributed
    存疑。孔氏颖达曰：「…」                               categories: 正义 辨正 通论 馀论 存疑 存异 总论
    案不筵几对上几筵既设而言…                            the compilers' own judgment
    右遭丧                                                closes a section and names it

A category may start in the middle of a line, after the 經 or after another category; a line
cut at the page edge continues the one before; furniture (钦定四库全书, the 卷 title, the
catalogue line) stays in the text, marked. Punctuated editions may interleave a modern
translation page by page (pipeline/readers/yishu/interleave.py): it becomes its own layer, each line linked
to the original it translates.

Kanripo's editions (mandoku, pipeline/sources/mandoku.py) are read by the same reader: `paragraphs`
joins their printed lines into lines of this shape, each keeping the indentation of its first
printed line, and the reader tells 經 (at the margin) from the commentary (indented) by it.
"""
from __future__ import annotations

import functools
import re

from pipeline import persons
from pipeline.chars import NUMERALS, WHITESPACE_CHARS as _WS
from pipeline.constants import CATEGORIES, SIKU_HEADER
from pipeline.model import (AN, JING, Div, Fw, Piece, Pos, Quote, SmallNote,
                            Translation, Unit, YishuBlock)
from pipeline.readers import pian, sniffing
from pipeline.readers.common import CHAPTER, Builder
from pipeline.readers.yishu import interleave, smallnotes
from pipeline.readers.yishu.attribution import ATTRIBUTION, OPENING, Speakers, attributions, may_open
from pipeline.report import Report
from pipeline.sources.decoding import Source

NAME = "yishu"
DESCRIPTION = "欽定三禮義疏: 經 lines, category lines (正义 存疑 …) with 氏曰 quotations, 案, 右 closings"

_LABELS = "|".join(sorted(CATEGORIES, key=len, reverse=True))
# 又案: the compilers' judgment again, printed as 案 is
LINE_LABEL = re.compile(rf"^(?:(?P<label>{_LABELS})|(?P<an>又?(?:案|按)))(?P<punct>[：:。]?)")
GLUED = re.compile(rf"(?P<label>{_LABELS})(?P<punct>[：:。]?)(?={ATTRIBUTION.pattern})")
# 案 after a closing quote (punctuated texts). The look back comes after 案 so that the regex
# engine can skip to each 案 instead of trying every position.
GLUED_AN = re.compile(r"(?P<an>案|按)(?<=[」”][案按])(?P<punct>[：:]?)")
CLOSING = re.compile(r"^右[^\s，。：]{1,24}$")
GLUED_CLOSING = re.compile(r"(?<![左之])右记[^右左〈〉【】]{1,16}$")      # unpunctuated texts
# (one 卷 of 欽定禮記義疏 prints 欽定四庫全書卷: the 卷 slipped in from the title below)
HEADER = re.compile(rf"^(?:{SIKU_HEADER})卷?$")
SOURCE = re.compile(r"中华文库|中華文庫|_\(.*\)/卷")
CATALOGUE = re.compile(r"^<(?P<cls>[^<>]*?)(?:,[^,<>]*)?[>》]*>$")
_CONTINUES = set("之也者矣焉乎哉而")
_FINAL = set("。？！」”』】）)")


def sniff(text: str) -> tuple[float, str]:
    count = len(sniffing.nonblank_lines(text))
    if not count:
        return 0.0, "empty"
    t = lines_of(text)
    cats = sum(1 for n, m in t.labels.items() if m and
               (ATTRIBUTION.match(t.stripped[n], m.end()) or m.group("an")))
    # a glued label is followed by an attribution, so only lines with its 曰 can hold one
    glued = sum(len(t.glued(n)) for n, s in t.stripped.items() if "曰" in s)
    if cats + glued < 2:
        return 0.0, f"{cats + glued} 義疏 categories"
    return min(1.0, 0.4 + 2 * (cats + glued) / count), \
        f"{cats + glued} 義疏 categories (正义, 存疑 …) or 案 in {count} lines"


def structure_missing(doc) -> str | None:
    """None, or what the reader saw when it found no 義疏 block at all in a text of some length."""
    blocks = [b for b in doc.blocks() if isinstance(b, YishuBlock)]
    units = [b for b in doc.blocks() if isinstance(b, Unit)]
    chars = sum(len(getattr(p, "text", "")) for u in units for p in u.pieces)
    if not blocks and chars >= 200:
        return f"{chars} characters in {len(units)} units, no 義疏 category block"
    return None


class Lines:
    """The non-blank lines of a text by number, as printed and stripped, with what the sniff and
    the reader both ask of each line: the label it opens with, its text with the small notes
    blanked and the glued labels in it (worked out when first asked). detect() sniffs the very
    text read() reads next, so the last text's lines are kept and the text is split and looked
    at once."""

    def __init__(self, text: str):
        self.raw: dict[int, str] = {}
        self.stripped: dict[int, str] = {}
        for n, raw in enumerate(text.split("\n"), 1):
            s = raw.strip(_WS)
            if s:
                self.raw[n], self.stripped[n] = raw, s
        self.labels = {n: LINE_LABEL.match(s) for n, s in self.stripped.items()}
        self._masked: dict[int, str] = {}
        self._glued: dict[int, tuple[re.Match, ...]] = {}

    def masked(self, n: int) -> str:
        got = self._masked.get(n)
        if got is None:
            got = self._masked[n] = smallnotes.mask(self.stripped[n])
        return got

    def glued(self, n: int) -> tuple[re.Match, ...]:
        """GLUED's matches in masked(n): the sniff counts them, the reader cuts at them."""
        got = self._glued.get(n)
        if got is None:
            got = self._glued[n] = _glued_all(self.masked(n))
        return got


@functools.lru_cache(maxsize=1)
def lines_of(text: str) -> Lines:
    return Lines(text)


# What HEADER and CATALOGUE open with: a line opening otherwise is neither, without a regex.
_FURNITURE_OPENS = frozenset("钦欽<")


def furniture_kind(s: str) -> str | None:
    if s[:1] in _FURNITURE_OPENS:
        if HEADER.match(s):
            return "header"
        if CATALOGUE.match(s):
            return "catalogue"
    if len(s) < 60 and SOURCE.search(s):
        return "source"
    return None


def read(src: Source, report: Report):
    b = Builder(src, report, NAME)
    lines = lines_of(src.text)
    p = _Reader(b, report, src.text, lines, indented=src.mandoku is not None)
    b.by_closing = any(CLOSING.match(p.stripped[n]) for n in p.content)
    for n, raw in lines.raw.items():            # in line order
        if p.layout.is_translation(n):
            p.translation(n, raw)
        else:
            p.original(n, raw)
    p.report_layout()
    b.work_known = bool(b.work)
    b.declared = dict(p.speakers.unknown)
    return b.finish()


class _Reader:
    """Reads the lines in order. What each line is by itself (stripped text, furniture, heading,
    opening label) is found once, before: the pairing of translations and the look ahead for
    wrapped lines need it too."""

    def __init__(self, b: Builder, report: Report, text: str, info: Lines, indented: bool = False):
        self.b, self.report, self.info = b, report, info
        self.lines = lines = info.raw
        self.stripped = info.stripped
        # A Kanripo file, its lines joined into paragraphs (paragraphs()): each keeps the
        # indentation of its first printed line, 經 at the margin, the commentary indented.
        self.indented = indented
        self.furniture = {n: k for n, s in self.stripped.items() if (k := furniture_kind(s))}
        self.headings = {n for n, s in self.stripped.items()
                         if n not in self.furniture and (juan_title(s) or CHAPTER.match(s))}
        self.sections: set[int] = set()        # 篇 titles without 第N (Kanripo)
        if indented:
            self._titles()
        # Kanripo's editions interleave no translation
        self.layout = layout = interleave.Layout() if indented else \
            interleave.find(lines, self.furniture.keys() | self.headings)
        self.no_jing = False               # in a 卷首 or a 圖 卷: no 經 at the margin (Kanripo)
        self.punctuated = text.count("，") + text.count("。") > len(text) // 200
        self.speakers = Speakers(report)
        self.unit: Unit | None = None
        self.block: YishuBlock | None = None
        self.last = None                   # kind of the previous original content line
        self.last_text = ""
        self.crossed = False               # a translation run since the last original line
        self.tr_lang = "zh-Hans"            # the script of the current translation run
        self.line_block: dict[int, object] = {}
        self.printed: dict[str, object] = {}      # furniture text → its first printing
        self.repeats: list[int] = []
        self.edges: list[tuple[int, int]] = []
        self.last_line = 0
        self.copied = {r for r, _, _ in layout.copies}     # translated lines that copy their original
        self.content = content = [n for n in lines if not layout.is_translation(n)]
        self.labels = info.labels
        self.next_is_comment = {}
        for i, n in enumerate(content):
            nxt = content[i + 1] if i + 1 < len(content) else None
            self.next_is_comment[n] = nxt is not None and bool(self.labels[nxt])

    def _titles(self) -> None:
        """The titles a Kanripo paragraph is, its notes aside: 卷 titles at the margin (the 圖
        卷 name their figures in a note: 欽定禮記義疏卷七十八(禮器圖一)), 篇 titles indented,
        with or without 第N (儒行第四十一(行下孟反), 士相見禮), and the line under the 卷 title
        when it opens with no category or scholar (綱領一, 朱子儀禮釋宮)."""
        under_juan = False
        for n, raw in self.lines.items():
            s = self.stripped[n]
            title = smallnotes.mask(s).rstrip(_WS) if "(" in s else s
            indented = raw[:1] in _WS
            if n in self.furniture:
                continue
            if not indented and juan_title(title):
                self.headings.add(n)
                under_juan = True
                continue
            if indented and (CHAPTER.match(title) or pian.title(title) is not None or
                             under_juan and len(title) <= 20 and not _opens(s)):
                self.headings.add(n)
                self.sections.add(n)
            under_juan = False

    # -- original lines ---------------------------------------------------------------------------
    def original(self, n: int, raw: str) -> None:
        s = self.stripped[n]
        col = len(raw) - len(raw.lstrip(_WS)) + 1
        pos = Pos(n, col)
        kind = self.furniture.get(n)
        if kind or n in self.headings or (self.b.by_closing and CLOSING.match(s)):
            self._structure(n, s, pos, kind)
            return
        # The line's small notes are blanked once; every cut below falls outside them, so a
        # slice of `masked` is the masked slice of the line.
        masked = self.info.masked(n)
        closing = GLUED_CLOSING.search(masked) if not self.punctuated and "右记" in masked else None
        body, body_masked = (s[:closing.start()], masked[:closing.start()]) if closing else (s, masked)
        label = LINE_LABEL.match(body) if closing else self.labels[n]
        if self.indented and not label and ("論" in body[:10] or "论" in body[:10]):
            label = PIAN_LABEL.match(body_masked)
        if label:                                  # no 經 line opens with a category or 案
            self._comment(n, body, body_masked, pos, label)
        elif self.indented:
            if raw[:1] in _WS or self.no_jing or _opens(body_masked) or "\u3000" in _unnoted(body):
                self._continue(n, body, body_masked, pos)
            else:
                self._jing(n, body, body_masked, pos)
        elif self._continues(n, s, masked):
            self._continue(n, body, body_masked, pos)
        else:
            self._jing(n, body, body_masked, pos)
        if closing:
            self.b.closing(s[closing.start():], Pos(n, col + closing.start()))
            self.last = None
            self.block = None                      # the closing ends it: nothing extends it after
        self.last_line = n
        self.crossed = False

    def _structure(self, n: int, s: str, pos: Pos, kind: str | None) -> None:
        if self.indented and "(" in s:             # a title's note: its parentheses are markup
            s = s.replace("(", "").replace(")", "")
        key = _title_key(s)
        first = self.printed.get(key)
        juan = self.b.juan_div
        if self.indented and first is not None and juan is not None and first is juan.head \
                and any(isinstance(b, (Unit, Div)) for b in juan.blocks):
            # the 卷 title printed again at the 卷's end, as every 卷 of a 四庫 edition has it:
            # its trailer, as the 注疏 reader makes it (TEI closes a div with a trailer only
            # after a block or a division: a 圖 卷 of notes alone keeps it as furniture)
            self.b.closing_of(juan, s, pos)
            # the 卷 is closed: what a file prints after it (another 卷) opens a div of its own
            del self.printed[key]
            self.b.div = self.b.juan_div = self.b.closing_div = self.b.last_closed = None
            self.unit = self.block = None
            return
        if first is not None:                      # printed again: furniture, marked as a repeat
            fw = Fw(s, pos, kind or "title", same_as=first)
            self.b.furniture(fw)
            self.repeats.append(n)
            self.line_block[n] = fw
            self.crossed = True                    # a page edge: see _continue
            return
        if kind:
            fw = Fw(s, pos, kind)
            self.b.furniture(fw)
            if kind == "catalogue":
                self.b.classification = CATALOGUE.match(s).group("cls")
            self.printed[key] = self.line_block[n] = fw
            self.crossed = True
            return
        m = juan_title(s) if n not in self.sections else None
        if m is None and self.indented and n in self.headings and n not in self.sections:
            m = juan_title(_title_key(smallnotes.mask(self.stripped[n]).rstrip(_WS)))
        if m:
            self.b.juan(s, pos, m.group("n"), m.group("work"))
            # the 卷 title printed again at its end leaves out the note (the 圖 卷)
            self.printed[key] = self.printed[_title_key(m.group())] = self.line_block[n] = self.b.div.head
            # a 卷首 and a 圖 卷 (欽定儀禮義疏卷四十一(禮器圖一)) hold no 經 of the classic
            self.no_jing = self.indented and (m.group("n") == "首" or "圖" in s[len(m.group()):])
        elif n in self.sections or CHAPTER.match(s):
            self.b.section(s, pos)
            self.printed[key] = self.line_block[n] = self.b.div.head
        else:
            self.b.closing(s, pos)
        self.unit = self.block = None
        self.last = None

    def _continues(self, n: int, s: str, masked: str) -> bool:
        """Is this line the rest of the commentary line before it (cut at the edge of a page)
        rather than a new 經 line? A 經 line never opens with a particle or a closing quote,
        never names a scholar before any category, and follows a finished sentence."""
        if self.last not in ("comment", None):
            return False
        if s[0] in _CONTINUES or _closes_first(s):
            return True
        if self.last is None:
            return False
        if len(s) <= 2:                            # no 經 sentence is that short
            return True
        attr, label = next(attributions(masked), None), self._first_glued(n, masked)
        if attr and (label is None or attr.start() < label.start()):
            return True
        if self.punctuated:                        # the line before stops mid-sentence
            return len(self.last_text) > 2 and self.last_text[-1] not in _FINAL
        return not self.next_is_comment.get(n, False) and "〈" not in s

    def _glued_in(self, n: int, masked: str) -> tuple[re.Match, ...]:
        """GLUED's matches in `masked`, a part of line n's masked text: when it is the whole of
        it (the very string Lines keeps), those the sniff found already."""
        return self.info.glued(n) if masked is self.info.masked(n) else _glued_all(masked)

    def _first_glued(self, n: int, masked: str) -> re.Match | None:
        """The first glued label of `masked`."""
        found = self._glued_in(n, masked)
        return found[0] if found else None

    # -- building blocks ---------------------------------------------------------------------------
    def _jing(self, n: int, s: str, masked: str, pos: Pos) -> None:
        glued = self._first_glued(n, masked) if not self.indented else None
        jing = s[:glued.start()] if glued else s
        pieces = []
        for off, part in smallnotes.split(jing, pos):
            if isinstance(part, SmallNote):
                pieces.append(part)
            elif part.strip(_WS):
                pieces.append(Piece(JING, part.strip(_WS), Pos(pos.line, pos.col + off)))
        self.unit = Unit(pieces, pos)
        self.b.block(self.unit)
        self.line_block[n] = self.unit
        self.block = None
        self.last, self.last_text = "jing", jing
        if glued:
            at = glued.start()
            rest = s[at:]                          # opens with the glued label
            self._comment(n, rest, masked[at:], Pos(pos.line, pos.col + at), LINE_LABEL.match(rest),
                          record=False)

    def _continue(self, n: int, s: str, masked: str, pos: Pos) -> None:
        prev = self.block
        if prev is not None and not self.crossed:
            self._comment(n, s, masked, pos)
            return
        # across a translation run or furniture (written after the block: extending the block
        # would move the line before them), or with nothing before it: a block of its own
        category = prev.category if prev is not None else "detached"
        block = YishuBlock(category, "", [], pos, target=self.unit, prev=prev)
        self.b.block(block)
        self.block = block
        self._comment(n, s, masked, pos)
        if prev is not None:
            self.edges.append((n, self.last_line))
            if prev.quotes and block.quotes and not block.quotes[0].who:
                block.quotes[0].resp = prev.quotes[-1].resp     # the same speaker goes on

    def _comment(self, n: int, s: str, masked: str, pos: Pos, label: re.Match | None = None,
                 record: bool = True) -> None:
        """Category blocks of a line: cut at each label (at the start, or glued before a
        quotation, or 案 after a closing quote), each block cut into its quotations. `label` is
        the label the text opens with (LINE_LABEL's match); None when the text continues the
        block before it."""
        continuing = label is None
        # (offset, label as printed, category), in text order. A glued label comes before an
        # attribution and a glued 案 after a closing quote: each is looked for only in text
        # that holds its 曰 or its 案.
        cuts = []
        if label:
            cuts.append((0, label.group(0), AN if label.group("an") else CATEGORIES[label.group("label")]))
        # A Kanripo paragraph opens with its category, if any: inside it, a label before a
        # scholar is a word of the text joined to a name on the next line (屬通論¶朱子曰).
        if not self.indented:
            cuts += [(g.start(), g.group(0), CATEGORIES[g.group("label")])
                     for g in self._glued_in(n, masked) if g.start() > 0]
        if self.punctuated and ("案" in masked or "按" in masked):
            an = [(g.start(), g.group(0), AN) for g in GLUED_AN.finditer(masked) if g.start() > 0]
            if an:
                cuts += an
                cuts.sort(key=lambda c: c[0])
        first_block = None
        if continuing and (not cuts or cuts[0][0] > 0):
            end = cuts[0][0] if cuts else len(s)
            # a Kanripo paragraph is a paragraph of the print: a new quotation, if unattributed
            self._quotes(self.block, s[:end], masked[:end], pos, extend=not self.indented)
            first_block = self.block
        for i, (at, label, category) in enumerate(cuts):
            end = cuts[i + 1][0] if i + 1 < len(cuts) else len(s)
            block = YishuBlock(category, label, [], Pos(pos.line, pos.col + at), target=self.unit)
            self.b.block(block)
            self.block = block
            first_block = first_block or block
            start = at + len(label)
            self._quotes(block, s[start:end], masked[start:end], Pos(pos.line, pos.col + start))
        if record and first_block is not None:
            self.line_block.setdefault(n, first_block)
        self.last, self.last_text = "comment", s

    def _quotes(self, block: YishuBlock, text: str, masked: str, pos: Pos, extend: bool = False) -> None:
        """The quotations of a block: each 氏曰 attribution opens one; text before the first
        belongs to nobody named (or, when extending, to the quotation it continues). `masked` is
        the text with its small notes blanked."""
        marks = list(attributions(masked))
        if "氏曰" in masked or "又曰" in masked:    # a surname alone, 又曰: where a quotation opens
            marks = _merged(marks, OPENING.finditer(masked))
        lead_end = marks[0].start() if marks else len(text)
        lead = text[:lead_end]
        if lead.strip(_WS):
            parts = self._parts(lead, pos.line, pos.col)
            if extend and block.quotes:
                block.quotes[-1].parts += parts
            else:
                block.quotes.append(Quote("", "", parts, pos))
        line, col = pos.line, pos.col
        ends = [m.start() for m in marks[1:]] + [len(text)]
        for m, end in zip(marks, ends):
            start, after = m.span()
            at = Pos(line, col + start)
            if m.re is OPENING and m.group("again"):      # 又曰: the scholar before, again
                resp = block.quotes[-1].resp if block.quotes else self.speakers.last
                block.quotes.append(Quote("", m.group(), self._parts(text[after:end], line, col + after),
                                          at, resp))
                continue
            resp = self.speakers.last = self.speakers.resolve(m, at)
            who, verb = m.group("who", "verb")
            block.quotes.append(Quote(who, verb, self._parts(text[after:end], line, col + after), at, resp))

    @staticmethod
    def _parts(text: str, line: int, col: int) -> list:
        """Text and small notes of the text at line:col; the spaces that separate scholars
        (U+3000) are not text."""
        if "〈" not in text and "【" not in text and "(" not in text:   # most runs hold no small note
            text = text.strip(_WS)
            return [text] if text else []
        out = []
        for _, part in smallnotes.split(text, Pos(line, col)):
            if isinstance(part, str):
                part = part.strip(_WS)
                if not part:
                    continue
            out.append(part)
        return out

    # -- translation lines --------------------------------------------------------------------------
    def translation(self, n: int, raw: str) -> None:
        s = self.stripped[n]
        pos = Pos(n, len(raw) - len(raw.lstrip(_WS)) + 1)
        first = self.printed.get(s)
        kind = self.furniture.get(n) or ("title" if n in self.headings else None)
        if kind and first is not None:
            self.b.furniture(Fw(s, pos, kind, same_as=first))
            self.repeats.append(n)
        else:
            mark = interleave.tr_mark(s)
            original = self.line_block.get(self.layout.translation.get(n))
            parts = self._parts(s[len(mark):], pos.line, pos.col + len(mark))
            if mark:        # a run opens with the mark, whose script is the run's: 译 or 譯
                self.tr_lang = "zh-Hant" if mark == "譯" else "zh-Hans"
            self.b.block(Translation(parts, pos, mark, original, n in self.copied, self.tr_lang))
        self.crossed = True

    def report_layout(self) -> None:
        for originals, translations in self.layout.mismatches:
            self.report.warn("ZS-CONV-TR-COUNT",
                             f"{len(originals)} original lines ({_span(originals)}) are followed by "
                             f"{len(translations)} translated lines ({_span(translations)})",
                             Pos(translations[0], 1) if translations else None)
        for originals, translations, likeness in self.layout.copied_runs:
            self.report.warn("ZS-CONV-TR-COPY", f"translated lines {_span(translations)} largely "
                             f"repeat the original lines {_span(originals)} (mean likeness "
                             f"{likeness:.2f})", Pos(translations[0], 1))
        copies = [r for r, _, _ in self.layout.copies]
        if copies:
            self.report.warn("ZS-CONV-TR-COPY", f"lines {_ranges(copies)} are near-copies of their "
                             "originals, not translations; marked subtype=\"copy\"", Pos(copies[0], 1))
        if self.repeats:
            self.report.warn("ZS-CONV-FURNITURE", f"furniture printed again on lines "
                             f"{_ranges([self._line(n) for n in self.repeats])}; kept, marked as repeats",
                             Pos(self.repeats[0], 1))
        for n, before in self.edges:
            self.report.warn("ZS-CONV-PAGE-EDGE", f"line {self._line(n)} continues line {self._line(before)} "
                             "across a page edge; linked to it with @prev", Pos(n, 1))

    def _line(self, n: int) -> int:
        """The line of the file a line of the text read begins on (a Kanripo file's paragraph
        begins on one of its printed lines)."""
        locate = self.b.src.locate
        if locate is None:
            return n
        raw = self.lines.get(n, "")
        return locate(n, len(raw) - len(raw.lstrip(_WS)) + 1)[0]


def _merged(marks: list, more) -> list:
    """Two lists of matches in text order, one dropped where it overlaps the other."""
    out: list = []
    for m in sorted([*marks, *more], key=lambda m: m.start()):
        if not out or m.start() >= out[-1].end():
            out.append(m)
    return out


def _title_key(s: str) -> str:
    """A title as its printings compare: 卷 and 巻, 疏 and 䟽 alike (欽定禮記義䟽卷六十四 closes
    欽定禮記義疏卷六十四)."""
    return s.replace("巻", "卷").replace("䟽", "疏")


def _glued_all(masked: str) -> tuple[re.Match, ...]:
    """GLUED's matches in a masked text, looked for only where there is a 曰, which the
    attribution after a label needs."""
    return tuple(GLUED.finditer(masked)) if "曰" in masked else ()


_QUOTE_MARK = re.compile(r"[「“」”]")


def _closes_first(s: str) -> bool:
    """Does the line close a quotation it never opened (the rest of one cut at a page edge)?"""
    m = _QUOTE_MARK.search(s)
    return bool(m) and m.group() in "」”"


def _span(nums: list[int]) -> str:
    return f"{nums[0]}–{nums[-1]}" if len(nums) > 1 else str(nums[0]) if nums else "none"


def _ranges(nums: list[int]) -> str:
    out, start, prev = [], None, None
    for x in sorted(nums):
        if start is None:
            start = prev = x
        elif x == prev + 1:
            prev = x
        else:
            out.append(f"{start}–{prev}" if prev > start else str(start))
            start = prev = x
    if start is not None:
        out.append(f"{start}–{prev}" if prev > start else str(start))
    return ", ".join(out)


# -- Kanripo's 欽定三禮義疏 (mandoku) ------------------------------------------------------------
#
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
# A 卷 title: 卷 also printed 巻; the 卷首 (卷首上, 卷首下) come before 卷一.
JUAN_TITLE = re.compile(rf"^(?P<work>\S*?)[卷巻](?:第)?(?P<n>[{NUMERALS}]+|首)(?:之[{NUMERALS}]+)?[上中下]?$")
# The 篇 of the 儀禮 and the 禮記, which the 圖 卷 print bare as the titles of their figures.
# 總論 glued to the 篇 it sums up: 鄉飲酒總論徐氏幹曰… (a paragraph at a 篇's end). Its groups
# are LINE_LABEL's (an never takes part), so that it stands for it as a line's label.
PIAN_LABEL = re.compile(rf"^[^\s　()]{{1,8}}?(?P<label>總論|总论)(?P<an>(?!))?(?P<punct>)"
                        rf"(?={ATTRIBUTION.pattern})")


def juan_title(s: str) -> re.Match | None:
    return JUAN_TITLE.match(s) if "卷" in s or "巻" in s else None


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
    return min(1.0, 0.1 + 0.4 * title + 4 * signs / count), \
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
    opens = _opens(body)
    full = last is not None and _full(last, kind, margin)
    if opens == "note":
        if kind == "title" and not last.text.endswith(")"):
            return "comment" if line.indent else "jing"
        return "cont" if kind else ("comment" if line.indent else "jing")
    if after_title and line.indent and not opens and len(masked) <= 20:
        return "alone"                          # the 篇 under the 卷 title (綱領一, 士冠禮)
    if opens == "label":
        return "cont" if kind == "comment" and full and not _opens_paragraph(body, last) else "comment"
    if opens == "said" or line.indent == 0 and _quotes_inside(body, masked):
        return "cont" if kind == "comment" else "comment"
    if line.indent == 0:
        if kind == "jing" and full:
            return "cont"
        if CLOSING.match(masked) and _width(line) < _FULL - _SLACK:
            return "alone"                      # 右…: closes a section
        goes_on = _goes_on(nxt)
        # a line that a category paragraph comments on is 經, though it follows commentary
        # printed at the margin
        commented = nxt is not None and nxt.indent > 0 and _opens(nxt.body) == "label"
        if kind == "comment" and full and (goes_on or _SHU_NOTE.search(body) or
                                          last.indent == 0 and not commented):
            return "cont"
        if kind == "comment" and goes_on and _width(line) >= _FULL - _SLACK:
            return "comment"                    # a paragraph hung at the margin (卷首 綱領)
        return "jing"
    if kind == "comment" and full:
        return "cont"
    return "comment"


def _opens(body: str) -> str:
    """What a line opens with: a note, a category or 案, a scholar, or nothing of these."""
    if body.startswith("("):
        return "note"
    if LINE_LABEL.match(body) or ("論" in body[:10] or "论" in body[:10]) and PIAN_LABEL.match(body):
        return "label"
    if may_open(body) and (ATTRIBUTION.match(body) or OPENING.match(body)):
        return "said"
    return ""


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
    return line is not None and line.indent > 0 and not _opens(line.body)


def _quotes_inside(body: str, masked: str) -> bool:
    """Does a line separate two scholars with U+3000, or quote one the registry knows? No 經
    line does (a 經 can read like an attribution: 舎於子夏氏子夏曰): a line at the margin
    that does is commentary whose indentation the transcription lost."""
    return "\u3000" in _unnoted(body) or "曰" in masked and any(
        persons.alias(m.group("alias")) if m.group("alias") else
        persons.lookup(m.group("sur"), m.group("given"))
        for m in attributions(masked))


# A note quoting the 疏 (賈疏…, 孔疏…) explains the 注, which only the commentary quotes
_SHU_NOTE = re.compile(r"\((?:賈|孔)[疏䟽]")


def _unnoted(s: str) -> str:
    """The text without its small notes (which mask() blanks with U+3000), stripped."""
    return smallnotes.NOTE.sub("", s).strip(_WS) if "(" in s else s.strip(_WS)


def _full(line, kind: str, margin: list = ()) -> bool:
    """Does the line fill its column? A commentary line at the margin lost the one to three
    cells of indentation it was printed with: alone, it fills its column one or two cells
    short; in a run of such lines, as wide as the widest of them (a cell less: a scholar's
    line starts a cell further in)."""
    width = _width(line)
    if kind == "comment" and line.indent == 0:
        if len(margin) > 1:
            return width >= max(_FULL - 4, min(max(margin), _FULL - 1) - _SLACK)
        if _opens(line.body) in ("label", "said"):      # printed 1 to 3 cells in
            return width >= _FULL - 4
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
