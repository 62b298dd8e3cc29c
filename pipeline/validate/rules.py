"""The rules a schema cannot state. Each has a stable id, documented in docs/rules.md.

`check(tree)` yields (element, level, rule id, message). One pass builds the id index; each
rule then looks only at the elements it concerns, and every rule costs at most a constant
times the document, whatever a hostile file holds (docs/security.md). The structure that XSD
cannot state is pipeline/validate/document.py (the header) and by_type.py (the text).
"""
from __future__ import annotations

import re
import unicodedata
from typing import Iterator

from lxml import etree

from pipeline.chars import PUNCTUATION, UNUSUAL, WHITESPACE, glyph_kind
from pipeline.constants import TEI, XML_ID
from pipeline.matching import ABBREVIATED, agrees, matches, squeeze
from pipeline.validate.shared import prefixed
from pipeline.validate.spans import Spans

POINTERS = ("target", "targetEnd", "corresp", "ref", "resp", "facs", "scheme")
_POINTER_SET = frozenset(POINTERS)

RULES = {
    "ZS-ID-001": "xml:id values are unique",
    "ZS-PTR-001": "every pointer (@target, @targetEnd, @corresp, @ref, @resp, @facs, @scheme) resolves to an xml:id in the file (@facs to a surface), or, through a prefix (psn:, cat:), in the corpus's shared file beside it (persons.xml, categories.xml)",
    "ZS-TYPE-001": "note @type and @subtype come from the note taxonomy (zs-types) of the corpus's categories.xml (or of the header)",
    "ZS-SHU-001": "a 疏 lemma or sub-lemma agrees with the span it points at",
    "ZS-SHU-002": "a 疏 that quotes a lemma points at a span (unless marked detached)",
    "ZS-SHU-003": "a 疏's (or sub-lemma's) @corresp lists every piece of its span, from @target's to @targetEnd's, in document order",
    "ZS-YINYI-001": "the head of a 音義 gloss occurs in the text it points at",
    "ZS-TEXT-001": "text is in Unicode NFC",
    "ZS-TEXT-002": "U+FFFD (a character lost before conversion) appears only inside a declared <g>",
    "ZS-ID-002": "xml:ids in the text follow the documented scheme (d1, u12, u12.z1, u12.s1.2, t3, fw1, k3, p4 …)",
    "ZS-CHAR-001": "Private Use and unassigned characters appear only inside a <g> whose @ref names a char declared in charDecl",
    "ZS-HDR-001": "the header names the work (a main title) and the source (file name and SHA-256); a missing 卷 is a warning",
}

# The ids our writer gives the body (docs/design.md): divs, heads and closings; units and their
# pieces, anchors, small notes, 疏 sections and sub-lemmas, 義疏 blocks and quotations;
# translations; furniture.
_ID_SCHEME = re.compile(r"^(?:d\d+(?:\.h|\.t\d+)?"
                        r"|u\d+(?:\.(?:[jzyqmna]\d+|n\d+|s\d+(?:\.\d+)?|c\d+(?:\.[qn]\d+)?))?"
                        r"|t\d+(?:\.n\d+)?|fw\d+|[kp]\d+(?:\.n\d+)?)$")
_SUSPECT = re.compile("[" + UNUSUAL + "]")
# Checking 音義 heads costs the length of the text each gloss points at; real glosses point at
# a 經 or 注 of some dozens of characters, a hostile file could point thousands of glosses at
# one long text. The check stops at this many characters per character of the body.
_GLOSS_BUDGET = 64


