"""Screenshots of each view of the web edition, for a person to look at: the default page, 直排,
對照, a 義疏 category filter and an 音義 popup, at 1366×900 (desktop) and 390×844 (mobile), into
docs/screenshots/view-<view>-<desktop|mobile>.png. Renders the seeds in tei/ to a temporary
site first (or takes one: --site DIR). Debian's Chromium, never a downloaded browser.

    PYTHONPATH=$PWD .venv/bin/python scripts/screenshots.py
"""
import argparse
import pathlib
import sys
import tempfile

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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=pathlib.Path, help="a rendered site (default: render tei/)")
    ap.add_argument("-o", "--out", type=pathlib.Path, default=ROOT / "docs" / "screenshots")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = pathlib.Path(tmp)
            render_html(sorted(str(p) for p in (ROOT / "tei").glob("*.xml")), str(site))
        args.out.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for size, (width, height) in SIZES.items():
                for name, show in VIEWS.items():
                    ctx = browser.new_context(viewport={"width": width, "height": height})
                    pg = ctx.new_page()
                    pg.mouse.move(0, 0)
                    show(pg, site)
                    if name != "yinyi":
                        pg.mouse.move(0, 0)             # no stray hover where the click was
                    pg.wait_for_timeout(150)
                    path = args.out / f"view-{name}-{size}.png"
                    pg.screenshot(path=str(path))
                    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                    ctx.close()
            browser.close()


if __name__ == "__main__":
    main()
