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

The pairs are made, sorted and encoded by numpy, for whole arrays at a time: a Python loop over
the millions of pairs of a 20 MB site cost three times the rendering, and even C-level operations
of the standard library (set, map, sort, format) twice. Sorted
keys and fixed separators: the same site gives the same bytes.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field

import numpy as np

from pipeline import hanzi
from pipeline.errors import PipelineError
from pipeline.render.search_text import SEPARATOR, PageText, Unit, matching_codes

DIR = "search"
LAYERS = ("jing", "zhu", "yinyi", "shu", "yishu", "an", "translation", "textual", "xiaozhu")
TEXT_BYTES = 16_000            # aimed-at text of a chunk: a result costs at most one such file
POSTINGS_BYTES = 48_000        # aimed-at size of a postings shard
PAIR_BYTES = 5                 # a pair's share of a postings file, measured on the Kanripo works
PLANE = 0x110000               # code points: the second character of a two-character key
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
    pairs: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint64))
    persons: dict[str, tuple[list[str], str]] = field(default_factory=dict)


def keys_of(text: str) -> np.ndarray:
    """The keys of a text, unsorted, with repeats: its matched characters (matching_codes) and
    their pairs of neighbours, none with SEPARATOR (no query has it)."""
    cps = matching_codes(text).astype(np.uint64)
    pairs = cps[:-1] * PLANE + cps[1:]
    sep = ord(SEPARATOR)
    return np.concatenate([cps[cps != sep], pairs[(cps[:-1] != sep) & (cps[1:] != sep)]])


def _chunk(layer: int, units: list[Unit], local: int, pairs: list[np.ndarray]) -> Chunk:
    pairs.append(keys_of(SEPARATOR.join(u.text for u in units)) * MAX_CHUNKS + local)
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
    pairs: list[np.ndarray] = []
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
    if pairs:
        out.pairs = _unique(np.concatenate(pairs))
    return out


def _unique(a: np.ndarray) -> np.ndarray:
    """Sorted, each value once (np.unique hashes 64-bit numbers: slower than a sort here)."""
    a = np.sort(a)
    return a[np.concatenate(([True], a[1:] != a[:-1]))] if len(a) else a


def _js(callback: str, *args) -> bytes:
    body = ",".join(json.dumps(a, ensure_ascii=False, separators=(",", ":"), sort_keys=True) for a in args)
    return f"zhushuSearch.{callback}({body});\n".encode("utf-8")


def _shard_starts(pairs: np.ndarray, chunks: int, shards: int) -> list[int]:
    """Where each postings shard starts in the sorted pairs: about equal counts, never splitting
    a key's pairs."""
    starts = [0]
    for s in range(1, shards):
        i = int(np.searchsorted(pairs, pairs[s * len(pairs) // shards] // chunks * chunks))
        if i > starts[-1]:
            starts.append(i)
    return starts


# "00" … "ff": the two hexadecimal digits of each byte value, as one 16-bit number in memory order
_HEX_BYTE = np.frombuffer(b"".join(b"%02x" % i for i in range(256)), np.uint16)
_DIGITS = 14                                    # hexadecimal digits of a number below 2**53
_POWERS = np.array([16 ** k for k in range(1, _DIGITS)], np.uint64)


def _hex_list(numbers: np.ndarray) -> str:
    """Numbers below 2**53 as format(n, "x") joined by commas, made for all at once: each number's
    seven low bytes (big-endian) as fourteen digits and a comma in a row, the leading zeros then
    dropped by a mask."""
    n = len(numbers)
    if not n:
        return ""
    rows = np.empty((n, _DIGITS + 2), np.uint8)           # digits, comma, one unused (alignment)
    low_bytes = numbers.astype(">u8").view(np.uint8).reshape(n, 8)[:, 8 - _DIGITS // 2:]
    rows[:, :_DIGITS] = _HEX_BYTE[low_bytes].view(np.uint8).reshape(n, _DIGITS)
    rows[:, _DIGITS] = ord(",")
    first = _DIGITS - 1 - np.searchsorted(_POWERS, numbers, side="right")   # its first digit
    cols = np.arange(_DIGITS + 2)
    keep = (cols >= first[:, None]) & (cols <= _DIGITS)
    return rows[keep].tobytes()[:-1].decode("ascii")


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
    firsts = np.cumsum([0, *(len(index.chunks) for index in indexes[:-1])], dtype=np.uint64)
    # the site's number of a chunk is its page's first chunk's plus its number in the page
    pairs = np.sort(kind="stable", a=np.concatenate([np.zeros(0, np.uint64)] +
                                   [index.pairs + first for index, first in zip(indexes, firsts)]))
    shards = max(1, len(pairs) * PAIR_BYTES // POSTINGS_BYTES)
    starts = _shard_starts(pairs, n, shards) if len(pairs) else [0]
    out = {}
    for s, (i, j) in enumerate(zip(starts, [*starts[1:], len(pairs)])):
        part = pairs[i:j]
        deltas = np.diff(part, prepend=np.uint64(0)) if len(part) else part
        out[f"post-{s}.js"] = _js("postings", s, _hex_list(deltas))
    for chunk_no, (page_no, c) in enumerate(chunks):
        out[f"text-{chunk_no}.js"] = f"zhushuSearch.texts({chunk_no},[{page_no},{c.layer},{c.units}]);\n".encode("utf-8")
    out["manifest.js"] = _js("manifest", {
        "layers": list(LAYERS), "pages": [list(p) for p in pages],
        "chunks": [[page_no, c.layer] for page_no, c in chunks], "pairBase": n,
        "postings": [int(pairs[i]) // n if len(pairs) else 0 for i in starts]})
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
