"""The pages of the web edition that span files, and the frame they share: the index of works
and 卷 here; the work pages, the persons index and the colophon in works_page.py,
persons_page.py and colophon.py. Each is built from the plan of the site (plan.py) alone.
"""
from __future__ import annotations

import html
from urllib.parse import quote

from pipeline import hanzi
from pipeline.render import search
from pipeline.render.plan import COLOPHON, INDEX, PERSONS, Work, juan_label

__all__ = ["INDEX", "PERSONS", "index_page", "page", "href", "esc", "lang_of"]


def href(name: str, frag: str = "") -> str:
    return html.escape(quote(name) + ("#" + quote(frag) if frag else ""), quote=True)


def esc(s: str) -> str:
    return html.escape(s, quote=True)


def lang_of(text: str, otherwise: str = "lzh") -> str:
    """The lang attribute of a title or name from its characters: lzh-Hans or lzh-Hant, else
    `otherwise` (卷二十九 is written alike in both: the script of the page it names)."""
    found = hanzi.script(text)
    return f"lzh-{found}" if found else otherwise


def work_lang(w: Work) -> str:
    pages = ([w.whole] if w.whole else []) + w.juans
    return lang_of(w.title, pages[0].lang if pages else "lzh")


def crumbs(*trail: tuple[str, str, str]) -> str:
    """Breadcrumbs: (label, href, lang) from the index down; the last is this page (no link)."""
    items = []
    for i, (label, target, lang) in enumerate(trail):
        if i == len(trail) - 1:
            items.append(f'<li aria-current="page" lang="{lang}">{esc(label)}</li>')
        else:
            items.append(f'<li><a href="{href(target)}" lang="{lang}">{esc(label)}</a></li>')
    return '<nav class="breadcrumbs" aria-label="位置"><ol>' + "".join(items) + "</ol></nav>"


def page(title: str, body: str, assets: str, trail: str = "", title_lang: str = "zh-Hant") -> str:
    """The frame of a site page: the site's links, its breadcrumbs, its title, then `body`. The
    site's own words are traditional characters (zh-Hant); a title from the texts says its own
    script. (The masthead's h1 is followed by the site's search field, as on the reading pages.)"""
    return f"""<!DOCTYPE html>
<html lang="zh-Hant">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Zhushu">
<title>{esc(title)}</title>
<link rel="stylesheet" href="{esc(assets)}zhushu.css">
</head>
<body class="site-index">
<header class="masthead">
<nav class="site-links" aria-label="網站"><a href="{INDEX}">目錄</a> · <a href="{PERSONS}">人名索引</a> · <a href="{COLOPHON}">版本說明</a></nav>
{trail}
<h1 lang="{title_lang}">{esc(title)}</h1>
{search.field(assets)}
</header>
<main>
{body}
</main>
</body>
</html>
"""


def index_page(works: list[Work], assets: str) -> str:
    """Works in order of first appearance, each with a link to its page and its 卷 in input order."""
    parts = []
    for w in works:
        lis = "\n".join(f'<li><a href="{href(p.name)}" lang="{lang_of(juan_label(p), p.lang)}">{esc(juan_label(p))}</a></li>'
                        for p in w.juans)
        parts.append(f'<section class="work">\n<h2><a href="{href(w.page)}" lang="{work_lang(w)}">'
                     f'{esc(w.title)}</a></h2>\n<ol class="juan-list">\n{lis}\n</ol>\n</section>')
    return page("目錄", "\n".join(parts), assets)
