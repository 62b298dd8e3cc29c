"""What the site needs to know of each TEI file before any page is rendered: its titles and 卷,
its 篇 (for the work page), its source (for the colophon), its people and their notes (for the
persons index), and, for a whole-work file from Kanripo, its 目次.

One PageInfo per input, read from the parsed tree in one pass over the parts that matter; the
site is planned from these alone (plan.py), so each file is parsed once for this and once by
the Renderer.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from lxml import etree

from pipeline import hanzi, numerals
from pipeline.readers import pian
from pipeline.constants import TEI_NS, XML_ID

_T = "{%s}" % TEI_NS
_NS = {"t": TEI_NS}

# Layers a person writes whole (one credit per page, counted), as against quotations of them.
LAYER_NAMES = {"zhu": "注", "yinyi": "音義", "shu": "疏"}
_NOTE, _DIV, _HEAD = f"{_T}note", f"{_T}div", f"{_T}head"
_CIT, _AUTHOR = f"{_T}cit", f"{_T}bibl/{_T}author"
_PERSONS = etree.XPath("//t:listPerson/t:person[@xml:id]", namespaces=_NS)
EXCERPT = 24                                   # characters of a quotation shown in the index


@dataclass
class Place:
    """Where an element stands: its 卷 and 篇 as a reader names them ('' where none)."""
    juan: str = ""
    pian: str = ""


@dataclass
class Source:
    """The file's source and making, from its teiHeader (for the colophon)."""
    title: str = ""
    edition: str = ""
    filename: str = ""
    kanripo: str = ""                          # the Kanseki Repository id (KR1d0053), '' if none
    date: str = ""
    licence: str = ""                          # publicationStmt/availability, '' if not stated
    publication: str = ""
    zhushu: str = ""                           # the Zhushu version that made the TEI
    reader: str = ""                           # the reader it was made with (siku, yishu …)
    provenance: list[str] = field(default_factory=list)   # a website's provenance line
    printed: str = ""                          # the printed edition (editor, edition, date)
    publisher: str = ""                        # who published the e-text (Kanripo, a website)
    url: str = ""                              # where (the repository, the page)
    etext_licence: str = ""                    # the e-text's licence, as its source states it


@dataclass
class PageInfo:
    name: str                                  # the page's file name, e.g. 004_….html
    path: str                                  # the TEI file it is made from
    title: str
    work: str
    juan: str                                  # the 卷 it holds: 卷十八, or 卷二十九—三十
    lang: str = "lzh"
    whole_work: bool = False                   # a Kanripo whole-work file (its 目次, no text)
    contents: list[tuple[str, str, str]] = field(default_factory=list)  # (label, file, leaf)
    sections: list[tuple[str, str, int]] = field(default_factory=list)  # (div id, head, depth)
    pian: str = ""                             # the name of its 篇 that prints no heading (祭法)
    source: Source = field(default_factory=Source)
    persons: dict[str, tuple[str, str]] = field(default_factory=dict)   # id → (name, floruit)
    quotes: list[tuple[str, str, str, Place]] = field(default_factory=list)  # (person, id, excerpt, place)
    written: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (person, layer) → note ids


def _text(e: etree._Element | None) -> str:
    return " ".join("".join(e.itertext()).split()) if e is not None else ""


def titles(header: etree._Element | None) -> tuple[str, str, str]:
    """(title, work, 卷) from titleStmt, '' where absent. The title is the one the page shows
    (zs:title in common.xsl): main, else work + 卷, else 未題名."""
    ts = header.find(f"{_T}fileDesc/{_T}titleStmt") if header is not None else None

    def title(kind: str) -> str:
        return _text(ts.find(f"{_T}title[@type='{kind}']")) if ts is not None else ""

    work, juan = title("work"), title("juan")
    return title("main") or " ".join(x for x in (work, juan) if x) or "未題名", work, juan


def header_juan(tree: etree._ElementTree) -> str:
    """The 卷 the header's titleStmt names ('' if none): the 卷 of text outside any 卷 div."""
    return titles(tree.getroot().find(f"{_T}teiHeader"))[2]


def header_work(tree: etree._ElementTree) -> str:
    """The work the header's titleStmt names ('' if none)."""
    return titles(tree.getroot().find(f"{_T}teiHeader"))[1]


def juan_of_div(div: etree._Element, header_juan: str) -> str:
    """A 卷 div's own 卷: its @n as a 卷 (29 → 卷二十九; n="0" is Kanripo's 'not numbered'), else
    the header's."""
    n = (div.get("n") or "").strip()
    return numerals.juan_label(n) if n and n != "0" else header_juan


def pian_of_div(div: etree._Element, work: str, head: str) -> str:
    """The 篇 a div names: its heading `head` (as the caller reads it), or, a 篇 the sidecar
    named (type pian, no heading), its name in pian.tsv."""
    if head or div.get("type") != "pian":
        return head
    return pian.name(work, div.get("n") or "")


def page_info(tree: etree._ElementTree, path: str, name: str) -> PageInfo:
    root = tree.getroot()
    header = root.find(f"{_T}teiHeader")
    title, work, header_juan = titles(header)
    body = root.find(f"{_T}text/{_T}body")
    juans = [juan_of_div(d, header_juan) for d in body.iterchildren(_DIV)
             if d.get("type") == "juan"] if body is not None else []
    named = [j for j in dict.fromkeys(juans) if j]
    # a file holding several 卷 is named by its first and last (卷二十九—三十), not the header's first
    juan = f"{named[0]}—{named[-1].removeprefix('卷')}" if len(named) > 1 else header_juan
    if len(named) > 1 and header_juan and header_juan in title:
        title = title.replace(header_juan, juan, 1)
    text_el = root.find(f"{_T}text")
    found = hanzi.script("".join(text_el.itertext())) if text_el is not None else ""
    info = PageInfo(name, path, title, work, juan, f"lzh-{found}" if found else "lzh")
    info.source = _source(header, root)
    if body is not None:
        _read_structure(info, body)
    _read_people(info, root, header_juan)
    return info


