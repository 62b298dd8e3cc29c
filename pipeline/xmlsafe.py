"""Parsing untrusted XML: no DTD, no entities, no network, bounded size and depth.

Contributors' TEI is untrusted. Our TEI never needs a DOCTYPE, so any DTD (the carrier of XXE,
billion-laughs and quadratic-blowup attacks) is refused before libxml2 sees the document.
"""
from __future__ import annotations

import re

from lxml import etree

from .errors import PipelineError

MAX_BYTES = 200 * 1024 * 1024
MAX_DEPTH = 256                 # libxml2's own bound without XML_PARSE_HUGE
_DTD = re.compile(rb"<!DOCTYPE|<!ENTITY", re.I)
_DECL = re.compile(rb"(?:\xef\xbb\xbf)?<\?xml\s[^<>]*\?>")
_PI = etree.XPath("//processing-instruction()")


def parser() -> etree.XMLParser:
    # collect_ids=False: a duplicate xml:id is a rule violation (ZS-ID-001) we report with its
    # position, not a parse failure.
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, remove_pis=False,
                           collect_ids=False)


def _where(data: bytes, at: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, at) + 1
    col = len(data[data.rfind(b"\n", 0, at) + 1:at].decode("utf-8", "replace")) + 1
    return line, col


def parse_bytes(data: bytes, name: str, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH):
    """Parse untrusted XML. Refused, each with one clear message and nothing from the document
    echoed: more than `max_bytes`, a DOCTYPE or entity declaration (XXE, billion laughs,
    quadratic blowup, external DTDs), a processing instruction (a stylesheet to fetch),
    elements nested deeper than `max_depth` (libxml2 itself stops at 256)."""
    if len(data) > max_bytes:
        raise PipelineError(f"file is {len(data)} bytes, over the limit of {max_bytes}", name)
    m = _DTD.search(data, 0, 65536) or _DTD.search(data)
    if m:
        raise PipelineError("DTD or entity declaration refused (untrusted XML may not declare a "
                            "DOCTYPE or entities)", name, *_where(data, m.start()))
    try:
        root = etree.fromstring(data, parser(), base_url=None)
    except etree.XMLSyntaxError as e:
        line, col = e.position if e.position else (None, None)
        msg = e.msg.split(",", 1)[0] if "Excessive depth" in e.msg else e.msg
        raise PipelineError(f"not well-formed XML: {msg}", name, line, col) from None
    tree = root.getroottree()
    # Only a document with `<?` beyond its XML declaration can hold one (or a comment or
    # CDATA quoting it): the tree is searched then, and not for every clean file.
    decl = _DECL.match(data)
    pis = _PI(tree) if data.find(b"<?", decl.end() if decl else 0) != -1 else None
    if pis:
        raise PipelineError(f"processing instruction <?{pis[0].target} …?> refused (untrusted XML "
                            "may not ask for stylesheets or other processing)", name,
                            pis[0].sourceline or None)
    if max_depth < MAX_DEPTH and root.xpath("boolean(/*" + "/*" * max_depth + ")"):
        raise PipelineError(f"elements nested more than {max_depth} deep", name)
    return tree


def read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except IsADirectoryError:
        raise PipelineError("is a directory", path) from None
    except OSError as e:
        raise PipelineError(f"cannot read: {e.strerror}", path) from None


def parse_file(path: str, **limits):
    return parse_bytes(read_bytes(path), path, **limits)
