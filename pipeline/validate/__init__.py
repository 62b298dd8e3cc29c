"""`zhushu validate`: each file read as untrusted XML (xmlsafe.py); its structure checked by the
schema in schema/ and by what the schema cannot state (document.py, by_type.py), its meaning by
the rules (rules.py; spans.py gives the text a 疏 covers); reports.py writes the issues in the
forms CI systems show.

`iter_issues(path)` is the core; the reporters, `is_valid` and the exit status (issues.exit_status)
are built on it.
"""
from __future__ import annotations

import bisect
import functools
import os
import re
from typing import Iterator

from lxml import etree

from pipeline import files, resources
from pipeline.constants import TEI, XML
from pipeline.errors import PipelineError, one_line
from pipeline.issues import Issue
from pipeline.limits import MAX_ISSUES_PER_FILE, Limits
from pipeline.validate import shared, xmlsafe


@functools.cache
def schema():
    """schema/zhushu.xsd, compiled once (it imports schema/xml.xsd from beside it)."""
    return etree.XMLSchema(etree.parse(resources.path("schema", "zhushu.xsd")))


_XSI = b"http://www.w3.org/2001/XMLSchema-instance"


def structure(tree, data: bytes | None = None) -> Iterator[tuple]:
    """Structural errors, (element or None, line, message): schema/zhushu.xsd, then the variants
    it cannot state (document.check_document), then attributes in the XMLSchema-instance namespace.

    XSD validators honour xsi:type and xsi:nil, and accept xsi:schemaLocation on any element;
    our TEI uses none of them, and the schema blocks type substitution (blockDefault="#all"),
    but the document is closed, so they are refused here. The tree is searched only when the
    bytes could hold the namespace name: always, unless they are UTF-8 and hold neither the
    name nor a character reference that could spell it (`data` None: always)."""
    xsd = schema()
    if not xsd.validate(tree):
        for err in xsd.error_log:
            # libxml2 names elements {namespace}name: TEI's names read better bare
            msg = err.message.replace(TEI, "").replace(XML, "xml:")
            yield None, err.line, msg
    from pipeline.validate import document
    for el, message in document.check_document(tree.getroot()):
        yield el, el.sourceline or 0, message
    if data is None or _XSI in data or b"&#" in data or not xmlsafe.is_plain_utf8(data):
        for at in _xsi_attributes()(tree):
            el = at.getparent()
            yield el, el.sourceline or 0, f"attribute xsi:{at.attrname.rsplit('}', 1)[-1]} is not allowed"


def iter_issues(path: str, limits: Limits = Limits(), schematrons: tuple[str, ...] = ()) -> Iterator[Issue]:
    """The problems of one file, in the order the checks find them: a refusal of the file as
    unusable (one `fatal` issue), or the schema's findings, then the rules', then those of
    each Schematron source in `schematrons` (schematron.load). At most MAX_ISSUES_PER_FILE are
    given with their positions; one more issue counts the rest."""
    try:
        data = files.read_regular(path, limits.max_bytes)
        tree = xmlsafe.parse(data, path, limits)
    except PipelineError as e:
        yield Issue(path, e.line or 0, e.col or (1 if e.line else 0), "fatal", e.rule, e.message)
        return
    if shared.is_shared(path):                  # persons.xml, categories.xml
        for el, message in shared.check_shared(tree):
            line, col = _Locator(tree, data, [el])(el)
            yield Issue(path, line, col, "error", "ZS-SCHEMA-001", one_line(message))
        return
    corpus = shared.corpus_of(os.path.dirname(os.path.abspath(path)))
    findings, more = [], 0
    for finding in _findings(tree, data, corpus, schematrons):
        if len(findings) < MAX_ISSUES_PER_FILE:
            findings.append(finding)
        else:
            more += 1
    locate = _Locator(tree, data, [el for el, *_ in findings if el is not None])
    for el, line, level, rule, message in findings:
        if el is not None:
            line, col = locate(el)
        else:                                   # libxml2's schema errors give a line only
            col = 1 if line else 0
        yield Issue(path, line, col, level, rule, one_line(message))
    if more:
        yield Issue(path, 0, 0, "error", "ZS-LIMIT-001",
                    f"{more} more problems in this file not shown (at most {MAX_ISSUES_PER_FILE} are)")


