"""Navigation and the edition's pages, as a reader meets them in Debian's Chromium (from file://):
previous / next 卷, the 目次, breadcrumbs, the work page, the leaves of the edition in the margin
and in citations, --base-url, each unit's own 卷, and the persons index's orders and counts.

Two sites: the seeds (tei/), and a small Kanripo work (tests/fixtures/kanripo-nav/KR9z0002: two
卷 of 禮記註疏 from the Kanseki Repository, cut down, with its Readme.org 目次), converted here."""
import os
import pathlib

import pytest
from click.testing import CliRunner
from lxml import etree

from pipeline.cli import main
from pipeline.render.html import Options, render_html
from pipeline.render.persons_page import DYNASTIES, pinyin

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
TEIS = sorted(str(p) for p in (ROOT / "tei").glob("[0-9]*.xml"))
KANRIPO = ROOT / "tests" / "fixtures" / "kanripo-nav" / "KR9z0002"
TWO_JUAN = "001_bb2ea7f0d69008db"                # holds 卷二十九 and 卷三十
BASE = "https://example.org/zhushu/"

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is installed by make test")
if not os.path.exists(CHROMIUM):
    pytest.skip("Chromium is installed by make test (apt-get install chromium)", allow_module_level=True)

# Copying a citation: the page's clipboard write, kept for the test to read (file:// has no
# clipboard permission to read it back).
CAPTURE = """window.__copied = [];
Object.defineProperty(navigator, 'clipboard', {value: {writeText: (t) => { window.__copied.push(t); return Promise.resolve(); }}});"""


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    out = tmp_path_factory.mktemp("seeds")
    render_html(TEIS, str(out))
    return out


