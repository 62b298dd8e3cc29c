"""The print edition: TEI → HTML laid out on a grid by xslt/print.xsl → PDF printed by Chromium.

No TEI tool sets vertical CJK with double-line small notes (FOP garbles CJK; CSS has no
warichu), so the stylesheet breaks every line itself and the browser only draws and paginates
what it is given. One Chromium (Debian's, driven through Playwright; never a downloaded browser)
is started per run and prints every file; the stylesheet is compiled once per run.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass

from pipeline import files, resources
from pipeline.errors import PipelineError
from pipeline.render import fonts, pdfmeta
from pipeline.render.xslt import Renderer, documents_only, load_tei, output_names, write_text

# Portrait paper sizes in millimetres. ISO A and B; JIS B5 (Japanese and Chinese books); the
# Chinese 16开 and 32开 book formats; US Letter.
PAPERS: dict[str, tuple[float, float]] = {
    "A3": (297, 420), "A4": (210, 297), "A5": (148, 210), "A6": (105, 148),
    "B4": (250, 353), "B5": (176, 250), "B6": (125, 176), "JIS-B5": (182, 257),
    "16K": (185, 260), "32K": (130, 184), "Letter": (215.9, 279.4),
}
LAYOUTS = ("vertical", "horizontal")
# modern: the typeset page (xslt/print.xsl); siku: the 四庫全書 leaf (xslt/siku.xsl).
STYLES = ("modern", "siku")
LEAVES = ("full", "half")
LINEATIONS = ("auto", "source", "grid")
SIKU_CELLS = 21                 # cells a column of the 四庫全書 holds

CHROMIUM = "/usr/bin/chromium"
# What Chromium needs no part of for printing, and a profile of its own (Playwright gives each
# launch a fresh --user-data-dir).
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-pdf-header-footer"]
# Font family → the Debian package that installs it.
FONTS = {"Noto Serif CJK TC": "fonts-noto-cjk", "BabelStone Han": "fonts-babelstone-han"}


@dataclass(frozen=True)
class PrintOptions:
    """How the book is set. cells/lines 0: as many as fit (7 mm cells, a pitch of 1.5 cells);
    in the siku style cells 0 is 21, and lines and layout do not apply (the leaf has `columns`
    columns a half-leaf and is vertical): a horizontal siku is refused rather than ignored."""
    layout: str = "vertical"
    paper: str = "A4"
    cells: int = 0
    lines: int = 0
    margin: float = 20.0
    style: str = "modern"
    leaf: str = "full"
    columns: int = 8
    lineation: str = "auto"

    def params(self) -> dict[str, str | int | float]:
        """The stylesheet parameters of xslt/print.xsl (and of xslt/siku.xsl for siku)."""
        for name, value, allowed in (("layout", self.layout, LAYOUTS), ("style", self.style, STYLES),
                                     ("leaf", self.leaf, LEAVES), ("lineation", self.lineation, LINEATIONS)):
            if value not in allowed:
                raise PipelineError(f"unknown {name} {value!r}: use {' or '.join(allowed)}",
                                    rule="ZS-OPT-001")
        width, height = paper_size(self.paper)
        if min(width, height) - 2 * self.margin < 20:
            raise PipelineError(f"a margin of {self.margin:g} mm leaves less than 20 mm of "
                                f"{self.paper} paper to print on", rule="ZS-OPT-001")
        params: dict[str, str | int | float] = {
            "layout": self.layout, "paper-width": float(width), "paper-height": float(height),
            "margin": float(self.margin), "cells": self.cells, "lines": self.lines}
        if self.style == "siku":
            if self.layout != "vertical":
                raise PipelineError("the siku style is vertical only: leave out --layout horizontal",
                                    rule="ZS-OPT-001")
            if not 1 <= self.columns <= 40:
                raise PipelineError(f"--columns {self.columns}: a half-leaf has 1 to 40 columns",
                                    rule="ZS-OPT-001")
            if self.cells and not 4 <= self.cells <= 60:
                raise PipelineError(f"--cells {self.cells}: a siku column has 4 to 60 cells",
                                    rule="ZS-OPT-001")
            # a whole leaf lies on its side (landscape); a half-leaf stands (portrait)
            wide, tall = max(width, height), min(width, height)
            width, height = (wide, tall) if self.leaf == "full" else (tall, wide)
            params.update({"style": "siku", "paper-width": float(width), "paper-height": float(height),
                           "cells": self.cells or SIKU_CELLS, "columns": self.columns,
                           "leaf": self.leaf, "lineation": self.lineation})
        return params


def paper_size(paper: str) -> tuple[float, float]:
    """(width, height) in mm of a named paper (case-insensitive) or of WIDTHxHEIGHT in mm."""
    for name, size in PAPERS.items():
        if name.lower() == paper.strip().lower():
            return size
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*", paper, re.I)
    if m and all(50 <= float(v) <= 1000 for v in m.groups()):
        return float(m[1]), float(m[2])
    raise PipelineError(f"unknown paper {paper!r}: use one of {', '.join(PAPERS)} "
                        "or WIDTHxHEIGHT in millimetres (50 to 1000)", rule="ZS-OPT-001")


def find_chromium() -> str:
    """Chromium's executable ($ZHUSHU_CHROMIUM, else Debian's), or one line saying what to install."""
    path = os.environ.get("ZHUSHU_CHROMIUM") or CHROMIUM
    if os.access(path, os.X_OK):
        return path
    found = shutil.which("chromium")
    if found:
        return found
    raise PipelineError("Chromium not found (needed to print PDF): install it with "
                        "apt-get install chromium, or set ZHUSHU_CHROMIUM", rule="ZS-ENV-001")


def check_fonts() -> None:
    """The fonts the print stylesheet names must be installed, or the PDF would fall back to
    whatever the system has (tofu for Extension B characters): one line naming the packages."""
    try:
        listed = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True,
                                timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        listed = ""
    families = {f.strip() for line in listed.splitlines() for f in line.split(",")}
    missing = sorted({pkg for family, pkg in FONTS.items() if family not in families})
    if missing:
        raise PipelineError(f"fonts missing for the print edition: install them with "
                            f"apt-get install {' '.join(missing)}", rule="ZS-ENV-001")


class _Chromium:
    """One headless Chromium with one page, printing HTML documents to PDF files with the
    print fonts (render/fonts.py) and the metadata of their TEI (render/pdfmeta.py)."""

    def __init__(self, executable: str, print_fonts: fonts.PrintFonts = fonts.INSTALLED):
        try:
            from playwright.sync_api import Error, sync_playwright
        except ImportError as e:  # pragma: no cover - playwright is a declared dependency
            raise PipelineError(f"playwright is not installed: {e}", rule="ZS-ENV-001") from None
        self._error = Error
        self._fonts = print_fonts
        # the fonts' variables (FONTCONFIG_FILE) for Chromium alone, not for this process
        env = {"env": {**os.environ, **print_fonts.env}} if print_fonts.env else {}
        self._pw = sync_playwright().start()
        try:
            self._browser = self._pw.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS,
                                                     **env)
            # No script runs in a print document, and nothing is fetched: the HTML is complete.
            self._page = self._browser.new_page(java_script_enabled=False)
            self._page.route("**/*", lambda route: route.abort())
        except Exception as e:
            self.close()
            raise PipelineError(f"cannot start Chromium: {_first_line(e)}", executable,
                                rule="ZS-ENV-001") from None

    def print(self, html: str, target: str, meta: pdfmeta.PdfMeta | None = None) -> None:
        """Print to `target` through a temporary file renamed into place (with `meta` written
        into it first)."""
        with files.atomic_path(target) as tmp:
            try:
                self._page.set_content(fonts.with_fonts(html, self._fonts), wait_until="load")
                # tagged: a structure tree for screen readers; outline: bookmarks from the headings
                self._page.pdf(path=tmp, prefer_css_page_size=True, print_background=True,
                               tagged=True, outline=True)
            except self._error as e:
                raise PipelineError(f"Chromium could not print: {_first_line(e)}", target,
                                    rule="ZS-RENDER-001") from None
            if meta is not None and os.path.isfile(tmp):    # not into a device or a FIFO
                pdfmeta.finish(tmp, meta)

    def close(self) -> None:
        browser = getattr(self, "_browser", None)
        try:
            if browser is not None:
                browser.close()
        finally:
            self._pw.stop()


def _first_line(e: Exception) -> str:
    return (str(e).strip() or e.__class__.__name__).splitlines()[0]


def print_renderer(params: dict) -> Renderer:
    """xslt/print.xsl (or xslt/siku.xsl for params of the siku style) compiled, with its
    parameters and the style sheet it copies into every document: the type both styles share,
    then the style's own (passed in: Saxon may read no file once the stylesheet is compiled)."""
    def css(name: str) -> str:
        with open(resources.path("xslt", f"assets/{name}"), encoding="utf-8") as f:
            return f.read()
    params = dict(params)
    if params.pop("style", "modern") == "siku":
        return Renderer(resources.path("xslt", "siku.xsl"),
                        {"print-css": "", "siku-css": css("type.css") + css("siku.css"), **params})
    return Renderer(resources.path("xslt", "print.xsl"),
                    {"print-css": css("type.css") + css("print.css"), **params})


