"""The structure XSD 1.0 cannot state: an element whose attributes and content depend on its
@type, or on its place among elements of the same name (schema/README.md). `validate.structure`
reports these findings with the schema's own, as ZS-SCHEMA-001.
"""
from __future__ import annotations

import re

from pipeline.constants import CATEGORY_IDS, TEI, XML_ID, XML_LANG

_NOTE, _SEG, _P, _MENTIONED, _TERM, _LABEL = (f"{TEI}note", f"{TEI}seg", f"{TEI}p", f"{TEI}mentioned",
                                              f"{TEI}term", f"{TEI}label")
ANCHOR = f"{TEI}anchor"

# schema/zhushu.xsd gives an element whose attributes and content depend on its @type (or on its
# place among elements of the same name) the union of its variants; these checks narrow each
# element to its variant. The schema has already checked the union: names and values of the
# attributes, names and order of the children, so each check here only forbids what its variant
# lacks. Only the top of the body is walked (divs, their blocks and notes, the children of
# those), not every element. Findings are structural: ZS-SCHEMA-001, like the schema's own.

_AB, _FW, _DIV, _G = f"{TEI}ab", f"{TEI}fw", f"{TEI}div", f"{TEI}g"
_PERSNAME, _HEAD, _LIST, _REF = f"{TEI}persName", f"{TEI}head", f"{TEI}list", f"{TEI}ref"
# A Kanripo source's pages, printed lines and row ends (the schema's group "events")
_EVENTS = frozenset((f"{TEI}pb", f"{TEI}lb", f"{TEI}milestone"))
_SHU_SUBTYPES = (None, "detached")
_YISHU_SUBTYPES = frozenset((*CATEGORY_IDS, "detached"))
# the names the layers use, which a later layer's note may not take as its @type
_RESERVED = frozenset(("jing", "zhu", "yinyi", "shu", "que", "detached", "chuwen", "mark", "sublemma",
                       "textual", "an", "xiaozhu", "quoted", "yishu", *CATEGORY_IDS, "copy", "category",
                       "kaozheng", "lemma"))
_PLAIN_SMALL = frozenset(("textual", "an", "xiaozhu", "shu"))
_CIT, _QUOTE, _GAP, _CORRESP = f"{TEI}cit", f"{TEI}quote", f"{TEI}gap", "corresp"
_NOT_ON_SMALL = ("target", _CORRESP, XML_LANG)          # what a small or plain note may not have
_NOT_ON_YISHU = ("resp", "targetEnd", _CORRESP, XML_LANG)
_NOT_IN_GLOSS = frozenset((_PERSNAME, _NOTE))          # (a 臣's judgment in a 考證 holds both)
_NOT_IN_SMALL_GLOSS = frozenset((ANCHOR, _CIT, _QUOTE)) | _NOT_IN_GLOSS
_NOT_IN_SHU = frozenset((_G, ANCHOR, _TERM, _MENTIONED))
_NOT_IN_QUOTATION = frozenset((ANCHOR, _CIT, _QUOTE))
_P_YISHU_KEYS, _P_YISHU_KEYS_RESP = [XML_ID], [XML_ID, "resp"]
_TRANSLATION_LANGS = ("zh-Hans", "zh-Hant")
_GLYPH_ID = re.compile(r"zs-g[0-9A-F]{4,6}\Z")
_CHAR_ID = re.compile(r"KR[0-9]{4}\Z")                 # Kanripo's character table's ids
_KANRIPO_ID = re.compile(r"KR[0-9][a-z][0-9]{4}\Z")     # a Kanripo work (KR1d0053)
_SURFACE_ID = re.compile(r"f([0-9]{3,})-([0-9]+[a-z])\Z")   # f003-1a, the page 3-1a
_SHA256 = re.compile(r"[0-9a-f]{64}\Z")
_TITLES = re.compile(r"main(?: work)?(?: juan)?\Z")
# the divisions a div may hold (by its @type; none where it is not named)
_NESTED = {"juan": ("section",), "section": ("section",), "xingshi": ("dynasty",),
           "juanshou": ("shengzhi", "gangling")}
