"""Issue 14's measure: the 經 and 注 the 四庫 注疏 reader recovers, against the other editions.

    python bench/score.py [--works KR1d0053 ...] [--tei DIR] [--per-juan] [--json PATH]

For each 四庫 注疏 work in ../shared/kanripo (WYG/KR1d0003 周禮注疏, WYG/KR1d0028 儀禮注疏,
WYG/KR1d0053 禮記註疏, master/KR1d0053) its 卷 are converted with `zhushu convert` (or read
from --tei DIR), and scored for the work and for each 卷 against the SBCK edition (經 and 注)
and the bare edition (經). Prints a table, and writes bench/out/score.json.

Definitions (tests/test_score.py proves the arithmetic on small synthetic texts):

* Characters. Only characters of the text are scored: Han ideographs (all blocks), private-use
  characters, the gaiji of Kanripo's table (`&KR0123;` in a file and `<g ref="#KR0123">` in the
  TEI are one and the same character) and the placeholders □ ■. Punctuation, section numbers,
  spaces and the marks ○ 〇 ◍ ◛ are dropped from every text alike. Characters are compared as
  they are: a variant (曽/曾) is a different character, so it costs the score and the ceiling.
* The 卷 of a work: its files `_NNN` from 001 on that print a 卷 head title (so not the front
  matter `_000` nor the 跋語 files 0003_043 and 0053_064). A 卷 whose TEI is missing (conversion
  failed, or --tei DIR holds none whose recorded sha256 is the file's) scores nothing.
* Our text (per 卷, from the TEI): in document order, the characters of every `seg` child (with
  no @type) of `ab[@type='jing']` are 經 and those of every `note[@type='zhu']` child are 注.
  Nothing else is scored: the 音義 notes, the markers (`label[@type='mark']`), the 疏 notes,
  headings, furniture and the 考證 are not part of this stream.
* The references, read here from the mandoku files with regular expressions (not with the
  pipeline): SBCK — full-size text is 經, a small note (continued over lines: one note) up to
  its first ○/〇 is 注 and the rest 音義 (dropped); in 纂圖互註禮記 (KR1d0054) a note's 注 also
  ends at 重言/重意/互註, and a full-size 互註 and the note after it are a cross-reference
  (dropped); 卷 and 篇 titles (`…卷第N`, `X第N` at a line's start, indented lines, 鄭氏註), the
  rest of their line and their notes are dropped. bare — every character is 經, less `#` lines,
  `** N` headings, section numbers and punctuation.
* Alignment (`align`): our stream of the whole work (its 卷 in file order) against the
  reference's (its files in order). Anchors are the n-grams (NGRAM characters, within one 卷)
  that occur exactly once in each text. For each 卷 separately the longest chain of its anchors
  increasing in both texts is kept (so a 卷 found elsewhere in the reference, a transposed one,
  still aligns), less the chain's end pieces of fewer than MIN_PIECE anchors cut off by a jump of
  more than JUMP characters between the two texts' offsets (chance matches far away); where two
  卷's chains claim the same stretch of the reference, the shorter chain gives way. The gaps
  between consecutive anchors are aligned with difflib; so is the stretch of the reference
  between one chain's end and the next chain's start (in reference order) against the 卷 tail
  and head around it — when that stretch is much longer than those (a withheld 卷 lies there),
  only its ends are, and the matches stop where the reference runs on over twice as far as our
  text. A pair of the alignment is a *match* only where the two characters are identical.
  Linear but for the gaps; a few seconds of CPU per work and reference.
* True positive: a character of our 經 matched to a character of the reference's 經 (so for 注).
  Precision = TP / our 經 characters in the 卷; recall = TP / reference 經 characters of the
  卷's region; F1 = 2PR/(P+R). The work's figures add up the 卷's counts.
* A 卷's region of the reference: the reference characters matched to it, and each unmatched
  run of reference characters lying between two characters matched to that 卷. An unmatched run
  between two different 卷 is split in half between them when it is at most EDGE_RUN characters
  long, and otherwise belongs to no 卷 (it is a withheld 卷, or text missing at a file edge): it
  is counted, not scored, and listed in the JSON (`unassigned`).
* Passages the reference lacks (against SBCK: a page missing from its scan, `# page missing`):
  a run of at least LACUNA characters of the 四庫 text with no reference character in its place
  (at most one in ten paired) is scored neither in the ceiling nor in ours (`left_out`). Against
  the bare edition, which has no 注, nothing is left out.
* Ceiling (`oracle`), the one the ratios use, per work and per 卷: our own reading of the 四庫
  file (`read_siku`: the full-size body text less the small notes, the markers 注 音義 疏, the
  titles, the furniture and the 考證, labelled by the markers alone), aligned to the reference
  like ours and labelled by the best reader: a matched character gets its reference character's
  label; an unmatched one 經 where the markers say 經 (after a note, before the next 注: no
  reader can miss it), else the label of the reference character in its place in the gap, else
  that of the last matched character between the same markers, else 注 (against the bare text:
  "not 經"). Its F1 is the best a reader can do with these editions' variants and this
  alignment (a reader labelling unmatched variants otherwise can pass it by a few thousandths).
  The other kind, the references against each other (SBCK 經 against bare 經, whole works, for
  周禮 and 禮記), is reported beside it. The JSON also gives the markers-only reading's scores
  (`markers_only`): what a reader gets that cuts 注 from 經 only at markers.
* Targets (issue 14): 經 F1 ≥ JING_TARGET × ceiling, 注 F1 ≥ ZHU_TARGET × ceiling, for the work
  and for ≥ JUAN_SHARE of its 卷, against every reference (the table's "met"); ≥ SHU_TARGET of
  the 疏 anchored by a quote whose span's text matches it (the JSON's `shu.meets`).
* 疏 anchored by a quote: a 疏 note (`note[@type='shu']`, not a sub-lemma nor a quoted 疏) whose
  `shu-target` boundary in the conversion report has a method in QUOTE_METHODS (`position` is
  not one). The boundary belongs to the 疏 note whose printed extent (source line:col, worked out
  from the TEI's `lb`, one per printed line) holds it. Its quotes: its 出文 label's (`X至Y`),
  else the quoted text of the boundary's note, else the `mentioned` quotes of its sub-lemmas
  that point into the layer of its span. It *matches* if the text of its span (@target to
  @targetEnd, in that layer) begins with the first quote and ends with the last (one quote: is
  it), each within len(quote) // TOLERANCE_PER differing characters (edit distance). Sub-lemmas
  are checked the same way against their own span (`sublemmas_matching`).
"""
from __future__ import annotations

import argparse
import bisect
import difflib
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KANRIPO = os.path.join(os.path.dirname(ROOT), "shared", "kanripo")

# -- parameters ---------------------------------------------------------------------------------
QUOTE_METHODS = ("lemma", "quote")      # boundary methods that anchor a 疏 by a quote; add new ones here
NGRAM = 8                               # anchor length
MIN_PIECE = 5                           # fewest anchors an end piece of a chain must have to stay
JUMP = 1000                             # a change of offset between the texts that cuts a chain
EDGE_RUN = 200                          # longest unmatched run between two 卷 that is split between them
EDGE_SLACK = 100                        # reference characters looked at beyond a 卷's edge, besides 2×
LACUNA = 20                             # shortest passage of ours the reference lacks that is left out
TOLERANCE_PER = 10                      # a quote may differ by one character per this many
JING_TARGET, ZHU_TARGET, JUAN_SHARE = 0.95, 0.93, 0.95
SHU_TARGET = 0.98                       # share of 疏 anchored by a quote whose span's text matches it

