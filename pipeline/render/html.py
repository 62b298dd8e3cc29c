"""The web edition: TEI files to HTML pages by xslt/html.xsl (xslt.Renderer), one page per file,
then the pages that span them: the index of works and 卷 (site.py), a page per work
(works_page.py), the persons index (persons_page.py), the colophon (colophon.py) and the search
page with its index (search.py, search_index.py); the shared CSS and JS in assets/ and a copy of
each TEI file in tei/.

The site is planned before any page is rendered (plan.py): every file is read once for what the
other pages need of it (pages.py), so each page knows its work, its neighbours and its links.
"""
from __future__ import annotations

import os

from pipeline import files, resources
from pipeline.render import colophon, persons_page, search, search_index, search_text, site, works_page
from pipeline.render.pages import PageInfo, header_juan, page_info
from pipeline.render.plan import COLOPHON, INDEX, PERSONS, PERSONS_PINYIN, TEI_DIR, Options, page_params, plan_works, with_slash
from pipeline.render.xslt import Renderer, documents_only, load_tei, output_names, shared_beside, write_text

ASSETS = "assets"
_ASSET_FILES = ("zhushu.css", "zhushu.js", "place.js", *search.ASSET_FILES)
_SITE_PAGES = (INDEX, PERSONS, PERSONS_PINYIN, COLOPHON, search.PAGE)
_renderer: Renderer | None = None              # a worker process's own, compiled on first use


def render_html(paths: list[str], out_dir: str, jobs: int = 1, options: Options | None = None) -> list[str]:
    """Render each TEI file to <out_dir>/<basename>.html (a Kanripo whole-work file becomes its
    work's page), copy the shared CSS and JS into <out_dir>/assets/ and each TEI file into
    <out_dir>/tei/, and write the index, the work pages, the persons index and the colophon.
    With options.search (the default) the search page's index is written under assets/search/
    (search_index.py; without it the search page says there is none). Returns the paths written:
    pages (in input order), then index.html, persons.html, persons-pinyin.html, colophon.html,
    search.html and the work pages that no input stands for. With jobs > 1 pages are rendered
    in that many processes (Saxon holds the GIL), each compiling the stylesheet once.
    Raises PipelineError naming the file on unsafe, malformed or non-TEI input."""
    options = options or Options()
    options.base_url = with_slash(options.base_url)
    options.facs_base = with_slash(options.facs_base)
    shared = shared_beside(paths)
    paths = documents_only(paths)
    names = output_names(paths, ".html", _SITE_PAGES)
    infos = [page_info(load_tei(p), p, n) for p, n in zip(paths, names)]
    works = plan_works(infos, set(names) | set(_SITE_PAGES))
    extra = [w.page for w in works if w.whole is None]
    targets = [*names, *_SITE_PAGES, *extra, *(os.path.join(ASSETS, a) for a in _ASSET_FILES),
               *(os.path.join(TEI_DIR, os.path.basename(p)) for p in [*paths, *shared])]
    for name in targets:
        files.refuse_overwriting_inputs(paths, os.path.join(out_dir, name))
    files.make_dirs(os.path.join(out_dir, ASSETS))
    files.make_dirs(os.path.join(out_dir, TEI_DIR))
    for asset in _ASSET_FILES:
        _copy(resources.path("xslt", f"assets/{asset}"), os.path.join(out_dir, ASSETS, asset))
    for p in [*paths, *shared]:                 # the shared files too: the copies' psn: pointers
        _copy(p, os.path.join(out_dir, TEI_DIR, os.path.basename(p)))

    work_of = {id(p): w for w in works for p in w.juans}
    rendered = [p for p in infos if not p.whole_work]
    items = [(p.path, os.path.join(out_dir, p.name), page_params(p, work_of[id(p)], out_dir, options),
              options.search) for p in rendered]
    if jobs <= 1 or len(items) < 2:
        renderer = _new_renderer()
        indexes = [_render_page(item, renderer) for item in items]
    else:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            indexes = list(pool.map(_render_page, items, chunksize=1))
    assets = ASSETS + "/"
    pages = {w.page: works_page.work_page(w, assets) for w in works}
    pages[INDEX] = site.index_page(works, assets)
    pages.update(persons_page.persons_pages(infos, assets))
    pages[COLOPHON] = colophon.colophon_page(works, assets)
    pages[search.PAGE] = site.page("檢索", search.page_body(), assets)
    for name, text in pages.items():
        write_text(os.path.join(out_dir, name), text)
    if options.search:
        search_index.write(out_dir, ASSETS, [(p.name, p.work, p.title) for p in rendered], indexes,
                           search.listed_persons(infos))
    else:
        search_index.remove(out_dir, ASSETS)
    return [os.path.join(out_dir, n) for n in [*names, *_SITE_PAGES, *extra]]


def _copy(source: str, target: str) -> None:
    with open(source, "rb") as f:
        files.write_atomic(target, f.read())


def _new_renderer() -> Renderer:
    return Renderer(resources.path("xslt", "html.xsl"),
                    {"index-href": INDEX, "persons-href": PERSONS, "assets-href": ASSETS + "/"})


def _render_page(item: tuple[str, str, dict[str, str], bool], renderer: Renderer | None = None
                 ) -> search_index.PageIndex:
    """One reading page, with its own stylesheet parameters from the plan; what the search index
    needs of it comes back (from the tree parsed for the page, so no file is parsed again)."""
    global _renderer
    path, target, params, with_search = item
    if renderer is None:
        if _renderer is None:
            _renderer = _new_renderer()
        renderer = _renderer
    tree = load_tei(path)
    renderer.render_to_file(tree, path, target, params)
    if not with_search:
        return search_index.PageIndex()
    return search_index.page_index(search_text.page_text(tree, header_juan(tree)))


__all__ = ["render_html", "Options", "PageInfo", "INDEX", "PERSONS"]
