"""Which script a text is written in (simplified or traditional forms), from OpenCC's tables.

The texts are never converted: a page says `lang="lzh-Hans"` or `lzh-Hant` by what its source
uses, and search folds the two for matching only. OpenCC converts phrase by phrase; here only its
character tables are wanted, so each character is converted alone (one call over the CJK blocks,
characters separated by newlines, which no OpenCC phrase spans).
"""
from __future__ import annotations

from functools import lru_cache

# The blocks whose characters OpenCC's character tables cover: Extension A, the URO, and the
# compatibility ideographs.
_BLOCKS = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))
HANS, HANT = "Hans", "Hant"


@lru_cache(maxsize=None)
def character_table(config: str) -> dict[str, str]:
    """Each character OpenCC's `config` (t2s.json, s2t.json …) changes, mapped to what it becomes."""
    import opencc

    chars = [chr(c) for lo, hi in _BLOCKS for c in range(lo, hi + 1)]
    converted = opencc.OpenCC(config).convert("\n".join(chars)).split("\n")
    return {a: b for a, b in zip(chars, converted) if a != b}


def script(text: str) -> str:
    """HANT or HANS, by which forms the text uses more: characters that are traditional forms
    (t2s changes them: 禮, 於, 爲) against characters s2t changes (礼, 为, but also 云 and 于, which a
    traditional text uses too, so a traditional text still counts some). Measured on the seeds
    (simplified: traditional forms are 0.1–9 % of the other count) and on Kanripo's 四庫 and bare
    editions (traditional: 8–40 times the other count), the two never come near each other.
    '' when the text has no character either table changes."""
    t2s, s2t = character_table("t2s.json"), character_table("s2t.json")
    traditional = simplified = 0
    for ch in text:
        if ch in t2s:
            traditional += 1
        elif ch in s2t:
            simplified += 1
    if traditional == simplified:
        return ""
    return HANT if traditional > simplified else HANS


# Variant forms (異體) OpenCC leaves as they are, each folded to the standard traditional form it
# is the same word as (t2s then takes that form to its simplified one). Picked by hand from the
# characters of the five Kanripo 四庫 works (文淵閣 e-texts) that t2s does not change, and kept
# only where the two are one character in two shapes, never two words: 淸/靑 are 清/青 with the
# 四庫 typeface's dot, 徳 and 眀 the printed forms of 德 and 明 (3,610 and 1,862 times in those
# works), 隂 and 髙 of 陰 and 高. Counts and the list's reasons: docs/search.md.
VARIANTS = {
    "淸": "清", "靑": "青", "徳": "德", "眀": "明", "飬": "養", "敍": "敘", "竝": "並",
    "槪": "概", "吿": "告", "衞": "衛", "緖": "緒", "隂": "陰", "髙": "高", "毎": "每",
    "亷": "廉", "廵": "巡", "㫖": "旨", "恊": "協", "虗": "虛", "鄕": "鄉", "寳": "寶",
    "麄": "麤",
}


@lru_cache(maxsize=None)
def fold_table() -> dict[str, str]:
    """Each character search folds, mapped to its folded form: the variants above to their
    standard form, then traditional to simplified by OpenCC's t2s character table. Only
    characters that change are listed; folding is for matching only, one character to one."""
    t2s = character_table("t2s.json")
    table = {}
    for ch in sorted({*t2s, *VARIANTS}):
        standard = VARIANTS.get(ch, ch)
        folded = t2s.get(standard, standard)
        if folded != ch and len(folded) == 1:
            table[ch] = folded
    return table


def fold(text: str) -> str:
    """`text` with each character folded (fold_table), for matching only: same length."""
    table = fold_table()
    return "".join(table.get(ch, ch) for ch in text)
