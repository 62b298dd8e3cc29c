"""Hostile XML for the commands that read TEI (validate, text, render html, render pdf): each
attack in each encoding, and the traps that prove nothing was fetched or read.

An attack turns a valid TEI document (its text without the XML declaration) into a hostile one;
`encode` adds the declaration and the byte order mark of an encoding. Every attack points what it
would fetch at the traps: `Traps.url(...)` on a local HTTP server that records each request,
`Traps.secret` (a regular file holding a canary string) and `Traps.tripwire` (a FIFO whose opening
is noticed at once, and answered with a canary so a reader never blocks).

What each kind must do (issue 12):
- refuse: every command exits 2 with one `FILE:LINE:COL: fatal: ZS-XML-…` line, in under 2 s;
- xinclude: an XInclude element is only an unknown element: invalid for validate (exit 1), inert
  for text and render (exit 0), never fetched;
- accept: `<?xml-model …?>` in the prolog is inert: exit 0 everywhere, never fetched.
Whatever the outcome, no request reaches the server, the tripwire is never opened and no canary
appears in any output.
"""
from __future__ import annotations

import http.server
import os
import stat
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Callable

# name → (Python codec, byte order mark, encoding named in the XML declaration)
ENCODINGS: dict[str, tuple[str, bytes, str]] = {
    "utf-8": ("utf-8", b"", "UTF-8"),
    "utf-8-bom": ("utf-8", b"\xef\xbb\xbf", "UTF-8"),
    "utf-16le-bom": ("utf-16-le", b"\xff\xfe", "UTF-16"),
    "utf-16be-bom": ("utf-16-be", b"\xfe\xff", "UTF-16"),
    "utf-16le": ("utf-16-le", b"", "UTF-16"),          # no BOM: the declaration says UTF-16
    "utf-16be": ("utf-16-be", b"", "UTF-16"),
    "utf-32le-bom": ("utf-32-le", b"\xff\xfe\x00\x00", "UTF-32"),
    "utf-32be-bom": ("utf-32-be", b"\x00\x00\xfe\xff", "UTF-32"),
    "utf-32le": ("utf-32-le", b"", "UTF-32"),
    "utf-32be": ("utf-32-be", b"", "UTF-32"),
}
# The encodings the XXE tests must cover (issue 12): UTF-8, UTF-16LE/BE with and without BOM, UTF-32.
XXE_ENCODINGS = ("utf-8", "utf-16le-bom", "utf-16le", "utf-16be-bom", "utf-16be", "utf-32le-bom", "utf-32be")

COMMANDS = ("validate", "text", "html", "pdf")
TEI_NS = "http://www.tei-c.org/ns/1.0"


def limit(name: str) -> int:
    """A limit of untrusted XML (MAX_DEPTH, MAX_BYTES …) as the pipeline defines it: in
    pipeline/validate/xmlsafe.py if it is there, else pipeline/limits.py."""
    from pipeline.validate import xmlsafe
    if hasattr(xmlsafe, name):
        return getattr(xmlsafe, name)
    from pipeline import limits
    return getattr(limits, name)


def strip_declaration(doc: str) -> str:
    if doc.startswith("\ufeff"):
        doc = doc[1:]
    if doc.startswith("<?xml "):
        doc = doc[doc.index("?>") + 2:].lstrip("\r\n")
    return doc


def encode(doc: str, encoding: str) -> bytes:
    """`doc` (no XML declaration) as a file in `encoding`, declaration and BOM included."""
    codec, bom, declared = ENCODINGS[encoding]
    return bom + f'<?xml version="1.0" encoding="{declared}"?>\n{doc}'.encode(codec)


# -- where an attack puts things ----------------------------------------------------------------
def in_prolog(doc: str, s: str) -> str:
    i = doc.index("<TEI")
    return doc[:i] + s + "\n" + doc[i:]


def in_epilog(doc: str, s: str) -> str:
    return doc.rstrip() + "\n" + s + "\n"


def in_root_tag(doc: str, s: str) -> str:
    i = doc.index("<TEI") + len("<TEI")
    return doc[:i] + " " + s + doc[i:]


def in_text(doc: str, s: str) -> str:
    """`s` in the header's main title (every page and PDF shows it) and in the first 經 segment
    of the body (every layer holds it)."""
    i = doc.index("</title>")
    doc = doc[:i] + s + doc[i:]
    i = doc.index("</seg>", doc.index("<body"))
    return doc[:i] + s + doc[i:]