JING, ZHU, OTHER = "J", "Z", "-"

# (folder, title, [(reference kind, folder)])
WORKS = {
    "WYG/KR1d0003": ("周禮注疏", [("SBCK", "SBCK/KR1d0002"), ("bare", "bare/KR1d0001")]),
    "WYG/KR1d0028": ("儀禮注疏", [("SBCK", "SBCK/KR1d0026")]),
    "WYG/KR1d0053": ("禮記註疏", [("SBCK", "SBCK/KR1d0054"), ("bare", "bare/KR1d0052")]),
    "master/KR1d0053": ("禮記註疏", [("SBCK", "SBCK/KR1d0054"), ("bare", "bare/KR1d0052")]),
}

# -- characters ---------------------------------------------------------------------------------
_GAIJI = re.compile(r"&KR(\d{4});")
_UNSCORED = re.compile("[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ue000-\uf8ff"
                       "\U00020000-\U000323af\U0002f800-\U0002fa1f\U000f0000-\U0010ffff□■]")


def gaiji(number: int) -> str:
    """A Kanripo gaiji as one character (plane 15's private use area: no text uses it here)."""
    return chr(0xF0000 + number)


def scored(text: str) -> str:
    """The characters of `text` that are scored (gaiji references already made characters)."""
    return _UNSCORED.sub("", text)


def chars(text: str) -> str:
    """Mandoku text → the scored characters."""
    return scored(_GAIJI.sub(lambda m: gaiji(int(m.group(1))), text))


@dataclass
class Stream:
    """A text as characters with a label each (J 經, Z 注, - other), cut into named parts."""
    chars: str = ""
    labels: str = ""
    parts: list = field(default_factory=list)          # [(name, start, end)]
    pieces: list = field(default_factory=list)         # [(label, start, end)] as added
    cache: dict = field(default_factory=dict, repr=False)

    def add(self, name: str, pieces) -> None:
        start = n = len(self.chars)
        cs, ls = [self.chars], [self.labels]
        for label, text in pieces:
            t = scored(text)
            cs.append(t)
            ls.append(label * len(t))
            self.pieces.append((label, n, n + len(t)))
            n += len(t)
        self.chars, self.labels = "".join(cs), "".join(ls)
        self.parts.append((name, start, len(self.chars)))
        self.cache.clear()


# -- mandoku files, read here on their own --------------------------------------------------------
_PB = re.compile(r"<pb:[^>]*>")
_NOTE = re.compile(r"\(([^()]*)\)")