_FRONT_KINDS = frozenset(("tiyao", "xu", "fanli", "xingshi", "mulu", "yuanmu", "yuzhi", "chuanshu", "front"))
_PLACENAME, _BACK = f"{TEI}placeName", f"{TEI}back"
_IDNOS = (["filename", "sha256"], ["filename", "sha256", "kanripo"])
_MAPPINGS = ([], ["standard"], ["PUA"], ["normalized"], ["standard", "normalized"], ["PUA", "normalized"])


def _name(el) -> str:
    """note[@type='shu'], for messages."""
    kind = el.get("type")
    return el.tag.rsplit("}", 1)[-1] + (f"[@type={kind!r}]" if kind is not None else "")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _attr_name(a: str) -> str:
    return "xml:" + _local(a) if a.startswith("{") else a


# These checks visit a few thousand elements per MB, so each is written for the common, valid
# case: a handful of attribute reads and a loop over the children in plain Python (lxml's
# multi-tag filters cost more to set up than the loop), findings appended to `out`.

def variants(root) -> list[tuple]:
    """(element, message) for each element that fits the schema's union but not its variant."""
    out: list[tuple] = []
    if root.get(XML_LANG) != "lzh":
        out.append((root, "TEI/@xml:lang must be 'lzh'"))
    header = root.find(f"{TEI}teiHeader")
    if header is not None:
        _header_variants(header, out)
    facsimile = root.find(f"{TEI}facsimile")
    if facsimile is not None:
        _surfaces(facsimile, out)
    for person in root.iterfind(f"{TEI}standOff/{TEI}listPerson/{TEI}person"):
        _person(person, out)
    for div in root.iterfind(f"{TEI}text/{TEI}front/{TEI}div"):
        _div(div, out, False)
    body = root.find(f"{TEI}text/{TEI}body")
    if body is not None:
        back = body.getnext()
        back = back.findall(_DIV) if back is not None and back.tag == _BACK else []
        divs = body.findall(_DIV)
        begun = False                           # a 卷首 has begun the body
        for div in divs:
            kind = div.get("type")
            if kind in _FRONT_KINDS and not begun:
                out.append((div, f"div[@type={kind!r}] is front matter: in <front>, or in the body after a "
                            "卷首 (div[@type='juanshou'])"))
            begun = begun or kind == "juanshou"
            _div(div, out, not back and div is divs[-1])
        for div in back:
            _div(div, out, div is back[-1])
    return out


def _header_variants(h, out: list) -> None:
    titles = h.findall(f"{TEI}fileDesc/{TEI}titleStmt/{TEI}title")
    if titles and not _TITLES.match(" ".join(t.get("type") or "" for t in titles)):
        out.append((titles[0], "titleStmt has a main title, then optional work and juan titles, each once"))
    bibl = h.find(f"{TEI}fileDesc/{TEI}sourceDesc/{TEI}bibl")
    idnos = bibl.findall(f"{TEI}idno") if bibl is not None else []
    if len(idnos) >= 2:
        if [i.get("type") for i in idnos] not in _IDNOS:
            out.append((idnos[0], "the source is named by an idno of type filename, then one of type sha256 "
                        "(then, from Kanripo, one of type kanripo)"))
        elif not _SHA256.match(idnos[1].text or ""):
            out.append((idnos[1], "idno[@type='sha256'] is 64 lower-case hex digits"))
        elif len(idnos) == 3 and not _KANRIPO_ID.match(idnos[2].text or ""):
            out.append((idnos[2], "idno[@type='kanripo'] is a Kanripo id (KR1d0053)"))
    if bibl is not None and len(bibl) > len(idnos) + 2:          # a Kanripo source's header lines
        _bibl_notes(bibl, out)
    for i, tax in enumerate(h.iterfind(f"{TEI}encodingDesc/{TEI}classDecl/{TEI}taxonomy")):
        want, content = (("zs-types", f"{TEI}category"), ("siku", f"{TEI}desc"))[min(i, 1)]
        first = next(tax.iterchildren("*"), None)
        if tax.get(XML_ID) != want or first is None or first.tag != content:
            out.append((tax, "the first taxonomy is zs-types, with categories; the second siku, with a desc"))
    for glyph in h.iterfind(f"{TEI}encodingDesc/{TEI}charDecl/{TEI}glyph"):
        if not _GLYPH_ID.match(glyph.get(XML_ID) or ""):
            out.append((glyph, "glyph/@xml:id is zs-g and 4 to 6 upper-case hex digits"))
    for char in h.iterfind(f"{TEI}encodingDesc/{TEI}charDecl/{TEI}char"):
        _char(char, out)


