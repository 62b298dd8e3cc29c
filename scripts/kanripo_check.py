"""Issue 13's "Must hold" over the whole of ../shared/kanripo, as a report (and, imported by
tests/test_kanripo_corpus.py, as the test's oracles).

Every 卷 file `<ID>_<NNN>.txt` of WYG, master, SBCK and bare is converted the way a user
converts a repository checkout (`zhushu convert <folder> -o OUT/<folder> -j N --report …`), the
outputs are validated (`zhushu validate -f json`, and tei_all with lxml), and each TEI is judged
against oracles computed here from the raw file alone. Nothing of the pipeline is used for what
it checks: the mandoku markup is read again below, with regular expressions, from the format as
/work/notes/kanripo.md describes it.

* lossless: the file less its `#` lines, `<pb:…>`, `¶`, the note parentheses and the `/` inside
  them, an org heading's stars (`** 1 曲禮上`) and whitespace (Unicode White_Space) equals the text of the TEI's <text>, where
  `<g ref="#KRnnnn">…</g>` stands for the file's `&KRnnnn;` and a <g> holding a private stand-in
  (U+10FF00 + its code point, pipeline/chars.py) for the control character XML cannot hold
  (Kanripo's 儀禮 has a stray U+0001), and a CJK compatibility ideograph of the file stands as
  its standardized variation sequence (U+2F80F → U+5154 U+FE00). Compared canonically (NFC,
  the project's invariant) and code point for code point.
* pages: one <pb> per page marker, in the file's order, with the marker's edition and leaf
  (`<pb:KR1d0053_WYG_003-1a>` → ed="WYG" n="3-1a"), placed where the marker is (the same count of
  text characters before it); its @facs names a <surface> whose <graphic url> is the image the
  edition's `_data/<ID>/imglist/<ID>_<NNN>.txt` lists for the page, and which has none when the
  list has none.
* lines: one <lb> per printed line, at its start. A `¶` ends a printed line unless it follows a
  page marker directly when nothing has been printed since the last line ended (the marker's own
  line in WYG and SBCK: `<pb:…>¶`); text after the last `¶` is a line of its own. That is
  pipeline/sources/mandoku.py's rule, written again here; in WYG, master and SBCK it must agree with the
  file's own count (every `¶` less the `<pb:…>¶` lines).
* layers, for the 四庫 注疏 卷 (WYG 0003, 0028, 0053, master 0053; not `_000`): the 音義 layer is
  the text inside the edition's `音義(…)`, the 疏 layer the text inside `疏(…)`/`䟽(…)` (a note
  continued over lines and pages is one note; the misprints `注(…)`/`蔬(…)` for 疏 may be read
  either way), each 注 lies inside a region the edition marks with 注 (from a 注 up to the next
  note marker, `(`, `○` or furniture line), and no 經 seg holds markup or furniture (欽定四庫全書,
  卷 titles, the commentators line, 篇 titles, 考證 heads or the 考證 itself).

Run: .venv/bin/python scripts/kanripo_check.py [--root DIR] [--out DIR] [-j 2] [--folder WYG/KR1d0053]
"""
from __future__ import annotations

import argparse
import bisect
import collections
import json
import multiprocessing
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import threading
import time
import unicodedata
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

ROOT = pathlib.Path(__file__).resolve().parents[1]
KANRIPO = ROOT.parent / "shared" / "kanripo"
TEI_ALL = ROOT.parent / "shared" / "tei-p5" / "tei_all.rng"
EDITIONS = ("WYG", "master", "SBCK", "bare")


def _compat_sequences() -> dict:
    """Unicode's standardized variation sequence of each CJK compatibility ideograph: the TEI
    holds these for the file's compatibility ideographs (NFC would lose them; docs/rules.md
    ZS-CONV-COMPAT), so the file is read with them. The table is data from Unicode's
    StandardizedVariants.txt, not the pipeline's reading of the file."""
    rows = (line.split() for line in open(ROOT / "pipeline" / "data" / "cjk-compat-svs.txt", encoding="ascii")
            if not line.startswith("#"))
    return {int(c, 16): chr(int(b, 16)) + chr(int(v, 16)) for c, b, v in rows}


COMPAT_SEQUENCES = _compat_sequences()
ZHUSHU_FOLDERS = ("WYG/KR1d0003", "WYG/KR1d0028", "WYG/KR1d0053", "master/KR1d0053")
JUAN_FILE = re.compile(r"^(KR\d[a-z]\d{4})_(\d{3})\.txt$")
ZHUSHU_CLI = [sys.executable, "-c", "from pipeline.cli import main; main(prog_name='zhushu')"]
TEI = "{http://www.tei-c.org/ns/1.0}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"

# Unicode's White_Space property, written out (not the pipeline's set): not printed text.
WHITE_SPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) +
               "\u2028\u2029\u202f\u205f\u3000")
_DROP = str.maketrans("", "", WHITE_SPACE)


def _stood_in(ch: str) -> str | None:
    """The character XML cannot hold that a TEI's private stand-in keeps: U+10FF00 + a code
    point below U+00A0, U+10FFE0/U+10FFE1 for U+FFFE/U+FFFF."""
    k = ord(ch) - 0x10FF00
    return chr(k) if 0 <= k < 0xA0 else chr(0xFFFE + k - 0xE0) if k in (0xE0, 0xE1) else None

_PB = re.compile(r"<pb:(?P<work>KR\d[a-z]\d{4})_(?P<ed>[A-Za-z]+)_(?P<juan>\d{3})-(?P<leaf>\d+)(?P<side>[ab])>")
_MARKUP = re.compile(r"<pb:[^<>]*>|¶")
_RUN = re.compile(r"&KR\d{4};|[()/]|[^()/&]+|&")
_GAIJI = re.compile(r"&KR\d{4};")
_GAIJI_REF = re.compile(r"#(KR\d{4})$")