def in_body(doc: str, s: str) -> str:
    i = doc.index("</seg>", doc.index("<body"))
    return doc[:i] + s + doc[i:]


def body_depth(doc: str) -> int:
    """How deep (the root is 1) the first 經 segment of the body is: what in_body inserts is one
    level deeper."""
    from lxml import etree
    root = etree.fromstring(doc.encode("utf-8"))
    seg = root.find(f".//{{{TEI_NS}}}body//{{{TEI_NS}}}seg")
    return len(list(seg.iterancestors())) + 1


def nested(depth: int, text: str = "深") -> str:
    return "<hi>" * depth + text + "</hi>" * depth


# -- the traps ------------------------------------------------------------------------------------
class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):          # noqa: N802 - http.server's name
        self.server.requests.append(self.path)
        body = self.server.body_for(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "application/xml-dtd" if self.path.endswith((".dtd", ".pe"))
                         else "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_HEAD = do_GET

    def log_message(self, *args):
        pass


class Traps:
    """A local HTTP server on 127.0.0.1 recording every request, a secret file and a FIFO
    tripwire, each serving a canary. Use as a context manager; `touched()` says what was reached."""

    def __init__(self, directory: str):
        tag = uuid.uuid4().hex[:12].upper()
        self.canary_file = f"ZSSECRETFILE{tag}"
        self.canary_http = f"ZSSECRETHTTP{tag}"
        self.canary_fifo = f"ZSSECRETFIFO{tag}"
        self.secret = os.path.join(directory, "secret.txt")
        with open(self.secret, "w", encoding="utf-8") as f:
            f.write(self.canary_file)
        self.secret_dtd = os.path.join(directory, "secret.dtd")
        with open(self.secret_dtd, "w", encoding="utf-8") as f:
            f.write(f'<!ENTITY s "{self.canary_file}">')
        self.tripwire = os.path.join(directory, "tripwire.fifo")
        os.mkfifo(self.tripwire)
        self.opened: list[float] = []
        self._stop = threading.Event()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.server.requests = []
        self.server.body_for = self._body_for
        self.port = self.server.server_address[1]

    def _body_for(self, path: str) -> bytes:
        if path.endswith((".dtd", ".pe")):
            return f'<!ENTITY s "{self.canary_http}">'.encode()
        return self.canary_http.encode()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/{name}"

    @property
    def canaries(self) -> tuple[str, ...]:
        return self.canary_file, self.canary_http, self.canary_fifo

    @property
    def requests(self) -> list[str]:
        return list(self.server.requests)

    def _watch(self):
        """Open the FIFO for writing whenever a reader has it open (a non-blocking open succeeds
        only then): the reader is noticed, gets the canary and EOF, and never blocks for long."""
        while not self._stop.is_set():
            try:
                fd = os.open(self.tripwire, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:                     # ENXIO: nobody is reading
                time.sleep(0.002)
                continue
            self.opened.append(time.time())
            try:
                os.write(fd, self.canary_fifo.encode())
            except OSError:
                pass
            os.close(fd)
            time.sleep(0.01)

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self._watcher = threading.Thread(target=self._watch, daemon=True)
        self._watcher.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self.server.shutdown()
        self.server.server_close()
        self._watcher.join(2)

    def reset(self):
        self.server.requests.clear()
        self.opened.clear()

    def touched(self) -> list[str]:
        """What was reached since the last reset: HTTP requests, openings of the tripwire."""
        return ([f"HTTP request to 127.0.0.1:{self.port}{p}" for p in self.requests] +
                [f"the tripwire FIFO {self.tripwire} was opened"] * len(self.opened))

    def leaks(self, texts: dict[str, bytes | str]) -> list[str]:
        """Which outputs hold a canary."""
        out = []
        for where, t in texts.items():
            raw = t if isinstance(t, bytes) else t.encode("utf-8", "replace")
            for c in self.canaries:
                if c.encode() in raw or c.encode("utf-16-le") in raw or c.encode("utf-16-be") in raw:
                    out.append(f"{where} holds the canary {c}")
        return out


# -- the attacks ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Attack:
    name: str
    expect: str                          # refuse | xinclude | accept
    build: Callable[[str, Traps], str]   # (valid TEI without declaration, traps) → hostile TEI
    big: bool = False                    # tens of MB: the bounded test sample takes few of these


def _file_url(path: str) -> str:
    return "file://" + path


def _billion_laughs(doc, t):
    ents = '<!ENTITY lol0 "lol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol%d;" % (i - 1)) * 10}">' for i in range(1, 10))
    return in_text(in_prolog(doc, f"<!DOCTYPE TEI [{ents}]>"), "&lol9;")


def _quadratic(doc, t):
    return in_text(in_prolog(doc, f'<!DOCTYPE TEI [<!ENTITY a "{"a" * 50_000}">]>'), "&a;" * 20_000)


def _huge_attribute(doc, t):
    return in_root_tag(doc, 'n="' + "x" * 50_000_000 + '"')


def _million_attributes(doc, t):
    return in_root_tag(doc, " ".join(f'a{i}="1"' for i in range(1_000_000)))


def _too_deep(doc, t):
    return in_body(doc, nested(limit("MAX_DEPTH") + 1 - body_depth(doc)))  # one level too deep


XINCLUDE = 'xmlns:xi="http://www.w3.org/2001/XInclude"'

ATTACKS: list[Attack] = [
    Attack("entity-file", "refuse", lambda d, t: in_text(in_prolog(
        d, f'<!DOCTYPE TEI [<!ENTITY x SYSTEM "{_file_url(t.secret)}">]>'), "&x;")),
    Attack("entity-fifo", "refuse", lambda d, t: in_text(in_prolog(
        d, f'<!DOCTYPE TEI [<!ENTITY x SYSTEM "{_file_url(t.tripwire)}">]>'), "&x;")),
    Attack("entity-http", "refuse", lambda d, t: in_text(in_prolog(
        d, f'<!DOCTYPE TEI [<!ENTITY x SYSTEM "{t.url("entity")}">]>'), "&x;")),
    Attack("entity-internal", "refuse", lambda d, t: in_text(in_prolog(
        d, '<!DOCTYPE TEI [<!ENTITY x "內部實體">]>'), "&x;")),
    Attack("billion-laughs", "refuse", _billion_laughs),
    Attack("quadratic-blowup", "refuse", _quadratic),
    Attack("dtd-local-path", "refuse", lambda d, t: in_text(in_prolog(
        d, f'<!DOCTYPE TEI SYSTEM "{t.tripwire}">'), "&s;")),
    Attack("dtd-file-url", "refuse", lambda d, t: in_text(in_prolog(
        d, f'<!DOCTYPE TEI SYSTEM "{_file_url(t.secret_dtd)}">'), "&s;")),
    Attack("dtd-http", "refuse", lambda d, t: in_text(in_prolog(
        d, f'<!DOCTYPE TEI SYSTEM "{t.url("tei.dtd")}">'), "&s;")),
    Attack("dtd-public-http", "refuse", lambda d, t: in_text(in_prolog(
        d, f'<!DOCTYPE TEI PUBLIC "-//ZS//DTD Hostile//EN" "{t.url("public.dtd")}">'), "&s;")),
    Attack("parameter-entity-http", "refuse", lambda d, t: in_text(in_prolog(
        d, f'<!DOCTYPE TEI [<!ENTITY % p SYSTEM "{t.url("param.pe")}"> %p;]>'), "&s;")),
    Attack("parameter-entity-file", "refuse", lambda d, t: in_text(in_prolog(
        d, f'<!DOCTYPE TEI [<!ENTITY % p SYSTEM "{_file_url(t.tripwire)}"> %p;]>'), "&s;")),
    Attack("doctype-no-subset", "refuse", lambda d, t: in_prolog(d, "<!DOCTYPE TEI>")),
    Attack("xml-stylesheet-pi", "refuse", lambda d, t: in_prolog(
        d, f'<?xml-stylesheet type="text/xsl" href="{t.url("style.xsl")}"?>')),
    Attack("pi-prolog", "refuse", lambda d, t: in_prolog(d, "<?zhushu-evil run=\"rm -rf\"?>")),
    Attack("pi-in-root", "refuse", lambda d, t: in_body(d, '<?php system("id"); ?>')),
    Attack("pi-epilog", "refuse", lambda d, t: in_epilog(d, f'<?xml-stylesheet href="{t.url("late.xsl")}"?>')),
    Attack("xml-model-in-root", "refuse", lambda d, t: in_body(d, f'<?xml-model href="{t.url("in-root.rng")}"?>')),
    Attack("xml-model-epilog", "refuse", lambda d, t: in_epilog(d, f'<?xml-model href="{t.url("epilog.rng")}"?>')),
    Attack("name-too-long", "refuse", lambda d, t: in_body(d, "<" + "名" * 60_000 + "/>")),
    Attack("xinclude-http", "xinclude", lambda d, t: in_body(
        d, f'<xi:include {XINCLUDE} href="{t.url("include.xml")}" parse="text"/>')),
    Attack("xinclude-file", "xinclude", lambda d, t: in_body(
        d, f'<xi:include {XINCLUDE} href="{_file_url(t.secret)}" parse="text"/>')),
    Attack("xinclude-fifo", "xinclude", lambda d, t: in_body(
        d, f'<xi:include {XINCLUDE} href="{t.tripwire}" parse="text"/>')),
    Attack("xml-model", "accept", lambda d, t: in_prolog(
        d, f'<?xml-model href="{t.url("schema.rng")}" type="application/xml" '
           f'schematypens="http://relaxng.org/ns/structure/1.0"?>')),
    Attack("too-deep", "refuse", _too_deep),
    Attack("attribute-50mb", "refuse", _huge_attribute, big=True),
    Attack("million-attributes", "refuse", _million_attributes, big=True),
]
BY_NAME = {a.name: a for a in ATTACKS}


# -- running one case and judging it ----------------------------------------------------------------
def command_args(command: str, path: str, outdir: str) -> list[str]:
    return {"validate": ["validate", path], "text": ["text", path],
            "html": ["render", "html", path, "-o", outdir],
            "pdf": ["render", "pdf", path, "-o", outdir]}[command]


def output_texts(run, outdir: str) -> dict[str, bytes | str]:
    """Everything a run produced: its stdout and stderr and every file it wrote (a PDF as the
    text poppler reads from it: its streams are compressed)."""
    import subprocess
    texts: dict[str, bytes | str] = {"stdout": run.out, "stderr": run.err}
    for d, _, files in os.walk(outdir):
        for f in files:
            p = os.path.join(d, f)
            if not stat.S_ISREG(os.lstat(p).st_mode):
                continue
            with open(p, "rb") as fh:
                texts[p] = fh.read()
            if p.endswith(".pdf"):
                try:
                    texts[p + " (text)"] = subprocess.run(["pdftotext", "-enc", "UTF-8", p, "-"],
                                                          capture_output=True, timeout=30).stdout
                except (OSError, subprocess.SubprocessError):
                    pass
    return texts


def judge(attack: Attack, command: str, path: str, run, traps: Traps, outdir: str,
          time_limit: float = 2.0) -> list[str]:
    """What went wrong with `run` (zhushu COMMAND on the hostile file `path`); [] if nothing."""
    from .oracle import check_run, problem_lines
    bad = [str(f) for f in check_run(run, report_on_stdout=command == "validate")]
    if run.code is None:
        return bad + traps.touched()
    messages = run.err + ("\n" + run.text if command == "validate" else "")
    if attack.expect == "refuse":
        if run.code != 2:
            bad.append(f"not refused: {run.describe()}")
        fatal = [m for m in problem_lines(messages) if m["level"] == "fatal"]
        if len(fatal) != 1 or not fatal[0]["rule"].startswith("ZS-XML-") or fatal[0]["file"] != path:
            bad.append(f"expected one `{path}:LINE:COL: fatal: ZS-XML-…` line, got "
                       f"{[m.group(0)[:200] for m in fatal] or run.first_err()[:200]!r}")
        if run.seconds > time_limit:
            bad.append(f"refusal took {run.seconds:.2f} s (limit {time_limit} s)")
    else:
        want = 1 if (attack.expect == "xinclude" and command == "validate") else 0
        if run.code != want:
            bad.append(f"expected exit {want}: {run.describe()}")
        if attack.expect == "xinclude" and command == "validate" and not any(
                m["rule"] == "ZS-SCHEMA-001" for m in problem_lines(messages)):
            bad.append("validate does not report the XInclude element as a schema error")
    bad += traps.touched()
    bad += traps.leaks(output_texts(run, outdir))
    return bad
