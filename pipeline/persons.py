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
    aliases: tuple[str, ...] = ()
    birth: str = ""                     # a year, where established (negative: BCE)
    death: str = ""
    source: str = ""                    # where the dates (and any authority id) came from
    # authority records: (authority, id), e.g. ("CBDB", "12345"), ("wikidata", "Q1"): only ids
    # checked against the authority itself (none is filled in yet: see docs/encoding.md)
    authorities: tuple[tuple[str, str], ...] = ()


@functools.cache
def registry() -> dict[str, Person]:
    text = resources.files("pipeline").joinpath("data/scholars.tsv").read_text(encoding="utf-8")
    people = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cells = (line.split("\t") + [""] * 12)[:12]
        pid, name, sur, given, zi, dyn, role, aliases, birth, death, source, ids = cells
        split = lambda s: tuple(x for x in s.split("|") if x)
        people[pid] = Person(pid, name, split(sur), split(given), split(zi), dyn, role, split(aliases),
                             birth, death, source, authorities(ids))
    return people


AUTHORITIES = ("CBDB", "VIAF", "wikidata")


def authorities(cell: str) -> tuple[tuple[str, str], ...]:
    """`CBDB:12345|wikidata:Q1` → (("CBDB", "12345"), ("wikidata", "Q1")); an authority not
    in AUTHORITIES, or an entry without its id, is refused (a typo must not publish a bad id)."""
    out = []
    for entry in filter(None, cell.split("|")):
        name, _, value = entry.partition(":")
        if name not in AUTHORITIES or not value:
            raise ValueError(f"scholars.tsv: authority id {entry!r} is not one of "
                             f"{', '.join(a + ':<id>' for a in AUTHORITIES)}")
        out.append((name, value))
    return tuple(out)


def get(pid: str) -> Person:
    return registry()[pid]


@functools.cache
def _works() -> list[tuple[tuple[str, ...], str, str, str]]:
    text = resources.files("pipeline").joinpath("data/works.tsv").read_text(encoding="utf-8")
    rows = []
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            keys, zhu, shu, siku = (line.split("\t") + ["", "", ""])[:4]
            rows.append((tuple(keys.split("|")), zhu, shu, siku))
    return rows


def commentators(work: str) -> tuple[str | None, str | None]:
    """(注 author, 疏 author) of a work, or (None, None) when the title is not in works.tsv."""
    for keys, zhu, shu, _ in _works():
        if any(k in work for k in keys):
            return zhu or None, shu or None
    return None, None


def siku_of(work: str) -> str:
    """The 四庫全書總目's classification of a work (經部,禮類,周禮之屬), '' when not in works.tsv."""
    for keys, _, _, siku in _works():
        if any(k in work for k in keys):
            return siku
    return ""


def named_in(text: str) -> str | None:
    """The registry person a short phrase names: 陆德明, 孔颖达, or a surname with 氏 (郑氏, in a
    commentators line, is 鄭玄: the first of that surname in the registry)."""
    for p in registry().values():
        for sur in p.surnames:
            if any(sur + g in text for g in p.given + p.courtesy) or sur + "氏" in text:
                return p.id
    return None


@functools.cache
def _by_name() -> dict[str, str]:
    """surname+given, surname+courtesy and aliases → id (first registry row wins)."""
    out: dict[str, str] = {}
    for p in registry().values():
        for sur in p.surnames:
            for g in p.given + p.courtesy:
                out.setdefault(sur + g, p.id)
        for a in p.aliases:
            out.setdefault(a, p.id)
    return out


def lookup(surname: str, given: str) -> str | None:
    """The id of the scholar a 義疏 attribution names (郑氏康成曰: 郑 + 康成), if registered."""
    return _by_name().get(surname + given)


def alias(name: str) -> str | None:
    """The id of a scholar named by an alias alone (朱子), if registered."""
    return _by_name().get(name) if any(name in p.aliases for p in registry().values()) else None