def text_lines(path: str) -> list[tuple[int, str]]:
    """(line number, raw line) of the printed lines: not `#`, not a page marker's own line."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f.read().split("\n"), 1):
            if line.startswith("#"):
                continue
            rest = _PB.sub("", line)
            if not rest or (rest == "¶" and rest != line):
                continue
            out.append((n, line))
    return out


@dataclass
class Run:
    kind: str          # "big" (full-size) or "note"
    text: str
    line: int
    first: bool        # begins its line
    indented: bool     # its line is indented


def runs(path: str) -> list[Run]:
    """Full-size runs and small notes in order; a note continued on the next line (a line whose
    first character is `(` after one that ended with `)`) is one note."""
    out: list[Run] = []
    ended_note = False
    for n, raw in text_lines(path):
        line = _PB.sub("", raw).replace("¶", "")
        body = line.lstrip("\u3000")
        indented = body != line
        pos, first = 0, True
        for m in _NOTE.finditer(body):
            if m.start() > pos:
                out.append(Run("big", body[pos:m.start()], n, first, indented))
                first = False
            if first and ended_note and out and out[-1].kind == "note":
                out[-1].text += m.group(1)
            else:
                out.append(Run("note", m.group(1), n, first, indented))
            first = False
            pos = m.end()
        if pos < len(body):
            out.append(Run("big", body[pos:], n, first, indented))
        ended_note = body.endswith(")")
    return out


_SB_TITLE = re.compile(r"^(?:[纂簒][圖圗]互註禮記|周禮|儀禮)[卷巻]?[第之]"
                       r"[〇一二三四五六七八九十百]+$")
_SB_PIAN = re.compile(r"^\S{1,8}?第[一二三四五六七八九十]{1,3}$")
_SB_RESP = re.compile(r"鄭氏[註注]")
_SB_XREF = ("重言", "重意", "互註")


def read_sbck(path: str, xref: bool) -> list[tuple[str, str]]:
    """An SBCK file as (label, text) pieces: 經 full-size, 注 the notes before ○/〇 (and, with
    `xref`, before 重言/重意/互註); titles, their notes and the 鄭氏註 lines dropped."""
    pieces: list[tuple[str, str]] = []
    furniture_line, skip_note = -1, False
    for r in runs(path):
        if r.kind == "big":
            head = r.text.split("\u3000")[0]
            if (r.indented or _SB_TITLE.match(r.text) or _SB_RESP.search(r.text)
                    or (r.first and _SB_PIAN.match(head))):
                furniture_line = r.line                 # the rest of its line is furniture too
                continue
            if r.line == furniture_line:
                continue
            text = r.text
            if xref and text.endswith("互註"):           # a cross-reference, and so is its note
                text, skip_note = text[:-2], True
            pieces.append((JING, text))
            continue
        if r.line == furniture_line or skip_note:       # a title's note (continued ones merged)
            skip_note = False
            continue
        zhu = re.split("[○〇]", r.text, maxsplit=1)[0]
        if xref:
            zhu = re.split("|".join(_SB_XREF), zhu, maxsplit=1)[0]
        pieces.append((ZHU, zhu))
    return pieces


_BARE_HEAD = re.compile(r"^\*+ ")
_BARE_SECTION = re.compile(r"^\d+(?:\.\d+)+\.?")


def read_bare(path: str) -> list[tuple[str, str]]:
    """A bare edition's file: all 經, less headings and section numbers (punctuation is not
    scored anyway)."""
    out = []
    for _, raw in text_lines(path):
        line = _PB.sub("", raw)
        if _BARE_HEAD.match(line):
            continue
        out.append((JING, _BARE_SECTION.sub("", line)))
    return out


_SK_KAOZHENG = re.compile(r"考[證蹬]$")
_SK_HEAD = re.compile(r"[注註][疏䟽][卷巻]|鄭氏")
_SK_MARKERS = re.compile(r"(?:音義|疏|䟽|蔬|注)(?=\()")


_SK_TOKEN = re.compile(r"\([^()]*\)|注|○|[^()注○]+")


def read_siku(path: str) -> list[tuple[str, str]]:
    """Our own reading of a 四庫 注疏 卷 file: the full-size body text, less the small notes, the
    markers 注 音義 疏, titles, furniture and the 考證, labelled by the markers alone (注 after a
    注, 經 after a note or a ○): as (label, text) pieces, each piece one stretch between two
    markers. The oracle labels these characters; the marker labels are what every reader sees."""
    body, mode, kz = [], "body", ""
    for _, raw in text_lines(path):
        line = _PB.sub("", raw).replace("¶", "")
        s = line.lstrip("\u3000")
        if not s:
            continue
        indented = s != line
        if indented and _SK_KAOZHENG.search(s) and len(s) < 24:
            # 考證 head … the same line as tail; then nothing until the next 卷's first leaf
            mode, kz = ("after", "") if mode == "kz" and s == kz else ("kz", s)
            continue
        if s.startswith("欽定四庫全書"):
            mode = "body"
            continue
        if mode != "body":
            continue
        if indented:
            full = _NOTE.sub("", _SK_MARKERS.sub("", s))
            if _SK_HEAD.search(s) or len(chars(full)) <= 10:
                continue                          # 卷 head/tail, commentators, 篇 title
        body.append(s)
    pieces, label = [], JING
    for m in _SK_TOKEN.finditer(_SK_MARKERS.sub("", "".join(body))):
        t = m.group()
        if t == "注":
            label = ZHU
        elif t == "○" or t.startswith("("):
            label = JING
        else:
            pieces.append((label, chars(t)))
    return pieces


# -- the TEI --------------------------------------------------------------------------------------
TEI = "{http://www.tei-c.org/ns/1.0}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


@dataclass
class Shu:
    id: str
    subtype: str | None
    target: str | None
    target_end: str | None
    chuwen: str = ""
    mentions: list = field(default_factory=list)       # the texts of its <mentioned>
    subs: list = field(default_factory=list)           # sub-lemma Shu
    start: tuple | None = None                         # (lb index, TEI column) of its first character
    end: tuple | None = None                           # … and of its last


@dataclass
class TeiJuan:
    pieces: list = field(default_factory=list)         # [(label, text)]: 經 and 注, scored characters only
    ids: dict = field(default_factory=dict)            # xml:id → (layer, start, end) in the layer
    layer_text: dict = field(default_factory=dict)     # layer → its characters
    shu: list = field(default_factory=list)
    lines: list = field(default_factory=list)          # TEI characters of each printed line


def _char_of(el) -> str:
    ref = el.get("ref") or ""
    m = re.fullmatch(r"#KR(\d{4})", ref)
    return gaiji(int(m.group(1))) if m else (el.text or "")


def read_tei(path: str) -> TeiJuan:
    from lxml import etree
    root = etree.parse(path).getroot()
    j = TeiJuan()
    layers = {JING: [], ZHU: []}
    line: list[str] = []
    j.lines.append(line)                               # what precedes the first lb
    state = {"line": line}

    def emit(text: str, layer: str | None, shus: list) -> None:
        for ch in text:
            if ch in " \t\n\r":
                continue
            ln = state["line"]
            pos = (len(j.lines) - 1, len(ln))
            for s in shus:
                if s.start is None:
                    s.start = pos
                s.end = pos
            ln.append(ch)
            if layer and not _UNSCORED.match(ch):
                layers[layer].append(ch)
                if j.pieces and j.pieces[-1][0] == layer:
                    j.pieces[-1][1].append(ch)
                else:
                    j.pieces.append((layer, [ch]))

    def visit(el, layer: str | None, shus: list) -> None:
        tag = el.tag[len(TEI):] if isinstance(el.tag, str) and el.tag.startswith(TEI) else None
        if tag is None:                                # comments, processing instructions
            return
        if tag == "lb":
            state["line"] = []
            j.lines.append(state["line"])
            return
        if tag == "g":
            emit(_char_of(el), layer, shus)
            return
        xid = el.get(XML_ID)
        if tag == "anchor":
            if xid and layer:
                n = len(layers[layer])
                j.ids[xid] = (layer, n, n)
            return
        parent = el.getparent()
        piece = parent is not None and parent.tag == TEI + "ab" and parent.get("type") == "jing"
        inner = layer
        if tag == "note":
            kind = el.get("type")
            if kind == "shu" and el.get("subtype") != "quoted":
                s = Shu(xid or "", el.get("subtype"), (el.get("target") or "")[1:] or None,
                        (el.get("targetEnd") or "")[1:] or None)
                if shus and s.subtype == "sublemma":
                    shus[-1].subs.append(s)
                else:
                    j.shu.append(s)
                shus = shus + [s]
            inner = ZHU if kind == "zhu" and piece else None
        elif tag == "seg" and piece:
            inner = JING if not el.get("type") else None
        elif tag == "label" and el.get("type") == "chuwen" and shus:
            shus[-1].chuwen = "".join(el.itertext())
        elif tag == "mentioned" and shus:
            shus[-1].mentions.append("".join(el.itertext()))
        start = len(layers[inner]) if inner else 0
        if el.text:
            emit(el.text, inner, shus)
        for ch in el:
            visit(ch, inner, shus)
            if ch.tail:
                emit(ch.tail, inner, shus)
        if xid and inner:
            j.ids[xid] = (inner, start, len(layers[inner]))

    text = root.find(TEI + "text")
    if text is not None:
        visit(text, None, [])
    j.layer_text = {k: "".join(v) for k, v in layers.items()}
    j.pieces = [(label, "".join(cs)) for label, cs in j.pieces]
    return j


def span_text(j: TeiJuan, target: str | None, target_end: str | None) -> tuple[str | None, str]:
    """(layer, text) from the start of @target to the end of @targetEnd (or of @target)."""
    if not target or target not in j.ids:
        return None, ""
    layer, a, b = j.ids[target]
    if target_end and target_end in j.ids and j.ids[target_end][0] == layer:
        b = j.ids[target_end][2]
    return layer, j.layer_text[layer][a:max(a, b)]


# -- alignment ------------------------------------------------------------------------------------
@dataclass
class Alignment:
    ma: list              # for each character of a: its match in b, or -1
    mb: list              # for each character of b: its match in a, or -1
    pair_b: list          # for each character of a: the b character it is paired with (match or
                          #  the same place in an unmatched gap), or -1
    owner: list           # for each character of b: the part of a it belongs to, or -1
    unassigned: list      # [(b start, b end, part before, part after)] runs left out


def _lis(js: list[int]) -> list[int]:
    """Indices of a longest strictly increasing subsequence of js."""
    tails, tails_i, prev = [], [], [-1] * len(js)
    for k, v in enumerate(js):
        p = bisect.bisect_left(tails, v)
        if p == len(tails):
            tails.append(v)
            tails_i.append(k)
        else:
            tails[p], tails_i[p] = v, k
        prev[k] = tails_i[p - 1] if p else -1
    out, k = [], tails_i[-1] if tails_i else -1
    while k >= 0:
        out.append(k)
        k = prev[k]
    return out[::-1]


def _chain(anchors: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest chain increasing in both texts, less chance end pieces."""
    anchors.sort()
    chain = [anchors[k] for k in _lis([j for _, j in anchors])]
    while True:
        cuts = [k for k in range(1, len(chain))
                if abs((chain[k][1] - chain[k][0]) - (chain[k - 1][1] - chain[k - 1][0])) > JUMP]
        if not cuts:
            return chain
        if cuts[0] < MIN_PIECE and cuts[0] <= len(chain) - cuts[-1]:
            chain = chain[cuts[0]:]
        elif len(chain) - cuts[-1] < MIN_PIECE:
            chain = chain[:cuts[-1]]
        else:
            return chain


