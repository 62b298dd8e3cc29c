"""The site around the pages: index of works and 卷, persons index, shared assets, --jobs."""
import pathlib
import re

import html5lib
import pytest

from pipeline.render import render_html

ROOT = pathlib.Path(__file__).resolve().parents[1]
TEIS = sorted(str(p) for p in (ROOT / "tei").glob("[0-9]*.xml"))


def parse_html(text):
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(text)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    written = render_html(TEIS, str(out))
    return out, written


def test_site_files(site):
    out, written = site
    names = [pathlib.Path(p).name for p in written]
    site_pages = ["index.html", "persons.html", "persons-pinyin.html", "colophon.html", "search.html"]
    assert names[:len(TEIS) + 5] == [pathlib.Path(t).stem + ".html" for t in TEIS] + site_pages
    assert len(names) == len(TEIS) + 5 + 4                # and a page for each of the 4 works
    assert (out / "assets" / "zhushu.css").stat().st_size > 1000
    assert (out / "assets" / "zhushu.js").stat().st_size > 1000
    for p in written:
        text = pathlib.Path(p).read_text(encoding="utf-8")
        parse_html(text)                         # strict HTML5
        # every local link and asset the page names exists in the site (it works from file://)
        # (a link out is a link, not a fetch: only the colophon credits its source's website)
        for attr, href in re.findall(r'(href|src)="([^"#]+)', text):
            if "://" in href and pathlib.Path(p).name == "colophon.html":
                continue
            assert "://" not in href, href       # nothing fetched from elsewhere
            assert (out / href).exists(), (p, href)


def test_index_groups_juan_under_their_work(site):
    out, _ = site
    doc = parse_html((out / "index.html").read_text(encoding="utf-8"))
    works = {s.find("h2/a").text: [(a.get("href"), a.text) for a in s.iter("a")][1:]
             for s in doc.iter("section")}
    assert works["周禮注疏"] == [("002_3cfb79cd5f7996b0.html", "卷十八"),
                              ("004_788d901eea474415.html", "卷三十八")]
    assert list(works)[0] == "禮記正義"          # works in the order the corpus gives them
    assert sum(len(v) for v in works.values()) == len(TEIS)


def test_persons_index_links_each_quotation(site):
    out, _ = site
    doc = parse_html((out / "persons.html").read_text(encoding="utf-8"))
    people = {s.get("id"): s for s in doc.iter("section")}
    ao = people["aojigong"]
    assert "敖繼公" in "".join(ao.find("h3").itertext())
    links = [a.get("href") for a in ao.iter("a") if "#" in a.get("href")]
    assert len(links) > 20 and all(l.startswith("003_2c7c22b06290c5d5.html#u") for l in links)
    # each link lands on a quotation attributed to him
    page = (out / "003_2c7c22b06290c5d5.html").read_text(encoding="utf-8")
    for href in links[:5]:
        frag = href.split("#")[1]
        assert re.search(rf'id="{re.escape(frag)}"', page)
    # commentators are credited with the layers they wrote, page by page, not note by note
    zheng = "".join(people["zhengxuan"].itertext())
    assert "周禮注疏 卷三十八 · 注 " in zheng


def test_jobs_render_the_same_site(site, tmp_path):
    out, written = site
    written2 = render_html(TEIS, str(tmp_path), jobs=2)
    assert [pathlib.Path(p).name for p in written2] == [pathlib.Path(p).name for p in written]
    for a, b in zip(written, written2):
        assert pathlib.Path(a).read_bytes() == pathlib.Path(b).read_bytes()
