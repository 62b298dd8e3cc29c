"""The web edition: TEI files to HTML pages by xslt/html.xsl (xslt.Renderer), one page per file,
then the pages that span them (site.py: the index of works and 卷, the persons index) and the
shared CSS and JS in assets/.
"""
from __future__ import annotations

import os

from lxml import etree

from pipeline import files, hanzi, resources
from pipeline.constants import TEI_NS
from pipeline.render import search, search_index, search_text, site
from pipeline.render.xslt import Renderer, load_tei, output_names, write_text

_T = "{%s}" % TEI_NS
INDEX = site.INDEX


def _titles(tree: etree._ElementTree) -> tuple[str, str, str]:
    """(title, work, 卷) from titleStmt, whitespace normalised, '' where absent. The title is the
    one the page shows (zs:title in common.xsl): main, else work + 卷, else 未題名."""
    ts = tree.find(f"{_T}teiHeader/{_T}fileDesc/{_T}titleStmt")

    def title(kind: str) -> str:
        e = ts.find(f"{_T}title[@type='{kind}']") if ts is not None else None
        return " ".join("".join(e.itertext()).split()) if e is not None else ""

    work, juan = title("work"), title("juan")
    return title("main") or " ".join(x for x in (work, juan) if x) or "未題名", work, juan


def page_params(tree: etree._ElementTree) -> dict[str, str]:
    """The parameters of html.xsl that differ from page to page: `lang`, the language of the
    text with its script (lzh-Hans, lzh-Hant) found from the characters of its body, since the
    TEI's xml:lang says only lzh."""
    body = tree.find(f"{_T}text")
    found = hanzi.script("".join(body.itertext())) if body is not None else ""
    return {"lang": f"lzh-{found}" if found else "lzh"}


def render_html(paths: list[str], out_dir: str, jobs: int = 1, with_search: bool = True) -> list[str]:
    """Render each TEI file to <out_dir>/<basename>.html, copy the shared CSS and JS into
    <out_dir>/assets/, and write the index of works and 卷, the persons index and the search page
    with its index (assets/search/, left out when not `with_search`: the page then says so). Returns
    the paths written: pages (in input order), index.html, persons.html, search.html. With jobs > 1 pages are
    rendered in that many processes (Saxon holds the GIL), each compiling the stylesheet once.
    Raises PipelineError naming the file on unsafe, malformed or non-TEI input."""
    paths = list(paths)
    names = output_names(paths, ".html", (INDEX, site.PERSONS, search.PAGE))
    for name in [*names, INDEX, site.PERSONS, search.PAGE, *(os.path.join(ASSETS, a) for a in _ASSET_FILES)]:
        files.refuse_overwriting_inputs(paths, os.path.join(out_dir, name))
    files.make_dirs(os.path.join(out_dir, ASSETS))
    for asset in _ASSET_FILES:
        with open(resources.path("xslt", f"assets/{asset}"), "rb") as f:
            files.write_atomic(os.path.join(out_dir, ASSETS, asset), f.read())

    work_items = [(p, os.path.join(out_dir, n), with_search) for p, n in zip(paths, names)]
    if jobs <= 1 or len(work_items) < 2:
        renderer = _new_renderer()
        results = [_render_page(item, renderer) for item in work_items]
    else:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(_render_page, work_items, chunksize=1))
    infos = [info for info, _ in results]
    written = [target for _, target, _ in work_items]
    for name, text in ((INDEX, site.index_page(infos, ASSETS + "/")),
                       (site.PERSONS, site.persons_page(infos, ASSETS + "/")),
                       (search.PAGE, site._page("檢索", search.page_body(), ASSETS + "/"))):
        write_text(os.path.join(out_dir, name), text)
        written.append(os.path.join(out_dir, name))
    if with_search:
        search_index.write(out_dir, ASSETS, [(i.name, i.work, i.title) for i in infos],
                           [index for _, index in results], search.listed_persons(infos))
    else:
        search_index.remove(out_dir, ASSETS)
    return written


ASSETS = "assets"
_ASSET_FILES = ("zhushu.css", "zhushu.js", *search.ASSET_FILES)
_renderer: Renderer | None = None              # a worker process's own, compiled on first use


def _new_renderer() -> Renderer:
    return Renderer(resources.path("xslt", "html.xsl"), {"index-href": INDEX, "assets-href": ASSETS + "/"})


def _render_page(item: tuple[str, str, bool], renderer: Renderer | None = None
                 ) -> tuple[site.PageInfo, search_index.PageIndex]:
    """One page; what the index pages and the search index need from it comes back (a file is
    parsed once)."""
    global _renderer
    path, target, with_search = item
    if renderer is None:
        if _renderer is None:
            _renderer = _new_renderer()
        renderer = _renderer
    tree = load_tei(path)
    renderer.render_to_file(tree, path, target, page_params(tree))
    titles = _titles(tree)
    index = (search_index.page_index(search_text.page_text(tree, titles[2])) if with_search
             else search_index.PageIndex())
    return site.page_info(tree, os.path.basename(target), *titles), index
