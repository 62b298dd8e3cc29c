"""What every part of the writer uses to write XML: the namespaces, the header's lxml helper
`_el`, and, for the body written as text, escaping, attributes and the ids of <g>."""
from __future__ import annotations

import re

from lxml import etree

from pipeline import persons
from pipeline.chars import SUSPECT
from pipeline.constants import TEI as T
from pipeline.constants import XML_ID

# Token kinds → (element, @type). 'text' is plain text.
INLINE = {
    "term": ("term", None),
    "fanqie": ("seg", "fanqie"),
    "zhiyin": ("seg", "zhiyin"),
    "ruzi": ("seg", "ruzi"),
    "mentioned": ("mentioned", None),
}

_OPEN = {k: f"<{n}>" if t is None else f'<{n} type="{t}">' for k, (n, t) in INLINE.items()}
_CLOSE = {k: f"</{n}>" for k, (n, _) in INLINE.items()}
# Characters that may need a <g> (placeholders, private use, U+FFFD, unassigned code points);
# chars.glyph_kind decides for each one found.
_SPECIAL = re.compile("[" + SUSPECT + "]")
# What text must do more than copy: markup characters to escape, and the _SPECIAL ones.
_ATTENTION = re.compile("[&<>" + SUSPECT + "]")


def glyph_id(ch: str) -> str:
    return f"zs-g{ord(ch):04X}"


def _el(parent, tag: str, text: str | None = None, **attrs):
    e = etree.SubElement(parent, T + tag)
    for k, v in attrs.items():
        if v is not None:
            e.set(XML_ID if k == "xml_id" else k, v)
    if text is not None:
        e.text = text
    return e


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attrs(attrs: dict) -> str:
    """Attributes written in a start tag, `xml_id` as xml:id; those that are None left out."""
    out = []
    for k, v in attrs.items():
        if v is not None:
            v = _esc(v).replace('"', "&quot;")
            out.append(f' {"xml:id" if k == "xml_id" else k}="{v}"')
    return "".join(out)


def _pointing(target, target_end) -> str:
    """@target and @targetEnd of a note that points at a span (from `target` to `target_end`)."""
    return _attrs(dict(target=_ref(target.id if target else None),
                       targetEnd=_ref(target_end.id if target_end else None)))


def _ref(x: str | None) -> str | None:
    return "#" + x if x else None


def person(pid: str | None) -> str | None:
    """The pointer to person `pid` (for @resp and @ref); the one place that says where persons
    are declared: a scholar of the registry in the corpus's persons.xml (psn:zhengxuan, through
    the header's prefixDef), a person declared from the text in this file's standOff (#zs.刘智)."""
    if not pid:
        return None
    return "psn:" + pid if pid in persons.registry() else "#" + pid


def resp_attr(pid: str | None, name: str = "resp") -> str:
    """` resp="…"` (or another attribute `name`) pointing at person `pid`, '' without one."""
    return f' {name}="{person(pid)}"' if pid else ""