def check(tree, corpus=None) -> Iterator[tuple]:
    """The rules' findings on `tree`; `corpus` (shared.Corpus) holds the shared files beside it,
    which psn: and cat: pointers and the note types resolve in."""
    root = tree.getroot()
    body = root.find(f"{TEI}text/{TEI}body")
    w = _Walk(root, body)
    index = dict(w.ids)
    if len(index) != len(w.ids):
        # the one report of a duplicate (the schema's xml:id is an NCName, not an xs:ID)
        first: dict[str, object] = {}
        for v, el in w.ids:
            if v not in first:
                first[v] = el
                continue
            line = first[v].sourceline
            yield el, "error", "ZS-ID-001", f"duplicate xml:id {v!r}" + (f" (first on line {line})" if line else "")
    yield from _pointers(root, w.pointers, index, corpus)
    yield from _types(root, w.note_values, corpus)
    if body is None:
        return
    whole = _TEXT(body)
    yield from _text(body, whole)
    yield from _id_scheme(w.body_ids)
    yield from _chars(root, body, whole)
    for matter in (body.getprevious(), body.getnext()):       # a Kanripo work's front and back
        if matter is not None and matter.tag in _MATTER:
            yield from _chars(root, matter, _TEXT(matter))
    yield from _header(root)
    if w.shu_notes:
        spans = Spans(body)
        # thousands of notes per MB, nearly all in agreement: a function call each, no generator
        for note, subtype, target, target_end, corresp in w.shu_notes:
            finding = _shu(note, subtype, target, target_end, index, spans)
            if finding is not None:
                yield finding
            finding = _corresp(note, target, target_end, corresp, index, spans)
            if finding is not None:
                yield finding
    texts: dict[str, list] = {}
    budget = _GLOSS_BUDGET * len(whole) + 100_000
    for note, target in w.glosses:
        finding, budget = _yinyi(note, target, index, texts, budget)
        if finding is not None:
            yield finding
        if budget < 0:
            yield (note, "warning", "ZS-YINYI-001", "音義 heads from here on not checked: the glosses "
                   "point at more text than a document of this size can (a hostile file?)")
            break


class _Walk:
    """What the rules need, gathered in one walk over the elements (several XPaths over the
    same tree cost more): ids with their elements (those of the body, the front and the back
    apart, for the scheme), pointer values by attribute, the note types used, and the 疏 and
    音義 notes of the body with the attributes the rules read (so that no note is asked for them
    again)."""

    def __init__(self, root, body):
        self.ids: list[tuple[str, object]] = []
        self.body_ids: list[tuple[str, object]] = []
        self.pointers: dict[str, set[str]] = {a: set() for a in POINTERS}
        self.note_kinds: set[tuple] = set()     # (type, subtype) pairs of the text's notes
        self.shu_notes: list[tuple] = []        # (note, subtype, target, targetEnd, corresp)
        self.glosses: list[tuple] = []          # (note, target)
        for top in root.iterchildren("*"):
            parts = top.iterchildren("*") if top.tag == _TEXT_TAG else (top,)
            for part in parts:
                # the front's and the back's ids follow the body's scheme too
                self._walk(part, part is body, part is body or part.tag in _MATTER, top.tag == _TEXT_TAG)
        for el in (root, root.find(_TEXT_TAG)):      # the two elements not walked
            for k, v in (el.items() if el is not None else ()):
                if k == XML_ID:
                    self.ids.append((v, el))
                elif k in self.pointers:
                    self.pointers[k].add(v)
        self.ids += self.body_ids

    def _walk(self, top, in_body: bool, scheme: bool, in_text: bool) -> None:
        # The hot loop of validation (every element): attributes are read once, as a list, and
        # most elements cost one C call and a few comparisons; notes are handled inline (a
        # method call each cost more than the rest of their handling).
        add_id = (self.body_ids if scheme else self.ids).append
        pointers = self.pointers
        add_kind = self.note_kinds.add
        add_shu, add_gloss = self.shu_notes.append, self.glosses.append
        for el in top.iter("*"):
            items = el.items()
            if not items:
                continue
            for k, v in items:
                if k == XML_ID:
                    add_id((v, el))
                elif k in _POINTER_SET:
                    pointers[k].add(v)
            if in_text and el.tag == _NOTE:
                a = dict(items)
                kind, subtype = a.get("type"), a.get("subtype")
                add_kind((kind, subtype))
                if not in_body:
                    continue
                if kind == "shu":
                    if subtype != "quoted":             # a 疏 quoted in a small note has no span
                        add_shu((el, subtype, a.get("target"), a.get("targetEnd"), a.get("corresp")))
                elif kind == "yinyi" and "target" in a:
                    add_gloss((el, a["target"]))

    @property
    def note_values(self) -> set[tuple[str, str]]:
        """("type", value) and ("subtype", value) of the notes in the text."""
        return {("type", k) for k, _ in self.note_kinds if k is not None} | \
               {("subtype", s) for _, s in self.note_kinds if s is not None}


