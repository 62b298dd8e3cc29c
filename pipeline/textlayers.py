"""Reading a layer's text back out of our TEI (`zhushu text`)."""
from __future__ import annotations

import re

from lxml import etree

TEI = "{http://www.tei-c.org/ns/1.0}"
LAYERS = ("all", "jing", "zhu", "yinyi", "shu")

# What each layer is, as XPath over our TEI; each match prints as one line.
_XPATH = {
    "jing": "//t:body//t:ab[@type='jing']",
    "zhu": "//t:body//t:note[@type='zhu']",
    "yinyi": "//t:body//t:note[@type='yinyi']",
    "shu": "//t:body//t:note[@type='shu'][not(ancestor::t:note)]",
}
_NS = {"t": TEI[1:-1]}
_NOT_JING = {TEI + "note", TEI + "gap", TEI + "label"}     # printed markers are not 經


def _text(e) -> str:
    return "".join(t for t in e.itertext() if not t.isspace()).replace("\n", "")


def _jing_text(ab) -> str:
    """The 經 of a unit: its text without the inline notes and lacunae."""
    out = [ab.text or ""]
    for child in ab:
        if child.tag not in _NOT_JING:
            out.append("".join(child.itertext()))
        out.append(child.tail or "")
    return "".join(out)


def layer_lines(root, layer: str) -> list[str]:
    if layer == "all":
        return [layer_text(root, "all")]
    els = root.xpath(_XPATH[layer], namespaces=_NS)
    if layer == "jing":
        return [_strip(_jing_text(e)) for e in els]
    return [_strip(_text(e)) for e in els]


def layer_text(root, layer: str) -> str:
    if layer == "all":
        body = root.find(f"{TEI}text/{TEI}body")
        return _strip(etree.tostring(body, method="text", encoding=str)) if body is not None else ""
    return "".join(layer_lines(root, layer))


_WS = re.compile("[ \t\n\r\u00a0\u3000\ufeff]+")


def _strip(s: str) -> str:
    return _WS.sub("", s)
