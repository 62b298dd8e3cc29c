"""A worker process running zhushu commands in-process, killed and replaced when one hangs.

In-process runs (click's CliRunner) cost milliseconds where a new interpreter costs a tenth of a
second, but a command stuck in C (libxml2, Saxon, a FIFO, a socket) cannot be interrupted from
inside. A Worker gets the speed of the first and the safety of the second: commands run in a
process of its own (a session of its own too, so Chromium and Playwright's driver die with it),
and one that outlives its time limit is killed with its whole process group.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import time

from .oracle import Run, run_cli


def _serve(conn) -> None:
    os.setsid()
    while True:
        try:
            job = conn.recv()
        except (EOFError, KeyboardInterrupt):
            return
        if job is None:
            return
        args, input_ = job
        try:
            result = run_cli(*args, input=input_)
        except BaseException as e:  # noqa: BLE001 - reported, never raised here
            result = Run(list(args), 70, traceback=f"{type(e).__name__}: {e}")
        conn.send(result)


class Worker:
    """worker.run(*args, timeout=10) → oracle.Run; code None when the command was killed."""

    def __init__(self):
        self._ctx = multiprocessing.get_context("spawn")     # a fresh interpreter: its own hash seed
        self.proc = None
        self.restarts = 0
        self._start()

    def _start(self) -> None:
        self.conn, child = self._ctx.Pipe()
        self.proc = self._ctx.Process(target=_serve, args=(child,), daemon=True)
        self.proc.start()
        child.close()

    def _kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()

    def run(self, *args, input=None, timeout: float = 10.0) -> Run:
        argv = [os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args]
        start = time.perf_counter()
        try:
            self.conn.send((argv, input))
            if self.conn.poll(timeout):
                return self.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            self.proc.join(1)
            code = self.proc.exitcode
            self._kill()
            self.restarts += 1
            self._start()
            return Run(argv, 70, traceback=f"the worker running the command died (exit {code})",
                       seconds=time.perf_counter() - start)
        self._kill()
        self.restarts += 1
        self._start()
        return Run(argv, None, seconds=time.perf_counter() - start)

    def close(self) -> None:
        try:
            self.conn.send(None)
            self.proc.join(5)
        except (OSError, BrokenPipeError):
            pass
        if self.proc.is_alive():
            self._kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
