"""Character classes of the source texts: punctuation, delimiters, placeholders, CJK blocks.

One table per idea, shared by readers, the lemma matcher, the writer and the validator.
"""
from __future__ import annotations

import bisect
import os
import re
import unicodedata

# Pure delimiters: they carry structure, not text, so the lossless invariant removes them.
DELIMITERS = frozenset("（）()［］[]【】〈〉○")

# Placeholders the e-texts use for a character the editor could not read or type.
PLACEHOLDERS = frozenset("?┹▯□")

# Punctuation added by modern editors; lemma matching skips it (傧进 = 傧，进).
PUNCTUATION = frozenset(
    "，。、；：？！“”‘’「」『』《》〈〉·．…—－,.;:!?\"'()（）［］[]【】○　 \u00a0\t"
) - PLACEHOLDERS

# Whitespace: what indents or separates (ASCII space, NBSP, the ideographic space U+3000, tabs,
# and every other character Unicode gives the White_Space property, U+2029 the paragraph
# separator among them), and the byte order mark an e-text may carry mid-file. Exactly what
# Python's str.strip() and str.isspace() take, the BOM added, so that no reader's strip can
# drop a character the lossless invariant keeps. (The controls among them, U+000B–U+000C,
# U+001C–U+001F, U+0085, are refused when a source is read.)
WHITESPACE = frozenset("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003"
                       "\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f"
                       "\u3000\ufeff")
# The same as a regular-expression class body.
WHITESPACE_CLASS = "".join(f"\\u{ord(c):04x}" for c in sorted(WHITESPACE))

# The CJK ideographs Unicode 16.0 assigns, block by block (the one table of them: the readers'
# sniffs, the converter, the validator and the print grid all read it). A newer Unicode adds
# blocks here; data/unicode-assigned.txt, generated from the same version, must agree (a test
# holds it).
CJK_IDEOGRAPHS = tuple((int(lo, 16), int(hi, 16), name) for lo, hi, name in (
    row.split(maxsplit=2) for row in """
    3400  4DBF   Extension A
    4E00  9FFF   Unified Ideographs
    F900  FA6D   Compatibility Ideographs
    FA70  FAD9   Compatibility Ideographs
    20000 2A6DF  Extension B
    2A700 2B739  Extension C
    2B740 2B81D  Extension D
    2B820 2CEA1  Extension E
    2CEB0 2EBE0  Extension F
    2EBF0 2EE5D  Extension I
    2F800 2FA1D  Compatibility Ideographs Supplement
    30000 3134A  Extension G
    31350 323AF  Extension H
    """.strip().splitlines()))
UNICODE_VERSION = "16.0"
# Private Use: the BMP area and the planes 15 and 16.
PRIVATE_USE = ((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))
# What a decoder puts where it could not read a character: a character lost before Zhushu.
LOST = "\ufffd"


# The numerals a 卷, 篇 or section number is printed in (a regex class body).
NUMERALS = "〇零一二三四五六七八九十百千两兩0-9"


def is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi, _ in CJK_IDEOGRAPHS)


def is_pua(ch: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in PRIVATE_USE)


def _assigned_ranges() -> tuple[list[int], list[int]]:
    starts, ends = [], []
    path = os.path.join(os.path.dirname(__file__), "data", "unicode-assigned.txt")
    with open(path, encoding="ascii") as f:
        for line in f:
            if line[:1] != "#":
                a, b = line.split("..")
                starts.append(int(a, 16))
                ends.append(int(b, 16))
    return starts, ends


_STARTS, _ENDS = _assigned_ranges()


def is_assigned(ch: str) -> bool:
    """Does Unicode 16.0 assign `ch` to a character (private use and surrogates not counted)?"""
    cp = ord(ch)
    i = bisect.bisect_right(_STARTS, cp) - 1
    return i >= 0 and cp <= _ENDS[i]


# A control character of a source that XML cannot hold is kept as one of these private
# characters (plane 16): U+10FF00 + its code point, U+10FFE0/U+10FFE1 for U+FFFE/U+FFFF.
STAND_IN_BASE = 0x10FF00


def stand_in(ch: str) -> str:
    cp = ord(ch)
    return chr(STAND_IN_BASE + cp) if cp < 0x100 else chr(STAND_IN_BASE + 0xE0 + (cp - 0xFFFE))


