"""`zhushu validate`: structure by the schema in schema/, meaning by the rules in rules.py.

`iter_issues(path)` is the core; the exit code, the reporters and `is_valid` are built on it.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterator

from .errors import PipelineError
from . import resources, xmlsafe


@dataclass(slots=True, frozen=True)
class Issue:
    file: str
    line: int
    col: int
    level: str          # error | warning | fatal (the file is unusable)
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.level}: {self.rule}: {self.message}"


@functools.cache
def schema():
    from lxml import etree
    return etree.RelaxNG(etree.parse(resources.path("schema", "zhushu.rng")))


@dataclass(frozen=True)
class Limits:
    """Bounds on untrusted input (see xmlsafe.parse_bytes)."""
    max_bytes: int = xmlsafe.MAX_BYTES
    max_depth: int = xmlsafe.MAX_DEPTH


def iter_issues(path: str, limits: Limits = Limits()) -> Iterator[Issue]:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except IsADirectoryError:
        yield Issue(path, 0, 0, "fatal", "ZS-XML-000", "is a directory")
        return
    except OSError as e:
        yield Issue(path, 0, 0, "fatal", "ZS-XML-000", f"cannot read: {e.strerror}")
        return
    try:
        tree = xmlsafe.parse_bytes(data, path, limits.max_bytes, limits.max_depth)
    except PipelineError as e:
        yield Issue(path, e.line or 0, e.col or (1 if e.line else 0), "fatal", "ZS-XML-001", e.message)
        return
    rng = schema()
    if not rng.validate(tree):
        seen = set()
        for err in rng.error_log:                  # libxml2 repeats itself; say each thing once
            if (err.line, err.message) not in seen:
                seen.add((err.line, err.message))
                yield Issue(path, err.line, err.column or 1, "error", "ZS-SCHEMA-001", err.message)
    from . import rules
    locate = _Locator(data)
    for el, level, rule, message in rules.check(tree):
        line, col = locate(el)
        yield Issue(path, line, col, level, rule, message)


class _Locator:
    """Line and column of an element: lxml knows the line; the column is found in the raw bytes."""

    def __init__(self, data: bytes):
        self.data = data
        self._lines: list[bytes] | None = None

    def __call__(self, el) -> tuple[int, int]:
        line = el.sourceline or 0
        if not line:
            return 0, 0
        if self._lines is None:
            self._lines = self.data.split(b"\n")
        raw = self._lines[line - 1] if line <= len(self._lines) else b""
        xid = el.get("{http://www.w3.org/XML/1998/namespace}id")
        at = raw.find(f'xml:id="{xid}"'.encode()) if xid else -1
        if at == -1:
            local = el.tag.rsplit("}", 1)[-1].encode()
            at = raw.find(b"<" + local)
        else:
            at = raw.rfind(b"<", 0, at)
        return line, (len(raw[:at].decode("utf-8", "replace")) + 1) if at >= 0 else 1


def _issues_of(args) -> list[Issue]:
    path, limits = args
    return list(iter_issues(path, limits))


def validate_files(files: list[str], jobs: int = 1, limits: Limits = Limits()) -> list[Issue]:
    """Issues of every file, in file order. With jobs > 1 files are checked in that many
    processes (libxml2 releases the GIL only in part; processes scale); the report is the
    same either way."""
    if jobs <= 1 or len(files) < 2:
        return [i for f in files for i in iter_issues(f, limits)]
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        chunks = pool.map(_issues_of, [(f, limits) for f in files], chunksize=max(1, len(files) // (4 * jobs)))
        return [i for chunk in chunks for i in chunk]


def exit_code(issues: list[Issue], strict: bool = False) -> int:
    if any(i.level == "fatal" for i in issues):
        return 2
    if any(i.level == "error" or (strict and i.level == "warning") for i in issues):
        return 1
    return 0


def is_valid(path: str) -> bool:
    return not any(i.level in ("error", "fatal") for i in iter_issues(path))
