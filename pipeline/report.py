"""The conversion report: warnings and the structural decisions a reader made, with positions."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from pipeline import files
from pipeline.issues import Issue
from pipeline.model import Pos


@dataclass(slots=True)
class Boundary:
    """Where a reader split layers, how it knew, and how sure it is (0–1)."""
    kind: str                  # e.g. jing|zhu, zhu|yinyi, shu-target
    method: str                # delimiter | lemma | cue
    confidence: float
    line: int
    col: int
    note: str = ""


@dataclass
class Report:
    source: str
    layout: str = ""
    layout_reason: str = ""
    issues: list[Issue] = field(default_factory=list)
    boundaries: list[Boundary] = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    # where a reader's line:col is in the file, when the text it read is not the file's own
    # (a Kanripo source: printed lines joined into paragraphs); None: the same
    locate: object | None = field(default=None, repr=False)

    def _at(self, pos: Pos | None) -> tuple[int | None, int | None]:
        if pos is None:
            return None, None
        if self.locate is not None:
            return self.locate(pos.line, pos.col)
        return pos.line, pos.col

    def warn(self, rule: str, message: str, pos: Pos | None = None) -> None:
        self.issues.append(Issue(self.source, *self._at(pos), "warning", rule, message))

    def fatal(self, rule: str, message: str, pos: Pos | None = None) -> None:
        """The source could not be used (the conversion never ran)."""
        self.issues.append(Issue(self.source, *self._at(pos), "fatal", rule, message))

    def error(self, rule: str, message: str, pos: Pos | None = None) -> None:
        self.issues.append(Issue(self.source, *self._at(pos), "error", rule, message))

    def boundary(self, kind: str, method: str, confidence: float, pos: Pos, note: str = "") -> None:
        self.boundaries.append(Boundary(kind, method, confidence, *self._at(pos), note))

    @property
    def warnings(self) -> list[Issue]:
        return [i for i in self.issues if i.level == "warning"]

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.level == "error"]

    def lines(self, levels: tuple[str, ...] = ("error", "warning")) -> list[str]:
        """Human-readable `file:line:col: level: CODE: message` lines, of the given levels."""
        return [str(i) for i in self.issues if i.level in levels]

    def to_dict(self) -> dict:
        return {"source": self.source, "layout": self.layout, "layout_reason": self.layout_reason,
                "stats": self.stats, "issues": [_issue_dict(i) for i in self.issues],
                "boundaries": [asdict(b) for b in self.boundaries]}


def _issue_dict(i: Issue) -> dict:
    """An issue as the report's JSON has it: the file is the report's, its rule named `code`."""
    return {"level": i.level, "code": i.rule, "message": i.message, "line": i.line, "col": i.col}


def write_reports(reports: list[Report], path: str) -> None:
    """The reports as one JSON file, written atomically (ZS-IO-002 when it cannot be)."""
    data = {"reports": [r.to_dict() for r in reports]}
    files.write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n")
