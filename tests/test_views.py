"""The reading views as a reader meets them, in Debian's Chromium (never a downloaded browser),
from file://, on the site rendered from tei/ and, when /work/shared is there, one Kanripo 卷:
對照 sets each translation beside its original; 直排 opens at the beginning and moves forward
with the keys and the wheel, and switching keeps the place; no page is wider than a 390 px
screen; axe-core finds no serious or critical violation on any page; the text is a handful of tab
stops; cite buttons say what they cite; the 音義 popup shows at the glossed character."""
import os
import pathlib

import pytest

from pipeline.render import render_html

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
TEIS = sorted(str(p) for p in (ROOT / "tei").glob("[0-9]*.xml"))
KANRIPO = pathlib.Path("/work/shared/kanripo/WYG/KR1d0068/KR1d0068_001.txt")
DESKTOP = {"width": 1366, "height": 900}
MOBILE = {"width": 390, "height": 844}

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is installed by make test")
axe_playwright = pytest.importorskip("axe_playwright_python", reason="installed by make test (the test extra)")
AXE_JS = pathlib.Path(axe_playwright.__file__).parent / "axe.min.js"
if not os.path.exists(CHROMIUM):
    pytest.skip("Chromium is installed by make test (apt-get install chromium)", allow_module_level=True)

# The box of the first character of the first 經 piece (the start of the 卷's text).
FIRST_JING = """() => {
  const jing = document.querySelector('main [data-layer=jing]');
  const walk = document.createTreeWalker(jing, NodeFilter.SHOW_TEXT);
  let n = walk.nextNode();
  while (n && !n.data.trim()) n = walk.nextNode();
  const i = n.data.search(/\\S/), r = document.createRange();
  r.setStart(n, i); r.setEnd(n, i + 1);
  const b = r.getBoundingClientRect(), m = document.querySelector('main').getBoundingClientRect();
  return {left: b.left, right: b.right, top: b.top, bottom: b.bottom,
          main: {left: m.left, right: m.right, top: m.top, bottom: m.bottom}};
}"""

# Elements a Tab key press can land on.
TAB_STOPS = """(scope) => [...document.querySelectorAll(
    (scope ? scope + ' ' : '') + ':is(a[href], button, input, select, textarea, summary, [tabindex])')]
  .filter(e => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length
               && getComputedStyle(e).visibility !== 'hidden').length"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The seeds' pages, and a Kanripo 卷 of the 欽定禮記義疏 (traditional text, <pb> leaves)."""
    out = tmp_path_factory.mktemp("site")
    teis = list(TEIS)
    if KANRIPO.exists():
        from pipeline.convert import convert_file
        tei = str(tmp_path_factory.mktemp("kanripo") / (KANRIPO.stem + ".xml"))
        _, report = convert_file(str(KANRIPO), tei)
        assert not report.errors, report.errors
        teis.append(tei)
    render_html(teis, str(out))
    return out


def reading_pages(site):
    """The pages of the 卷 (each has the toolbar), not the site's own pages (index, work pages,
    persons, colophon, search)."""
    return sorted(p for p in site.glob("*.html") if 'class="toolbar"' in p.read_text(encoding="utf-8"))


@pytest.fixture
def open_page(browser, watch_errors):
    """open_page(path, viewport=DESKTOP, vertical=False, strict=True): a fresh context (empty
    localStorage, or the 直排 choice saved as a reader leaves it); console errors fail the test
    when strict (axe-core's own requests for the stylesheets fail from file://: not strict)."""
    contexts = []

    def open_(path, viewport=DESKTOP, vertical=False, strict=True):
        ctx = browser.new_context(viewport=viewport)
        if vertical:
            ctx.add_init_script("localStorage.setItem('zhushu.vertical', '1')")
        contexts.append(ctx)
        pg = watch_errors(ctx.new_page(), console=strict)
        pg.goto(path.as_uri())
        return pg

    yield open_
    for ctx in contexts:
        ctx.close()


# ----- 對照 ------------------------------------------------------------------------------------