def _bibl_notes(bibl, out: list) -> None:
    """A Kanripo file's header lines: its properties in one note, then a note per comment line,
    numbered by its line."""
    seen_comment = False
    for note in bibl.iterchildren(_NOTE):
        if note.get("type") == "properties":
            if seen_comment or note.get("n") is not None or not note.text:
                out.append((note, "note[@type='properties'] comes once, before the comments, without @n, "
                            "not empty"))
            seen_comment = True                 # (a second one is out of place too)
        elif note.get("n") is None:
            out.append((note, "note[@type='comment'] names its line (@n 'line 12')"))
        else:
            seen_comment = True


def _char(char, out: list) -> None:
    """A character from Kanripo's table: its id (KR0427) as xml:id and as its property, then its
    form and its normal form, one mapping each at most."""
    cid = char.get(XML_ID) or ""
    if not _CHAR_ID.match(cid):
        out.append((char, "char/@xml:id is a Kanripo character id, KR and 4 digits"))
    prop = char.find(f"{TEI}localProp")
    if prop is not None and prop.get("value") != cid:
        out.append((prop, "char/localProp[@name='kanripo'] gives the char's own id"))
    kinds = [m.get("type") for m in char.iterchildren(f"{TEI}mapping")]
    if kinds not in _MAPPINGS:
        out.append((char, "a char maps its form (standard or PUA), then its normal form (normalized), "
                    "each once at most"))


def _surfaces(facsimile, out: list) -> None:
    for s in facsimile.iterchildren(f"{TEI}surface"):
        m = _SURFACE_ID.match(s.get(XML_ID) or "")
        if m is None or s.get("n") != f"{int(m.group(1))}-{m.group(2)}":
            out.append((s, "surface/@xml:id is f and the page as Kanripo names it (f003-1a), "
                        "@n the page (3-1a)"))


def _person(person, out: list) -> None:
    names = person.findall(_PERSNAME)
    first = names[0] if names else None
    if first is not None and (first.get(XML_LANG) is None or first.get("type") is not None
                              or not len(first) or (first.text or "").strip()
                              or any((c.tail or "").strip() for c in first)):
        out.append((first, "a person's first persName has @xml:lang and the name parts (surname …) only"))
    elif first is not None and first[0].tag != f"{TEI}surname" and len(names) > 1:
        out.append((first, "only a person declared from the text may be named without a surname"))
    if len(names) > 1:
        full = names[1]
        if full.get("type") != "full" or full.get(XML_LANG) is not None or len(full) or not full.text:
            out.append((full, "a person's second persName is the full name as text, @type='full'"))
    else:
        note = person.find(f"{TEI}note")
        if note is not None and not note.text:
            out.append((note, "a person declared from the text has a note saying so"))


