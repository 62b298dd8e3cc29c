"""The header (issue 17): who wrote and commented the work, the printed edition and the e-text,
our licence, the editorial principles, the conversion as a change, the languages and the 四庫
classification; the shared persons.xml and categories.xml the documents point into (psn:, cat:),
and the validator resolving those pointers within the corpus."""
import shutil

import pytest
from lxml import etree

from pipeline.chars import lossless_form
from pipeline.constants import SHARED_FILES, TEI, XML_LANG
from pipeline.convert import convert_file
from pipeline.tei.shared import documents
from pipeline.textlayers import layer_text
from pipeline.validate import iter_issues

from conftest import CORPUS, ROOT

T = {"t": TEI[1:-1]}
SEEDS = sorted((ROOT / "tei").glob("[0-9]*.xml"))
KANRIPO_FIX = ROOT / "tests" / "fixtures" / "kanripo"


def _x(root, path):
    return root.xpath(path, namespaces=T)


def _complete(root, text_lang):
    """What every header holds, whatever its source."""
    h = root.find(f"{TEI}teiHeader")
    assert h.get(XML_LANG) == "en"
    assert root.find(f"{TEI}text").get(XML_LANG) == text_lang
    assert _x(h, "t:fileDesc/t:publicationStmt/t:availability/t:licence[@target]")
    etext = _x(h, "t:fileDesc/t:sourceDesc/t:bibl[@type='etext']")[0]
    assert [i.get("type") for i in _x(etext, "t:idno")][:2] == ["filename", "sha256"]
    parts = [e.tag.rsplit("}")[1] for e in _x(h, "t:encodingDesc/t:editorialDecl/*")]
    assert parts == ["normalization", "punctuation", "segmentation", "interpretation"]
    assert [p.get("ident") for p in _x(h, "t:encodingDesc/t:listPrefixDef/t:prefixDef")] == ["psn", "cat"]
    change = _x(h, "t:revisionDesc/t:change")[0]
    assert change.get("when") is None and "Zhushu" in change.text
    langs = {lang.get("ident") for lang in _x(h, "t:profileDesc/t:langUsage/t:language")}
    assert {"en", text_lang} <= langs
    assert not _x(h, ".//t:classDecl | .//t:classCode")        # declared once, in categories.xml
    return h


@pytest.mark.parametrize("tei", SEEDS, ids=lambda p: p.name[:3])
def test_every_seed_has_the_full_header(tei):
    root = etree.parse(str(tei)).getroot()
    h = _complete(root, "lzh-Hans")                             # the seeds are simplified e-texts
    resp = [(e.tag.rsplit("}")[1], e.get("role"), e.get("ref"), "".join(e.itertext()).strip())
            for e in _x(h, "t:fileDesc/t:titleStmt/t:author | t:fileDesc/t:titleStmt/t:editor")]
    want = {
        "000": [("author", None, "psn:zhengxuan", "鄭玄"), ("editor", "commentator", "psn:kongyingda", "孔穎達"),
                ("editor", "commentator", "psn:ludeming", "陸德明")],
        "001": [("editor", "compiler", None, "三禮館")],
        "002": [("author", None, "psn:zhengxuan", "鄭玄"), ("editor", "commentator", "psn:jiagongyan", "賈公彥"),
                ("editor", "commentator", "psn:ludeming", "陸德明")],
        "003": [("editor", "compiler", None, "三禮館")],
        "004": [("author", None, "psn:zhengxuan", "鄭玄"), ("editor", "commentator", "psn:jiagongyan", "賈公彥"),
                ("editor", "commentator", "psn:ludeming", "陸德明")],
    }[tei.name[:3]]
    assert resp == want
    # 001 and 003 print their catalogue line; the others are placed by their work (works.tsv)
    cat = {"000": "liji", "001": "liji", "002": "zhouli", "003": "yili", "004": "zhouli"}[tei.name[:3]]
    assert [c.get("target") for c in _x(h, "t:profileDesc/t:textClass/t:catRef")] == [f"cat:siku.jing.li.{cat}"]


