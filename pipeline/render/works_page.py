"""A page per work: its 卷 in order, each with its 篇 (links into the reading page) and its TEI.

When the input holds the work's whole-work file (Kanripo: `zhushu convert KR… -o DIR` writes
DIR/KR….xml beside the 卷), its 目次 orders the page: each entry links to the leaf where it
begins in its 卷 (the leaf anchors html.xsl gives each <pb>), and an entry whose 卷 is not in the
site is listed as such, so the reader sees what the edition has and what this site holds.
"""
from __future__ import annotations

import re

from pipeline.render.pages import PageInfo
from pipeline.render.plan import Work, juan_label, tei_href
from pipeline.render.site import crumbs, esc, href, lang_of, page, work_lang

_LEAF = re.compile(r"^0*(\d+)-(\d+[ab]?)$")


def leaf_anchor(n: str) -> str:
    """The id html.xsl gives the <pb n> of a leaf, from a 目次 entry's leaf (000-13a → pb-0-13a)."""
    m = _LEAF.match(n)
    return f"pb-{m.group(1)}-{m.group(2)}" if m else ""


def _sections(p: PageInfo) -> str:
    """The 篇 of a page, nested by depth (the 卷 heading itself, depth 1, is the entry)."""
    lis = [f'<li class="depth-{d}"><a href="{href(p.name, div)}" lang="{p.lang}">{esc(head)}</a></li>'
           for div, head, d in p.sections if d > 1]
    return f'<ol class="pian-list">{"".join(lis)}</ol>' if lis else ""


def _juan_entry(p: PageInfo, label: str = "") -> str:
    label = label or juan_label(p)
    return (f'<li class="juan"><a class="juan-link" href="{href(p.name)}" lang="{lang_of(label, p.lang)}">{esc(label)}</a>'
            f' <a class="tei-link" href="{href(tei_href(p))}" type="application/tei+xml">TEI</a>'
            f'{_sections(p)}</li>')


def _from_contents(w: Work) -> list[str]:
    """The whole-work file's 目次, grouped by the 卷 file each entry is in."""
    by_file = {p.path.replace("\\", "/").rsplit("/", 1)[-1]: p for p in w.juans}
    lis, seen = [], set()
    for entry, target, leaf in w.whole.contents:
        # under the work's name an entry is named without it (禮記註疏 卷一 → 卷一)
        label = entry.removeprefix(w.title).strip() or entry
        p = by_file.get(target)
        if p is None:
            lis.append(f'<li class="juan absent"><span lang="{lang_of(label)}">{esc(label)}</span>'
                       f' <span class="note">（本站未收）</span></li>')
            continue
        anchor = leaf_anchor(leaf)
        if p.name in seen:              # a later entry in the same 卷 (its 考證 …): a link to its leaf
            lis.append(f'<li class="part"><a href="{href(p.name, anchor)}" lang="{lang_of(label, p.lang)}">{esc(label)}</a></li>')
        else:
            seen.add(p.name)
            lis.append(_juan_entry(p, label))
    lis += [_juan_entry(p) for p in w.juans if p.name not in seen]
    return lis


def work_page(w: Work, assets: str) -> str:
    lis = _from_contents(w) if w.whole is not None else [_juan_entry(p) for p in w.juans]
    body = '<ol class="work-contents">\n' + "\n".join(lis) + "\n</ol>"
    if w.whole is not None:
        body += (f'\n<p class="whole-tei"><a href="{href(tei_href(w.whole))}" type="application/tei+xml">'
                 f'全書目次 TEI</a></p>')
    trail = crumbs(("目錄", "index.html", "zh-Hant"), (w.title, "", work_lang(w)))
    return page(w.title, body, assets, trail, work_lang(w))
