"""Hostile XML (tests/fuzzing/hostile_xml.py): each attack × each encoding × each command that
reads TEI is refused (exit 2, one `fatal: ZS-XML-…` line, under 2 s) or, for XInclude and
xml-model, inert — and never reads the local files or reaches the local server it points at.

`make test` runs a bounded sample: every attack in every encoding for validate, text and render
html (the two attacks of tens of MB in two encodings each), and a few attacks for render pdf
(each run starts Chromium); ZHUSHU_FUZZ_FULL=1 (or `make fuzz`) runs the whole matrix."""
import os
import pathlib

import pytest

from conftest import ROOT, need_printing
from fuzzing import hostile_xml as hx
from fuzzing.worker import Worker

BASE = ROOT / "tei" / "002_3cfb79cd5f7996b0.xml"
FULL = os.environ.get("ZHUSHU_FUZZ_FULL") == "1"
ENCODINGS = list(hx.ENCODINGS)
PDF_SAMPLE = ("dtd-http", "parameter-entity-http", "xml-stylesheet-pi", "pi-in-root", "xinclude-http",
              "too-deep", "billion-laughs")


def _cases():
    cases = []
    for a in hx.ATTACKS:
        for k, enc in enumerate(ENCODINGS):
            for command in hx.COMMANDS:
                if FULL:
                    cases.append((a.name, enc, command))
                elif command == "pdf":
                    # one encoding per attack, a different one for each
                    if a.name in PDF_SAMPLE and k == PDF_SAMPLE.index(a.name) % len(ENCODINGS):
                        cases.append((a.name, enc, command))
                elif not a.big or k in (hx.ATTACKS.index(a) % 3, 4 + hx.ATTACKS.index(a) % 6):
                    cases.append((a.name, enc, command))
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def worker():
    """The commands run in a worker process: one stuck in C is killed after its time limit."""
    with Worker() as w:
        yield w


@pytest.fixture(scope="module")
def traps(tmp_path_factory):
    with hx.Traps(str(tmp_path_factory.mktemp("traps"))) as t:
        yield t


@pytest.fixture(scope="module")
def hostile(traps, tmp_path_factory):
    """hostile(attack, encoding) → the path of that file, made once for the module; the files
    of tens of MB are removed at its end."""
    base = hx.strip_declaration(BASE.read_text(encoding="utf-8"))
    where = tmp_path_factory.mktemp("hostile")
    made = {}

    def make(attack: str, encoding: str) -> str:
        if (attack, encoding) not in made:
            p = where / f"{attack}.{encoding}.xml"
            p.write_bytes(hx.encode(hx.BY_NAME[attack].build(base, traps), encoding))
            made[attack, encoding] = str(p)
        return made[attack, encoding]
    yield make
    for p in made.values():
        os.remove(p)


@pytest.mark.parametrize("attack,encoding,command", CASES, ids=["-".join(c) for c in CASES])
def test_hostile_xml_is_refused_or_inert(attack, encoding, command, traps, hostile, worker, tmp_path):
    if command == "pdf":
        need_printing()
    path = hostile(attack, encoding)
    outdir = tmp_path / "out"
    traps.reset()
    run = worker.run(*hx.command_args(command, path, str(outdir)), timeout=10)
    problems = hx.judge(hx.BY_NAME[attack], command, path, run, traps, str(outdir))
    assert not problems, "\n".join(problems)


def test_every_attack_changes_the_document_and_keeps_it_otherwise_readable(traps):
    """The generator itself: each attack makes a different document; the base is valid TEI that
    every encoding round-trips."""
    from lxml import etree
    base = hx.strip_declaration(BASE.read_text(encoding="utf-8"))
    docs = {a.name: a.build(base, traps) for a in hx.ATTACKS if not a.big}
    assert len(set(docs.values())) == len(docs) and base not in docs.values()
    for enc in ENCODINGS:
        assert etree.fromstring(hx.encode(base, enc)).tag == "{%s}TEI" % hx.TEI_NS, enc
    # the XInclude and xml-model documents are well-formed, the nesting one as deep as intended
    for name in ("xinclude-http", "xml-model"):
        etree.fromstring(hx.encode(docs[name], "utf-8"))
    deep = etree.fromstring(docs["too-deep"].encode(), etree.XMLParser(huge_tree=True))
    assert max(len(list(e.iterancestors())) + 1 for e in deep.iter()) == hx.limit("MAX_DEPTH") + 1


def test_the_traps_catch_an_unsafe_parser(traps, tmp_path):
    """The traps can fail a test: a parser that resolves entities reads the secret and opens the
    tripwire, and a request reaches the server (libxml2 2.13 and later fetch no http at all;
    Saxon, behind render, does), and each is noticed."""
    import urllib.request

    from lxml import etree
    unsafe = etree.XMLParser(resolve_entities=True, no_network=False, load_dtd=True)
    base = hx.strip_declaration(BASE.read_text(encoding="utf-8"))
    traps.reset()
    for name in ("entity-file", "entity-fifo"):
        doc = hx.encode(hx.BY_NAME[name].build(base, traps), "utf-16le")
        leaked = etree.tostring(etree.fromstring(doc, unsafe), encoding="unicode")
        assert traps.leaks({name: leaked}), name
    with urllib.request.urlopen(traps.url("entity"), timeout=5) as r:
        assert traps.leaks({"http": r.read()})
    touched = traps.touched()
    assert any("HTTP request" in t for t in touched) and any("tripwire" in t for t in touched), touched
    traps.reset()
    assert traps.touched() == []


def test_xml_model_is_printed_in_every_encoding(traps, hostile, worker, tmp_path):
    """`<?xml-model?>` is inert for render pdf too, in every encoding: one run prints them all."""
    need_printing()
    paths = [hostile("xml-model", enc) for enc in ENCODINGS]
    traps.reset()
    run = worker.run("render", "pdf", *paths, "-o", tmp_path, timeout=60)
    assert run.code == 0, run.describe()
    assert sorted(p.name for p in pathlib.Path(tmp_path).glob("*.pdf")) == sorted(
        pathlib.Path(p).stem + ".pdf" for p in paths)
    assert traps.touched() == []
