"""The PDF's metadata (pipeline/render/pdfmeta.py): title, the commentators as authors, the 四庫
class and kind as subject, keywords and language in the Info dictionary and XMP, Zhushu as
creator and producer; the same TEI printed twice gives the same bytes; SOURCE_DATE_EPOCH, else
the TEI's own date, is the PDF's date."""
import copy
import pathlib
import re
import subprocess

import pytest
from lxml import etree

from conftest import need_printing
from pipeline import __version__
from pipeline.render import pdfmeta
from pipeline.render.pdf import PrintOptions, render_pdf
from pipeline.render.xslt import load_tei

pikepdf = pytest.importorskip("pikepdf")

ROOT = pathlib.Path(__file__).resolve().parents[1]
TEIS = sorted(str(p) for p in (ROOT / "tei").glob("[0-9]*.xml"))
TEI = "{http://www.tei-c.org/ns/1.0}"


# -- from the TEI (no browser) ---------------------------------------------------------------

def test_the_metadata_of_a_zhushu_juan(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    m = pdfmeta.metadata(load_tei(TEIS[0]))
    assert m.title == "禮記正義 卷四十六"
    assert m.authors == ("鄭玄", "孔穎達", "陸德明")
    assert m.subject == "經部 禮類 禮記之屬 · 經注疏"
    assert m.keywords[:6] == ("禮記正義", "卷四十六", "經部", "禮類", "禮記之屬", "經注疏")
    assert m.lang.startswith("lzh")
    assert m.date is None                 # the seed's header has no date: the PDF gets none


def test_the_metadata_of_a_yishu_juan_keeps_the_quoted_scholars_as_keywords(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    m = pdfmeta.metadata(load_tei(TEIS[1]))
    assert m.title == "钦定礼记义疏 卷二十九"
    assert m.authors == ("三禮館",)        # the compiler, as the header credits it
    assert m.subject == "經部 禮類 禮記之屬 · 義疏"
    assert "鄭玄" in m.keywords and "孔穎達" in m.keywords


def with_dates(tei_path, pub=None, changes=()):
    tree = load_tei(tei_path)
    header = tree.getroot().find(f"{TEI}teiHeader")
    if pub:
        stmt = header.find(f"{TEI}fileDesc/{TEI}publicationStmt")
        etree.SubElement(stmt, f"{TEI}date", when=pub)
    rd = header.find(f"{TEI}revisionDesc")
    for when in changes:
        etree.SubElement(rd, f"{TEI}change", when=when).text = "x"
    return tree


def test_the_date_is_the_tei_s_own_unless_source_date_epoch_says(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    tree = with_dates(TEIS[2], changes=("2019-05-01", "2021-03-04T10:20:30", "2020"))
    assert pdfmeta.metadata(tree).date.isoformat() == "2021-03-04T10:20:30+00:00"   # the latest change
    tree = with_dates(TEIS[2], pub="2018-02", changes=("2021-03-04",))
    assert pdfmeta.metadata(tree).date.isoformat() == "2018-02-01T00:00:00+00:00"   # publication first
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    assert pdfmeta.metadata(copy.deepcopy(tree)).date.isoformat() == "1970-01-02T00:00:00+00:00"


def test_a_bad_source_date_epoch_is_one_line(run, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    code, _, err = run("render", "pdf", TEIS[2], "-o", tmp_path)
    assert code == 2 and "SOURCE_DATE_EPOCH must be a whole number" in err
    assert len(err.strip().splitlines()) == 1, err


# -- in the printed PDF ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def printed_twice(tmp_path_factory):
    need_printing()
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("SOURCE_DATE_EPOCH", raising=False)
        runs = []
        for n in range(2):
            out = tmp_path_factory.mktemp(f"meta-{n}")
            runs.append([p for p, _ in render_pdf(TEIS[:3], str(out), PrintOptions())])
        mp.setenv("SOURCE_DATE_EPOCH", "1700000000")
        out = tmp_path_factory.mktemp("meta-epoch")
        runs.append([p for p, _ in render_pdf(TEIS[:3], str(out), PrintOptions())])
    return runs


def test_info_and_xmp_say_what_the_tei_says(printed_twice):
    path = printed_twice[0][0]
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout
    assert "Title:           禮記正義 卷四十六" in info
    assert "Author:          鄭玄、孔穎達、陸德明" in info
    assert "Subject:         經部 禮類 禮記之屬 · 經注疏" in info
    assert "Keywords:        禮記正義; 卷四十六;" in info
    assert "CreationDate" not in info and "ModDate" not in info      # none in the TEI, none here
    with pikepdf.open(path) as doc:
        assert str(doc.docinfo["/Creator"]).startswith(f"Zhushu {__version__}")
        assert str(doc.docinfo["/Producer"]).startswith(f"Zhushu {__version__}")
        assert str(doc.Root.Lang).startswith("lzh")
        xmp = doc.open_metadata()
        assert xmp["dc:title"] == "禮記正義 卷四十六"
        assert xmp["dc:creator"] == ["鄭玄", "孔穎達", "陸德明"]
        assert xmp["dc:description"] == "經部 禮類 禮記之屬 · 經注疏"
        assert "禮記之屬" in xmp["dc:subject"]
        assert [x.startswith("lzh") for x in xmp["dc:language"]] == [True]
        assert str(xmp["xmp:CreatorTool"]).startswith("Zhushu")


def test_two_runs_give_the_same_bytes(printed_twice):
    first, second, _ = printed_twice
    for a, b in zip(first, second):
        assert pathlib.Path(a).read_bytes() == pathlib.Path(b).read_bytes(), a


def test_source_date_epoch_is_the_date_and_changes_the_id(printed_twice):
    first, _, epoch = printed_twice
    info = subprocess.run(["pdfinfo", "-isodates", epoch[0]], capture_output=True, text=True,
                          check=True).stdout
    dates = dict(re.findall(r"^(CreationDate|ModDate):\s+(\S+)$", info, re.M))
    assert dates == {"CreationDate": "2023-11-14T22:13:20Z", "ModDate": "2023-11-14T22:13:20Z"}
    with pikepdf.open(first[0]) as a, pikepdf.open(epoch[0]) as b:
        assert bytes(a.trailer.ID[0]) != bytes(b.trailer.ID[0])
        assert b.open_metadata()["xmp:CreateDate"] == "2023-11-14T22:13:20Z"
