"""The HTML web edition: zhushu render html (pipeline.render + xslt/html.xsl + xslt/common.xsl)."""
import pathlib
import re

import html5lib
import pytest
from lxml import etree

from pipeline.render import html as web
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


def links(e):
    """The hrefs of the links in e, leaving out the permalinks every unit, piece and block has and
    the skip link to the text every page has."""
    return [a.get("href") for a in e.iter("a") if not {"permalink", "skip"} & set((a.get("class") or "").split())]


def text_links(doc):
    """The links of the text itself (main), where no pointer of the TEI may lead out."""
    return links(doc.find(".//main"))


def resolves(h, present):
    """A fragment of this page, or a page of the site (a relative path: no scheme, no host)."""
    if h.startswith("#"):
        return h[1:] in present
    return "://" not in h and ":" not in h.split("/")[0] and not h.startswith("/")


def assert_only_own_scripts(doc):
    """The only scripts: the inline line applying saved choices, the shared zhushu.js and place.js
    in the head, and search.js with the search field."""
    scripts = doc.findall(".//script")
    assert [s.get("src") for s in scripts] == [None, "assets/zhushu.js", "assets/place.js", "assets/search.js"]
    assert all(s.get("defer") is not None and not (s.text or "").strip() for s in scripts[1:])
    assert all(s in doc.find("head") for s in scripts[:3])


def test_writes_page_and_index(page_004):
    written, _, _ = page_004
    names = [pathlib.Path(p).name for p in written]
    assert names[:-1] == ["004_788d901eea474415.html", "index.html", "persons.html", "persons-pinyin.html",
                          "colophon.html", "search.html"] and names[-1].startswith("work-")
    index = pathlib.Path(written[1]).read_text(encoding="utf-8")
    doc = parse_html(index)
    links = doc.findall(".//main//a")
    assert [(a.get("href"), a.text) for a in links] == [(names[-1], "周禮注疏"),
                                                        ("004_788d901eea474415.html", "卷三十八")]
    assert "".join(doc.find(".//main//h2").itertext()) == "周禮注疏"


def test_html5_with_lang_and_title(page_004):
    _, text, doc = page_004
    assert text.startswith("<!DOCTYPE HTML>")
    assert doc.tag == "html" and doc.get("lang") == "lzh-Hans"        # 004 prints 国, 礼: simplified
    assert doc.find(".//meta[@charset]").get("charset").lower() == "utf-8"
    assert doc.find(".//title").text == "周禮注疏 卷三十八"
    assert_only_own_scripts(doc)
    assert doc.find(".//link[@rel='stylesheet']").get("href") == "assets/zhushu.css"
    assert doc.find(".//style") is None


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
        hrefs = links(aside.find("p[@class='lemma']"))
        assert hrefs == [note.get("target")], sid          # the 出文 links to the span start
        for sub in aside.findall(".//div[@class='sublemma shu']"):
            quote = sub.find(".//a[@class='mentioned sublemma-quote']")
            assert quote is not None and quote.get("href")[1:] in present, sub.get("id")
        target = hrefs[0][1:]
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
        assert resolves(h, present), h


def test_no_javascript_or_foreign_pointer(tmp_path):
    xml = tei('<ab type="jing" xml:id="u1"><seg xml:id="u1.j1">天地玄黄。</seg></ab>'
              '<note type="shu" xml:id="u1.s1" target="javascript:alert(1)" targetEnd="http://evil/#u1.j1">'
              '<label type="chuwen">“<mentioned>天地</mentioned>”</label><p>&lt;script&gt;x&lt;/script&gt;</p></note>'
              '<note type="shu" xml:id="u1.s2" target="JavaScript:alert(1)#u1.j1"><p>y</p></note>'
              '<ab type="jing" xml:id="u2"><seg xml:id="u2.j1">日<g ref="javascript:alert(2)">月</g></seg></ab>')
    text, doc = render_one(tmp_path, xml)
    assert "javascript" not in text.lower()
    assert "evil" not in text
    assert_only_own_scripts(doc)
    assert text_links(doc) == []
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
    assert links(aside) == ["#u1.a1"]    # no 出文: an arrow carries the link


