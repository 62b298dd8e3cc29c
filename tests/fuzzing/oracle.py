"""What every zhushu run must satisfy, and the ways the tests run the CLI.

The contract (issue 12):
- exit 0 success (warnings allowed), 1 invalid / conversion error, 2 unusable input or options or an
  output that cannot be written; any other code is a failure, and so is a traceback, always;
- every problem message is one line `FILE:LINE:COL: LEVEL: RULE-ID: text` (LEVEL fatal|error|warning),
  or `zhushu: error: RULE-ID: text` when no file is concerned; informational lines (summaries)
  never start with `FILE:LINE:COL`;
- after `convert` exits 0: the output is lossless (its text is the source less whitespace and the
  pure delimiters), deterministic (the same bytes from another process) and `validate` exits 0;
  a conversion that fails writes no output file.
"""
from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import traceback
import unicodedata
from dataclasses import dataclass, field

EXIT_CODES = {0, 1, 2}
# Issue 12 asks for `FILE:LINE:COL:` on every problem about a file (an empty source is
# `FILE:1:1: fatal: …`); pipeline/errors.py gives 1:1 to a problem of the whole file. Every
# check asks for the position (False would accept `FILE: fatal: …` too).
POSITION_REQUIRED = True
PROBLEM = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<level>fatal|error|warning): "
                     r"(?P<rule>ZS-[A-Z0-9]+(?:-[A-Z0-9]+)*): (?P<text>\S.*)$")
POSITIONLESS = re.compile(r"^(?P<file>.+?): (?P<level>fatal|error|warning): "
                          r"(?P<rule>ZS-[A-Z0-9]+(?:-[A-Z0-9]+)*): (?P<text>\S.*)$")
NOFILE = re.compile(r"^zhushu: (?P<level>fatal|error|warning): (?P<rule>ZS-[A-Z0-9]+(?:-[A-Z0-9]+)*): "
                    r"(?P<text>\S.*)$")
# What a malformed message looks like: a position prefix or our program name that the patterns
# above do not match, click's own multi-line usage errors, Python's warnings and tracebacks.
_LOOKS_LIKE_MESSAGE = re.compile(r"^(?:.+?:\d+(?::\d+)?: |.+?: (?:fatal|error|warning): |zhushu: |Error: |"
                                 r"Usage: |Try '|Aborted!|"
                                 r"\w+(?:Error|Exception|Warning): |Traceback )")
TRACEBACK = "Traceback (most recent call last)"


@dataclass
class Run:
    """One zhushu command: exit code (None: killed after the time limit), output, messages."""
    args: list
    code: int | None
    out: bytes = b""
    err: str = ""
    traceback: str | None = None
    seconds: float = 0.0

    @property
    def text(self) -> str:
        return self.out.decode("utf-8", "replace")

    def first_err(self) -> str:
        return next((l for l in self.err.splitlines() if l.strip()), "")

    def describe(self) -> str:
        if self.code is None:
            return f"zhushu {shown(self.args)}: no answer after {self.seconds:.1f} s"
        what = self.traceback.strip().splitlines()[-1] if self.traceback else self.first_err()
        return f"zhushu {shown(self.args)}: exit {self.code}: {what[:300]}"


def shown(args) -> str:
    return " ".join(os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args)


# -- running the CLI -----------------------------------------------------------------------------
class Hang(BaseException):
    """Raised in the main thread when an in-process command outlives its time limit."""


@contextlib.contextmanager
def time_limit(seconds: float | None):
    """Interrupt the main thread after `seconds` (pure-Python loops; a hang in C is caught only
    by the subprocess runners)."""
    if not seconds or os.name != "posix":
        yield
        return

    def _alarm(signum, frame):
        raise Hang(f"no answer after {seconds} s")
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_cli(*args, input=None, timeout: float | None = None) -> Run:
    """zhushu ARGS in this process (click's CliRunner): fast, and a raised exception is caught
    and kept as the traceback it would have printed."""
    from click.testing import CliRunner

    from pipeline.cli import main
    argv = [os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args]
    start = time.perf_counter()
    try:
        with time_limit(timeout):
            r = CliRunner().invoke(main, argv, input=input, catch_exceptions=True)
    except Hang:
        return Run(argv, None, seconds=time.perf_counter() - start)
    seconds = time.perf_counter() - start
    tb = None
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        if isinstance(r.exception, Hang):
            return Run(argv, None, seconds=seconds)
        tb = "".join(traceback.format_exception(*r.exc_info))
    err = r.stderr
    if tb is None and TRACEBACK in err:
        tb = err
    return Run(argv, r.exit_code, r.stdout_bytes, err, tb, seconds)


