"""The readers, one module per source layout, and the detector that picks one.

Each reader module exposes NAME, DESCRIPTION, `sniff(text) -> (score, reason)` with a score
from 0 to 1, and `read(source, report) -> Document`. `--format` choices come from READERS.
"""
from __future__ import annotations

from ..errors import PipelineError
from . import paren, runon, siku, yishu

READERS = {m.NAME: m for m in (paren, runon, siku, yishu)}


def detect(text: str, name: str = "") -> tuple[str, str]:
    """(layout, why): the reader whose sniff scores highest (of equal scores, the first by
    name), or an error when none fits. The readers are asked in name order, so the first to
    score 1, the most a sniff gives, is chosen without asking the others."""
    scored = []
    for n in sorted(READERS):
        score, why = READERS[n].sniff(text)
        if score >= 1.0:
            return n, why
        scored.append(((score, why), n))
    scored.sort(key=lambda x: (-x[0][0], x[1]))
    (score, why), best = scored[0]
    if score < 0.2:
        raise PipelineError("cannot tell the layout (" + "; ".join(
            f"{n}: {w}" for (s, w), n in scored) + "); give --format", name, rule="ZS-CONV-LAYOUT")
    return best, why


def get(name: str):
    try:
        return READERS[name]
    except KeyError:
        raise PipelineError(f"unknown format {name!r}; known: {', '.join(sorted(READERS))}",
                            rule="ZS-OPT-001") from None
