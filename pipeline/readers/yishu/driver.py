"""The 義疏 reader's driver: the lines in order, each an original (furniture, a title, a 經
line, a commentary line or the rest of one cut at a page edge) or a translation of one, and
the report of what the layout did (translation runs that mismatch, copies, repeats, page edges).
"""
from __future__ import annotations

import re

from pipeline.chars import WHITESPACE_CHARS as _WS
from pipeline.model import Div, Fw, Pos, Translation, Unit, YishuBlock
from pipeline.readers import pian
from pipeline.readers.common import CHAPTER, Builder, juan_number
from pipeline.readers.yishu import interleave, smallnotes
from pipeline.readers.yishu.attribution import Speakers, attributions
from pipeline.readers.yishu.blocks import Blocks
from pipeline.readers.yishu.kanripo import TITLE_MAX
from pipeline.readers.yishu.lines import (CATALOGUE, CLOSING, GLUED_CLOSING, LINE_LABEL, PIAN_LABEL,
                                          Lines, closes_first, furniture_kind, juan_title, opens,
                                          title_key, unnoted)
from pipeline.report import Report

# A 經 sentence never opens with a particle (之也者矣焉乎哉) or 而: a line that does goes on with
# the one before; a sentence ends at one of _FINAL.
_CONTINUES = set("之也者矣焉乎哉而")
_FINAL = set("。？！」”』】）)")
# A punctuated edition has a comma or a full stop every ten characters or so, an unpunctuated one
# (the 四庫 text) only stray ones: one in 200 characters tells them apart with room both ways.
_PUNCTUATED_EVERY = 200
# No 經 passage of the 義疏 is shorter than three characters (a sentence or more): a line of
# one or two after commentary is its rest.
_SHORTEST_JING = 3


class _Reader(Blocks):
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
        self.punctuated = text.count("，") + text.count("。") > len(text) // _PUNCTUATED_EVERY
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
        self.next_content = dict(zip(content, content[1:]))     # content line → the next one
        self.next_is_comment = {n: bool(self.labels[nxt]) for n, nxt in self.next_content.items()}

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
                             under_juan and len(title) <= TITLE_MAX and not opens(s)):
                self.headings.add(n)
                self.sections.add(n)
            under_juan = False

    # -- original lines ---------------------------------------------------------------------------
    def original(self, n: int, raw: str) -> None:
        s = self.stripped[n]
        col = len(raw) - len(raw.lstrip(_WS)) + 1
        pos = Pos(n, col)
        kind = self.furniture.get(n)
        if kind == "source" and n == next(iter(self.lines)):
            # a website's provenance line above the page: the e-text's bibl in the header, kept
            # there as printed (its parentheses too); the lossless check reads it from there
            self.b.provenance.append(s)
            return
        if kind or n in self.headings or (self.b.by_closing and CLOSING.match(s)):
            self._structure(n, s, pos, kind)
            return
        # The line's small notes are blanked once; every cut below falls outside them, so a
        # slice of `masked` is the masked slice of the line.
        masked = self.info.masked(n)
        closing = self._glued_closing(n, masked)
        body, body_masked = (s[:closing.start()], masked[:closing.start()]) if closing else (s, masked)
        label = LINE_LABEL.match(body) if closing else self.labels[n]
        if self.indented and not label and ("論" in body[:10] or "论" in body[:10]):
            label = PIAN_LABEL.match(body_masked)
        if label:                                  # no 經 line opens with a category or 案
            self._comment(n, body, body_masked, pos, label)
        elif self.indented:
            if raw[:1] in _WS or self.no_jing or opens(body_masked) or "\u3000" in unnoted(body):
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

    def _glued_closing(self, n: int, masked: str) -> re.Match | None:
        """A 右… closing glued to the end of line n (GLUED_CLOSING) of an unpunctuated plain
        e-text: punctuated editions and Kanripo's files print their closings on lines of their
        own (kanripo.paragraphs keeps them apart). A closing ends the commentary on a
        section: the line holds commentary (it opens with a category or 案, or one is glued in
        it), and what follows is the next section's 經 — not more commentary, not another
        closing (入門右即位踊亦當… before 右聘君薨 is a 疏's words)."""
        if self.punctuated or self.indented or "右" not in masked:
            return None
        m = GLUED_CLOSING.search(masked)
        if m is None or not (self.labels[n] or self.info.glued(n)):
            return None
        nxt = self.next_content.get(n)
        if nxt is not None and (self.labels[nxt] or CLOSING.match(self.stripped[nxt])):
            return None
        return m

    def _structure(self, n: int, s: str, pos: Pos, kind: str | None) -> None:
        if self.indented and "(" in s:             # a title's note: its parentheses are markup
            s = s.replace("(", "").replace(")", "")
        key = title_key(s)
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
            m = juan_title(title_key(smallnotes.mask(self.stripped[n]).rstrip(_WS)))
        if m:
            self.b.juan(s, pos, juan_number(m), m.group("work"))
            # the 卷 title printed again at its end leaves out the note (the 圖 卷)
            self.printed[key] = self.printed[title_key(m.group())] = self.line_block[n] = self.b.div.head
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
        if s[0] in _CONTINUES or closes_first(s):
            return True
        if self.last is None:
            return False
        if len(s) < _SHORTEST_JING:
            return True
        attr, label = next(attributions(masked), None), self._first_glued(masked)
        if attr and (label is None or attr.start() < label.start()):
            return True
        if self.punctuated:                        # the line before stops mid-sentence
            return len(self.last_text) > 2 and self.last_text[-1] not in _FINAL
        return not self.next_is_comment.get(n, False) and "〈" not in s


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
            if original is not None:
                smallnotes.follow(parts, original)
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