ZHUSHU = [sys.executable, "-c", "import sys; from pipeline.cli import main; main(prog_name='zhushu')"]


def run_subprocess(*args, input: bytes | None = None, timeout: float = 10.0, cwd=None,
                   preexec_fn=None, env=None) -> Run:
    """zhushu ARGS in a new process: for argv bytes, rlimits, FIFOs and anything that may hang.
    `args` may be bytes (passed to the kernel as they are)."""
    argv = ZHUSHU + list(args)
    start = time.perf_counter()
    try:
        p = subprocess.run(argv, input=input if input is not None else b"", capture_output=True,
                           timeout=timeout, cwd=cwd, preexec_fn=preexec_fn, env=env)
    except subprocess.TimeoutExpired:
        return Run(list(args), None, seconds=time.perf_counter() - start)
    err = p.stderr.decode("utf-8", "replace")
    code = p.returncode if p.returncode >= 0 else 128 - p.returncode     # killed by a signal
    return Run(list(args), code, p.stdout, err, err if TRACEBACK in err else None,
               time.perf_counter() - start)


# -- judging a run -------------------------------------------------------------------------------
def match_problem(line: str) -> re.Match | None:
    """A problem line's parts (file, line, col, level, rule, text), or None."""
    m = PROBLEM.match(line) or NOFILE.match(line)
    if m is None and not POSITION_REQUIRED and not line.startswith("zhushu: "):
        m = POSITIONLESS.match(line)
    return m


def problem_lines(text: str) -> list[re.Match]:
    return [m for m in map(match_problem, text.splitlines()) if m]


def malformed_lines(text: str) -> list[str]:
    """Lines that are messages but not in the one-line form (or a traceback's)."""
    return [l for l in text.splitlines()
            if l.strip() and not match_problem(l) and _LOOKS_LIKE_MESSAGE.match(l)]


@dataclass
class Failure:
    kind: str          # traceback | exit | hang | message | invalid | lossless | nondeterministic | output | …
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def check_run(run: Run, report_on_stdout: bool = False) -> list[Failure]:
    """What any run must satisfy: it ends, no traceback, an exit code of the contract, messages
    in the one-line form, and an exit code its messages explain (validate's report, with
    `report_on_stdout`, is on stdout)."""
    if run.code is None:
        return [Failure("hang", run.describe())]
    out: list[Failure] = []
    if run.traceback:
        out.append(Failure("traceback", run.describe()))
    if run.code not in EXIT_CODES:
        out.append(Failure("exit", run.describe()))
    messages = run.err + ("\n" + run.text if report_on_stdout else "")
    bad = malformed_lines(run.err)
    if bad and not run.traceback:
        why = "no LINE:COL" if POSITIONLESS.match(bad[0]) else "not a one-line message"
        out.append(Failure("message", f"zhushu {shown(run.args)}: {why}: {bad[0][:300]!r}"))
    levels = {m["level"] for m in problem_lines(messages)}
    if run.code == 2 and not levels & {"fatal", "error"} and not run.traceback and not bad:
        out.append(Failure("message", f"zhushu {shown(run.args)}: exit 2 with no fatal or error line: "
                                      f"{run.first_err()[:300]!r}"))
    if run.code == 1 and "error" not in levels and not run.traceback and not bad:
        out.append(Failure("message", f"zhushu {shown(run.args)}: exit 1 with no error line"))
    if run.code == 0 and levels & {"fatal"}:
        out.append(Failure("message", f"zhushu {shown(run.args)}: exit 0 with a fatal line"))
    return out


# -- the convert oracle ----------------------------------------------------------------------------
@dataclass
class Verdict:
    failures: list[Failure] = field(default_factory=list)
    code: int | None = None            # convert's exit code
    first_error: str = ""              # convert's first fatal or error line

    @property
    def ok(self) -> bool:
        return not self.failures