# Furniture of a 四庫 注疏 卷 (kanripo.md §8.1–8.2), on a line's text with its indentation
_NUM = "[一二三四五六七八九十百〇]+"
_BOOK = "(?:周禮|儀禮|禮記|禯記)(?:注|註)?(?:疏|䟽)?"
JUAN_TITLE = re.compile(rf"^{_BOOK}[卷巻]{_NUM}$")
KAOZHENG_HEAD = re.compile(rf"^{_BOOK}[卷巻]{_NUM}考[證蹬]$")
HEADER = "欽定四庫全書"


def juan_files(root: pathlib.Path = KANRIPO) -> list[tuple[str, pathlib.Path]]:
    """(folder, path) of every 卷 file, folders as `WYG/KR1d0053`, in order."""
    out = []
    for ed in EDITIONS:
        base = root / ed
        if not base.is_dir():
            continue
        for work in sorted(p for p in base.iterdir() if p.is_dir()):
            out += [(f"{ed}/{work.name}", p) for p in sorted(work.iterdir()) if JUAN_FILE.match(p.name)]
    return out


def file_id(folder: str, path) -> str:
    """The test id of a 卷 file: `WYG/KR1d0053_001` (edition and file)."""
    return f"{folder.split('/')[0]}/{pathlib.Path(path).stem}"


def is_zhushu_juan(folder: str, path) -> bool:
    """A 四庫 注疏 卷 (its front matter `_000` aside): the files the layer checks apply to."""
    return folder in ZHUSHU_FOLDERS and not pathlib.Path(path).stem.endswith("_000")


# -- the raw file ----------------------------------------------------------------------------------
@dataclass
class Marker:
    at: int                   # characters of the kept text before it
    ed: str
    n: str                    # the leaf as TEI's @n gives it: 3-1a
    key: str                  # the imglist's page: 003-1a
    line: int


@dataclass
class Note:
    start: int                # kept offsets of its text (parentheses and markup left out)
    end: int
    marker: str               # yinyi, shu, shu? (a misprint of 疏), other
    begin: int                # where it begins with its marker word
    line: int


@dataclass
class SourceLine:
    n: int                    # line number in the file
    indent: int               # leading U+3000
    text: str                 # markup removed, stripped
    start: int                # kept offsets of its text
    end: int


@dataclass
class Raw:
    """What the oracles need of a 卷 file, read from its bytes. Offsets count the characters
    of `kept`, the text the lossless invariant keeps, each gaiji written `&KRnnnn;` as in the
    file (so that both sides of a comparison spell it alike)."""
    kept: str = ""
    line_at: list = field(default_factory=list)      # (kept offset, line number, raw line)
    pages: list = field(default_factory=list)        # Marker
    lbs: list = field(default_factory=list)          # kept offset of each printed line's start
    order: list = field(default_factory=list)        # "pb" and "lb" as the file gives them
    own_lines: int = 0                               # every ¶ less the `<pb:…>¶` lines
    notes: list = field(default_factory=list)        # Note, continued notes merged
    zhu_marks: list = field(default_factory=list)    # offsets of 注/註 outside notes
    circles: list = field(default_factory=list)      # offsets of ○ outside notes
    lines: list = field(default_factory=list)        # SourceLine of each line printing something
    bad_markers: list = field(default_factory=list)  # `<pb:…>` the format does not allow


def read_raw(path) -> Raw:
    text = pathlib.Path(path).read_bytes().decode("utf-8").translate(COMPAT_SEQUENCES)
    r = Raw()
    parts: list[str] = []
    size = 0
    depth = 0                 # inside ( )
    last_close = False        # the last thing printed was a note's `)`: a `(` continues it
    tail = ""                 # the last two characters printed, for the marker before a `(`
    pending = False           # something printed since the last printed line ended
    line_start = 0
    note: Note | None = None
    for n, raw in enumerate(text.split("\n"), 1):
        if raw.startswith("#"):
            continue
        r.line_at.append((size, n, raw))
        if re.fullmatch(r"(?:<pb:[^<>]*>)+¶", raw):
            r.own_lines -= 1
        r.own_lines += raw.count("¶")
        stars = re.match(r"\*+ +", raw)     # an org heading's stars: markup
        at, after_page = (stars.end() if stars else 0), False
        line_begin = size
        for m in list(_MARKUP.finditer(raw, at)) + [None]:
            chunk = raw[at:m.start() if m else len(raw)]
            if chunk:
                if not pending:
                    r.order.append("lb")              # a printed line begins
                pending, after_page = True, False
                for tok in _RUN.findall(chunk):
                    if tok == "(":
                        if depth == 0 and last_close and note is not None:
                            note.end = size           # the note goes on (over a line or a page)
                        else:
                            marker, word = _note_marker(tail)
                            note = Note(size, size, marker, size - word, n)
                            r.notes.append(note)
                        depth, last_close = 1, False
                    elif tok == ")":
                        depth, last_close = 0, True
                        if note is not None:
                            note.end = size
                    elif tok == "/" and depth:
                        pass                          # where a note's first row ends
                    else:
                        kept = tok if tok.startswith("&KR") else tok.translate(_DROP)
                        if not kept:
                            continue
                        if depth == 0:
                            for c in re.finditer("[注註○]", kept):
                                (r.circles if c.group() == "○" else r.zhu_marks).append(size + c.start())
                        parts.append(kept)
                        size += len(kept)
                        tail = (tail + (kept if not kept.startswith("&KR") else "\0"))[-2:]
                        last_close = False
            if m is None:
                break
            if m.group() == "¶":
                if not (after_page and not pending):
                    if not pending:
                        r.order.append("lb")          # a blank printed line
                    r.lbs.append(line_start)
                    line_start, pending = size, False
                after_page = False
            else:
                pm = _PB.fullmatch(m.group())
                if pm is None:
                    r.bad_markers.append((n, m.group()))
                else:
                    r.order.append("pb")
                    r.pages.append(Marker(size, pm["ed"], f"{int(pm['juan'])}-{int(pm['leaf'])}{pm['side']}",
                                          f"{pm['juan']}-{int(pm['leaf'])}{pm['side']}", n))
                after_page = not pending
            at = m.end()
        body = _MARKUP.sub("", raw)
        stripped = body.strip(WHITE_SPACE)
        if stripped:
            indent = len(body) - len(body.lstrip("\u3000"))
            r.lines.append(SourceLine(n, indent, stripped, line_begin, size))
    if pending:
        r.lbs.append(line_start)                      # text after the last ¶: a line too
    r.kept = "".join(parts)
    return r


