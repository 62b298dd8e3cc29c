"""Screenshots of the web edition, for a person to look at, at 1366×900 (desktop) and 390×844
(mobile), into docs/screenshots/: each view (view-<view>-<size>.png: the default page, 直排, 對照,
a 義疏 category filter, an 音義 popup), the site's navigation (nav-<page>-<size>.png: a Kanripo
reading page with its 目次 and leaves, its work page, the persons index) and search
(search-<size>.png, search-hit.png: the page a result opens). Renders the seeds in tei/ and the
small Kanripo work of tests/fixtures/kanripo-nav to a temporary site first (or takes one: --site
DIR). Debian's Chromium, never a downloaded browser.

    PYTHONPATH=$PWD .venv/bin/python scripts/screenshots.py
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile
from urllib.parse import quote

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.render import render_html  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
SIZES = {"desktop": (1366, 900), "mobile": (390, 844)}
PAGES = {"zhushu": "004", "parallel": "001", "yishu": "003"}


def page_url(site, seed):
    return next(site.glob(f"{seed}_*.html")).as_uri()


def default_view(pg, site):
    pg.goto(page_url(site, PAGES["zhushu"]))


def vertical_view(pg, site):
    pg.goto(page_url(site, PAGES["zhushu"]))
    pg.click('[data-toggle="vertical"]')


def parallel_view(pg, site):
    pg.goto(page_url(site, PAGES["parallel"]))
    pg.click('[data-toggle="parallel"]')
    pg.evaluate("() => document.getElementById('u1').scrollIntoView({block: 'start'})")


def category_view(pg, site):
    pg.goto(page_url(site, PAGES["yishu"]))
    pg.click('[data-filter-category="cunyi"]')
    pg.evaluate("() => window.scrollTo(0, 0)")


def yinyi_view(pg, site):
    pg.goto(page_url(site, PAGES["zhushu"]))
    glossed = pg.locator('[id="u1.j1"] .glossed').first
    glossed.scroll_into_view_if_needed()
    glossed.hover()
    pg.locator("[role=tooltip]").wait_for(state="visible")


VIEWS = {"default": default_view, "vertical": vertical_view, "parallel": parallel_view,
         "category": category_view, "yinyi": yinyi_view}


def nav_reading(pg, site):
    pg.goto(next(site.glob("KR9z0002_001.html")).as_uri())


def nav_work(pg, site):
    pg.goto(next(site.glob("KR9z0002.html")).as_uri())


def nav_persons(pg, site):
    pg.goto((site / "persons.html").as_uri())


def search_page(pg, site):
    pg.goto((site / "search.html").as_uri() + "?q=" + quote("不敬"))
    pg.locator("[data-search-result]").first.wait_for()


def search_hit(pg, site):
    search_page(pg, site)
    pg.locator("[data-search-result] a").nth(1).click()
    pg.wait_for_load_state()


SHOTS = {**{f"view-{name}": show for name, show in VIEWS.items()},
         "nav-reading": nav_reading, "nav-work": nav_work, "nav-persons": nav_persons,
         "search": search_page}
ONCE = {"search-hit": search_hit}                  # desktop only


def render_site(site: pathlib.Path, tmp: pathlib.Path) -> None:
    teis = sorted(str(p) for p in (ROOT / "tei").glob("*.xml"))
    work = tmp / "kanripo"
    subprocess.run([sys.executable, "-m", "pipeline", "convert", "-q", "-o", str(work),
                    str(ROOT / "tests" / "fixtures" / "kanripo-nav" / "KR9z0002")], check=True, cwd=ROOT)
    render_html(teis + sorted(str(p) for p in work.glob("*.xml")), str(site))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=pathlib.Path, help="a rendered site (default: render tei/)")
    ap.add_argument("-o", "--out", type=pathlib.Path, default=ROOT / "docs" / "screenshots")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = pathlib.Path(tmp) / "site"
            render_site(site, pathlib.Path(tmp))
        args.out.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for size, (width, height) in SIZES.items():
                shots = {**SHOTS, **ONCE} if size == "desktop" else SHOTS
                for name, show in shots.items():
                    ctx = browser.new_context(viewport={"width": width, "height": height})
                    pg = ctx.new_page()
                    pg.mouse.move(0, 0)
                    show(pg, site)
                    if name != "view-yinyi":
                        pg.mouse.move(0, 0)             # no stray hover where the click was
                    pg.wait_for_timeout(150)
                    path = args.out / (f"{name}.png" if name in ONCE else f"{name}-{size}.png")
                    pg.screenshot(path=str(path))
                    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                    ctx.close()
            browser.close()


if __name__ == "__main__":
    main()
