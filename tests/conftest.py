import functools
import os
import pathlib

import pytest
from click.testing import CliRunner

ROOT = pathlib.Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
SHARED = ROOT.parent / "shared"
TEI_ALL = SHARED / "tei-p5" / "tei_all.rng"
SEED_004 = CORPUS / "004_788d901eea474415.txt"
# The print edition's line rules, as xslt/grid.xsl states them: what may not open a line or a
# note row, what may not end one, and what vertical lines print for the TEI's quotation marks.
CLOSING = set("、。，．：；？！）」』”’〉》】〕〗〙〛｝］﹂﹄・·…‥々〻,.;:)]}")
OPENING = set("（「『“‘〈《【〔〖〘〚｛［﹁﹃([{")
VERTICAL_FORMS = str.maketrans("“”‘’", "﹁﹂﹃﹄")


def need_printing(*tools: str) -> None:
    """Skip the calling test module, saying what to install, unless poppler-utils' `tools`,
    Chromium and the print fonts are here (make test installs them all)."""
    import shutil

    from pipeline.render import pdf
    if not all(shutil.which(t) for t in tools):
        pytest.skip("poppler-utils is installed by make test", allow_module_level=True)
    try:
        pdf.find_chromium()
        pdf.check_fonts()
    except Exception as e:  # noqa: BLE001 - the message says what to install
        pytest.skip(str(e), allow_module_level=True)


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite tests/golden/*/*.xml (and the .report.json there) from what the "
                          "conversion makes now, instead of comparing; review the diff before committing")


@pytest.fixture(scope="session")
def tei_all():
    """The official TEI P5 schema from ../shared; the one check skipped when it is absent."""
    if not TEI_ALL.exists():
        pytest.skip("../shared/tei-p5/tei_all.rng not present")
    from lxml import etree
    return etree.RelaxNG(etree.parse(str(TEI_ALL)))


@pytest.fixture
def run():
    """Run the zhushu CLI in-process: run(args...) -> (exit code, stdout, stderr)."""
    from pipeline.cli import main

    def _run(*args, input=None):
        r = CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)
        return r.exit_code, r.stdout, r.stderr
    return _run


@pytest.fixture(scope="session")
def kanripo_fixture_outputs(tmp_path_factory):
    """`zhushu convert` of every Kanripo fixture of the readers (tests/fixtures/kanripo: single 卷
    files of each layout and a repository checkout): {output name: root}."""
    from lxml import etree

    from pipeline.cli import main
    fixtures = ROOT / "tests" / "fixtures" / "kanripo"
    if not fixtures.is_dir():
        pytest.skip("no Kanripo fixtures")
    out = tmp_path_factory.mktemp("fixtures")
    runs = [[*map(str, sorted(fixtures.glob("*.txt"))), "-o", str(out)]]
    runs += [[str(d), "-o", str(out / d.name)] for d in sorted(fixtures.glob("KR*")) if (d / "Readme.org").exists()]
    for args in runs:
        CliRunner().invoke(main, ["convert", *args, "-q"], catch_exceptions=False)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    found = {str(p.relative_to(out)): etree.parse(str(p), parser).getroot() for p in sorted(out.rglob("*.xml"))}
    assert found, "no fixture converted"
    return found


@pytest.fixture(scope="session")
def converted_004(tmp_path_factory):
    from pipeline.convert import convert_file
    out = tmp_path_factory.mktemp("tei") / "004.xml"
    data, report = convert_file(str(SEED_004), str(out))
    return out, data, report


def convert_seeds(tmp_path_factory, *sources):
    """Convert seed files once for a module: {"000": (tei path, root, report, bytes), …}."""
    from lxml import etree

    from pipeline.convert import convert_file
    out = {}
    for src in sources:
        path = tmp_path_factory.mktemp("tei") / (src.stem + ".xml")
        data, report = convert_file(str(src), str(path))
        out[src.name[:3]] = (path, etree.fromstring(data), report, data)
    return out


@functools.cache
def _tei_all_schema():
    from lxml import etree
    return etree.RelaxNG(etree.parse(str(TEI_ALL))) if TEI_ALL.exists() else None


def convert_checked(text: str, meta: dict | None = None):
    """Convert a test text and check what every output must keep: lossless, deterministic,
    no conversion error, valid TEI (when ../shared is there). Returns (root, report)."""
    from lxml import etree

    from pipeline.chars import lossless_form
    from pipeline.convert import convert_source
    from pipeline.sources.decoding import source_from_bytes
    from pipeline.textlayers import layer_text
    src = source_from_bytes(text.encode("utf-8"), "t.txt", meta=meta or {})
    data, report = convert_source(src)
    root = etree.fromstring(data)
    assert layer_text(root, "all") == lossless_form(text)
    assert convert_source(src)[0] == data
    assert not report.errors, report.errors
    schema = _tei_all_schema()
    if schema is not None:
        assert schema.validate(root), schema.error_log
    return root, report


CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright (never a downloaded browser), one per test module
    (the print edition drives its own Playwright, which cannot run inside another in one thread)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is installed by make test")
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium is installed by make test (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture
def follow():
    """follow(pg, link): click a link and return once its page has loaded. Waiting for the load
    state alone races the click (the old page is still loaded when the wait begins, so it returns
    at once and the test reads the page it was leaving: seen on CI's two loaded cores)."""
    def follow(pg, link):
        href = link.evaluate("e => e.closest('a').href")
        link.click()
        pg.wait_for_url(href)
        pg.wait_for_load_state()
    return follow


@pytest.fixture
def watch_errors():
    """watch(pg, console=True, dialogs=False): the page's uncaught exceptions (and its console
    errors, and any dialog it opens) fail the test at teardown."""
    errors = []

    def watch(pg, console=True, dialogs=False):
        if console:
            pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        if dialogs:
            pg.on("dialog", lambda d: (errors.append("dialog " + d.message), d.dismiss()))
        return pg
    yield watch
    assert not errors, errors
