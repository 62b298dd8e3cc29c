"""What the layout sniffs share: detect() asks every reader about the same text, and several of
them count in the same lines. Each helper remembers its answer for the last text it saw, so the
text is split and scanned once, not once per reader (hashing the text, once, costs far less)."""
from __future__ import annotations

import functools
import re

# A 經 sentence followed by a parenthesised note: the mark of the paren layout, which tells it
# from the runon one.
PAREN_NOTE = re.compile(r"[。，；：、][（(][^）)]{2,}")
# The high bytes of UTF-16 code units that are not U+4E00–U+9FFF, deleted by mostly_cjk.
_NOT_URO_HIGH = bytes(b for b in range(256) if not 0x4E <= b <= 0x9F)


@functools.lru_cache(maxsize=1)
def nonblank_lines(text: str) -> tuple[str, ...]:
    """The text's lines that are not blank, stripped."""
    return tuple(s for s in map(str.strip, text.split("\n")) if s)


@functools.lru_cache(maxsize=1)
def lines_with_paren_note(text: str) -> int:
    """How many of the non-blank lines hold a PAREN_NOTE (a line with no parenthesis at all is
    passed over without running the pattern)."""
    return sum(1 for s in nonblank_lines(text) if ("（" in s or "(" in s) and PAREN_NOTE.search(s))


def mostly_cjk(text: str) -> bool:
    """Are more than half of the characters CJK ideographs (U+4E00–U+9FFF)? In UTF-16 those are
    exactly the code units whose high byte lies in 0x4E–0x9F (a character beyond the BMP is two
    surrogates, D8–DF), so the count is one encode, a slice and a deletion, all in C: a regex
    over the text costs several times as much."""
    high = text.encode("utf-16-le", "surrogatepass")[1::2]
    return 2 * len(high.translate(None, _NOT_URO_HIGH)) > max(1, len(text))
