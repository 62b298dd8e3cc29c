"""The `zhushu` command. Each command is a few lines over the library; exit codes live in `_exit`.

Exit codes: 0 success (warnings allowed), 1 invalid TEI (validate), 2 unusable input.
"""
from __future__ import annotations

import os
import sys

import click

from . import __version__
from .errors import PipelineError
from .model import CATEGORIES
from .textlayers import LAYERS

EXIT_OK, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2


def _fail(e: PipelineError) -> None:
    click.echo(f"zhushu: {e}", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="zhushu")
def main() -> None:
    """Zhushu: encode the Chinese classics with their commentaries as TEI, validate, publish."""


def _xml_files(paths) -> list[str]:
    """Files named, directories expanded to their *.xml files; an empty directory is an error."""
    from .convert import sources_in
    try:
        return sources_in(list(paths), ".xml")
    except PipelineError as e:
        _fail(e)
        sys.exit(EXIT_UNUSABLE)


# -- convert -------------------------------------------------------------------------------------
def _format_choices() -> list[str]:
    from .readers import READERS
    return ["auto", *sorted(READERS)]


@main.command()
@click.argument("sources", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", type=click.Path(), help="Output file (one source) or directory (several, or a directory source). Default: stdout for one source.")
@click.option("-f", "--format", "fmt", type=click.Choice(_format_choices()), default="auto", show_default=True, help="Source layout; `auto` detects it and says why.")
@click.option("--report", "report_path", type=click.Path(), help="Write the conversion report (warnings, boundaries, with source line:col) as JSON.")
@click.option("--work", help="Title of the work (e.g. 周禮注疏), when neither the text nor a .meta.json sidecar names it.")
@click.option("--encoding", help="Source encoding (default: detect UTF-8/UTF-16 BOM, else UTF-8, GB18030, Big5).")
@click.option("-q", "--quiet", is_flag=True, help="Print errors only, not warnings and the summary.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Convert in this many processes (output and messages stay in input order).")
def convert(sources, output, fmt, report_path, work, encoding, quiet, jobs):
    """Convert plain-text editions to TEI.

    SOURCES are files, or directories whose *.txt files are converted (then -o names a directory).
    """
    from .convert import convert_files, sources_in
    from .report import write_reports
    try:
        files = sources_in(list(sources))
    except PipelineError as e:
        _fail(e)
        sys.exit(EXIT_UNUSABLE)
    many = len(files) > 1 or any(os.path.isdir(s) for s in sources)
    if many and not output:
        _fail(PipelineError("several sources need -o DIR"))
        sys.exit(EXIT_UNUSABLE)
    reports, status = [], EXIT_OK
    pairs = []
    for path in files:
        if output and (many or os.path.isdir(output) or output.endswith(os.sep)):
            pairs.append((path, os.path.join(output, os.path.splitext(os.path.basename(path))[0] + ".xml")))
        else:
            pairs.append((path, output))
    for (path, out), (_, data, report, error) in zip(pairs, convert_files(pairs, fmt, work, encoding, jobs)):
        if error is not None:
            _fail(error)
            status = EXIT_UNUSABLE
            continue
        if report_path:
            reports.append(report)
        if out is None:
            sys.stdout.buffer.write(data)
        for line in report.lines():
            if not quiet or line.split(": ")[1] == "error":
                click.echo(line, err=True)
        if report.errors:
            status = max(status, EXIT_INVALID)
        if not quiet and out:
            s = report.stats
            click.echo(f"{path} → {out}: {report.layout}, {s['units']} units, "
                       f"{s['shu_anchored']}/{s['shu']} 疏 anchored, {len(report.warnings)} warnings",
                       err=True)
    if report_path:
        write_reports(reports, report_path)
    sys.exit(status)


@main.command()
def formats():
    """List the source layouts convert can read."""
    from .readers import READERS
    for name, mod in sorted(READERS.items()):
        click.echo(f"{name}\t{mod.DESCRIPTION}")


# -- text ----------------------------------------------------------------------------------------
@main.command()
@click.argument("file", type=click.Path())
@click.option("-l", "--layer", type=click.Choice(list(LAYERS)), default="all", show_default=True, help="Which layer to print; `all` is every character the TEI keeps of the source.")
@click.option("--category", type=click.Choice(sorted(set(CATEGORIES.values()))), help="Only 義疏 blocks of this category (with --layer yishu).")
@click.option("--resp", metavar="ID", help="Only what this person said or wrote (an xml:id of the header's listPerson, e.g. zhengxuan).")
def text(file, layer, category, resp):
    """Print one layer of a TEI file, in document order, one unit or note per line."""
    from . import xmlsafe
    from .textlayers import layer_lines
    try:
        tree = xmlsafe.parse_file(file)
    except PipelineError as e:
        _fail(e)
        sys.exit(EXIT_UNUSABLE)
    for line in layer_lines(tree.getroot(), layer, category, resp):
        if line:
            click.echo(line)


# -- validate ------------------------------------------------------------------------------------
@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("-f", "--format", "fmt", type=click.Choice(["text", "json", "github", "junit"]), default="text", show_default=True, help="text: file:line:col: level: RULE: message; json; github: workflow annotations; junit: one testcase per file.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1).")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Validate in this many processes.")
@click.option("--max-size", type=click.IntRange(1), default=200, show_default=True, help="Refuse files larger than this many MB.")
@click.option("--max-depth", type=click.IntRange(1, 256), default=256, show_default=True, help="Refuse elements nested deeper than this.")
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), help="Write the report here instead of stdout.")
def validate(paths, fmt, strict, jobs, max_size, max_depth, output):
    """Validate TEI against the schema and the rules (docs/rules.md).

    PATHS are files, directories (searched for *.xml) or - to read a list of paths from stdin
    (`git diff --name-only | zhushu validate -`). Exit 0 valid (warnings allowed unless
    --strict), 1 invalid, 2 unusable input (not XML, unreadable, refused as hostile).
    """
    from .reporting import render
    from .validate import Limits, exit_code, validate_files
    listed = _with_stdin(paths)
    if not listed and "-" in paths:                       # nothing of ours changed: nothing to check
        click.echo("0 files checked", err=True)
        sys.exit(EXIT_OK)
    files = _xml_files(listed)
    issues = validate_files(files, jobs, Limits(max_size * 1024 * 1024, max_depth))
    text = render(fmt, files, issues)
    out = output or sys.stdout
    if fmt == "text" and output is None:
        body, _, last = text.rstrip("\n").rpartition("\n")
        if body:
            out.write(body + "\n")
        click.echo(last, err=True)                      # the summary, apart from the findings
    else:
        out.write(text)
    sys.exit(exit_code(issues, strict) if files else EXIT_UNUSABLE)