def test_detached_shu(tmp_path):
    xml = tei('<note type="shu" subtype="detached" xml:id="s0"><label type="chuwen">“甲”</label><p>前卷。</p></note>'
              '<ab type="jing" xml:id="u1"><seg xml:id="u1.j1">天。</seg></ab>')
    _, doc = render_one(tmp_path, xml)
    aside = doc.find(".//aside[@id='s0']")
    assert "detached" in aside.get("class").split()
    assert links(aside) == [] and "前卷。" in "".join(aside.itertext())


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
    real = web.Renderer

    class Counting(real):
        def __init__(self, *a, **kw):
            made.append(1)
            super().__init__(*a, **kw)

    monkeypatch.setattr(web, "Renderer", Counting)
    paths = []
    for n in ("a", "b", "c"):
        p = tmp_path / f"{n}.xml"
        p.write_text(tei(f'<ab type="jing" xml:id="u1"><seg xml:id="u1.j1">{n}</seg></ab>', title=n), encoding="utf-8")
        paths.append(str(p))
    written = render_html(paths, str(tmp_path / "out"))
    assert len(made) == 1
    assert [pathlib.Path(p).name for p in written] == ["a.html", "b.html", "c.html", "index.html", "persons.html",
                                                   "persons-pinyin.html", "colophon.html", "search.html"] + [pathlib.Path(p).name for p in written[-3:]]
    index = pathlib.Path(written[3]).read_text(encoding="utf-8")
    main = index[index.index("<main>"):]
    juan_links = [(h, t) for h, t in re.findall(r'href="([^"]+)"[^>]*>([^<]+)<', main) if not h.startswith("work-")]
    assert juan_links == [("a.html", "a"), ("b.html", "b"), ("c.html", "c")]


# -- the 欽定三禮義疏: 義疏 and 案 blocks, small notes, translations, furniture, sections ---------

LAYERS = {"jing", "zhu", "yinyi", "shu", "que", "yishu", "an", "translation", "textual", "xiaozhu"}

YISHU_PEOPLE = """<standOff><listPerson>
<person xml:id="zhengxuan"><persName xml:lang="lzh"><surname>鄭</surname><forename>玄</forename></persName>
  <persName type="full">鄭玄</persName><floruit>東漢</floruit></person>
<person xml:id="jiagongyan"><persName xml:lang="lzh"><surname>賈</surname><forename>公彥</forename></persName>
  <persName type="full">賈公彥</persName></person>
<person xml:id="zs.刘智"><persName xml:lang="lzh"><surname>刘</surname><forename>智</forename></persName>
  <note>declared from the text: not in the registry of scholars</note></person>
</listPerson></standOff>"""

