"""The one way into untrusted XML: `load(path)` (or `parse(data, name)`) for validate, text,
render html and render pdf alike.

Contributors' TEI is untrusted, and it is read on CI machines that hold secrets. Our TEI never
needs a DOCTYPE, so none is accepted: libxml2 parses with every kind of loading switched off
(no DTD, no entity substitution, no network) and with a resolver that refuses whatever it is
still asked for (an external DTD subset, an external parameter entity); then the refusal is
decided on what the parser saw — the document's DOCTYPE, its processing instructions, its
depth — whatever the encoding the bytes are in (UTF-8, UTF-16, UTF-32, with or without BOM).
A byte search for `<!DOCTYPE` would miss every encoding that is not ASCII-compatible.

Processing instructions: `<?xml-model …?>` before the root is inert information (TEI files
name their schema with it; Zhushu never follows it); every other one is refused.
"""
from __future__ import annotations

import codecs
import functools
import re

from lxml import etree

from pipeline import files
from pipeline.constants import TEI_NS
from pipeline.errors import PipelineError, one_line
from pipeline.limits import LIBXML2_MAX_TEXT, Limits

ALLOWED_PI = "xml-model"


class _Refuse(etree.Resolver):
    """Asked for anything (libxml2 asks for an external DTD subset or parameter entity even with
    DTD loading off), it records the request and gives back nothing to read."""

    def __init__(self):
        super().__init__()
        self.asked: list[str] = []

    def resolve(self, url, pubid, context):
        self.asked.append(url or pubid or "")
        return self.resolve_string("", context)


def _parser(refuse: _Refuse) -> etree.XMLParser:
    # collect_ids=False: a duplicate xml:id is a rule violation (ZS-ID-001) we report with its
    # position, not a parse failure. huge_tree=False keeps libxml2's own bounds (limits.py).
    p = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                        dtd_validation=False, attribute_defaults=False, huge_tree=False,
                        remove_pis=False, collect_ids=False, recover=False)
    p.resolvers.add(refuse)
    return p


def load(path: str, limits: Limits = Limits()) -> etree._ElementTree:
    """Read a regular file (bounded, never a FIFO or a device) and parse it as untrusted XML."""
    return parse(files.read_regular(path, limits.max_bytes), path, limits)


def parse(data: bytes, name: str, limits: Limits = Limits()) -> etree._ElementTree:
    """Parse untrusted XML, or raise PipelineError naming the file (and the line where there is
    one), nothing from the document echoed: over the size or depth limits, or libxml2's bounds
    on a text node, attribute or tag (ZS-XML-004), not well-formed (ZS-XML-001), a DOCTYPE, DTD or entity declaration
    (ZS-XML-002), a processing instruction other than xml-model (ZS-XML-003)."""
    if len(data) > limits.max_bytes:
        raise PipelineError(f"file is {len(data)} bytes, over the limit of {limits.max_bytes}",
                            name, rule="ZS-XML-004")
    refuse = _Refuse()
    try:
        root = etree.fromstring(data, _parser(refuse), base_url=None)
    except etree.XMLSyntaxError as e:
        raise _syntax_error(e, data, name, refuse, limits) from None
    tree = root.getroottree()
    _refuse_dtd(tree, data, name, refuse)
    _refuse_pis(tree, data, name)
    _check_shape(tree, name, limits)
    return tree


def _syntax_error(e: etree.XMLSyntaxError, data: bytes, name: str, refuse: _Refuse,
                  limits: Limits) -> PipelineError:
    line, col = e.position if e.position else (None, None)
    msg = one_line(e.msg or str(e))
    if refuse.asked or _declares_dtd(data):
        return PipelineError("DOCTYPE, DTD or entity declaration refused (untrusted XML may not "
                             "declare one)", name, line, col, rule="ZS-XML-002")
    if "Excessive depth" in msg:                # libxml2 stops at 256, long past our limit
        return PipelineError(f"elements nested more than {limits.max_depth} deep", name, line, col,
                             rule="ZS-XML-004")
    if "limit exceeded" in msg or "too long" in msg or "HUGE" in msg:
        return PipelineError(f"a text node, attribute value or tag over libxml2's limit of "
                             f"{LIBXML2_MAX_TEXT:,} bytes: {msg.split(',', 1)[0]}", name, line, col,
                             rule="ZS-XML-004")
    return PipelineError(f"not well-formed XML: {msg}", name, line, col, rule="ZS-XML-001")


def _declares_dtd(data: bytes) -> bool:
    """Whether a document that failed to parse declares a DOCTYPE, in its own encoding: a
    malformed internal subset should still be named as what it is."""
    head = decoded(data[:262144])
    return "<!DOCTYPE" in head or "<!ENTITY" in head


