"""One problem found in a file, by the converter (pipeline/report.py) or the validator
(pipeline/validate): the same type for both, printed as the same one line."""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.errors import EXIT_INVALID, EXIT_OK, EXIT_UNUSABLE, located


@dataclass(slots=True, frozen=True)
class Issue:
    file: str | None    # None: no file (a bad option)
    line: int | None    # 0 or None: no position (the file as a whole); the validator's JSON
    col: int | None     # writes 0, the conversion report's null, each as it always has
    level: str          # warning | error | fatal (the file is unusable)
    rule: str           # stable id, e.g. ZS-CONV-LEMMA, ZS-SCHEMA-001 (docs/rules.md)
    message: str

    def __str__(self) -> str:
        """`file:line:col: level: RULE: message` (pipeline/errors.py)."""
        return located(self.file, self.line, self.col, self.level, self.rule, self.message)


def exit_status(issues, strict: bool = False) -> int:
    """What a run came to, from the problems it found (of a conversion or a validation):
    EXIT_UNUSABLE when an input could not be used, EXIT_INVALID when one has an error (or, with
    `strict`, a warning), else EXIT_OK."""
    levels = {i.level for i in issues}
    if "fatal" in levels:
        return EXIT_UNUSABLE
    if "error" in levels or (strict and "warning" in levels):
        return EXIT_INVALID
    return EXIT_OK