YISHU_BODY = """<div type="juan" xml:id="d1">
<fw type="header" xml:id="fw1">钦定四库全书</fw>
<head type="juan" xml:id="d1.h">钦定仪礼义疏卷十八</head>
<fw type="catalogue" xml:id="fw2">&lt;经部,礼类,仪礼之属&gt;</fw>
<div type="section" xml:id="d2">
<head type="section" xml:id="d2.h">聘礼第八之四</head>
<div type="section" xml:id="d3">
<ab type="jing" xml:id="u1"><seg xml:id="u1.j1">聘遭丧入竟则遂也</seg><note type="yinyi" place="inline" xml:id="u1.n1"><term>竟</term><seg type="zhiyin">音境</seg></note><note type="textual" place="inline" xml:id="u1.n2">注今文赴作讣</note><note type="an" place="inline" xml:id="u1.n3">案疑衍</note><note type="xiaozhu" place="inline" xml:id="u1.n4">小注</note><note type="shu" subtype="quoted" place="inline" xml:id="u1.n5" resp="#jiagongyan">贾疏始死</note></ab>
<note type="yishu" subtype="zhengyi" place="inline" xml:id="u1.c1" target="#u1"><label type="category">正义</label><cit xml:id="u1.c1.q1"><bibl><author ref="#zhengxuan">郑氏康成</author>曰</bibl><quote>遭丧主国君薨也<note type="shu" subtype="quoted" place="inline" xml:id="u1.c1.n1" resp="#jiagongyan">贾疏文八年</note><note type="yinyi" place="inline" xml:id="u1.c1.n2"><term>薨</term><seg type="fanqie">呼肱反</seg></note></quote></cit><cit xml:id="u1.c1.q2"><bibl><author ref="#zs.刘智">刘氏智</author>曰</bibl><quote>是也<g ref="#zs-g25AF" type="placeholder">▯</g></quote></cit><p xml:id="u1.c1.q3">无名之言</p></note>
<ab type="translation" xml:id="t1" corresp="#u1" xml:lang="zh-Hans"><label type="mark">译</label>出使遇到丧事<note type="textual" place="inline" xml:id="t1.n1">今文</note></ab>
<fw type="title" subtype="repeat" xml:id="fw3" sameAs="#d1.h">钦定仪礼义疏卷十八</fw>
<note type="yishu" subtype="zhengyi" place="inline" xml:id="u1.c2" target="#u1" prev="#u1.c1"><p xml:id="u1.c2.q1">续前页</p></note>
<note type="yishu" subtype="cunyi" place="inline" xml:id="u1.c3" target="#u1"><label type="category">存疑</label><p xml:id="u1.c3.q1">疑</p></note>
<note type="an" place="inline" xml:id="u1.c4" target="#u1"><label type="category">案</label><p xml:id="u1.c4.q1">不筵几<note type="an" place="inline" xml:id="u1.c4.n1">案小</note></p></note>
<ab type="translation" subtype="copy" xml:id="t2" corresp="#u1.c4" xml:lang="zh-Hans">不筵几</ab>
<trailer xml:id="d3.t">右遭丧</trailer>
</div>
<div type="section" xml:id="d4">
<note type="yishu" subtype="detached" place="inline" xml:id="u1.c5"><p xml:id="u1.c5.q1">前卷之末</p></note>
<ab type="jing" xml:id="u2"><seg xml:id="u2.j1">君薨</seg></ab>
<trailer xml:id="d4.t">右聘君薨</trailer>
</div>
</div>
<fw type="catalogue" subtype="repeat" xml:id="fw4" sameAs="#fw2">&lt;经部,礼类,仪礼之属&gt;</fw>
</div>"""


def yishu_tei(body=YISHU_BODY, people=YISHU_PEOPLE):
    return (f'<TEI xmlns="{TEI}" xml:lang="lzh"><teiHeader><fileDesc><titleStmt>'
            f'<title type="main">钦定仪礼义疏 卷十八</title><title type="work">钦定仪礼义疏</title>'
            f'</titleStmt></fileDesc><encodingDesc><charDecl><glyph xml:id="zs-g25AF">'
            f'<localProp name="name" value="placeholder for a missing character"/>'
            f'<mapping type="standard">▯</mapping></glyph></charDecl></encodingDesc></teiHeader>'
            f'{people}<text><body>{body}</body></text></TEI>')


@pytest.fixture(scope="module")
def yishu_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("yishu")
    src = out / "y.xml"
    src.write_text(yishu_tei(), encoding="utf-8")
    text = pathlib.Path(render_html([str(src)], str(out / "html"))[0]).read_text(encoding="utf-8")
    return text, parse_html(text)


def by_id(doc, id_):
    found = doc.find(f".//*[@id='{id_}']")
    assert found is not None, id_
    return found


def parent_of(doc, e):
    return next(p for p in doc.iter() if any(c is e for c in p))


def classes(e):
    return set((e.get("class") or "").split())


def text_of(e):
    return "".join(e.itertext())


def test_yishu_every_tei_id_is_an_html_id(yishu_page):
    _, doc = yishu_page
    body = etree.fromstring(yishu_tei().encode()).find(f".//{{{TEI}}}body")
    tei_ids = {e.get(XML_ID) for e in body.iter() if e.get(XML_ID)}
    assert len(tei_ids) > 30 and tei_ids <= ids(doc)


def test_yishu_links_resolve_and_layers_are_known(yishu_page):
    text, doc = yishu_page
    present = ids(doc)
    hrefs = [a.get("href") for a in doc.iter("a")]
    for h in hrefs:
        assert resolves(h, present), h
    assert {e.get("data-layer") for e in doc.iter() if e.get("data-layer")} <= LAYERS
    assert_only_own_scripts(doc)


