"""The search index of the web edition: character n-grams of the folded text, sharded into script
files (assets/search/) so that a page opened from file:// can load them (Chromium refuses fetch()
of file:// URLs, not <script src>). Each file calls a global callback with its data.

The text is cut into chunks: the units of one page and one layer, in document order, up to
TEXT_BYTES of text each; a chunk is one text file and the unit of the postings.

- manifest.js: the layers, the pages (file name, work, title), each chunk's page and layer, and
  the first key of each postings shard.
- post-N.js: the (key, chunk) pairs of a range of keys, sorted, as one list of hexadecimal deltas
  of key × 7000 + chunk (MAX_CHUNKS). A key is a folded searchable character (its code point) or two of them
  (first × 0x110000 + second): exact for queries of one or two characters, and a cover of
  two-character keys narrows a longer query to the chunks that may hold it.
- text-N.js: chunk N: its page, its layer and its units (id, 卷, 篇, text as printed), to check a
  candidate and for the keyword-in-context line.
- fold.js: the characters folding changes (hanzi.fold_table), for the query and the highlight.
- persons.js: the persons on the persons index, with every form of their name.

The pairs are made and sorted by C-level operations of the standard library (set, map, sort):
a Python loop over the millions of pairs of a 20 MB site cost three times the rendering. Sorted
keys and fixed separators: the same site gives the same bytes.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from array import array
from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import repeat
from operator import add, mul, sub

from pipeline import hanzi
from pipeline.errors import PipelineError
from pipeline.render.search_text import SEPARATOR, PageText, Unit, normalise

DIR = "search"
LAYERS = ("jing", "zhu", "yinyi", "shu", "yishu", "an", "translation", "textual", "xiaozhu")
TEXT_BYTES = 16_000            # aimed-at text of a chunk: a result costs at most one such file
POSTINGS_BYTES = 48_000        # aimed-at size of a postings shard
PAIR_BYTES = 5                 # a pair's share of a postings file, measured on the Kanripo works
PLANE = 0x110000               # code points: the second character of a two-character key
_UTF32 = "utf-32-le" if sys.byteorder == "little" else "utf-32-be"   # as array("I") reads it
assert array("I").itemsize == 4
MAX_CHUNKS = 7000             # key × chunks + chunk must stay below 2**53 (JavaScript numbers)


@dataclass
class Chunk:
    layer: int
    units: str                                 # JSON of its units: [[id, 卷, 篇, text], …]


@dataclass
class PageIndex:
    chunks: list[Chunk] = field(default_factory=list)
    # key × MAX_CHUNKS + the chunk's number in the page, sorted: the page's run of the site's
    # pairs (sorted here, in the worker, the site's sort is a merge of runs)
    pairs: array = field(default_factory=lambda: array("Q"))
    persons: dict[str, tuple[list[str], str]] = field(default_factory=dict)


def keys_of(norm: str) -> set[int]:
    """The keys of a normalised text: its characters and its pairs of neighbours (a pair with
    SEPARATOR is a key no query has)."""
    cps = array("I", norm.encode(_UTF32))
    keys = set(cps)
    keys.update(map(add, map(mul, cps, repeat(PLANE)), cps[1:]))
    keys.discard(ord(SEPARATOR))
    return keys


def _chunk(layer: int, units: list[Unit], local: int, pairs: list[int]) -> Chunk:
    keys = keys_of(normalise(SEPARATOR.join(u.text for u in units)))
    pairs.extend(map(add, map(mul, keys, repeat(MAX_CHUNKS)), repeat(local)))
    rows = [[u.id, u.juan, u.pian, u.text] for u in units]
    return Chunk(layer, json.dumps(rows, ensure_ascii=False, separators=(",", ":")))


def page_index(page: PageText) -> PageIndex:
    """A page's chunks (by layer, in LAYERS order) with their keys: made in the worker process
    that rendered the page (compact: JSON text and arrays of numbers, no objects per unit)."""
    out = PageIndex(persons=page.persons)
    by_layer: dict[int, list[Unit]] = {}
    code = {name: i for i, name in enumerate(LAYERS)}
    for unit in page.units:
        if unit.layer in code:
            by_layer.setdefault(code[unit.layer], []).append(unit)
    pairs: list[int] = []
    for layer in sorted(by_layer):
        units: list[Unit] = []
        size = 0
        for unit in by_layer[layer]:
            units.append(unit)
            size += 3 * (len(unit.text) + len(unit.juan) + len(unit.pian)) + len(unit.id) + 12
            if size >= TEXT_BYTES:
                out.chunks.append(_chunk(layer, units, len(out.chunks), pairs))
                units, size = [], 0
        if units:
            out.chunks.append(_chunk(layer, units, len(out.chunks), pairs))
    pairs.sort()
    out.pairs = array("Q", pairs)
    return out


def _js(callback: str, *args) -> bytes:
    body = ",".join(json.dumps(a, ensure_ascii=False, separators=(",", ":"), sort_keys=True) for a in args)
    return f"zhushuSearch.{callback}({body});\n".encode("utf-8")


def _shard_starts(pairs: list[int], chunks: int, shards: int) -> list[int]:
    """Where each postings shard starts in the sorted pairs: about equal counts, never splitting
    a key's pairs."""
    starts = [0]
    for s in range(1, shards):
        i = s * len(pairs) // shards
        i = bisect_left(pairs, pairs[i] // chunks * chunks)
        if i > starts[-1]:
            starts.append(i)
    return starts


def build(pages: list[tuple[str, str, str]], indexes: list[PageIndex],
          listed_persons: list[str]) -> dict[str, bytes]:
    """The files of the index (name under assets/search/ → bytes). `pages` are (file name, work,
    title) in site order, `indexes` what each page gave, `listed_persons` the ids the persons
    index shows, in its order."""
    chunks = [(page_no, c) for page_no, index in enumerate(indexes) for c in index.chunks]
    if len(chunks) > MAX_CHUNKS:
        raise PipelineError(f"the search index holds at most {MAX_CHUNKS} chunks of text "
                            f"({len(chunks)} needed): render the site with --no-search",
                            rule="ZS-RENDER-001")
    n = MAX_CHUNKS
    pairs: list[int] = []
    first = 0                                  # the site's number of the page's first chunk
    for index in indexes:
        pairs.extend(map(add, index.pairs, repeat(first)))
        first += len(index.chunks)
    pairs.sort()                               # a merge of the pages' sorted runs
    shards = max(1, len(pairs) * PAIR_BYTES // POSTINGS_BYTES)
    starts = _shard_starts(pairs, n, shards) if pairs else [0]
    out = {}
    for s, (i, j) in enumerate(zip(starts, [*starts[1:], len(pairs)])):
        part = pairs[i:j]
        deltas = [part[0], *map(sub, part[1:], part[:-1])] if part else []
        out[f"post-{s}.js"] = _js("postings", s, ",".join(map(format, deltas, repeat("x"))))
    for chunk_no, (page_no, c) in enumerate(chunks):
        out[f"text-{chunk_no}.js"] = f"zhushuSearch.texts({chunk_no},[{page_no},{c.layer},{c.units}]);\n".encode("utf-8")
    out["manifest.js"] = _js("manifest", {
        "layers": list(LAYERS), "pages": [list(p) for p in pages],
        "chunks": [[page_no, c.layer] for page_no, c in chunks], "pairBase": n,
        "postings": [pairs[i] // n if pairs else 0 for i in starts]})
    out["fold.js"] = _js("fold", hanzi.fold_table())
    people: dict[str, tuple[list[str], str]] = {}
    for index in indexes:
        for pid, who in index.persons.items():
            people.setdefault(pid, who)
    out["persons.js"] = _js("persons", [[pid, *people[pid]] for pid in listed_persons if pid in people])
    return out


def write(out_dir: str, assets: str, pages, indexes, listed_persons) -> list[str]:
    """Write the index to <out_dir>/<assets>/search/: into a new directory beside it, plain
    writes (thousands of files: one atomic rename each cost a second), which then replaces the
    old one whole."""
    target = os.path.join(out_dir, assets, DIR)
    built = build(pages, indexes, listed_persons)
    fresh = tempfile.mkdtemp(prefix=".search-", dir=os.path.join(out_dir, assets))
    try:
        for name in sorted(built):
            with open(os.path.join(fresh, name), "wb") as f:
                f.write(built[name])
        os.chmod(fresh, 0o755)
        remove(out_dir, assets)
        os.replace(fresh, target)
    except OSError as e:
        shutil.rmtree(fresh, ignore_errors=True)
        raise PipelineError(f"cannot write the search index: {e.strerror}", target, rule="ZS-IO-002") from None
    return [os.path.join(target, name) for name in sorted(built)]


def remove(out_dir: str, assets: str) -> None:
    """Remove an earlier index (a site rendered again without search must not keep a stale one)."""
    target = os.path.join(out_dir, assets, DIR)
    if os.path.isdir(target) and not os.path.islink(target):
        shutil.rmtree(target)