@pytest.fixture(scope="module")
def kanripo(tmp_path_factory):
    tei = tmp_path_factory.mktemp("ktei")
    r = CliRunner().invoke(main, ["convert", str(KANRIPO), "-o", str(tei)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    out = tmp_path_factory.mktemp("ksite")
    render_html(sorted(str(p) for p in tei.glob("*.xml")), str(out),
                options=Options(base_url=BASE.rstrip("/"), facs_base="https://img.example.org/wyg"))
    return out


@pytest.fixture
def page(browser, watch_errors):
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    ctx.add_init_script(CAPTURE)
    yield watch_errors(ctx.new_page(), console=False)
    ctx.close()


def in_viewport(pg, selector):
    return pg.eval_on_selector(selector, """e => { const r = e.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth; }""")


def test_prev_next_chain_over_the_works_juan(browser, page, seeds, kanripo, follow):
    for site, first, chain in ((seeds, "002_3cfb79cd5f7996b0.html", ["卷十八", "卷三十八"]),
                               (kanripo, "KR9z0002_001.html", ["卷一", "卷二"])):
        page.goto((site / first).as_uri())
        assert page.locator("a[rel=prev]").count() == 0
        seen = [page.locator(".breadcrumbs [aria-current]").inner_text()]
        while page.locator("a[rel=next]").count():
            follow(page, page.locator("a[rel=next]").first)
            seen.append(page.locator(".breadcrumbs [aria-current]").inner_text())
            # and back again
            assert page.locator("link[rel=prev]").get_attribute("href")
        assert seen == chain
        follow(page, page.locator("a[rel=prev]").first)
        assert page.url.endswith(first)


def test_toc_links_land_on_their_pian(page, kanripo, seeds):
    page.goto((kanripo / "KR9z0002_001.html").as_uri())
    toc = page.locator("nav.toc")
    assert toc.is_visible()                          # open beside the text at 1366 px
    labels = toc.locator("a").all_inner_texts()
    assert labels[:3] == ["禮記注疏卷一", "曲禮上", "曲禮下"]
    toc.get_by_text("曲禮下", exact=True).click()
    page.wait_for_timeout(200)
    assert page.url.endswith("#d3") and in_viewport(page, "#d3 > h3")
    # the 2-卷 seed: both 卷 and the 篇 of each, on a narrow screen folded until opened
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto((seeds / f"{TWO_JUAN}.html").as_uri())
    assert not page.locator("nav.toc ol a").first.is_visible()
    page.locator("nav.toc summary").click()
    last = page.locator("nav.toc ol a").last
    target = last.get_attribute("href")
    last.click()
    page.wait_for_timeout(200)
    assert in_viewport(page, f"[id='{target[1:]}']")


def test_breadcrumbs_and_work_page(page, kanripo, follow):
    page.goto((kanripo / "KR9z0002_002.html").as_uri())
    assert page.locator(".breadcrumbs ol li:not([hidden])").all_inner_texts()[:3] == ["目錄", "禮記註疏", "卷二"]
    follow(page, page.locator(".breadcrumbs a", has_text="禮記註疏"))
    assert page.url.endswith("/KR9z0002.html")        # the whole-work file is the work page
    entries = page.locator("ol.work-contents > li")
    assert entries.all_inner_texts()[3].startswith("卷三") and "未收" in entries.nth(3).inner_text()
    hrefs = page.locator("a.juan-link").evaluate_all("as => as.map(a => a.getAttribute('href'))")
    assert hrefs == ["KR9z0002_001.html", "KR9z0002_002.html"]   # every 卷 of the site
    # the 考證 entry opens its leaf, in view
    follow(page, page.get_by_text("卷一考證"))
    assert page.url.endswith("KR9z0002_001.html#pb-1-3a") and in_viewport(page, "#pb-1-3a")
    # each 卷 links its TEI, and the copy is there
    tei = page.url.rsplit("/", 1)[0]
    page.goto(tei.replace("KR9z0002_001.html", "") + "/KR9z0002.html")
    assert page.locator("a.tei-link").first.get_attribute("href") == "tei/KR9z0002_001.xml"
    assert (kanripo / "tei" / "KR9z0002_001.xml").is_file()


def test_breadcrumbs_follow_the_pian_the_reader_is_in(page, kanripo):
    page.goto((kanripo / "KR9z0002_001.html").as_uri())
    crumb = page.locator(".breadcrumbs li.pian")
    heads = page.locator("main section[data-pian] > h3")
    assert heads.count() >= 2
    for i in (1, 0):                                   # down to 曲禮下, back up to 曲禮上
        head = heads.nth(i)
        head.evaluate("h => window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 60)")
        page.wait_for_timeout(100)
        name = head.evaluate("h => h.closest('section').dataset.pian")
        sync_api.expect(crumb).to_have_text(name)
        assert crumb.locator("a").get_attribute("href") == "#" + head.evaluate("h => h.closest('section').id")
    assert page.locator(".breadcrumbs li").all_inner_texts()[:3] == ["目錄", "禮記註疏", "卷一"]


def test_seed_work_page_lists_every_juan(page, seeds, follow):
    page.goto((seeds / "002_3cfb79cd5f7996b0.html").as_uri())
    follow(page, page.locator(".breadcrumbs a", has_text="周禮注疏"))
    assert page.locator("a.juan-link").all_inner_texts() == ["卷十八", "卷三十八"]


def test_leaf_in_the_margin_beside_its_line(page, kanripo):
    page.goto((kanripo / "KR9z0002_001.html").as_uri())
    geo = page.evaluate("""() => [...document.querySelectorAll('main .leaf')].map(m => {
        const l = m.querySelector('.leaf-label').getBoundingClientRect();
        const range = document.createRange(); range.setStartAfter(m); range.setEnd(m.parentNode, m.parentNode.childNodes.length);
        const line = [...range.getClientRects()].find(r => r.width > 0);
        const main = document.querySelector('main').getBoundingClientRect();
        return {label: m.dataset.leaf, text: m.querySelector('.leaf-label').textContent,
                right: l.right, mainLeft: main.left, top: l.top, bottom: l.bottom,
                lineTop: line.top, lineBottom: line.bottom, href: m.querySelector('a') && m.querySelector('a').href};
    })""")
    assert [g["label"] for g in geo] == ["一-一a", "一-一b", "一-二a", "一-二b", "一-三a"]
    for g in geo:
        assert g["text"] == g["label"]
        assert g["right"] <= g["mainLeft"], g                   # in the margin, left of the text
        assert g["bottom"] > g["lineTop"] and g["top"] < g["lineBottom"], g   # beside the line it begins
    # the facsimile: absolute under --facs-base; the leaf with no image links nowhere
    assert geo[0]["href"] == "https://img.example.org/wyg/WYG0115/WYG0115-0011c.png"
    assert geo[-1]["href"] is None


def test_copied_citation_has_juan_pian_leaf_and_absolute_url(page, kanripo):
    page.goto((kanripo / "KR9z0002_001.html").as_uri())
    # a unit beginning after leaf 1b: 曲禮上, the unit 賢者狎而敬之
    unit = page.locator("p.unit", has_text="賢者狎而敬之")
    uid = unit.get_attribute("id")
    unit.hover()
    unit.locator(":scope > .tools button.cite").click()
    page.wait_for_function("window.__copied.length > 0")
    text = page.evaluate("window.__copied[0]")
    # the URN names the unit as the file's citeStructure does: 卷 1, 篇 1 (曲禮上), the unit
    assert text == (f"禮記註疏 · 卷一 · 曲禮上 · 一-一b · {uid}\nurn:zhushu:liji-zhushu-wyg:1.1.{uid}\n"
                    f"{BASE}KR9z0002_001.html#{uid}")


def test_two_juan_file_cites_each_unit_with_its_own_juan(page, seeds):
    page.goto((seeds / f"{TWO_JUAN}.html").as_uri())
    assert "卷二十九—三十" in page.title()
    cites = page.evaluate("""() => ['#d1', '#d2'].map(s => document.querySelector(s + ' .cite').dataset.cite)""")
    assert cites[0].startswith("钦定礼记义疏 · 卷二十九 · ") and cites[1].startswith("钦定礼记义疏 · 卷三十 · ")
    index = (seeds / "index.html").read_text(encoding="utf-8")
    assert f'href="{TWO_JUAN}.html" lang="lzh-Hans">卷二十九—三十<' in index
    persons = (seeds / "persons.html").read_text(encoding="utf-8")
    assert "钦定礼记义疏 卷二十九—三十" in persons and ">卷三十 · " in persons


def test_seeds_without_heading_get_a_supplied_one(page, seeds):
    for stem, juan in (("000_5a9685f2ae5c6de4", "卷四十六"), ("002_3cfb79cd5f7996b0", "卷十八")):
        page.goto((seeds / f"{stem}.html").as_uri())
        h = page.locator("main h2.head.supplied")
        assert h.is_visible() and h.inner_text() == juan
        assert page.evaluate("getComputedStyle(document.querySelector('main h2.supplied'), '::before').content") == '"〔"'


def test_provenance_line_is_in_the_colophon_not_the_text(page, seeds, follow):
    page.goto((seeds / "003_2c7c22b06290c5d5.html").as_uri())
    assert "中华文库" not in page.locator("main").inner_text()
    follow(page, page.locator(".page-foot a", has_text="版本說明"))
    entry = page.locator("section.colophon:target")
    assert "中华文库" in entry.inner_text() and "讀取器" in entry.inner_text()


def test_kanripo_colophon_credits_the_repository(kanripo):
    text = (kanripo / "colophon.html").read_text(encoding="utf-8")
    assert "Kanseki Repository" in text and 'href="https://www.kanripo.org/text/KR9z0002/"' in text
    assert "四庫全書・文淵閣 (WYG)" in text


def rank(floruit):
    return DYNASTIES.index(floruit) if floruit in DYNASTIES else len(DYNASTIES)


def test_persons_by_dynasty_then_pinyin_and_the_switch(page, seeds, follow):
    page.goto((seeds / "persons.html").as_uri())
    people = page.evaluate("""() => [...document.querySelectorAll('section.person')].map(s =>
        [s.id, s.querySelector('h3 > span[lang]').textContent, (s.querySelector('.floruit') || {}).textContent || ''])""")
    assert len(people) > 20
    assert [rank(f) for _, _, f in people] == sorted(rank(f) for _, _, f in people)
    assert people[0][2] in ("西漢", "東漢") and people[-1][2] in ("元", "明", "清")
    for a, b in zip(people, people[1:]):
        if a[2] == b[2]:
            assert pinyin(a[1]) <= pinyin(b[1])
    assert page.locator("h2.group").all_inner_texts()[0] in ("西漢", "東漢")
    follow(page, page.locator(".order-switch a", has_text="依拼音"))
    names = page.locator("section.person h3 .pinyin").all_inner_texts()
    assert names == sorted(names) and len(names) == len(people)
    assert page.locator(".order-switch [aria-current]").inner_text() == "依拼音"


def test_every_count_is_a_link_to_a_note_of_that_person(browser, seeds, follow):
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    pg = ctx.new_page()
    pg.goto((seeds / "persons.html").as_uri())
    # each line of an entry is a page with its counts: every count a link
    lines = pg.evaluate("""() => [...document.querySelectorAll('section.person > ul > li')].map(li =>
        [...li.querySelectorAll(':scope > a.count')].map(a => [li.closest('section').id, a.getAttribute('href')]))""")
    assert lines and all(lines)
    rows = [r for line in lines for r in line]
    trees = {}
    for pid, href in rows:
        page_name, frag = href.split("#")
        stem = page_name.removesuffix(".html")
        tree = trees.setdefault(stem, etree.parse(str(ROOT / "tei" / f"{stem}.xml")))
        el = tree.xpath("//*[@xml:id=$i]", i=frag)[0]
        # a note by its @resp, a 義疏 quotation (cit) by its author; a scholar of persons.xml
        who = el.get("resp") or el.xpath("string(*[local-name()='bibl']/*[local-name()='author']/@ref)")
        assert f"psn:{pid}" in who.split(), (pid, href)
    # and one of them opens on its note, in view
    pid, href = rows[0]
    follow(pg, pg.locator(f"a.count[href='{href}']").first)
    frag = href.split("#")[1]
    assert pg.evaluate(f"(() => {{ const r = document.getElementById('{frag}').getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }})()")
    ctx.close()


def test_no_opaque_ids_in_the_persons_index(seeds):
    text = (seeds / "persons.html").read_text(encoding="utf-8")
    doc = etree.HTML(text)
    shown = "".join(doc.xpath("//main//text()"))
    for frag in ("u1.", ".q", "#u"):
        assert frag not in shown


def test_leaf_labels_in_chinese_numerals():
    from saxonche import PySaxonProcessor
    proc = PySaxonProcessor(license=False)
    sheet = f"""<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:zs="urn:zhushu">
      <xsl:import href="{(ROOT / 'xslt' / 'html.xsl').as_uri()}"/>
      <xsl:template name="xsl:initial-template">
        <xsl:value-of select="('46-1a', '0-13b', '105-10b', '110-20a', '3-1', '1-1c', 'x')!zs:leaf-label(.)" separator="|"/>
      </xsl:template></xsl:stylesheet>"""
    out = proc.new_xslt30_processor().compile_stylesheet(stylesheet_text=sheet).call_template_returning_string()
    assert out.split("|") == ["四十六-一a", "〇-十三b", "一百零五-十b", "一百一十-二十a", "三-一", "1-1c", "x"]


def test_pdf_dir_links_only_the_pdfs_that_exist(tmp_path):
    """render html --pdf-dir DIR (relative to the site, as `make demo` passes ../pdf/vertical)."""
    (tmp_path / "pdf").mkdir()
    (tmp_path / "pdf" / "002_3cfb79cd5f7996b0.pdf").write_bytes(b"%PDF-1.7\n")
    two = [t for t in TEIS if "002_" in t or "004_" in t]
    r = CliRunner().invoke(main, ["render", "html", *two, "-o", str(tmp_path / "site"), "--pdf-dir", "../pdf",
                                  "--base-url", "https://example.org/s"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    with_pdf = (tmp_path / "site" / "002_3cfb79cd5f7996b0.html").read_text(encoding="utf-8")
    without = (tmp_path / "site" / "004_788d901eea474415.html").read_text(encoding="utf-8")
    assert 'href="../pdf/002_3cfb79cd5f7996b0.pdf" type="application/pdf"' in with_pdf
    assert ".pdf" not in without
    assert 'data-base-url="https://example.org/s/"' in with_pdf
    assert '<link rel="canonical" href="https://example.org/s/002_3cfb79cd5f7996b0.html">' in with_pdf


@pytest.mark.parametrize("name", ["index.html", "KR9z0002.html", "persons.html", "persons-pinyin.html", "colophon.html"])
def test_site_pages_have_no_serious_accessibility_violation(page, kanripo, seeds, name):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    site = kanripo if name.startswith("KR") else seeds
    for width, height in ((1366, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto((site / name).as_uri())
        found = axe.Axe().run(page).response["violations"]
        assert not [v["id"] for v in found if v["impact"] in ("serious", "critical")], (name, width)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
