"""The search index of the web edition: character n-grams of the folded text, sharded into script
files (assets/search/) so that a page opened from file:// can load them (Chromium refuses fetch()
of file:// URLs, not <script src>). Each file calls a global callback with its data.

- manifest.js: the layers, the pages (file name, work, title), the number of postings shards and
  the first unit of each text shard.
- post-N.js: for each 1- and 2-character key (folded, searchable characters only) of shard N
  (a hash of its code points, the same in search.js), the units that contain it, as base-36 deltas
  of unit × 16 + layer (so a layer filter needs no other file).
- text-N.js: the units N holds, in site order: page, id, layer, 卷, 篇 and the text as printed, for
  checking a candidate (a query longer than two characters) and for the keyword-in-context line.
- fold.js: the characters folding changes (hanzi.fold_table), for the query and the highlight.
- persons.js: the persons on the persons index, with every form of their name.

One pass over the text; sorted keys and fixed separators: the same site gives the same bytes.
"""
from __future__ import annotations

import json
import os

from pipeline import files, hanzi
from pipeline.render.search_text import PageText, normalise

DIR = "search"
LAYERS = ("jing", "zhu", "yinyi", "shu", "yishu", "an", "translation", "textual", "xiaozhu")
POSTINGS_BYTES = 48_000        # aimed-at size of a postings shard
TEXT_BYTES = 16_000            # aimed-at size of a text shard: a result costs at most one


def shard_of(key: str, shards: int) -> int:
    """The postings shard of a key; search.js computes the same."""
    h = 0
    for ch in key:
        h = (h * 31 + ord(ch)) % shards
    return h


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def _js(callback: str, *args) -> bytes:
    body = ",".join(json.dumps(a, ensure_ascii=False, separators=(",", ":"), sort_keys=True) for a in args)
    return f"zhushuSearch.{callback}({body});\n".encode("utf-8")


def build(pages: list[tuple[str, str, str]], texts: list[PageText],
          listed_persons: list[str]) -> dict[str, bytes]:
    """The files of the index (name under assets/search/ → bytes). `pages` are (file name, work,
    title) in site order, `texts` what each page's tree gave, `listed_persons` the ids the persons
    index shows, in its order."""
    layer_code = {name: i for i, name in enumerate(LAYERS)}
    postings: dict[str, list[int]] = {}
    text_shards: list[list] = []
    starts: list[int] = []
    size = TEXT_BYTES
    unit_no = 0
    for page_no, page in enumerate(texts):
        for unit in page.units:
            code = layer_code.get(unit.layer)
            if code is None:
                continue
            norm = normalise(unit.text)
            value = unit_no * 16 + code
            for key in {*norm, *(norm[i:i + 2] for i in range(len(norm) - 1))}:
                postings.setdefault(key, []).append(value)
            if size >= TEXT_BYTES:
                text_shards.append([])
                starts.append(unit_no)
                size = 0
            text_shards[-1].append([page_no, unit.id, code, unit.juan, unit.pian, unit.text])
            size += 3 * len(unit.text) + len(unit.id) + 3 * (len(unit.juan) + len(unit.pian)) + 12
            unit_no += 1

    encoded = {}
    total = 0
    for key, values in postings.items():
        deltas, prev = [], 0
        for v in values:
            deltas.append(_b36(v - prev))
            prev = v
        encoded[key] = ",".join(deltas)
        total += len(encoded[key]) + 3 * len(key) + 4
    shards = max(1, -(-total // POSTINGS_BYTES))
    post_shards: list[dict[str, str]] = [{} for _ in range(shards)]
    for key, value in encoded.items():
        post_shards[shard_of(key, shards)][key] = value

    out = {f"post-{n}.js": _js("postings", n, s) for n, s in enumerate(post_shards)}
    for n, units in enumerate(text_shards):
        out[f"text-{n}.js"] = _js("texts", n, units)
    out["manifest.js"] = _js("manifest", {
        "layers": list(LAYERS), "pages": [list(p) for p in pages],
        "postingShards": shards, "textStarts": starts, "units": unit_no})
    out["fold.js"] = _js("fold", hanzi.fold_table())
    people: dict[str, tuple[list[str], str]] = {}
    for page in texts:
        for pid, who in page.persons.items():
            people.setdefault(pid, who)
    out["persons.js"] = _js("persons", [[pid, *people[pid]] for pid in listed_persons if pid in people])
    return out


def write(out_dir: str, assets: str, pages, texts, listed_persons) -> list[str]:
    """Write the index under <out_dir>/<assets>/search/, the files of an earlier index removed."""
    target = os.path.join(out_dir, assets, DIR)
    files.make_dirs(target)
    built = build(pages, texts, listed_persons)
    for old in os.listdir(target):
        if old.endswith(".js") and old not in built:
            os.remove(os.path.join(target, old))
    written = []
    for name in sorted(built):
        path = os.path.join(target, name)
        files.write_atomic(path, built[name])
        written.append(path)
    return written