# What a siku document counts on its body: columns drawn smaller to fit, sides with more lines
# than columns, columns or rows against the punctuation rules (the edition's own lines).
_SIKU_COUNTS = re.compile(r'<body data-lineation="(\w+)" data-squeezed="(\d+)" data-crowded="(\d+)" '
                          r'data-punctuation="(\d+)"')


def siku_counts(html: str) -> dict[str, str | int] | None:
    """The counts a siku print document records ({lineation, squeezed, crowded, punctuation}),
    or None for a document of the modern style."""
    m = _SIKU_COUNTS.search(html)
    if m is None:
        return None
    return {"lineation": m[1], "squeezed": int(m[2]), "crowded": int(m[3]), "punctuation": int(m[4])}


def render_pdf(paths: list[str], out_dir: str, options: PrintOptions = PrintOptions(),
               keep_html: bool = False, counts: list | None = None) -> list[tuple[str, int]]:
    """Print each TEI file to <out_dir>/<basename>.pdf (and, with keep_html, the HTML that was
    printed beside it). Returns (PDF path, pages) per file, in input order; in the siku style,
    `counts` (a list) gets (PDF path, siku_counts) per file. Raises PipelineError naming the
    file on bad input, or in one line saying what to install when Chromium or the fonts are
    missing."""
    paths = documents_only(paths)
    names = output_names(paths, ".pdf")
    targets = [os.path.join(out_dir, n) for n in names]
    for t in targets:
        files.refuse_overwriting_inputs(paths, t)
        if keep_html:
            files.refuse_overwriting_inputs(paths, os.path.splitext(t)[0] + ".print.html")
    params = options.params()
    chromium = find_chromium()
    check_fonts()
    print_fonts = fonts.print_fonts()   # built on the first run, then taken from the cache
    files.make_dirs(out_dir)
    renderer = print_renderer(params)
    printer = None                  # started for the first document that is fit to print
    done = []
    try:
        for path, target in zip(paths, targets):
            tree = load_tei(path)                 # parsed once for the document and its metadata
            html = renderer.render(tree, path)
            if keep_html:
                write_text(os.path.splitext(target)[0] + ".print.html", html)
            meta = pdfmeta.metadata(tree)
            if printer is None:
                printer = _Chromium(chromium, print_fonts)
            printer.print(html, target, meta)
            done.append((target, html.count('<div class="pg"')))
            if counts is not None and options.style == "siku":
                counts.append((target, siku_counts(html)))
    finally:
        if printer is not None:
            printer.close()
    return done
