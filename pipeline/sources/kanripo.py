"""What a Kanripo repository gives beside a 卷 file: the work's Readme.org (title, editions,
table of contents), the page images of its `_data` branch (imglist), and Kanripo's table of the
characters Unicode lacks (the KR-Gaiji repository). A clone keeps them side by side:

    KR1d0053/            the text repository (any branch): Readme.org, KR1d0053_001.txt …
    _data/KR1d0053/imglist/KR1d0053_001.txt     page id → image file, per 卷
    KR-Gaiji/charlist.org.txt                   KR0427 → its form, normal form, image

`Context.near(path)` finds them (in the file's directory or up to three levels above), or
takes them from the command line (`--imglist`, `--gaiji`, `--facs-base`); `for_file` gives the
`Edition` the TEI header and facsimile are written from.
"""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field

from pipeline.errors import PipelineError
from pipeline.sources import mandoku

# Kanripo's character images, for a reader with no font for a gaiji.
GAIJI_IMAGES = "https://raw.githubusercontent.com/kanripo/KR-Gaiji/master/"
_FILE = re.compile(r"(?P<id>KR\d[a-z]\d{4})_(?P<juan>\d{3})\.txt$")


@dataclass
class Edition:
    """A Kanripo 卷 file's edition and the furniture of its header."""
    work_id: str                        # KR1d0053
    file: str                           # KR1d0053_001.txt
    title: str = ""                     # #+TITLE (or Readme.org's)
    edition: str = ""                   # WYG
    edition_name: str = ""              # 四庫全書・文淵閣
    date: str = ""                      # #+DATE
    properties: dict = field(default_factory=dict)
    comments: list = field(default_factory=list)          # (line, text)
    pages: list = field(default_factory=list)             # (mandoku.Page, image path or "")
    gaiji: list = field(default_factory=list)             # Gaiji rows used, by id
    gaiji_table: str = ""               # where they came from ("" when the table was not found)
    facs_base: str = ""                 # prefix making the image paths absolute URLs
    contents: list = field(default_factory=list)          # Readme.org entries of this file


@dataclass(frozen=True)
class Options:
    """Where the context is when it is not beside the files (`zhushu convert --gaiji --imglist
    --facs-base`)."""
    gaiji: str | None = None            # KR-Gaiji/charlist.org.txt
    imglist: str | None = None          # _data/<ID>/imglist
    facs_base: str = ""                 # e.g. http://img.kanripo.org/general/skqs/wyg/


@functools.lru_cache(maxsize=16)
def _near(here: str, work_id: str, gaiji, imglist, facs_base) -> "Context":
    return Context._find(here, work_id, gaiji, imglist, facs_base)


@dataclass
class Context:
    readme: Readme | None = None
    gaiji: dict = field(default_factory=dict)
    gaiji_table: str = ""
    imglist_dir: str | None = None
    facs_base: str = ""

    @classmethod
    def near(cls, path: str, gaiji: str | None = None, imglist: str | None = None,
             facs_base: str = "") -> "Context":
        """The context of a file: found once per directory (a work's 卷 share it)."""
        return _near(os.path.dirname(os.path.abspath(path)), os.path.basename(path)[:8], gaiji,
                     imglist, facs_base)

    @classmethod
    def _find(cls, here: str, work_id: str, gaiji: str | None, imglist: str | None,
              facs_base: str) -> "Context":
        readme_path = os.path.join(here, "Readme.org")
        ctx = cls(read_readme(readme_path) if os.path.exists(readme_path) else None,
                  facs_base=facs_base)
        table = gaiji or find_near(here, os.path.join("KR-Gaiji", "charlist.org.txt"))
        if table:
            ctx.gaiji, ctx.gaiji_table = read_gaiji_table(table), table
        if imglist:
            ctx.imglist_dir = imglist
        elif re.fullmatch(r"KR\d[a-z]\d{4}", work_id):
            ctx.imglist_dir = find_near(here, os.path.join("_data", work_id, "imglist"))
        return ctx

    def gaiji_char(self, gid: str) -> str:
        """The character a gaiji is written with in the text: its own, when Unicode (or
        Kanripo's private area) has one, else one of ours (mandoku.GAIJI_BASE)."""
        row = self.gaiji.get(gid)
        if row is not None and len(row.form) == 1:
            return row.form
        return mandoku.default_gaiji_char(gid)

    def for_file(self, src) -> Edition:
        doc = src.mandoku
        name = os.path.basename(src.name)
        pages = doc.pages()
        m = _FILE.search(name)
        work_id = doc.properties.get("ID") or (m["id"] if m else "") or (pages[0].work if pages else "")
        code = (doc.properties.get("BASEEDITION") or doc.properties.get("WITNESS") or
                (pages[0].edition if pages else "")).strip()
        ed = Edition(work_id, name, doc.title or (self.readme.title if self.readme else ""), code,
                     date=doc.date, properties=dict(doc.properties), comments=list(doc.comments),
                     gaiji_table=self.gaiji_table, facs_base=self.facs_base)
        if self.readme is not None:
            ed.edition_name = next((n for c, n in self.readme.editions if c == code), "")
            ed.contents = [c for c in self.readme.contents if c[0] == name]
        images = {}
        if self.imglist_dir and m:
            images = read_imglist(os.path.join(self.imglist_dir, f"{m['id']}_{m['juan']}.txt"))
        # a page printed twice (SBCK: two images of one page) is one surface
        seen: set[str] = set()
        ed.pages = [(p, images.get(p.key, "")) for p in pages if not (p.key in seen or seen.add(p.key))]
        ed.gaiji = [self.gaiji.get(g) or Gaiji(g) for g in doc.gaiji_ids()]
        return ed


