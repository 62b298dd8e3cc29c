"""Conversion entry points, each usable alone: convert_file → convert_source → tei.to_tei_text;
and `convert_all`, what `zhushu convert` runs: which output each source goes to, converted in
one or several processes, each output written only when its conversion succeeded.
"""
from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass

from pipeline import files, readers
from pipeline.chars import WHITESPACE, lossless_form, strip_ws
from pipeline.errors import EXIT_UNUSABLE, PipelineError
from pipeline.issues import exit_status
from pipeline.model import Pos, stats, strays
from pipeline.report import Report
from pipeline.sources.decoding import Source, check_text, read_source
from pipeline.tei import body_text, to_tei_text


def convert_source(src: Source, fmt: str = "auto") -> tuple[bytes, Report]:
    """TEI bytes and the conversion report for one source."""
    report = Report(src.name)
    forced = fmt != "auto"
    if src.mandoku is not None:
        if fmt == "auto":
            fmt, report.layout_reason = readers.detect_mandoku(src.mandoku, src.name)
        readers.prepare(src, fmt, report)
    elif fmt == "auto":
        fmt, why = readers.detect(src.text, src.name)
        report.layout_reason = why
    report.layout = fmt
    if src.renormalized:
        report.warn("ZS-CONV-NFC", f"{src.renormalized} characters normalised to NFC")
    if src.compat:
        n, (line, col) = src.compat
        report.warn("ZS-CONV-COMPAT", f"{n} CJK compatibility ideograph{'s' if n > 1 else ''} (the "
                    "first here) kept as standardized variation sequences: NFC would have replaced "
                    "them by their unified ideographs", Pos(line, col))
    for line, col, cp in src.controls:
        report.warn("ZS-CONV-CONTROL", f"U+{cp:04X}, a control character XML cannot hold, kept as "
                    "a private stand-in declared in the header", Pos(line, col))
    for line, col in src.lost:
        report.warn("ZS-CONV-LOST", "U+FFFD: a character was lost before this file was made (a bad "
                    "decoding); kept as a <g> declared in the header", Pos(line, col))
    doc = readers.get(fmt).read(src, report)
    missing = readers.structure_missing(doc, fmt)
    if missing and not forced:
        raise PipelineError(f"read as {fmt} ({report.layout_reason}), but {missing}: not a text "
                            f"of this layout, or one the reader cannot structure; give --format "
                            f"{fmt} to convert it anyway", src.name, 1, 1, rule="ZS-CONV-EMPTY")
    if missing:
        report.warn("ZS-CONV-EMPTY", f"read as {fmt} as asked, but {missing}: the TEI has next "
                    "to no structure", Pos(1, 1))
    doc.meta.sidecar = dict(src.meta)
    strays.drop(doc, report)
    data, body = to_tei_text(doc, report)
    _check_lossless(body, src, report, doc.meta.provenance)
    report.stats = stats(doc)
    # Positions are mapped to the file as issues are added: the map (a Kanripo file's joined
    # text and printed lines) is not kept with the report, which a pool sends back whole.
    report.locate = None
    return data, report


def convert_file(path: str, out: str | None = None, fmt: str = "auto", work: str | None = None,
                 encoding: str | None = None, kanripo=None) -> tuple[bytes, Report]:
    """Convert one file; with `out`, write the TEI there (atomically) if the conversion has no
    error: a failed conversion never replaces a good earlier output. `kanripo`: where a Kanripo
    file's context is, when not beside it (kanripo.Options)."""
    data, report = _convert_path(path, fmt, work, encoding, kanripo)
    if out and not report.errors:
        files.make_dirs(os.path.dirname(os.path.abspath(out)))
        files.write_atomic(out, data)
    return data, report


def _convert_path(path: str, fmt: str, work: str | None, encoding: str | None,
                  kanripo) -> tuple[bytes, Report]:
    src = read_source(path, encoding, kanripo)
    if work:
        src.meta["work"] = check_text(work, "--work")
    return convert_source(src, fmt)


def _check_lossless(body: str, src: Source, report: Report, provenance=()) -> None:
    """The invariant, checked on every conversion: the TEI text is the source, less whitespace
    and pure delimiters. A failure is a bug in a reader or the writer, reported as an error at
    the source position where the TEI first differs. A provenance line the header holds
    (Meta.provenance: only ever the source's first line) is the text's beginning."""
    got = lossless_form("".join(provenance), src.delimiters) + strip_ws(body_text(body))
    want = lossless_form(src.text, src.delimiters)
    if got == want:
        return
    if unicodedata.normalize("NFC", got) == unicodedata.normalize("NFC", want):
        return                                  # the same text, canonically (see tei.build)
    i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    report.error("ZS-CONV-LOSSLESS", f"TEI text differs from the source here (character {i} of "
                 f"the text): source has {want[i:i + 12]!r}, TEI has {got[i:i + 12]!r}",
                 _source_pos(src.text, i, WHITESPACE | src.delimiters))


def _source_pos(text: str, kept: int, drop: frozenset):
    """The source position of the `kept`-th character the lossless form keeps."""
    n = line = 0
    start = 0
    for k, ch in enumerate(text):
        if ch == "\n":
            line, start = line + 1, k + 1
        if ch in drop:
            continue
        if n == kept:
            return Pos(line + 1, k - start + 1)
        n += 1
    return Pos(line + 1, len(text) - start + 1)


