"""What each line of a 義疏 text is by itself: the label it opens with (a category or 案), the
labels glued inside it, a 右… closing, page furniture (钦定四库全书, the catalogue line, the
website's provenance line), a 卷 title; and `Lines`, the non-blank lines of a text with what the
sniff and the reader both ask of each (pipeline/readers/yishu/reader.py reads them in order).
"""
from __future__ import annotations

import re

from pipeline.chars import NUMERALS
from pipeline.chars import WHITESPACE_CHARS as _WS
from pipeline.constants import CATEGORIES, SIKU_HEADER
from pipeline.readers.yishu import smallnotes
from pipeline.readers.yishu.attribution import ATTRIBUTION, OPENING, may_open

_LABELS = "|".join(sorted(CATEGORIES, key=len, reverse=True))
# 又案: the compilers' judgment again, printed as 案 is
LINE_LABEL = re.compile(rf"^(?:(?P<label>{_LABELS})|(?P<an>又?(?:案|按)))(?P<punct>[：:。]?)")
GLUED = re.compile(rf"(?P<label>{_LABELS})(?P<punct>[：:。]?)(?={ATTRIBUTION.pattern})")
# 案 after a closing quote (punctuated texts). The look back comes after 案 so that the regex
# engine can skip to each 案 instead of trying every position.
GLUED_AN = re.compile(r"(?P<an>案|按)(?<=[」”][案按])(?P<punct>[：:]?)")
# 右X closes the section above it and names it (右遭喪, 右記聘容): on a line of its own ...
CLOSING = re.compile(r"^右[^\s，。：]{1,24}$")
# ... or glued to the end of the line before, where an unpunctuated e-text joined the two lines.
# 左右 and X之右 are the right-hand side, not a closing; a closing is a name, not a sentence: it
# holds no final particle (也 矣 焉 乎 哉), no small note and no other 右/左. Whether the match
# is a closing the reader decides from the lines around it (driver._Reader._glued_closing).
GLUED_CLOSING = re.compile(r"(?<![左之])右[^右左〈〉【】也矣焉乎哉]{1,16}$")
# (one 卷 of 欽定禮記義疏 prints 欽定四庫全書卷: the 卷 slipped in from the title below)
HEADER = re.compile(rf"^(?:{SIKU_HEADER})卷?$")
# Website provenance: the breadcrumb a web library prints above a scraped page, kept in the
# e-text as a line of furniture (钦定仪礼义疏_(四库全书本)/卷18 中华文库). Its shape: a title path
# joined by ASCII _ and / with the 卷 counted in Arabic digits, or the library's name (…文库,
# as 中华文库 and 维基文库 sign their pages) after an ASCII space or dash. No line of a Qing
# edition has ASCII path marks, spaces or Arabic numerals; furniture_kind asks only short lines.
_WEB_PATH = r"_\(|/卷|卷\d"
_WEB_LIBRARY = r"[ -]\w{2,4}文[库庫]"
SOURCE = re.compile(f"{_WEB_PATH}|{_WEB_LIBRARY}")
CATALOGUE = re.compile(r"^<(?P<cls>[^<>]*?)(?:,[^,<>]*)?[>》]*>$")
_CONTINUES = set("之也者矣焉乎哉而")
_FINAL = set("。？！」”』】）)")


class Lines:
    """The non-blank lines of a text by number, as printed and stripped, with what the sniff and
    the reader both ask of each line: the label it opens with, its text with the small notes
    blanked and the glued labels in it (worked out when first asked)."""

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
        """GLUED's matches in masked(n)."""
        got = self._glued.get(n)
        if got is None:
            got = self._glued[n] = glued_all(self.masked(n))
        return got




# What HEADER and CATALOGUE open with: a line opening otherwise is neither, without a regex.
_FURNITURE_OPENS = frozenset("钦欽<")
# A provenance line is a title, an edition, a 卷 and a library's name, some 30 characters: the
# limit keeps SOURCE off the lines of text, which run longer.
_SOURCE_MAX = 60


def furniture_kind(s: str) -> str | None:
    if s[:1] in _FURNITURE_OPENS:
        if HEADER.match(s):
            return "header"
        if CATALOGUE.match(s):
            return "catalogue"
    if len(s) < _SOURCE_MAX and SOURCE.search(s):
        return "source"
    return None


# A 卷 title: 卷 also printed 巻; the 卷首 (卷首上, 卷首下) come before 卷一.
JUAN_TITLE = re.compile(rf"^(?P<work>\S*?)[卷巻](?:第)?(?P<n>[{NUMERALS}]+|首)(?:之(?P<sub>[{NUMERALS}]+))?(?P<part>[上中下])?$")
# The 篇 of the 儀禮 and the 禮記, which the 圖 卷 print bare as the titles of their figures.
# 總論 glued to the 篇 it sums up: 鄉飲酒總論徐氏幹曰… (a paragraph at a 篇's end). Its groups
# are LINE_LABEL's (an never takes part), so that it stands for it as a line's label.
PIAN_LABEL = re.compile(rf"^[^\s　()]{{1,8}}?(?P<label>總論|总论)(?P<an>(?!))?(?P<punct>)"
                        rf"(?={ATTRIBUTION.pattern})")


def juan_title(s: str) -> re.Match | None:
    return JUAN_TITLE.match(s) if "卷" in s or "巻" in s else None



def title_key(s: str) -> str:
    """A title as its printings compare: 卷 and 巻, 疏 and 䟽 alike (欽定禮記義䟽卷六十四 closes
    欽定禮記義疏卷六十四)."""
    return s.replace("巻", "卷").replace("䟽", "疏")


def glued_all(masked: str) -> tuple[re.Match, ...]:
    """GLUED's matches in a masked text, looked for only where there is a 曰, which the
    attribution after a label needs."""
    return tuple(GLUED.finditer(masked)) if "曰" in masked else ()


_QUOTE_MARK = re.compile(r"[「“」”]")


def closes_first(s: str) -> bool:
    """Does the line close a quotation it never opened (the rest of one cut at a page edge)?"""
    m = _QUOTE_MARK.search(s)
    return bool(m) and m.group() in "」”"



def opens(body: str) -> str:
    """What a line opens with: a note, a category or 案, a scholar, or nothing of these."""
    if body.startswith("("):
        return "note"
    if LINE_LABEL.match(body) or ("論" in body[:10] or "论" in body[:10]) and PIAN_LABEL.match(body):
        return "label"
    if may_open(body) and (ATTRIBUTION.match(body) or OPENING.match(body)):
        return "said"
    return ""



def unnoted(s: str) -> str:
    """The text without its small notes (which mask() blanks with U+3000), stripped."""
    return smallnotes.NOTE.sub("", s).strip(_WS) if "(" in s else s.strip(_WS)
