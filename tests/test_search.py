"""Search in the web edition, from file:// in Debian's Chromium (Playwright), on the seed site (simplified
e-texts) and a traditional-script Kanripo fixture (tests/fixtures/kanripo/KR9z0001, converted here):
layers and their filter, 繁/簡 and variant folding, the permalink's highlight, persons, no hit, hostile
queries; and the index itself (folding, shards, chunks) without a browser. Screenshots of the search
page go to build/screenshots/search-*.png (those of docs/ are made by scripts/screenshots.py: a test
run never writes into the checkout's tracked files)."""
import json
import os
import pathlib
import re
from urllib.parse import quote

import pytest

from pipeline import hanzi
from pipeline.render import render_html, search_index
from pipeline.render.html import Options
from pipeline.render.search_text import PageText, Unit, matching_codes, normalise

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
TEIS = sorted(str(p) for p in (ROOT / "tei").glob("[0-9]*.xml"))
KANRIPO = ROOT / "tests" / "fixtures" / "kanripo" / "KR9z0001"
SHOTS = ROOT / "build" / "screenshots"


# -- the index, without a browser -------------------------------------------------------------

def test_fold_joins_scripts_and_variants_character_for_character():
    assert hanzi.fold("禮記") == hanzi.fold("礼记") == "礼记"
    assert hanzi.fold("淸靑眞敎徳眀") == "清青真教德明"
    assert hanzi.fold("毋不敬") == "毋不敬"
    table = hanzi.fold_table()
    assert all(len(v) == 1 and k != v for k, v in table.items())
    assert "礼" not in table                    # only the characters that change are listed


def test_matching_drops_punctuation_and_space_not_characters():
    assert normalise("學而，時習之。 　") == "学而时习之"
    assert normalise("▯〇") == "▯〇"


def test_the_index_keys_are_made_of_the_matched_text():
    text = "學而，時習之。 　淸徳𤣥▯\x00禮記 a1"
    assert "".join(map(chr, matching_codes(text).tolist())) == normalise(text)
    keys = set(search_index.keys_of("禮記\x00之").tolist())
    assert keys == {ord("礼"), ord("记"), ord("之"), ord("礼") * search_index.PLANE + ord("记")}


def _units(*texts, layer="jing"):
    return PageText([Unit(f"u{i}", layer, "卷一", "", t) for i, t in enumerate(texts)])


def _load(built, name):
    """The data a built file passes to its callback."""
    text = built[name].decode("utf-8")
    return json.loads("[" + re.match(r"zhushuSearch\.\w+\((.*)\);\n$", text, re.S).group(1) + "]")


def _chunks_of(built, key: str) -> list[int]:
    """What search.js does for one key: find its shard by the manifest, decode its pairs."""
    manifest = _load(built, "manifest.js")[0]
    cps = [ord(c) for c in normalise(key)]
    number = cps[0] if len(cps) == 1 else cps[0] * search_index.PLANE + cps[1]
    shard = max(i for i, first in enumerate(manifest["postings"]) if first <= number)
    deltas = _load(built, f"post-{shard}.js")[1]
    pairs, v = [], 0
    for d in deltas.split(",") if deltas else []:
        v += int(d, 16)
        pairs.append(v)
    n = manifest["pairBase"]
    return [p - number * n for p in pairs if number * n <= p < number * n + n]


def test_a_unit_is_placed_in_its_own_juan_and_pian():
    # Kanripo numbers a 卷 div "0" where the edition does not: the header's 卷 stands for it
    from lxml import etree
    from pipeline.render.search_text import page_text
    tei = etree.fromstring("""<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body>
      <div type="juan" n="29"><div type="section"><head>內則</head>
        <ab type="jing"><seg xml:id="u1.j1">子事父母</seg></ab></div></div>
      <div type="juan" n="0"><ab type="jing"><seg xml:id="u2.j1">雞初鳴</seg></ab></div>
    </body></text></TEI>""").getroottree()
    units = page_text(tei, "卷二十九").units
    assert [(u.id, u.juan, u.pian) for u in units] == [("u1.j1", "卷二十九", "內則"), ("u2.j1", "卷二十九", "")]


def test_postings_give_each_key_its_chunks_across_many_shards(monkeypatch):
    monkeypatch.setattr(search_index, "POSTINGS_BYTES", 20)     # many small shards
    monkeypatch.setattr(search_index, "TEXT_BYTES", 30)          # a chunk or two per page
    pages = [search_index.page_index(_units("天地玄黃", "宇宙洪荒")),
             search_index.page_index(_units("日月盈昃", "天地之閒"))]
    built = search_index.build([("a.html", "w", "a"), ("b.html", "w", "b")], pages, [])
    manifest = _load(built, "manifest.js")[0]
    assert len(manifest["postings"]) > 3
    chunk_text = {n: "".join(u[3] for u in _load(built, f"text-{n}.js")[1][2]) for n in range(len(manifest["chunks"]))}
    for key in ("天地", "天", "黄", "洪荒", "閒", "月盈"):
        found = _chunks_of(built, key)
        assert found == sorted(n for n, t in chunk_text.items() if normalise(key) in normalise(t)), key
        assert found
    assert _chunks_of(built, "地宇") == []       # units never join: no key across them