def test_yishu_blocks_follow_their_unit(yishu_page):
    _, doc = yishu_page
    entry = parent_of(doc, by_id(doc, "u1"))
    assert "entry" in classes(entry)
    # each translation right after what it translates (t1 of u1, t2 of u1.c4), wherever printed
    assert [c.get("id") for c in entry] == ["u1", "t1", "u1.c1", "fw3", "u1.c2", "u1.c3", "u1.c4", "t2"]
    block = by_id(doc, "u1.c1")
    assert block.tag == "aside" and block.get("data-layer") == "yishu"
    assert {"yishu", "cat-zhengyi"} <= classes(block) and block.get("data-category") == "zhengyi"
    assert block.get("data-target") == "u1"
    lemma = block.find("p[@class='lemma']")
    assert text_of(lemma.find("span[@class='category']")) == "正义"
    assert links(lemma) == ["#u1"]
    assert "cat-cunyi" in classes(by_id(doc, "u1.c3"))


def test_yishu_quotations_name_who_said_it(yishu_page):
    _, doc = yishu_page
    q1 = by_id(doc, "u1.c1.q1")
    assert q1.tag == "p" and "quote" in classes(q1) and q1.get("data-resp") == "zhengxuan"
    who = q1[0]
    assert who.tag == "a" and "who" in classes(who) and text_of(who) == "郑氏康成"
    assert who.get("href") == "#zhengxuan" and who.get("title") == "鄭玄"
    # a scholar declared from the text: his id works as an HTML id, and he is credited
    who = by_id(doc, "u1.c1.q2")[0]
    assert who.get("href") == "#zs.刘智" and who.get("title") == "刘智"
    credits = {li.get("id"): text_of(li) for li in doc.findall(".//details[@class='credits']/ul/li")}
    assert "義疏" in credits["zhengxuan"] and "義疏" in credits["zs.刘智"]
    assert "疏" in credits["jiagongyan"]                    # credited for the quoted 疏
    # words nobody is named for: no name
    assert by_id(doc, "u1.c1.q3").find(".//*[@class='who']") is None
    assert text_of(by_id(doc, "u1.c1.q3")) == "无名之言"


def test_an_block_and_continuation(yishu_page):
    _, doc = yishu_page
    an = by_id(doc, "u1.c4")
    assert an.tag == "aside" and an.get("data-layer") == "an" and "an" in classes(an)
    assert "yishu" not in classes(an)
    assert text_of(an.find(".//span[@class='category']")) == "案"
    cont = by_id(doc, "u1.c2")
    assert "continued" in classes(cont) and cont.get("data-prev") == "u1.c1"
    assert "#u1.c1" in [a.get("href") for a in cont.iter("a")]
    detached = by_id(doc, "u1.c5")
    assert "detached" in classes(detached) and detached.get("data-target") is None


def test_small_notes(yishu_page):
    _, doc = yishu_page
    for id_, kind in [("u1.n2", "textual"), ("u1.n3", "an"), ("u1.n4", "xiaozhu"), ("u1.c4.n1", "an"),
                      ("t1.n1", "textual"), ("u1.c1.n2", "yinyi")]:
        e = by_id(doc, id_)
        assert e.tag == "span" and e.get("data-layer") == kind and {"small", kind} <= classes(e), id_
    for id_ in ("u1.n5", "u1.c1.n1"):                        # a quoted 疏, credited
        e = by_id(doc, id_)
        assert e.get("data-layer") == "shu" and {"small", "shu", "quoted"} <= classes(e)
        assert e.get("data-resp") == "jiagongyan" and e.get("title") == "賈公彥"
    gloss = by_id(doc, "u1.c1.n2")
    assert [(s.get("class"), s.text) for s in gloss if s.get("class") != "tools"] == [("term", "薨"), ("fanqie", "呼肱反")]
    # 音義 inside the 經 is a piece of the unit, as before
    assert by_id(doc, "u1.n1").get("data-layer") == "yinyi"
    assert by_id(doc, "u1.j1").get("data-layer") == "jing"


