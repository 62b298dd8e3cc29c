"""Who is speaking: the `X氏Y曰` attributions of the 欽定三禮義疏 (郑氏康成曰 = 鄭玄).

The surname, 氏, the given or courtesy name, 曰; or a name used alone (朱子曰). A scholar in
the registry (data/scholars.tsv) gets his id there, the same in every document; one who is
not is declared from the text, with an id built from the printed name, and reported.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from pipeline import persons
from pipeline.model import Pos
from pipeline.report import Report

_ALIASES = "|".join(sorted({a for p in persons.registry().values() for a in p.aliases
                            if a.endswith("子")}, key=len, reverse=True))
# Surnames of two characters (司馬氏光曰 is 司馬光, not a 馬氏): those of the scholars the
# 欽定三禮義疏 list in their 引用姓氏, and the other common ones.
COMPOUND = ("司馬|司马|歐陽|欧阳|慕容|長孫|长孙|淳于|綦毋|聞人|闻人|諸葛|诸葛|皇甫|上官|東方|东方|"
            "夏侯|公孫|公孙|令狐|宇文|尉遲|尉迟|鮮于|鲜于|申屠|澹臺|澹台|公羊|穀梁|谷梁|万俟")
# (a given name holds no 曰: 馬氏曰禮曰 is 馬氏 quoting 禮)
ATTRIBUTION = re.compile(rf"(?P<who>(?P<sur>{COMPOUND}|[\u4e00-\u9fff])氏"
                         rf"(?P<given>(?:(?!曰)[\u4e00-\u9fff]){{1,2}}?)|(?P<alias>{_ALIASES}))(?P<verb>曰)")
# The most characters an attribution has before its 曰 (XX氏YZ, or the longest alias).
_BEFORE_VERB = max([5] + [len(a) for a in _ALIASES.split("|")])
# Where a quotation can only begin (the head of a text, the U+3000 that separates two scholars):
# a scholar named by his surname alone (吕氏曰, in the 引用姓氏 with no given name), or 又曰, the
# scholar before speaking again. Elsewhere X氏曰 is as likely a clan the text speaks of.
OPENING = re.compile(rf"(?:^|(?<=\u3000))(?:(?P<who>(?P<sur>{COMPOUND}|[\u4e00-\u9fff])氏)|(?P<again>又))"
                     r"(?P<verb>曰)")


def may_open(text: str, pos: int = 0) -> bool:
    """Can an ATTRIBUTION or an OPENING match at `pos`? Only with a 曰 close enough after it
    (_BEFORE_VERB). Most lines have none there, and this look costs less than a try of the
    patterns, whose alternatives (the compound surnames, the aliases) are tried one by one."""
    return text.find("曰", pos, pos + _BEFORE_VERB + 1) != -1


def attributions(text: str) -> Iterator[re.Match]:
    """ATTRIBUTION.finditer(text), the pattern tried only at the few positions before each 曰:
    with no literal to start from, the regex engine would try every position of the text. One
    search per 曰 tries them all; the text it sees ends where a match starting there would end
    at the latest, so the end cuts none of them short."""
    pos, verb = 0, text.find("曰")
    while verb != -1:
        m = ATTRIBUTION.search(text, max(pos, verb - _BEFORE_VERB), verb + _BEFORE_VERB + 1)
        if m and m.start() <= verb:
            yield m
            pos = m.end()
            verb = text.find("曰", pos)
        else:
            verb = text.find("曰", verb + 1)


@dataclass
class Speakers:
    """The scholars a document names, known or declared from the text."""
    report: Report
    unknown: dict[str, tuple[str, str]] = field(default_factory=dict)   # id → (surname, given)
    # attribution as printed → id: a few scholars are named thousands of times in a file
    _ids: dict[str, str] = field(default_factory=dict, repr=False)
    last: str | None = None      # the scholar named last (whom a 又曰 opening a block means)

    def resolve(self, m: re.Match, pos: Pos) -> str:
        """The id of the scholar an ATTRIBUTION match names; one not in the registry is
        declared, and reported, where he is first named."""
        who = m.group("who")
        pid = self._ids.get(who)
        if pid is None:
            pid = self._ids[who] = self._resolve(m, pos)
        return pid

    def _resolve(self, m: re.Match, pos: Pos) -> str:
        groups = m.groupdict()
        if groups.get("alias"):
            return persons.alias(groups["alias"]) or self._declare(groups["alias"], "", pos)
        sur, given = groups["sur"], groups.get("given") or ""
        return persons.lookup(sur, given) or self._declare(sur, given, pos)

    def _declare(self, sur: str, given: str, pos: Pos) -> str:
        pid = f"zs.{sur}{given}"
        if pid not in self.unknown:
            self.unknown[pid] = (sur, given)
            self.report.warn("ZS-CONV-SCHOLAR", f"{sur}氏{given} is not in the registry of scholars; "
                             f"declared from the text as {pid}", pos)
        return pid