_TEXT_TAG = f"{TEI}text"
_MATTER = frozenset((f"{TEI}front", f"{TEI}back"))
_NOTE = f"{TEI}note"
_SURFACE, _G = f"{TEI}surface", f"{TEI}g"
# A link to another file (a work's table of contents to the TEI of a 卷), not a pointer into
# this one: the schema gives its form (a file name beside this one).
_REF = f"{TEI}ref"
_LICENCE = f"{TEI}licence"                  # its @target is the licence's URL
_TEXT = etree.XPath("string()")


def _unresolved(ref: str, ids: dict, corpus) -> str | None:
    """Why the pointer `ref` does not resolve, or None: "#x" in this file, "psn:x" (a prefix of
    constants.SHARED_PREFIXES) in that shared file of the corpus."""
    if ref[:1] == "#":
        return None if ref[1:] in ids else "does not resolve to an xml:id in this file"
    if corpus is not None and prefixed(ref):
        return corpus.resolve(ref)
    return "does not resolve to an xml:id in this file"


def _pointers(root, found: dict[str, set[str]], ids: dict, corpus=None) -> Iterator[tuple]:
    for attr, vals in found.items():
        simple = {v[1:] for v in vals if v[:1] == "#" and " " not in v}
        bad = {v for v in vals if v[:1] != "#" or " " in v} if len(simple) != len(vals) else set()
        bad = {v for v in bad if any(_unresolved(r, ids, corpus) for r in v.split())}
        bad |= {"#" + x for x in simple.difference(ids)}
        # a page's @facs names its surface (a hundred pages a file: one look-up each)
        elsewhere = {"#" + x for x in simple if x in ids and ids[x].tag != _SURFACE} if attr == "facs" else ()
        if not bad and not elsewhere:
            continue
        for el in root.iterfind(f".//*[@{attr}]"):
            v = el.get(attr)
            if v in elsewhere:
                yield (el, "error", "ZS-PTR-001", f"@facs {v!r} does not point at a surface of the facsimile")
            elif v in bad and el.tag != _REF and el.tag != _LICENCE:
                for ref in v.split():
                    why = _unresolved(ref, ids, corpus)
                    if why:
                        yield (el, "error", "ZS-PTR-001", f"@{attr} {ref!r} {why}")


def _types(root, used: set[tuple[str, str]], corpus=None) -> Iterator[tuple]:
    declared = {c.get(XML_ID) for c in root.iterfind(f"{TEI}teiHeader//{TEI}taxonomy//{TEI}category")}
    shared = corpus.note_types() if corpus is not None else None
    declared |= shared or set()
    if all(v in declared for _, v in used):
        return
    for el in root.iterfind(f"{TEI}text//{TEI}note"):
        for attr in ("type", "subtype"):
            v = el.get(attr)
            if v is not None and v not in declared:
                yield el, "error", "ZS-TYPE-001", f"note @{attr}={v!r} is not a category of the declared taxonomy"


def _text(body, whole: str) -> Iterator[tuple]:
    # One check over the whole text first; elements are visited only when it fails.
    if unicodedata.is_normalized("NFC", whole):
        return
    for el in body.iter():
        for s in (el.text, el.tail):
            if s and not unicodedata.is_normalized("NFC", s):
                yield el, "error", "ZS-TEXT-001", "text is not in Unicode NFC"


def _id_scheme(body_ids) -> Iterator[tuple]:
    # one match per id: a single pattern over all of them, repeated with `*`, backtracks
    # exponentially on one id that does not fit
    match = _ID_SCHEME.match
    for v, el in body_ids:
        if match(v) is None:
            yield (el, "error", "ZS-ID-002",
                   f"xml:id {v!r} is not in the documented scheme (see docs/design.md)")


def _needs_g(ch: str) -> str | None:
    """The rule a character breaks outside a declared <g>: private use and unassigned code
    points (ZS-CHAR-001), U+FFFD (ZS-TEXT-002); placeholders are ordinary text."""
    kind = glyph_kind(ch)
    if kind in ("private", "unassigned", "control"):
        return "ZS-CHAR-001"
    return "ZS-TEXT-002" if kind == "lost" else None