def _note_marker(tail: str) -> tuple[str, int]:
    """What the characters before a note's `(` make it, and the marker word's length."""
    if tail.endswith("音義"):
        return "yinyi", 2
    if tail[-1:] in ("疏", "䟽"):
        return "shu", 1
    if tail[-1:] in ("注", "註", "蔬"):
        return "shu?", 1                              # misprints of 疏 (kanripo.md §8.3)
    return "other", 0


def locate(raw: Raw, offset: int) -> str:
    """`line:col` of the file where the kept text's character `offset` is."""
    i = bisect.bisect_right([a for a, _, _ in raw.line_at], offset) - 1
    if i < 0:
        return "1:1"
    size, n, line = raw.line_at[i]
    pos, depth = 0, 0
    while pos < len(line):                            # the line again, counting what is kept
        if (m := _MARKUP.match(line, pos)) is not None:
            pos = m.end()
            continue
        m = _GAIJI.match(line, pos)
        ch = line[pos]
        keep = 8 if m else 0 if ch in "()" or (ch == "/" and depth) or not ch.translate(_DROP) else 1
        depth = 1 if ch == "(" else 0 if ch == ")" else depth
        if keep and size + keep > offset:
            return f"{n}:{pos + 1}"
        size += keep
        pos += 8 if m else 1
    return f"{n}:{len(line) + 1}"


# -- furniture and 注 regions of a 四庫 注疏 卷 ---------------------------------------------------------
@dataclass
class Furniture:
    kind: str
    start: int
    end: int
    line: int
    text: str


def furniture(raw: Raw) -> list[Furniture]:
    """The furniture lines of a 注疏 卷 and its 考證 (kanripo.md §8.1, §8.2, §8.7), with their
    kept spans. A 篇 title is an indent-1 line of at most 10 characters before any note (0003's
    `　冬官考工記第六音義(…)` is a title with its 音義), outside the 考證."""
    out = []
    kaozheng: Furniture | None = None
    for ln in raw.lines:
        s = ln.text
        if kaozheng is not None:
            kaozheng.end = ln.end
            if ln.indent and s.replace("巻", "卷") == kaozheng.text.replace("巻", "卷"):   # 0003_007: 巻 head, 卷 tail
                out.append(Furniture("考證 head", ln.start, ln.end, ln.n, s))
                kaozheng = None
            continue
        if ln.indent and KAOZHENG_HEAD.match(s):
            out.append(Furniture("考證 head", ln.start, ln.end, ln.n, s))
            kaozheng = Furniture("考證", ln.end, ln.end, ln.n, s)
            out.append(kaozheng)
        elif ln.indent == 0 and s.startswith(HEADER):
            out.append(Furniture(HEADER, ln.start, ln.end, ln.n, s))
        elif ln.indent and JUAN_TITLE.match(s):
            out.append(Furniture("卷 title", ln.start, ln.end, ln.n, s))
        elif ln.indent >= 2 and "鄭氏" in s and s[-1] in "疏䟽":
            out.append(Furniture("commentators", ln.start, ln.end, ln.n, s))
        elif ln.indent == 1 and not s.startswith("("):
            title = re.split(r"音義\(|[疏䟽]\(|\(", s, maxsplit=1)[0]
            if 0 < len(title) <= 10 and not re.search("[注註]", title):   # 0053_024:439 is an indented 經+注
                out.append(Furniture("篇 title", ln.start, ln.start + len(title.translate(_DROP)), ln.n, title))
    return out


def zhu_regions(raw: Raw, furn: list[Furniture]) -> list[tuple[int, int]]:
    """Kept spans the edition marks as 注: from a 注 (or 註) outside the notes up to the next
    音義(…) or 疏(…) (its marker word), `○` or furniture line, whichever comes first (a small
    note with no marker, such as the lacuna `(闕七行/)`, may stand inside a 注); runs of 注
    inside one region make one region."""
    stops = sorted({x for nt in raw.notes if nt.marker != "other" for x in (nt.begin, nt.start)} | set(raw.circles) |
                   {f.start for f in furn} | {len(raw.kept)})
    regions: list[list[int]] = []
    for m in raw.zhu_marks:
        end = stops[bisect.bisect_right(stops, m)]
        if regions and regions[-1][1] == end:
            continue                                  # a 注 inside the region before
        regions.append([m + 1, end])
    return [tuple(x) for x in regions]


# -- the TEI ---------------------------------------------------------------------------------------
@dataclass
class Tei:
    kept: str = ""
    pbs: list = field(default_factory=list)          # (kept offset, ed, n, facs)
    lbs: list = field(default_factory=list)          # kept offsets
    order: list = field(default_factory=list)        # "pb" and "lb" in document order
    surfaces: dict = field(default_factory=dict)     # xml:id → [graphic urls]
    notes: dict = field(default_factory=lambda: collections.defaultdict(list))   # type → [(start, end)]
    marks: list = field(default_factory=list)        # spans of label[@type='mark']
    segs: list = field(default_factory=list)         # ab[@type='jing']/seg: (start, end, its text)
    bad_g: list = field(default_factory=list)        # <g ref="#KR…"> not holding one character
    duplicate_surfaces: list = field(default_factory=list)


