"""The structure XSD 1.0 cannot state, in the text: a div, a block (ab, p) or a note whose
attributes and content depend on its @type, or on its place among elements of the same name
(schema/README.md). `check_div` checks one div and what it holds, for document.check_document, which
also checks the header; `validate.structure` reports the findings with the schema's own, as
ZS-SCHEMA-001.
"""
from __future__ import annotations

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
_EVENTS = frozenset((f"{TEI}pb", f"{TEI}lb", f"{TEI}space", f"{TEI}milestone"))
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
_BIBL, _AUTHOR = f"{TEI}bibl", f"{TEI}author"
_TRANSLATION_LANGS = ("zh-Hans", "zh-Hant")
# the divisions a div may hold (by its @type; none where it is not named)
_NESTED = {"juan": ("pian", "section"), "pian": ("guan", "zhang", "section"), "guan": ("section",),
           "section": ("section",), "xingshi": ("dynasty",),
           "juanshou": ("shengzhi", "gangling")}
_PLACENAME = f"{TEI}placeName"


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


def check_div(div, out: list, last: bool) -> None:
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
            check_div(el, out, False)
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
            elif tag == _SEG:
                _seg(c, out)
            elif tag in _EVENTS:
                out.append((c, f"{_local(tag)} stands in the text it precedes, not directly in "
                            "ab[@type='jing']"))
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


def _seg(seg, out: list) -> None:
    """A 經 sentence holds no gap; a lost passage, seg[@type='que'], opens with its one gap, then
    the edition's words, and holds no anchor."""
    if not len(seg):                            # most segs: text alone
        if seg.get("type") is not None:
            out.append((seg, "seg[@type='que'] opens with a gap"))
        return
    que = seg.get("type") is not None
    for i, c in enumerate(seg.iterchildren("*")):      # (a comment is no element)
        if c.tag == _GAP and not que:
            out.append((c, "a gap stands only in seg[@type='que']"))
        elif que and (c.tag == _GAP) != (i == 0) or que and c.tag == ANCHOR:
            out.append((c, "seg[@type='que'] opens with its one gap, then text (no anchor)"))
    if que:
        first = next(seg.iterchildren("*"), None)
        before = [seg.text or ""]
        for c in seg:                           # the text before the first element, comments aside
            if c is first:
                break
            before.append(c.tail or "")
        if "".join(before).strip() or first is None or first.tag != _GAP:
            out.append((seg, "seg[@type='que'] opens with a gap"))


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
    if kind in ("shu", "yishu", "an") and note.get("place") != "inline":
        out.append((note, f"{_name(note)} has place='inline' (it stands in the reading order)"))
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
    for c in p:
        if c.tag == _NOTE:
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
        if tag == _CIT:
            _quotation(c, out)
        elif tag == _P:
            if c.get(XML_ID) is None or c.get(_CORRESP) is not None or c.get(XML_LANG) is not None:
                out.append((c, "words of a 義疏 block nobody is named for (p) have an xml:id, no "
                            "@corresp nor @xml:lang"))
            _quoted_words(c, out)
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


def _quotation(cit, out: list) -> None:
    """One scholar's words in a 義疏 block: an xml:id, the attribution (bibl: an author naming
    the person, then the verb), the words (quote)."""
    if cit.get(XML_ID) is None:
        out.append((cit, "a quotation of a 義疏 block has an xml:id"))
    bibl = cit[0] if len(cit) and cit[0].tag == _BIBL else None
    if bibl is None:
        out.append((cit, "a quotation of a 義疏 block opens with who said it (bibl)"))
    elif len(bibl) and bibl[0].tag == _AUTHOR:
        if (bibl.text or "").strip():
            out.append((bibl[0], "the attribution opens with the name (author)"))
    elif not (bibl.text or "").strip():
        out.append((bibl, "the attribution names the author, or says 又曰"))
    for c in cit.iterchildren(_QUOTE):
        for a in (_CORRESP, XML_LANG, XML_ID):
            if c.get(a) is not None:
                out.append((c, f"the words of a quotation may not have @{_attr_name(a)}"))
        _quoted_words(c, out)


def _quoted_words(words, out: list) -> None:
    """The words of a 義疏 quotation: text, g, pages and lines, small notes."""
    for c in words:
        if c.tag == _NOTE:
            _note_inline(c, True, out)
        elif c.tag in _NOT_IN_QUOTATION:
            out.append((c, f"{_local(c.tag)} is not allowed in a quotation of a 義疏 block"))