def _chars(root, body, whole: str) -> Iterator[tuple]:
    needing = sum(1 for m in _SUSPECT.finditer(whole) if _needs_g(m.group()))
    if not needing:
        return
    glyphs = {g.get(XML_ID) for g in root.iterfind(f"{TEI}teiHeader//{TEI}charDecl/*")}
    # A Kanripo text has hundreds of characters from Kanripo's table, each in its declared <g>:
    # when the declared <g>s hold them all, none is outside one (the <g>s are few beside the
    # elements and text nodes of the whole body, which are read only when one is).
    inside = 0
    for g in body.iter(_G):
        if g.text and (g.get("ref") or "")[1:] in glyphs:
            inside += sum(1 for m in _SUSPECT.finditer(g.text) if _needs_g(m.group()))
    if inside == needing:
        return
    for el in body.iter():
        declared = el.tag == f"{TEI}g" and (el.get("ref") or "")[1:] in glyphs
        for s, owner_ok in ((el.text, declared), (el.tail, False)):
            if not s or owner_ok:
                continue
            for m in _SUSPECT.finditer(s):
                rule = _needs_g(m.group())
                if rule == "ZS-CHAR-001":
                    yield (el, "error", rule, f"U+{ord(m.group()):04X} is a Private Use or unassigned "
                           "character outside a declared <g>")
                    break
                if rule == "ZS-TEXT-002":
                    yield (el, "error", rule, "text contains U+FFFD (a character lost in decoding) "
                           "outside a declared <g>")
                    break


def _header(root) -> Iterator[tuple]:
    h = root.find(f"{TEI}teiHeader")
    if h is None:
        return                                  # the schema says so
    title = "".join(h.xpath("string(.//t:titleStmt/t:title[@type='main'])", namespaces={"t": TEI[1:-1]}))
    if not title.strip():
        yield h, "error", "ZS-HDR-001", "the header has no main title (titleStmt/title[@type='main'])"
    src = {i.get("type"): (i.text or "").strip() for i in h.iterfind(f".//{TEI}sourceDesc//{TEI}idno")}
    if not src.get("filename") or not src.get("sha256"):
        yield h, "error", "ZS-HDR-001", "the header does not name its source (sourceDesc idno filename and sha256)"
    if h.find(f".//{TEI}titleStmt/{TEI}title[@type='juan']") is None:
        yield h, "warning", "ZS-HDR-001", "the header names no 卷 (titleStmt/title[@type='juan'])"


# -- spans ---------------------------------------------------------------------------------------
_P, _MENTIONED, _TERM, _LABEL = f"{TEI}p", f"{TEI}mentioned", f"{TEI}term", f"{TEI}label"
# How much of a span a first … last lemma is compared with at each edge: the quote and the
# punctuation it skips (a quote of n characters is printed over at most about 2n), with room.
_EDGE = 64


def _text_of(el) -> str:
    """All the text inside el: its .text alone when it has no children (most quotes)."""
    return (el.text or "") if not len(el) else "".join(el.itertext())


def _shu(note, subtype, target, target_end, ids, spans: Spans) -> tuple | None:
    """A 疏 section (quotes in its chuwen label) or a sub-lemma (quotes opening its paragraph)
    agrees with the span it points at (@target … @targetEnd, read by the walk): None, or the
    finding."""
    sub = subtype == "sublemma"
    label = _quoting(note, sub)
    if label is None:
        return None
    if target is None:
        if subtype != "detached" and not sub:
            return note, "warning", "ZS-SHU-002", "疏 quotes a lemma but points at no span"
        if sub:
            return note, "error", "ZS-SHU-002", "sub-lemma points at no span"
        return None
    start = ids.get(target[1:])
    end = start if target_end is None else ids.get(target_end[1:])
    if start is None or end is None:
        return None                             # reported by ZS-PTR-001
    # the children loop, not iterchildren(tag): cheaper for the one or two children a label has
    quotes = [_text_of(m) for m in label if m.tag == _MENTIONED]
    if not quotes:
        return None
    what = "sub-lemma" if sub else "lemma"
    if not (spans.covers(start) and spans.covers(end)):
        return note, "error", "ZS-SHU-001", f"{what} points at something that is not a piece of a 經 passage nor an anchor in one"
    first = "jing"
    if not sub and (label.text or "").lstrip().startswith(("注", "註")):
        first = "zhu"
    other = "zhu" if first == "jing" else "jing"
    for layer in (first, other):
        text = spans.text(start, end, layer)
        if text and _agrees(text, quotes):
            return None
    text = spans.text(start, end, first) or spans.text(start, end, other)
    return note, "error", "ZS-SHU-001", (
        f"{what} “{'”至“'.join(quotes)}” does not match its span ({text[:8]!r}…{text[-8:]!r})")


