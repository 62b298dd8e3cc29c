"""疏 blocks: split a block into sections at each 出文 lemma and parse the lemma.

A section opens with a lemma in one of its forms — `注“X”至“Y”`, `“X”至“Y”`, `注“whole”`, `“whole”`,
with or without a trailing `。` — followed (after optional `○`) by 釋曰 / 正義曰. Inside a section
`○` separates sub-sections; those opening with `“…”者` quote a narrower span (sub-lemmas), and
are not new sections because no 釋曰/正義曰 follows their quote.
"""
from __future__ import annotations

import re
from typing import Iterator

from pipeline.chars import DELIMITERS, Q_CLOSE, Q_OPEN, QUOTE_MARKS
from pipeline.model import JING, ZHU, Chuwen, Para, Pos, Shu, Token
from pipeline.sources.located import Located

# How a 疏 block is announced: [疏] ［疏］ 【疏】 〔疏〕, or a bare 疏 right before its lemma or opener.
MARK = re.compile(r"^(?:[\[［【〔]\s*(?P<mark>[疏疎])\s*[\]］】〕]"
                  r"|(?P<bare>[疏疎])(?=\s*○?\s*(?:注|註)?" + Q_OPEN + r"|\s*○?\s*(?:释|釋|正义|正義)曰))")
OPENER = r"(?:释|釋)曰|正(?:义|義)曰"
_LEMMA = (r"(?P<lemma>(?P<zhu>注|註)?" + Q_OPEN + r"(?P<q1>[^○" + QUOTE_MARKS + r"]{1,80})" + Q_CLOSE +
          r"(?:至" + Q_OPEN + r"(?P<q2>[^○" + QUOTE_MARKS + r"]{1,80})" + Q_CLOSE + r")?(?P<tail>[。，]?))")
SECTION = re.compile(_LEMMA + r"(?=○*(?:" + OPENER + r")|$)")      # matched at 0 and after ○
# Which commentator a 疏 opener belongs to: 賈公彥 writes 釋曰, 孔穎達 正義曰.
OPENER_RESP = (("释曰", "jiagongyan"), ("釋曰", "jiagongyan"), ("正义曰", "kongyingda"),
               ("正義曰", "kongyingda"))


# Unpunctuated texts (四庫) print the lemma without quotation marks: 公仪至闻也, 注仲子至立庶.
_BARE_LEMMA = (r"(?P<lemma>(?P<zhu>注|註)?(?P<q1>[^○至" + QUOTE_MARKS + r"]{1,6}?)至"
               r"(?P<q2>[^○至" + QUOTE_MARKS + r"]{1,6}?)(?P<tail>)?)")
BARE_SECTION = re.compile(_BARE_LEMMA + r"(?=○*(?:" + OPENER + r"))")


def mark_text(m: re.Match) -> str:
    """The printed mark as text: the pure delimiters of [疏] go, brackets such as 〔〕 stay."""
    if m.group("bare"):
        return m.group("bare")
    return "".join(c for c in m.group(0) if c not in DELIMITERS and not c.isspace())


def chuwen_tokens(m: re.Match) -> list[Token]:
    """The lemma as printed, with each quote as a 'mentioned' token; concatenates back exactly
    (whatever quotation marks it uses: the text between the quotes is sliced, not rebuilt)."""
    out: list[Token] = []
    at = m.start("lemma")
    for g in ("q1", "q2"):
        if m.group(g) is None:
            continue
        out.append(Token("text", m.string[at:m.start(g)]))
        out.append(Token("mentioned", m.group(g)))
        at = m.end(g)
    out.append(Token("text", m.string[at:m.end("lemma")]))
    return [t for t in out if t.text]


def starts_section(text: str) -> bool:
    """Does this text (a line's content) open a 疏 section: a lemma followed by an opener?"""
    return bool(SECTION.match(text.lstrip("○")))


class SubQuotes:
    """Quotes of the 疏 that open a paragraph or follow 云 (sub-lemmas, `“X”者` / `云“X”者`):
    `finditer` gives the matches of re.compile("(?:^|云)" + body).finditer(text). The two
    cases are separate patterns because one that may start at ^ has no first character for
    the regex engine to look for, which then tries every position of the 疏."""

    def __init__(self, body: str):
        self.opening = re.compile(body)
        self.after_yun = re.compile("云" + body)

    def finditer(self, text: str) -> Iterator[re.Match]:
        m = self.opening.match(text)
        if m:
            yield m
        yield from self.after_yun.finditer(text, m.end() if m else 0)


