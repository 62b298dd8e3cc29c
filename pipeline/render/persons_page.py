"""The persons index: every scholar of the corpus with the layers they wrote (counted, each
count a link to the first of those notes) and each quotation of them (a link to its place,
named by 卷 · 篇, with its opening words).

Two orders of the same entries, as two static pages with a switch between them: by dynasty
(persons.html), the order a reader of the commentaries thinks in, and by pinyin
(persons-pinyin.html). The TEI gives each person a floruit that is a dynasty and no dates, so
within a dynasty the order is by pinyin too; a dynasty this table does not know comes last.
"""
from __future__ import annotations

from pypinyin import lazy_pinyin

from pipeline.render.pages import LAYER_NAMES, PageInfo
from pipeline.render.plan import PERSONS, PERSONS_PINYIN, juan_label
from pipeline.render.site import crumbs, esc, href, lang_of, page

# The dynasties of the scholars of data/scholars.tsv, in time; both scripts of each name.
DYNASTIES = ("周", "秦", "西漢", "西汉", "漢", "汉", "東漢", "东汉", "吳", "吴", "曹魏", "魏", "蜀",
             "西晉", "西晋", "晉", "晋", "東晉", "东晋", "南朝宋", "南齊", "南齐", "梁", "陳", "陈",
             "北魏", "北齊", "北齐", "北周", "隋", "唐", "五代", "宋", "遼", "辽", "金", "元", "明", "清")
_RANK = {d: i for i, d in enumerate(DYNASTIES)}


def pinyin(name: str) -> str:
    """The name in toneless pinyin, syllables apart (鄭玄 → zheng xuan): the sort key and the
    label of the pinyin order."""
    return " ".join(lazy_pinyin(name))


def _people(pages: list[PageInfo]) -> dict[str, tuple[str, str]]:
    people: dict[str, tuple[str, str]] = {}
    for p in pages:
        for pid, who in p.persons.items():
            people.setdefault(pid, who)
    return people


def _rows(pid: str, pages: list[PageInfo]) -> list[str]:
    rows = []
    for p in pages:
        title = f'<a href="{href(p.name)}" lang="{lang_of(p.title, p.lang)}">{esc(p.title)}</a>'
        for layer, label in LAYER_NAMES.items():
            ids = p.written.get((pid, layer))
            if ids:
                rows.append(f'<li>{title} · {label} <a class="count" href="{href(p.name, ids[0])}" '
                            f'title="第一條">{len(ids)}</a></li>')
        quotes = [q for q in p.quotes if q[0] == pid]
        if quotes:
            items = "".join(
                f'<li><a href="{href(p.name, xid)}">{esc(" · ".join(x for x in (place.juan, place.pian) if x) or juan_label(p))}</a>'
                f' <q lang="{p.lang}">{esc(excerpt)}</q></li>' for _, xid, excerpt, place in quotes)
            rows.append(f'<li>{title} · 引 <a class="count" href="{href(p.name, quotes[0][1])}" '
                        f'title="第一條">{len(quotes)}</a><ol class="quotes">{items}</ol></li>')
    return rows


def _entry(pid: str, name: str, floruit: str, rows: list[str], show_pinyin: bool) -> str:
    fl = f' <span class="floruit">{esc(floruit)}</span>' if floruit else ""
    py = f' <span class="pinyin" lang="zh-Latn-pinyin">{esc(pinyin(name))}</span>' if show_pinyin else ""
    return (f'<section class="person" id="{esc(pid)}">\n<h3><span lang="{lang_of(name)}">{esc(name)}</span>{fl}{py}</h3>\n'
            f'<ul>\n' + "\n".join(rows) + "\n</ul>\n</section>")


def _switch(current: str) -> str:
    links = []
    for name, label in ((PERSONS, "依朝代"), (PERSONS_PINYIN, "依拼音")):
        at = ' aria-current="page"' if name == current else ""
        links.append(f'<a href="{name}"{at}>{label}</a>')
    return '<nav class="order-switch" aria-label="排序">' + " · ".join(links) + "</nav>"


def persons_pages(pages: list[PageInfo], assets: str) -> dict[str, str]:
    """persons.html (by dynasty, a heading per dynasty) and persons-pinyin.html (a heading per
    initial)."""
    people = _people(pages)
    rows = {pid: _rows(pid, pages) for pid in people}
    listed = [pid for pid in people if rows[pid]]
    by_pinyin = sorted(listed, key=lambda pid: (pinyin(people[pid][0]), people[pid][0]))
    by_dynasty = sorted(by_pinyin, key=lambda pid: _RANK.get(people[pid][1], len(DYNASTIES)))
    out = {}
    for name, order in ((PERSONS, by_dynasty), (PERSONS_PINYIN, by_pinyin)):
        parts, group = [_switch(name)], None
        for pid in order:
            who, floruit = people[pid]
            heading = (floruit or "朝代未詳") if name == PERSONS else pinyin(who)[:1].upper()
            if heading != group:
                group = heading
                parts.append(f'<h2 class="group">{esc(heading)}</h2>')
            parts.append(_entry(pid, who, floruit, rows[pid], name == PERSONS_PINYIN))
        trail = crumbs(("目錄", "index.html", "zh-Hant"), ("人名索引", "", "zh-Hant"))
        out[name] = page("人名索引", "\n".join(parts) if order else "<p>無</p>", assets, trail)
    return out