def _corresp(note, target, target_end, corresp, ids, spans: Spans) -> tuple | None:
    """A 疏's @corresp names the pieces its span covers, in order: None, or the finding. The
    list is built only when it is as long as @corresp, so a note costs its own attribute."""
    start = ids.get(target[1:]) if target else None
    end = start if target_end is None else ids.get(target_end[1:])
    if start is None or end is None:
        return None if corresp is None else (
            note, "error", "ZS-SHU-003", "@corresp on a 疏 that points at no piece of a 經 passage")
    a, b = spans.piece_index(start), spans.piece_index(end)
    if a is None or b is None:
        return None                             # no piece: ZS-SHU-001 says so
    listed = corresp.split() if corresp else []
    if b - a + 1 == len(listed) and listed == ["#" + p.get(XML_ID) for p in spans.pieces[a:b + 1]]:
        return None
    return note, "error", "ZS-SHU-003", (
        f"@corresp does not list the {max(b - a + 1, 0)} pieces of the span from {target} to "
        f"{target_end or target}")


# A quote the text repeats verbatim agrees with it (anchoring.agrees), unless squeezing could
# leave it ending in an abbreviation (以下, 云云) that agrees drops: so its last character must
# be neither punctuation nor the end of one. Four in five sub-lemmas pass this way, without
# being squeezed.
_NOT_LAST = PUNCTUATION | WHITESPACE | {a[-1] for a in ABBREVIATED}


def _agrees(text: str, quotes: list[str]) -> bool:
    """anchoring.agrees on as much of the span as the quotes can name: its two edges for a
    first … last pair, the whole for one quote (which cannot agree with a span several times
    its length). Each note then costs its quotes' length, not its span's."""
    if len(quotes) == 1 and text == quotes[0] and text[-1] not in _NOT_LAST:
        return True
    n = sum(map(len, quotes))
    if len(quotes) > 1:
        if len(text) > 2 * _EDGE + 2 * n:
            text = text[:_EDGE + 2 * len(quotes[0])] + text[-(_EDGE + 2 * len(quotes[-1])):]
        return agrees(text, quotes)
    if len(text) > 3 * n + _EDGE:
        return False
    return agrees(text, quotes)


def _quoting(note, sub: bool):
    """Where a 疏 note's quotes are: a sub-lemma's paragraph, a section's chuwen label (both
    among its first children: the schema puts them there)."""
    for c in note:
        tag = c.tag
        if sub and tag == _P:
            return c
        if not sub and tag == _LABEL and c.get("type") == "chuwen":
            return c
    return None


def _yinyi(note, target: str, ids, texts: dict[str, list[str]], budget: int) -> tuple:
    """(finding or None, the budget left): the head of a gloss occurs in its target's text."""
    # the head is the note's first term, usually its first child: a loop over the children
    # costs less than find(), which goes through ElementPath
    term = next((c for c in note if c.tag == _TERM), None)
    if term is None or not target:
        return None, budget
    own = texts.get(target)                     # [text, squeezed text], for the many glosses
    if own is None:                             # on one piece
        own_el = ids.get(target[1:])
        if own_el is None:
            return None, budget
        own = texts[target] = [_text_of(own_el), None]
    head = _text_of(term)
    budget -= len(own[0]) + len(head)
    # a head without punctuation that the text holds as it stands is found by matches too
    # (squeezing both keeps that run whole): the text is squeezed only when it is not
    if head in own[0] and squeeze(head) == head:
        return None, budget
    if own[1] is None:
        own[1] = squeeze(own[0])
    if not matches(own[1], head, "anywhere", squeezed=True):
        return (note, "warning", "ZS-YINYI-001", f"音義 head “{head}” does not occur in {target}"), budget
    return None, budget
