"""Reading a source file: bytes → text, with a clear error for anything that is not a text."""
from __future__ import annotations

import codecs
import hashlib
import json
import os
import re
import unicodedata
from dataclasses import dataclass, field

from pipeline import files
from pipeline.chars import COMPAT_SEQUENCES, DELIMITERS, LOST, compat_offsets, stand_in
from pipeline.errors import PipelineError, display
from pipeline.limits import MAX_BYTES

# Characters no XML document may contain (and C1 controls, which only mis-decoding produces).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffe\uffff]")
# Encodings tried, in order, when the file has no BOM and is not UTF-8.
FALLBACK_ENCODINGS = ("gb18030", "big5")


@dataclass
class Source:
    name: str                      # the file name as given on the command line
    text: str                      # decoded, newlines normalised, NFC
    sha256: str                    # of the bytes as read
    meta: dict = field(default_factory=dict)    # from a <stem>.meta.json sidecar, if any
    renormalized: int = 0          # characters that NFC changed
    compat: tuple | None = None    # (how many, (line, col) of the first) CJK compatibility
                                   # ideographs, read as their variation sequences (chars)
    lost: list = field(default_factory=list)     # (line, col) of each U+FFFD in the text
    controls: list = field(default_factory=list)  # (line, col, code point) of each control
                                                   # character, held by its stand-in (chars)
    # A Kanripo (mandoku) source: the markup read (mandoku.Doc), its edition's context
    # (kanripo.Context), and, once a reader has joined its printed lines, the events the TEI
    # marks (paragraphs.Event, counted) and the map from `text` positions back to the file.
    mandoku: object | None = None
    kanripo: object | None = None
    events: list = field(default_factory=list)
    locate: object | None = None
    delimiters: frozenset = DELIMITERS   # what the lossless invariant leaves out, with whitespace

    @property
    def basename(self) -> str:
        """The file's name as the header records it (bytes that are not UTF-8 escaped)."""
        return display(os.path.basename(self.name))


# Byte order marks, UTF-32 first: its little-endian mark begins with UTF-16's.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
         (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
         (codecs.BOM_UTF16_BE, "utf-16-be"))


def decode(data: bytes, name: str, encoding: str | None = None) -> str:
    """The text of a source: in `encoding` if given; else in the encoding its byte order mark
    names; else UTF-8, else GB18030 or Big5 if the text reads as text in one of them. A byte
    sequence that does not decode is an error naming its line and column."""
    if encoding:
        try:
            codec = codecs.lookup(encoding).name
        except LookupError:
            raise PipelineError(f"--encoding: unknown encoding {encoding!r}", rule="ZS-OPT-001") from None
        return _strict(data, 0, codec, name)
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return _strict(data, len(bom), codec, name)
    if b"\x00" in data[:4096]:
        at = data.index(0)
        line, col = _where(data, 0, at, "utf-8")
        raise PipelineError("not a text file: a NUL byte (binary data, or UTF-16/UTF-32 without a "
                            "byte order mark: give --encoding)", name, line, col, rule="ZS-SRC-001")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        utf8_error = e
    # Nearly every Big5 byte sequence is valid GB18030 too (as garbage), so the first encoding
    # that decodes is no answer: of those that read as text, the one whose text is made of the
    # commonest characters of classical Chinese wins.
    readings = []
    for enc in FALLBACK_ENCODINGS:
        try:
            text = data.decode(enc)
        except UnicodeDecodeError:
            continue
        if _looks_like_text(text):
            readings.append((_commonness(text), -len(readings), text))
    if readings:
        return max(readings)[2]
    line, col = _where(data, 0, utf8_error.start, "utf-8")
    raise PipelineError(f"not a text file: invalid UTF-8 (byte 0x{data[utf8_error.start]:02x}) and no "
                        f"other known encoding fits", name, line, col, rule="ZS-SRC-001")


def _strict(data: bytes, start: int, codec: str, name: str) -> str:
    try:
        return data[start:].decode(codec)
    except UnicodeDecodeError as e:
        line, col = _where(data, start, start + e.start, codec)
        what = e.reason if e.end - e.start else "truncated data"
        raise PipelineError(f"not a text file: cannot decode as {codec} ({what}, byte offset "
                            f"{start + e.start})", name, line, col, rule="ZS-SRC-001") from None


def _where(data: bytes, start: int, at: int, codec: str) -> tuple[int, int]:
    """Line and column (in characters) of byte offset `at`, the text decoded from `start`."""
    before = data[start:at].decode(codec, "replace")
    line = before.count("\n") + 1
    return line, len(before) - (before.rfind("\n") + 1) + 1


# The commonest characters of the classics and their commentaries, in both scripts.
_COMMON = frozenset("之也者而不以其為为於于曰人有天子無无所此故是言云謂谓禮礼注疏經经王大中下上日"
                    "一二三四五十時时則则乃若諸诸侯君臣父母民事")


def _commonness(text: str) -> int:
    sample = text[:20000]
    return sum(1 for c in sample if c in _COMMON)


def _looks_like_text(text: str) -> bool:
    bad = sum(1 for c in text if unicodedata.category(c) in ("Cc", "Co", "Cn") and c not in "\n\r\t")
    return bad <= len(text) // 1000


