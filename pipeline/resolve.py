"""A citation resolved (`zhushu resolve`): `urn:zhushu:liji-zhengyi:46.23.u12` → the TEI file
whose publicationStmt holds the URN `urn:zhushu:liji-zhengyi:46`, and the one element its own
refsDecl/citeStructure names by `46.23.u12` (the XPaths of the file, evaluated as the TEI
Guidelines say: in the TEI namespace; never our own idea of the structure)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from pipeline.constants import TEI_NS
from pipeline.errors import PipelineError

_NS = {"tei": TEI_NS}
_URN = re.compile(r"^urn:zhushu:(?P<work>[a-z0-9]+(?:-[a-z0-9]+)*):(?P<passage>\S+)$")
# A name test in a citeStructure XPath (not an attribute, an axis, a function, an operator or a
# string):
# prefixed with tei: for lxml, which has no default element namespace.
_NAME = re.compile(r"'[^']*'|\s(?:and|or|mod)\s|(?<![@\w.-])(?<!\w:)([A-Za-z_][\w-]*)(?![\w-]*\s*(?:\(|::))")
RULE = "ZS-CITE-001"


@dataclass
class Found:
    path: str
    element: etree._Element

    @property
    def line(self) -> int:
        return self.element.sourceline or 1

    def text(self) -> str:
        """Its text as read (whitespace between elements left out)."""
        return "".join("".join(self.element.itertext()).split())

    def label(self) -> str:
        local = etree.QName(self.element).localname
        return f"{local} {self.element.get('{http://www.w3.org/XML/1998/namespace}id') or ''}".strip()


def tei_xpath(expr: str) -> str:
    """A citeStructure XPath with its element names in the TEI namespace (prefix tei)."""
    return _NAME.sub(lambda m: m.group(0) if m.group(1) is None else f"tei:{m.group(1)}", expr)


def resolve(urn: str, paths: list[str]) -> Found:
    """The element `urn` names among the TEI files `paths`, or PipelineError (ZS-CITE-001) in one
    line: not a zhushu URN, no file with its document URN, no element (or several) for it."""
    from pipeline.validate import xmlsafe
    m = _URN.match(urn.strip())
    if m is None:
        raise PipelineError(f"{urn}: not a citation urn:zhushu:<work>:<卷>[.<篇>][.<unit>]", rule=RULE)
    work, passage = m.group("work"), m.group("passage")
    for path in paths:
        tree = xmlsafe.load(path)
        urns = tree.xpath("/tei:TEI/tei:teiHeader/tei:fileDesc/tei:publicationStmt/tei:idno[@type='URN']/text()",
                          namespaces=_NS)
        ns = [u.rsplit(":", 1)[1] for u in urns if u.rsplit(":", 1)[0] == f"urn:zhushu:{work}"]
        if any(passage == n or passage.startswith(n + ".") for n in ns):
            found = _walk(tree, passage)
            if len(found) == 1:
                return Found(path, found[0])
            raise PipelineError(f"{urn}: {'no element' if not found else f'{len(found)} elements'} "
                                "of its document has this citation", path, rule=RULE)
    raise PipelineError(f"{urn}: no document here has the URN urn:zhushu:{work}:{passage.split('.')[0]}",
                        rule=RULE)


def citations(tree: etree._ElementTree) -> list[tuple[str, etree._Element]]:
    """Every citation the document's citeStructure declares, with the element it names, in
    document order of the levels (the tests resolve each one back)."""
    out: list = []
    for cs in _structures(tree):
        _enumerate(tree.getroot(), cs, "", out)
    return out


def _structures(tree) -> list:
    return tree.xpath("/tei:TEI/tei:teiHeader/tei:encodingDesc/tei:refsDecl/tei:citeStructure",
                      namespaces=_NS)


def _enumerate(context, cs, prefix: str, out: list) -> None:
    for el in context.xpath(tei_xpath(cs.get("match")), namespaces=_NS):
        value = prefix + (cs.get("delim") or "") + _use(el, cs) if prefix else _use(el, cs)
        out.append((value, el))
        for sub in cs.iterchildren(f"{{{TEI_NS}}}citeStructure"):
            _enumerate(el, sub, value, out)


def _use(el, cs) -> str:
    values = el.xpath(tei_xpath(cs.get("use")), namespaces=_NS)
    return str(values[0]) if values else ""


def _walk(tree, passage: str) -> list:
    """The elements `passage` names, walking the citeStructure level by level: at each, the
    candidates whose value the passage continues with (whole, or followed by a delimiter of a
    level below)."""
    found: list = []
    for cs in _structures(tree):
        _step(tree.getroot(), cs, passage, found)
    return found


def _step(context, cs, rest: str, found: list) -> None:
    subs = list(cs.iterchildren(f"{{{TEI_NS}}}citeStructure"))
    for el in context.xpath(tei_xpath(cs.get("match")), namespaces=_NS):
        value = _use(el, cs)
        if not value or not rest.startswith(value):
            continue
        after = rest[len(value):]
        if not after:
            found.append(el)
            continue
        for sub in subs:
            delim = sub.get("delim") or ""
            if after.startswith(delim):
                _step(el, sub, after[len(delim):], found)
