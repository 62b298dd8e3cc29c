"""One error family: every failure names the file and, where there is one, line and column."""
from __future__ import annotations


class PipelineError(Exception):
    """Input that cannot be used. `str()` gives the one line the CLI prints."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 col: int | None = None):
        super().__init__(message)
        self.message, self.file, self.line, self.col = message, file, line, col

    def __str__(self) -> str:
        where = [str(x) for x in (self.file, self.line, self.col) if x is not None]
        return ":".join(where) + (": " if where else "") + self.message