def test_printed_edition_only_where_the_source_says():
    heads = {p.name[:3]: etree.parse(str(p)).getroot() for p in SEEDS}
    printed = {k: [e.text for e in _x(r, "//t:sourceDesc/t:bibl[@type='printed']/*")] for k, r in heads.items()}
    assert printed == {"000": [], "001": [], "002": [],
                       "003": ["钦定仪礼义疏", "四库全书本"],                   # its provenance line
                       "004": ["周禮注疏", "阮元", "十三經注疏 (阮元本)"]}     # its sidecar


def test_provenance_line_goes_to_the_etext_bibl_whole():
    """003's website line: in the header as printed, parentheses too; not in the body; the
    lossless reading of the TEI still begins with it."""
    src = CORPUS / "003_2c7c22b06290c5d5.txt"
    root = etree.parse(str(ROOT / "tei" / "003_2c7c22b06290c5d5.xml")).getroot()
    etext = _x(root, "//t:sourceDesc/t:bibl[@type='etext']")[0]
    assert [n.text for n in _x(etext, "t:note[@type='provenance']")] == ["钦定仪礼义疏_(四库全书本)/卷18 中华文库"]
    assert _x(etext, "t:publisher")[0].text == "中华文库"
    assert not _x(root, "//t:text//t:fw[@type='source']")
    assert layer_text(root, "all") == lossless_form(src.read_text(encoding="utf-8"))


def test_kanripo_header_names_edition_repository_and_date(tmp_path):
    out = tmp_path / "siku.xml"
    convert_file(str(KANRIPO_FIX / "siku_zhouli.txt"), str(out))
    root = etree.parse(str(out)).getroot()
    h = _complete(root, "lzh-Hant")
    assert [e.text for e in _x(h, "//t:bibl[@type='printed']/t:edition")] == ["四庫全書 文淵閣本"]
    etext = _x(h, "//t:bibl[@type='etext']")[0]
    assert _x(etext, "t:publisher")[0].text.startswith("Kanseki Repository")
    assert _x(etext, "t:ref")[0].get("target").startswith("https://github.com/kanripo/KR")
    dated = [c.get("when") for c in _x(h, "t:revisionDesc/t:change") if c.get("when")]
    assert len(dated) == 1 and dated[0][:4].isdigit()


def test_shared_files_in_tei_are_current_and_every_pointer_resolves():
    for name, data in documents().items():
        assert (ROOT / "tei" / name).read_bytes() == data, f"tei/{name} is stale: convert corpus -o tei"
    ids = {p.get("{http://www.w3.org/XML/1998/namespace}id")
           for p in etree.parse(str(ROOT / "tei" / "persons.xml")).getroot().iter(f"{TEI}person")}
    pointed = set()
    for tei in SEEDS:
        for v in etree.parse(str(tei)).xpath("//@resp | //@ref"):
            pointed |= {r[4:] for r in v.split() if r.startswith("psn:")}
    assert pointed and pointed <= ids
    assert not [i for f in [*SEEDS, *(ROOT / "tei" / n for n in SHARED_FILES)] for i in iter_issues(str(f))]


def test_convert_writes_the_shared_files_and_is_deterministic(tmp_path):
    from click.testing import CliRunner

    from pipeline.cli import main
    for run in ("a", "b"):
        r = CliRunner().invoke(main, ["convert", str(CORPUS), "-o", str(tmp_path / run), "-q"])
        assert r.exit_code == 0, r.output
    a, b = sorted((tmp_path / "a").iterdir()), sorted((tmp_path / "b").iterdir())
    assert [p.name for p in a] == [p.name for p in b] and {"persons.xml", "categories.xml"} <= {p.name for p in a}
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b))


