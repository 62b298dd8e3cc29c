"""The corpus's shared files as the validator sees them: persons.xml and categories.xml beside
a document (constants.SHARED_PREFIXES), or, for a file with none beside it, Zhushu's own copy
in schema/ (the same bytes `convert` writes); each read once per run and directory (as untrusted
XML, through xmlsafe), reduced to the ids a psn: or cat: pointer may name. A pointer through a prefix
resolves within the corpus being validated, never by following a URL."""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field

from pipeline import resources
from pipeline.constants import SHARED_FILES, SHARED_PREFIXES, TEI, XML_ID
from pipeline.errors import PipelineError
from pipeline.validate import xmlsafe


@dataclass
class SharedFile:
    path: str
    ids: frozenset = frozenset()
    categories: frozenset = frozenset()     # of categories.xml: the note types (zs-types)
    problem: str = ""                       # why it cannot be used (missing, unsafe, not TEI)


@dataclass
class Corpus:
    """The shared files of one directory, by prefix."""
    files: dict = field(default_factory=dict)

    def resolve(self, pointer: str) -> str | None:
        """None when `pointer` (psn:zhengxuan) names an element of its shared file, else why not;
        a pointer with no known prefix is not this module's (the caller reports it)."""
        prefix, _, ident = pointer.partition(":")
        f = self.files[prefix]
        if f.problem:
            return f.problem
        return None if ident in f.ids else f"names no xml:id of {os.path.basename(f.path)}"

    def note_types(self) -> frozenset | None:
        f = self.files["cat"]
        return None if f.problem else f.categories


def is_shared(path: str) -> bool:
    return os.path.basename(path) in SHARED_FILES


def prefixed(pointer: str) -> bool:
    return pointer.partition(":")[0] in SHARED_PREFIXES and ":" in pointer


@functools.lru_cache(maxsize=64)
def corpus_of(directory: str) -> Corpus:
    """The shared files beside the documents of `directory`, read once per run."""
    return Corpus({prefix: _read(os.path.join(directory, name)) for prefix, name in SHARED_PREFIXES.items()})


def _read(path: str) -> SharedFile:
    if not os.path.exists(path):
        # a file alone (no corpus around it): Zhushu's own shared files, the very bytes
        # `convert` writes beside its outputs (schema/persons.xml, schema/categories.xml)
        try:
            path = resources.path("schema", os.path.basename(path))
        except FileNotFoundError:
            return SharedFile(path, problem=f"{os.path.basename(path)} is not beside this file")
    try:
        tree = xmlsafe.load(path)
        xmlsafe.require_tei(tree, path)
    except PipelineError as e:
        return SharedFile(path, problem=f"{os.path.basename(path)} cannot be used ({e.message})")
    root = tree.getroot()
    ids = frozenset(v for el in root.iter() if (v := el.get(XML_ID)) is not None)
    types = frozenset(c.get(XML_ID) for c in root.iterfind(
        f"{TEI}teiHeader//{TEI}taxonomy[@{XML_ID}='zs-types']//{TEI}category"))
    return SharedFile(path, ids, types)


def check_shared(tree) -> list[tuple]:
    """(element, message) for what a shared file must be: a TEI document whose persons (of
    persons.xml) and categories (of categories.xml) all have an xml:id, each once."""
    root = tree.getroot()
    out: list[tuple] = []
    seen: set[str] = set()
    for el in root.iter(f"{TEI}person", f"{TEI}category"):
        v = el.get(XML_ID)
        if not v:
            out.append((el, f"a {el.tag.rsplit('}', 1)[-1]} of a shared file has an xml:id"))
        elif v in seen:
            out.append((el, f"duplicate xml:id {v!r}"))
        seen.add(v or "")
    if not seen:
        out.append((root, "a shared file declares persons (listPerson) or categories (taxonomy)"))
    return out