def read_tei(path) -> Tei:
    from lxml import etree

    # collect_ids off: a duplicated xml:id is a finding of the checks, not a stop before them
    root = etree.parse(str(path), etree.XMLParser(huge_tree=True, resolve_entities=False,
                                                  collect_ids=False)).getroot()
    t = Tei()
    chars = {c.get(XML_ID) for c in root.iter(TEI + "char")}
    for sf in root.iter(TEI + "surface"):
        if sf.get(XML_ID) in t.surfaces:
            t.duplicate_surfaces.append(sf.get(XML_ID))
        t.surfaces[sf.get(XML_ID)] = [g.get("url") for g in sf.iter(TEI + "graphic")]
    text = root.find(TEI + "text")
    if text is None:
        return t
    parts: list[str] = []
    size = 0
    starts: dict = {}
    in_g = 0
    for event, el in etree.iterwalk(text, events=("start", "end")):
        if not isinstance(el.tag, str):               # comments and PIs: only their tails
            if event == "end" and el.tail:
                s = el.tail.translate(_DROP)
                parts.append(s)
                size += len(s)
            continue
        tag = el.tag
        if event == "start":
            starts[el] = size
            gm = _GAIJI_REF.match(el.get("ref") or "") if tag == TEI + "g" else None
            if gm:
                if len(el) or len(el.text or "") != 1 or gm.group(1) not in chars:
                    t.bad_g.append(etree.tostring(el, encoding=str, with_tail=False))
                parts.append(f"&{gm.group(1)};")
                size += 8
                in_g += 1
            elif tag == TEI + "g" and len(el.text or "") == 1 and _stood_in(el.text):
                parts.append(_stood_in(el.text))          # a control character's stand-in
                size += 1
                in_g += 1
            elif el.text and not in_g:
                s = el.text.translate(_DROP)
                parts.append(s)
                size += len(s)
            if tag in (TEI + "pb", TEI + "lb"):
                t.order.append(tag[len(TEI):])
            if tag == TEI + "pb":
                t.pbs.append((size, el.get("ed"), el.get("n"), el.get("facs")))
            elif tag == TEI + "lb":
                t.lbs.append(size)
            continue
        start = starts.pop(el)
        if tag == TEI + "g" and (_GAIJI_REF.match(el.get("ref") or "") or
                                 (len(el.text or "") == 1 and _stood_in(el.text))):
            in_g -= 1
        elif tag == TEI + "note" and el.get("type") in ("yinyi", "shu", "zhu"):
            kind = el.get("type")
            if not any(a.get("type") == kind for a in el.iterancestors(TEI + "note")):
                t.notes[kind].append((start, size))
        elif tag == TEI + "label" and el.get("type") == "mark":
            t.marks.append((start, size))
        elif tag == TEI + "seg" and el.getparent().tag == TEI + "ab" and el.getparent().get("type") == "jing":
            t.segs.append((start, size, "".join(el.itertext())))
        if el.tail and not in_g:
            s = el.tail.translate(_DROP)
            parts.append(s)
            size += len(s)
    t.kept = "".join(parts)
    return t


def layer_text(tei: Tei, kind: str) -> tuple[str, list[tuple[int, int]]]:
    """A layer's text (its notes in document order, the printed markers inside them left out)
    and the kept spans it is made of."""
    marks = sorted(tei.marks)
    spans = []
    for a, b in tei.notes.get(kind, []):
        pos = a
        i = bisect.bisect_left(marks, (a, a))
        while i < len(marks) and marks[i][0] < b:
            ma, mb = marks[i]
            if ma > pos:
                spans.append((pos, ma))
            pos = max(pos, mb)
            i += 1
        if b > pos:
            spans.append((pos, b))
    return "".join(tei.kept[a:b] for a, b in spans), spans


# -- imglist ---------------------------------------------------------------------------------------
def imglist(root: pathlib.Path, path) -> tuple[dict, list[str]] | None:
    """page key (003-1a) → its image, or None where the list says `missing`; and the image
    bases of imginfo.cfg. None: the edition has no list for this file."""
    m = JUAN_FILE.match(pathlib.Path(path).name)
    d = root / "_data" / m.group(1) / "imglist"
    f = d / pathlib.Path(path).name
    if not f.is_file():
        return None
    pages = {}
    for row in f.read_text(encoding="utf-8").split("\n"):
        cols = row.split("\t")
        if len(cols) >= 3 and cols[1].strip():
            img = cols[2].strip()
            pages[cols[1].split()[-1]] = None if "missing" in img else img
    bases = []
    cfg = d / "imginfo.cfg"
    if cfg.is_file():
        bases = [v.strip() for k, _, v in (ln.partition("=") for ln in cfg.read_text(encoding="utf-8").split("\n"))
                 if v and not k.startswith(("#", "["))]
    return pages, bases


# -- the checks on one file --------------------------------------------------------------------------
def _context(s: str, i: int) -> str:
    """The text around character i, `|` before it."""
    return f"'{s[max(0, i - 8):i]}|{s[i:i + 16]}'"


def _first_difference(want: str, got: str) -> int:
    return next((k for k, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))


def _difference(raw: Raw, want: str, got: str, located: bool) -> str:
    i = _first_difference(want, got)
    where = locate(raw, i) if located else f"character {i}"
    def show(s):
        return f"{_context(s, i)}" + (f" (U+{ord(s[i]):04X})" if i < len(s) else " (its end)")
    return f"at {where} (character {i} of {len(want)}; the TEI has {len(got)}): file {show(want)}, TEI {show(got)}"


def check_lossless(raw: Raw, tei: Tei) -> tuple[tuple, tuple]:
    """(canonical, exact), each (ok, detail): the project's invariant compares canonically
    (NFC); the edition's own code points are the stricter check."""
    want, got = raw.kept, tei.kept
    if want == got:
        return (True, ""), (True, "")
    exact = _difference(raw, want, got, True)
    nw, ng = unicodedata.normalize("NFC", want), unicodedata.normalize("NFC", got)
    if nw != ng:
        return (False, _difference(raw, nw, ng, len(nw) == len(want))), (False, exact)
    changed = sorted({a for a, b in zip(want, got) if a != b})
    return (True, ""), (False, exact + f"; the same under NFC: {len(changed)} distinct characters changed ("
                        + ", ".join(f"U+{ord(c):04X}→U+{ord(unicodedata.normalize('NFC', c)):04X}"
                                    for c in changed[:6]) + ")")


def aligned(raw: Raw, tei: Tei) -> bool:
    """Do kept offsets mean the same place in both (so positions can be compared)?"""
    return raw.kept == tei.kept or (len(raw.kept) == len(tei.kept) and
                                    unicodedata.normalize("NFC", raw.kept) == unicodedata.normalize("NFC", tei.kept))


