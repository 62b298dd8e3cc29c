"""The 篇 of the 三禮 (pipeline/data/pian.tsv): is a line a 篇 title?

An edition prints a 篇 title alone on its line, with its number (`士冠禮第一`, `檀弓上第三`), as
a 義疏 divides it (`士冠禮第一之一`) or bare (`曲禮上`, `大學`, `天官冢宰下`): with no 第N
nothing in the line's shape tells it from a short 經 sentence, so the names are listed. Both
scripts are matched (the plain e-texts are often simplified).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from pipeline.chars import NUMERALS

# The characters of the names that have a simplified form (the rest are written alike).
_SIMPLIFIED = str.maketrans("禮記內則樂雜喪統經問閒間儀鄉飲義學緇傳運壺饋徹覲見馬",
                            "礼记内则乐杂丧统经问闲间仪乡饮义学缁传运壶馈彻觐见马")


@dataclass(frozen=True)
class Pian:
    work: str          # 周禮, 儀禮, 禮記
    n: int             # its place in the work
    name: str          # as the list names it first (traditional)


@lru_cache(maxsize=1)
def _longest() -> int:
    """The longest name's length."""
    return max(map(len, _table()[0]))


@lru_cache(maxsize=1)
def _table() -> tuple[dict[str, Pian], re.Pattern]:
    by_name: dict[str, Pian] = {}
    text = resources.files("pipeline").joinpath("data/pian.tsv").read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        work, n, names = line.split("\t")
        forms = names.split("|")
        pian = Pian(work, int(n), forms[0])
        for form in forms:
            by_name[form] = by_name[form.translate(_SIMPLIFIED)] = pian
    names = "|".join(sorted(map(re.escape, by_name), key=len, reverse=True))
    # the name; 上/下 of a 官 (天官冢宰下); its number (第一, 第一之一); 上/下 after the number
    title = re.compile(rf"(?P<name>{names})[上中下]?(?:第[{NUMERALS}]+(?:之[{NUMERALS}]+)?)?[上中下]?")
    return by_name, title


def name(work: str, n: str) -> str:
    """The name of the 篇 numbered `n` in the 三禮 classic `work` names (any title holding 周禮,
    儀禮 or 禮記, in either script, or 周官), '' if none: a 篇 div with no heading of its own."""
    found = classic(work)
    return next((p.name for p in _table()[0].values() if p.work == found and str(p.n) == n), "")


def classic(work: str) -> str:
    """The classic of the 三禮 a title names (周禮 for 周禮注疏, 周礼 or 欽定周官義疏), '' if none."""
    return next((c for c, forms in _CLASSICS.items() if any(f in work for f in forms)), "")


_CLASSICS = {"周禮": ("周禮", "周礼", "周官"), "儀禮": ("儀禮", "仪礼"), "禮記": ("禮記", "礼记")}


def title(text: str) -> Pian | None:
    """The 篇 `text` names when it is nothing but a 篇 title (the caller strips a line)."""
    by_name, pattern = _table()
    if len(text) > _longest() + 2 and "第" not in text:
        return None         # longer than a name and two of 上中下: most lines, spared the names
    m = pattern.fullmatch(text)
    return by_name[m.group("name")] if m else None
