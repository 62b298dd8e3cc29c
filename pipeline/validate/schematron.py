"""ISO Schematron (query binding xslt2 or xslt3) run with Saxon (saxonche, already the renderer's
engine): the schema is compiled into an XSLT 3.0 stylesheet, one mode per pattern, as the ISO
skeleton does, and its findings are read back as (line, pattern, role, message).

Why here and not a Schematron package: pyschematron (XPath 3 via elementpath) needs Python 3.12,
lxml.isoschematron is XSLT 1.0 only (TEI's rules use matches(), tokenize(), string-join()), and the
ISO skeleton is not shipped by any package this project can install. What TEI's own Schematron
(the rules embedded in tei_all.rng) and the ODD's constraintSpecs use is small: ns, let, pattern,
rule, assert, report, value-of and name. Anything else (abstract rules, extends, include,
phases, diagnostics) is refused, never skipped in silence.

The sources of rules: `from_rng` (the sch:pattern of a RELAX NG schema, such as tei_all.rng) and
`from_odd` (the constraintSpecs of an ODD); both give an sch:schema element for `Schematron`.
"""
from __future__ import annotations

import functools
import os
import re

from lxml import etree

from pipeline.errors import PipelineError

SCH_NS = "http://purl.oclc.org/dsdl/schematron"
SCH = f"{{{SCH_NS}}}"
XSL_NS = "http://www.w3.org/1999/XSL/Transform"
TEI_NS = "http://www.tei-c.org/ns/1.0"

_SUPPORTED = {"schema", "ns", "let", "pattern", "rule", "assert", "report", "value-of", "name",
              "title", "p", "emph", "dir", "span"}


_RNG_NS = "http://relaxng.org/ns/structure/1.0"
# the roles Schematron authors use for what is not an error (TEI's own: nonfatal, warning)
_WARNING_ROLES = frozenset(("warning", "warn", "nonfatal", "information", "info"))


def level(role: str) -> str:
    """The level of a finding (issues.Issue) by its Schematron role."""
    return "warning" if role.lower() in _WARNING_ROLES else "error"