def check_pages(raw: Raw, tei: Tei, same: bool) -> tuple[bool, str]:
    if raw.bad_markers:
        return False, f"page markers not of the form <pb:ID_ED_JJJ-Ns>: {raw.bad_markers[:3]}"
    want = [(m.ed, m.n) for m in raw.pages]
    got = [(ed, n) for _, ed, n, _ in tei.pbs]
    if want != got:
        i = _first_difference(want, got)
        w = f"<pb:…{raw.pages[i].ed}…{raw.pages[i].n}> at line {raw.pages[i].line}" if i < len(want) else "no more"
        g = f"ed={got[i][0]!r} n={got[i][1]!r}" if i < len(got) else "no more <pb>"
        return False, f"{len(want)} page markers, {len(got)} <pb>; marker {i + 1}: file {w}, TEI {g}"
    if same:
        for m, (at, *_rest) in zip(raw.pages, tei.pbs):
            if m.at != at:
                return False, (f"<pb n={m.n!r}> (file line {m.line}) at character {at} of the text, the marker "
                               f"at {m.at}: TEI {_context(tei.kept, at)}, file {_context(raw.kept, m.at)}")
    return True, "" if same else "order and count only: the TEI is not lossless"


def check_facs(raw: Raw, tei: Tei, listed) -> tuple[bool, str]:
    """Each <pb>'s @facs names a <surface> whose graphic is the imglist's image of the page its
    @n gives (so a <pb> missing or too many is the pages check's, not this one's)."""
    pages, bases = listed if listed is not None else ({}, [])
    if tei.duplicate_surfaces:
        return False, (f"{len(tei.duplicate_surfaces)} <surface> xml:id written twice, first "
                       f"{tei.duplicate_surfaces[0]!r} (a page marker the file repeats needs one surface)")
    for _, ed, n, facs in tei.pbs:
        sid = facs[1:] if (facs or "").startswith("#") else None
        if sid is None or sid not in tei.surfaces:
            return False, f"<pb n={n!r}>: @facs {facs!r} names no <surface>"
        m = re.fullmatch(r"(\d+)-(\d+[ab])", n or "")
        if m is None:
            return False, f"<pb n={n!r}>: @n is not the leaf JJJ-Ns of a page marker"
        urls, img = tei.surfaces[sid], pages.get(f"{int(m.group(1)):03d}-{m.group(2)}")
        if img is None:
            if urls:
                return False, f"<pb n={n!r}>: graphic {urls} where the imglist lists no image"
        elif len(urls) != 1 or urls[0] not in [img] + [b + img for b in bases]:
            return False, f"<pb n={n!r}>: graphic {urls}, the imglist lists {img!r}"
    return True, "" if listed is not None else "no imglist for this file: no graphic expected"


def check_lines(raw: Raw, tei: Tei, same: bool) -> tuple[bool, str]:
    if len(raw.lbs) != len(tei.lbs):
        msg = f"{len(raw.lbs)} printed lines, {len(tei.lbs)} <lb>"
        if not same:
            return False, msg
        k = _first_difference(raw.lbs, tei.lbs)
        if k < len(tei.lbs) and (k >= len(raw.lbs) or tei.lbs[k] < raw.lbs[k]):
            at = tei.lbs[k]
            return False, (f"{msg}; the first <lb> with no printed line: after printed line {k} (at file "
                           f"{locate(raw, at)}), {_context(tei.kept, at)}")
        at = raw.lbs[k]
        return False, (f"{msg}; the first printed line with no <lb>: line {k + 1} (file {locate(raw, at)}), "
                       f"{_context(raw.kept, at)}")
    if same:
        for k, (a, b) in enumerate(zip(raw.lbs, tei.lbs)):
            if a != b:
                return False, (f"printed line {k + 1} (file {locate(raw, a)}) starts at character {a} of the "
                               f"text, its <lb> at {b}: file {_context(raw.kept, a)}, TEI {_context(tei.kept, b)}")
        if raw.order != tei.order and len(raw.pages) == len(tei.pbs):
            k = _first_difference(raw.order, tei.order)
            lines = raw.order[:k].count("lb")
            return False, (f"<pb> and <lb> out of the file's order after printed line {lines} "
                           f"(file {locate(raw, raw.lbs[lines - 1]) if lines else '1:1'}): the file has "
                           f"{' '.join(raw.order[k:k + 3])}, the TEI {' '.join(tei.order[k:k + 3])}")
    return True, "" if same else "count only: the TEI is not lossless"


def check_line_rule(raw: Raw) -> tuple[bool, str]:
    if len(raw.lbs) == raw.own_lines:
        return True, ""
    return False, f"the rule gives {len(raw.lbs)} printed lines, the file's own ¶ {raw.own_lines}"


def _compare_layer(raw: Raw, tei: Tei, furn: list[Furniture], kind: str, markers: tuple[str, ...],
                   optional: tuple[str, ...] = ()):
    """The layer's text against the text inside the edition's notes of these markers in the 卷's
    body (a 考證 quoting `注疏(空空/)` quotes, it does not mark), in order; a note of an
    `optional` marker may be in the layer or not. Compared in NFC: the code points are the
    lossless check's."""
    got = unicodedata.normalize("NFC", layer_text(tei, kind)[0])
    sections = [(f.start, f.end) for f in furn if f.kind == "考證"]
    notes = [nt for nt in raw.notes if nt.marker in markers + optional
             and not any(a <= nt.start < b for a, b in sections)]
    pos, taken = 0, 0
    for nt in notes:
        s = unicodedata.normalize("NFC", raw.kept[nt.start:nt.end])
        if nt.marker in optional:
            if s and got.startswith(s, pos):
                pos += len(s)
                taken += 1
            continue
        if not got.startswith(s, pos):
            i = _first_difference(s, got[pos:pos + len(s)])
            return False, (f"the {kind} layer differs at {locate(raw, nt.start + i)} (note at line {nt.line}): "
                           f"the edition's note has {_context(s, i)}, the layer {_context(got, pos + i)}")
        pos += len(s)
    if pos != len(got):
        return False, (f"the {kind} layer has text no {'/'.join(markers)}(…) note holds, after "
                       f"{pos} characters: {_context(got, pos)}")
    wanted = sum(1 for nt in notes if nt.marker in markers)
    return True, f"{wanted} notes" + (f", {taken} misprinted 注(…)/蔬(…) read as 疏" if taken else "")