def test_parallel_view_sets_each_translation_beside_its_original(site, open_page):
    pages = [p for p in reading_pages(site) if 'class="translation' in p.read_text(encoding="utf-8")]
    assert pages, "no page with a translation"
    for path in pages:
        pg = open_page(path)
        pg.click('[data-toggle="parallel"]')
        rows = pg.evaluate("""() => [...document.querySelectorAll('main p.translation[data-original]')].map(t => {
            const o = document.getElementById(t.dataset.original), tb = t.getBoundingClientRect();
            const prev = t.previousElementSibling;
            return {id: t.id, original: o.id, top: tb.top, left: tb.left, originalTop: o.getBoundingClientRect().top,
                    originalRight: o.getBoundingClientRect().right, sameEntry: t.closest('.entry') === o.closest('.entry'),
                    // a translation printed in pieces: the earlier piece, right before it
                    pieceAfter: prev && prev.matches('p.translation') && prev.dataset.original === t.dataset.original
                                ? prev.getBoundingClientRect().bottom : null};
        })""")
        assert len(rows) >= 80, path.name
        for r in rows:
            assert r["sameEntry"], (path.name, r["id"], r["original"])
            assert r["left"] > r["originalRight"], (path.name, r["id"])        # beside it, not below
            if r["pieceAfter"] is None:
                assert abs(r["top"] - r["originalTop"]) <= 40, (path.name, r)
            else:                       # goes on right below the piece before it, as one text
                assert 0 <= r["top"] - r["pieceAfter"] <= 12, (path.name, r)


# ----- 直排 ------------------------------------------------------------------------------------

def visible(box):
    m = box["main"]
    return (m["left"] <= box["left"] and box["right"] <= m["right"]
            and m["top"] <= box["top"] and box["bottom"] <= m["bottom"])


@pytest.mark.parametrize("viewport", [DESKTOP, MOBILE], ids=["desktop", "mobile"])
def test_vertical_opens_at_the_beginning_and_moves_forward(site, open_page, viewport):
    for path in reading_pages(site):
        pg = open_page(path, viewport, vertical=True)
        assert pg.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"], path.name
        start = pg.evaluate(FIRST_JING)
        assert visible(start) and start["right"] <= viewport["width"], (path.name, start)
        scroll = "() => document.querySelector('main').scrollLeft"
        if pg.evaluate("() => document.querySelector('main').scrollWidth") < 3 * viewport["width"]:
            continue                                     # a short 卷: no screen to turn
        before = pg.evaluate(scroll)
        pg.keyboard.press("PageDown")                    # forward: the columns move to the right
        after = pg.evaluate(FIRST_JING)
        assert after["left"] - start["left"] > viewport["width"] / 2, (path.name, start, after)
        assert pg.evaluate(scroll) < before
        pg.keyboard.press("Space")
        assert pg.evaluate(FIRST_JING)["left"] > after["left"] + viewport["width"] / 2
        pg.keyboard.press("PageUp")
        pg.keyboard.press("PageUp")
        assert visible(pg.evaluate(FIRST_JING)), path.name
        pg.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
        at = pg.evaluate(scroll)
        pg.mouse.wheel(0, 300)                           # the wheel, down: forward
        pg.wait_for_function(f"() => document.querySelector('main').scrollLeft <= {at - 250}")
        pg.keyboard.press("End")
        end = pg.evaluate("() => { const m = document.querySelector('main'); return [m.scrollLeft, m.scrollWidth - m.clientWidth]; }")
        assert abs(end[0] + end[1]) <= 1                 # the last column, at the left end
        pg.keyboard.press("Home")
        assert pg.evaluate(scroll) == 0


def test_vertical_swipe_up_moves_forward(site, browser):
    """On a touch screen a vertical swipe moves along the columns (up: forward, as on a page)."""
    path = next(p for p in reading_pages(site) if p.name.startswith("004"))
    ctx = browser.new_context(viewport=MOBILE, has_touch=True, is_mobile=True)
    ctx.add_init_script("localStorage.setItem('zhushu.vertical', '1')")
    pg = ctx.new_page()
    pg.goto(path.as_uri())
    cdp = ctx.new_cdp_session(pg)
    x, y = MOBILE["width"] / 2, MOBILE["height"] / 2

    def touch(kind, at):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": at}] if at else []})

    touch("touchStart", y)
    for step in range(1, 11):
        touch("touchMove", y - 20 * step)
    touch("touchEnd", None)
    scrolled = pg.evaluate("() => document.querySelector('main').scrollLeft")
    ctx.close()
    assert scrolled <= -150, scrolled


