"""The readers, one module per source layout, and the detector that picks one.

Each reader module exposes NAME, DESCRIPTION, `sniff(text) -> (score, reason)` and
`read(source, report) -> Document`. `--format` choices come from READERS.
"""
from __future__ import annotations

from ..errors import PipelineError
from . import paren, runon, siku, yishu

READERS = {m.NAME: m for m in (paren, runon, siku, yishu)}


def detect(text: str, name: str = "") -> tuple[str, str]:
    """(layout, why): the reader whose sniff scores highest, or an error when none fits."""
    scored = sorted(((m.sniff(text), m.NAME) for m in READERS.values()),
                    key=lambda x: (-x[0][0], x[1]))
    (score, why), best = scored[0]
    if score < 0.2:
        raise PipelineError("cannot tell the layout (" + "; ".join(
            f"{n}: {w}" for (s, w), n in scored) + "); give --format", name)
    return best, why


def get(name: str):
    try:
        return READERS[name]
    except KeyError:
        raise PipelineError(f"unknown format {name!r}; known: {', '.join(sorted(READERS))}") from None
