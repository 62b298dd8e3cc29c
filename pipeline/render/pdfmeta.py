"""The PDF's metadata, from the TEI header, and the same bytes on every run.

Chromium writes only a Title, its user agent as Creator, Skia as Producer and the time of printing
as both dates, so no two runs gave the same file. Each printed PDF is rewritten once (pikepdf) with
what the TEI says: Title (work and 卷), Author (the header's author and editors: the 注's author
and the commentators), Subject (the 四庫 class and the kind of text), Keywords, the language (the
catalogue's /Lang and XMP dc:language), Creator and Producer naming Zhushu, the same in the Info
dictionary and in XMP. The dates are SOURCE_DATE_EPOCH's when it is set, else the TEI's own
(publicationStmt/date, else the latest revisionDesc/change/@when), else there are none; the
document /ID is a hash of the content (qpdf's deterministic id), so the same TEI gives the same
bytes and a different one a different /ID.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone

from pipeline import __version__
from pipeline.constants import TEI, XML_LANG
from pipeline.errors import PipelineError
from pipeline.render.pages import titles
from pipeline.tei.shared import SIKU_NAMES

CREATOR = f"Zhushu {__version__} (TEI → HTML by its print stylesheet → PDF by Chromium)"


@dataclass(frozen=True)
class PdfMeta:
    """What one PDF says about itself."""
    title: str
    authors: tuple[str, ...]
    subject: str
    keywords: tuple[str, ...]
    lang: str
    date: datetime | None


def _text(el) -> str:
    return " ".join("".join(el.itertext()).split()) if el is not None else ""


def metadata(tree, environ=os.environ) -> PdfMeta:
    """The metadata of the PDF of a TEI tree (as render.xslt.load_tei returns it: psn: pointers
    joined, the persons in its standOff)."""
    root = tree.getroot() if hasattr(tree, "getroot") else tree
    ts = root.find(f"{TEI}teiHeader/{TEI}fileDesc/{TEI}titleStmt")
    title, work, juan = titles(root.find(f"{TEI}teiHeader"))      # as the web edition names it
    authors = _unique(_text(el) for el in (ts.iter(f"{TEI}author", f"{TEI}editor") if ts is not None else []))
    siku = _siku(root)
    kind = _kind(root)
    subject = " ".join(siku) + (" · " if siku and kind else "") + kind
    quoted = _unique(_person_name(p) for p in root.iterfind(f"{TEI}standOff/{TEI}listPerson/{TEI}person"))
    keywords = _unique([work, juan, *siku, kind, *authors, *quoted])
    text = root.find(f"{TEI}text")
    lang = (text.get(XML_LANG) if text is not None else None) or root.get(XML_LANG) or "lzh"
    return PdfMeta(title, authors, subject, keywords, lang, _date(root, environ))


def _unique(items) -> tuple[str, ...]:
    return tuple(dict.fromkeys(x for x in items if x))


def _siku(root) -> list[str]:
    """The 部, 類 and 屬 of the file's catRef (cat:siku.jing.li.liji → 經部 禮類 禮記之屬)."""
    for ref in root.iterfind(f"{TEI}teiHeader/{TEI}profileDesc/{TEI}textClass/{TEI}catRef"):
        cid = (ref.get("target") or "").split()[0].removeprefix("cat:") if ref.get("target") else ""
        parts = cid.split(".")
        names = [SIKU_NAMES.get(".".join(parts[:i])) for i in range(2, len(parts) + 1)]
        if names and all(names):
            return names
    return []


def _kind(root) -> str:
    """經注疏, 經注, 義疏 or 經: the layers the body has."""
    types = {n.get("type") for n in root.iterfind(f"{TEI}text//{TEI}note")}
    if "yishu" in types:
        return "義疏"
    if "shu" in types:
        return "經注疏"
    if "zhu" in types:
        return "經注"
    return "經" if root.find(f".//{TEI}ab[@type='jing']") is not None else ""


def _person_name(person) -> str:
    full = person.find(f"{TEI}persName[@type='full']")
    return _text(full) if full is not None and _text(full) else _text(person.find(f"{TEI}persName"))