def _clear(chain: list, claimed: list) -> list:
    """A chain less what falls on stretches other chains have claimed, nor straddling one: of
    the two sides of a claimed stretch it spans, the side with more anchors stays."""
    merged: list[list[int]] = []
    for lo, hi in sorted(claimed):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    los = [m[0] for m in merged]

    def free(j: int) -> bool:
        k = bisect.bisect_right(los, j) - 1
        return k < 0 or j > merged[k][1]
    c = [(i, j) for i, j in chain if free(j)]
    c = (_chain(c) if len(c) < len(chain) else c) if c else []
    for lo, hi in merged:
        if c and c[0][1] < lo and c[-1][1] > hi:
            left = [x for x in c if x[1] < lo]
            right = [x for x in c if x[1] > hi]
            c = left if len(left) >= len(right) else right
    return c


def _match(x: str, y: str) -> list[tuple[int, int, int]]:
    if not x or not y:
        return []
    return [m for m in difflib.SequenceMatcher(None, x, y, autojunk=False).get_matching_blocks() if m[2]]


def _part_of(a: Stream) -> list[int]:
    part_of = [0] * len(a.chars)
    for k, (_, s, e) in enumerate(a.parts):
        part_of[s:e] = [k] * (e - s)
    return part_of


def _grams(s: Stream, n: int, within_parts: bool) -> dict[str, int]:
    """Each n-gram of a text → where it occurs, or -1 where it occurs more than once (kept
    with the stream: a reference is aligned with several texts)."""
    key = (n, within_parts)
    if key not in s.cache:
        seen: dict[str, int] = {}
        t = s.chars
        spans = [(a, e) for _, a, e in s.parts] if within_parts else [(0, len(t))]
        for a, e in spans:
            for i in range(a, e - n + 1):
                g = t[i:i + n]
                seen[g] = -1 if g in seen else i
        s.cache[key] = seen
    return s.cache[key]


def align(a: Stream, b: Stream, n: int = NGRAM) -> Alignment:
    A, B = a.chars, b.chars
    part_of = _part_of(a)
    seen_a, seen_b = _grams(a, n, True), _grams(b, n, False)
    per_part: dict[int, list] = {}
    for g, i in seen_a.items():
        if i >= 0:
            j = seen_b.get(g, -1)
            if j >= 0:
                per_part.setdefault(part_of[i], []).append((i, j))
    chains = {k: _chain(v) for k, v in per_part.items()}
    # two chains over the same stretch of b: the shorter gives way
    claimed: list[tuple[int, int]] = []
    for k in sorted(chains, key=lambda k: -len(chains[k])):
        c = chains[k]
        if claimed:
            c = _clear(c, claimed)
        chains[k] = c
        if c:
            claimed.append((c[0][1], c[-1][1] + n))
    ma, mb = [-1] * len(A), [-1] * len(B)

    def put(xs: list[int], ys: list[int], edge: str = "") -> None:
        """Match the characters at xs (positions in A) to those at ys (in B) with difflib. At
        an edge ("tail": going on from a chain's end; "head": leading up to its start) the
        matches stop where the reference runs on much further than our text: chance matches
        in text we do not have (a withheld 卷)."""
        xs, ys = [i for i in xs if ma[i] < 0], [j for j in ys if mb[j] < 0]
        x, y = "".join(A[i] for i in xs), "".join(B[j] for j in ys)
        blocks = _match(x, y)
        if edge:
            kept, pa, pb = [], 0, 0
            if edge == "head":
                blocks = [(len(x) - p - size, len(y) - q - size, size) for p, q, size in reversed(blocks)]
            for p, q, size in blocks:
                if q - pb > 2 * (p - pa) + 10:
                    break
                kept.append((p, q, size))
                pa, pb = p + size, q + size
            if edge == "head":
                kept = [(len(x) - p - size, len(y) - q - size, size) for p, q, size in kept]
            blocks = kept
        for p, q, size in blocks:
            for t in range(size):
                ma[xs[p + t]], mb[ys[q + t]] = ys[q + t], xs[p + t]

    spans = {}                                         # part → (first i, first j, end i, end j)
    for k, c in chains.items():
        if not c:
            continue
        ei = ej = -1
        for i, j in c:
            if ei < 0:
                spans[k] = (i, j)
            elif i - j == ei - ej and i <= ei:
                pass                                    # the block goes on along its diagonal
            elif i < ei or j < ej:
                continue                                # overlaps what is matched already
            else:
                put(list(range(ei, i)), list(range(ej, j)))
            for t in range(max(i, ei), i + n):
                ma[t], mb[t - i + j] = t - i + j, t
            ei, ej = i + n, j + n
        spans[k] = spans[k] + (ei, ej)
    # the edges of the chains, in the reference's order: the tail of one 卷 and the head of the
    # next, against what lies between them in the reference
    order = sorted(spans, key=lambda k: spans[k][1])
    for idx in range(len(order) + 1):
        k1 = order[idx - 1] if idx else None
        k2 = order[idx] if idx < len(order) else None
        tail = list(range(spans[k1][2], a.parts[k1][2])) if k1 is not None else []
        head = list(range(a.parts[k2][1], spans[k2][0])) if k2 is not None else []
        g0 = spans[k1][3] if k1 is not None else 0
        g1 = spans[k2][1] if k2 is not None else len(B)
        gap = list(range(g0, max(g0, g1)))
        if k1 is not None and k2 is not None and len(gap) <= 2 * (len(tail) + len(head)) + EDGE_SLACK:
            put(tail + head, gap)
            continue
        wt = min(len(gap), 2 * len(tail) + EDGE_SLACK) if tail else 0
        wh = min(len(gap) - wt, 2 * len(head) + EDGE_SLACK) if head else 0
        if tail:
            put(tail, gap[:wt], "tail")
        if head:
            put(head, gap[len(gap) - wh:], "head")
    return _finish(a, B, ma, mb, part_of)


def _finish(a: Stream, B: str, ma: list, mb: list, part_of: list) -> Alignment:
    """Who owns each reference character, and the pairing of the unmatched characters."""
    owner = [part_of[i] if i >= 0 else -1 for i in mb]
    unassigned = []
    matched = [j for j, i in enumerate(mb) if i >= 0]
    bounds = [-1] + matched + [len(B)]
    for x, y in zip(bounds, bounds[1:]):
        if y - x <= 1:
            continue
        k1 = owner[x] if x >= 0 else -1
        k2 = owner[y] if y < len(B) else -1
        run = range(x + 1, y)
        if k1 == k2 and k1 >= 0:
            for j in run:
                owner[j] = k1
        elif len(run) <= EDGE_RUN and (k1 >= 0 or k2 >= 0):
            if k1 >= 0 and k2 >= 0:
                half = x + 1 + len(run) // 2
                for j in run:
                    owner[j] = k1 if j < half else k2
            else:
                for j in run:
                    owner[j] = max(k1, k2)
        else:
            unassigned.append((x + 1, y, k1, k2))
    pair_b = list(ma)
    al = Alignment(ma, mb, pair_b, owner, unassigned)
    for xs, ys in gaps(a, al):
        for i, j in zip(xs, ys):
            pair_b[i] = j
    return al


