"""Reading a source file: bytes → text, with a clear error for anything that is not a text."""
from __future__ import annotations

import hashlib
import json
import os
import re
import unicodedata
from dataclasses import dataclass, field

from .errors import PipelineError

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

    @property
    def basename(self) -> str:
        return os.path.basename(self.name)


def decode(data: bytes, name: str, encoding: str | None = None) -> str:
    if encoding:
        try:
            return data.decode(encoding)
        except (UnicodeDecodeError, LookupError) as e:
            raise PipelineError(f"cannot decode as {encoding}: {e}", name) from None
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="strict")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    if b"\x00" in data[:4096]:
        raise PipelineError(f"not a text file (NUL byte at offset {data.index(0)})", name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        utf8_error = e
    for enc in FALLBACK_ENCODINGS:
        try:
            text = data.decode(enc)
        except UnicodeDecodeError:
            continue
        if _looks_like_text(text):
            return text
    line = data[: utf8_error.start].count(b"\n") + 1
    line_start = data.rfind(b"\n", 0, utf8_error.start) + 1
    col = len(data[line_start:utf8_error.start].decode("utf-8")) + 1    # in characters
    raise PipelineError(f"not a text file: invalid UTF-8 (byte 0x{data[utf8_error.start]:02x}) and no "
                        f"other known encoding fits", name, line, col)


def _looks_like_text(text: str) -> bool:
    bad = sum(1 for c in text if unicodedata.category(c) in ("Cc", "Co", "Cn") and c not in "\n\r\t")
    return bad <= len(text) // 1000


def read_source(path: str, encoding: str | None = None) -> Source:
    if os.path.isdir(path):
        raise PipelineError("is a directory (give a file, or a directory with -o for several)", path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise PipelineError(f"cannot read: {e.strerror}", path) from None
    return source_from_bytes(data, path, encoding, _sidecar(path))


def source_from_bytes(data: bytes, name: str, encoding: str | None = None,
                      meta: dict | None = None) -> Source:
    text = decode(data, name, encoding)
    if "\r" in text:                          # (most files have none: no copies then)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    m = _CONTROL.search(text)
    if m:
        bad = m.start()
        line = text.count("\n", 0, bad) + 1
        col = bad - (text.rfind("\n", 0, bad) + 1) + 1
        raise PipelineError(f"not a text file: character U+{ord(text[bad]):04X} (a control or "
                            "non-character, not allowed in XML)", name, line, col)
    if not text.strip():
        raise PipelineError("empty file: nothing to convert", name)
    nfc = unicodedata.normalize("NFC", text)
    changed = 0 if nfc == text else sum(1 for a, b in zip(text, nfc) if a != b) or 1
    return Source(name, nfc, hashlib.sha256(data).hexdigest(), meta or {}, changed)


def _sidecar(path: str) -> dict:
    """Header metadata an editor keeps beside the source: `<stem>.meta.json`."""
    side = os.path.splitext(path)[0] + ".meta.json"
    if not os.path.exists(side):
        return {}
    try:
        with open(side, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise PipelineError(f"bad metadata sidecar: {e}", side) from None
    if not isinstance(data, dict):
        raise PipelineError("bad metadata sidecar: expected a JSON object", side)
    return data