def plan(paths: list[str], output: str | None) -> list[tuple[str, str | None]]:
    """(source, output) pairs for `zhushu convert SOURCES [-o OUTPUT]`: one source and no
    output → stdout (None); one source and a file → that file; several sources, a directory
    source or an output that is a directory → OUTPUT/<name>.xml, a directory named as a source
    keeping its tree below it. Refused before anything is converted: several sources without
    -o DIR, two sources claiming one output, an output that is one of the sources."""
    listed = files.listed(paths, ".txt")
    many = len(listed) > 1 or any(os.path.isdir(s) for s in paths)
    if many and not output:
        raise PipelineError("several sources need -o DIR", rule="ZS-OPT-001")
    into_dir = output is not None and (many or os.path.isdir(output) or output.endswith(os.sep))
    pairs: list[tuple[str, str | None]] = []
    claimed: dict[str, str] = {}
    for src, rel in listed:
        out = os.path.join(output, os.path.splitext(rel)[0] + ".xml") if into_dir else output
        if out is not None:
            key = os.path.normpath(os.path.abspath(out))
            if key in claimed:
                raise PipelineError(f"output {out} would also be written for {claimed[key]}", src,
                                    rule="ZS-IO-003")
            claimed[key] = src
            files.refuse_overwriting_inputs([p for p, _ in listed], out)
        pairs.append((src, out))
    for directory in sorted({os.path.dirname(os.path.abspath(o)) for _, o in pairs if o}):
        files.writable_dir(directory)           # one line for a read-only -o DIR, not one a file
    return pairs


@dataclass
class Outcome:
    """What converting one source came to: a report (with the TEI bytes when they go to
    stdout), or the error that made the source unusable."""
    source: str
    output: str | None
    report: Report | None = None
    data: bytes | None = None
    error: PipelineError | None = None

    @property
    def status(self) -> int:
        return EXIT_UNUSABLE if self.error is not None else exit_status(self.report.issues)

    def messages(self, quiet: bool = False) -> list[str]:
        """What `zhushu convert` says of this source: the refusal of an unusable one; else its
        errors, and unless `quiet` its warnings and, when its output was written, a summary."""
        if self.error is not None:
            return [str(self.error)]
        report = self.report
        lines = report.lines(("error",) if quiet else ("error", "warning"))
        if not quiet and self.output and not report.errors:
            s = report.stats
            lines.append(f"{self.source} → {self.output}: {report.layout}, {s['units']} units, "
                         f"{s['shu_anchored']}/{s['shu']} 疏 anchored, {len(report.warnings)} warnings")
        return lines


def convert_all(pairs: list[tuple[str, str | None]], fmt: str = "auto", work: str | None = None,
                encoding: str | None = None, jobs: int = 1, kanripo=None):
    """Outcome of each (source, output) pair, in input order (see convert_files)."""
    results = convert_files(pairs, fmt, work, encoding, jobs, kanripo)
    for (path, out), (_, data, report, error) in zip(pairs, results):
        yield Outcome(path, out, report, data, error)


def write_works(pairs: list[tuple[str, str | None]], outcomes: list[Outcome]) -> list[str]:
    """The work file of each repository directory among the sources (pipeline/works.py), its
    entries linked to the 卷 whose TEI was written. Returns the paths written."""
    import hashlib

    from pipeline import works
    from pipeline.tei import work_to_tei
    converted = {o.source for o in outcomes if o.report is not None and not o.report.errors}
    written = []
    for directory, target, members in works.plan(pairs):
        if not any(s in converted for s, _ in members):
            continue
        w = works.work(directory, target, members, converted)
        sha = hashlib.sha256(files.read_regular(os.path.join(directory, "Readme.org"))).hexdigest()
        files.write_atomic(target, work_to_tei(w, sha))
        written.append(target)
    return written


def write_shared(pairs: list[tuple[str, str | None]], outcomes: list[Outcome]) -> list[str]:
    """The corpus's shared files (persons.xml, categories.xml: tei/shared.py) in each directory
    a TEI was written to, where the documents' psn: and cat: pointers find them. The same bytes
    whatever was converted. Returns the paths written."""
    from pipeline.tei.shared import documents
    dirs = sorted({os.path.dirname(os.path.abspath(o.output)) for o in outcomes
                   if o.output and o.report is not None and not o.report.errors})
    if not dirs:
        return []
    shared, sources, written = documents(), [p for p, _ in pairs], []
    for d in dirs:
        for name, data in shared.items():
            target = os.path.join(d, name)
            files.refuse_overwriting_inputs(sources, target)
            files.write_atomic(target, data)
            written.append(target)
    return written


def run_report(outcome: Outcome) -> Report:
    """The source's entry in the --report of a run: its conversion report, or for a source that
    could not be used, its one fatal issue (so that every source of the run is listed)."""
    if outcome.error is None:
        return outcome.report
    e = outcome.error
    report = Report(outcome.source)
    report.fatal(e.rule, e.message, Pos(e.line, e.col or 1) if e.line else None)
    return report


def _convert_job(job: tuple) -> tuple[str | None, bytes | None, Report | None, PipelineError | None]:
    """One file of convert_files: what it returns instead of raising, so a pool can carry it."""
    path, out, fmt, work, encoding, keep, kanripo = job
    try:
        data, report = convert_file(path, out, fmt, work, encoding, kanripo)
    except PipelineError as e:
        return path, None, None, e
    return path, data if keep and not report.errors else None, report, None


def convert_files(jobs_in: list[tuple[str, str | None]], fmt: str = "auto", work: str | None = None,
                  encoding: str | None = None, jobs: int = 1, kanripo=None):
    """Convert (source, output) pairs, yielding (source, TEI bytes or None, report, error) in
    input order. With jobs > 1 files are converted in that many processes (the readers are pure
    Python: threads would share one core); the TEI bytes come back only for outputs that are not
    written to a file."""
    work_items = [(p, out, fmt, work, encoding, out is None, kanripo) for p, out in jobs_in]
    if jobs <= 1 or len(work_items) < 2:
        yield from map(_convert_job, work_items)
        return
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_convert_job, work_items, chunksize=1)
