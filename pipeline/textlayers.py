"""Reading a layer's text back out of our TEI (`zhushu text`)."""
from __future__ import annotations

import re

from lxml import etree

from pipeline.chars import WHITESPACE_CLASS, lossless_form
from pipeline.constants import TEI

LAYERS = ("all", "jing", "zhu", "yinyi", "shu", "yishu", "an", "textual", "translation")

# What each layer is, as XPath over our TEI; each match prints as one line. Notes inside a
# translation belong to the translation, not to the layers of the original.
_ORIG = "[not(ancestor::t:ab[@type='translation'])]"
_XPATH = {
    "jing": "//t:text//t:ab[@type='jing']",
    "zhu": "//t:text//t:note[@type='zhu']",
    "yinyi": f"//t:text//t:note[@type='yinyi']{_ORIG}",
    "shu": f"//t:text//t:note[@type='shu'][not(ancestor::t:note[@type='shu'])]{_ORIG}",
    "yishu": "//t:text//t:note[@type='yishu']",
    "an": f"//t:text//t:note[@type='an']{_ORIG}",
    "textual": f"//t:text//t:note[@type='textual']{_ORIG}",
    "translation": "//t:text//t:ab[@type='translation']",
}
_NS = {"t": TEI[1:-1]}
_NOT_JING = {TEI + "note", TEI + "label"}     # printed markers are not 經
_SEG = TEI + "seg"
_CIT, _AUTHOR = TEI + "cit", f"{TEI}bibl/{TEI}author"


def _text(e) -> str:
    return "".join(t for t in e.itertext() if not t.isspace()).replace("\n", "")


def _jing_text(ab) -> str:
    """The 經 of a unit: its text without the inline notes and lacunae (seg[@type='que'])."""
    out = [ab.text or ""]
    for child in ab:
        if child.tag not in _NOT_JING and not (child.tag == _SEG and child.get("type")):
            out.append("".join(child.itertext()))
        out.append(child.tail or "")
    return "".join(out)


def _credited(e, who: str) -> bool:
    """Is `e` credited to the person `who` points at: a note by its @resp, a 義疏 quotation by
    its author?"""
    if e.tag == _CIT:
        author = e.find(_AUTHOR)
        return author is not None and author.get("ref") == who
    return e.get("resp") == who


def layer_lines(root, layer: str, category: str | None = None, resp: str | None = None) -> list[str]:
    """One line per element of the layer, in document order. `category` keeps the 義疏
    blocks of one category (zhengyi, cunyi …); `resp` keeps what one scholar said: his
    quotations in 義疏 blocks, notes credited to him, and the 注/疏 he wrote."""
    if layer == "all" and not (category or resp):
        return [layer_text(root, "all")]
    path = _XPATH.get(layer, "//t:text//*[@resp or self::t:cit[t:bibl/t:author/@ref]]")
    if category:
        path += f"[@subtype='{category}']" if layer == "yishu" else f"[ancestor-or-self::t:note[@subtype='{category}']]"
    if resp:
        # imported here: the CLI loads this module for LAYERS, and `validate` must not load the writer
        from pipeline.tei.markup import person
        who = person(resp)
        els = [d for e in root.xpath(path, namespaces=_NS)
               for d in ([e] if _credited(e, who) else [d for d in e.iterdescendants("*") if _credited(d, who)])]
        return [_strip(_text(e)) for e in els]
    els = root.xpath(path, namespaces=_NS)
    if layer == "jing":
        return [_strip(_jing_text(e)) for e in els]
    return [_strip(_text(e)) for e in els]


def printed_lines(root, layer: str, category: str | None = None, resp: str | None = None) -> str:
    """What `zhushu text` prints: the layer's lines (layer_lines), each ended by a newline, those
    of elements with no text left out."""
    return "".join(line + "\n" for line in layer_lines(root, layer, category, resp) if line)


def layer_text(root, layer: str) -> str:
    if layer == "all":
        text = root.find(f"{TEI}text")
        body = _strip(etree.tostring(text, method="text", encoding=str, with_tail=False)) \
            if text is not None else ""
        return provenance_text(root) + body

    return "".join(layer_lines(root, layer))


_WS = re.compile(f"[{WHITESPACE_CLASS}]+")
_PROVENANCE = f"{TEI}teiHeader/{TEI}fileDesc/{TEI}sourceDesc/{TEI}bibl/{TEI}note[@type='provenance']"


def provenance_text(root) -> str:
    """The website's provenance line the header keeps of a plain e-text (the source's first
    line), as the lossless form has it: the text begins with it."""
    return "".join(lossless_form(n.text or "") for n in root.iterfind(_PROVENANCE))


def _strip(s: str) -> str:
    return _WS.sub("", s)