# -- the files beside a 卷 file: Readme.org, the gaiji table, the image lists ---------------------
@dataclass
class Readme:
    title: str = ""
    editions: list[tuple[str, str]] = field(default_factory=list)    # (code, name)
    contents: list[tuple[str, str, str]] = field(default_factory=list)  # (file, page key, title)


_README_LINK = re.compile(r"\[\[file:(?P<file>[^\]:]+)(?:::(?P<page>[^\]]+))?\]\[(?P<title>[^\]]*)\]\]")
_README_EDITION = re.compile(r"^\s*\|\s*(?P<code>[A-Za-z0-9]+)\s*\|\s*【?(?P<name>[^|】]*)】?\s*\|")


def read_readme(path: str) -> Readme | None:
    """The repository's Readme.org: its title, editions (版本) and table of contents (目次)."""
    from pipeline import files
    try:
        data = files.read_regular(path, 4 * 1024 * 1024)
    except PipelineError:
        return None
    r = Readme()
    for raw in data.decode("utf-8", "replace").split("\n"):
        m = mandoku.META.match(raw)
        if m and m.group("key") == "TITLE":
            r.title = m.group("value").split(" / ")[0].strip()
            continue
        m = _README_EDITION.match(raw)
        if m:
            r.editions.append((m.group("code"), m.group("name").strip()))
            continue
        m = _README_LINK.search(raw)
        if m:
            r.contents.append((m.group("file"), m.group("page") or "", m.group("title")))
    return r


@dataclass
class Gaiji:
    """One row of Kanripo's character table (KR-Gaiji/charlist.org.txt)."""
    id: str
    form: str = ""           # its character in Unicode (or Kanripo's private character), if any
    normalized: str = ""     # its normal form: a character, `X?`, `X:4,Y:1`, a formula or IDS
    image: str = ""          # images/KR0427.png


def read_gaiji_table(path: str) -> dict[str, Gaiji]:
    from pipeline import files
    table: dict[str, Gaiji] = {}
    data = files.read_regular(path, 32 * 1024 * 1024)
    for raw in data.decode("utf-8", "replace").split("\n"):
        cols = raw.split("\t")
        if len(cols) < 2 or not re.fullmatch(r"KR\d{4}", cols[0]):
            continue
        image = re.search(r"\[\[file:([^\]]+)\]\]", cols[4]) if len(cols) > 4 else None
        table[cols[0]] = Gaiji(cols[0], cols[2].strip() if len(cols) > 2 else "",
                               cols[3].strip() if len(cols) > 3 else "",
                               image.group(1) if image else "")
    return table


def find_near(start: str, *relative: str) -> str | None:
    """The first of `relative` paths that exists in `start` or one of the directories above it
    (a Kanripo checkout keeps KR-Gaiji and the _data branch beside the text repositories)."""
    d = os.path.abspath(start)
    for _ in range(4):
        for rel in relative:
            p = os.path.join(d, rel)
            if os.path.exists(p):
                return p
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return None


def read_imglist(path: str) -> dict[str, str]:
    """page key (003-1a) → image path (WYG0115/WYG0115-0025c.png), for the pages that have one."""
    from pipeline import files
    out: dict[str, str] = {}
    try:
        data = files.read_regular(path, 16 * 1024 * 1024)
    except PipelineError:
        return out
    for raw in data.decode("utf-8", "replace").split("\n"):
        cols = raw.split("\t")
        if len(cols) >= 3 and cols[2].strip() and "missing" not in cols[2]:
            key = cols[1].split()[-1] if cols[1].strip() else cols[0][:-2]
            out[key] = cols[2].strip()
    return out
