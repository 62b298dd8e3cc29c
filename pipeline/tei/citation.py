"""The citable structure of a document, as its header declares it: the URN of each 卷 (fileDesc/
publicationStmt/idno type="URN", `urn:zhushu:<work>:<卷>`) and the citeStructure of its
divisions (encodingDesc/refsDecl: 卷 → 篇 → 章 → unit, each by @n, the unit by @xml:id), so that
`urn:zhushu:liji-zhengyi:46.23.u12` names one element (pipeline/resolve.py finds it).

The structure declared is the one the document has: a level only where a div of its kind holds
units,
units cited from the nearest citable div above them (a 右… section or an office (官) is no level
of its own: its units are its 篇's).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from pipeline.model import Div, Document, Translation, Unit
from pipeline.tei.markup import _el

URN_PREFIX = "urn:zhushu:"
# The divisions a citation names, outermost first (model Div.kind), each by its @n.
CITABLE = ("juan", "pian", "zhang")
UNIT = "unit"
DELIM = "."
# Written as <ab xml:id=…>: what a citation's last part names.
_UNITS = (Unit, Translation)


@dataclass
class Level:
    """One level of the citeStructure: the divs of a kind (or, kind UNIT, the units) under the
    level above, and the levels under it."""
    kind: str
    units: bool = False                     # units whose nearest citable div is of this level
    sub: dict = field(default_factory=dict)  # kind → Level


@dataclass
class Cite:
    """What a header declares of a document's citation: the URN of each top-level citable div
    (its @n), and the levels."""
    urns: list[str]
    top: dict                               # kind → Level


@lru_cache(maxsize=1)
def _slugs() -> tuple[tuple[str, str], ...]:
    text = resources.files("pipeline").joinpath("data/slugs.tsv").read_text(encoding="utf-8")
    forms = []
    for line in text.splitlines():
        if line and not line.startswith("#"):
            names, slug = line.split("\t")
            forms += [(name, slug) for name in names.split("|")]
    return tuple(sorted(forms, key=lambda f: -len(f[0])))


def work_slug(work: str, edition: str = "") -> str:
    """The work a URN names (slugs.tsv: the longest form the title contains), with a Kanripo
    edition's code (zhouli-sbck); '' for a work not in the table."""
    slug = next((s for name, s in _slugs() if name in work), "") if work else ""
    return f"{slug}-{edition.lower()}" if slug and edition else slug


def of(doc: Document) -> Cite:
    """The citation of `doc`: its levels, and a URN for each top-level citable div with an @n
    when its work is known."""
    root = Level("")
    _fill(doc.divs, root)
    edition = doc.meta.edition.edition if doc.meta.edition is not None else ""
    slug = work_slug(doc.meta.work, edition)
    ns = [d.n for d in doc.divs if d.kind in CITABLE and d.n and _holds_units(d)] if slug else []
    return Cite([f"{URN_PREFIX}{slug}:{n}" for n in dict.fromkeys(ns)], root.sub)


def _fill(blocks, level: Level) -> None:
    for b in blocks:
        if isinstance(b, Div):
            if b.kind in CITABLE and b.n and _holds_units(b):
                _fill(b.blocks, level.sub.setdefault(b.kind, Level(b.kind)))
            else:                           # a section, an office: its units are the level's
                _fill(b.blocks, level)
        elif isinstance(b, _UNITS):
            level.units = True


def idnos(parent, m) -> None:
    """The document's URNs (one per 卷 it holds) as idno type="URN" in `parent` (publicationStmt)."""
    for urn in (m.cite.urns if m.cite is not None else ()):
        _el(parent, "idno", urn, type="URN")


def refs_decl(parent, m) -> None:
    """refsDecl/citeStructure in `parent` (encodingDesc), when the document has citable divs."""
    if m.cite is None or not m.cite.top:
        return
    refs = _el(parent, "refsDecl")
    for kind, level in m.cite.top.items():
        _structure(refs, level, f"/TEI/text/body/div[@type='{kind}'][@n]", top=True)


def _structure(parent, level: Level, match: str, top: bool = False) -> None:
    el = _el(parent, "citeStructure", unit=level.kind, match=match, use="@n", delim=None if top else DELIM)
    for kind, sub in level.sub.items():
        _structure(el, sub, f".//div[@type='{kind}'][@n]")
    if level.units:
        deeper = CITABLE[CITABLE.index(level.kind) + 1:]
        # a unit under a deeper citable div is cited from there, not from here too
        skip = " or ".join(f"@type='{k}'" for k in deeper if _holds(level, k))
        unit = ".//ab[@xml:id]" + (f"[not(ancestor::div[{skip}])]" if skip else "")
        _el(el, "citeStructure", unit=UNIT, match=unit, use="@xml:id", delim=DELIM)


def _holds_units(div: Div) -> bool:
    """Whether a unit is anywhere in `div`: an empty div (a Kanripo front file's unnumbered 卷,
    n="0") is nothing to cite, nor is a div with no @n (what follows a 考證 with no title)."""
    return any(isinstance(b, _UNITS) or (isinstance(b, Div) and _holds_units(b)) for b in div.blocks)


def _holds(level: Level, kind: str) -> bool:
    return kind in level.sub or any(_holds(s, kind) for s in level.sub.values())
