"""The `zhushu` command (also `python -m pipeline`). Each command parses its options, calls the
library and prints what it returns: what a conversion says of each source and what a run's
problems come to (convert.Outcome, issues.exit_status) are decided there; what a failure of the
command itself comes to (a bad option, an unusable input, a bug), in `_Zhushu.main`.

Exit codes (pipeline.errors): 0 success (warnings allowed), 1 invalid TEI (validate) or a
conversion error, 2 unusable input, options or output, 70 a bug. Every problem is one line
`file:line:col: level: RULE-ID: message` on stderr (validate's report goes to stdout).
"""
from __future__ import annotations

import os
import sys

import click

from pipeline import __version__
from pipeline.constants import CATEGORY_IDS
from pipeline.errors import (EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_UNUSABLE, PipelineError,
                             one_line)
from pipeline.textlayers import LAYERS


def _say(line: str) -> None:
    click.echo(line, err=True)


class _Zhushu(click.Group):
    """The command group, run so that no problem prints more than one line: a usage error is
    one line, not click's usage block; a PipelineError is its own line; anything else is a bug,
    reported in one line (with the traceback only when ZHUSHU_DEBUG is set)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            status = super().main(args, prog_name or "zhushu", complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as e:
            status = e.exit_code
        except click.UsageError as e:
            hint = f" ({e.ctx.command_path} -h for help)" if e.ctx is not None else ""
            _say(f"zhushu: error: ZS-OPT-001: {one_line(e.format_message())}{hint}")
            status = EXIT_UNUSABLE
        except click.Abort:
            _say("zhushu: interrupted")
            status = EXIT_INTERRUPTED
        except PipelineError as e:
            _say(str(e))
            status = EXIT_UNUSABLE
        except Exception as e:              # noqa: BLE001 - the one place a bug is caught
            if os.environ.get("ZHUSHU_DEBUG"):
                raise
            _say(f"zhushu: error: ZS-INTERNAL: {type(e).__name__}: {one_line(str(e))[:300]} (a bug "
                 "in Zhushu; please report it with the input; ZHUSHU_DEBUG=1 shows the traceback)")
            status = EXIT_INTERNAL
        sys.exit(status if isinstance(status, int) else EXIT_OK)


@click.group(cls=_Zhushu, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="zhushu")
def main() -> None:
    """Zhushu: encode the Chinese classics with their commentaries as TEI, validate, publish."""


def _xml_files(paths) -> list[str]:
    """Files named, directories expanded to their *.xml files; an empty directory is an error."""
    from pipeline.files import sources_in
    return sources_in(list(paths), ".xml")


# -- convert -------------------------------------------------------------------------------------
@main.command()
@click.argument("sources", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", type=click.Path(), help="Output file (one source) or directory (several, or a directory source, whose tree is kept). Default: stdout for one source.")
@click.option("-f", "--format", "fmt", default="auto", metavar="FORMAT", show_default=True, help="Source layout (`zhushu formats` lists them); `auto` detects it and says why.")
@click.option("--report", "report_path", type=click.Path(), help="Write the conversion report (warnings, boundaries, with source line:col) as JSON.")
@click.option("--work", help="Title of the work (e.g. 周禮注疏), when neither the text nor a .meta.json sidecar names it.")
@click.option("--encoding", help="Source encoding (default: detect UTF-8/UTF-16/UTF-32 BOM, else UTF-8, GB18030, Big5).")
@click.option("-q", "--quiet", is_flag=True, help="Print errors only, not warnings and the summary.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Convert in this many processes (output and messages stay in input order).")
@click.option("--facs-base", default="", metavar="URL", help="Kanripo: prefix that makes the page images' paths absolute URLs (e.g. http://img.kanripo.org/general/skqs/wyg/).")
@click.option("--gaiji", type=click.Path(dir_okay=False), help="Kanripo: the KR-Gaiji table (charlist.org.txt); default: a KR-Gaiji checkout beside the sources.")
@click.option("--imglist", type=click.Path(file_okay=False), help="Kanripo: the _data branch's imglist directory of the work; default: found beside the sources.")
def convert(sources, output, fmt, report_path, work, encoding, quiet, jobs, facs_base, gaiji, imglist):
    """Convert plain-text editions and Kanripo (mandoku) files to TEI.

    SOURCES are files, or directories whose *.txt files are converted (then -o names a directory).
    A Kanripo repository checkout (a directory with Readme.org) also gets one TEI file for the
    work, <ID>.xml, beside its 卷. An output is written only when its conversion succeeds, and
    never over a source.
    """
    from pipeline.convert import convert_all, plan, run_report, write_shared, write_works
    from pipeline.files import refuse_overwriting_inputs, write_stdout
    from pipeline.report import write_reports
    from pipeline.sources.decoding import check_text
    from pipeline.readers import get as reader
    from pipeline.sources.kanripo import Options
    if fmt != "auto":
        reader(fmt)                 # an unknown layout is refused before any file is read
    if work is not None:
        check_text(work, "--work")
    check_text(facs_base, "--facs-base")
    pairs = plan(list(sources), output)
    if report_path:
        refuse_overwriting_inputs([s for s, _ in pairs], report_path)
    outcomes = []
    progress = _Progress(len(pairs)) if len(pairs) > 1 and not quiet else None
    for outcome in convert_all(pairs, fmt, work, encoding, jobs, Options(gaiji, imglist, facs_base)):
        outcomes.append(outcome)
        if progress is not None:
            progress.step(outcome.source)
        if outcome.output is None and outcome.data is not None:
            write_stdout(outcome.data)
        for line in outcome.messages(quiet):
            _say(line)
    if progress is not None:
        progress.done()
    for path in write_works(pairs, outcomes):
        if not quiet:
            _say(f"work → {path}")
    write_shared(pairs, outcomes)
    if report_path:
        write_reports([run_report(o) for o in outcomes], report_path)
    return max((o.status for o in outcomes), default=EXIT_OK)


class _Progress:
    """A progress line on a terminal, for long runs (`12/62 files, 1.9 MB/s`), redrawn in place
    and cleared before any other line; nothing when stderr is not a terminal."""

    def __init__(self, total: int):
        import time
        self.total, self.n, self.bytes, self.start = total, 0, 0, time.monotonic()
        self.tty = sys.stderr.isatty()

    def step(self, path: str) -> None:
        import time
        self.n += 1
        try:
            self.bytes += os.path.getsize(path)
        except OSError:
            pass
        elapsed = time.monotonic() - self.start
        if self.tty and elapsed > 2:
            rate = self.bytes / 1e6 / elapsed
            sys.stderr.write(f"\r{self.n}/{self.total} files, {rate:.1f} MB/s\x1b[K")
            sys.stderr.flush()

    def done(self) -> None:
        if self.tty:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


@main.command()
def formats():
    """List the source layouts convert can read."""
    from pipeline.readers import READERS
    for name, mod in sorted(READERS.items()):
        click.echo(f"{name}\t{mod.DESCRIPTION}")


# -- text ----------------------------------------------------------------------------------------
@main.command()
@click.argument("file", type=click.Path())
@click.option("-l", "--layer", type=click.Choice(list(LAYERS)), default="all", show_default=True, help="Which layer to print; `all` is every character the TEI keeps of the source.")
@click.option("--category", type=click.Choice(sorted(CATEGORY_IDS)), help="Only 義疏 blocks of this category (with --layer yishu).")
@click.option("--resp", metavar="ID", help="Only what this person said or wrote (an id of the registry, persons.xml, e.g. zhengxuan; or of the file's own listPerson).")
def text(file, layer, category, resp):
    """Print one layer of a TEI file, in document order, one unit or note per line."""
    from pipeline.files import write_stdout
    from pipeline.textlayers import printed_lines
    from pipeline.validate import xmlsafe
    tree = xmlsafe.load(file)
    xmlsafe.require_tei(tree, file)
    write_stdout(printed_lines(tree.getroot(), layer, category, resp).encode("utf-8"))
    return EXIT_OK


# -- resolve -------------------------------------------------------------------------------------
@main.command()
@click.argument("urn")
@click.argument("directory", default="tei", type=click.Path())
def resolve(urn, directory):
    """Find the element a citation names (urn:zhushu:liji-zhengyi:46.23.u12) among the TEI files
    of DIRECTORY (default tei): print file:line, the element and its text."""
    from pipeline.resolve import resolve as find
    found = find(urn, _xml_files([directory]))
    click.echo(f"{found.path}:{found.line}: {found.label()}\t{found.text()}")
    return EXIT_OK


# -- validate ------------------------------------------------------------------------------------
@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("-f", "--format", "fmt", type=click.Choice(["text", "json", "github", "junit"]), default="text", show_default=True, help="text: file:line:col: level: RULE: message; json; github: workflow annotations; junit: one testcase per file.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1).")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Validate in this many processes.")
@click.option("--max-size", type=click.IntRange(1, 200), default=200, show_default=True, help="Refuse files larger than this many MB.")
@click.option("--max-depth", type=click.IntRange(1, 64), default=64, show_default=True, help="Refuse elements nested deeper than this.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the report here instead of stdout.")
@click.option("--schematron", "schematrons", multiple=True, type=click.Path(exists=True, dir_okay=False), metavar="FILE", help="Also run this Schematron (repeatable): an ODD's constraintSpecs (schema/zhushu.odd), the rules embedded in a RELAX NG schema (tei_all.rng), or a .sch file; findings are ZS-SCH-001.")
def validate(paths, fmt, strict, jobs, max_size, max_depth, output, schematrons):
    """Validate TEI against the schema and the rules (docs/rules.md).

    PATHS are files, directories (searched for *.xml) or - to read a list of paths from stdin
    (`git diff --name-only | zhushu validate -`). Exit 0 valid (warnings allowed unless
    --strict), 1 invalid, 2 unusable input (not XML, unreadable, refused as hostile).
    """
    from pipeline.files import refuse_overwriting_inputs, write_atomic
    from pipeline.limits import Limits
    from pipeline.issues import exit_status
    from pipeline.validate import paths_from_stdin, validate_files
    from pipeline.validate.reports import render, summary
    listed = []
    for p in paths:
        listed += paths_from_stdin(sys.stdin.buffer) if p == "-" else [p]
    if not listed and "-" in paths:                       # nothing of ours changed: nothing to check
        _say("0 files checked")
        return EXIT_OK
    files = _xml_files(listed)
    if output:
        refuse_overwriting_inputs(files, output)
    issues = validate_files(files, jobs, Limits(max_size * 1024 * 1024, max_depth), schematrons)
    if output:
        write_atomic(output, render(fmt, files, issues))
    elif fmt == "text":                                   # the summary apart from the findings
        if issues:
            click.echo("\n".join(map(str, issues)))
        _say(summary(files, issues))
    else:
        click.echo(render(fmt, files, issues), nl=False)
    return exit_status(issues, strict)


# -- render --------------------------------------------------------------------------------------
@main.group()
def render():
    """Publish TEI: the web edition (html) and the print edition (pdf)."""


@render.command("html")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", required=True, type=click.Path(), help="Directory for the site.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Render in this many processes.")
@click.option("--base-url", default="", metavar="URL", help="The site's address (https://…/): citations and permalinks become absolute.")
@click.option("--facs-base", default="", metavar="URL", help="Where the facsimile images are: a leaf links to URL + its graphic's relative url.")
@click.option("--pdf-dir", default="", metavar="DIR", help="Folder of the PDF edition, relative to the site (../pdf): each 卷 links its NAME.pdf there, if it exists.")
@click.option("--no-search", is_flag=True, help="Leave out the search index (to measure what it costs).")
def render_html_cmd(paths, output, jobs, base_url, facs_base, pdf_dir, no_search):
    """Write the web edition of TEI files (or directories of *.xml) into a directory: one page
    per file (a Kanripo whole-work file becomes its work's page), a page per work, an index of
    works and 卷 (index.html), a persons index (persons.html, persons-pinyin.html), a colophon
    (colophon.html), a search page (search.html) with its index, a copy of each TEI file (tei/)
    and the shared CSS and JS (assets/)."""
    from pipeline.render.html import Options, render_html
    options = Options(base_url=base_url, facs_base=facs_base, pdf_dir=pdf_dir, search=not no_search)
    written = render_html(_xml_files(paths), output, jobs, options)
    _say(f"wrote {len(written)} pages (the 卷, the works, index, persons, colophon, search) to {output}")
    return EXIT_OK


@render.command("pdf")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", required=True, type=click.Path(), help="Directory for the PDFs (one per file).")
@click.option("--style", type=click.Choice(["modern", "siku"]), default="modern", show_default=True, help="modern: a typeset page with running heads; siku: the 四庫全書 leaf (frame, column rules, 版心), line for line from the edition when the TEI has its pb/lb.")
@click.option("--layout", type=click.Choice(["vertical", "horizontal"]), default="vertical", show_default=True, help="Columns right to left, or lines top to bottom (modern only: siku refuses horizontal).")
@click.option("--paper", default="A4", show_default=True, help="A3 A4 A5 A6 B4 B5 B6 JIS-B5 16K 32K Letter, or WIDTHxHEIGHT in mm (e.g. 150x230); siku turns it landscape for --leaf full.")
@click.option("--cells", type=click.IntRange(0, 200), default=0, show_default=True, help="Full-size characters per line; 0: as many 7 mm cells as fit (siku: 21 a column).")
@click.option("--lines", type=click.IntRange(0, 200), default=0, show_default=True, help="Lines per page; 0: as many as fit at a pitch of 1.5 cells (modern only).")
@click.option("--margin", type=click.FloatRange(0, 100), default=20, show_default=True, help="Margin on every side in mm (the running head and page number sit in it).")
@click.option("--leaf", type=click.Choice(["full", "half"]), default="full", show_default=True, help="siku: a page per leaf (two half-leaves and the 版心 between, landscape) or per half-leaf (with the 版心 at its fold edge).")
@click.option("--columns", type=click.IntRange(1, 40), default=8, show_default=True, help="siku: columns of a half-leaf.")
@click.option("--lineation", type=click.Choice(["auto", "source", "grid"]), default="auto", show_default=True, help="siku: the edition's pages and lines (source, when the TEI has pb/lb: auto) or the grid laying the text out.")
@click.option("--keep-html", is_flag=True, help="Also write the HTML that was printed (NAME.print.html), to look at the layout in a browser.")
def render_pdf_cmd(paths, output, style, layout, paper, cells, lines, margin, leaf, columns, lineation, keep_html):
    """Print TEI files (or directories of *.xml) to PDF, one per file. modern: 經 in large
    characters, 注 and 音義 as double-line small notes, 疏 as indented paragraphs, running heads
    (work · 卷) and page numbers in Chinese numerals. siku: the 四庫全書 leaf, 經 and 注 full size,
    音義 and 疏 in double rows, the edition's leaves and lines where the TEI records them. Needs
    Chromium and the fonts fonts-noto-cjk and fonts-babelstone-han."""
    from pipeline.render.pdf import PrintOptions, render_pdf
    options = PrintOptions(layout, paper, cells, lines, margin, style, leaf, columns, lineation)
    counts: list = []
    done = render_pdf(_xml_files(paths), output, options, keep_html, counts)
    for path, c in counts:
        if c and (c["squeezed"] or c["crowded"] or c["punctuation"]):
            _say(f"{path}: {c['squeezed']} columns drawn smaller to fit, {c['crowded']} sides with more "
                 f"lines than columns, {c['punctuation']} columns against the punctuation rules ({c['lineation']})")
    pages = sum(n for _, n in done)
    shape = layout if style == "modern" else f"siku, {leaf} leaf"
    _say(f"wrote {len(done)} PDF{'s' if len(done) != 1 else ''} ({pages} page{'s' if pages != 1 else ''}, "
         f"{shape}, {paper}) to {output}")
    return EXIT_OK
