"""The plan of the site, made before any page is rendered: which pages belong to which work, in
what order (input order within a work), each 卷's neighbours, the page of each work, where each
page's TEI and PDF are, and so the stylesheet parameters of every page.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field

from pipeline.render.pages import PageInfo

INDEX = "index.html"
PERSONS = "persons.html"
PERSONS_PINYIN = "persons-pinyin.html"
COLOPHON = "colophon.html"
TEI_DIR = "tei"


@dataclass
class Options:
    """How the site links out: --base-url (absolute citations and permalinks), --facs-base (where
    the facsimile images are), --pdf-dir (the PDFs, relative to the site); and whether the
    search index is written (--no-search leaves it out)."""
    base_url: str = ""
    facs_base: str = ""
    pdf_dir: str = ""
    search: bool = True


@dataclass
class Work:
    key: str                                   # the Kanripo id, else the work's title
    title: str
    page: str                                  # the work page's file name
    juans: list[PageInfo] = field(default_factory=list)   # its reading pages, in input order
    whole: PageInfo | None = None              # its whole-work file, if one was given


def juan_label(p: PageInfo) -> str:
    """How a page is named under its work: its 卷, else its title less the work's name."""
    if p.juan:
        return p.juan
    rest = p.title.removeprefix(p.work).strip() if p.work else ""
    return rest or p.title


def plan_works(pages: list[PageInfo], taken: set[str]) -> list[Work]:
    """Works in order of first appearance. A page is of the work its Kanripo id names, else of
    the work its header names (else it is a work of its own)."""
    works: dict[str, Work] = {}
    for p in pages:
        key = p.source.kanripo or p.work or p.title
        if p.whole_work and key in works and works[key].whole is not None:
            key = p.name                       # a second whole-work file of one work: a page of its own
        w = works.get(key)
        if w is None:
            w = works[key] = Work(key, p.work or p.title, "")
        if p.whole_work and w.whole is None:
            w.whole, w.page = p, p.name
        elif not p.whole_work:
            w.juans.append(p)
    for w in works.values():
        if not w.page:
            w.page = _work_page_name(w, taken)
            taken.add(w.page)
    return list(works.values())


def _work_page_name(w: Work, taken: set[str]) -> str:
    """KR1d0053.html for a Kanripo work (the name its whole-work file would have); else a name
    from a digest of the title, the same for the same title (a title is no safe file name)."""
    if w.key.isascii() and w.key.isalnum() and f"{w.key}.html" not in taken:
        return f"{w.key}.html"
    digest = hashlib.sha1(w.key.encode("utf-8")).hexdigest()
    n = 8
    while f"work-{digest[:n]}.html" in taken:
        n += 1
    return f"work-{digest[:n]}.html"


def page_params(p: PageInfo, work: Work, out_dir: str, options: Options) -> dict[str, str]:
    """The stylesheet parameters of one reading page (declared and documented in html.xsl)."""
    i = work.juans.index(p)
    prev = work.juans[i - 1] if i > 0 else None
    nxt = work.juans[i + 1] if i + 1 < len(work.juans) else None
    stem = os.path.splitext(os.path.basename(p.path))[0]
    pdf = ""
    if options.pdf_dir:
        candidate = f"{options.pdf_dir.rstrip('/')}/{stem}.pdf"
        # link only a PDF that is there (the demo renders the PDFs before the site)
        if os.path.isfile(os.path.join(out_dir, candidate)):
            pdf = candidate
    return {
        "lang": p.lang,
        "title": p.title,
        "juan": p.juan,
        "pian-name": p.pian,
        "work-href": work.page,
        "work-name": work.title,
        "prev-href": prev.name if prev else "",
        "prev-label": juan_label(prev) if prev else "",
        "next-href": nxt.name if nxt else "",
        "next-label": juan_label(nxt) if nxt else "",
        "tei-href": tei_href(p),
        "pdf-href": pdf,
        "colophon-href": f"{COLOPHON}#{work_anchor(work)}",
        "base-url": options.base_url,
        "page-name": p.name,
        "facs-base": options.facs_base,
    }


def tei_href(p: PageInfo) -> str:
    return f"{TEI_DIR}/{os.path.basename(p.path)}"


def work_anchor(work: Work) -> str:
    return "w-" + os.path.splitext(work.page)[0]


def with_slash(url: str) -> str:
    return url if not url or url.endswith("/") else url + "/"
