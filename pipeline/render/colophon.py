"""The colophon of the site: for each work, its source and edition as the TEI headers give them,
its licence and credit, and how the site was made (Zhushu's version and the reader of each file).
Text from Kanripo credits the Kanseki Repository; a website's provenance line, printed in the
e-text as page furniture (fw type="source"), is quoted here and not in the reading pages.
"""
from __future__ import annotations

from pipeline import __version__
from pipeline.render.plan import Work, juan_label, work_anchor
from pipeline.render.site import esc, href, lang_of, page, work_lang

KANRIPO = "https://www.kanripo.org/text/"


def _row(label: str, value: str, lang: str = "") -> str:
    at = f' lang="{lang}"' if lang else ""
    return f"<dt>{label}</dt><dd{at}>{value}</dd>" if value else ""


def _etext(name: str, url: str) -> str:
    """Who published an e-text, linked to where, when the header says."""
    if url.startswith(("https://", "http://")):
        return f'<a href="{esc(url)}">{esc(name or url)}</a>'
    return esc(name)


def _work(w: Work) -> str:
    pages = ([w.whole] if w.whole else []) + w.juans
    first = pages[0].source
    editions = list(dict.fromkeys(p.source.edition for p in pages if p.source.edition))
    printed = list(dict.fromkeys(p.source.printed for p in pages if p.source.printed))
    etexts = list(dict.fromkeys((p.source.publisher, p.source.url) for p in pages
                                if p.source.publisher or p.source.url))
    etext_licences = list(dict.fromkeys(p.source.etext_licence for p in pages if p.source.etext_licence))
    licences = list(dict.fromkeys(p.source.licence for p in pages if p.source.licence))
    readers = list(dict.fromkeys(p.source.reader for p in pages if p.source.reader))
    made = list(dict.fromkeys(p.source.zhushu for p in pages if p.source.zhushu))
    provenance = list(dict.fromkeys(x for p in pages for x in p.source.provenance if x))
    credit = ""
    if first.kanripo:
        credit = (f'Kanseki Repository 漢籍リポジトリ（<a href="{esc(KANRIPO + first.kanripo + "/")}">'
                  f'{esc(first.kanripo)}</a>）')
    files = ", ".join(f'<a href="{href(p.name)}">{esc(juan_label(p))}</a>' for p in w.juans)
    rows = "".join((
        _row("底本", esc(first.title), lang_of(first.title)),
        _row("版本", esc("；".join(editions))),
        _row("印本", esc("；".join(printed)), lang_of("".join(printed))),
        _row("來源", credit or "；".join(_etext(name, url) for name, url in etexts)),
        _row("電子文本許可", esc("；".join(etext_licences))),
        _row("網站出處", "<br>".join(esc(x) for x in provenance), lang_of("".join(provenance))),
        _row("許可", esc("；".join(licences)) if licences else "TEI 標頭未載許可"),
        _row("原檔", esc(first.filename) + (f"（{esc(first.date)}）" if first.filename and first.date else "")),
        _row("說明", esc(first.publication), "en"),
        _row("製作", esc(f"Zhushu {'、'.join(made) or __version__} 轉換為 TEI（讀取器：{'、'.join(readers)}），"
                         f"Zhushu {__version__} 生成網頁")),
        _row("所收", files),
    ))
    return (f'<section class="colophon" id="{esc(work_anchor(w))}">\n<h2><a href="{href(w.page)}" '
            f'lang="{work_lang(w)}">{esc(w.title)}</a></h2>\n<dl>{rows}</dl>\n</section>')


def colophon_page(works: list[Work], assets: str) -> str:
    return page("版本說明", "\n".join(_work(w) for w in works), assets)
