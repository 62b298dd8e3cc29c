"""The web edition: TEI files to HTML pages with the XSLT 3.0 stylesheets in xslt/, run by Saxon.

The stylesheet is compiled once per call and applied to each file. Input is untrusted: each file
is parsed by pipeline.xmlsafe first (no DTD, no entities, bounded size), and Saxon only ever sees
that already-checked text, never a file name or URI, so it cannot be led to load anything else.
"""
from __future__ import annotations

import os
import shutil

from lxml import etree

from . import resources, site, xmlsafe
from .errors import PipelineError

TEI_NS = "http://www.tei-c.org/ns/1.0"
_T = "{%s}" % TEI_NS
INDEX = site.INDEX


def _saxon_message(e: Exception) -> str:
    """Saxon's message, first line only: the rest is a Java-ish trace nobody can act on."""
    msg = str(e).strip() or e.__class__.__name__
    return msg.splitlines()[0]


class Renderer:
    """One Saxon processor and one compiled stylesheet, reused for every file."""

    def __init__(self, stylesheet: str, params: dict[str, str | int | float] | None = None):
        try:
            from saxonche import PySaxonProcessor
        except ImportError as e:  # pragma: no cover - saxonche is a declared dependency
            raise PipelineError(f"saxonche is not installed: {e}") from None
        self.proc = PySaxonProcessor(license=False)
        xslt = self.proc.new_xslt30_processor()
        try:
            self.exe = xslt.compile_stylesheet(stylesheet_file=stylesheet)
        except Exception as e:  # saxonche raises PySaxonApiError; other failures look the same to us
            raise PipelineError(f"cannot compile stylesheet: {_saxon_message(e)}", stylesheet) from None
        if self.exe is None:
            raise PipelineError("cannot compile stylesheet", stylesheet)
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

    def render(self, tree: etree._ElementTree, name: str, data: bytes | None = None) -> str:
        """The page for `tree`; `data`, the bytes it was parsed from, spares serialising it again
        when they are UTF-8 (the bytes were checked by xmlsafe: the same document either way)."""
        node = self._node(tree, name, data)
        try:
            out = self.exe.transform_to_string(xdm_node=node)
        except Exception as e:
            raise PipelineError(f"HTML rendering failed: {_saxon_message(e)}", name) from None
        if not out:
            raise PipelineError("HTML rendering produced nothing", name)
        return out

    def render_to_file(self, tree: etree._ElementTree, name: str, data: bytes | None, target: str) -> None:
        """As render(), written by Saxon straight to `target`: handing the page to Python as a
        str and encoding it again costs a tenth of the transform."""
        node = self._node(tree, name, data)
        try:
            self.exe.transform_to_file(xdm_node=node, output_file=target)
        except Exception as e:
            _remove(target)
            raise PipelineError(f"HTML rendering failed: {_saxon_message(e)}", name) from None
        if not os.path.exists(target) or os.path.getsize(target) == 0:
            _remove(target)
            raise PipelineError("HTML rendering produced nothing", name)

    def _node(self, tree: etree._ElementTree, name: str, data: bytes | None):
        if data is not None and (tree.docinfo.encoding or "").upper() == "UTF-8":
            text = data.decode("utf-8-sig")
        else:
            text = etree.tostring(tree, encoding="unicode")   # no XML declaration: it is a str now
        try:
            return self.proc.parse_xml(xml_text=text, encoding="UTF-8")
        except Exception as e:
            raise PipelineError(f"HTML rendering failed: {_saxon_message(e)}", name) from None


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def _titles(tree: etree._ElementTree) -> tuple[str, str, str]:
    """(title, work, 卷) from titleStmt, whitespace normalised, '' where absent. The title is the
    one the page shows (zs:title in common.xsl): main, else work + 卷, else 未題名."""
    ts = tree.find(f"{_T}teiHeader/{_T}fileDesc/{_T}titleStmt")

    def title(kind: str) -> str:
        e = ts.find(f"{_T}title[@type='{kind}']") if ts is not None else None
        return " ".join("".join(e.itertext()).split()) if e is not None else ""

    work, juan = title("work"), title("juan")
    return title("main") or " ".join(x for x in (work, juan) if x) or "未題名", work, juan


def load_tei(path: str) -> tuple[etree._ElementTree, bytes]:
    """A TEI file parsed as untrusted input (pipeline.xmlsafe), with the bytes it was parsed from.
    Raises PipelineError naming the file when it is unreadable, unsafe, malformed or not TEI."""
    data = xmlsafe.read_bytes(path)
    tree = xmlsafe.parse_bytes(data, path)
    root = tree.getroot()
    if root.tag != _T + "TEI":
        raise PipelineError(f"not a TEI document: the root element is {root.tag!r}, "
                            f"expected TEI in the namespace {TEI_NS}", path)
    return tree, data


def output_names(paths: list[str], ext: str = ".html", reserved: tuple[str, ...] = ()) -> list[str]:
    """<basename><ext> for each input; two inputs may not claim the same output, nor one of the
    `reserved` names."""
    names: dict[str, str] = {}
    out = []
    for p in paths:
        base = os.path.splitext(os.path.basename(p))[0] + ext
        if base in reserved:
            raise PipelineError(f"output {base} would overwrite the site's {base}", p)
        if base in names:
            raise PipelineError(f"output {base} would also be written for {names[base]}", p)
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
    try:
        os.makedirs(os.path.join(out_dir, ASSETS), exist_ok=True)
    except OSError as e:
        raise PipelineError(f"cannot create output directory: {e.strerror}", out_dir) from None
    for asset in _ASSET_FILES:
        shutil.copyfile(resources.path("xslt", f"assets/{asset}"), os.path.join(out_dir, ASSETS, asset))

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
    tree, data = load_tei(path)
    renderer.render_to_file(tree, path, data, target)
    return site.page_info(tree, os.path.basename(target), *_titles(tree))


def write_text(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as e:
        raise PipelineError(f"cannot write: {e.strerror}", path) from None