def _div(div, out: list, last: bool) -> None:
    """A div's children (`last`: the last div of the body, or of the back, which may end with
    the pages and lines that follow a Kanripo source's last character)."""
    kind = div.get("type")
    ending = None                           # the first of the events ending the div
    for el in div.iterchildren("*"):
        tag = el.tag
        if ending is not None and tag not in _EVENTS:
            out.append((ending, f"{_local(ending.tag)} stands in the text it precedes, or at the very end of "
                        "the text's last div"))
            ending = None
        if tag == _AB:
            _ab(el, kind, out)
        elif tag == _NOTE:
            _note_div(el, out)
        elif tag == _P:
            _prose(el, out)
        elif tag == _DIV:
            if el.get("type") not in _NESTED.get(kind, ()):
                out.append((el, f"div[@type={el.get('type')!r}] is not allowed in div[@type={kind!r}]"))
            _div(el, out, False)
        elif tag == _FW:
            if (el.get("subtype") is None) != (el.get("sameAs") is None):
                out.append((el, "fw[@subtype='repeat'] and @sameAs go together"))
        elif tag == _HEAD:
            if el.get("type") != kind:
                out.append((el, f"the head of div[@type={kind!r}] has the div's @type"))
        elif tag in _EVENTS:
            if ending is None:
                ending = el
        elif tag == _LIST and kind != "contents":
            out.append((el, "a list is allowed only in div[@type='contents']"))
    if ending is not None and not last:
        out.append((ending, f"{_local(ending.tag)} stands in the text it precedes, or at the very end of "
                    "the text's last div"))
    if kind == "contents":
        _contents(div, out)
    elif kind == "kaozheng":
        for el in div.iterchildren(_NOTE, _P, _AB):
            if el.tag != _AB or el.get("type") != kind:
                out.append((el, f"{_name(el)} is not allowed in div[@type='kaozheng'] (its entries are "
                            "ab[@type='kaozheng'])"))


def _prose(p, out: list) -> None:
    """A paragraph of prose (small notes only), or an entry of a list of persons: the name
    first, then the native place, text and small notes."""
    named = False
    for i, c in enumerate(p):
        tag = c.tag
        if tag == _NOTE:
            _note_inline(c, True, out)
        elif tag == _PERSNAME:
            if i or named or (p.text or "").strip():
                out.append((c, "an entry of a list of persons opens with the name (persName), once"))
            named = True
        elif tag == _PLACENAME and not named:
            out.append((c, "a placeName follows the name (persName) of an entry of a list of persons"))


def _contents(div, out: list) -> None:
    """A work's table of contents: its head, then one list of entries, each a link or text."""
    if [c.tag for c in div.iterchildren("*")] != [_HEAD, _LIST]:
        out.append((div, "div[@type='contents'] holds its head and one list"))
    for item in div.iterfind(f"{TEI}list/{TEI}item"):
        refs = [c for c in item if c.tag == _REF]
        if refs and (len(item) > 1 or (item.text or "").strip() or (refs[0].tail or "").strip()):
            out.append((item, "an item of the contents is a link (ref) alone, or text"))


def _ab(ab, div_kind: str | None, out: list) -> None:
    kind = ab.get("type")
    if kind == "jing":
        if ab.get("subtype") is not None:
            out.append((ab, "ab[@type='jing'] may not have @subtype"))
        for c in ab:
            tag = c.tag
            if tag == _NOTE:
                _note_inline(c, False, out)
            elif tag == _G:
                out.append((c, "g is not allowed directly in ab[@type='jing'] (only in its seg and notes)"))
            elif tag == _LABEL and (c.get(XML_ID) is None or c.get("type") != "mark"):
                out.append((c, "a label in ab[@type='jing'] is of type mark, with an xml:id"))
            elif tag in _EVENTS and not _after_gap(c):
                out.append((c, f"{_local(tag)} stands directly in ab[@type='jing'] only after a gap "
                            "(elsewhere, in the text it precedes)"))
        return
    if kind == "kaozheng":
        _kaozheng_entry(ab, div_kind, out)
        return
    if ab.get(XML_LANG) not in _TRANSLATION_LANGS:
        out.append((ab, "ab[@type='translation'] has @xml:lang 'zh-Hans' or 'zh-Hant'"))
    for i, c in enumerate(ab.iterchildren("*")):
        tag = c.tag
        if tag == _NOTE:
            _note_inline(c, True, out)
        elif tag == _LABEL:
            if i or (ab.text or "").strip() or c.get(XML_ID) is not None or c.get("type") != "mark":
                out.append((c, "ab[@type='translation'] may open with a label of type mark, without an xml:id"))
        elif tag == _SEG or tag == _GAP or tag in _EVENTS:
            out.append((c, f"{_local(tag)} is not allowed in ab[@type='translation']"))


def _after_gap(event) -> bool:
    """Does this page or line follow a gap (the events its desc cannot hold)?"""
    prev = event.getprevious()
    while prev is not None and prev.tag in _EVENTS:
        prev = prev.getprevious()
    return prev is not None and prev.tag == _GAP