def _read_structure(info: PageInfo, body: etree._Element) -> None:
    """Its 篇 (every div with a heading, nested), or its 目次 when it is a whole-work file."""
    divs = list(body.iterchildren(_DIV))
    if divs and all(d.get("type") == "contents" for d in divs):
        info.whole_work = True
        for item in body.iter(f"{_T}item"):
            ref = item.find(f"{_T}ref")
            target = (ref.get("target") or "") if ref is not None else ""
            info.contents.append((_text(item), os.path.basename(target),
                                  (ref.get("n") or "") if ref is not None else ""))
        return
    for div in body.iter(_DIV):
        head = div.find(_HEAD)
        label = pian_of_div(div, info.work, _text(head))
        if head is None and label:              # a 篇 the sidecar names: its name from pian.tsv
            info.pian = info.pian or label
        if label and div.get(XML_ID):
            depth = sum(1 for a in div.iterancestors(_DIV)) + 1
            info.sections.append((div.get(XML_ID), label, depth))


def _source(header: etree._Element | None, root: etree._Element) -> Source:
    s = Source()
    if header is None:
        return s
    fd = header.find(f"{_T}fileDesc")
    sd = fd.find(f"{_T}sourceDesc") if fd is not None else None
    bibl = None if sd is None else sd.find(f"{_T}bibl[@type='etext']")
    if bibl is None and sd is not None:
        bibl = sd.find(f"{_T}bibl")              # a file written before the printed edition
    printed = None if sd is None else sd.find(f"{_T}bibl[@type='printed']")
    if printed is not None:
        s.printed = " ".join(_text(printed.find(f"{_T}{t}")) for t in ("editor", "edition", "date")
                             if printed.find(f"{_T}{t}") is not None)
    if bibl is not None:
        s.publisher = _text(bibl.find(f"{_T}publisher"))
        s.url = (bibl.find(f"{_T}ref").get("target") or "") if bibl.find(f"{_T}ref") is not None else ""
        s.etext_licence = _text(bibl.find(f"{_T}availability"))
        s.provenance = [_text(n) for n in bibl.iterfind(f"{_T}note[@type='provenance']")]
        s.title = _text(bibl.find(f"{_T}title"))
        s.edition = _text(bibl.find(f"{_T}edition"))
        s.filename = _text(bibl.find(f"{_T}idno[@type='filename']"))
        s.kanripo = _text(bibl.find(f"{_T}idno[@type='kanripo']"))
        s.date = _text(bibl.find(f"{_T}date"))
    pub = fd.find(f"{_T}publicationStmt") if fd is not None else None
    if pub is not None:
        # the licence is availability/licence; a statement in availability/p is no licence
        s.licence = _text(pub.find(f"{_T}availability/{_T}licence"))
        s.publication = _text(pub.find(f"{_T}p")) or _text(pub.find(f"{_T}availability/{_T}p"))
    app = header.find(f"{_T}encodingDesc/{_T}appInfo/{_T}application[@ident='zhushu']")
    if app is not None:
        s.zhushu = app.get("version") or ""
        s.reader = _text(app.find(f"{_T}desc")).removeprefix("reader:").strip()
    # (a provenance line printed inside the text, not opening it, stays furniture there)
    s.provenance += [_text(fw) for fw in root.iterfind(f"{_T}text//{_T}fw[@type='source']")]
    return s


def _place(el: etree._Element, header_juan: str, work: str) -> Place:
    place = Place()
    for div in el.iterancestors(_DIV):
        if not place.pian and div.get("type") in ("section", "pian"):
            place.pian = pian_of_div(div, work, _text(div.find(_HEAD)))
        if div.get("type") == "juan":
            place.juan = juan_of_div(div, header_juan)
            break
    place.juan = place.juan or header_juan
    return place


def _read_people(info: PageInfo, root: etree._Element, header_juan: str) -> None:
    for p in _PERSONS(root):
        full = p.find(f"{_T}persName[@type='full']")
        first = full if full is not None else p.find(f"{_T}persName")
        label = "".join(first.itertext()).split() if first is not None else []
        info.persons[p.get(XML_ID)] = ("".join(label) or p.get(XML_ID), _text(p.find(f"{_T}floruit")))
    text_el = root.find(f"{_T}text")
    # One walk over the cit and note elements (tag filter in C; an XPath union cost 10x more):
    # quotations are 義疏 cit (credited to their author) and the 疏 quoted in small notes; 注,
    # 音義 and 疏 notes are counted.
    for el in (text_el.iter(_CIT, _NOTE) if text_el is not None else ()):
        if el.tag == _CIT:
            author = el.find(_AUTHOR)
            resp = author.get("ref") if author is not None else None
        else:
            resp = el.get("resp")
        if resp is None:
            continue
        quoted = el.tag == _CIT or el.get("subtype") == "quoted"
        if quoted and el.get(XML_ID) is not None:
            text = "".join("".join(el.itertext()).split())
            excerpt = text[:EXCERPT] + ("…" if len(text) > EXCERPT else "")
            place = _place(el, header_juan, info.work)
            for ref in resp.split():
                info.quotes.append((ref.lstrip("#"), el.get(XML_ID), excerpt, place))
        elif not quoted and el.get("type") in LAYER_NAMES and el.get(XML_ID) is not None:
            for ref in resp.split():
                info.written.setdefault((ref.lstrip("#"), el.get("type")), []).append(el.get(XML_ID))
