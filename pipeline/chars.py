"""Character classes of the source texts: punctuation, delimiters, placeholders, CJK blocks.

One table per idea, shared by readers, the lemma matcher, the writer and the validator.
"""
from __future__ import annotations

import unicodedata

# Pure delimiters: they carry structure, not text, so the lossless invariant removes them.
DELIMITERS = frozenset("（）()［］[]【】〈〉○")

# Placeholders the e-texts use for a character the editor could not read or type.
PLACEHOLDERS = frozenset("?┹▯□")

# Punctuation added by modern editors; lemma matching skips it (傧进 = 傧，进).
PUNCTUATION = frozenset(
    "，。、；：？！“”‘’「」『』《》〈〉·．…—－,.;:!?\"'()（）［］[]【】○　 \u00a0\t"
) - PLACEHOLDERS

# Whitespace that indents or separates (ASCII space, NBSP, ideographic space, tabs).
WHITESPACE = frozenset(" \t\u00a0\u3000\r\n\ufeff")

# Unicode blocks that hold CJK ideographs (assigned ranges, Unicode 15.1).
CJK_RANGES = (
    (0x3400, 0x4DBF),   # Extension A
    (0x4E00, 0x9FFF),   # URO
    (0xF900, 0xFAFF),   # Compatibility Ideographs
    (0x20000, 0x2A6DF),  # Extension B
    (0x2A700, 0x2B73F),  # C
    (0x2B740, 0x2B81F),  # D
    (0x2B820, 0x2CEAF),  # E
    (0x2CEB0, 0x2EBEF),  # F
    (0x2EBF0, 0x2EE5F),  # I
    (0x2F800, 0x2FA1F),  # Compatibility Supplement
    (0x30000, 0x3134F),  # G
    (0x31350, 0x323AF),  # H
)


def is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in CJK_RANGES)


def is_pua(ch: str) -> bool:
    cp = ord(ch)
    return 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0x10FFFD


def without(s: str, chars: str) -> str:
    """`s` less every one of `chars`: a str.replace per character the text holds. These are
    few and the texts long, and C loops over the text cost a third of a regex substitution."""
    for ch in chars:
        if ch in s:
            s = s.replace(ch, "")
    return s


_WS_CHARS = "".join(sorted(WHITESPACE))
_LOSSLESS_CHARS = "".join(sorted(WHITESPACE | DELIMITERS))


def strip_ws(s: str) -> str:
    return without(s, _WS_CHARS)


def lossless_form(s: str) -> str:
    """The source as the lossless invariant compares it: no whitespace, no pure delimiters."""
    return without(s, _LOSSLESS_CHARS)


def normalize(s: str) -> str:
    return unicodedata.normalize("NFC", s)


# Quotation marks a lemma, sub-lemma or gloss may be printed in: “” (modern punctuation) or 「」
# (traditional typesetting of the same editions). Regex fragments, so every pattern agrees.
QUOTE_MARKS = "“”「」"
Q_OPEN, Q_CLOSE = "[“「]", "[”」]"
