"""Conversion entry points, each usable alone: convert_file → convert_source → tei.to_tei_text."""
from __future__ import annotations

import gc
import os
from contextlib import contextmanager

from . import readers, strays
from .chars import lossless_form, strip_ws
from .errors import PipelineError
from .report import Report
from .source import Source, read_source
from .tei import body_text, to_tei_text


def convert_source(src: Source, fmt: str = "auto") -> tuple[bytes, Report]:
    """TEI bytes and the conversion report for one source."""
    with _no_cyclic_gc():
        return _convert(src, fmt)


@contextmanager
def _no_cyclic_gc():
    """A conversion allocates hundreds of thousands of small objects and frees none of them
    before it ends, so the cyclic collector's passes over them find next to nothing (the model
    holds no cycles) and cost 2–6 % of the time. Reference counting still frees the objects; the
    few cycles left are collected once the collector is back on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _convert(src: Source, fmt: str) -> tuple[bytes, Report]:
    report = Report(src.name)
    if fmt == "auto":
        fmt, why = readers.detect(src.text, src.name)
        report.layout_reason = why
    report.layout = fmt
    if src.renormalized:
        report.warn("ZS-CONV-NFC", f"{src.renormalized} characters normalised to NFC")
    doc = readers.get(fmt).read(src, report)
    strays.drop(doc, report)
    data, body = to_tei_text(doc, report)
    _check_lossless(body, src, report)
    report.stats = _stats(doc)
    return data, report


def convert_file(path: str, out: str | None = None, fmt: str = "auto", work: str | None = None,
                 encoding: str | None = None) -> tuple[bytes, Report]:
    src = read_source(path, encoding)
    if work:
        src.meta["work"] = work
    data, report = convert_source(src, fmt)
    if out:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        with open(out, "wb") as f:
            f.write(data)
    return data, report


def _check_lossless(body: str, src: Source, report: Report) -> None:
    """The invariant, checked on every conversion: the TEI text is the source, less whitespace
    and pure delimiters. A failure is a bug in a reader or the writer, reported as an error."""
    got, want = strip_ws(body_text(body)), lossless_form(src.text)
    if got == want:
        return
    i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    report.error("ZS-CONV-LOSSLESS", f"TEI text differs from the source at character {i}: "
                 f"source has {want[i:i + 12]!r}, TEI has {got[i:i + 12]!r}")


def _stats(doc) -> dict:
    from .model import Shu, Unit
    units = shus = targeted = pieces = 0
    for b in doc.blocks():
        if isinstance(b, Unit):
            units += 1
            pieces += len(b.pieces)
        elif isinstance(b, Shu):
            shus += 1
            targeted += b.target is not None
    return {"units": units, "pieces": pieces, "shu": shus, "shu_anchored": targeted}


def sources_in(paths: list[str], pattern_ext: str = ".txt") -> list[str]:
    """Files named on the command line, directories expanded (recursively, sorted)."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            found = sorted(os.path.join(d, f) for d, _, fs in os.walk(p) for f in fs
                           if f.endswith(pattern_ext))
            if not found:
                raise PipelineError(f"no {pattern_ext} files in directory", p)
            out.extend(found)
        else:
            out.append(p)
    return out


def _convert_job(job: tuple) -> tuple[str | None, bytes | None, Report | None, PipelineError | None]:
    """One file of convert_files: what it returns instead of raising, so a pool can carry it."""
    path, out, fmt, work, encoding, keep = job
    try:
        data, report = convert_file(path, out, fmt, work, encoding)
    except PipelineError as e:
        return path, None, None, e
    return path, data if keep else None, report, None


def convert_files(jobs_in: list[tuple[str, str | None]], fmt: str = "auto", work: str | None = None,
                  encoding: str | None = None, jobs: int = 1):
    """Convert (source, output) pairs, yielding (source, TEI bytes or None, report, error) in
    input order. With jobs > 1 files are converted in that many processes (the readers are pure
    Python: threads would share one core); the TEI bytes come back only for outputs that are not
    written to a file."""
    work_items = [(p, out, fmt, work, encoding, out is None) for p, out in jobs_in]
    if jobs <= 1 or len(work_items) < 2:
        yield from map(_convert_job, work_items)
        return
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_convert_job, work_items, chunksize=1)
