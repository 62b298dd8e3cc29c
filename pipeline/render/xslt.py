"""Running the XSLT 3.0 stylesheets of xslt/ with Saxon, for the web and the print edition.

The stylesheet is compiled once per call and applied to each file. Input is untrusted: each file
is parsed by pipeline.validate.xmlsafe first (no DTD, no entities, bounded size), and Saxon is
given a serialisation of the tree that passed those checks, never the file; once the stylesheet
is compiled, Saxon's access to external resources is switched off, so neither the document nor
the stylesheet can make it read a file or reach the network.
"""
from __future__ import annotations

import os

from lxml import etree

from pipeline import files
from pipeline.constants import SHARED_FILES
from pipeline.errors import PipelineError
from pipeline.validate import xmlsafe


def _saxon_message(e: Exception) -> str:
    """Saxon's message, first line only: the rest is a Java-ish trace nobody can act on."""
    msg = str(e).strip() or e.__class__.__name__
    return msg.splitlines()[0].strip()


# Saxon's own switch for every external resource (documents, text, modules, entities): the
# empty list allows none. Set once the stylesheet and its modules are compiled.
_ALLOWED_PROTOCOLS = "http://saxon.sf.net/feature/allowedProtocols"


class Renderer:
    """One Saxon processor and one compiled stylesheet, reused for every file."""

    def __init__(self, stylesheet: str, params: dict[str, str | int | float] | None = None):
        try:
            from saxonche import PySaxonProcessor
        except ImportError as e:  # pragma: no cover - saxonche is a declared dependency
            raise PipelineError(f"saxonche is not installed: {e}", rule="ZS-ENV-001") from None
        self.proc = PySaxonProcessor(license=False)
        xslt = self.proc.new_xslt30_processor()
        try:
            self.exe = xslt.compile_stylesheet(stylesheet_file=stylesheet)
        except Exception as e:  # saxonche raises PySaxonApiError; other failures look the same to us
            raise PipelineError(f"cannot compile stylesheet: {_saxon_message(e)}", stylesheet,
                                rule="ZS-RENDER-001") from None
        if self.exe is None:
            raise PipelineError("cannot compile stylesheet", stylesheet, rule="ZS-RENDER-001")
        self.proc.set_configuration_property(_ALLOWED_PROTOCOLS, "")
        for name, value in (params or {}).items():
            self.exe.set_parameter(name, self._value(value))

    def _value(self, value: str | int | float):
        """A stylesheet parameter as the XDM type its declaration wants: xs:string, xs:integer,
        or xs:decimal for a float (a double would not convert to a declared xs:decimal)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return self.proc.make_string_value(str(value))
        if isinstance(value, int):
            return self.proc.make_integer_value(value)
        return self.proc.make_atomic_value("decimal", repr(float(value)))

    def render(self, tree: etree._ElementTree, name: str,
               params: dict[str, str | int | float] | None = None) -> str:
        """The transform of `tree` (already checked by xmlsafe) as a string; `params` are this
        file's own stylesheet parameters (its language, its neighbours …), set for this call and
        every later one until set again, so a caller passes the same names for every file."""
        for key, value in (params or {}).items():
            self.exe.set_parameter(key, self._value(value))
        node = self._node(tree, name)
        try:
            out = self.exe.transform_to_string(xdm_node=node)
        except Exception as e:
            raise PipelineError(f"HTML rendering failed: {_saxon_message(e)}", name,
                                rule="ZS-RENDER-001") from None
        if not out:
            raise PipelineError("HTML rendering produced nothing", name, rule="ZS-RENDER-001")
        return out

    def render_to_file(self, tree: etree._ElementTree, name: str, target: str,
                       params: dict[str, str | int | float] | None = None) -> None:
        """As render(), written to `target` atomically: a failed page leaves the earlier one as
        it was. (Saxon cannot write the file itself: its access to files is switched off, and
        handing the page over as a string costs no more, measured.)"""
        files.write_atomic(target, self.render(tree, name, params))

    def _node(self, tree: etree._ElementTree, name: str):
        try:
            return self.proc.parse_xml(xml_text=xmlsafe.for_xslt(tree))
        except Exception as e:
            raise PipelineError(f"HTML rendering failed: {_saxon_message(e)}", name,
                                rule="ZS-RENDER-001") from None


def documents_only(paths) -> list[str]:
    """The documents among `paths`: a corpus's shared files (persons.xml, categories.xml) are no
    page of their own."""
    return [p for p in paths if os.path.basename(p) not in SHARED_FILES]


def shared_beside(paths) -> list[str]:
    """The shared files beside the documents among `paths`, each name once (they are the same
    bytes in every directory `convert` writes them to)."""
    found: dict[str, str] = {}
    for d in dict.fromkeys(os.path.dirname(os.path.abspath(p)) for p in documents_only(paths)):
        for name in SHARED_FILES:
            if name not in found and os.path.isfile(os.path.join(d, name)):
                found[name] = os.path.join(d, name)
    return list(found.values())


def load_tei(path: str) -> etree._ElementTree:
    """A TEI file parsed as untrusted input (pipeline.validate.xmlsafe). Raises PipelineError naming the
    file when it is unreadable, unsafe, malformed or not TEI."""
    tree = xmlsafe.load(path)
    xmlsafe.require_tei(tree, path)
    from pipeline.render.registry import join_persons
    join_persons(tree, path)            # psn: pointers into persons.xml, as the renderers read them
    return tree


def output_names(paths: list[str], ext: str = ".html", reserved: tuple[str, ...] = ()) -> list[str]:
    """<basename><ext> for each input; two inputs may not claim the same output, nor one of the
    `reserved` names."""
    names: dict[str, str] = {}
    out = []
    for p in paths:
        base = os.path.splitext(os.path.basename(p))[0] + ext
        if base in reserved:
            raise PipelineError(f"output {base} would overwrite the site's {base}", p, rule="ZS-IO-003")
        if base in names:
            raise PipelineError(f"output {base} would also be written for {names[base]}", p,
                                rule="ZS-IO-003")
        names[base] = p
        out.append(base)
    return out


def write_text(path: str, text: str) -> None:
    files.write_atomic(path, text)
