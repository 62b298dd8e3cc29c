"""Files that are not what they seem: inputs that are not regular files, outputs onto the input,
outputs that cannot be written, writes that fail half-way, options that are not text, and the
limits every reader of XML shares (../shared/repro/README.md's bullets; issue 12).

Every refusal is one line, `FILE:LINE:COL: LEVEL: RULE-ID: text` (or `zhushu: error: RULE-ID:
text` for an option), exit 2, no traceback; an earlier good output survives byte for byte.
Commands that may hang or need an rlimit, a capability dropped or argv bytes run in a subprocess."""
import ctypes
import os
import resource
import shutil
import signal
import stat

import pytest

from conftest import ROOT
from fuzzing import hostile_xml as hx
from fuzzing.oracle import malformed_lines, match_problem, problem_lines, run_cli, run_subprocess
from fuzzing.worker import Worker

SOURCE = ROOT / "corpus" / "002_3cfb79cd5f7996b0.txt"
GOOD_TEI = ROOT / "tei" / "002_3cfb79cd5f7996b0.xml"


def one_line(run, levels=("fatal", "error")):
    """The run was refused (exit 2, no traceback) and said why in one well-formed line: its
    match. Other lines may be warnings and summaries of work that was done (a conversion whose
    report could not be written has converted)."""
    assert run.code == 2 and not run.traceback, run.describe()
    bad = malformed_lines(run.err)
    assert not bad, f"not a one-line problem: {bad[0]!r}"
    failed = {m.group(0) for m in problem_lines(run.err) if m["level"] in ("fatal", "error")}
    assert len(failed) == 1, f"expected one fatal line:\n{run.err}"
    m = match_problem(failed.pop())
    assert m["level"] in levels, m.group(0)
    return m


@pytest.fixture
def source(tmp_path):
    p = tmp_path / "s.txt"
    shutil.copyfile(SOURCE, p)
    return p


@pytest.fixture
def tei(tmp_path):
    p = tmp_path / "x.xml"
    shutil.copyfile(GOOD_TEI, p)
    return p


def alias(path, how, tmp_path):
    """The same file under another name: itself, a symbolic link or a hard link to it."""
    if how == "same":
        return path
    other = tmp_path / f"{how}{path.suffix}"
    (os.symlink if how == "symlink" else os.link)(path, other)
    return other


# -- an output onto the input --------------------------------------------------------------------
@pytest.mark.parametrize("how", ["same", "symlink", "hardlink"])
def test_convert_onto_its_own_source_is_refused(how, source, tmp_path):
    before = source.read_bytes()
    run = run_cli("convert", source, "-o", alias(source, how, tmp_path))
    one_line(run)
    assert source.read_bytes() == before


@pytest.mark.parametrize("how", ["same", "symlink", "hardlink"])
def test_validate_report_onto_its_own_input_is_refused(how, tei, tmp_path):
    before = tei.read_bytes()
    run = run_cli("validate", tei, "-o", alias(tei, how, tmp_path))
    one_line(run)
    assert tei.read_bytes() == before