def stood_in(ch: str) -> int | None:
    """The control character a stand-in holds, or None."""
    k = ord(ch) - STAND_IN_BASE
    if 0 <= k < 0xA0:
        return k
    return 0xFFFE + k - 0xE0 if k in (0xE0, 0xE1) else None


def glyph_kind(ch: str) -> str | None:
    """Why a character must stand in a declared <g>, or None: a placeholder for a character the
    e-text could not give, a private-use character, U+FFFD (lost before conversion), a control
    character of the source (its stand-in), a code point Unicode 16.0 leaves unassigned."""
    if ch in PLACEHOLDERS:
        return "placeholder"
    if ch == LOST:
        return "lost"
    if stood_in(ch) is not None:
        return "control"
    if is_pua(ch):
        return "private"
    if not is_assigned(ch):
        return "unassigned"
    return None


def _unusual_class() -> str:
    """A regex class body that holds every character glyph_kind may name but the placeholders,
    and few others: U+FFFD, the BMP's unassigned and private-use code points (exactly: in the
    BMP the regex engine tests a class by a table lookup) and everything beyond the BMP (a long
    list of ranges there would be searched one by one for each character; the rare
    supplementary character found is looked up in the table instead)."""
    gaps, prev = [], -1
    for a, b in zip(_STARTS, _ENDS):
        if a > 0xFFFF:
            break
        if a > prev + 1:
            gaps.append((prev + 1, a - 1))
        prev = b
    if prev < 0xFFFF:
        gaps.append((prev + 1, 0xFFFF))
    ranges = "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b in gaps if not 0xD800 <= a <= 0xDFFF)
    return "\\ufffd" + ranges + "\\U00010000-\\U0010ffff"


# Characters that may not stand as text in the TEI (glyph_kind decides for each one found)…
UNUSUAL = _unusual_class()
# … and those with the placeholders, which the writer puts in a <g> too.
SUSPECT = re.escape("".join(sorted(PLACEHOLDERS))) + UNUSUAL


def without(s: str, chars: str) -> str:
    """`s` less every one of `chars`: a str.replace per character the text holds. These are
    few and the texts long, and C loops over the text cost a third of a regex substitution."""
    for ch in chars:
        if ch in s:
            s = s.replace(ch, "")
    return s


WHITESPACE_CHARS = "".join(sorted(WHITESPACE))    # for str.strip and a regex class
_LOSSLESS_CHARS = "".join(sorted(WHITESPACE | DELIMITERS))


def strip_ws(s: str) -> str:
    return without(s, WHITESPACE_CHARS)


def lossless_form(s: str, delimiters: frozenset = DELIMITERS) -> str:
    """The source as the lossless invariant compares it: no whitespace, no pure delimiters (a
    plain e-text's brackets and ○; a mandoku source's note parentheses)."""
    if delimiters is DELIMITERS:
        return without(s, _LOSSLESS_CHARS)
    return without(s, "".join(sorted(WHITESPACE | delimiters)))


def _compat_sequences() -> dict[int, str]:
    path = os.path.join(os.path.dirname(__file__), "data", "cjk-compat-svs.txt")
    with open(path, encoding="ascii") as f:
        rows = [line.split() for line in f if line[:1] != "#"]
    return {int(compat, 16): chr(int(base, 16)) + chr(int(selector, 16)) for compat, base, selector in rows}


# NFC maps a CJK compatibility ideograph (U+2F80F) to its unified ideograph (U+5154), losing
# the distinction the e-text made; its standardized variation sequence (U+5154 U+FE00) keeps
# it through every normalisation, so the source is read with these sequences instead.
COMPAT_SEQUENCES = _compat_sequences()
_COMPAT = re.compile("[\uf900-\ufaff\U0002f800-\U0002fa1f]")


def normalize(s: str) -> str:
    """`s` in NFC, its CJK compatibility ideographs kept as their variation sequences."""
    if _COMPAT.search(s):
        s = s.translate(COMPAT_SEQUENCES)
    return unicodedata.normalize("NFC", s)


def compat_offsets(s: str) -> list[int]:
    """Where `s` holds a CJK compatibility ideograph (normalize keeps each as a sequence)."""
    return [m.start() for m in _COMPAT.finditer(s) if ord(m.group()) in COMPAT_SEQUENCES]


# Quotation marks a lemma, sub-lemma or gloss may be printed in: “” (modern punctuation) or 「」
# (traditional typesetting of the same editions). Regex fragments, so every pattern agrees.
QUOTE_MARKS = "“”「」"
Q_OPEN, Q_CLOSE = "[“「]", "[”」]"
