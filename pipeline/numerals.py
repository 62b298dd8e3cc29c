"""Chinese numerals, both ways: 二十九 → 29 (what a 卷 or 篇 title prints, for @n) and 29 → 二十九
(the 卷 a page names, from @n)."""
from __future__ import annotations

import re

_DIGITS = {c: k for k, c in enumerate("〇一二三四五六七八九")} | {"零": 0, "两": 2, "兩": 2}
_UNITS = {"十": 10, "百": 100, "千": 1000}
# 卷首上 / 卷一下: the parts of a 卷 an edition prints, as letters after its number (0a, 1b).
_PARTS = {"上": "a", "中": "b", "下": "c"}


def value(s: str) -> int:
    """二十四 → 24, 一百一十 → 110, 三十八 → 38 (also 24 written in digits)."""
    if s.isdigit():
        return int(s)
    n, cur = 0, 0
    for ch in s:
        if ch in _UNITS:
            n += (cur or 1) * _UNITS[ch]
            cur = 0
        elif ch in _DIGITS:
            cur = _DIGITS[ch]
    return n + cur


def hanzi(i: int) -> str:
    """29 → 二十九, 110 → 一百一十 (0 to 999), as xslt/navigation.xsl's zs:hanzi-number writes it."""
    digits = "〇一二三四五六七八九"
    if i == 0:
        return "〇"
    h, t, u = i // 100, i % 100 // 10, i % 10
    out = (digits[h] + "百") if h else ""
    if t:
        out += ("" if t == 1 and not h else digits[t]) + "十"
    elif h and u:
        out += "零"
    return out + (digits[u] if u else "")


def juan_n(number: str, part: str = "", sub: str = "") -> str:
    """A 卷's @n: 二十九 → 29, 首 (the 卷首) → 0, 首上 → 0a, 一之二 → 1-2. '' for none."""
    if not number:
        return ""
    n = "0" if number == "首" else str(value(number))
    if sub:
        n += f"-{value(sub)}"
    return n + _PARTS.get(part, "")


_JUAN_N = re.compile(r"^(\d{1,3})(?:-(\d{1,3}))?([abc]?)$")


def juan_label(n: str) -> str:
    """A 卷's @n as the page names it (xslt/common.xsl zs:juan-label): 29 → 卷二十九, 0 → 卷首,
    0a → 卷首上, 3-2 → 卷三之二; any other @n as it is after 卷."""
    m = _JUAN_N.match(n)
    if m is None:
        return f"卷{n}" if n else ""
    number, sub, part = m.groups()
    out = "首" if number == "0" else hanzi(int(number))
    if sub:
        out += "之" + hanzi(int(sub))
    return "卷" + out + {v: k for k, v in _PARTS.items()}.get(part, "")
