"""XXE: a document whose DOCTYPE declares one entity on a local file and one on a local HTTP
server (127.0.0.1), both used in the header's title and in the body, is refused by validate,
text, render html and render pdf in UTF-8, UTF-16LE/BE with and without BOM and UTF-32: no
request reaches the server and the file's content appears in no output (stdout, stderr, the pages
written, the PDF's text). The commands run in a worker process (tests/fuzzing/worker.py): a
parser waiting on the network cannot hang the test run."""
import pytest

from conftest import ROOT
from fuzzing import hostile_xml as hx
from fuzzing.worker import Worker

BASE = ROOT / "tei" / "002_3cfb79cd5f7996b0.xml"


@pytest.fixture(scope="module")
def traps(tmp_path_factory):
    with hx.Traps(str(tmp_path_factory.mktemp("traps"))) as t:
        yield t


@pytest.fixture(scope="module")
def worker():
    with Worker() as w:
        yield w


def xxe_document(traps) -> str:
    base = hx.strip_declaration(BASE.read_text(encoding="utf-8"))
    doctype = (f'<!DOCTYPE TEI [<!ENTITY file SYSTEM "file://{traps.secret}">'
               f'<!ENTITY web SYSTEM "{traps.url("xxe")}">]>')
    return hx.in_text(hx.in_prolog(base, doctype), "&file;&web;")


@pytest.mark.parametrize("encoding", hx.XXE_ENCODINGS)
@pytest.mark.parametrize("command", hx.COMMANDS)
def test_xxe_reads_and_sends_nothing(command, encoding, traps, worker, tmp_path):
    if command == "pdf":
        from pipeline.render import pdf
        try:
            pdf.find_chromium()
            pdf.check_fonts()
        except Exception as e:  # noqa: BLE001
            pytest.skip(str(e))
    path = tmp_path / f"xxe.{encoding}.xml"
    path.write_bytes(hx.encode(xxe_document(traps), encoding))
    out = tmp_path / "out"
    traps.reset()
    run = worker.run(*hx.command_args(command, str(path), str(out)), timeout=10)
    assert run.code is not None, run.describe()
    assert traps.requests == [], f"{run.describe()}: the server was asked for {traps.requests}"
    assert traps.leaks(hx.output_texts(run, str(out))) == [], run.describe()
    assert run.code == 2 and not run.traceback, run.describe()
