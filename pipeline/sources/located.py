"""Text gathered from several source lines that still knows where each character came from.

Readers collect a 注 or a 疏 that runs over lines into one `Located`; whitespace (indentation,
U+3000, NBSP) is left out, since the lossless invariant ignores it, and each kept run remembers
its line and column, so any offset maps back to the source.
"""
from __future__ import annotations

import bisect
import re

from pipeline.chars import WHITESPACE_CLASS
from pipeline.model import Pos

_RUN = re.compile(f"[^{WHITESPACE_CLASS}]+")
_WS = re.compile(f"[{WHITESPACE_CLASS}]")


class Located:
    __slots__ = ("parts", "offsets", "starts", "_text")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.offsets: list[int] = []       # offset in text where each run starts
        self.starts: list[Pos] = []        # source position of each run's first character
        self._text: str | None = None

    @classmethod
    def of(cls, s: str, line: int, col: int) -> "Located":
        loc = cls()
        loc.add(s, line, col)
        return loc

    def add(self, s: str, line: int, col: int) -> None:
        """Append `s`, which starts at `line`:`col` (1-based) of the source."""
        n = len(self)
        if s and _WS.search(s) is None:         # the common case: nothing to leave out
            self.parts.append(s)
            self.offsets.append(n)
            self.starts.append(Pos(line, col))
            self._text = None
            return
        for m in _RUN.finditer(s):
            self.parts.append(m.group())
            self.offsets.append(n)
            self.starts.append(Pos(line, col + m.start()))
            n += m.end() - m.start()
        self._text = None

    def __len__(self) -> int:
        return self.offsets[-1] + len(self.parts[-1]) if self.parts else 0

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = "".join(self.parts)
        return self._text

    def pos(self, offset: int) -> Pos:
        if not self.starts:
            return Pos(0, 0)
        i = max(0, bisect.bisect_right(self.offsets, offset) - 1)
        start = self.starts[i]
        return Pos(start.line, start.col + offset - self.offsets[i])

    def slice(self, a: int, b: int) -> "Located":
        """loc.text[a:b] as a new Located, each run keeping its source position."""
        out = Located()
        i = max(0, bisect.bisect_right(self.offsets, a) - 1)
        while i < len(self.parts) and self.offsets[i] < b:
            off, part, start = self.offsets[i], self.parts[i], self.starts[i]
            lo, hi = max(a, off), min(b, off + len(part))
            if hi > lo:
                out.offsets.append(len(out))
                out.parts.append(part[lo - off:hi - off])
                out.starts.append(Pos(start.line, start.col + lo - off))
            i += 1
        return out