def _with_stdin(paths) -> list[str]:
    """`-` stands for the paths listed on stdin, one per line; only .xml ones are kept from it
    (a `git diff --name-only` lists every changed file)."""
    out = []
    for p in paths:
        if p == "-":
            listed = [l.strip() for l in sys.stdin if l.strip().endswith(".xml")]
            out += [f for f in listed if os.path.exists(f)]      # a deleted file is no error
        else:
            out.append(p)
    return out


# -- render --------------------------------------------------------------------------------------
@main.group()
def render():
    """Publish TEI: the web edition (html) and the print edition (pdf)."""


@render.command("html")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", required=True, type=click.Path(), help="Directory for the site.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Render in this many processes.")
def render_html_cmd(paths, output, jobs):
    """Write the web edition of TEI files (or directories of *.xml) into a directory: one page
    per file, an index of works and 卷 (index.html), a persons index (persons.html) and the
    shared CSS and JS (assets/)."""
    from .render import render_html
    files = _xml_files(paths)
    try:
        written = render_html(files, output, jobs)
    except PipelineError as e:
        _fail(e)
        sys.exit(EXIT_UNUSABLE)
    click.echo(f"wrote {len(written) - 2} pages, index.html and persons.html to {output}", err=True)


@render.command("pdf")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", required=True, type=click.Path(), help="Directory for the PDFs (one per file).")
@click.option("--layout", type=click.Choice(["vertical", "horizontal"]), default="vertical", show_default=True, help="Columns right to left, or lines top to bottom.")
@click.option("--paper", default="A4", show_default=True, help="A3 A4 A5 A6 B4 B5 B6 JIS-B5 16K 32K Letter, or WIDTHxHEIGHT in mm (e.g. 150x230).")
@click.option("--cells", type=click.IntRange(0, 200), default=0, show_default=True, help="Full-size characters per line; 0: as many 7 mm cells as fit.")
@click.option("--lines", type=click.IntRange(0, 200), default=0, show_default=True, help="Lines per page; 0: as many as fit at a pitch of 1.5 cells.")
@click.option("--margin", type=click.FloatRange(0, 100), default=20, show_default=True, help="Margin on every side in mm (the running head and page number sit in it).")
@click.option("--keep-html", is_flag=True, help="Also write the HTML that was printed (NAME.print.html), to look at the layout in a browser.")
def render_pdf_cmd(paths, output, layout, paper, cells, lines, margin, keep_html):
    """Print TEI files (or directories of *.xml) to PDF, one per file: 經 in large characters,
    注 and 音義 as double-line small notes, 疏 as indented paragraphs, running heads (work · 卷)
    and page numbers in Chinese numerals. Needs Chromium and the fonts fonts-noto-cjk and
    fonts-babelstone-han."""
    from .pdf import PrintOptions, render_pdf
    files = _xml_files(paths)
    options = PrintOptions(layout, paper, cells, lines, margin)
    try:
        done = render_pdf(files, output, options, keep_html)
    except PipelineError as e:
        _fail(e)
        sys.exit(EXIT_UNUSABLE)
    pages = sum(n for _, n in done)
    click.echo(f"wrote {len(done)} PDF{'s' if len(done) != 1 else ''} ({pages} page{'s' if pages != 1 else ''}, "
               f"{layout}, {paper}) to {output}", err=True)
