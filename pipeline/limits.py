"""The bounds Zhushu puts on untrusted input, in one place (docs/security.md explains them).

`validate`, `text`, `render html` and `render pdf` read XML through `xmlsafe.load` with these
limits, so a file one command accepts the others accept too; `convert` reads sources with the
same size bound. `validate --max-size/--max-depth` may lower them, never raise them.
"""
from __future__ import annotations

from dataclasses import dataclass

# A whole 卷 of the largest works is 1–4 MB; a generous bound that still keeps one file from
# filling memory (lxml holds about 5× the file's size while parsing).
MAX_BYTES = 200 * 1024 * 1024

# Our TEI nests at most a dozen levels (TEI > text > body > div > div > note > note > p >
# mentioned > g); other projects' TEI rarely passes 30. Saxon's recursive templates fail some
# way above 100, libxml2 stops at 256: 64 is accepted by every stage.
MAX_DEPTH = 64

# libxml2's own bounds, which apply because Zhushu never sets XML_PARSE_HUGE: a single text
# node, attribute value or start tag of at most 10,000,000 bytes (so at most some two million
# attributes on an element, which libxml2 checks for duplicates in linear time and every stage
# after it handles: a count limit of our own would cost a tenth of validation for nothing),
# a name of at most 50,000.
LIBXML2_MAX_TEXT = 10_000_000

# Problems reported for one file: past this, one more line says how many were left out, so a
# hostile file cannot make the report (or the time spent locating its lines) unbounded.
MAX_ISSUES_PER_FILE = 1000


@dataclass(frozen=True)
class Limits:
    """The limits one run applies (validate's options may lower the defaults)."""
    max_bytes: int = MAX_BYTES
    max_depth: int = MAX_DEPTH

    def __post_init__(self):
        if not (0 < self.max_bytes <= MAX_BYTES and 0 < self.max_depth <= MAX_DEPTH):
            raise ValueError("limits may be lowered, not raised")
