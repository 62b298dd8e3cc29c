"""The one walk over the model: which nodes are inside which, known here only.

A pass over the document (ids, stray delimiters, the persons pointed at) takes the nodes from
`walk` and handles the types it cares for; a new kind of node is added here, and to the passes
that must see it.
"""
from __future__ import annotations

from typing import Iterator

from pipeline.model.nodes import (Document, Judgment, KaozhengEntry, NameEntry, Prose, SmallNote,
                                  Translation, Unit, YishuBlock)


def walk(doc: Document) -> Iterator:
    """Every node of the document, each once: first the divs in document order, each followed
    by its heading, its closings and the furniture printed before its heading; then the blocks
    in document order (Document.blocks), each followed by the nodes inside it: a unit's pieces
    (small notes among them), a 義疏 block's quotations each with its small notes, the small
    notes and judgments of the others, a judgment's notes after it. (A 疏's paragraphs are
    its own: text, not nodes.) Divs come first: their furniture is numbered before the blocks'."""
    for div in doc.all_divs():
        yield div
        if div.head is not None:
            yield div.head
        yield from div.trailers
        yield from div.front
    for block in doc.blocks():
        yield block
        kind = type(block)
        if kind is Unit:
            yield from block.pieces
        elif kind is YishuBlock:
            for q in block.quotes:
                yield q
                yield from _notes_in(q.parts)
        elif kind is KaozhengEntry:
            for p in _notes_in(block.parts):
                yield p
                if type(p) is Judgment:
                    yield from _notes_in(p.parts)
        elif kind in (Translation, Prose, NameEntry):
            yield from _notes_in(block.parts)


def _notes_in(parts: list) -> list:
    """The small notes and judgments among a block's parts (the rest is text)."""
    return [p for p in parts if isinstance(p, (SmallNote, Judgment))]
