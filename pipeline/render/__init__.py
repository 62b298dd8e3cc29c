"""The web edition: TEI files to HTML pages with the XSLT 3.0 stylesheets in xslt/, run by Saxon.

The stylesheet is compiled once per call and applied to each file. Input is untrusted: each file
is parsed by pipeline.xmlsafe first (no DTD, no entities, bounded size), and Saxon is given a
serialisation of the tree that passed those checks, never the file; once the stylesheet is
compiled, Saxon's access to external resources is switched off, so neither the document nor
the stylesheet can make it read a file or reach the network.
"""
from __future__ import annotations

import os

from lxml import etree

from pipeline import files, resources
from pipeline.constants import TEI_NS
from pipeline.errors import PipelineError
from pipeline.render import site
from pipeline.validate import xmlsafe

_T = "{%s}" % TEI_NS
INDEX = site.INDEX


def _saxon_message(e: Exception) -> str:
    """Saxon's message, first line only: the rest is a Java-ish trace nobody can act on."""
    msg = str(e).strip() or e.__class__.__name__
    return msg.splitlines()[0].strip()


# Saxon's own switch for every external resource (documents, text, modules, entities): the
# empty list allows none. Set once the stylesheet and its modules are compiled.
_ALLOWED_PROTOCOLS = "http://saxon.sf.net/feature/allowedProtocols"


