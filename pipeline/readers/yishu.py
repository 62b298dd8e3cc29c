"""Layout `yishu`: the Qing 欽定三禮義疏 (周官, 儀禮, 禮記), punctuated or not.

    聘遭丧入竟则遂也〈竟音境下并同〉                      a 經 line, small notes in 〈…〉 or 【…】
    正义郑氏康成曰遭丧主国君薨也…　敖氏继公曰…          a category line: quotations, each attributed
    存疑。孔氏颖达曰：「…」                               categories: 正义 辨正 通论 馀论 存疑 存异 总论
    案不筵几对上几筵既设而言…                            the compilers' own judgment
    右遭丧                                                closes a section and names it

A category may start in the middle of a line, after the 經 or after another category; a line
cut at the page edge continues the one before; furniture (钦定四库全书, the 卷 title, the
catalogue line) stays in the text, marked. Punctuated editions may interleave a modern
translation page by page (pipeline/interleave.py): it becomes its own layer, each line linked
to the original it translates.
"""
from __future__ import annotations

import functools
import re

from .. import interleave, smallnotes
from ..attribution import ATTRIBUTION, Speakers, attributions
from ..chars import WHITESPACE
from ..model import (AN, CATEGORIES, JING, Fw, Piece, Pos, Quote, SmallNote, Translation, Unit,
                     YishuBlock)
from ..report import Report
from ..source import Source
from . import sniffing
from .common import CHAPTER, Builder, juan_line

NAME = "yishu"
DESCRIPTION = "欽定三禮義疏: 經 lines, category lines (正义 存疑 …) with 氏曰 quotations, 案, 右 closings"

_LABELS = "|".join(sorted(CATEGORIES, key=len, reverse=True))
LINE_LABEL = re.compile(rf"^(?:(?P<label>{_LABELS})|(?P<an>案|按))(?P<punct>[：:。]?)")
GLUED = re.compile(rf"(?P<label>{_LABELS})(?P<punct>[：:。]?)(?={ATTRIBUTION.pattern})")
# 案 after a closing quote (punctuated texts). The look back comes after 案 so that the regex
# engine can skip to each 案 instead of trying every position.
GLUED_AN = re.compile(r"(?P<an>案|按)(?<=[」”][案按])(?P<punct>[：:]?)")
CLOSING = re.compile(r"^右[^\s，。：]{1,24}$")
GLUED_CLOSING = re.compile(r"(?<![左之])右记[^右左〈〉【】]{1,16}$")      # unpunctuated texts
HEADER = re.compile(r"^(?:钦定四库全书|欽定四庫全書)$")
SOURCE = re.compile(r"中华文库|中華文庫|_\(.*\)/卷")
CATALOGUE = re.compile(r"^<(?P<cls>[^<>]*?)(?:,[^,<>]*)?[>》]*>$")
_CONTINUES = set("之也者矣焉乎哉而")
_FINAL = set("。？！」”』】）)")
_WS = "".join(WHITESPACE)


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
    b = Builder(src, report, NAME, segment=lambda *a: [], continues=lambda *a: False)
    lines = lines_of(src.text)
    p = _Reader(b, report, src.text, lines)
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

    def __init__(self, b: Builder, report: Report, text: str, info: Lines):
        self.b, self.report, self.info = b, report, info
        self.lines = lines = info.raw
        self.stripped = info.stripped
        self.furniture = {n: k for n, s in self.stripped.items() if (k := furniture_kind(s))}
        self.headings = {n for n, s in self.stripped.items()
                         if n not in self.furniture and (juan_line(s) or CHAPTER.match(s))}
        self.layout = layout = interleave.find(lines, self.furniture.keys() | self.headings)
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
        if label:                                  # no 經 line opens with a category or 案
            self._comment(n, body, body_masked, pos, label)
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
        first = self.printed.get(s)
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
            self.printed[s] = self.line_block[n] = fw
            self.crossed = True
            return
        m = juan_line(s)
        if m:
            self.b.juan(s, pos, m.group("n"), m.group("work"))
            self.printed[s] = self.line_block[n] = self.b.div.head
        elif CHAPTER.match(s):
            self.b.section(s, pos)
            self.printed[s] = self.line_block[n] = self.b.div.head
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
        glued = self._first_glued(n, masked)
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
            self._quotes(self.block, s[:end], masked[:end], pos, extend=True)
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
            resp = self.speakers.resolve(m, at)
            who, verb = m.group("who", "verb")
            block.quotes.append(Quote(who, verb, self._parts(text[after:end], line, col + after), at, resp))

    @staticmethod
    def _parts(text: str, line: int, col: int) -> list:
        """Text and small notes of the text at line:col; the spaces that separate scholars
        (U+3000) are not text."""
        if "〈" not in text and "【" not in text:     # most runs hold no small note (nor need a Pos)
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
                             f"{_ranges(self.repeats)}; kept, marked as repeats", Pos(self.repeats[0], 1))
        for n, before in self.edges:
            self.report.warn("ZS-CONV-PAGE-EDGE", f"line {n} continues line {before} across a page "
                             "edge; linked to it with @prev", Pos(n, 1))


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
