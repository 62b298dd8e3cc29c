"""Throughput of each stage, on one core, on a corpus of >= 20 MB built by repeating the seeds.

    python bench/run.py [--mb 20] [--out bench/out]

Prints MB/s per stage (convert: MB of source text; validate and html: MB of TEI), the best of
three runs each, pages/s for printing a 100-page 卷 to PDF, the search index's cost (render with
and without it) and query times in Chromium (bench/search.py), and writes bench/out/results.json.
Each stage is also given as a ratio to lxml parsing the same bytes in the same run: the stage's
best time over lxml's best time to parse the TEI it reads (convert: the TEI it wrote), the two
timed in turn, so that a regression shows whatever the machine's speed that day. Record the
figures in docs/performance.md.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import platform
import shutil
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def build_corpus(out: str, mb: float) -> list[str]:
    """Files of about 1 MB, each a seed repeated; together at least `mb` MB."""
    seeds = sorted(glob.glob(os.path.join(ROOT, "corpus", "*.txt")))
    shutil.rmtree(out, ignore_errors=True)          # no files left over from another run
    os.makedirs(out, exist_ok=True)
    paths, total, i = [], 0, 0
    while total < mb * 1e6:
        seed = seeds[i % len(seeds)]
        with open(seed, encoding="utf-8") as f:
            text = f.read().rstrip("\n") + "\n\n"
        reps = max(1, int(1e6 // len(text.encode())))
        path = os.path.join(out, f"bench{i:03d}_{os.path.basename(seed)}")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text * reps)
        meta = os.path.splitext(seed)[0] + ".meta.json"
        if os.path.exists(meta):
            with open(meta, encoding="utf-8") as f, \
                    open(os.path.splitext(path)[0] + ".meta.json", "w", encoding="utf-8") as g:
                g.write(f.read())
        paths.append(path)
        total += os.path.getsize(path)
        i += 1
    return paths


REPEAT = 3                                      # runs per stage; the best is reported
# lxml parses of the yardstick after each run of a stage: a parse is short (a tenth of most
# stages), so one burst of a neighbour's work would skew its best time more than the stage's
YARDSTICK_PARSES = 3


def lxml_parse(xml: list) -> None:
    """The yardstick: lxml parsing XML documents (paths, or the bytes of a document)."""
    from lxml import etree
    for x in xml:
        if isinstance(x, bytes):
            etree.fromstring(x)
        else:
            etree.parse(x)


def _seconds(fn) -> tuple[float, float]:
    """(wall-clock, CPU) seconds of fn(): the CPU time of this process, its threads included
    (Saxon's), not the time it waited for a core the neighbours held."""
    t0, c0 = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - t0, time.process_time() - c0


def timed(label: str, nbytes: int, fn, yardstick=None, in_process: bool = True) -> dict:
    """Run fn REPEAT times and report the fastest run (as timeit does: on a shared machine the
    slower runs measure the neighbours), with the slowest for the spread. `yardstick`: a
    function giving the XML the stage reads or wrote (asked after each run, so a stage's own
    output can be it); lxml parses it after each run of the stage, and the stage's best time
    over lxml's is its ratio (`x_lxml`), from CPU times for a stage run in this process (the
    waits for a busy core cancel out of neither clock's MB/s, but out of the ratio), from
    wall-clock times for one run by other processes (`in_process` False)."""
    times, parses = [], []
    for _ in range(REPEAT):
        times.append(_seconds(fn))
        if yardstick is not None:
            xml = yardstick()
            parses += [_seconds(lambda: lxml_parse(xml)) for _ in range(YARDSTICK_PARSES)]
    dt = min(wall for wall, _ in times)
    r = {"stage": label, "mb": round(nbytes / 1e6, 2), "seconds": round(dt, 3),
         "mb_per_s": round(nbytes / 1e6 / dt, 2), "runs": [round(t, 3) for t, _ in times]}
    ratio = ""
    if parses:
        clock = 1 if in_process else 0
        parse = min(p[clock] for p in parses)
        r["lxml_seconds"] = round(parse, 4)
        r["x_lxml"] = round(min(t[clock] for t in times) / parse, 2)
        ratio = f"  {r['x_lxml']:6.2f}× lxml"
    slowest = max(wall for wall, _ in times)
    print(f"{label:10s} {r['mb']:8.2f} MB  {r['seconds']:8.3f} s  {r['mb_per_s']:7.2f} MB/s{ratio}"
          f"  (best of {REPEAT}; slowest {nbytes / 1e6 / slowest:.2f} MB/s)", flush=True)
    return r


def zhushu_command() -> list[str]:
    """`zhushu` run by this Python (what the installed script does), so that a run with
    PYTHONPATH measures the code it names."""
    return [sys.executable, "-c", "from pipeline.cli import main; main()"]


def validate_large(teis: list[str], out: str, mb: float) -> list[dict]:
    """Validation of a large corpus: zhushu in one process, then jing (tei_all) if present."""
    import subprocess
    from pipeline.validate import iter_issues, schema
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    paths, total, i = [], 0, 0
    while total < mb * 1e6:
        src = teis[i % len(teis)]
        dst = os.path.join(out, f"big{i:04d}.xml")
        shutil.copyfile(src, dst)
        paths.append(dst)
        total += os.path.getsize(dst)
        i += 1
    schema()
    results = [timed("validate-big", total, lambda: [list(iter_issues(p)) for p in paths],
                     lambda: paths)]
    # a whole `zhushu validate -j 2` run, start-up included, as jing's below
    results.append(timed("validate-j2", total, lambda: subprocess.run(
        [*zhushu_command(), "validate", "--jobs", "2", out], capture_output=True), lambda: paths,
        in_process=False))
    jing = shutil.which("jing")
    rng = os.path.join(os.path.dirname(ROOT), "shared", "tei-p5", "tei_all.rng")
    if jing and os.path.exists(rng):
        # jing checks the same files against tei_all (structure only: no rules)
        results.append(timed("jing", total, lambda: subprocess.run(
            [jing, rng, *paths], capture_output=True), lambda: paths, in_process=False))
    return results


def juan100(out: str) -> str:
    """A 卷 of about 100 pages in the default style: seed 004 (周禮注疏 卷三十八) four times over,
    converted into `out`."""
    from pipeline.convert import convert_file
    seed = os.path.join(ROOT, "corpus", "004_788d901eea474415.txt")
    src = os.path.join(out, "juan100.txt")
    with open(seed, encoding="utf-8") as f, open(src, "w", encoding="utf-8") as g:
        g.write((f.read().rstrip("\n") + "\n\n") * 4)
    tei = os.path.join(out, "juan100.xml")
    convert_file(src, tei)
    return tei


def siku_stage(out: str) -> list[dict]:
    """The 四庫 leaf against the default style: the same 卷 of about 100 pages printed by whole
    `zhushu render pdf` runs, the two styles alternated REPEAT times (so both meet the same
    neighbours), the best run of each; the ratio must stay within 1.5."""
    import subprocess
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    tei = juan100(out)
    best: dict[str, tuple[float, int]] = {}
    for _ in range(REPEAT):
        for style in ("modern", "siku"):
            t0 = time.perf_counter()
            run = subprocess.run([*zhushu_command(), "render", "pdf", tei, "-o", os.path.join(out, style),
                                  "--style", style], capture_output=True, text=True)
            dt = time.perf_counter() - t0
            if run.returncode:
                print(f"pdf ({style}) failed: {run.stderr.strip()}", file=sys.stderr)
                return []
            pages = int(run.stderr.split("(")[1].split()[0])
            if style not in best or dt < best[style][0]:
                best[style] = (dt, pages)
    ratio = best["siku"][0] / best["modern"][0]
    r = {"stage": "pdf-siku", "pages": best["siku"][1], "seconds": round(best["siku"][0], 3),
         "modern_pages": best["modern"][1], "modern_seconds": round(best["modern"][0], 3),
         "x_modern": round(ratio, 2)}
    print(f"{'pdf-siku':14s} {r['pages']:5d} leaves {r['seconds']:8.3f} s against {r['modern_pages']} pages "
          f"{r['modern_seconds']:.3f} s modern: {ratio:.2f}× (best of {REPEAT}, alternated)", flush=True)
    return [r]


def pdf_stage(out: str) -> list[dict]:
    """The print edition: a 卷 of about 100 pages (seed 004 four times over) printed by a whole
    `zhushu render pdf` run, start-up of Python, Playwright and Chromium included, per layout."""
    import subprocess
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    tei = juan100(out)
    results = []
    # the yardstick: lxml parsing this TEI, timed once for both layouts (one run of each is timed)
    parse = min(_seconds(lambda: lxml_parse([tei]))[0] for _ in range(REPEAT * YARDSTICK_PARSES))
    for layout in ("vertical", "horizontal"):
        pdf_dir = os.path.join(out, layout)
        t0 = time.perf_counter()
        run = subprocess.run([*zhushu_command(), "render", "pdf", tei, "-o", pdf_dir, "--layout", layout],
                             capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if run.returncode:
            print(f"pdf ({layout}) failed: {run.stderr.strip()}", file=sys.stderr)
            continue
        pages = int(run.stderr.split("(")[1].split()[0])
        r = {"stage": f"pdf-{layout}", "pages": pages, "seconds": round(dt, 3),
             "pages_per_s": round(pages / dt, 1), "lxml_seconds": round(parse, 4),
             "x_lxml": round(dt / parse, 1)}
        print(f"{r['stage']:14s} {pages:5d} pages {dt:8.3f} s  {r['pages_per_s']:7.1f} pages/s "
              f"{r['x_lxml']:8.1f}× lxml (one run, start-up included)", flush=True)
        results.append(r)
    return results


KANRIPO = os.path.join(os.path.dirname(ROOT), "shared", "kanripo")
SIKU_WORKS = ("KR1d0003", "KR1d0028", "KR1d0053", "KR1d0037", "KR1d0068")


def kanripo_stage(out: str, seed_rate: float) -> list[dict]:
    """Kanripo (issue 13): the five 四庫 works converted file by file, as a rate and as a ratio
    to the seed corpus's rate of this run; and one 4 MB file against the same text in 1 MB
    files (cost per MB must not grow with the file)."""
    import glob
    from pipeline.convert import convert_file
    files = [f for w in SIKU_WORKS for f in sorted(glob.glob(os.path.join(KANRIPO, "WYG", w, "*_[0-9][0-9][0-9].txt")))]
    if not files:
        print("kanripo: ../shared/kanripo not found, stage skipped")
        return []
    nbytes = sum(os.path.getsize(f) for f in files)

    written: dict[str, bytes] = {}          # the TEI of the last run: lxml's yardstick

    def works():
        for f in files:
            try:
                written[f] = convert_file(f)[0]
            except Exception:               # noqa: BLE001 - a refused file still costs its read
                pass
    r = timed("kanripo", nbytes, works, lambda: list(written.values()))
    r["ratio_to_seeds"] = round(r["mb_per_s"] / seed_rate, 2)
    print(f"  the five 四庫 works at {r['ratio_to_seeds']:.2f}× the seed corpus's rate")
    results = [r]
    # one 4 MB file of 禮記註疏's 卷, and the same text in four files of about 1 MB
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    texts = []
    for f in sorted(glob.glob(os.path.join(KANRIPO, "WYG", "KR1d0053", "*_0[0-9][1-9].txt"))):
        with open(f, encoding="utf-8") as fh:
            texts.append("".join(l for l in fh if not l.startswith("#")))
    header = "#+TITLE: 禮記註疏\n"
    big, parts, size, chunk = [], [], 0, []
    for t in texts:
        if sum(len(x.encode()) for x in big) >= 4e6:
            break
        big.append(t)
        chunk.append(t)
        size += len(t.encode())
        if size > 1e6:
            parts.append(chunk)
            chunk, size = [], 0
    one = os.path.join(out, "KR1d0053_900.txt")
    with open(one, "w", encoding="utf-8") as fh:
        fh.write(header + "".join(big))
    small = []
    for k, p in enumerate(parts):
        path = os.path.join(out, f"KR1d0053_9{k + 1:02d}.txt")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(header + "".join(p))
        small.append(path)
    r1 = timed("kanripo-4mb", os.path.getsize(one), lambda: written.update(one=convert_file(one)[0]),
               lambda: [written["one"]])
    rs = timed("kanripo-1mb", sum(os.path.getsize(p) for p in small),
               lambda: written.update(small=[convert_file(p)[0] for p in small]),
               lambda: written["small"])
    ratio = round(rs["mb_per_s"] / r1["mb_per_s"], 2)
    r1["cost_per_mb_vs_1mb_files"] = ratio
    print(f"  cost per MB of one 4 MB file: {ratio:.2f}× that of 1 MB files of the same text")
    return results + [r1, rs]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=20.0, help="corpus size in MB of source text")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out"))
    ap.add_argument("--validate-mb", type=float, default=0,
                    help="also validate a TEI corpus of this many MB (copies of the converted "
                         "files), with zhushu on one core and, when installed, with jing")
    args = ap.parse_args()
    src_dir, tei_dir, site = (os.path.join(args.out, d) for d in ("src", "tei", "site"))
    sources = build_corpus(src_dir, args.mb)
    src_bytes = sum(os.path.getsize(p) for p in sources)

    from pipeline.convert import convert_file
    from pipeline.render import render_html
    from pipeline.validate import iter_issues, schema

    for d in (tei_dir, site):                   # nothing left over from another run
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(tei_dir)
    teis = [os.path.join(tei_dir, os.path.splitext(os.path.basename(p))[0] + ".xml") for p in sources]
    per_seed: dict[str, list[float]] = {}        # seed → [bytes, seconds of its best run]

    def convert_all():
        run: dict[str, list[float]] = {}
        for s, t in zip(sources, teis):
            t0 = time.perf_counter()
            _, report = convert_file(s, t)
            seed = f"{s.split('_', 1)[1]} ({report.layout})"
            acc = run.setdefault(seed, [0.0, 0.0])
            acc[0] += os.path.getsize(s)
            acc[1] += time.perf_counter() - t0
        for seed, acc in run.items():
            if seed not in per_seed or acc[1] < per_seed[seed][1]:
                per_seed[seed] = acc

    # convert's yardstick is lxml parsing the TEI it wrote (the source is not XML)
    results = [timed("convert", src_bytes, convert_all, lambda: teis)]
    for seed, (nbytes, secs) in sorted(per_seed.items()):
        print(f"  {seed:40s} {nbytes / 1e6:7.2f} MB  {nbytes / 1e6 / secs:7.2f} MB/s")
    results[0]["per_seed"] = {k: round(v[0] / 1e6 / v[1], 2) for k, v in per_seed.items()}
    tei_bytes = sum(os.path.getsize(p) for p in teis)
    schema()                                    # compile outside the timing, as a run does once
    bad = []

    def validate_all():
        bad[:] = [i for t in teis for i in iter_issues(t) if i.level != "warning"]

    results.append(timed("validate", tei_bytes, validate_all, lambda: teis))
    if bad:
        print(f"warning: {len(bad)} validation errors, first: {bad[0]}", file=sys.stderr)
    results.append(timed("html", tei_bytes, lambda: render_html(teis, site), lambda: teis))
    from bench.search import search_stage      # the index's cost and the queries' speed
    results.append(search_stage(teis, os.path.join(args.out, "search")))
    results += kanripo_stage(os.path.join(args.out, "kanripo"), results[0]["mb_per_s"])
    results += pdf_stage(os.path.join(args.out, "pdf"))
    results += siku_stage(os.path.join(args.out, "siku"))
    if args.validate_mb:
        results += validate_large(teis, os.path.join(args.out, "big"), args.validate_mb)
    info = {"python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count(), "source_files": len(sources), "results": results}
    with open(os.path.join(args.out, "results.json"), "w", encoding="utf-8") as f:
        json.dump(info, f, indent=1)


if __name__ == "__main__":
    main()
