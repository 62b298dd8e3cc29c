"""Reading inputs and writing outputs so that nothing hangs, nothing is read without bound and
nothing good is ever destroyed.

- Inputs are regular files only: a FIFO would block forever, /dev/zero never ends. The size
  is checked on the open file before reading, and the read is bounded anyway (a file may grow).
- Outputs are written to a temporary file in the target's directory and renamed into place,
  so a full disk, a crash or an interrupt leaves the earlier file as it was; an output that
  is one of the inputs (the same file, through a symlink or a hard link) is refused.
"""
from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from typing import Iterator

from pipeline.errors import PipelineError
from pipeline.limits import MAX_BYTES

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def read_regular(path: str, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most `max_bytes`, or PipelineError (ZS-IO-001)."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise PipelineError(f"cannot read: {_reason(e)}", path) from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
            raise PipelineError(f"not a regular file ({kind}): only files are read", path)
        if st.st_size > max_bytes:
            raise PipelineError(f"file is {st.st_size} bytes, over the limit of {max_bytes}", path,
                                rule="ZS-IO-001")
        try:
            data = f.read(max_bytes + 1)
        except OSError as e:
            raise PipelineError(f"cannot read: {_reason(e)}", path) from None
    if len(data) > max_bytes:
        raise PipelineError(f"file grew past the limit of {max_bytes} bytes while read", path)
    return data


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def same_file(a: str, b: str) -> bool:
    """Are `a` and `b` the same file (symlinks followed, hard links seen)? False when either
    does not exist."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def refuse_overwriting_inputs(inputs: list[str], output: str) -> None:
    """ZS-IO-003 when `output` is one of `inputs`."""
    for p in inputs:
        if same_file(p, output):
            raise PipelineError(f"the output {output!r} is the input {p!r}: refused, nothing is "
                                "overwritten", output, rule="ZS-IO-003")


@contextlib.contextmanager
def atomic_path(target: str) -> Iterator[str]:
    """A temporary path beside `target` for a writer that wants a file name (Saxon, Chromium);
    renamed onto `target` when the block ends without error, removed otherwise. The file gets
    the permissions a new file would (or the existing target's). A symlink is written through
    (its target replaced, not the link); a target that exists and is not a regular file (a
    device such as /dev/null or /dev/full, a FIFO) is written to directly: it must never be
    replaced by a file."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise PipelineError(f"cannot write: {_reason(e)}", target, rule="ZS-IO-002") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise PipelineError("cannot write: the output is a directory", target, rule="ZS-IO-002")
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISFIFO(st.st_mode):
            _has_reader(target)
        try:
            yield target
        except OSError as e:
            raise PipelineError(f"cannot write: {_reason(e)}", target, rule="ZS-IO-002") from None
        return
    final = os.path.realpath(target) if os.path.islink(target) else target
    directory = os.path.dirname(os.path.abspath(final)) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix=".zhushu-", suffix=".tmp", dir=directory)
    except OSError as e:
        raise PipelineError(f"cannot write: {_reason(e)}", target, rule="ZS-IO-002") from None
    os.close(fd)
    try:
        yield tmp
        _set_mode(tmp, final)
        os.replace(tmp, final)
    except OSError as e:
        _unlink(tmp)
        raise PipelineError(f"cannot write: {_reason(e)}", target, rule="ZS-IO-002") from None
    except BaseException:
        _unlink(tmp)
        raise


def _has_reader(fifo: str) -> None:
    """Opening a FIFO to write waits for a reader: with none, refuse instead of hanging."""
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.ENXIO:
            raise PipelineError("cannot write: a FIFO with no reader", fifo, rule="ZS-IO-002") from None
        raise PipelineError(f"cannot write: {_reason(e)}", fifo, rule="ZS-IO-002") from None
    os.close(fd)


def write_atomic(target: str, data: bytes | str) -> None:
    """Write `data` (str: as UTF-8) to `target` all at once, or leave `target` as it was."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    with atomic_path(target) as tmp:
        with open(tmp, "wb") as f:
            f.write(data)


def write_stdout(data: bytes) -> None:
    """TEI to standard output; a closed or full stdout is a write error, not a traceback."""
    import sys
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        # the reader went away (`| head`): what was asked for was written; be quiet about it
        _silence_stdout()
    except OSError as e:
        _silence_stdout()
        raise PipelineError(f"cannot write: {_reason(e)}", "<stdout>", rule="ZS-IO-002") from None


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's own flush at exit does not fail a
    second time on the same descriptor."""
    import sys
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except OSError:
        pass


def writable_dir(path: str) -> None:
    """Make the directory if need be and check that a file can be made in it: a read-only
    output directory is then one problem, found before any conversion."""
    make_dirs(path)
    try:
        fd, probe = tempfile.mkstemp(prefix=".zhushu-", suffix=".tmp", dir=path)
    except OSError as e:
        raise PipelineError(f"cannot write in the output directory: {_reason(e)}", path,
                            rule="ZS-IO-002") from None
    os.close(fd)
    _unlink(probe)


def make_dirs(path: str) -> None:
    """mkdir -p, or one line saying why not (ZS-IO-002)."""
    try:
        os.makedirs(path, exist_ok=True)
    except FileExistsError:
        raise PipelineError("cannot create the output directory: a file is in the way", path,
                            rule="ZS-IO-002") from None
    except OSError as e:
        raise PipelineError(f"cannot create the output directory: {_reason(e)}", path,
                            rule="ZS-IO-002") from None


def _set_mode(tmp: str, target: str) -> None:
    """The mode the file would have had: the target's, or the default for a new file."""
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(tmp, mode)


def _unlink(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def sources_in(paths: list[str], pattern_ext: str = ".txt") -> list[str]:
    """Files named on the command line, directories expanded (recursively, sorted)."""
    return [p for p, _ in listed(paths, pattern_ext)]


def listed(paths: list[str], pattern_ext: str) -> list[tuple[str, str]]:
    """(file, its path relative to the directory named, or its base name) for each file."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            found = sorted(os.path.join(d, f) for d, _, fs in os.walk(p) for f in fs
                           if f.endswith(pattern_ext))
            if not found:
                raise PipelineError(f"no {pattern_ext} files in directory", p)
            out.extend((f, os.path.relpath(f, p)) for f in found)
        else:
            out.append((p, os.path.basename(p)))
    return out
