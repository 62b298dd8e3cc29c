"""The HTML web edition: zhushu render html (pipeline.render + xslt/html.xsl + xslt/common.xsl)."""
import pathlib
import re

import html5lib
import pytest
from lxml import etree

from pipeline import render
from pipeline.errors import PipelineError
from pipeline.render import render_html

ROOT = pathlib.Path(__file__).resolve().parents[1]
TEI_004 = ROOT / "tei" / "004_788d901eea474415.xml"
TEI = "http://www.tei-c.org/ns/1.0"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


def parse_html(text):
    """Strict HTML5 parsing: any parse error fails the test."""
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(text)


def tei(body, title="測試 卷一"):
    return (f'<TEI xmlns="{TEI}" xml:lang="lzh"><teiHeader><fileDesc><titleStmt>'
            f'<title type="main">{title}</title></titleStmt></fileDesc></teiHeader>'
            f'<text><body><div type="juan" xml:id="d1">{body}</div></body></text></TEI>')


def render_one(tmp_path, xml, name="t.xml"):
    src = tmp_path / name
    src.write_text(xml, encoding="utf-8")
    out = render_html([str(src)], str(tmp_path / "out"))
    text = pathlib.Path(out[0]).read_text(encoding="utf-8")
    return text, parse_html(text)


@pytest.fixture(scope="module")
def page_004(tmp_path_factory):
    """tei/004.xml rendered once for the whole module: (written paths, html text, parsed tree)."""
    out_dir = tmp_path_factory.mktemp("html")
    written = render_html([str(TEI_004)], str(out_dir))
    text = pathlib.Path(written[0]).read_text(encoding="utf-8")
    return written, text, parse_html(text)


def ids(doc):
    return {e.get("id") for e in doc.iter() if e.get("id") is not None}


def test_writes_page_and_index(page_004):
    written, _, _ = page_004
    assert [pathlib.Path(p).name for p in written] == ["004_788d901eea474415.html", "index.html"]
    index = pathlib.Path(written[1]).read_text(encoding="utf-8")
    doc = parse_html(index)
    links = doc.findall(".//a")
    assert [(a.get("href"), a.text) for a in links] == [("004_788d901eea474415.html", "周禮注疏 卷三十八")]


def test_html5_with_lang_and_title(page_004):
    _, text, doc = page_004
    assert text.startswith("<!DOCTYPE HTML>")
    assert doc.tag == "html" and doc.get("lang") == "lzh"
    assert doc.find(".//meta[@charset]").get("charset").lower() == "utf-8"
    assert doc.find(".//title").text == "周禮注疏 卷三十八"
    assert doc.find(".//script") is None


def test_layers(page_004):
    _, _, doc = page_004
    jing = doc.findall(".//*[@data-layer='jing']")
    assert "貉、戎、狄之国使" in "".join(jing[0].itertext())
    assert jing[0].get("id") == "u1.j1" and "jing" in jing[0].get("class").split()
    for layer in ("zhu", "yinyi", "shu"):
        found = doc.findall(f".//*[@data-layer='{layer}']")
        assert found, layer
        assert all(layer in e.get("class").split() for e in found)
    yinyi = doc.find(".//*[@id='u1.y2']")
    assert yinyi.get("data-layer") == "yinyi" and "".join(yinyi.itertext()) == "貉，亡百反。"
    # lost passages are shown
    assert "".join(doc.find(".//*[@id='u33.q1']").itertext()) == "阙。"
    # a g shows its character
    assert "谓蕃国之臣来┹聘者。" == "".join(doc.find(".//*[@id='u1.z1']").itertext())


def test_every_tei_id_is_an_html_id(page_004):
    _, _, doc = page_004
    body = etree.parse(str(TEI_004)).find(f".//{{{TEI}}}body")
    tei_ids = {e.get(XML_ID) for e in body.iter() if e.get(XML_ID)}
    assert tei_ids and tei_ids <= ids(doc)


def test_each_shu_follows_its_unit_and_links_to_its_span(page_004):
    _, _, doc = page_004
    present = ids(doc)
    tei_doc = etree.parse(str(TEI_004))
    shus = [n for n in tei_doc.iter(f"{{{TEI}}}note") if n.get("type") == "shu" and n.get("subtype") != "sublemma"]
    asides = doc.findall(".//aside[@data-layer='shu']")
    assert len(asides) == len(shus) == 39
    for note, aside in zip(shus, asides):
        sid = note.get(XML_ID)
        assert aside.get("id") == sid
        links = [a.get("href") for a in aside.find("p[@class='lemma']").iter("a")]
        assert links == [note.get("target")], sid          # the 出文 links to the span start
        for sub in aside.findall(".//div[@class='sublemma shu']"):
            quote = sub.find(".//a[@class='mentioned sublemma-quote']")
            assert quote is not None and quote.get("href")[1:] in present, sub.get("id")
        target = links[0][1:]
        assert target in present
        span = doc.find(f".//*[@id='{target}']")
        assert sid in span.get("data-shu").split()
    # the block comes right after its unit, inside the same entry
    entry = doc.find(".//*[@id='u1']/..")
    assert [c.get("id") for c in entry] == ["u1", "u1.s1"]


def test_all_fragment_links_resolve(page_004):
    _, _, doc = page_004
    present = ids(doc)
    hrefs = [a.get("href") for a in doc.iter("a")]
    assert hrefs
    for h in hrefs:
        assert h == "index.html" or (h.startswith("#") and h[1:] in present), h


