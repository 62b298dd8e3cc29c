"""The blocks of the 義疏 reader: a 經 unit, the category blocks of a commentary line (cut at
each label: at the line start, glued before a scholar's attribution, 案 after a closing quote),
the quotations inside each block (one per 氏曰 attribution) and their small notes.
"""
from __future__ import annotations

import re

from pipeline.chars import WHITESPACE_CHARS as _WS
from pipeline.constants import CATEGORIES
from pipeline.model import AN, JING, Piece, Pos, Quote, SmallNote, Unit, YishuBlock
from pipeline.readers.yishu import smallnotes
from pipeline.readers.yishu.attribution import OPENING, attributions
from pipeline.readers.yishu.lines import GLUED_AN, LINE_LABEL, glued_all


class Blocks:
    """The block building of the reader (pipeline/readers/yishu/driver.py's _Reader): what
    opens a block and what extends the one open."""

    @staticmethod
    def _first_glued(masked: str) -> re.Match | None:
        """The first glued label of `masked` (a line's masked text, or a part of it)."""
        found = glued_all(masked)
        return found[0] if found else None


    # -- building blocks ---------------------------------------------------------------------------
    def _jing(self, n: int, s: str, masked: str, pos: Pos) -> None:
        glued = self._first_glued(masked) if not self.indented else None
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
                     for g in glued_all(masked) if g.start() > 0]
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


def _merged(marks: list, more) -> list:
    """Two lists of matches in text order, one dropped where it overlaps the other."""
    out: list = []
    for m in sorted([*marks, *more], key=lambda m: m.start()):
        if not out or m.start() >= out[-1].end():
            out.append(m)
    return out
