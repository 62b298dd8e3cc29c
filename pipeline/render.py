"""The web edition: TEI files to HTML pages with the XSLT 3.0 stylesheets in xslt/, run by Saxon.

The stylesheet is compiled once per call and applied to each file. Input is untrusted: each file
is parsed by pipeline.xmlsafe first (no DTD, no entities, bounded size), and Saxon only ever sees
that already-checked text, never a file name or URI, so it cannot be led to load anything else.
"""
from __future__ import annotations

import html
import os
from urllib.parse import quote

from lxml import etree

from . import resources, xmlsafe
from .errors import PipelineError

TEI_NS = "http://www.tei-c.org/ns/1.0"
_T = "{%s}" % TEI_NS
INDEX = "index.html"


def _saxon_message(e: Exception) -> str:
    """Saxon's message, first line only: the rest is a Java-ish trace nobody can act on."""
    msg = str(e).strip() or e.__class__.__name__
    return msg.splitlines()[0]


class _Renderer:
    """One Saxon processor and one compiled stylesheet, reused for every file."""

    def __init__(self, stylesheet: str, params: dict[str, str] | None = None):
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
            self.exe.set_parameter(name, self.proc.make_string_value(value))

    def render(self, tree: etree._ElementTree, name: str, data: bytes | None = None) -> str:
        """The page for `tree`; `data`, the bytes it was parsed from, spares serialising it again
        when they are UTF-8 (the bytes were checked by xmlsafe: the same document either way)."""
        if data is not None and (tree.docinfo.encoding or "").upper() == "UTF-8":
            text = data.decode("utf-8-sig")
        else:
            text = etree.tostring(tree, encoding="unicode")   # no XML declaration: it is a str now
        try:
            node = self.proc.parse_xml(xml_text=text, encoding="UTF-8")
            out = self.exe.transform_to_string(xdm_node=node)
        except Exception as e:
            raise PipelineError(f"HTML rendering failed: {_saxon_message(e)}", name) from None
        if not out:
            raise PipelineError("HTML rendering produced nothing", name)
        return out


def _title(tree: etree._ElementTree) -> str:
    """The same title the page shows (zs:title in common.xsl): main, else work + juan."""
    ts = tree.find(f"{_T}teiHeader/{_T}fileDesc/{_T}titleStmt")
    if ts is None:
        return "未題名"

    def title(kind: str) -> str:
        e = ts.find(f"{_T}title[@type='{kind}']")
        return " ".join("".join(e.itertext()).split()) if e is not None else ""

    return title("main") or " ".join(x for x in (title("work"), title("juan")) if x) or "未題名"


def _check_tei(tree: etree._ElementTree, name: str) -> None:
    root = tree.getroot()
    if root.tag != _T + "TEI":
        raise PipelineError(f"not a TEI document: the root element is {root.tag!r}, "
                            f"expected TEI in the namespace {TEI_NS}", name)


def _output_names(paths: list[str]) -> list[str]:
    """<basename>.html for each input; two inputs may not claim the same page."""
    names: dict[str, str] = {}
    out = []
    for p in paths:
        base = os.path.splitext(os.path.basename(p))[0] + ".html"
        if base == INDEX:
            raise PipelineError(f"output {base} would overwrite the page index", p)
        if base in names:
            raise PipelineError(f"output {base} would also be written for {names[base]}", p)
        names[base] = p
        out.append(base)
    return out


def _index_page(entries: list[tuple[str, str]]) -> str:
    items = "\n".join(f'<li><a href="{html.escape(quote(href), quote=True)}">{html.escape(title)}</a></li>'
                      for href, title in entries)
    return f"""<!DOCTYPE html>
<html lang="lzh">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Zhushu">
<title>目錄</title>
<style>
html {{ background: #fbf8f1; color: #1d1a16; }}
body {{ margin: 0 auto; max-width: 40rem; padding: 2rem 1.5rem 4rem; font-size: 17px; line-height: 1.9;
       font-family: "Noto Serif CJK TC", "Noto Serif CJK SC", "Source Han Serif TC", "Source Han Serif SC",
                    "Songti TC", "Songti SC", "MingLiU", "SimSun", serif; }}
h1 {{ text-align: center; letter-spacing: .5em; border-bottom: 3px double #ddd2bd; padding-bottom: .5rem; }}
ul {{ list-style: none; padding: 0; }}
li {{ padding: .4rem 0; border-bottom: 1px solid #ddd2bd; font-size: 1.2rem; }}
a {{ color: #8e2a1c; text-decoration: none; }}
a:hover {{ text-decoration: underline; }}
</style>
</head>
<body>
<h1>目錄</h1>
<ul>
{items}
</ul>
</body>
</html>
"""


def render_html(paths: list[str], out_dir: str) -> list[str]:
    """Render each TEI file to <out_dir>/<basename>.html and write <out_dir>/index.html listing
    them. Returns the paths written, pages first (in input order), then the index.
    Raises PipelineError naming the file on unsafe, malformed or non-TEI input."""
    paths = list(paths)
    names = _output_names(paths)
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise PipelineError(f"cannot create output directory: {e.strerror}", out_dir) from None

    renderer = _Renderer(resources.path("xslt", "html.xsl"), {"index-href": INDEX})
    written, entries = [], []
    # One file at a time, so a large corpus never sits in memory whole.
    for p, name in zip(paths, names):
        data = xmlsafe.read_bytes(p)
        tree = xmlsafe.parse_bytes(data, p)
        _check_tei(tree, p)
        page = renderer.render(tree, p, data)
        target = os.path.join(out_dir, name)
        _write(target, page)
        written.append(target)
        entries.append((name, _title(tree)))

    index = os.path.join(out_dir, INDEX)
    _write(index, _index_page(entries))
    written.append(index)
    return written


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as e:
        raise PipelineError(f"cannot write: {e.strerror}", path) from None
