"""tei/ is the archival TEI of corpus/ exactly as `zhushu convert` makes it today."""
import pytest

from pipeline.convert import convert_file

from conftest import CORPUS, ROOT

SOURCES = sorted(CORPUS.glob("*.txt"))


@pytest.mark.parametrize("src", SOURCES, ids=[s.stem for s in SOURCES])
def test_tei_is_up_to_date(src):
    data, report = convert_file(str(src))
    committed = ROOT / "tei" / (src.stem + ".xml")
    assert committed.exists(), f"run `make tei` to add {committed.name}"
    assert committed.read_bytes() == data, f"tei/{committed.name} is stale: run `make tei`"
    assert not report.errors


def test_valid_against_tei_all(tei_all):
    from lxml import etree
    for f in sorted((ROOT / "tei").glob("*.xml")):
        assert tei_all.validate(etree.parse(str(f))), (f.name, tei_all.error_log)