def check_yinyi(raw: Raw, tei: Tei, furn: list[Furniture]):
    return _compare_layer(raw, tei, furn, "yinyi", ("yinyi",))


def check_shu(raw: Raw, tei: Tei, furn: list[Furniture]):
    return _compare_layer(raw, tei, furn, "shu", ("shu",), ("shu?",))


def check_zhu(raw: Raw, tei: Tei, furn: list[Furniture], same: bool) -> tuple[bool, str]:
    regions = zhu_regions(raw, furn)
    _, spans = layer_text(tei, "zhu")
    notes = [(a, b) for a, b in tei.notes.get("zhu", []) if b > a]
    if not same:
        texts = [raw.kept[a:b] for a, b in regions]
        for a, b in notes:
            s = tei.kept[a:b]
            if not any(s in t for t in texts):
                return False, f"a 注 not inside any 注 region of the file: {s[:30]!r} (positions unchecked: not lossless)"
        return True, "text only: the TEI is not lossless"
    starts = [a for a, _ in regions]
    covered = 0
    for a, b in notes:
        i = bisect.bisect_right(starts, a) - 1
        if i < 0 or b > regions[i][1]:
            if i >= 0 and a < regions[i][1]:
                where = f"the edition's 注 there ends at {locate(raw, regions[i][1])}"
            else:
                where = "the edition marks no 注 there"
            return False, f"a 注 at {locate(raw, a)}, {tei.kept[a:b][:24]!r}: {where}"
        covered += b - a
    total = sum(b - a for a, b in regions)
    return True, f"{len(notes)} 注, {covered}/{total} characters of the 注 regions"


_MARKUP_IN_TEXT = re.compile(r"[¶<>#&()/]|pb:|KR\d{4}|[A-Za-z0-9]")


def check_jing(raw: Raw, tei: Tei, furn: list[Furniture], same: bool) -> tuple[bool, str]:
    for a, b, text in tei.segs:
        m = _MARKUP_IN_TEXT.search(text)
        if m:
            return False, f"mandoku markup {m.group()!r} in the 經: {text[:40]!r}"
    if not same:
        texts = {f.text for f in furn if f.kind != "考證"}
        for a, b, text in tei.segs:
            t = text.translate(_DROP)
            if HEADER in t or t in texts:
                return False, f"furniture in the 經: {t[:40]!r} (by text: the TEI is not lossless)"
        return True, "text only: the TEI is not lossless"
    # furniture lines are disjoint and in order: the last one starting before a seg's end is the
    # only one that can overlap it; the 考證 sections are checked each
    lines = sorted((f.start, f.end, f) for f in furn if f.end > f.start and f.kind != "考證")
    starts = [s for s, _, _ in lines]
    sections = [f for f in furn if f.kind == "考證" and f.end > f.start]
    for a, b, text in tei.segs:
        i = bisect.bisect_left(starts, b) - 1
        hits = [lines[i][2]] if i >= 0 and lines[i][1] > a else []
        hits += [f for f in sections if f.start < b and f.end > a]
        if hits:
            f = hits[0]
            return False, (f"{f.kind} (line {f.line}, {f.text[:20]!r}) in the 經: seg at {locate(raw, a)} "
                           f"{tei.kept[a:b][:30]!r}")
    return True, f"{len(tei.segs)} 經 segs"


def judge(raw: Raw, tei: Tei, listed, zhushu: bool) -> dict:
    """The checks of a TEI against its file: {check: [ok, detail]}. `listed`: the file's
    imglist (imglist()); `zhushu`: a 四庫 注疏 卷, whose layers are checked too."""
    res: dict = {}
    canonical, exact = check_lossless(raw, tei)
    res["lossless"], res["code points"] = list(canonical), list(exact)
    if tei.bad_g:
        res["lossless"] = [False, f"{len(tei.bad_g)} <g> for a Kanripo character not holding one character "
                                  f"or naming no <char> of the header, first {tei.bad_g[0][:80]}"]
    same = aligned(raw, tei)
    res["pages"] = list(check_pages(raw, tei, same))
    res["facs"] = list(check_facs(raw, tei, listed))
    res["lines"] = list(check_lines(raw, tei, same))
    if zhushu:
        furn = furniture(raw)
        res["yinyi"] = list(check_yinyi(raw, tei, furn))
        res["shu"] = list(check_shu(raw, tei, furn))
        res["zhu"] = list(check_zhu(raw, tei, furn, same))
        res["jing"] = list(check_jing(raw, tei, furn, same))
    return res


def check_file(folder: str, src: str, out: str | None, root: str) -> dict:
    """Every check of one 卷 file: the line rule on the file alone, the rest on its TEI."""
    raw = read_raw(src)
    res = {"line rule": list(check_line_rule(raw)) if not folder.startswith("bare/") else
           [True, f"bare: the rule {len(raw.lbs)}, the file's own ¶ {raw.own_lines} (not printed lines)"]}
    if out is None or not os.path.exists(out):
        return res
    res.update(judge(raw, read_tei(out), imglist(pathlib.Path(root), src), is_zhushu_juan(folder, src)))
    res["tei_all"] = list(_tei_all(out))
    return res


_SCHEMA = None


def load_tei_all(compile_schema=None):
    """tei_all, compiled once (it takes 10–15 s): in the parent, while the conversions run in
    their own processes, so that the forked checking processes inherit it. `compile_schema`:
    where to get it instead (the test session's own copy)."""
    global _SCHEMA
    if _SCHEMA is None and TEI_ALL.exists():
        from lxml import etree
        _SCHEMA = compile_schema() if compile_schema else etree.RelaxNG(etree.parse(str(TEI_ALL)))
    return _SCHEMA