def read_source(path: str, encoding: str | None = None, options=None) -> Source:
    """A source file read and decoded; a Kanripo file with its edition's context (Readme.org,
    page images, the gaiji table: found beside it, or where kanripo.Options says)."""
    if os.path.isdir(path):
        raise PipelineError("is a directory (give a file, or a directory with -o for several)", path)
    data = files.read_regular(path, MAX_BYTES)

    def near():
        from pipeline.sources import kanripo
        o = options or kanripo.Options()
        return kanripo.Context.near(path, o.gaiji, o.imglist, o.facs_base)
    return source_from_bytes(data, path, encoding, _sidecar(path), near)


def source_from_bytes(data: bytes, name: str, encoding: str | None = None,
                      meta: dict | None = None, context=None) -> Source:
    """A source from its bytes. A Kanripo (mandoku) file is read with its edition's context
    (kanripo.Context, or a function giving one: found only when the file is one)."""
    text = decode(data, name, encoding)
    if "\r" in text:                          # (most files have none: no copies then)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text, controls = _stand_in_controls(text, name)
    if not text.strip():
        raise PipelineError("empty file: nothing to convert", name, 1, 1, rule="ZS-SRC-001")
    compat = compat_offsets(text)
    if compat:                                # kept as their variation sequences (chars)
        at = compat[0]
        first = (text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1)
        text = text.translate(COMPAT_SEQUENCES)
    nfc = unicodedata.normalize("NFC", text)
    changed = 0 if nfc == text else sum(1 for a, b in zip(text, nfc) if a != b) or 1
    lost = _positions(nfc, LOST) if LOST in nfc else []
    src = Source(name, nfc, hashlib.sha256(data).hexdigest(), meta or {}, renormalized=changed, lost=lost)
    src.controls = controls
    src.compat = (len(compat), first) if compat else None
    from pipeline.sources import mandoku
    if mandoku.looks_like(nfc):
        from pipeline.sources import kanripo
        ctx = (context() if callable(context) else context) or kanripo.Context()
        src.mandoku = mandoku.parse(nfc, name, ctx.gaiji_char)
        src.delimiters = mandoku.DELIMITERS
        src.kanripo = ctx.for_file(src)
    return src


def _stand_in_controls(text: str, name: str) -> tuple[str, list]:
    """A control character (or U+FFFE/U+FFFF) XML cannot hold is a damaged e-text's, now and
    then (a stray U+0001 in a note of Kanripo's 儀禮): it is kept as its private stand-in
    (chars.stand_in), declared in the TEI, with a warning at its place. Many of them make a
    binary file, not a text: refused, naming the first."""
    found = list(_CONTROL.finditer(text))
    if not found:
        return text, []
    where = []
    for m in found[:_MAX_CONTROLS + 1]:
        bad = m.start()
        line = text.count("\n", 0, bad) + 1
        where.append((line, bad - (text.rfind("\n", 0, bad) + 1) + 1, ord(m.group())))
    if len(found) > max(_MAX_CONTROLS, len(text) // 1000):
        line, col, cp = where[0]
        raise PipelineError(f"not a text file: character U+{cp:04X} (a control or non-character, "
                            f"not allowed in XML), and {len(found) - 1} more", name, line, col,
                            rule="ZS-SRC-001")
    return _CONTROL.sub(lambda m: stand_in(m.group()), text), where


_MAX_CONTROLS = 8


def _positions(text: str, ch: str) -> list[tuple[int, int]]:
    out, at = [], text.find(ch)
    while at != -1:
        out.append((text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1))
        at = text.find(ch, at + 1)
    return out


def check_text(value: str, what: str) -> str:
    """A value given on the command line or in a sidecar, fit to go into the TEI: no bytes
    that are not UTF-8 (Python keeps them as lone surrogates), no control characters."""
    for ch in value:
        cp = ord(ch)
        if 0xDC80 <= cp <= 0xDCFF:
            raise PipelineError(f"{what}: byte 0x{cp - 0xDC00:02x} is not UTF-8", rule="ZS-OPT-001")
        if 0xD800 <= cp <= 0xDFFF or _CONTROL.match(ch) or ch in "\t\n\r":
            raise PipelineError(f"{what}: character U+{cp:04X} (a control character) is not "
                                "allowed", rule="ZS-OPT-001")
    return value


_SIDECAR_MAX = 1024 * 1024


def _sidecar(path: str) -> dict:
    """Header metadata an editor keeps beside the source: `<stem>.meta.json`, an object whose
    values are strings (work, juan, section, note)."""
    side = os.path.splitext(path)[0] + ".meta.json"
    if not os.path.exists(side):
        return {}
    data = files.read_regular(side, _SIDECAR_MAX)
    try:
        meta = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise PipelineError(f"bad metadata sidecar: {e}", side, rule="ZS-SRC-002") from None
    if not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values()):
        raise PipelineError("bad metadata sidecar: expected a JSON object of strings", side,
                            rule="ZS-SRC-002")
    for k, v in meta.items():
        try:
            check_text(v, f"{k!r}")
        except PipelineError as e:
            raise PipelineError(f"bad metadata sidecar: {e.message}", side, rule="ZS-SRC-002") from None
    return meta
