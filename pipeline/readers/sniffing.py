"""What the layout sniffs share: the non-blank lines of a text, the lines with a parenthesised
note after a 經 sentence, whether a text is mostly CJK ideographs.

Each sniff splits and scans the text itself. Sharing the split between the sniffs (a cache of
the last text's answers) saved under 4 % of a conversion of the seeds (issue 15, docs/performance.md).
"""
from __future__ import annotations

import re

# A 經 sentence followed by a parenthesised note: the mark of the paren layout, which tells it
# from the runon one.
PAREN_NOTE = re.compile(r"[。，；：、][（(][^）)]{2,}")
# The CJK Unified Ideographs (U+4E00–U+9FFF), in runs.
_IDEOGRAPHS = re.compile(r"[\u4e00-\u9fff]+")


def nonblank_lines(text: str) -> tuple[str, ...]:
    """The text's lines that are not blank, stripped."""
    return tuple(s for s in map(str.strip, text.split("\n")) if s)


def lines_with_paren_note(text: str) -> int:
    """How many of the non-blank lines hold a PAREN_NOTE (a line with no parenthesis at all is
    passed over without running the pattern)."""
    return sum(1 for s in nonblank_lines(text) if ("（" in s or "(" in s) and PAREN_NOTE.search(s))


def mostly_cjk(text: str) -> bool:
    """Are more than half of the characters CJK ideographs (U+4E00–U+9FFF)?"""
    others = len(_IDEOGRAPHS.sub("", text))
    return 2 * (len(text) - others) > max(1, len(text))
