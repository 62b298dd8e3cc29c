"""Search in the web edition: the field every page carries (a plain GET form to search.html, so it
works without script too) and the search page itself, whose results search.js makes from the
index of search_index.py. The reading pages get the same field from xslt/search.xsl.
"""
from __future__ import annotations

import html

PAGE = "search.html"
ASSET_FILES = ("search.css", "search.js")

# The layers a reader can restrict a search to, in the order of the toolbar, with their names.
FILTERS = (("jing", "經"), ("zhu", "注"), ("yinyi", "音義"), ("shu", "疏"), ("yishu", "義疏"),
           ("an", "案"), ("translation", "譯"))


def _e(s: str) -> str:
    return html.escape(s, quote=True)


def field(assets: str, query: str = "") -> str:
    """The search field, its style and its script: the same markup as xslt/search.xsl."""
    return (f'<link rel="stylesheet" href="{_e(assets)}search.css">'
            f'<script src="{_e(assets)}search.js" defer></script>'
            f'<form class="search-form" role="search" action="{PAGE}" method="get">'
            f'<input type="search" name="q" data-search value="{_e(query)}" aria-label="檢索全文"'
            f' placeholder="檢索" lang="lzh" maxlength="200" autocomplete="off">'
            f'<button type="submit">檢索</button></form>')


def page_body() -> str:
    """The body of search.html below its masthead: the layer filters, the status line and the
    result lists, filled by search.js (the text says what to do without script)."""
    boxes = "\n".join(
        f'<label><input type="checkbox" name="layer" value="{v}" data-search-layer="{v}"> {n}</label>'
        for v, n in FILTERS)
    return f"""<form class="search-filters" aria-label="檢索範圍">
<fieldset>
<legend>只檢索（不選則全部）</legend>
{boxes}
</fieldset>
</form>
<p class="search-status" role="status" aria-live="polite" data-search-status>檢索須用瀏覽器腳本。</p>
<section class="search-persons" aria-label="人名" hidden>
<h2>人名</h2>
<ol data-search-persons></ol>
</section>
<section class="search-texts" aria-label="原文">
<ol class="search-results" data-search-results></ol>
<button type="button" class="search-more" data-search-more hidden>顯示更多</button>
</section>"""


def listed_persons(infos) -> list[str]:
    """The ids of the persons the persons index lists (those who wrote a layer or are quoted:
    persons_page.py), ordered by name, for the search of persons."""
    people: dict[str, str] = {}
    for info in infos:
        for pid, (name, _) in info.persons.items():
            people.setdefault(pid, name)
    shown = {who for info in infos for who, _ in info.written} | {q[0] for info in infos for q in info.quotes}
    return [pid for pid, _ in sorted(people.items(), key=lambda kv: kv[1]) if pid in shown]