def test_translation(yishu_page):
    _, doc = yishu_page
    t1 = by_id(doc, "t1")
    assert t1.tag == "p" and t1.get("data-layer") == "translation" and t1.get("lang") == "zh-Hans"
    assert "translation" in classes(t1) and "copy" not in classes(t1)
    assert t1.get("data-original") == "u1"
    assert t1.find("span[@class='mark']").text == "译"
    assert links(t1) == ["#u1"]
    assert text_of(t1).startswith("译出使遇到丧事今文")
    t2 = by_id(doc, "t2")
    assert "copy" in classes(t2) and t2.get("data-original") == "u1.c4"


def test_furniture_headings_sections_and_closings(yishu_page):
    _, doc = yishu_page
    juan = by_id(doc, "d1")
    assert juan.tag == "section" and "juan" in classes(juan)
    assert [c.get("id") for c in juan][:3] == ["fw1", "d1.h", "fw2"]     # furniture before the heading
    assert by_id(doc, "d1.h").tag == "h2" and by_id(doc, "d2.h").tag == "h3"
    fw2 = by_id(doc, "fw2")
    assert {"fw", "catalogue"} <= classes(fw2) and text_of(fw2) == "<经部,礼类,仪礼之属>"
    fw3 = by_id(doc, "fw3")
    assert "repeat" in classes(fw3) and fw3.get("data-same-as") == "d1.h"
    assert by_id(doc, "fw4").get("data-same-as") == "fw2"
    assert parent_of(doc, by_id(doc, "fw4")) is juan                      # after the sections
    # a section without a heading, closed by its 右… line, which stands alone at its end
    d3 = by_id(doc, "d3")
    assert d3.tag == "section" and "section" in classes(d3) and d3.find("h3") is None
    assert d3[-1].get("id") == "d3.t" and "trailer" in classes(d3[-1]) and text_of(d3[-1]) == "右遭丧"
    # a nested section is not wrapped in an entry
    assert parent_of(doc, by_id(doc, "d3")).get("id") == "d2"


def test_yishu_legend(yishu_page):
    _, doc = yishu_page
    legend = doc.find(".//p[@class='legend']")
    keys = [c.get("class") for c in legend]
    assert {"key-yishu", "key-an", "key-translation"} <= set(keys) and "key-shu" not in keys


def test_yishu_foreign_pointers_are_dropped(tmp_path):
    body = ('<div type="juan" xml:id="d1">'
            '<ab type="jing" xml:id="u1"><seg xml:id="u1.j1">天</seg></ab>'
            '<note type="yishu" subtype="zhengyi" place="inline" xml:id="u1.c1" target="javascript:alert(1)" prev="http://evil/#u1">'
            '<cit xml:id="u1.c1.q1"><bibl><author ref="http://evil/#zhengxuan">郑氏</author>曰</bibl><quote>'
            '<note type="shu" subtype="quoted" place="inline" xml:id="u1.c1.n1" resp="http://evil/">疏</note></quote></cit></note>'
            '<ab type="translation" xml:id="t1" corresp="javascript:alert(3)" xml:lang="zh-Hans">天</ab>'
            '<fw type="title" subtype="repeat" xml:id="fw1" sameAs="http://evil/#d1">卷</fw></div>')
    text, doc = render_one(tmp_path, yishu_tei(body))
    assert "javascript" not in text.lower() and "evil" not in text
    assert text_links(doc) == []
    assert by_id(doc, "u1.c1").get("data-target") is None
    assert by_id(doc, "t1").get("data-original") is None
    assert by_id(doc, "fw1").get("data-same-as") is None
    assert by_id(doc, "u1.c1.q1")[0].tag == "b"                           # the name, not a link


