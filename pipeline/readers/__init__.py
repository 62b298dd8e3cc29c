"""The readers, one module per source layout, and the detector that picks one.

Each reader module exposes NAME, DESCRIPTION, `sniff(text) -> (score, reason)` with a score
from 0 to 1, and `read(source, report) -> Document`. `--format` choices come from READERS.

A reader that reads the layout in a Kanripo (mandoku) file too exposes `sniff_mandoku(doc)`,
scored on the printed lines, and `paragraphs(lines)`, which joins the printed lines into the
paragraphs its plain e-texts have; `prepare` gives the reader that text (pipeline/sources/mandoku.py).
"""
from __future__ import annotations

from pipeline.errors import PipelineError
from pipeline.readers import bare, front
from pipeline.readers.yishu import reader as yishu
from pipeline.readers.zhushu import paren, runon, siku

READERS = {m.NAME: m for m in (bare, front, paren, runon, siku, yishu)}


def detect(text: str, name: str = "") -> tuple[str, str]:
    """(layout, why): the reader whose sniff scores highest (of equal scores, the first by
    name), or an error when none fits."""
    return _best(((n, lambda m=m: m.sniff(text)) for n, m in sorted(READERS.items())),
                 "cannot tell the layout", name)


def detect_mandoku(doc, name: str = "") -> tuple[str, str]:
    """(layout, why) for a Kanripo file: of the readers that read mandoku, the best scored."""
    n, why = _best(((n, lambda m=m: m.sniff_mandoku(doc)) for n, m in sorted(READERS.items())
                    if hasattr(m, "sniff_mandoku")), "a Kanripo file, but no layout fits it", name)
    return n, "Kanripo mandoku markup; " + why


def _best(sniffs, refusal: str, name: str) -> tuple[str, str]:
    """The best of (name, sniff) pairs asked in name order: the first to score 1, the most a
    sniff gives, is chosen without asking the others; below 0.2 nothing fits."""
    scored = []
    for n, sniff in sniffs:
        score, why = sniff()
        if score >= 1.0:
            return n, why
        scored.append(((score, why), n))
    scored.sort(key=lambda x: (-x[0][0], x[1]))
    (score, why), best = scored[0]
    if score < 0.2:
        raise PipelineError(f"{refusal} (" + "; ".join(f"{n}: {w}" for (s, w), n in scored)
                            + "); give --format", name, rule="ZS-CONV-LAYOUT")
    return best, why


def prepare(src, layout: str, report) -> None:
    """Give a Kanripo source the text the layout's reader reads: its printed lines joined into
    that layout's paragraphs, with the events placed and the way back to the file."""
    from pipeline.chars import WHITESPACE
    from pipeline.sources import paragraphs
    reader = get(layout)
    if not hasattr(reader, "paragraphs"):
        raise PipelineError(f"the {layout} layout does not read Kanripo files (formats that do: "
                            f"{', '.join(sorted(n for n, m in READERS.items() if hasattr(m, 'paragraphs')))})",
                            src.name, rule="ZS-OPT-001")
    logical = paragraphs.join(reader.paragraphs(src.mandoku.lines))
    # pages after the last printed line (a file ending on a page marker) close the text
    logical.events += [paragraphs.Event(len(logical.text), "pb", p) for p in src.mandoku.trailing_pages]
    src.text = logical.text
    src.events = logical.counted(WHITESPACE | src.delimiters)
    src.locate = report.locate = logical.source_pos


def structure_missing(doc, layout: str) -> str | None:
    """What the layout's reader saw, when it recovered next to no structure (the layout's
    `structure_missing`; None when it has no such test or the structure is real)."""
    test = getattr(get(layout), "structure_missing", None)
    return test(doc) if test is not None else None


def get(name: str):
    try:
        return READERS[name]
    except KeyError:
        raise PipelineError(f"unknown format {name!r}; known: {', '.join(sorted(READERS))}",
                            rule="ZS-OPT-001") from None