def test_same_input_same_bytes():
    pages = [search_index.page_index(_units("天地玄黃", "宇宙洪荒"))]
    a = search_index.build([("a.html", "w", "a")], pages, [])
    b = search_index.build([("a.html", "w", "a")], pages, [])
    assert a == b


def test_a_chunk_holds_one_page_and_one_layer():
    page = PageText([Unit("u1", "jing", "卷一", "", "天地"), Unit("u1.z1", "zhu", "卷一", "", "玄黃"),
                     Unit("u2", "jing", "卷一", "", "宇宙")])
    built = search_index.build([("a.html", "w", "a")], [search_index.page_index(page)], [])
    texts = [_load(built, f"text-{n}.js")[1] for n in range(2)]
    assert [(t[1], [u[0] for u in t[2]]) for t in texts] == [(0, ["u1", "u2"]), (1, ["u1.z1"])]


# -- in the browser -----------------------------------------------------------------------------

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is installed by make test")
if not os.path.exists(CHROMIUM):
    pytest.skip("Chromium is installed by make test (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from click.testing import CliRunner

    from pipeline.cli import main
    tei = tmp_path_factory.mktemp("kanripo-tei")
    r = CliRunner().invoke(main, ["convert", str(KANRIPO), "-o", str(tei), "-q"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    out = tmp_path_factory.mktemp("site")
    render_html(TEIS + sorted(str(p) for p in tei.glob("*.xml")), str(out))
    return out


@pytest.fixture
def page(browser, watch_errors):
    """A fresh context whose console errors and dialogs fail the test."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    yield watch_errors(ctx.new_page(), dialogs=True)
    ctx.close()


def search(pg, site, query, layers=()):
    """Open the search page for a query; wait until it has said how many results (or none)."""
    params = "q=" + quote(query) + "".join(f"&layer={layer}" for layer in layers)
    pg.goto((site / "search.html").as_uri() + "?" + params)
    pg.wait_for_function("() => window.zhushuSearch && zhushuSearch.timing && zhushuSearch.timing.done !== undefined")
    return pg.locator("[data-search-status]").inner_text()


def text_results(pg):
    return [(li.get_attribute("data-layer"), li.inner_text())
            for li in pg.locator(".search-texts [data-search-result]").all()]


def test_every_page_has_the_search_field(site, page):
    for name in [p.name for p in sorted(site.glob("*.html"))]:
        page.goto((site / name).as_uri())
        field = page.locator("input[type=search][data-search]")
        assert field.count() == 1 and field.is_visible(), name
    page.goto((site / "index.html").as_uri())
    page.fill("input[data-search]", "不敬")
    page.press("input[data-search]", "Enter")
    page.wait_for_url(re.compile(r"search\.html\?q="))
    page.wait_for_selector("[data-search-result]")


def test_a_term_in_jing_and_shu_is_found_in_both_and_the_jing_filter_keeps_jing(site, page):
    search(page, site, "不敬")
    layers = {layer for layer, _ in text_results(page)}
    assert {"jing", "shu"} <= layers
    labels = {page.locator(f".search-texts [data-layer={layer}] .search-layer").first.inner_text()
              for layer in ("jing", "shu")}
    assert labels == {"經", "疏"}
    jing = [r for r in text_results(page) if r[0] == "jing"]
    search(page, site, "不敬", layers=["jing"])
    assert text_results(page) == jing
    assert page.locator("input[data-search-layer=jing]").is_checked()
    # the filter as a reader uses it: unchecked again, the 疏 hits come back
    page.locator("input[data-search-layer=jing]").uncheck()
    page.wait_for_function("() => document.querySelectorAll('.search-texts [data-layer=shu]').length > 0")
    page.set_viewport_size({"width": 1366, "height": 900})
    search(page, site, "不敬")
    page.screenshot(path=str(SHOTS / "search-desktop.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SHOTS / "search-mobile.png"))


def test_traditional_query_finds_simplified_text_and_the_reverse(site, page):
    search(page, site, "禮記")                   # the seeds are simplified e-texts: 礼记
    assert any("礼记" in text for _, text in text_results(page))
    search(page, site, "礼主于敬")               # the Kanripo 注 reads 禮主於敬 (its 疏 quotes it)
    hits = dict(text_results(page))
    assert set(hits) == {"zhu", "shu"} and "禮主於敬" in hits["zhu"]
    search(page, site, "此一节明人君")           # 眀, the 四庫 form of 明, folded too
    hits = text_results(page)
    assert [layer for layer, _ in hits] == ["shu"] and "此一節眀人君" in hits[0][1]


def test_a_match_never_crosses_from_jing_to_zhu(site, page):
    # 經 毋不敬 is followed by its 注 禮主於敬: two units, no hit across them
    assert "未找到" in search(page, site, "不敬禮主")


def test_result_link_opens_the_unit_with_exactly_the_match_highlighted(site, page):
    search(page, site, "不敬", layers=["shu"])
    link = page.locator(".search-texts [data-search-result] a").first
    href = link.get_attribute("href")
    assert re.fullmatch(r"[^?#]+\.html\?hl=%E4%B8%8D%E6%95%AC#[\w.]+", href), href
    link.click()
    page.wait_for_function("() => CSS.highlights.has('search-hit')")
    unit_id = page.evaluate("decodeURIComponent(location.hash.slice(1))")
    lit = page.evaluate("""(id) => [...CSS.highlights.get('search-hit')].map(r => ({
        text: r.toString(), inside: document.getElementById(id).contains(r.commonAncestorContainer),
        top: r.getBoundingClientRect().top}))""", unit_id)
    assert lit and all(r["text"] == "不敬" and r["inside"] for r in lit)
    assert 0 <= lit[0]["top"] < 900                # on screen
    # as many as the unit's own text (not its nested notes) has
    own = page.evaluate("""(id) => { const e = document.getElementById(id).cloneNode(true);
        e.querySelectorAll('[data-layer], button, .tools, .mark').forEach(n => n.remove());
        return e.textContent; }""", unit_id)
    assert len(lit) == own.count("不敬")
    page.screenshot(path=str(SHOTS / "search-hit.png"))


def test_persons_search_links_to_the_persons_index(site, page, follow):
    search(page, site, "孔颖达")                 # simplified; the listPerson has 孔穎達
    people = page.locator(".search-persons [data-search-result][data-layer=person] a")
    assert people.count() == 1 and people.inner_text() == "孔穎達"
    assert people.get_attribute("href") == "persons.html#kongyingda"
    follow(page, people)
    assert page.locator("#kongyingda").is_visible()


def test_no_hit_says_so(site, page):
    status = search(page, site, "龘龘")
    assert "未找到" in status and "龘龘" in status
    assert page.locator("[data-search-result]").count() == 0


@pytest.mark.parametrize("query", ['<img src=x onerror="alert(1)">禮', "\"'><script>alert(1)</script>", "禮" * 5000])
def test_hostile_queries_are_shown_as_text(site, page, query):
    status = search(page, site, query)
    assert page.locator("main img, main script").count() == 0
    shown = query[:200]
    assert shown in status
    assert page.locator("input[data-search]").input_value() == shown


def test_the_index_is_the_same_bytes_with_two_processes(site, tmp_path):
    pages = json.loads(re.search(r"zhushuSearch\.manifest\((.*)\);", (site / "assets" / "search" / "manifest.js")
                                 .read_text(encoding="utf-8")).group(1))["pages"]
    # every page with units of text is in the index (not the index, work, persons … pages)
    reading = {p.name for p in site.glob("*.html") if ' data-layer="' in p.read_text(encoding="utf-8")}
    assert sorted(p[0] for p in pages) == sorted(reading) and len(reading) > len(TEIS)
    again = tmp_path / "again"
    sources = sorted(str(p) for p in site.parent.glob("kanripo-tei[0-9]*/*.xml"))
    render_html(TEIS + sources, str(again), jobs=2)
    one, two = site / "assets" / "search", again / "assets" / "search"
    assert sorted(p.name for p in one.iterdir()) == sorted(p.name for p in two.iterdir())
    assert all((one / p.name).read_bytes() == (two / p.name).read_bytes() for p in one.iterdir())


def test_a_site_without_the_index_says_so(tmp_path, browser):
    render_html(TEIS[:1], str(tmp_path))
    assert (tmp_path / "assets" / "search" / "manifest.js").exists()
    render_html(TEIS[:1], str(tmp_path), options=Options(search=False))   # again, without: no stale index
    assert not (tmp_path / "assets" / "search").exists()
    page = browser.new_page()                  # the missing files are console errors here
    page.goto((tmp_path / "search.html").as_uri() + "?q=" + quote("礼"))
    page.wait_for_function("() => document.querySelector('[data-search-status]').textContent.includes('未建')")
    page.close()
