"""Parsing untrusted XML: no DTD, no entities, no network, bounded size and depth.

Contributors' TEI is untrusted. Our TEI never needs a DOCTYPE, so any DTD (the carrier of XXE,
billion-laughs and quadratic-blowup attacks) is refused before libxml2 sees the document.
"""
from __future__ import annotations

import re

from lxml import etree

from .errors import PipelineError

MAX_BYTES = 200 * 1024 * 1024
_DTD = re.compile(rb"<!DOCTYPE|<!ENTITY", re.I)


def parser() -> etree.XMLParser:
    # collect_ids=False: a duplicate xml:id is a rule violation (ZS-ID-001) we report with its
    # position, not a parse failure.
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, remove_pis=False,
                           collect_ids=False)


def parse_bytes(data: bytes, name: str, max_bytes: int = MAX_BYTES):
    """Parse; libxml2 without XML_PARSE_HUGE also caps nesting at 256 levels and text nodes at 10 MB."""
    if len(data) > max_bytes:
        raise PipelineError(f"file is {len(data)} bytes, over the limit of {max_bytes}", name)
    m = _DTD.search(data, 0, 65536) or _DTD.search(data)
    if m:
        line = data.count(b"\n", 0, m.start()) + 1
        col = m.start() - (data.rfind(b"\n", 0, m.start()) + 1) + 1
        raise PipelineError("DTD or entity declaration refused (untrusted XML may not declare a "
                            "DOCTYPE or entities)", name, line, col)
    try:
        root = etree.fromstring(data, parser(), base_url=None)
    except etree.XMLSyntaxError as e:
        line, col = e.position if e.position else (None, None)
        raise PipelineError(f"not well-formed XML: {e.msg}", name, line, col) from None
    return root.getroottree()


def parse_file(path: str, **limits):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except IsADirectoryError:
        raise PipelineError("is a directory", path) from None
    except OSError as e:
        raise PipelineError(f"cannot read: {e.strerror}", path) from None
    return parse_bytes(data, path, **limits)