def _tei_all(path) -> tuple[bool | None, str]:
    if load_tei_all() is None:
        return None, "tei_all.rng not present"
    from lxml import etree
    try:
        doc = etree.parse(str(path), etree.XMLParser(huge_tree=True))
    except etree.XMLSyntaxError as e:
        return False, f"not well-formed: {e}"
    if _SCHEMA.validate(doc):
        return True, ""
    e = _SCHEMA.error_log.filter_from_errors()[0] if _SCHEMA.error_log.filter_from_errors() else _SCHEMA.error_log.last_error
    return False, f"line {e.line}: {e.message}"


def _check_job(job):
    folder, src, out, root = job
    try:
        return check_file(folder, src, out, root)
    except Exception as e:                            # a check that breaks is a failure to show
        return {"oracle": [False, f"{type(e).__name__}: {e}"]}


# -- the whole run -----------------------------------------------------------------------------------
@dataclass
class Run:
    files: dict = field(default_factory=dict)        # file id → result
    folders: dict = field(default_factory=dict)      # folder → summary
    seconds: dict = field(default_factory=dict)      # stage → seconds


def _problems(bad: list[dict]) -> str:
    """zhushu validate's problems in one line: how many, then each distinct one once."""
    distinct = list(dict.fromkeys(f"{i['rule']}: {i['message']}" for i in bad))
    return (f"{len(bad)} problems, {len(distinct)} distinct; first at line {bad[0]['line']}: "
            + " | ".join(distinct[:4]) + (" | …" if len(distinct) > 4 else ""))


def _children_cpu() -> float:
    """CPU seconds of the finished child processes and theirs (the conversion's workers): the
    rate per CPU second does not depend on what else the machine is doing."""
    import resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _cpu() -> float:
    """CPU seconds of this process and its finished children."""
    return time.process_time() + _children_cpu()


def _status(issues: list[dict]) -> int:
    levels = {i.get("level") for i in issues}
    return 2 if "fatal" in levels else 1 if "error" in levels else 0


def run(root=KANRIPO, out_dir=None, jobs: int = 2, folders=None, tei_all=None) -> Run:
    """Convert each folder (or those named), validate, and check every 卷 file. `tei_all`:
    a function giving the compiled schema, if the caller has one."""
    root = pathlib.Path(root)
    out_dir = pathlib.Path(out_dir or tempfile.mkdtemp(prefix="kanripo-check-"))
    listed = juan_files(root)
    names = [f for f in dict.fromkeys(f for f, _ in listed) if folders is None or f in folders]
    result = Run()
    t0, c0 = time.perf_counter(), _cpu()
    loading = threading.Thread(target=load_tei_all, args=(tei_all,))
    loading.start()
    outputs: dict[str, str | None] = {}
    for folder in names:
        members = [p for f, p in listed if f == folder]
        target = out_dir / folder
        report = out_dir / (folder.replace("/", "_") + ".json")
        start, cpu = time.perf_counter(), _children_cpu()
        p = subprocess.run(ZHUSHU_CLI + ["convert", str(root / folder), "-o", str(target), "-j", str(jobs),
                                         "-q", "--report", str(report)],
                           capture_output=True, cwd=ROOT, text=True)
        seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
        reports = {}
        if report.exists():
            for r in json.loads(report.read_text(encoding="utf-8"))["reports"]:
                reports[pathlib.Path(r["source"]).name] = r
        size = sum(m.stat().st_size for m in members)
        work_id = members[0].name.split("_")[0] if members else ""
        result.folders[folder] = {"rc": p.returncode, "stderr": p.stderr[-2000:], "seconds": seconds, "cpu": cpu,
                                  "bytes": size, "files": len(members),
                                  "work": str(target / f"{work_id}.xml") if (target / f"{work_id}.xml").exists() else None,
                                  "warnings": collections.Counter()}
        for m in members:
            fid = file_id(folder, m)
            r = reports.get(m.name)
            issues = r["issues"] if r else [{"level": "fatal", "code": "NO-REPORT", "message": "no report"}]
            out = target / (m.stem + ".xml")
            if not out.exists():
                found = list(target.rglob(m.stem + ".xml"))
                out = found[0] if found else None
            status = _status(issues)
            outputs[fid] = str(out) if out is not None and status != 2 else None
            first = next((i for i in issues if i["level"] in ("fatal", "error")), None)
            warnings = collections.Counter(i["code"] for i in issues if i["level"] == "warning")
            result.folders[folder]["warnings"].update(warnings)
            result.files[fid] = {"folder": folder, "source": str(m), "output": outputs[fid],
                                 "bytes": m.stat().st_size, "exit": status, "warnings": dict(warnings),
                                 "checks": {"exit": [status == 0, "" if first is None else
                                                     f"exit {status}: {first.get('code')}: {first.get('message')}"
                                                     + (f" (line {first.get('line')})" if first.get("line") else "")]}}
    result.seconds["convert"] = time.perf_counter() - t0

    t1 = time.perf_counter()
    tei_files = [o for o in outputs.values() if o] + [f["work"] for f in result.folders.values() if f["work"]]
    validity = {}
    for k in range(0, len(tei_files), 200):
        p = subprocess.run(ZHUSHU_CLI + ["validate", "-f", "json", "-j", str(jobs)] + tei_files[k:k + 200],
                           capture_output=True, cwd=ROOT, text=True)
        try:
            for f in json.loads(p.stdout)["files"]:
                validity[os.path.abspath(f["file"])] = f
        except (json.JSONDecodeError, KeyError):
            pass
    for fid, r in result.files.items():
        if r["output"] is None:
            continue
        v = validity.get(os.path.abspath(r["output"]))
        bad = [i for i in (v or {}).get("issues", []) if i["level"] in ("error", "fatal")]
        r["checks"]["validate"] = [v is not None and not bad, "no answer from zhushu validate" if v is None else
                                   "" if not bad else _problems(bad)]
        r["validate problems"] = sorted({f"{i['rule']}: {i['message']}" for i in bad})
    for folder, f in result.folders.items():
        v = validity.get(os.path.abspath(f["work"])) if f["work"] else None
        bad = [i for i in (v or {}).get("issues", []) if i["level"] in ("error", "fatal")]
        f["work_validate"] = [v is not None and not bad, "" if v is not None and not bad else
                              ("no work file" if not f["work"] else _problems(bad) if bad else "no answer")]
    result.seconds["validate"] = time.perf_counter() - t1

    loading.join()
    t2 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        # the biggest first, so that the processes end together
        order = sorted(result.files, key=lambda fid: -result.files[fid]["bytes"])
        futures = {fid: pool.submit(_check_job, (r["folder"], r["source"], r["output"], str(root)))
                   for fid in order for r in [result.files[fid]]}
        work_futures = {folder: pool.submit(_tei_all, f["work"])
                        for folder, f in result.folders.items() if f["work"]}
        for fid, fut in futures.items():
            result.files[fid]["checks"].update(fut.result())
        for folder, fut in work_futures.items():
            result.folders[folder]["work_tei_all"] = list(fut.result())
    result.seconds["checks"] = time.perf_counter() - t2
    result.seconds["total"] = time.perf_counter() - t0
    result.seconds["cpu"] = _cpu() - c0
    return result