# -- outputs that cannot be written ------------------------------------------------------------------
@pytest.fixture
def full(tmp_path):
    """A device that is always full: a private copy of /dev/full when we may make one (so that a
    writer that replaced the device by a file could only spoil our copy), else /dev/full."""
    p = tmp_path / "full"
    try:
        os.mknod(p, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    except (PermissionError, OSError):
        return "/dev/full"
    return str(p)


@pytest.mark.parametrize("args", [
    ("convert", SOURCE, "-o", "{full}"),
    ("convert", SOURCE, "-o", "{tmp}/out.xml", "--report", "{full}"),
    ("validate", GOOD_TEI, "-o", "{full}"),
], ids=["convert-o", "convert-report", "validate-o"])
def test_a_full_device_is_one_line(args, full, tmp_path):
    argv = [str(a).format(full=full, tmp=tmp_path) for a in args]
    one_line(run_cli(*argv))
    assert stat.S_ISCHR(os.stat(full).st_mode), f"{full} is no longer a device"


def test_a_report_into_a_missing_directory_is_one_line(tmp_path):
    one_line(run_cli("convert", SOURCE, "-o", tmp_path / "out.xml", "--report", tmp_path / "no" / "such" / "r.json"))


_libc = ctypes.CDLL(None, use_errno=True)


def _unprivileged():
    """In the child: give up root's power to write where the permissions say no (CAP_DAC_OVERRIDE,
    CAP_DAC_READ_SEARCH, CAP_FOWNER leave the bounding set, so exec drops them)."""
    if os.geteuid() == 0:
        for cap in (1, 2, 3):
            _libc.prctl(24, cap, 0, 0, 0)           # PR_CAPBSET_DROP


@pytest.mark.parametrize("args", [
    ("convert", SOURCE, "-o", "{ro}/out.xml"),
    ("convert", SOURCE, "-o", "{tmp}/out.xml", "--report", "{ro}/r.json"),
    ("convert", ROOT / "corpus", "-o", "{ro}/tei"),
    ("validate", GOOD_TEI, "-o", "{ro}/report.txt"),
    ("render", "html", GOOD_TEI, "-o", "{ro}"),
], ids=["convert-o", "convert-report", "convert-dir", "validate-o", "render-html"])
def test_a_read_only_output_directory_is_one_line(args, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        argv = [str(a).format(ro=ro, tmp=tmp_path) for a in args]
        run = run_subprocess(*argv, preexec_fn=_unprivileged, timeout=30)
        one_line(run)
        assert os.listdir(ro) == []
    finally:
        ro.chmod(0o755)


# -- a write that fails half-way ---------------------------------------------------------------------
def _file_size_limit(n):
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)       # write() fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (n, n))
    return limit


def _snapshot(d):
    return {p.relative_to(d): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("args", [
    ("convert", SOURCE, "-o", "{out}/s.xml"),
    ("convert", SOURCE, "--report", "{out}/r.json"),               # the TEI to stdout
    ("validate", GOOD_TEI, "-o", "{out}/report.txt"),
    ("render", "html", GOOD_TEI, "-o", "{out}"),
], ids=["convert-o", "convert-report", "validate-o", "render-html"])
def test_a_full_disk_leaves_the_earlier_output_as_it_was(args, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    argv = [str(a).format(out=out, tmp=tmp_path) for a in args]
    first = run_subprocess(*argv, timeout=60)
    assert first.code == 0, first.describe()
    if args[0] == "validate":                      # a longer report this time: an invalid file
        bad = tmp_path / "bad.xml"
        bad.write_text(GOOD_TEI.read_text(encoding="utf-8").replace('target="#u1.j1"', 'target="#nowhere"'),
                       encoding="utf-8")
        argv[1] = str(bad)
    before = _snapshot(out)
    limit = min(len(b) for b in before.values()) // 2
    run = run_subprocess(*argv, preexec_fn=_file_size_limit(limit), timeout=60)
    one_line(run)
    assert _snapshot(out) == before, "an earlier output was changed, or a partial file left"


# -- a conversion that fails writes nothing ----------------------------------------------------------
def test_a_failed_conversion_writes_no_output(monkeypatch, source, tmp_path):
    """A conversion whose lossless self-check fails (simulated: the check is given a source with
    one character more) exits 1, names ZS-CONV-LOSSLESS, and leaves no file, nor changes one."""
    import pipeline.convert
    real = pipeline.convert.lossless_form
    monkeypatch.setattr(pipeline.convert, "lossless_form", lambda s, *a: real(s, *a) + "丁")
    out = tmp_path / "out.xml"
    run = run_cli("convert", source, "-o", out)
    assert run.code == 1 and not run.traceback, run.describe()
    assert any(m["rule"] == "ZS-CONV-LOSSLESS" and m["level"] == "error" for m in problem_lines(run.err)), run.err
    assert not out.exists()
    out.write_bytes(b"an earlier output")
    run = run_cli("convert", source, "-o", out)
    assert run.code == 1 and out.read_bytes() == b"an earlier output"


# -- inputs that are not regular files ---------------------------------------------------------------
def _memory_limit():
    resource.setrlimit(resource.RLIMIT_DATA, (2 << 30, 2 << 30))   # /dev/zero read to the end: MemoryError


@pytest.fixture
def fifo(tmp_path):
    p = tmp_path / "pipe.xml"
    os.mkfifo(p)
    return p


@pytest.mark.parametrize("command", [("validate",), ("validate", "--max-size", "1"), ("text",),
                                     ("convert",), ("render", "html")])
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_fifo_or_a_device_is_refused_at_once(command, kind, fifo, tmp_path):
    path = str(fifo) if kind == "fifo" else "/dev/zero"
    tail = ("-o", str(tmp_path / "site")) if command == ("render", "html") else ()
    run = run_subprocess(*command, path, *tail, preexec_fn=_memory_limit, timeout=10)
    assert run.code is not None, f"zhushu {' '.join(command)} {path}: no answer after 10 s"
    assert run.seconds < 5, run.describe()
    if command[0] == "validate":
        assert run.code == 2 and not run.traceback, run.describe()
        assert [m["level"] for m in problem_lines(run.text) if m["file"] == path] == ["fatal"], run.text
    else:
        assert one_line(run, ("fatal",))["file"] == path


def test_a_fifo_listed_on_stdin_is_refused_at_once(fifo):
    run = run_subprocess("validate", "-", input=f"{fifo}\n".encode(), timeout=10)
    assert run.code == 2 and not run.traceback, run.describe()
    assert [m["level"] for m in problem_lines(run.text)] == ["fatal"], run.text


def test_max_size_is_checked_before_reading(tmp_path):
    big = tmp_path / "big.xml"
    with open(big, "wb") as f:                        # 4 GB, sparse: nothing to read but zeros
        f.truncate(4 << 30)
    run = run_subprocess("validate", "--max-size", "1", str(big), preexec_fn=_memory_limit, timeout=10)
    assert run.code == 2 and run.seconds < 3, run.describe()
    assert [m["level"] for m in problem_lines(run.text)] == ["fatal"], run.text


def test_max_size_refuses_a_valid_file_over_it(tmp_path):
    padded = tmp_path / "padded.xml"
    padded.write_text(GOOD_TEI.read_text(encoding="utf-8") + "<!--" + "x" * (3 << 19) + "-->\n", encoding="utf-8")
    assert run_cli("validate", padded).code == 0
    run = run_cli("validate", "--max-size", "1", padded)
    assert run.code == 2
    assert [m["level"] for m in problem_lines(run.text)] == ["fatal"], run.text


# -- options that are not text -----------------------------------------------------------------------
def test_work_with_a_control_character_is_one_line():
    one_line(run_cli("convert", SOURCE, "--work", "周禮\x01注疏"))


def test_work_that_is_not_utf8_is_one_line():
    run = run_subprocess(b"convert", os.fsencode(SOURCE), b"--work", b"\xff\xfe\xe5\x91", timeout=30)
    one_line(run)


# -- the limits every reader of XML shares -------------------------------------------------------------
@pytest.fixture(scope="module")
def worker():
    with Worker() as w:
        yield w


def _readers(path, out):
    return {"validate": ("validate", path), "text": ("text", path),
            "render html": ("render", "html", path, "-o", out)}


def test_the_nesting_limit_is_the_same_for_every_reader(worker, tmp_path):
    max_depth = hx.limit("MAX_DEPTH")
    base = hx.strip_declaration(GOOD_TEI.read_text(encoding="utf-8"))
    at = hx.body_depth(base)
    for depth, refused in ((max_depth, False), (max_depth + 1, True)):
        path = tmp_path / f"depth{depth}.xml"
        path.write_bytes(hx.encode(hx.in_body(base, hx.nested(depth - at)), "utf-8"))
        for name, args in _readers(str(path), str(tmp_path / f"site{depth}")).items():
            run = worker.run(*args, timeout=20)
            if refused:
                assert run.code == 2 and not run.traceback, f"{depth} deep: {run.describe()}"
                msgs = problem_lines(run.text + "\n" + run.err)
                assert [m["rule"][:7] for m in msgs if m["level"] == "fatal"] == ["ZS-XML-"], run.describe()
            else:
                # as deep as allowed: read (validate may find the unknown elements invalid)
                assert run.code in ((0, 1) if name == "validate" else (0,)), f"{depth} deep: {run.describe()}"


def test_the_size_limit_is_the_same_for_every_reader(worker, tmp_path):
    """A valid file padded with a comment to one byte over max_bytes is refused by
    each reader, quickly."""
    max_bytes = hx.limit("MAX_BYTES")
    doc = GOOD_TEI.read_bytes()
    path = tmp_path / "over.xml"
    path.write_bytes(doc + b"<!--" + b"x" * (max_bytes + 1 - len(doc) - 8) + b"-->\n")
    assert path.stat().st_size == max_bytes + 1
    for name, args in _readers(str(path), str(tmp_path / "site")).items():
        run = worker.run(*args, timeout=20)
        assert run.code == 2 and not run.traceback and run.seconds < 2, f"{name}: {run.describe()}"
    path.unlink()
