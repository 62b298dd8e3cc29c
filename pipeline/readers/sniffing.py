"""What the layout sniffs share: detect() asks every reader about the same text, and several of
them count in the same lines. Each helper remembers its answer for the last text it saw, so the
text is split and scanned once, not once per reader (hashing the text, once, costs far less)."""
from __future__ import annotations

import functools
import re

# A 經 sentence followed by a parenthesised note: the mark of the paren layout, which tells it
# from the runon one.
PAREN_NOTE = re.compile(r"[。，；：、][（(][^）)]{2,}")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
_BLOCK = 1 << 16                            # characters counted at a time by mostly_cjk


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
    """Are more than half of the characters CJK ideographs (U+4E00–U+9FFF)? Counted a block at a
    time, stopping once the rest of the text cannot change the answer."""
    need = max(1, len(text))                # twice the count must exceed this
    count = 0
    for start in range(0, len(text), _BLOCK):
        block = text[start:start + _BLOCK]
        count += len(block) - len(_CJK_RUN.sub("", block))
        if 2 * count > need:
            return True
        if 2 * (count + len(text) - start - len(block)) <= need:
            return False
    return 2 * count > need
