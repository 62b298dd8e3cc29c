"""The persons a file points at in the corpus's persons.xml (psn:zhengxuan), joined into the
file as the renderers read it: each pointed-at person is copied into the tree's standOff and
the pointers made "#id", so that every renderer (pages.py, search_text.py, common.xsl, which
trusts same-document pointers only) sees one self-contained document, as before the registry
was shared. The registry is persons.xml beside the file, read once per directory (as untrusted
XML); without one, Zhushu's own copy in schema/, the bytes `convert` writes."""
from __future__ import annotations

import copy
import functools
import os

from lxml import etree

from pipeline import resources
from pipeline.constants import PERSONS_FILE, TEI, XML_ID
from pipeline.validate import xmlsafe

_PREFIX = "psn:"
_ATTRS = ("resp", "ref")


# the elements whose @resp or @ref names a person of the shared registry
_POINTING = etree.XPath("//*[contains(@resp, 'psn:') or contains(@ref, 'psn:')]")


@functools.lru_cache(maxsize=16)
def _persons(directory: str) -> dict:
    """The persons of `directory`'s persons.xml by id; without one, Zhushu's own copy (the bytes
    `convert` writes, schema/persons.xml)."""
    path = os.path.join(directory, PERSONS_FILE)
    if not os.path.exists(path):
        path = resources.path("schema", PERSONS_FILE)
    root = xmlsafe.load(path).getroot()
    return {p.get(XML_ID): p for p in root.iter(f"{TEI}person") if p.get(XML_ID)}


def join_persons(tree, path: str) -> None:
    """Resolve the psn: pointers of `tree` (read from `path`) in place."""
    root = tree.getroot()
    pointed: set[str] = set()
    for el in _POINTING(root):
        for attr in _ATTRS:
            v = el.get(attr)
            if v is None or _PREFIX not in v:
                continue
            refs = v.split()
            pointed.update(r[len(_PREFIX):] for r in refs if r.startswith(_PREFIX))
            el.set(attr, " ".join("#" + r[len(_PREFIX):] if r.startswith(_PREFIX) else r for r in refs))
    registry = _persons(os.path.dirname(os.path.abspath(path)))
    found = [registry[p] for p in sorted(pointed) if p in registry]
    if not found:
        return
    stand_off = root.find(f"{TEI}standOff")
    if stand_off is None:
        stand_off = etree.Element(f"{TEI}standOff")
        root.find(f"{TEI}text").addprevious(stand_off)
    lp = stand_off.find(f"{TEI}listPerson")
    if lp is None:
        lp = etree.SubElement(stand_off, f"{TEI}listPerson")
    for p in found:
        lp.append(copy.deepcopy(p))