def test_switching_modes_keeps_the_place(site, open_page):
    for path in reading_pages(site):
        pg = open_page(path)
        units = pg.evaluate("() => [...document.querySelectorAll('main p.unit[id]')].map(u => u.id)")
        target = units[len(units) // 2]
        pg.evaluate(f"() => window.scrollTo(0, document.getElementById({target!r}).getBoundingClientRect().top + scrollY - 20)")
        box = f"() => {{ const b = document.getElementById({target!r}).getBoundingClientRect(); return [b.left, b.right, b.top, b.bottom]; }}"
        pg.click('[data-toggle="vertical"]')
        left, right, top, bottom = pg.evaluate(box)
        assert left < DESKTOP["width"] and right > 0 and top < DESKTOP["height"], (path.name, target)
        at_end = pg.evaluate("() => { const m = document.querySelector('main'); "
                             "return m.scrollLeft <= -(m.scrollWidth - m.clientWidth) + 1; }")
        # near the start of the screen, unless the 卷 ends before a screen's width
        assert right >= DESKTOP["width"] - 200 or at_end, (path.name, target, right)
        pg.click('[data-toggle="vertical"]')
        left, right, top, bottom = pg.evaluate(box)
        assert top < DESKTOP["height"] and bottom > 0, (path.name, target, top)


# ----- narrow screens ---------------------------------------------------------------------------

def test_no_page_is_wider_than_a_390_px_screen(site, open_page):
    for path in sorted(site.glob("*.html")):
        pg = open_page(path, MOBILE)
        assert pg.evaluate("() => document.documentElement.scrollWidth") <= MOBILE["width"], path.name
        if path in reading_pages(site):
            pg.click('[data-toggle="vertical"]')
            assert pg.evaluate("() => document.documentElement.scrollWidth") <= MOBILE["width"], path.name


def test_mobile_toolbar_stays_in_reach_and_the_text_starts_on_the_first_screen(site, open_page):
    for path in reading_pages(site):
        pg = open_page(path, MOBILE)
        head = pg.evaluate("() => document.querySelector('main').getBoundingClientRect().top")
        assert head < MOBILE["height"] / 2, (path.name, head)        # credits and legend fold away
        pg.evaluate("() => window.scrollTo(0, document.body.scrollHeight / 2)")
        bar = pg.evaluate("() => { const b = document.querySelector('nav.toolbar').getBoundingClientRect(); return [b.top, b.bottom]; }")
        assert 0 <= bar[0] and bar[1] <= MOBILE["height"] and bar[1] - bar[0] < 60, (path.name, bar)
        pg.locator('[data-toggle="vertical"]').click()                 # reachable, mid-卷
        assert pg.evaluate("() => getComputedStyle(document.querySelector('main')).writingMode") == "vertical-rl"


# ----- accessibility ---------------------------------------------------------------------------

def axe_violations(pg):
    pg.add_script_tag(path=str(AXE_JS))
    found = pg.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => v.id + ' (' + v.impact + ', ' + v.nodes.length + '): ' + v.nodes[0].target.join(' '))""")
    return found


@pytest.mark.parametrize("viewport", [DESKTOP, MOBILE], ids=["desktop", "mobile"])
def test_axe_finds_no_serious_violation_on_any_page(site, open_page, viewport):
    for path in sorted(site.glob("*.html")):
        pg = open_page(path, viewport, strict=False)
        assert axe_violations(pg) == [], path.name
    # the other views of a page with every kind of block
    page = next(p for p in reading_pages(site) if p.name.startswith("001"))
    for toggle in ("vertical", "parallel"):
        pg = open_page(page, viewport, strict=False)
        pg.click(f'[data-toggle="{toggle}"]')
        assert axe_violations(pg) == [], (page.name, toggle)


def test_the_text_is_a_few_tab_stops(site, open_page):
    """The 義疏 page had 1,440 tab stops (two per block, a link per scholar quoted …). Now the text
    is one tab stop, the current block, with its own controls behind it (permalink, citation,
    the links in it: a dozen at most); the rest are the toolbar's, the 目次's (a link per 篇) and
    a dozen of the site's: the skip link, breadcrumbs, the search field and its button, the 卷's
    TEI, PDF and neighbours above and below the text, the colophon."""
    path = next(p for p in reading_pages(site) if p.name.startswith("003"))
    pg = open_page(path)
    in_text = pg.evaluate(TAB_STOPS, "main")
    toolbar = pg.evaluate(TAB_STOPS, "nav.toolbar")
    toc = pg.evaluate(TAB_STOPS, "nav.toc")
    assert in_text <= 12, in_text
    assert pg.evaluate(TAB_STOPS, "") <= toolbar + in_text + toc + 12
    # the skip link, then Tab, lands on the text; ↓ goes on to the next block, shown
    pg.locator("a.skip").focus()
    pg.keyboard.press("Enter")
    pg.wait_for_function("() => location.hash === '#text'")
    pg.wait_for_timeout(100)                       # hashchange has run: the text opens at its start
    assert abs(pg.evaluate("() => document.querySelector('main').getBoundingClientRect().top")) < 200
    pg.keyboard.press("Tab")
    first = pg.evaluate("() => document.activeElement.id")
    assert pg.evaluate("() => document.activeElement.closest('main') !== null"), first
    pg.keyboard.press("ArrowDown")
    second = pg.evaluate("() => [document.activeElement.id, document.activeElement.getBoundingClientRect().top]")
    assert second[0] != first and 0 <= second[1] < DESKTOP["height"]
    # Tab goes into its controls, shown, and on past the text
    pg.keyboard.press("Tab")
    assert pg.evaluate(f"() => document.activeElement.closest('[id=\"{second[0]}\"]') !== null && "
                       "document.activeElement.getBoundingClientRect().width > 0")
    tools = pg.locator(f'[id="{second[0]}"] .tools').first
    assert tools.is_visible()


def test_cite_buttons_say_what_they_cite(site, open_page):
    for path in reading_pages(site):
        pg = open_page(path)
        names = pg.evaluate("() => [...document.querySelectorAll('button.cite')].map(b => b.getAttribute('aria-label'))")
        links = pg.evaluate("() => [...document.querySelectorAll('a.permalink')].map(a => a.getAttribute('aria-label'))")
        assert len(names) > 20 and len(set(names)) == len(names), path.name
        assert len(set(links)) == len(links), path.name
        assert all(n.startswith("複製引文：") and "「" in n for n in names), path.name
        assert pg.evaluate("() => document.querySelector('nav.toolbar').lang") == "zh-Hant"


def test_yinyi_popup_shows_at_the_glossed_character(site, open_page):
    path = next(p for p in reading_pages(site) if p.name.startswith("004"))
    pg = open_page(path)
    pairs = pg.evaluate("""() => [...document.querySelectorAll('main .glossed[data-yinyi]')].map(g =>
        [g.textContent, document.getElementById(g.dataset.yinyi.split(' ')[0]).querySelector('.term').textContent])""")
    assert len(pairs) > 20 and all(char == term for char, term in pairs)
    for i in (0, 5, 17):
        char = pg.locator("main .glossed[data-yinyi]").nth(i)
        char.scroll_into_view_if_needed()
        char.hover()
        tip = pg.locator("[role=tooltip]")
        tip.wait_for(state="visible")
        c, t = char.bounding_box(), tip.bounding_box()
        assert abs(t["x"] - c["x"]) <= 40 and 0 <= t["y"] - (c["y"] + c["height"]) <= 12, (c, t)
        pg.mouse.move(0, 0)


def test_hover_tools_leave_the_next_character_uncovered(site, open_page):
    path = next(p for p in reading_pages(site) if p.name.startswith("004"))
    pg = open_page(path)
    for zid in ("u1.z1", "u2.z1", "u3.z1"):
        pg.locator(f'[id="{zid}"]').hover()
        tools = pg.locator(f'[id="{zid}"] > .tools').bounding_box()
        after = pg.evaluate(f"""() => {{ const z = document.getElementById({zid!r}), r = document.createRange();
            const n = z.nextSibling && z.nextSibling.nodeType === 3 ? z.nextSibling : z.nextElementSibling;
            if (!n) return null;
            r.selectNodeContents(n); const b = r.getClientRects()[0]; return b && {{x: b.x, y: b.y, width: b.width, height: b.height}}; }}""")
        assert tools and tools["width"] > 0, zid
        if after:
            overlap = not (tools["x"] + tools["width"] <= after["x"] or after["x"] + after["width"] <= tools["x"]
                           or tools["y"] + tools["height"] <= after["y"] + 2 or after["y"] + after["height"] <= tools["y"])
            assert not overlap, (zid, tools, after)


# ----- 義疏 -------------------------------------------------------------------------------------

def test_a_category_filter_shows_only_the_entries_holding_it(site, open_page):
    path = next(p for p in reading_pages(site) if p.name.startswith("003"))
    pg = open_page(path)
    height = "() => document.querySelector('main').getBoundingClientRect().height"
    full = pg.evaluate(height)
    pg.click('[data-filter-category="cunyi"]')
    entries = pg.evaluate("""() => [...document.querySelectorAll('main .entry')].filter(e => e.getClientRects().length)
        .map(e => [...e.querySelectorAll('aside[data-category]')].filter(a => a.getClientRects().length).map(a => a.dataset.category))""")
    assert entries and all(cats and set(cats) == {"cunyi"} for cats in entries), entries
    assert pg.evaluate(height) < full / 4


def test_category_tags_read_without_the_source_stop(site, open_page):
    """存疑。 正义： in the e-text: the tag shows 存疑, 正义; the stop stays in the page's text."""
    pg = open_page(next(p for p in reading_pages(site) if p.name.startswith("001")))
    tags = pg.evaluate("() => [...document.querySelectorAll('main .category')].map(c => [c.innerText, c.textContent])")
    assert tags and all(not shown.endswith(("。", "：")) for shown, _ in tags)
    assert sum(text.endswith(("。", "：")) for _, text in tags) >= 10