def gaps(a: Stream, al: Alignment):
    """The unmatched characters of a, gap by gap, each with the unmatched reference characters
    in the same place: between two matches of a part in order, and before a part's first match
    (counted back from it) and after its last, within the reference characters the part owns.
    Yields (a positions, b positions), both in text order."""
    ma, mb, owner, nb = al.ma, al.mb, al.owner, len(al.mb)
    for k, (_, s, e) in enumerate(a.parts):
        hits = [i for i in range(s, e) if ma[i] >= 0]
        if not hits:
            yield list(range(s, e)), []
            continue
        before, j = [], ma[hits[0]] - 1
        while j >= 0 and mb[j] < 0 and owner[j] == k and len(before) < hits[0] - s:
            before.append(j)
            j -= 1
        yield list(range(hits[0] - len(before), hits[0])), before[::-1]
        if hits[0] - len(before) > s:          # what is left before them has no partner
            yield list(range(s, hits[0] - len(before))), []
        for i0, i1 in zip(hits, hits[1:]):
            if i1 - i0 > 1:
                ys = [j for j in range(ma[i0] + 1, ma[i1]) if mb[j] < 0] if ma[i1] > ma[i0] else []
                yield list(range(i0 + 1, i1)), ys
        after, j = [], ma[hits[-1]] + 1
        while j < nb and mb[j] < 0 and owner[j] == k and len(after) < e - 1 - hits[-1]:
            after.append(j)
            j += 1
        yield list(range(hits[-1] + 1, e)), after


# -- scores ----------------------------------------------------------------------------------------
@dataclass
class Counts:
    tp: int = 0
    pred: int = 0
    ref: int = 0

    def __iadd__(self, o: "Counts") -> "Counts":
        self.tp, self.pred, self.ref = self.tp + o.tp, self.pred + o.pred, self.ref + o.ref
        return self

    def f1(self) -> float | None:
        if not self.ref and not self.pred:
            return None
        p = self.tp / self.pred if self.pred else 0.0
        r = self.tp / self.ref if self.ref else 0.0
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict:
        p = self.tp / self.pred if self.pred else None
        r = self.tp / self.ref if self.ref else None
        return {"tp": self.tp, "ours": self.pred, "reference": self.ref,
                "precision": _r(p), "recall": _r(r), "f1": _r(self.f1())}


def _r(x):
    return None if x is None else round(x, 4)


def lacunae(a: Stream, al: Alignment) -> list[bool]:
    """The characters of a in passages the reference lacks: runs of at least LACUNA unmatched
    characters of one part of which at most a tenth have a reference character in their place
    (a page missing from the reference's scan, typically)."""
    out = [False] * len(a.chars)
    for _, s, e in a.parts:
        i = s
        while i < e:
            if al.ma[i] >= 0:
                i += 1
                continue
            k = i
            while k < e and al.ma[k] < 0:
                k += 1
            paired = sum(1 for x in range(i, k) if al.pair_b[x] >= 0)
            if k - i >= LACUNA and paired * 10 <= k - i:
                out[i:k] = [True] * (k - i)
            i = k
    return out


def count(a: Stream, labels: str, b: Stream, al: Alignment, label: str,
          skip: list | None = None) -> list[Counts]:
    """Per part of a: TP, our characters and reference characters with `label` (our characters
    where `skip` is set are not counted)."""
    out = [Counts() for _ in a.parts]
    part_of = [0] * len(a.chars)
    for k, (_, s, e) in enumerate(a.parts):
        part_of[s:e] = [k] * (e - s)
        out[k].pred = labels.count(label, s, e)
        if skip is not None:
            out[k].pred -= sum(1 for i in range(s, e) if skip[i] and labels[i] == label)
    for i, j in enumerate(al.ma):
        if j >= 0 and labels[i] == label and b.labels[j] == label and a.chars[i] == b.chars[j]:
            out[part_of[i]].tp += 1
    for j, k in enumerate(al.owner):
        if k >= 0 and b.labels[j] == label:
            out[k].ref += 1
    return out


def oracle(a: Stream, b: Stream, al: Alignment, b_has_zhu: bool, segment: list[int]) -> str:
    """The labels the best reader gives our reading of the 四庫 file (a), whose own labels are
    the markers' (`read_siku`). A matched character takes its reference character's label. In
    a gap, a character the markers put in 經 (after a note, before the next 注: no reader can
    miss it) is 經 and stands for one of the gap's reference 經 characters; the others take, in
    order, the labels of the gap's reference characters left; the rest, against a text with
    注, the label of the last matched character of their stretch between markers, else 注.
    (Against a 經-only text, whose gaps hold our 注, the rest are "not 經".)"""
    out = [OTHER] * len(a.chars)
    last_seg, last = {}, {}
    for i, j in enumerate(al.ma):
        if j >= 0:
            out[i] = b.labels[j]
            last_seg[i], last[i] = segment[i], b.labels[j]
    for xs, ys in gaps(a, al):
        if not xs:
            continue
        free = [b.labels[j] for j in ys]
        for i in xs:
            if a.labels[i] == JING:
                out[i] = JING
                if JING in free:
                    free.remove(JING)
        rest = [i for i in xs if a.labels[i] != JING]
        prev = xs[0] - 1
        for i, lab in zip(rest, free):
            out[i] = lab
        for i in rest[len(free):]:
            if b_has_zhu and prev in last_seg and last_seg[prev] == segment[i]:
                out[i] = last[prev]
            else:
                out[i] = ZHU if b_has_zhu else OTHER
    return "".join(out)


def segments(s: Stream) -> list[int]:
    """The stretch between markers each character of a marker-labelled stream lies in."""
    out = []
    for k, (_, start, end) in enumerate(s.pieces):
        out += [k] * (end - start)
    return out


def levenshtein(x: str, y: str) -> int:
    prev = list(range(len(y) + 1))
    for i, cx in enumerate(x, 1):
        cur = [i]
        for k, cy in enumerate(y, 1):
            cur.append(min(prev[k] + 1, cur[k - 1] + 1, prev[k - 1] + (cx != cy)))
        prev = cur
    return prev[-1]


def _near(got: str, want: str, tol: int) -> bool:
    return levenshtein(got, want) <= tol