_SUB_QUOTE = Q_OPEN + "[^" + QUOTE_MARKS + "]{1,80}" + Q_CLOSE + "者"          # “…”者
_SHU_VOICE = re.compile("云" + _SUB_QUOTE + "|(?:释|釋|正义|正義)曰")


_OPENS_WITH_SUB = re.compile("(?:云)?" + _SUB_QUOTE)
_OPENS_BODY = re.compile(r"○*(?:" + OPENER + ")")


def looks_like_shu(text: str) -> bool:
    """Does an unmarked line read as 疏 (a file that starts in the middle of one)? The 疏 voice:
    an opener, or sub-lemmas `云“…”者` from its first characters."""
    return (text.startswith("○") or opens_body(text) or bool(_OPENS_WITH_SUB.match(text))
            or len(_SHU_VOICE.findall(text[:400])) >= 2)


def opens_body(text: str) -> bool:
    return bool(_OPENS_BODY.match(text))


def parse_block(loc: Located, mark: str, mark_pos: Pos | None, bare: bool = False,
                circles_are_text: bool = False) -> list[Shu]:
    """Sections of one 疏 block (the text after `[疏]`, joined over its lines). `bare`: the text
    is unpunctuated, so lemmas are X至Y without quotation marks; `circles_are_text`: its ○
    are printed characters, kept in the paragraphs (see _paras)."""
    text = loc.text
    cuts = list(_sections(text, BARE_SECTION if bare else SECTION))
    sections: list[Shu] = []
    if not cuts or cuts[0].start() > 0:
        end = cuts[0].start() if cuts else len(text)
        shu = Shu(None, _paras(loc, 0, end, circles_are_text), mark_pos or loc.pos(0), mark=mark)
        sections.append(shu)
    for i, m in enumerate(cuts):
        end = cuts[i + 1].start() if i + 1 < len(cuts) else len(text)
        quotes = [m.group("q1")] + ([m.group("q2")] if m.group("q2") is not None else [])
        cw = Chuwen(ZHU if m.group("zhu") else JING, quotes, chuwen_tokens(m), loc.pos(m.start()))
        shu = Shu(cw, _paras(loc, m.end(), end, circles_are_text), loc.pos(m.start()),
                  mark=mark if i == 0 and not sections else "")
        sections.append(shu)
    if mark_pos is not None:
        sections[0].pos = mark_pos
    return sections


def _sections(text: str, pattern: re.Pattern = SECTION):
    """Section-opening lemmas: tried only at the start and after each ○, where they can stand
    (much faster than letting the regex engine try every position of a long 疏)."""
    at = 0
    while at != -1:
        m = pattern.match(text, at)
        if m:
            yield m
        at = text.find("○", m.end() if m else at)
        if at != -1:
            at += 1


def _paras(loc: Located, start: int, end: int, circles_are_text: bool = False) -> list[Para]:
    """The paragraphs of text[start:end], one between each ○ and the next. Where ○ is printed
    text (a Kanripo file: only a note's parentheses are markup) it stays, ending the paragraph
    before it (or opening the first, when nothing stands before it)."""
    if circles_are_text:
        return [Para(loc.text[a:b], loc.pos(a)) for a, b in _kept_circle_spans(loc.text, start, end)]
    out, text, i = [], loc.text, start
    while i < end:
        j = text.find("○", i, end)
        j = end if j == -1 else j
        if j > i:
            out.append(Para(text[i:j], loc.pos(i)))
        i = j + 1
    return out


def _kept_circle_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    opening = None                          # where ○s with no paragraph before them begin
    i = start
    while i < end:
        j = text.find("○", i, end)
        j = end if j == -1 else j
        if j > i:
            spans.append((i if opening is None else opening, min(j + 1, end)))
            opening = None
        elif spans:
            spans[-1] = (spans[-1][0], j + 1)
        elif opening is None:
            opening = j
        i = j + 1
    if opening is not None:
        spans.append((opening, end))
    return spans


def resp_for(text: str) -> str | None:
    """The 疏 author a document's openers point to (the most frequent one), if any."""
    counts = {}
    for opener, pid in OPENER_RESP:
        counts[pid] = counts.get(pid, 0) + text.count(opener)
    best = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    return best[0] if best[1] else None