def _findings(tree, data: bytes, corpus=None, schematrons: tuple[str, ...] = ()) -> Iterator[tuple]:
    """(element or None, line, level, rule, message) from the schema, then the rules (pointers
    into the shared files resolved in `corpus`), then the Schematron sources asked for."""
    for el, line, message in structure(tree, data):
        yield el, line, "error", "ZS-SCHEMA-001", message
    from pipeline.validate import rules
    for el, level, rule, message in rules.check(tree, corpus):
        yield el, 0, level, rule, message
    if schematrons:
        from pipeline.validate import schematron
        for source in schematrons:
            for line, pattern, role, message in schematron.load(source).check(tree):
                yield None, line, schematron.level(role), "ZS-SCH-001", f"{message} [{pattern}]"


@functools.cache
def _xsi_attributes():
    return etree.XPath("//@*[namespace-uri() = 'http://www.w3.org/2001/XMLSchema-instance']")


class _Locator:
    """Line and column of the elements problems are reported on. lxml knows an element's line
    but not its column, so the start tags are found in the document's text, in one pass when
    the first position is asked: the n-th start tag of the text is the n-th element of the tree
    (comments, CDATA sections and processing instructions are passed over, and no attribute
    value or text can hold a raw '<'). One pass, whatever the number of problems: a search per
    problem on a document of one long line would cost the line's length each time."""

    _MARKUP = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<(?![/!?])", re.S)

    def __init__(self, tree, data: bytes, wanted: list):
        self.tree, self.data, self.wanted = tree, data, wanted
        self._at: dict | None = None

    def _index(self) -> dict:
        wanted = set(self.wanted)
        ordinal: dict = {}
        for i, el in enumerate(self.tree.getroot().iter(etree.Element)):
            if el in wanted:
                ordinal[el] = i
        text = xmlsafe.decoded(self.data)
        starts = [m.start() for m in self._MARKUP.finditer(text) if m.group() == "<"]
        line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        at = {}
        for el, i in ordinal.items():
            if i < len(starts):
                off = starts[i]
                k = bisect.bisect_right(line_starts, off) - 1
                at[el] = (k + 1, off - line_starts[k] + 1)
        return at

    def __call__(self, el) -> tuple[int, int]:
        if self._at is None:
            self._at = self._index()
        return self._at.get(el) or (el.sourceline or 0, 1 if el.sourceline else 0)


# A list of paths (`git diff --name-only`) is small; a stream that is not one (/dev/zero) is
# refused at this size rather than read forever.
MAX_PATH_LIST = 16 * 1024 * 1024


def paths_from_stdin(stream) -> list[str]:
    """`-` stands for the paths listed on stdin, one per line; only .xml ones are kept from it
    (a `git diff --name-only` lists every changed file), and a listed file that no longer
    exists is no error (a deletion)."""
    data = stream.read(MAX_PATH_LIST + 1)
    if len(data) > MAX_PATH_LIST or b"\x00" in data:
        raise PipelineError(f"standard input is not a list of paths (NUL bytes, or over "
                            f"{MAX_PATH_LIST // (1024 * 1024)} MB)", "<stdin>", rule="ZS-IO-001")
    listed = [line.strip() for line in data.decode("utf-8", "surrogateescape").splitlines()]
    return [p for p in listed if p.endswith(".xml") and os.path.lexists(p)]


def _issues_of(args) -> list[Issue]:
    path, limits, schematrons = args
    return list(iter_issues(path, limits, schematrons))


def validate_files(files: list[str], jobs: int = 1, limits: Limits = Limits(),
                   schematrons: tuple[str, ...] = ()) -> list[Issue]:
    """Issues of every file, in file order. With jobs > 1 files are checked in that many
    processes (libxml2 releases the GIL only in part; processes scale); the report is the
    same either way. `schematrons`: Schematron sources to run too (each compiled once per
    process)."""
    schematrons = tuple(schematrons)
    if schematrons:
        from pipeline.validate import schematron
        for source in schematrons:          # a source that cannot be used stops the run at once
            schematron.load(source)
    if jobs <= 1 or len(files) < 2:
        return [i for f in files for i in iter_issues(f, limits, schematrons)]
    from concurrent.futures import ProcessPoolExecutor

    # The biggest files first, so that the last ones handed out are small and the workers
    # finish together; the report keeps the order of `files`. Small chunks for the same
    # reason: a worker left without work while the other finishes its last chunk costs that
    # chunk's time (with 4 chunks per worker, up to a quarter of the run); 16 per worker still
    # spare thousands of small files a round trip each.
    order = sorted(range(len(files)), key=lambda k: -_size(files[k]))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = pool.map(_issues_of, [(files[k], limits, schematrons) for k in order],
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


def is_valid(path: str) -> bool:
    return not any(i.level in ("error", "fatal") for i in iter_issues(path))