def _kaozheng_entry(ab, div_kind: str | None, out: list) -> None:
    """An entry of a 考證: an optional lemma, then text, small notes and the 臣's judgments."""
    if div_kind != "kaozheng":
        out.append((ab, "ab[@type='kaozheng'] is allowed only in div[@type='kaozheng']"))
    for a in ("subtype", _CORRESP, XML_LANG):
        if ab.get(a) is not None:
            out.append((ab, f"ab[@type='kaozheng'] may not have @{_attr_name(a)}"))
    for i, c in enumerate(ab.iterchildren("*")):
        tag = c.tag
        if tag == _NOTE:
            if c.get("type") == "an" and len(c) and c[0].tag == _PERSNAME:
                _judgment(c, out)
            else:
                _note_inline(c, True, out)
        elif tag == _LABEL:
            if i or (ab.text or "").strip() or c.get(XML_ID) is not None or c.get("type") != "lemma":
                out.append((c, "ab[@type='kaozheng'] may open with a label of type lemma, without an xml:id"))
        elif tag == _SEG or tag == _GAP:
            out.append((c, f"{_local(tag)} is not allowed in ab[@type='kaozheng']"))


def _judgment(note, out: list) -> None:
    """A 臣's judgment in a 考證 entry: his name, then what he says (text, g, pages and lines,
    small notes)."""
    if note.get("subtype") is not None:
        out.append((note, "a judgment, note[@type='an'], may not have @subtype"))
    _plain_attributes(note, out)
    if (note.text or "").strip():
        out.append((note, "a judgment opens with who judges (persName)"))
    for i, c in enumerate(note):
        tag = c.tag
        if tag == _NOTE:
            _note_inline(c, True, out)
        elif tag == _PERSNAME:
            if i:
                out.append((c, "a judgment names who judges once, first (persName)"))
        elif tag != _G and tag not in _EVENTS and isinstance(tag, str):
            out.append((c, f"{_local(tag)} is not allowed in a judgment (text, g, small notes)"))


def _note_inline(note, small: bool, out: list) -> None:
    """A note inside a 經 passage (small=False), or inside a translation or a 義疏 quotation
    (small: a 音義 note or a plain one)."""
    kind = note.get("type")
    if kind == "zhu" or kind == "yinyi":
        if small and kind == "zhu":
            out.append((note, "a 注 note is not allowed here (only small notes)"))
        elif note.get("subtype") is not None:
            out.append((note, f"{_name(note)} may not have @subtype"))
        else:
            if small:
                _plain_attributes(note, out)
            bad = _NOT_IN_SMALL_GLOSS if small else _NOT_IN_GLOSS
            for c in note:
                if c.tag in bad:
                    out.append((c, f"{_local(c.tag)} is not allowed in {'a small ' if small else ''}{_name(note)}"))
        return
    if (note.get("subtype") is not None) != (kind == "shu"):
        out.append((note, "only a quoted 疏, note[@type='shu'][@subtype='quoted'], has a @subtype"))
    _plain_attributes(note, out)
    for c in note:
        tag = c.tag
        if tag != _G and tag not in _EVENTS and isinstance(tag, str):     # (a comment is no element)
            out.append((c, f"{_local(tag)} is not allowed in {_name(note)} (text, g, pages and lines only)"))


def _plain_attributes(note, out: list) -> None:
    for a in _NOT_ON_SMALL:
        if note.get(a) is not None:
            out.append((note, f"a small {_name(note)} may not have @{_attr_name(a)}"))


def _note_div(note, out: list) -> None:
    kind = note.get("type")
    if kind == "shu":
        _shu_variant(note, out)
    elif kind == "yishu" or kind == "an":
        _yishu_variant(note, kind, out)
    else:                                       # forward: a later layer's note
        if kind in _RESERVED:
            out.append((note, f"note[@type={kind!r}] is not allowed between the blocks"))
        if note.get("prev") is not None:
            out.append((note, f"{_name(note)} may not have @prev"))
        for c in note:
            tag = c.tag
            if tag == _P:
                _plain_p(c, note, out)
            elif tag == _LABEL or tag == _NOTE:
                out.append((c, f"{_local(tag)} is not allowed in {_name(note)}"))