def expected_text(data: bytes, intended: str | None) -> list[tuple[str, str]]:
    """The texts a lossless output must equal: the source as the pipeline decodes it, and (when
    the encoding leaves no doubt) the text the input was made from; each less whitespace and
    delimiters, as docs/design.md defines lossless."""
    from pipeline.chars import lossless_form
    from pipeline.errors import PipelineError
    from pipeline.sources.decoding import source_from_bytes
    wants = []
    try:
        wants.append(("the decoded source", lossless_form(source_from_bytes(data, "in.txt").text)))
    except PipelineError:
        pass                        # convert said 0 where the decoder refuses: the comparison below tells
    if intended is not None:
        from pipeline.chars import normalize, stand_in
        from pipeline.sources.decoding import _CONTROL
        text = intended.replace("\r\n", "\n").replace("\r", "\n")
        text = _CONTROL.sub(lambda m: stand_in(m.group()), text)    # kept as stand-ins
        # NFC, a compatibility ideograph kept as its variation sequence (docs/rules.md ZS-CONV-COMPAT)
        wants.append(("the text the input encodes", lossless_form(normalize(text))))
    return wants


def check_convert(data: bytes, workdir: str, run=run_cli, run_again=None, intended: str | None = None,
                  options: tuple = (), timeout: float = 10.0) -> Verdict:
    """Convert `data` (written to workdir/in.txt) and check the contract. `run` runs a command
    (run_cli, or a worker's); `run_again` the second conversion for determinism (best another
    process: a set iterated in hash order differs only between processes)."""
    src = os.path.join(workdir, "in.txt")
    out1, out2 = os.path.join(workdir, "out.xml"), os.path.join(workdir, "again.xml")
    for p in (out1, out2):
        with contextlib.suppress(FileNotFoundError):
            os.remove(p)
    with open(src, "wb") as f:
        f.write(data)
    r = run("convert", src, "-o", out1, *options, timeout=timeout)
    v = Verdict(check_run(r), r.code, next((m.group(0) for m in problem_lines(r.err)
                                            if m["level"] != "warning"), ""))
    if r.code != 0:
        if r.code is not None and os.path.exists(out1):
            v.failures.append(Failure("output", f"{r.describe()}, yet {out1} was written"))
        return v
    if not os.path.exists(out1):
        v.failures.append(Failure("output", f"zhushu {shown(r.args)}: exit 0 and no output file"))
        return v
    with open(out1, "rb") as f:
        tei = f.read()
    again = (run_again or run)("convert", src, "-o", out2, *options, timeout=timeout)
    if again.code != 0:
        v.failures.append(Failure("nondeterministic", f"the same conversion again: {again.describe()}"))
    else:
        with open(out2, "rb") as f:
            other = f.read()
        if other != tei:
            at = next(i for i, (a, b) in enumerate(zip(tei + b"\0", other + b"\1")) if a != b)
            v.failures.append(Failure("nondeterministic", f"two conversions differ at byte {at}: "
                                      f"{tei[at:at + 40]!r} / {other[at:at + 40]!r}"))
    val = run("validate", out1, timeout=timeout)
    v.failures += check_run(val, report_on_stdout=True)
    if val.code != 0:
        first = next((m.group(0) for m in problem_lines(val.text) if m["level"] != "warning"), val.first_err())
        v.failures.append(Failure("invalid", f"convert exited 0, validate {val.code}: {first[:300]}"))
    txt = run("text", out1, timeout=timeout)
    v.failures += check_run(txt)
    if txt.code == 0:
        # lossless up to canonical equivalence: the TEI is NFC, and leaving whitespace out of
        # an NFC source can leave combining marks to reorder (tei.build puts them back in NFC)
        got = unicodedata.normalize("NFC", "".join(txt.text.split("\n")))
        for what, want in expected_text(data, intended):
            want = unicodedata.normalize("NFC", want)
            if got != want:
                i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
                v.failures.append(Failure("lossless", f"the TEI's text differs from {what} at character {i}: "
                                          f"TEI {got[i:i + 12]!r}, source {want[i:i + 12]!r}"))
                break
    elif txt.code is not None:
        v.failures.append(Failure("invalid", f"convert exited 0, {txt.describe()}"))
    return v