@functools.cache
def load(source: str) -> "Schematron":
    """The compiled Schematron of a source file, by what its root is: an ODD (a TEI document
    with a schemaSpec: its constraintSpecs), a RELAX NG schema (its embedded patterns, such as
    tei_all.rng), or a Schematron schema. Once per process."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        root = etree.parse(source, parser).getroot()
    except (OSError, etree.XMLSyntaxError) as e:
        raise PipelineError(f"cannot read the Schematron source: {e}", source, rule="ZS-SCHEMA-002") from None
    if root.tag == f"{SCH}schema":
        return Schematron(root)
    if root.tag.startswith(f"{{{_RNG_NS}}}"):
        return Schematron(from_rng(source))
    if root.find(f".//{{{TEI_NS}}}schemaSpec") is not None:
        return Schematron(from_odd(source))
    raise PipelineError(f"{os.path.basename(source)} is neither an ODD, a RELAX NG schema nor a "
                        "Schematron schema", source, rule="ZS-SCHEMA-002")


def from_rng(path: str) -> etree._Element:
    """The Schematron embedded in a RELAX NG schema: its sch:ns and sch:pattern elements, in
    document order, as one sch:schema (query binding xslt2, as TEI generates them)."""
    return _schema(etree.parse(path).getroot(), "xslt2")


def from_odd(path: str) -> etree._Element:
    """The Schematron of an ODD: each constraintSpec[@scheme=schematron] holds its sch:pattern
    (a bare sch:rule is wrapped in a pattern named by the constraintSpec's @ident); the sch:ns
    are gathered from anywhere in the ODD."""
    root = etree.parse(path).getroot()
    out = _schema(root, "xslt3", patterns=False)
    for spec in root.iter(f"{{{TEI_NS}}}constraintSpec"):
        if spec.get("scheme") != "schematron":
            continue
        for el in spec.iter(f"{SCH}pattern", f"{SCH}rule"):
            if el.tag == f"{SCH}rule" and el.getparent().tag == f"{SCH}pattern":
                continue
            if el.tag == f"{SCH}rule":
                pattern = etree.SubElement(out, f"{SCH}pattern", id=spec.get("ident"))
                pattern.append(_copy(el))
            else:
                out.append(_copy(el))
    return out


def _schema(root, binding: str, patterns: bool = True) -> etree._Element:
    out = etree.Element(f"{SCH}schema", queryBinding=binding, nsmap={"sch": SCH_NS})
    seen = set()
    for ns in root.iter(f"{SCH}ns"):
        key = (ns.get("prefix"), ns.get("uri"))
        if key not in seen:
            seen.add(key)
            out.append(_copy(ns))
    if patterns:
        for p in root.iter(f"{SCH}pattern"):
            out.append(_copy(p))
    return out


def _copy(el):
    return etree.fromstring(etree.tostring(el))


class Schematron:
    """One compiled schema: `check(tree)` gives its findings on a parsed document (already
    vetted by xmlsafe: Saxon reads the serialized tree, never a file or a URL)."""

    def __init__(self, schema: etree._Element):
        from saxonche import PySaxonProcessor
        self.xslt = compile_to_xslt(schema)
        self.proc = PySaxonProcessor(license=False)
        try:
            self.exe = self.proc.new_xslt30_processor().compile_stylesheet(
                stylesheet_text=etree.tostring(self.xslt, encoding="unicode"))
        except Exception as e:      # saxonche raises PySaxonApiError
            raise PipelineError(f"cannot compile the Schematron: {e}", rule="ZS-SCHEMA-002") from None
        # Saxon's switch for every external resource (doc(), unparsed-text()): none
        self.proc.set_configuration_property("http://saxon.sf.net/feature/allowedProtocols", "")

    def check(self, tree: etree._ElementTree) -> list[tuple[int, str, str, str]]:
        """(line, pattern id, role, message) of every failed assert and fired report, in
        pattern order, each pattern's in document order."""
        node = self.proc.parse_xml(xml_text=etree.tostring(tree, encoding="unicode"))
        out = etree.fromstring(self.exe.transform_to_string(xdm_node=node).encode())
        return [(_line(tree, f.get("path")), f.get("pattern"), f.get("role"),
                 " ".join((f.text or "").split())) for f in out]


def compile_to_xslt(schema: etree._Element) -> etree._Element:
    """The XSLT 3.0 stylesheet of an sch:schema: per pattern a mode whose templates are its rules,
    the first rule that matches a node firing (descending priorities), the others not; every
    node and attribute visited once per pattern. The output is a document <findings> of
    <f path="…" pattern="…" role="…">message</f>."""
    for el in schema.iter(etree.Element):
        if el.tag.startswith(SCH) and el.tag[len(SCH):] not in _SUPPORTED:
            raise PipelineError(f"Schematron element sch:{el.tag[len(SCH):]} is not supported",
                                rule="ZS-SCHEMA-002")
        if el.tag == f"{SCH}rule" and el.get("abstract") == "true":
            raise PipelineError("abstract Schematron rules are not supported", rule="ZS-SCHEMA-002")
    nsmap = {"xsl": XSL_NS}
    for ns in schema.findall(f"{SCH}ns"):
        nsmap[ns.get("prefix")] = ns.get("uri")
    X = f"{{{XSL_NS}}}"
    xsl = etree.Element(f"{X}stylesheet", version="3.0", nsmap=nsmap)
    xsl.set("exclude-result-prefixes", "#all")
    etree.SubElement(xsl, f"{X}output", method="xml", indent="no")
    for let in schema.findall(f"{SCH}let"):
        etree.SubElement(xsl, f"{X}variable", name=let.get("name"), select=let.get("value"))
    main = etree.SubElement(etree.SubElement(xsl, f"{X}template", match="/"), "findings")
    patterns = schema.findall(f"{SCH}pattern")
    for i, pattern in enumerate(patterns):
        mode = f"p{i}"
        etree.SubElement(xsl, f"{X}mode", name=mode, **{"on-no-match": "shallow-skip"})
        etree.SubElement(main, f"{X}apply-templates", select=".", mode=mode)
        rules = pattern.findall(f"{SCH}rule")
        for k, rule in enumerate(rules):
            t = etree.SubElement(xsl, f"{X}template", match=rule.get("context"), mode=mode,
                                 priority=str(len(rules) - k))
            for let in pattern.findall(f"{SCH}let") + rule.findall(f"{SCH}let"):
                etree.SubElement(t, f"{X}variable", name=let.get("name"), select=let.get("value"))
            for check in rule:
                if check.tag in (f"{SCH}assert", f"{SCH}report"):
                    test = check.get("test")
                    cond = f"not({test})" if check.tag == f"{SCH}assert" else f"({test})"
                    _finding(etree.SubElement(t, f"{X}if", test=cond), check,
                             pattern.get("id") or mode)
            etree.SubElement(t, f"{X}apply-templates", select="@*|node()", mode="#current")
    return xsl


def _finding(parent, check, pid: str) -> None:
    """The finding a failed assert or a fired report writes: path(), the pattern, the role, and
    its message, text, value-of and name written out."""
    f = etree.SubElement(parent, "f", path="{path()}", pattern=pid.replace("{", "{{").replace("}", "}}"),
                         role=check.get("role") or ("report" if check.tag == f"{SCH}report" else "error"))
    _message(f, check)


def _message(parent, el) -> None:
    X = f"{{{XSL_NS}}}"
    if el.text:
        etree.SubElement(parent, f"{X}text").text = el.text
    for child in el:
        if child.tag == f"{SCH}value-of":
            etree.SubElement(parent, f"{X}value-of", select=child.get("select"))
        elif child.tag == f"{SCH}name":
            etree.SubElement(parent, f"{X}value-of", select=f"name({child.get('path') or '.'})")
        elif isinstance(child.tag, str):
            _message(parent, child)
        if child.tail:
            etree.SubElement(parent, f"{X}text").text = child.tail


_STEP = re.compile(r"/Q\{([^}]*)\}([^\[/]+)(\[\d+\])")


def _line(tree, path: str) -> int:
    """The line of the element a path() names (of its element for an attribute or a text
    node: their steps are not element steps); 0 when it cannot be found."""
    steps = [f"{{{ns}}}{name}{pos}" if ns else f"{name}{pos}" for ns, name, pos in _STEP.findall(path)]
    if not steps:
        return 0
    root = tree.getroot()
    el = root if len(steps) == 1 else root.find("/".join(["."] + steps[1:]))
    return (el.sourceline or 0) if el is not None else 0