# -- the report --------------------------------------------------------------------------------------
COLUMNS = ("exit", "lossless", "code points", "validate", "tei_all", "pages", "facs", "lines",
           "yinyi", "shu", "zhu", "jing")


LAYERS = ("yinyi", "shu", "zhu", "jing")


def table(result: Run) -> str:
    head = ["folder", "files", "exit 0/1/2"] + [c for c in COLUMNS if c != "exit"] + ["MB/s", "MB/CPU s"]
    rows = [head, ["---"] * len(head)]
    for folder, f in result.folders.items():
        files = [r for r in result.files.values() if r["folder"] == folder]
        codes = collections.Counter(r["exit"] for r in files)
        row = [folder, str(len(files)), f"{codes[0]}/{codes[1]}/{codes[2]}"]
        for c in COLUMNS[1:]:
            # the layer checks apply to the 注疏 卷 only; a file with no TEI fails every check
            asked = [r for r in files if c not in LAYERS or is_zhushu_juan(folder, r["source"])]
            passed = sum(1 for r in asked if r["checks"].get(c, [False])[0])
            row.append(f"{passed}/{len(asked)}" if asked else "—")
        row.append(f"{f['bytes'] / 1e6 / f['seconds']:.2f}")
        row.append(f"{f['bytes'] / 1e6 / f['cpu']:.2f}" if f["cpu"] else "—")
        rows.append(row)
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


def failures(result: Run, per_check: int = 3) -> str:
    """The first failing files of each check in each folder, with the concrete difference."""
    out = []
    for folder in result.folders:
        files = [(fid, r) for fid, r in result.files.items() if r["folder"] == folder]
        for c in ("exit",) + COLUMNS[1:] + ("line rule", "oracle"):
            bad = [(fid, r["checks"][c][1]) for fid, r in files if c in r["checks"] and r["checks"][c][0] is False]
            if bad:
                out.append(f"- {folder} {c}: {len(bad)} failing; " + "; ".join(
                    f"{fid}: {detail}" for fid, detail in bad[:per_check]))
    return "\n".join(out)


def warnings_table(result: Run) -> str:
    codes = sorted({c for f in result.folders.values() for c in f["warnings"]})
    rows = [["folder"] + codes, ["---"] * (len(codes) + 1)]
    for folder, f in result.folders.items():
        rows.append([folder] + [str(f["warnings"].get(c, 0)) for c in codes])
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


def validate_problems(result: Run, top: int = 25) -> str:
    """zhushu validate's distinct problems over the corpus, with how many files have each."""
    c = collections.Counter(p for r in result.files.values() for p in r.get("validate problems", []))
    return "\n".join(f"- {n} files: {p}" for p, n in c.most_common(top)) + (
        f"\n- … {len(c) - top} more" if len(c) > top else "")


def works_table(result: Run) -> str:
    rows = [["folder", "convert rc", "work file", "zhushu validate", "tei_all"], ["---"] * 5]
    for folder, f in result.folders.items():
        wv, wt = f.get("work_validate", [False, ""]), f.get("work_tei_all", [None, ""])
        rows.append([folder, str(f["rc"]), "yes" if f["work"] else "no",
                     "ok" if wv[0] else f"no ({wv[1][:60]})", "ok" if wt[0] else f"no ({wt[1][:60]})"])
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=str(KANRIPO), help="the kanripo folder (default ../shared/kanripo)")
    ap.add_argument("--out", help="where the TEI goes (default: a temporary directory)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--folder", action="append", help="only this folder (WYG/KR1d0053); repeatable")
    ap.add_argument("--json", help="also write every file's results here")
    args = ap.parse_args(argv)
    if not pathlib.Path(args.root).is_dir():
        print(f"no kanripo folder at {args.root}", file=sys.stderr)
        return 2
    result = run(args.root, args.out, args.jobs, args.folder)
    s = result.seconds
    print(f"{len(result.files)} 卷 files, {sum(f['bytes'] for f in result.folders.values()) / 1e6:.1f} MB; "
          f"convert {s['convert']:.0f} s, validate {s['validate']:.0f} s, checks {s['checks']:.0f} s, "
          f"total {s['total']:.0f} s ({args.jobs} processes), {s['cpu']:.0f} CPU s\n")
    print(table(result), "\n")
    print("Failures (first files of each):\n" + (failures(result) or "none"), "\n")
    print("Warnings per code:\n" + warnings_table(result), "\n")
    print("zhushu validate, distinct problems:\n" + (validate_problems(result) or "none"), "\n")
    print("Work files:\n" + works_table(result))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps({"files": result.files, "folders": result.folders,
                                                       "seconds": result.seconds}, ensure_ascii=False,
                                                      indent=1, default=dict), encoding="utf-8")
    ok = all(v[0] is not False for r in result.files.values() for v in r["checks"].values())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
