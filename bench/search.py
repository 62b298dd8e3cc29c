"""What search costs and how fast it answers, on a site of >= 20 MB of TEI.

    python bench/search.py TEI_DIR... [--out bench/out/search]      (or as a stage of bench/run.py)

- render cost: the site rendered with and without the index (`render_html(paths, out, 1,
  Options(search=False))`), in turn, REPEAT times each, in this process: the ratio of the best CPU
  times (the neighbours' load cancels out of CPU time far better than out of wall-clock time on a
  shared machine); then the same with two processes (-j 2), by wall-clock time (the CPU time of
  the workers is not this process's);
- the index: files, bytes, the largest file of each kind;
- queries in Debian's Chromium from file://: for each, the time from the query to its first result
  (search.js's own zhushuSearch.timing, measured after the page is loaded) and the bytes of index
  files it loaded (zhushuSearch.loaded, sized on disk), the first fifty results or so.

Ratios and figures only, never a pass/fail: record them in docs/performance.md and docs/search.md.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import sys
import time
from urllib.parse import quote

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

REPEAT = 3
CHROMIUM = "/usr/bin/chromium"
# common and rare, short and long, one layer: what a reader of the 注疏 types
QUERIES = (("之", ()), ("不敬", ()), ("鄭玄", ()), ("禮記", ()), ("天子", ("jing",)),
           ("先王之道", ()), ("掌建邦之六典", ()), ("毋不敬儼若思", ()), ("龘龘", ()))


def render_cost(teis: list[str], out: str, jobs: int = 1) -> dict:
    """With and without the index in turn, REPEAT times each: best CPU time of this process (with
    jobs = 1: the whole render) and best wall-clock time."""
    from pipeline.render.html import Options, render_html
    cpu = {True: [], False: []}
    wall = {True: [], False: []}
    for _ in range(REPEAT):
        for with_search in (False, True):
            site = os.path.join(out, "site" if with_search else "site-plain")
            shutil.rmtree(site, ignore_errors=True)
            c0, w0 = time.process_time(), time.perf_counter()
            render_html(teis, site, jobs, Options(search=with_search))
            cpu[with_search].append(time.process_time() - c0)
            wall[with_search].append(time.perf_counter() - w0)
    r = {"jobs": jobs, "without_s": round(min(cpu[False]), 2), "with_s": round(min(cpu[True]), 2),
         "runs_without": [round(t, 2) for t in cpu[False]], "runs_with": [round(t, 2) for t in cpu[True]],
         "wall_without_s": round(min(wall[False]), 2), "wall_with_s": round(min(wall[True]), 2),
         "wall_runs_without": [round(t, 2) for t in wall[False]], "wall_runs_with": [round(t, 2) for t in wall[True]]}
    r["ratio"] = round(r["with_s"] / r["without_s"], 3)
    r["wall_ratio"] = round(r["wall_with_s"] / r["wall_without_s"], 3)
    print(f"render -j {jobs} without {r['without_s']:7.2f} s CPU  with {r['with_s']:7.2f} s  "
          f"ratio {r['ratio']:.3f};  wall {r['wall_without_s']:.2f} / {r['wall_with_s']:.2f} s  "
          f"ratio {r['wall_ratio']:.3f}  (best of {REPEAT})", flush=True)
    return r


def index_size(site: str) -> dict:
    d = os.path.join(site, "assets", "search")
    sizes = {n: os.path.getsize(os.path.join(d, n)) for n in os.listdir(d)}
    kinds = {}
    for name, size in sizes.items():
        kind = name.split("-")[0].removesuffix(".js")
        k = kinds.setdefault(kind, {"files": 0, "bytes": 0, "largest": 0})
        k["files"] += 1
        k["bytes"] += size
        k["largest"] = max(k["largest"], size)
    r = {"files": len(sizes), "bytes": sum(sizes.values()), "kinds": kinds}
    print(f"index      {r['files']} files  {r['bytes'] / 1e6:.2f} MB  " +
          "  ".join(f"{k}: {v['files']} × ≤{v['largest'] / 1e3:.0f} kB" for k, v in sorted(kinds.items())),
          flush=True)
    return r


def query_times(site: str) -> list[dict]:
    from playwright.sync_api import sync_playwright
    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for query, layers in QUERIES:
            page = browser.new_context().new_page()        # nothing cached from the last query
            page.goto("file://" + quote(os.path.abspath(os.path.join(site, "search.html"))))
            page.wait_for_load_state("load")
            page.evaluate("""([q, layers]) => {
                document.querySelectorAll('input[data-search-layer]').forEach(b => b.checked = layers.includes(b.value));
                const f = document.querySelector('input[data-search]'); f.value = q;
                f.form.requestSubmit(); }""", [query, list(layers)])
            page.wait_for_function("() => zhushuSearch.timing && zhushuSearch.timing.done !== undefined",
                                   timeout=60000)
            timing = page.evaluate("zhushuSearch.timing")
            # Chromium keeps no resource timing for file:// scripts: search.js lists what it loaded
            files = [os.path.join(site, "assets", "search", n) for n in page.evaluate("zhushuSearch.loaded")]
            r = {"query": query, "layers": list(layers),
                 "results": page.locator("[data-search-result]").count(),
                 "first_ms": round(timing["first"], 1) if "first" in timing else None,
                 "done_ms": round(timing["done"], 1),
                 "files": len(files), "bytes": sum(os.path.getsize(f) for f in files)}
            out.append(r)
            first = f"{r['first_ms']:7.1f}" if r["first_ms"] is not None else "   none"
            print(f"query {query + ('/' + ','.join(layers) if layers else ''):14s} first {first} ms  "
                  f"all shown {r['done_ms']:7.1f} ms  {r['results']:3d} results  "
                  f"{r['files']:3d} files {r['bytes'] / 1e6:6.3f} MB", flush=True)
            page.context.close()
        browser.close()
    return out


def search_stage(teis: list[str], out: str) -> dict:
    tei_bytes = sum(os.path.getsize(t) for t in teis)
    print(f"search     {len(teis)} TEI files, {tei_bytes / 1e6:.2f} MB", flush=True)
    r = {"stage": "search", "mb": round(tei_bytes / 1e6, 2), "render": render_cost(teis, out),
         "render_j2": render_cost(teis, os.path.join(out, "j2"), jobs=2)}
    site = os.path.join(out, "site")
    r["index"] = index_size(site)
    if os.path.exists(CHROMIUM):
        r["queries"] = query_times(site)
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tei", nargs="+", help="TEI files or directories of *.xml")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out", "search"))
    args = ap.parse_args()
    teis = sorted(p for t in args.tei for p in (glob.glob(os.path.join(t, "*.xml")) if os.path.isdir(t) else [t]))
    os.makedirs(args.out, exist_ok=True)
    r = search_stage(teis, args.out)
    with open(os.path.join(args.out, "results.json"), "w", encoding="utf-8") as f:
        json.dump(r, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
