"""The fuzz campaign behind `make fuzz N=…`: N damaged corpus texts through `zhushu convert`, then
(unless --no-xml) the whole hostile-XML matrix through validate, text and render html/pdf.

Each input is made by tests/fuzzing/mutations.py from a seeded random.Random (input k of seed S is
the same on every machine) and judged by tests/fuzzing/oracle.py: no traceback, exit code in
{0, 1, 2}, one-line messages, no output when the conversion fails, and after exit 0 lossless,
deterministic (a second conversion in another process, with another hash seed) and valid. Commands
run in worker processes (tests/fuzzing/worker.py) killed after --timeout seconds: a hang is a
failure. Each failing input is shrunk (lines, then characters, for a bounded time) and saved under
tests/fuzz-found/ as NAME.bin with a NAME.json sidecar (the command, what failed, how the input was
made); tests/test_fuzz_found.py replays them all. The figures are printed at the end; the exit
status is 1 when anything failed.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fuzzing import mutations  # noqa: E402
from fuzzing.oracle import check_convert  # noqa: E402
from fuzzing.worker import Worker  # noqa: E402

FOUND = ROOT / "tests" / "fuzz-found"
KINDS = ("traceback", "exit", "hang", "invalid", "lossless", "nondeterministic", "message", "output")
LABELS = {"traceback": "tracebacks", "exit": "exit codes outside {0, 1, 2}", "hang": "hangs",
          "invalid": "invalid outputs after exit 0", "lossless": "lossless violations after exit 0",
          "nondeterministic": "nondeterministic outputs after exit 0",
          "message": "messages not in the one-line form", "output": "outputs written by a failed conversion"}


class Lane:
    """One thread's pair of workers: A converts, validates and reads the text back; B converts a
    second time (another process, so another hash seed) for the determinism check."""

    def __init__(self, timeout: float):
        self.a, self.b, self.timeout = Worker(), Worker(), timeout
        self.dir = tempfile.mkdtemp(prefix="zhushu-fuzz-")

    def check(self, data: bytes, intended: str | None, options: tuple = ()):
        return check_convert(data, self.dir, run=self.a.run, run_again=self.b.run, intended=intended,
                             options=options, timeout=self.timeout)

    def close(self):
        self.a.close()
        self.b.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def still_fails(v, kinds: set[str]) -> bool:
    """Whether a verdict shows one of `kinds` ("conversion-error": convert's exit 1)."""
    return any(f.kind in kinds for f in v.failures) or ("conversion-error" in kinds and v.code == 1)


def shrink(lane: Lane, inp: mutations.Input, kinds: set[str], budget: float) -> mutations.Input:
    """A smaller input that still fails in one of `kinds`: whole lines dropped (halves, quarters,
    …), then single characters, while `budget` seconds last. Only for inputs whose text is known
    (the bytes are re-encoded as they were)."""
    if inp.intended is None:
        return inp
    enc = inp.steps[-1]
    if enc not in mutations.ENCODINGS:
        return inp
    deadline = time.monotonic() + budget

    def fails(text: str) -> bool:
        data, intended = mutations.encode(random.Random(0), text, enc)
        return still_fails(lane.check(data, intended, inp.options), kinds)

    def reduce(items: list[str], joiner: str) -> list[str]:
        n = 2
        while len(items) >= 2 and time.monotonic() < deadline:
            chunk = max(1, len(items) // n)
            for i in range(0, len(items), chunk):
                trial = items[:i] + items[i + chunk:]
                if trial and fails(joiner.join(trial)):
                    items, n = trial, max(n - 1, 2)
                    break
                if time.monotonic() > deadline:
                    return items
            else:
                if chunk == 1:
                    break
                n = min(len(items), n * 2)
        return items

    text = inp.intended
    lines = reduce(text.split("\n"), "\n")
    text = "\n".join(lines)
    text = "".join(reduce(list(text), ""))
    data, intended = mutations.encode(random.Random(0), text, enc)
    return mutations.Input(data, intended, inp.steps + ["shrunk"], inp.options)


def save(inp: mutations.Input, failures, seed: int, index: int, kind: str) -> str:
    FOUND.mkdir(parents=True, exist_ok=True)
    name = f"{kind}-{hashlib.sha256(inp.data).hexdigest()[:12]}"
    (FOUND / f"{name}.bin").write_bytes(inp.data)
    opts = "".join(f" {o}" for o in inp.options)
    meta = {"input": f"{name}.bin", "command": f"zhushu convert {name}.bin -o out.xml{opts}; then "
                                               "zhushu validate out.xml; zhushu text out.xml",
            "options": list(inp.options), "failures": [str(f) for f in failures], "steps": inp.label,
            "made_by": f"scripts/fuzz.py --seed {seed}, input {index}", "intended": inp.intended,
            # a conversion error (exit 1) keeps the contract, but is a bug the self-check caught:
            # its replay asks for a conversion without one
            "expect_no_conversion_error": kind == "conversion-error"}
    (FOUND / f"{name}.json").write_text(json.dumps(meta, ensure_ascii=True, indent=1) + "\n", encoding="utf-8")
    return name


def campaign(n: int, seed: int, jobs: int, timeout: float, shrink_budget: float, keep: bool) -> collections.Counter:
    corpus = mutations.load_corpus()
    counts: collections.Counter = collections.Counter()
    exits: collections.Counter = collections.Counter()
    seen_kinds: collections.Counter = collections.Counter()
    lock = threading.Lock()
    next_index = iter(range(n))
    started = time.monotonic()
    done = [0]
    notes: list[str] = []

    def lane_loop():
        lane = Lane(timeout)
        try:
            while True:
                with lock:
                    k = next(next_index, None)
                if k is None:
                    return
                inp = mutations.make_input(random.Random(f"{seed}:{k}"), corpus)
                v = lane.check(inp.data, inp.intended, inp.options)
                kinds = {f.kind for f in v.failures} or ({"conversion-error"} if v.code == 1 else set())
                name = None
                # a kind already saved five times is counted, not saved again
                if kinds and keep and any(seen_kinds[x] < 5 for x in kinds):
                    small = shrink(lane, inp, kinds, shrink_budget)
                    again = lane.check(small.data, small.intended, small.options)
                    if still_fails(again, kinds):
                        inp, v = small, again
                    what = v.failures or [f"conversion error (exit 1): {v.first_error}"]
                    name = save(inp, what, seed, k, sorted(kinds)[0])
                with lock:
                    exits[v.code] += 1
                    for x in kinds:
                        counts[x] += x != "conversion-error"
                        seen_kinds[x] += 1
                    done[0] += 1
                    if v.code == 1 and not v.failures:
                        notes.append(f"[{k}] {inp.label}: {v.first_error}"
                                     + (f" → tests/fuzz-found/{name}.bin" if name else ""))
                    if v.failures:
                        print(f"[{k}] {inp.label}: " + "; ".join(str(f)[:200] for f in v.failures[:3])
                              + (f" → tests/fuzz-found/{name}.bin" if name else ""), flush=True)
                    elif done[0] % 100 == 0:
                        rate = done[0] / (time.monotonic() - started)
                        print(f"… {done[0]}/{n} inputs, {rate:.1f}/s", flush=True)
        finally:
            lane.close()

    threads = [threading.Thread(target=lane_loop) for _ in range(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - started
    print(f"\nconvert: {n} inputs (seed {seed}) in {took:.0f} s; exit codes: "
          + ", ".join(f"{c if c is not None else 'killed'}: {k}" for c, k in sorted(exits.items(), key=str)))
    for kind in KINDS:
        print(f"  {counts[kind]:6d} {LABELS[kind]}" + (f" ({timeout:g} s per command)" if kind == "hang" else ""))
    if notes:
        print(f"  ({len(notes)} conversion errors, exit 1: allowed by the contract, but each is a reader "
              "or writer bug the self-check caught)")
        for n in notes[:20]:
            print("    " + n[:300])
    return counts


def hostile_matrix() -> int:
    """The whole attack × encoding × command matrix, as tests/test_hostile_xml.py judges it."""
    env = dict(os.environ, ZHUSHU_FUZZ_FULL="1")
    cmd = [sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider", "-rN",
           "tests/test_hostile_xml.py", "tests/test_xxe.py"]
    print("\nhostile XML: " + " ".join(cmd[2:]) + " (ZHUSHU_FUZZ_FULL=1)", flush=True)
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    failed = [l for l in p.stdout.splitlines() if l.startswith("FAILED")]
    tail = [l for l in p.stdout.splitlines() if " passed" in l or " failed" in l]
    print("  " + (tail[-1] if tail else p.stdout[-500:]))
    for l in failed[:40]:
        print("  " + l[:200])
    return p.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=1000, help="inputs to convert (default 1000)")
    ap.add_argument("--seed", type=int, default=12, help="campaign seed (default 12)")
    ap.add_argument("-j", "--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)),
                    help="parallel lanes (two worker processes each)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per command before it counts as a hang")
    ap.add_argument("--shrink", type=float, default=120.0, help="seconds to spend shrinking each saved failure")
    ap.add_argument("--no-save", action="store_true", help="count failures without saving reproducers")
    ap.add_argument("--no-xml", action="store_true", help="skip the hostile-XML matrix")
    args = ap.parse_args()
    counts = campaign(args.n, args.seed, args.jobs, args.timeout, args.shrink, not args.no_save)
    status = 1 if sum(counts[k] for k in KINDS) else 0
    if not args.no_xml and hostile_matrix() != 0:
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
