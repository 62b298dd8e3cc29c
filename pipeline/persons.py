"""The registry of scholars (data/scholars.tsv): the same person gets the same id in every document."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True, slots=True)
class Person:
    id: str
    name: str
    surnames: tuple[str, ...]
    given: tuple[str, ...]
    courtesy: tuple[str, ...]
    dynasty: str
    role: str


@functools.cache
def registry() -> dict[str, Person]:
    text = resources.files("pipeline").joinpath("data/scholars.tsv").read_text(encoding="utf-8")
    people = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cells = (line.split("\t") + [""] * 7)[:7]
        pid, name, sur, given, zi, dyn, role = cells
        split = lambda s: tuple(x for x in s.split("|") if x)
        people[pid] = Person(pid, name, split(sur), split(given), split(zi), dyn, role)
    return people


def get(pid: str) -> Person:
    return registry()[pid]


@functools.cache
def _works() -> list[tuple[tuple[str, ...], str, str]]:
    text = resources.files("pipeline").joinpath("data/works.tsv").read_text(encoding="utf-8")
    rows = []
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            keys, zhu, shu = (line.split("\t") + ["", ""])[:3]
            rows.append((tuple(keys.split("|")), zhu, shu))
    return rows


def commentators(work: str) -> tuple[str | None, str | None]:
    """(注 author, 疏 author) of a work, or (None, None) when the title is not in works.tsv."""
    for keys, zhu, shu in _works():
        if any(k in work for k in keys):
            return zhu or None, shu or None
    return None, None


def named_in(text: str) -> str | None:
    """The registry person a short phrase names: 陆德明, 孔颖达, or a surname with 氏 (郑氏, in a
    commentators line, is 鄭玄: the first of that surname in the registry)."""
    for p in registry().values():
        for sur in p.surnames:
            if any(sur + g in text for g in p.given + p.courtesy) or sur + "氏" in text:
                return p.id
    return None