def test_no_javascript_or_foreign_pointer(tmp_path):
    xml = tei('<ab type="jing" xml:id="u1"><seg xml:id="u1.j1">天地玄黄。</seg></ab>'
              '<note type="shu" xml:id="u1.s1" target="javascript:alert(1)" targetEnd="http://evil/#u1.j1">'
              '<label type="chuwen">“<mentioned>天地</mentioned>”</label><p>&lt;script&gt;x&lt;/script&gt;</p></note>'
              '<note type="shu" xml:id="u1.s2" target="JavaScript:alert(1)#u1.j1"><p>y</p></note>'
              '<ab type="jing" xml:id="u2"><seg xml:id="u2.j1">日<g ref="javascript:alert(2)">月</g></seg></ab>')
    text, doc = render_one(tmp_path, xml)
    assert "javascript" not in text.lower()
    assert "evil" not in text
    assert doc.find(".//script") is None
    assert [a.get("href") for a in doc.iter("a")] == ["index.html"]
    assert "<script>x</script>" in "".join(doc.find(".//*[@id='u1.s1']").itertext())
    assert doc.find(".//*[@id='u1.j1']").get("data-shu") is None


def test_span_with_anchors_and_target_end(tmp_path):
    xml = tei('<ab type="jing" xml:id="u1"><seg xml:id="u1.j1">天地<anchor xml:id="u1.a1"/>玄黄，'
              '宇宙<anchor xml:id="u1.a2"/>洪荒。</seg><note type="zhu" xml:id="u1.z1">注一<anchor xml:id="u1.a3"/>'
              '注二。</note><note type="zhu" xml:id="u1.z2">注三。</note></ab>'
              '<note type="shu" xml:id="s1" target="#u1.a1" targetEnd="#u1.a2"><p>a</p></note>'
              '<note type="shu" xml:id="s2" target="#u1.a2" targetEnd="#u1.a3"><p>b</p></note>'
              '<note type="shu" xml:id="s3" target="#u1.j1" targetEnd="#u1.z2"><p>c</p></note>')
    _, doc = render_one(tmp_path, xml)

    def shu(id_):
        return doc.find(f".//*[@id='{id_}']").get("data-shu", "").split()

    assert shu("u1.j1") == ["s1", "s2", "s3"]
    assert shu("u1.z1") == ["s2", "s3"]
    assert shu("u1.z2") == ["s3"]
    runs = [("".join(r.itertext()), r.get("data-shu").split()) for r in doc.iter("span")
            if "run" in (r.get("class") or "").split()]
    assert runs == [("天地", ["s3"]), ("玄黄，宇宙", ["s1", "s3"]), ("洪荒。", ["s2", "s3"]),
                    ("注一", ["s2", "s3"]), ("注二。", ["s3"])]
    for a in ("u1.a1", "u1.a2", "u1.a3"):
        assert doc.find(f".//*[@id='{a}']") is not None
    aside = doc.find(".//aside[@id='s1']")
    assert aside.get("data-target") == "u1.a1" and aside.get("data-target-end") == "u1.a2"
    assert [a.get("href") for a in aside.iter("a")] == ["#u1.a1"]    # no 出文: an arrow carries the link


def test_detached_shu(tmp_path):
    xml = tei('<note type="shu" subtype="detached" xml:id="s0"><label type="chuwen">“甲”</label><p>前卷。</p></note>'
              '<ab type="jing" xml:id="u1"><seg xml:id="u1.j1">天。</seg></ab>')
    _, doc = render_one(tmp_path, xml)
    aside = doc.find(".//aside[@id='s0']")
    assert "detached" in aside.get("class").split()
    assert aside.find(".//a") is None and "前卷。" in "".join(aside.itertext())


def test_dtd_is_refused(tmp_path):
    xml = '<!DOCTYPE TEI [<!ENTITY x "y">]>' + tei('<ab type="jing" xml:id="u1"><seg xml:id="u1.j1">&x;</seg></ab>')
    with pytest.raises(PipelineError, match="DTD"):
        render_one(tmp_path, xml)
    assert not (tmp_path / "out" / "t.html").exists()


def test_not_tei_is_refused(tmp_path):
    with pytest.raises(PipelineError, match="not a TEI document") as e:
        render_one(tmp_path, "<html/>")
    assert e.value.file.endswith("t.xml")


def test_colliding_outputs_are_refused(tmp_path):
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "x.xml").write_text(tei(""), encoding="utf-8")
    with pytest.raises(PipelineError, match="x.html"):
        render_html([str(tmp_path / "a" / "x.xml"), str(tmp_path / "b" / "x.xml")], str(tmp_path / "out"))
    (tmp_path / "index.xml").write_text(tei(""), encoding="utf-8")
    with pytest.raises(PipelineError, match="index"):
        render_html([str(tmp_path / "index.xml")], str(tmp_path / "out"))


def test_stylesheet_compiled_once_per_call(tmp_path, monkeypatch):
    made = []
    real = render._Renderer

    class Counting(real):
        def __init__(self, *a, **kw):
            made.append(1)
            super().__init__(*a, **kw)

    monkeypatch.setattr(render, "_Renderer", Counting)
    paths = []
    for n in ("a", "b", "c"):
        p = tmp_path / f"{n}.xml"
        p.write_text(tei(f'<ab type="jing" xml:id="u1"><seg xml:id="u1.j1">{n}</seg></ab>', title=n), encoding="utf-8")
        paths.append(str(p))
    written = render_html(paths, str(tmp_path / "out"))
    assert len(made) == 1
    assert [pathlib.Path(p).name for p in written] == ["a.html", "b.html", "c.html", "index.html"]
    index = pathlib.Path(written[-1]).read_text(encoding="utf-8")
    assert re.findall(r'href="([^"]+)">([^<]+)<', index) == [("a.html", "a"), ("b.html", "b"), ("c.html", "c")]