def quote_matches(span: str, quotes: list[str]) -> bool:
    """The span begins with the first quote and ends with the last (one quote: is it), each
    within len // TOLERANCE_PER edits."""
    quotes = [q for q in (scored(q) for q in quotes) if q]
    if not quotes or not span:
        return False
    if len(quotes) == 1:
        return _near(span, quotes[0], len(quotes[0]) // TOLERANCE_PER)
    x, y = quotes[0], quotes[-1]
    tx, ty = len(x) // TOLERANCE_PER, len(y) // TOLERANCE_PER
    head = any(_near(span[:k], x, tx) for k in range(max(1, len(x) - tx), len(x) + tx + 1))
    tail = any(_near(span[-k:], y, ty) for k in range(max(1, len(y) - ty), len(y) + ty + 1))
    return head and tail


_QUOTED = re.compile(r"[“「『‘]([^”」』’]+)[”」』’]")


def lemma_quotes(text: str) -> list[str]:
    """`“X”至“Y”` / `注X至Y` → [X, Y]; `“X”` → [X]."""
    q = _QUOTED.findall(text)
    if q:
        return q
    text = re.sub(r"^[注註經傳]", "", scored(text))
    return [p for p in text.split("至", 1) if p] if text else []


@dataclass
class ShuStats:
    shu: int = 0                 # 疏 notes
    quote: int = 0               # anchored by a quote (report)
    matching: int = 0            # of those, whose span's text matches the quote
    unpaired: int = 0            # shu-target boundaries no 疏 note holds
    subs: int = 0                # sub-lemmas with a target
    subs_matching: int = 0
    methods: dict = field(default_factory=dict)

    def __iadd__(self, o: "ShuStats") -> "ShuStats":
        for k in ("shu", "quote", "matching", "unpaired", "subs", "subs_matching"):
            setattr(self, k, getattr(self, k) + getattr(o, k))
        for m, v in o.methods.items():
            self.methods[m] = self.methods.get(m, 0) + v
        return self

    def as_dict(self) -> dict:
        return {"shu": self.shu, "by_method": dict(sorted(self.methods.items())),
                "anchored_by_quote": self.quote, "quote_share": _r(self.quote / self.shu if self.shu else None),
                "matching": self.matching,
                "matching_share": _r(self.matching / self.quote if self.quote else None),
                "anchored_and_matching_share": _r(self.matching / self.shu if self.shu else None),
                "meets": bool(self.shu) and self.matching >= SHU_TARGET * self.shu,
                "sublemmas_with_target": self.subs, "sublemmas_matching": self.subs_matching,
                "boundaries_unpaired": self.unpaired}


def _visible(raw: str) -> list[tuple[str, int]]:
    """The characters a file line prints, each with its 1-based column in the file."""
    out, k = [], 0
    while k < len(raw):
        if raw.startswith("<pb:", k):
            k = raw.index(">", k) + 1
            continue
        m = _GAIJI.match(raw, k)
        if m:
            out.append((gaiji(int(m.group(1))), k + 1))
            k = m.end()
            continue
        if raw[k] not in "()/¶":
            out.append((raw[k], k + 1))
        k += 1
    return out


def _file_pos(j: TeiJuan, printed: list, pos: tuple, cache: dict) -> tuple[int, int]:
    """(lb index, TEI column) → (file line, file column): the TEI's characters of a printed line
    are that line's characters less the markup, in order."""
    k, col = pos
    if k < 1 or k > len(printed):
        return (0, 0)
    if k not in cache:
        vis, tei, cols, p = _visible(printed[k - 1][1]), j.lines[k], [], 0
        for ch in tei:
            q = p
            while q < len(vis) and vis[q][0] != ch:
                q += 1
            if q < len(vis):
                p = q
            cols.append(vis[p][1] if vis else 1)
            p = min(p + 1, len(vis) - 1) if q < len(vis) else p
        cache[k] = cols
    cols = cache[k]
    return (printed[k - 1][0], cols[col] if col < len(cols) else (cols[-1] if cols else 1))


def shu_stats(j: TeiJuan, source: str, boundaries: list[dict]) -> ShuStats:
    st = ShuStats(shu=len(j.shu))
    printed = text_lines(source) if source and os.path.exists(source) else []
    bounds = sorted((b for b in boundaries if b.get("kind") == "shu-target"),
                    key=lambda b: (b.get("line", 0), b.get("col", 0)))
    method: dict[int, dict] = {}
    if printed and len(printed) == len(j.lines) - 1:
        # each boundary to the 疏 note whose printed extent holds it
        cache: dict = {}
        extents = [(_file_pos(j, printed, s.start, cache), _file_pos(j, printed, s.end, cache))
                   if s.start else ((0, 0), (0, 0)) for s in j.shu]
        starts = [e[0] for e in extents]
        for b in bounds:
            at = (b.get("line", 0), b.get("col", 0))
            k = bisect.bisect_right(starts, at) - 1
            if k >= 0 and at <= extents[k][1] and k not in method:
                method[k] = b
            else:
                st.unpaired += 1
    else:
        # no printed lines to go by (a plain e-text's TEI has no lb): the boundaries in order
        # are those of the 疏 notes that point somewhere
        pointing = [k for k, s in enumerate(j.shu) if s.target]
        for k, b in zip(pointing, bounds):
            method[k] = b
        st.unpaired += max(0, len(bounds) - len(pointing))
    for k, s in enumerate(j.shu):
        b = method.get(k)
        m = b.get("method") if b else "none"
        st.methods[m] = st.methods.get(m, 0) + 1
        layer, span = span_text(j, s.target, s.target_end)
        if m in QUOTE_METHODS:
            st.quote += 1
            quotes = lemma_quotes(s.chuwen) if s.chuwen else []
            if not quotes and b and _QUOTED.search(b.get("note", "")):
                quotes = lemma_quotes(b["note"])
            if not quotes:
                quotes = [q for sub in s.subs if span_text(j, sub.target, None)[0] == layer
                          for q in sub.mentions] + s.mentions
            st.matching += quote_matches(span, quotes)
        for sub in s.subs:
            if sub.target:
                st.subs += 1
                st.subs_matching += quote_matches(span_text(j, sub.target, sub.target_end)[1], sub.mentions)
    return st


# -- the works --------------------------------------------------------------------------------------
_JUAN_HEAD = re.compile(r"^\u3000+\S{0,4}[注註][疏䟽][卷巻]", re.M)


def juan_files(folder: str) -> list[str]:
    """The 卷 files of a 四庫 work: `_NNN` from 001 on, with a 卷 head title (not the 跋語 files)."""
    out = []
    for f in sorted(glob.glob(os.path.join(folder, "*_[0-9][0-9][0-9].txt"))):
        if f.endswith("_000.txt"):
            continue
        with open(f, encoding="utf-8") as fh:
            if _JUAN_HEAD.search(_PB.sub("", fh.read()).replace("¶", "")):
                out.append(f)
    return out


_REFERENCES: dict[str, Stream] = {}


def reference(kind: str, folder: str) -> Stream:
    if folder in _REFERENCES:
        return _REFERENCES[folder]
    s = _REFERENCES[folder] = Stream()
    xref = folder.endswith("KR1d0054")
    for f in sorted(glob.glob(os.path.join(folder, "*_[0-9][0-9][0-9].txt"))):
        if f.endswith("_000.txt"):
            continue
        s.add(os.path.basename(f), read_sbck(f, xref) if kind == "SBCK" else read_bare(f))
    return s


def convert(work: str, files: list[str], out: str, jobs: int) -> tuple[str, float]:
    """Convert a work's 卷 in processes; returns the report's path and the seconds taken."""
    os.makedirs(out, exist_ok=True)
    report = os.path.join(out, "report.json")
    exe = os.path.join(os.path.dirname(sys.executable), "zhushu")
    cmd = [exe] if os.path.exists(exe) else [sys.executable, "-m", "pipeline.cli"]
    t0 = time.perf_counter()
    run = subprocess.run(cmd + ["convert", *files, "-o", out, "--report", report, "-q", "-j", str(jobs)],
                         capture_output=True, text=True, cwd=ROOT)
    if run.returncode not in (0, 1, 2):
        sys.exit(f"zhushu convert failed on {work}: {run.stderr.strip()}")
    for line in run.stderr.splitlines():
        if "fatal" in line or "error" in line:
            print(f"  {line}", file=sys.stderr)
    return report, time.perf_counter() - t0


_SHA = re.compile(r'<idno type="sha256">([0-9a-f]{64})</idno>')


def _find(root: str, work: str, name: str, source: str | None = None) -> str | None:
    """The TEI of a 卷 under root (root/<branch>/<ID>/, root/<ID>/ or root itself): the first
    whose recorded sha256 is the source file's (so the WYG and master copies of a 卷, which share
    a name, are not taken for one another)."""
    branch, wid = work.split("/")
    digest = None
    if source:
        with open(source, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
    for d in (os.path.join(root, branch, wid), os.path.join(root, wid), root):
        p = os.path.join(d, name)
        if not os.path.exists(p):
            continue
        if digest:
            with open(p, encoding="utf-8", errors="replace") as f:
                m = _SHA.search(f.read(20000))
            if m and m.group(1) != digest:
                continue
        return p
    return None


def _reports(paths: list[str]) -> dict[str, list]:
    """Boundaries by source file (its real path, and its name when that is unique)."""
    out: dict[str, list] = {}
    names: dict[str, list] = {}
    for p in paths:
        try:
            with open(p, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            continue
        for r in data.get("reports", []) if isinstance(data, dict) else []:
            src = r.get("source", "")
            out[os.path.realpath(src)] = r.get("boundaries", [])
            names.setdefault(os.path.basename(src), []).append(r.get("boundaries", []))
    for name, found in names.items():
        if len(found) == 1:
            out[name] = found[0]
    return out


def ratio(f1, ceiling):
    return None if f1 is None or not ceiling else f1 / ceiling


@dataclass
class Measure:
    score: dict                  # label → [Counts] per part of ours
    ceiling: dict                # label → [Counts] per part of our reading of the file (the oracle)
    markers: dict                # label → [Counts]: the markers alone (a baseline)
    left_out: list               # per part: characters of the file's text the reference lacks
    skipped: int                 # our characters left out with them
    unassigned: list             # reference runs no part owns


def total(counts: list[Counts]) -> Counts:
    t = Counts()
    for c in counts:
        t += c
    return t


def measure(ours: Stream, siku: Stream, b: Stream, has_zhu: bool,
            same: Alignment | None = None) -> Measure:
    """Score our 經 (and 注, when the reference has it) against reference b, and the oracle's on
    our reading of the same files (siku: marker-labelled, same parts) for the ceiling."""
    same = same or align(ours, siku)
    al, al_o = align(ours, b), align(siku, b)
    lab_o = oracle(siku, b, al_o, has_zhu, segments(siku))
    # passages the reference lacks are scored neither in the ceiling nor in ours (against the
    # bare edition, which has no 注, every 注 would look like one: none are left out)
    lac = lacunae(siku, al_o) if has_zhu else [False] * len(siku.chars)
    skip = [same.ma[i] >= 0 and lac[same.ma[i]] and al.ma[i] < 0 for i in range(len(ours.chars))]
    labels = (JING, ZHU) if has_zhu else (JING,)
    return Measure(
        score={x: count(ours, ours.labels, b, al, x, skip) for x in labels},
        ceiling={x: count(siku, lab_o, b, al_o, x, lac) for x in labels},
        markers={x: count(siku, siku.labels, b, al_o, x, lac) for x in labels},
        left_out=[sum(lac[s:e]) for _, s, e in siku.parts], skipped=sum(skip), unassigned=al.unassigned)


def score_work(work: str, kanripo: str, tei_dir: str | None, out_dir: str, jobs: int) -> dict:
    title, refs = WORKS[work]
    folder = os.path.join(kanripo, work)
    files = juan_files(folder)
    t0 = time.perf_counter()
    seconds_convert = 0.0
    if tei_dir:
        tei_root = tei_dir
        branch, wid = work.split("/")
        reports = sorted(set(glob.glob(os.path.join(tei_dir, branch, wid, "*.json")) +
                             glob.glob(os.path.join(tei_dir, wid, "*.json")) +
                             glob.glob(os.path.join(tei_dir, "*.json"))))
    else:
        tei_root = os.path.join(out_dir, "tei")
        rep, seconds_convert = convert(work, files, os.path.join(tei_root, work), jobs)
        reports = [rep]
    boundaries = _reports(reports)
    ours, siku, shu, failed = Stream(), Stream(), [], []
    for f in files:
        name = os.path.basename(f)[:-4]
        siku.add(name, read_siku(f))
        path = _find(tei_root, work, name + ".xml", f)
        if path is None:
            failed.append(name)
            ours.add(name, [])
            shu.append(ShuStats())
            continue
        j = read_tei(path)
        ours.add(name, j.pieces)
        shu.append(shu_stats(j, f, boundaries.get(os.path.realpath(f), boundaries.get(name + ".txt", []))))
    result = {"work": work, "title": title, "juan": len(files), "failed": failed,
              "convert_seconds": round(seconds_convert, 1), "references": {}, "per_juan": []}
    per_juan = [{"juan": name, "references": {}} for name, _, _ in ours.parts]
    ref_streams = {}
    same = align(ours, siku)
    for kind, ref_folder in refs:
        b = ref_streams[kind] = reference(kind, os.path.join(kanripo, ref_folder))
        m = measure(ours, siku, b, kind == "SBCK", same)
        r = {"folder": ref_folder, "characters": len(b.chars),
             "left_out": {"ceiling": sum(m.left_out), "ours": m.skipped},
             "unassigned": [{"start": s, "end": e, "length": e - s,
                             "file": _part_at(b, s), "between": [_name(ours, k1), _name(ours, k2)]}
                            for s, e, k1, k2 in m.unassigned]}
        for k, n in enumerate(m.left_out):
            per_juan[k]["references"].setdefault(kind, {})["left_out"] = n
        for label, name in ((JING, "jing"), (ZHU, "zhu")):
            if label not in m.score:
                continue
            target = JING_TARGET if label == JING else ZHU_TARGET
            meets = 0
            for k, (c, e) in enumerate(zip(m.score[label], m.ceiling[label])):
                rt = ratio(c.f1(), e.f1())
                ok = rt is not None and rt >= target
                meets += ok
                per_juan[k]["references"][kind][name] = {
                    "score": c.as_dict(), "ceiling": e.as_dict(), "ratio": _r(rt), "meets": ok}
            tot_s, tot_c, tot_b = (total(m.score[label]), total(m.ceiling[label]), total(m.markers[label]))
            rt = ratio(tot_s.f1(), tot_c.f1())
            share = meets / len(files) if files else None
            r[name] = {"score": tot_s.as_dict(), "ceiling": tot_c.as_dict(), "ratio": _r(rt),
                       "markers_only": tot_b.as_dict(), "target": target,
                       "meets": rt is not None and rt >= target, "juan_meeting": meets,
                       "juan_meeting_share": _r(share)}
            r.setdefault("meets_targets", True)
            r["meets_targets"] &= r[name]["meets"] and share is not None and share >= JUAN_SHARE
        result["references"][kind] = r
    if "SBCK" in ref_streams and "bare" in ref_streams:
        result["references_against_each_other"] = {
            "jing": against_each_other(ref_streams["SBCK"], ref_streams["bare"]), "of": "SBCK 經 against bare 經"}
    tot = ShuStats()
    for k, s in enumerate(shu):
        tot += s
        per_juan[k]["shu"] = s.as_dict()
    result["shu"] = tot.as_dict()
    result["per_juan"] = per_juan
    result["seconds"] = round(time.perf_counter() - t0, 1)
    return result


_CROSS: dict[int, dict] = {}


def against_each_other(a: Stream, b: Stream) -> dict:
    """The other ceiling: the SBCK 經 scored against the bare 經, the whole works."""
    key = id(a) * 31 + id(b)
    if key not in _CROSS:
        _CROSS[key] = total(count(a, a.labels, b, align(a, b), JING)).as_dict()
    return _CROSS[key]


def _part_at(s: Stream, pos: int) -> str:
    for name, a, e in s.parts:
        if a <= pos < e:
            return name
    return ""


def _name(s: Stream, k: int) -> str | None:
    return s.parts[k][0] if k >= 0 else None


# -- output ------------------------------------------------------------------------------------------
def _f(x, pct=False) -> str:
    if x is None:
        return "—"
    return f"{100 * x:.1f}%" if pct else f"{x:.3f}"


def table(results: list[dict], per_juan: bool) -> str:
    head = (f"{'work':17s} {'ref':4s} {'卷':>3s}  {'經 F1':>6s} {'ceil':>6s} {'ratio':>6s}  "
            f"{'注 F1':>6s} {'ceil':>6s} {'ratio':>6s}  {'卷 經✓':>7s} {'卷 注✓':>7s}  "
            f"{'疏 quote':>8s} {'match':>6s}  met")
    lines = [head, "-" * len(head)]
    for res in results:
        sh = res["shu"]
        for kind, r in res["references"].items():
            j, z = r["jing"], r.get("zhu")
            lines.append(
                f"{res['work']:17s} {kind:4s} {res['juan']:3d}  {_f(j['score']['f1'])} {_f(j['ceiling']['f1'])} "
                f"{_f(j['ratio'])}  {_f(z and z['score']['f1']):>6s} {_f(z and z['ceiling']['f1']):>6s} "
                f"{_f(z and z['ratio']):>6s}  {_f(j['juan_meeting_share'], True):>7s} "
                f"{_f(z and z['juan_meeting_share'], True):>7s}  {_f(sh['quote_share'], True):>8s} "
                f"{_f(sh['matching_share'], True):>6s}  {'yes' if r.get('meets_targets') else 'no'}")
        x = res.get("references_against_each_other")
        if x:
            lines.append(f"{'':17s} SBCK 經 against bare 經 (the other ceiling): F1 {_f(x['jing']['f1'])}")
        if res["failed"]:
            lines.append(f"{'':17s} no TEI (scored as empty): {', '.join(res['failed'])}")
    lines.append(f"targets: 經 ratio ≥ {JING_TARGET}, 注 ratio ≥ {ZHU_TARGET} "
                 "(ratio = F1 / oracle ceiling), "
                 f"for the work and ≥ {JUAN_SHARE:.0%} of its 卷 (卷 ✓: the share of 卷 meeting it; met: both)")
    lines.append(f"疏 quote: share of 疏 anchored by a quote; match: of those, share whose span matches "
                 f"(target: ≥ {SHU_TARGET:.0%} of all 疏 both)")
    if per_juan:
        for res in results:
            lines.append("")
            lines.append(f"{res['work']} {res['title']}, per 卷")
            for pj in res["per_juan"]:
                cells = []
                for kind, r in pj["references"].items():
                    j, z = r["jing"], r.get("zhu")
                    cell = f"{kind} 經 {_f(j['score']['f1'])}/{_f(j['ceiling']['f1'])}={_f(j['ratio'])}"
                    if z:
                        cell += f" 注 {_f(z['score']['f1'])}/{_f(z['ceiling']['f1'])}={_f(z['ratio'])}"
                    cells.append(cell)
                sh = pj.get("shu", {})
                cells.append(f"疏 {sh.get('shu', 0)} quote {sh.get('anchored_by_quote', 0)} "
                             f"match {sh.get('matching', 0)}")
                lines.append(f"  {pj['juan']:13s} " + "  ".join(cells))
    return "\n".join(lines)


def select(names: list[str] | None) -> list[str]:
    if not names:
        return list(WORKS)
    out = []
    for n in names:
        key = n if "/" in n else f"WYG/{n}"
        if key not in WORKS:
            sys.exit(f"unknown work {n!r}; one of: {', '.join(WORKS)} (an ID alone is its WYG branch)")
        out.append(key)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--works", nargs="+", metavar="WORK",
                    help="works to score: KR1d0003 KR1d0028 KR1d0053 (WYG) or master/KR1d0053; default all")
    ap.add_argument("--tei", metavar="DIR",
                    help="score the TEI already converted in DIR (DIR/<branch>/<ID>/, DIR/<ID>/ or DIR "
                         "itself, with the conversion report's *.json beside it) instead of converting")
    ap.add_argument("--per-juan", action="store_true", help="also print a line per 卷")
    ap.add_argument("--kanripo", default=KANRIPO, help="the Kanripo data (default ../shared/kanripo)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out"), help="where the TEI and the JSON go")
    ap.add_argument("--json", help="the JSON file (default <out>/score.json)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="conversion processes")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.kanripo):
        print(f"score: {args.kanripo} not found; nothing to score")
        return 0
    results = []
    for work in select(args.works):
        if not os.path.isdir(os.path.join(args.kanripo, work)):
            print(f"score: {work} not in {args.kanripo}; skipped", file=sys.stderr)
            continue
        res = score_work(work, args.kanripo, args.tei, args.out, args.jobs)
        print(f"{work}: {res['juan']} 卷 scored in {res['seconds']} s "
              f"(conversion {res['convert_seconds']} s)", file=sys.stderr, flush=True)
        results.append(res)
    print(table(results, args.per_juan), flush=True)
    path = args.json or os.path.join(args.out, "score.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    params = {"ngram": NGRAM, "min_piece": MIN_PIECE, "jump": JUMP, "edge_run": EDGE_RUN,
              "edge_slack": EDGE_SLACK, "lacuna": LACUNA, "tolerance_per": TOLERANCE_PER,
              "quote_methods": list(QUOTE_METHODS),
              "targets": {"jing": JING_TARGET, "zhu": ZHU_TARGET, "juan_share": JUAN_SHARE,
                          "shu_matching": SHU_TARGET}}
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"parameters": params, "ratios_use": "oracle ceiling", "works": results}, f,
                  ensure_ascii=False, indent=1)
    print(f"→ {os.path.relpath(path)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