def test_a_dangling_psn_pointer_is_an_error_at_its_place(tmp_path):
    src = ROOT / "tei" / "000_5a9685f2ae5c6de4.xml"
    text = src.read_text(encoding="utf-8")
    line = next(n for n, s in enumerate(text.splitlines(), 1) if 'resp="psn:zhengxuan"' in s and "<note" in s)
    (tmp_path / src.name).write_text(text.replace('resp="psn:zhengxuan"', 'resp="psn:nobody"', 1), encoding="utf-8")
    for name in SHARED_FILES:
        shutil.copy(ROOT / "tei" / name, tmp_path / name)
    issues = [i for i in iter_issues(str(tmp_path / src.name)) if i.level == "error"]
    assert [(i.rule, i.line) for i in issues] == [("ZS-PTR-001", line)]
    assert issues[0].col > 1 and "psn:nobody" in issues[0].message and "persons.xml" in issues[0].message


def test_a_file_alone_is_checked_against_zhushus_own_shared_files(tmp_path):
    """No persons.xml beside it: schema/'s copy (the bytes convert writes) is the corpus, so a
    pointer the registry lacks is still an error, and a good file is still valid."""
    for name, data in documents().items():
        assert (ROOT / "schema" / name).read_bytes() == data, f"schema/{name} is stale"
    text = SEEDS[0].read_text(encoding="utf-8")
    (tmp_path / "good.xml").write_text(text, encoding="utf-8")
    assert not [i for i in iter_issues(str(tmp_path / "good.xml")) if i.level == "error"]
    (tmp_path / "bad.xml").write_text(text.replace("psn:zhengxuan", "psn:nobody", 1), encoding="utf-8")
    assert [i.rule for i in iter_issues(str(tmp_path / "bad.xml")) if i.level == "error"] == ["ZS-PTR-001"]


def test_xml_model_is_present_and_never_followed(tmp_path):
    """Every output names tei_all; the validator reads the PI as inert: a model pointing at a
    file that does not exist (or would be hostile) changes nothing."""
    for tei in SEEDS:
        assert tei.read_bytes().splitlines()[1].startswith(b'<?xml-model href="https://tei-c.org/')
    text = SEEDS[0].read_text(encoding="utf-8").replace(
        "https://tei-c.org/release/xml/tei/custom/schema/relaxng/tei_all.rng", "file:///nonexistent/evil.rng")
    (tmp_path / SEEDS[0].name).write_text(text, encoding="utf-8")
    for name in SHARED_FILES:
        shutil.copy(ROOT / "tei" / name, tmp_path / name)
    assert not list(iter_issues(str(tmp_path / SEEDS[0].name)))


def _persons_with_authorities():
    """persons.xml with 鄭玄 given two authority ids (the registry has none checked yet)."""
    import dataclasses

    from pipeline import persons
    from pipeline.tei import shared
    zheng = dataclasses.replace(persons.get("zhengxuan"),
                                authorities=persons.authorities("CBDB:12345|wikidata:Q1"))
    doc = etree.fromstring(shared.persons_document())
    lp = doc.find(f".//{TEI}listPerson")
    lp.remove(lp.find(f"{TEI}person"))
    shared.person(lp, zheng)
    return doc


def test_authority_ids_of_the_registry_become_idnos():
    """A registry row's authority ids (CBDB, VIAF, wikidata) are idno of its person in
    persons.xml; an unknown authority or an empty id is refused, not published."""
    from pipeline import persons
    person = _persons_with_authorities().find(f".//{TEI}listPerson")[-1]
    assert [(i.get("type"), i.text) for i in person.iterfind(f"{TEI}idno")] == [("CBDB", "12345"), ("wikidata", "Q1")]
    for bad in ("cbdb:1", "CBDB:", "GND:118"):
        with pytest.raises(ValueError, match="authority id"):
            persons.authorities(bad)
    assert not any(p.authorities for p in persons.registry().values())   # none checked yet


def test_a_person_with_authority_ids_is_valid_tei(tei_all):
    doc = _persons_with_authorities()
    assert tei_all.validate(etree.ElementTree(doc)), tei_all.error_log