class Renderer:
    """One Saxon processor and one compiled stylesheet, reused for every file."""

    def __init__(self, stylesheet: str, params: dict[str, str | int | float] | None = None):
        try:
            from saxonche import PySaxonProcessor
        except ImportError as e:  # pragma: no cover - saxonche is a declared dependency
            raise PipelineError(f"saxonche is not installed: {e}", rule="ZS-ENV-001") from None
        self.proc = PySaxonProcessor(license=False)
        xslt = self.proc.new_xslt30_processor()
        try:
            self.exe = xslt.compile_stylesheet(stylesheet_file=stylesheet)
        except Exception as e:  # saxonche raises PySaxonApiError; other failures look the same to us
            raise PipelineError(f"cannot compile stylesheet: {_saxon_message(e)}", stylesheet,
                                rule="ZS-RENDER-001") from None
        if self.exe is None:
            raise PipelineError("cannot compile stylesheet", stylesheet, rule="ZS-RENDER-001")
        self.proc.set_configuration_property(_ALLOWED_PROTOCOLS, "")
        for name, value in (params or {}).items():
            self.exe.set_parameter(name, self._value(value))

    def _value(self, value: str | int | float):
        """A stylesheet parameter as the XDM type its declaration wants: xs:string, xs:integer,
        or xs:decimal for a float (a double would not convert to a declared xs:decimal)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return self.proc.make_string_value(str(value))
        if isinstance(value, int):
            return self.proc.make_integer_value(value)
        return self.proc.make_atomic_value("decimal", repr(float(value)))

    def render(self, tree: etree._ElementTree, name: str) -> str:
        """The transform of `tree` (already checked by xmlsafe) as a string."""
        node = self._node(tree, name)
        try:
            out = self.exe.transform_to_string(xdm_node=node)
        except Exception as e:
            raise PipelineError(f"HTML rendering failed: {_saxon_message(e)}", name,
                                rule="ZS-RENDER-001") from None
        if not out:
            raise PipelineError("HTML rendering produced nothing", name, rule="ZS-RENDER-001")
        return out

    def render_to_file(self, tree: etree._ElementTree, name: str, target: str) -> None:
        """As render(), written to `target` atomically: a failed page leaves the earlier one as
        it was. (Saxon cannot write the file itself: its access to files is switched off, and
        handing the page over as a string costs no more, measured.)"""
        files.write_atomic(target, self.render(tree, name))

    def _node(self, tree: etree._ElementTree, name: str):
        try:
            return self.proc.parse_xml(xml_text=xmlsafe.for_xslt(tree))
        except Exception as e:
            raise PipelineError(f"HTML rendering failed: {_saxon_message(e)}", name,
                                rule="ZS-RENDER-001") from None


def _titles(tree: etree._ElementTree) -> tuple[str, str, str]:
    """(title, work, 卷) from titleStmt, whitespace normalised, '' where absent. The title is the
    one the page shows (zs:title in common.xsl): main, else work + 卷, else 未題名."""
    ts = tree.find(f"{_T}teiHeader/{_T}fileDesc/{_T}titleStmt")

    def title(kind: str) -> str:
        e = ts.find(f"{_T}title[@type='{kind}']") if ts is not None else None
        return " ".join("".join(e.itertext()).split()) if e is not None else ""

    work, juan = title("work"), title("juan")
    return title("main") or " ".join(x for x in (work, juan) if x) or "未題名", work, juan


def load_tei(path: str) -> etree._ElementTree:
    """A TEI file parsed as untrusted input (pipeline.xmlsafe). Raises PipelineError naming the
    file when it is unreadable, unsafe, malformed or not TEI."""
    tree = xmlsafe.load(path)
    xmlsafe.require_tei(tree, path)
    return tree


def output_names(paths: list[str], ext: str = ".html", reserved: tuple[str, ...] = ()) -> list[str]:
    """<basename><ext> for each input; two inputs may not claim the same output, nor one of the
    `reserved` names."""
    names: dict[str, str] = {}
    out = []
    for p in paths:
        base = os.path.splitext(os.path.basename(p))[0] + ext
        if base in reserved:
            raise PipelineError(f"output {base} would overwrite the site's {base}", p, rule="ZS-IO-003")
        if base in names:
            raise PipelineError(f"output {base} would also be written for {names[base]}", p,
                                rule="ZS-IO-003")
        names[base] = p
        out.append(base)
    return out


def render_html(paths: list[str], out_dir: str, jobs: int = 1) -> list[str]:
    """Render each TEI file to <out_dir>/<basename>.html, copy the shared CSS and JS into
    <out_dir>/assets/, and write the index of works and 卷 and the persons index. Returns the
    paths written: pages (in input order), index.html, persons.html. With jobs > 1 pages are
    rendered in that many processes (Saxon holds the GIL), each compiling the stylesheet once.
    Raises PipelineError naming the file on unsafe, malformed or non-TEI input."""
    paths = list(paths)
    names = output_names(paths, ".html", (INDEX, site.PERSONS))
    for name in [*names, INDEX, site.PERSONS, *(os.path.join(ASSETS, a) for a in _ASSET_FILES)]:
        files.refuse_overwriting_inputs(paths, os.path.join(out_dir, name))
    files.make_dirs(os.path.join(out_dir, ASSETS))
    for asset in _ASSET_FILES:
        with open(resources.path("xslt", f"assets/{asset}"), "rb") as f:
            files.write_atomic(os.path.join(out_dir, ASSETS, asset), f.read())

    work_items = [(p, os.path.join(out_dir, n)) for p, n in zip(paths, names)]
    if jobs <= 1 or len(work_items) < 2:
        renderer = _new_renderer()
        infos = [_render_page(item, renderer) for item in work_items]
    else:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            infos = list(pool.map(_render_page, work_items, chunksize=1))
    written = [target for _, target in work_items]
    for name, text in ((INDEX, site.index_page(infos, ASSETS + "/")),
                       (site.PERSONS, site.persons_page(infos, ASSETS + "/"))):
        write_text(os.path.join(out_dir, name), text)
        written.append(os.path.join(out_dir, name))
    return written


ASSETS = "assets"
_ASSET_FILES = ("zhushu.css", "zhushu.js")
_renderer: Renderer | None = None              # a worker process's own, compiled on first use


def _new_renderer() -> Renderer:
    return Renderer(resources.path("xslt", "html.xsl"), {"index-href": INDEX, "assets-href": ASSETS + "/"})


def _render_page(item: tuple[str, str], renderer: Renderer | None = None) -> site.PageInfo:
    """One page; what the index pages need from it comes back (a file is parsed once)."""
    global _renderer
    path, target = item
    if renderer is None:
        if _renderer is None:
            _renderer = _new_renderer()
        renderer = _renderer
    tree = load_tei(path)
    renderer.render_to_file(tree, path, target)
    return site.page_info(tree, os.path.basename(target), *_titles(tree))


def write_text(path: str, text: str) -> None:
    files.write_atomic(path, text)