_WHEN = re.compile(r"(\d{4})(?:-(\d\d)(?:-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d))?)?)?)?")


def _date(root, environ) -> datetime | None:
    epoch = environ.get("SOURCE_DATE_EPOCH")
    if epoch is not None and epoch.strip():
        if not epoch.strip().isdigit():
            raise PipelineError(f"SOURCE_DATE_EPOCH must be a whole number of seconds, not {epoch!r}",
                                rule="ZS-OPT-001")
        return datetime.fromtimestamp(int(epoch), tz=timezone.utc)
    header = root.find(f"{TEI}teiHeader")
    if header is None:
        return None
    pub = header.find(f"{TEI}fileDesc/{TEI}publicationStmt/{TEI}date")
    candidates = [pub.get("when") or _text(pub)] if pub is not None else []
    if not candidates or not _parse(candidates[0]):
        whens = [c.get("when") for c in header.iterfind(f"{TEI}revisionDesc//{TEI}change") if c.get("when")]
        candidates = sorted((w for w in whens if _parse(w)), key=_parse)[-1:]
    return _parse(candidates[0]) if candidates else None


def _parse(when: str | None) -> datetime | None:
    m = _WHEN.fullmatch((when or "").strip())
    if not m:
        return None
    y, mo, d, h, mi, s = (int(v) if v else dflt for v, dflt in zip(m.groups(), (0, 1, 1, 0, 0, 0)))
    try:
        return datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc)
    except ValueError:
        return None


def finish(path: str, meta: PdfMeta) -> None:
    """Rewrite the PDF at `path` (a temporary file of files.atomic_path) in place with `meta`, its
    dates fixed and an /ID from its content."""
    try:
        import pikepdf
    except ImportError as e:  # pragma: no cover - pikepdf is a declared dependency
        raise PipelineError(f"pikepdf is not installed: {e}", rule="ZS-ENV-001") from None
    try:
        _rewrite(pikepdf, path, meta)
    except pikepdf.PdfError as e:
        raise PipelineError(f"cannot write the PDF's metadata: {e}", path, rule="ZS-RENDER-001") from None


def _rewrite(pikepdf, path: str, meta: PdfMeta) -> None:
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        skia = str(pdf.docinfo.get("/Producer", "Skia/PDF"))
        info = pikepdf.Dictionary(
            Title=pikepdf.String(meta.title), Creator=pikepdf.String(CREATOR),
            Producer=pikepdf.String(f"Zhushu {__version__}; {skia}; pikepdf {pikepdf.__version__}"))
        if meta.authors:
            info.Author = pikepdf.String("、".join(meta.authors))
        if meta.subject:
            info.Subject = pikepdf.String(meta.subject)
        if meta.keywords:
            info.Keywords = pikepdf.String("; ".join(meta.keywords))
        if meta.date is not None:
            info.CreationDate = info.ModDate = pikepdf.String(meta.date.strftime("D:%Y%m%d%H%M%SZ"))
        pdf.docinfo = pdf.make_indirect(info)
        pdf.Root.Lang = pikepdf.String(meta.lang)
        # XMP written from scratch (Skia writes none): pikepdf as editor would add the time now
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as xmp:
            xmp["dc:title"] = meta.title
            if meta.authors:
                xmp["dc:creator"] = list(meta.authors)
            if meta.subject:
                xmp["dc:description"] = meta.subject
            if meta.keywords:
                xmp["dc:subject"] = list(meta.keywords)
                xmp["pdf:Keywords"] = "; ".join(meta.keywords)
            xmp["dc:language"] = [meta.lang]
            xmp["xmp:CreatorTool"] = CREATOR
            xmp["pdf:Producer"] = str(info.Producer)
            if meta.date is not None:
                stamp = meta.date.strftime("%Y-%m-%dT%H:%M:%SZ")
                xmp["xmp:CreateDate"] = xmp["xmp:ModifyDate"] = xmp["xmp:MetadataDate"] = stamp
        pdf.save(path, deterministic_id=True)