@pytest.mark.parametrize("name", ["001_bb2ea7f0d69008db", "003_2c7c22b06290c5d5"])
def test_yishu_seed_pages(tmp_path, name):
    """The 義疏 seeds in tei/: every id kept, every link resolving, every block after its unit."""
    src = ROOT / "tei" / f"{name}.xml"
    if not src.exists():
        pytest.skip(f"{src} not present")
    text = pathlib.Path(render_html([str(src)], str(tmp_path))[0]).read_text(encoding="utf-8")
    doc = parse_html(text)
    present = ids(doc)
    tei_doc = etree.parse(str(src))
    body = tei_doc.find(f".//{{{TEI}}}body")
    assert {e.get(XML_ID) for e in body.iter() if e.get(XML_ID)} <= present
    for a in doc.iter("a"):
        h = a.get("href")
        assert resolves(h, present), h
    assert {e.get("data-layer") for e in doc.iter() if e.get("data-layer")} <= LAYERS
    blocks = [n for n in body.iter(f"{{{TEI}}}note") if n.get("type") in ("yishu", "an")
              and n.getparent().tag == f"{{{TEI}}}div"]          # a block: a child of a div
    asides = [a for a in doc.iter("aside") if a.get("data-layer") in ("yishu", "an")]
    assert [a.get("id") for a in asides] == [n.get(XML_ID) for n in blocks]
    parent = {c: p for p in doc.iter() for c in p}
    for n in blocks:
        if n.get("target"):
            aside = by_id(doc, n.get(XML_ID))
            unit = by_id(doc, n.get("target")[1:])
            assert parent[aside] is parent[unit], n.get(XML_ID)               # the same entry


# -- the reading controls: the markup zhushu.js and zhushu.css work on ---------------------------

def toolbar(doc):
    bar = doc.find(".//header/nav[@class='toolbar']")
    assert bar is not None and bar.get("aria-label")
    return bar


def test_toolbar_004(page_004):
    _, _, doc = page_004
    bar = toolbar(doc)
    layers = bar.findall(".//button[@data-toggle-layer]")
    assert [b.get("data-toggle-layer") for b in layers] == ["zhu", "yinyi", "shu"]
    assert all(b.get("type") == "button" and b.get("aria-pressed") == "true" for b in layers)
    assert [b.get("data-toggle") for b in bar.findall(".//button[@data-toggle]")] == ["vertical"]
    assert bar.find(".//button[@data-filter-category]") is None


def test_toolbar_yishu(yishu_page):
    _, doc = yishu_page
    bar = toolbar(doc)
    assert [b.get("data-toggle-layer") for b in bar.findall(".//button[@data-toggle-layer]")] == \
        ["yinyi", "shu", "yishu", "an", "translation"]
    modes = bar.findall(".//button[@data-toggle]")
    assert [(b.get("data-toggle"), b.get("aria-pressed")) for b in modes] == [("vertical", "false"), ("parallel", "false")]
    cats = [(b.get("data-filter-category"), b.text) for b in bar.findall(".//button[@data-filter-category]")]
    assert cats == [("all", "全部"), ("zhengyi", "正義"), ("cunyi", "存疑"), ("an", "案")]
    assert "has-translation" in classes(doc.find("body"))
    # a translation follows the filter of the block it translates
    assert by_id(doc, "t2").get("data-original-category") == "an"
    assert by_id(doc, "t1").get("data-original-category") is None
    assert "bilingual" in classes(parent_of(doc, by_id(doc, "t1")))


def test_permalinks_and_citations(page_004):
    """What the script builds the permalink and citation controls from (tested in test_web.py):
    the page names work and 卷 once, and every unit, piece and block carries its TEI id; the page
    itself holds no controls, so they add nothing to the text of a piece."""
    _, _, doc = page_004
    assert doc.find("body").get("data-cite") == "周禮注疏 · 卷三十八"
    for id_, tag in (("u1", "p"), ("u1.z1", "span"), ("u1.y1", "span"), ("u1.s1", "aside"), ("u2.s1.1", "div")):
        assert by_id(doc, id_).tag == tag
    assert not doc.findall(".//*[@class='tools']")
    assert text_of(by_id(doc, "u1.z1")) == "谓蕃国之臣来┹聘者。"
    fold = by_id(doc, "u1.s1").find("p[@class='lemma']/button")
    assert "fold" in classes(fold) and fold.get("aria-expanded") == "true"


def test_glossed_pieces_point_at_their_yinyi(page_004):
    _, _, doc = page_004
    # each gloss names what it glosses; the script links the pieces back (test_web.py)
    assert by_id(doc, "u1.y2").get("data-glosses") == "u1.j1" == by_id(doc, "u1.y3").get("data-glosses")
    assert by_id(doc, "u1.j1").get("data-glosses") is None