def _shu_variant(note, out: list) -> None:
    if note.get("subtype") not in _SHU_SUBTYPES:
        out.append((note, "note[@type='shu'] between the blocks has no @subtype, or 'detached'"))
    if note.get(XML_ID) is None:
        out.append((note, "note[@type='shu'] has an xml:id"))
    if note.get("prev") is not None:
        out.append((note, "note[@type='shu'] may not have @prev"))
    text = bool((note.text or "").strip())
    labels = []
    for c in note:
        tag = c.tag
        if tag == _P:
            _plain_p(c, note, out)
        elif tag == _LABEL:
            labels.append(c.get("type"))
            if labels[-1] == "mark" and c.find(_MENTIONED) is not None:
                out.append((c, "label[@type='mark'] holds text and g only"))
        elif tag in _NOT_IN_SHU:
            out.append((c, f"{_local(tag)} is not allowed in note[@type='shu']"))
        if c.tail and not text:
            text = bool(c.tail.strip())
    if text:
        out.append((note, "note[@type='shu'] may not hold text of its own"))
    if labels and labels not in (["mark"], ["chuwen"], ["mark", "chuwen"]):
        out.append((note, "a 疏 opens with an optional label of type mark, then one of type chuwen"))


def _plain_p(p, note, out: list) -> None:
    """A paragraph of a 疏 or of a later layer's note: as a block-level p."""
    if p.get("resp") is not None:
        out.append((p, f"p in {_name(note)} may not have @resp"))
    for c in p:
        if c.tag == _PERSNAME or c.tag == _NOTE:
            out.append((c, f"{_local(c.tag)} is not allowed in a p of {_name(note)}"))


def _yishu_variant(note, kind: str, out: list) -> None:
    sub = note.get("subtype")
    if kind == "yishu" and sub not in _YISHU_SUBTYPES:
        out.append((note, f"note[@type='yishu'] has a @subtype of {', '.join(sorted(_YISHU_SUBTYPES))}"))
    elif kind == "an" and sub is not None:
        out.append((note, "note[@type='an'] may not have @subtype"))
    if note.get(XML_ID) is None:
        out.append((note, f"{_name(note)} has an xml:id"))
    for a in _NOT_ON_YISHU:
        if note.get(a) is not None:
            out.append((note, f"{_name(note)} may not have @{_attr_name(a)}"))
    text = bool((note.text or "").strip())
    if not len(note):
        out.append((note, f"{_name(note)} holds a label of type category, or quotations, or both"))
    first = True                                # no element before (comments aside)
    for c in note:
        tag = c.tag
        if tag == _P:
            keys = c.keys()
            if keys != _P_YISHU_KEYS and keys != _P_YISHU_KEYS_RESP:   # the usual two, at once
                if XML_ID not in keys:
                    out.append((c, "a quotation of a 義疏 block has an xml:id"))
                for a in (_CORRESP, XML_LANG):
                    if a in keys:
                        out.append((c, f"a quotation of a 義疏 block may not have @{_attr_name(a)}"))
            for cc in c:
                if cc.tag == _NOTE:
                    _note_inline(cc, True, out)
                elif cc.tag in _NOT_IN_QUOTATION:
                    out.append((cc, f"{_local(cc.tag)} is not allowed in a quotation of a 義疏 block"))
                elif cc.tag == _PERSNAME and (c.text or "").strip():     # the schema puts it first
                    out.append((cc, "a quotation of a 義疏 block opens with who said it (persName)"))
        elif tag == _LABEL:
            if c.get("type") != "category" or c.find(_MENTIONED) is not None or not first:
                out.append((c, f"{_name(note)} opens with one label, of type category, of text and g"))
        elif isinstance(tag, str):
            out.append((c, f"{_local(tag)} is not allowed in {_name(note)}"))
        first = first and not isinstance(tag, str)
        if c.tail and not text:
            text = bool(c.tail.strip())
    if text:
        out.append((note, f"{_name(note)} may not hold text of its own"))
