"""Golden tests, one small case per convention of each layout: tests/golden/<layout>/<case>.txt
converts to exactly the bytes of <case>.xml beside it (and, where one is kept, its report to
<case>.report.json). The cases are written for the purpose (tests/golden/README.md); a change
of output is accepted only by `pytest --update-golden tests/test_golden.py`, read in the diff."""
import json

import pytest

from pipeline.convert import convert_source
from pipeline.sources import kanripo
from pipeline.sources.decoding import source_from_bytes
from pipeline.validate import iter_issues

from conftest import ROOT, _tei_all_schema

GOLDEN = ROOT / "tests" / "golden"
CASES = sorted(GOLDEN.glob("*/*.txt"))


def _report_json(report) -> bytes:
    # as `zhushu convert --report` writes each report (report.write_reports)
    return (json.dumps(report.to_dict(), ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def _converted(case):
    layout = case.parent.name
    side = case.with_suffix(".meta.json")          # the header metadata, as beside any source
    meta = json.loads(side.read_text("utf-8")) if side.exists() else {}
    # named by its place under golden/, so that the TEI (idno filename) and the report do not
    # depend on where the repository is; a Kanripo case with no gaiji table (the default
    # characters), wherever a KR-Gaiji checkout may be
    src = source_from_bytes(case.read_bytes(), f"{layout}/{case.name}", meta=meta,
                            context=kanripo.Context())
    data, report = convert_source(src)
    assert report.layout == layout, f"detected as {report.layout}: {report.layout_reason}"
    assert not report.errors, report.errors
    return data, report


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.stem}" for c in CASES])
def test_golden(case, request):
    data, report = _converted(case)
    expected = {case.with_suffix(".xml"): data}
    pinned = case.with_suffix(".report.json")
    # a report is pinned where it says something a reader of the case should see: its
    # warnings, or a file put there on purpose (an empty one is filled by --update-golden)
    if pinned.exists() or report.warnings:
        expected[pinned] = _report_json(report)
    for path, now in expected.items():
        if request.config.getoption("--update-golden"):
            if not path.exists() or path.read_bytes() != now:
                path.write_bytes(now)
            continue
        assert path.exists(), f"no {path.relative_to(ROOT)}: run pytest --update-golden and review it"
        assert path.read_bytes() == now, (f"{path.relative_to(ROOT)} differs from what the "
                                          "conversion makes now: pytest --update-golden, then read the diff")


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.stem}" for c in CASES])
def test_golden_tei_is_valid(case, tmp_path):
    import shutil

    from lxml import etree

    from pipeline.tei.shared import documents
    xml = case.with_suffix(".xml")
    # valid as `zhushu validate` says it (exit 0), in a corpus of its own with the shared files
    # beside it (persons.xml, categories.xml): warnings allowed (a front matter names no 卷)
    shutil.copy(xml, tmp_path / xml.name)
    for name, data in documents().items():
        (tmp_path / name).write_bytes(data)
    assert [str(i) for i in iter_issues(str(tmp_path / xml.name)) if i.level != "warning"] == []
    schema = _tei_all_schema()
    if schema is not None:
        assert schema.validate(etree.parse(str(xml))), schema.error_log


def test_every_layout_has_cases():
    from pipeline.readers import READERS
    assert {c.parent.name for c in CASES} == set(READERS)
    # and every layout that reads Kanripo files has a mandoku case (named kanripo-*)
    reads_mandoku = {n for n, m in READERS.items() if hasattr(m, "paragraphs")}
    assert {c.parent.name for c in CASES if c.name.startswith("kanripo-")} == reads_mandoku