def _refuse_dtd(tree, data: bytes, name: str, refuse: _Refuse) -> None:
    info = tree.docinfo
    if refuse.asked or info.doctype or info.internalDTD is not None or info.externalDTD is not None:
        line, col = position_of(decoded(data), "<!DOCTYPE")
        raise PipelineError("DOCTYPE, DTD or entity declaration refused (untrusted XML may not "
                            "declare one)", name, line, col, rule="ZS-XML-002")


_PIS = etree.XPath("//processing-instruction()")
_DECLARATION = re.compile(rb"<\?xml\s[^<>]*\?>")


def _refuse_pis(tree, data: bytes, name: str) -> None:
    # A document in UTF-8 can hold a processing instruction only where its bytes hold `<?`
    # after the XML declaration (UTF-8 writes `<?` no other way), and most hold none: then the
    # tree need not be searched. In any other encoding it is. (libxml2's docinfo.encoding is
    # no guide: it says UTF-8 for a UTF-16 document with a BOM and no declaration.)
    if is_plain_utf8(data):
        decl = _DECLARATION.match(data)
        if data.find(b"<?", decl.end() if decl else 0) == -1:
            return
    root = tree.getroot()
    prolog = None
    for pi in _PIS(tree):
        if pi.target == ALLOWED_PI:
            if prolog is None:
                prolog = set(root.itersiblings(preceding=True))
            if pi in prolog:
                continue
            where = "after the root element or inside it"
        else:
            where = ""
        raise PipelineError(f"processing instruction <?{pi.target} …?> refused" +
                            (f" {where}" if where else "") + " (untrusted XML may not ask for "
                            "stylesheets or other processing; only <?xml-model?> before the root "
                            "is accepted, and never followed)", name, pi.sourceline or None,
                            rule="ZS-XML-003")


@functools.lru_cache(maxsize=8)
def _too_deep(depth: int) -> etree.XPath:
    return etree.XPath("boolean(/*" + "/*" * depth + ")")


def _check_shape(tree, name: str, limits: Limits) -> None:
    if _too_deep(limits.max_depth)(tree):
        raise PipelineError(f"elements nested more than {limits.max_depth} deep", name,
                            rule="ZS-XML-004")


def require_tei(tree, name: str) -> None:
    root = tree.getroot()
    if root.tag != f"{{{TEI_NS}}}TEI":
        raise PipelineError(f"not a TEI document: the root element is {_tag(root.tag)!r}, "
                            f"expected TEI in the namespace {TEI_NS}", name, root.sourceline,
                            rule="ZS-XML-005")


def _tag(tag: str) -> str:
    ns, _, local = tag[1:].partition("}") if tag.startswith("{") else ("", "", tag)
    return f"{local} (namespace {ns})" if ns else local


def for_xslt(tree) -> str:
    """What Saxon is given: a serialisation of the tree that passed the checks (it has no
    DOCTYPE, so it can name nothing to load), never the file."""
    return etree.tostring(tree, encoding="unicode")


# -- the document's own encoding, for positions and messages ----------------------------------------
_BOMS = ((codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF32_LE, "utf-32-le"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_BE, "utf-16-be"),
         (codecs.BOM_UTF16_LE, "utf-16-le"))
# XML 1.0 Appendix F: how the first four bytes of `<?xml` (or of any `<`) give the encoding.
_SIGNATURES = ((b"\x00\x00\x00<", "utf-32-be"), (b"<\x00\x00\x00", "utf-32-le"),
               (b"\x00<\x00?", "utf-16-be"), (b"<\x00?\x00", "utf-16-le"))
_DECLARED = re.compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def encoding_of(data: bytes) -> str:
    """The encoding an XML processor reads `data` in (BOM, signature, declaration, UTF-8)."""
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return enc
    for sig, enc in _SIGNATURES:
        if data.startswith(sig):
            return enc
    m = _DECLARED.match(data[:512])
    if m:
        try:
            return codecs.lookup(m.group(1).decode("ascii")).name
        except LookupError:
            pass
    return "utf-8"


def is_plain_utf8(data: bytes) -> bool:
    """Is `data` read as UTF-8 by every XML processor, so that an ASCII string can be searched
    for in its bytes? No BOM, no UTF-16/32 signature, UTF-8 declared or nothing declared, and
    the markup opening with an ASCII `<` (not EBCDIC's, which libxml2 also detects)."""
    start = data.lstrip(b" \t\r\n")[:2]
    return start[:1] == b"<" and start[1:] != b"\x00" and encoding_of(data) == "utf-8"


def decoded(data: bytes) -> str:
    """The document as text in its own encoding (for positions: undecodable bytes replaced)."""
    enc = encoding_of(data)
    text = data.decode(enc, "replace")
    return text[1:] if text[:1] == "\ufeff" else text


def position_of(text: str, needle: str) -> tuple[int | None, int | None]:
    at = text.find(needle)
    if at == -1:
        return None, None
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1
