"""`zhushu validate`: structure by the schema in schema/, meaning by the rules in rules.py.

`iter_issues(path)` is the core; the exit code, the reporters and `is_valid` are built on it.
"""
from __future__ import annotations

import functools
import os
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
    """schema/zhushu.xsd, compiled once (it imports schema/xml.xsd from beside it)."""
    from lxml import etree
    return etree.XMLSchema(etree.parse(resources.path("schema", "zhushu.xsd")))


_XSI = b"http://www.w3.org/2001/XMLSchema-instance"
_TEI_NS = "{http://www.tei-c.org/ns/1.0}"
_XML_NS = "{http://www.w3.org/XML/1998/namespace}"


def structure(tree, data: bytes | None = None) -> Iterator[tuple]:
    """Structural errors, (element or None, line, message): schema/zhushu.xsd, then the variants
    it cannot state (rules.variants), then attributes in the XMLSchema-instance namespace.

    XSD validators honour xsi:type and xsi:nil, and accept xsi:schemaLocation on any element;
    our TEI uses none of them, and the schema blocks type substitution (blockDefault="#all"),
    but the document is closed, so they are refused here. The tree is searched only when the
    bytes hold the namespace name, or a character reference that could spell it (`data`
    None: always)."""
    xsd = schema()
    if not xsd.validate(tree):
        for err in xsd.error_log:
            # libxml2 names elements {namespace}name: TEI's names read better bare
            msg = err.message.replace(_TEI_NS, "").replace(_XML_NS, "xml:")
            yield None, err.line, msg
    from . import rules
    for el, message in rules.variants(tree.getroot()):
        yield el, el.sourceline or 0, message
    if data is None or _XSI in data or b"&#" in data:
        for at in _xsi_attributes()(tree):
            el = at.getparent()
            yield el, el.sourceline or 0, f"attribute xsi:{at.attrname.rsplit('}', 1)[-1]} is not allowed"


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
    locate = _Locator(data)
    for el, line, message in structure(tree, data):
        # a variant's finding names its element, whose column is found in the bytes; libxml2's
        # own errors give a line only
        col = locate(el)[1] if el is not None else 1
        yield Issue(path, line, col, "error", "ZS-SCHEMA-001", message)
    from . import rules
    for el, level, rule, message in rules.check(tree):
        line, col = locate(el)
        yield Issue(path, line, col, level, rule, message)


@functools.cache
def _xsi_attributes():
    from lxml import etree
    return etree.XPath("//@*[namespace-uri() = 'http://www.w3.org/2001/XMLSchema-instance']")


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
    # The biggest files first, so that the last ones handed out are small and the workers
    # finish together; the report keeps the order of `files`. Small chunks for the same
    # reason: a worker left without work while the other finishes its last chunk costs that
    # chunk's time (with 4 chunks per worker, up to a quarter of the run); 16 per worker still
    # spare thousands of small files a round trip each.
    order = sorted(range(len(files)), key=lambda k: -_size(files[k]))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = pool.map(_issues_of, [(files[k], limits) for k in order],
                           chunksize=max(1, len(files) // (16 * jobs)))
        found: list[list[Issue]] = [[] for _ in files]
        for k, issues in zip(order, results):
            found[k] = issues
    return [i for issues in found for i in issues]


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0                    # reported by the worker (ZS-XML-000)


def exit_code(issues: list[Issue], strict: bool = False) -> int:
    if any(i.level == "fatal" for i in issues):
        return 2
    if any(i.level == "error" or (strict and i.level == "warning") for i in issues):
        return 1
    return 0


def is_valid(path: str) -> bool:
    return not any(i.level in ("error", "fatal") for i in iter_issues(path))
