"""The pages of the web edition that span files: the index of works and 卷, and the persons index.

Each rendered TEI file contributes a PageInfo (gathered from its tree while the page is made, so
no file is parsed twice); the index pages are built from those alone, in input order.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from urllib.parse import quote

from lxml import etree

from pipeline.constants import TEI_NS, XML_ID
from pipeline.render import search

_T = "{%s}" % TEI_NS
_NS = {"t": TEI_NS}
INDEX = "index.html"
PERSONS = "persons.html"

# Layers a person writes whole (one credit per page, counted), as against quotations of them.
_LAYER_NAMES = {"zhu": "注", "yinyi": "音義", "shu": "疏"}
_P, _NOTE = f"{_T}p", f"{_T}note"
_PERSONS = etree.XPath("//t:listPerson/t:person[@xml:id]", namespaces=_NS)
EXCERPT = 24                                   # characters of a quotation shown in the index


@dataclass
class PageInfo:
    name: str                                  # the page's file name, e.g. 004_….html
    title: str
    work: str
    juan: str
    persons: dict[str, tuple[str, str]] = field(default_factory=dict)   # id → (name, floruit)
    quotes: list[tuple[str, str, str]] = field(default_factory=list)    # (person id, element id, excerpt)
    written: dict[tuple[str, str], int] = field(default_factory=dict)   # (person id, layer) → notes


def page_info(tree: etree._ElementTree, name: str, title: str, work: str, juan: str) -> PageInfo:
    info = PageInfo(name, title, work, juan)
    root = tree.getroot()
    for p in _PERSONS(root):
        full = p.find(f"{_T}persName[@type='full']")
        first = full if full is not None else p.find(f"{_T}persName")
        label = "".join(first.itertext()).split() if first is not None else []
        fl = p.find(f"{_T}floruit")
        info.persons[p.get(XML_ID)] = ("".join(label) or p.get(XML_ID),
                                       " ".join((fl.text or "").split()) if fl is not None else "")
    text_el = root.find(f"{_T}text")
    # One walk over the p and note elements (tag filter in C; an XPath union cost 10x more):
    # quotations are 義疏 p and the 疏 quoted in small notes; 注, 音義 and 疏 notes are counted.
    for el in (text_el.iter(_P, _NOTE) if text_el is not None else ()):
        resp = el.get("resp")
        if resp is None:
            continue
        quoted = el.tag == _P or el.get("subtype") == "quoted"
        if quoted and el.get(XML_ID) is not None:
            text = "".join("".join(el.itertext()).split())
            excerpt = text[:EXCERPT] + ("…" if len(text) > EXCERPT else "")
            for ref in resp.split():
                info.quotes.append((ref.lstrip("#"), el.get(XML_ID), excerpt))
        elif not quoted and el.get("type") in _LAYER_NAMES:
            for ref in resp.split():
                key = (ref.lstrip("#"), el.get("type"))
                info.written[key] = info.written.get(key, 0) + 1
    return info


def _href(name: str, frag: str = "") -> str:
    return html.escape(quote(name) + ("#" + quote(frag) if frag else ""), quote=True)


def _e(s: str) -> str:
    return html.escape(s, quote=True)


def _page(title: str, body: str, assets: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="lzh">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Zhushu">
<title>{_e(title)}</title>
<link rel="stylesheet" href="{_e(assets)}zhushu.css">
</head>
<body class="site-index">
<header class="masthead">
<nav aria-label="網站"><a href="{INDEX}">目錄</a> · <a href="{PERSONS}">人名索引</a></nav>
<h1>{_e(title)}</h1>
{search.field(assets)}
</header>
<main>
{body}
</main>
</body>
</html>
"""


def index_page(pages: list[PageInfo], assets: str) -> str:
    """Works in order of first appearance, each with its 卷 in input order."""
    works: dict[str, list[PageInfo]] = {}
    for p in pages:
        works.setdefault(p.work or p.title, []).append(p)
    parts = []
    for work, items in works.items():
        # under its work's heading a page is named by its 卷 alone, when the header gives one
        lis = "\n".join(f'<li><a href="{_href(p.name)}">{_e(p.juan if p.work and p.juan else p.title)}</a></li>'
                        for p in items)
        parts.append(f'<section class="work">\n<h2>{_e(work)}</h2>\n<ol class="juan-list">\n{lis}\n</ol>\n</section>')
    return _page("目錄", "\n".join(parts), assets)


def persons_page(pages: list[PageInfo], assets: str) -> str:
    """Every scholar of the corpus, in code-point order of the name (for Han characters that is
    radical-and-stroke order, as in a traditional dictionary): the layers they wrote, with their
    pages, and each quotation of them, linked to its place."""
    people: dict[str, tuple[str, str]] = {}
    for p in pages:
        for pid, who in p.persons.items():
            people.setdefault(pid, who)
    parts = []
    for pid, (name, floruit) in sorted(people.items(), key=lambda kv: kv[1][0]):
        rows = []
        for p in pages:
            for layer, label in _LAYER_NAMES.items():
                n = p.written.get((pid, layer))
                if n:
                    rows.append(f'<li><a href="{_href(p.name)}">{_e(p.title)}</a> · {label} {n}</li>')
            for who, xid, excerpt in p.quotes:
                if who == pid:
                    rows.append(f'<li><a href="{_href(p.name, xid)}">{_e(p.title)} · {_e(xid)}</a> '
                                f'<q>{_e(excerpt)}</q></li>')
        if not rows:
            continue
        fl = f' <span class="floruit">{_e(floruit)}</span>' if floruit else ""
        parts.append(f'<section class="person" id="{_e(pid)}">\n<h2>{_e(name)}{fl}</h2>\n'
                     f'<ul>\n' + "\n".join(rows) + "\n</ul>\n</section>")
    return _page("人名索引", "\n".join(parts) or "<p>無</p>", assets)
