"""`zhushu validate` as the CI gate: every rule in every report format, hostile XML refused."""
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lxml import etree

from conftest import ROOT

INVALID = ROOT / "tests" / "invalid"
EXPECTED = [l.split("\t") for l in (INVALID / "expected.tsv").read_text(encoding="utf-8").splitlines()
            if l and not l.startswith("#")]
WARNING_ONLY = {"ZS-SHU-002.xml", "ZS-YINYI-001.xml", "ZS-HDR-001.xml"}


@pytest.mark.parametrize("name,rule,line", EXPECTED, ids=[e[0] for e in EXPECTED])
@pytest.mark.parametrize("fmt", ["text", "json", "github", "junit"])
def test_each_broken_file_in_each_format(run, name, rule, line, fmt):
    path = INVALID / name
    code, out, err = run("validate", path, "--format", fmt)
    line = int(line)
    fatal = rule.startswith("ZS-XML")
    assert code == (2 if fatal else 0 if name in WARNING_ONLY else 1), out + err
    if fmt == "text":
        assert any(l.startswith(f"{path}:{line}:") and f": {rule}: " in l for l in out.splitlines()), out
        assert "1 file checked, 1 valid" in err if name in WARNING_ONLY else "1 file checked, 0 valid, 1 invalid" in err
    elif fmt == "json":
        data = json.loads(out)
        issues = data["files"][0]["issues"]
        assert any(i["rule"] == rule and i["line"] == line for i in issues), issues
        assert data["files"][0]["valid"] is (name in WARNING_ONLY)
    elif fmt == "github":
        kind = "warning" if name in WARNING_ONLY else "error"
        assert any(l.startswith(f"::{kind} file=") and f",line={line}," in l and f"title={rule}::" in l
                   for l in out.splitlines()), out
    else:
        suite = etree.fromstring(out.encode())
        case = suite.find(".//testcase")
        failure = case.find("failure")
        if name in WARNING_ONLY:
            assert failure is None and f"{rule}" in case.findtext("system-out")
        else:
            assert failure is not None and f":{line}:" in failure.text and rule in failure.text


@pytest.mark.parametrize("name", ["valid.xml", "valid-kanripo.xml"])
def test_valid_file(run, name):
    code, out, err = run("validate", INVALID / name)
    assert code == 0 and out == "" and "1 valid" in err


def test_strict(run):
    code, out, _ = run("validate", INVALID / "ZS-SHU-002.xml", "--strict")
    assert code == 1


def test_stdin_list_and_jobs_give_the_same_report(run):
    listing = "\n".join([str(p) for p in sorted(INVALID.glob("*.xml"))] +
                        ["README.md", str(INVALID / "deleted-in-this-diff.xml")]) + "\n"
    code1, out1, _ = run("validate", "-", input=listing)
    code2, out2, _ = run("validate", INVALID, "--jobs", "2")
    assert code1 == code2 == 2                     # the not-well-formed ones are unusable
    assert out1 == out2 and out1.count("ZS-") >= len(EXPECTED)
    code, out, err = run("validate", "-", input="README.md\n")
    assert code == 0 and "0 files" in err


# -- hostile XML --------------------------------------------------------------------------------
TEI_OPEN = '<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader/><text><body><div type="juan" xml:id="d1">'
TEI_CLOSE = "</div></body></text></TEI>"
LOL = "".join(f'<!ENTITY lol{i} "{"&lol%d;" % (i - 1) * 10}">' for i in range(1, 10))
ATTACKS = {
    "xxe": '<?xml version="1.0"?>\n<!DOCTYPE TEI [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
           + TEI_OPEN + "<ab type=\"jing\" xml:id=\"u1\"><seg xml:id=\"u1.j1\">&x;</seg></ab>" + TEI_CLOSE,
    "billion-laughs": '<?xml version="1.0"?>\n<!DOCTYPE TEI [<!ENTITY lol0 "lol">' + LOL + ']>\n'
                      + TEI_OPEN + "<ab type=\"jing\" xml:id=\"u1\"><seg xml:id=\"u1.j1\">&lol9;</seg></ab>" + TEI_CLOSE,
    "quadratic": '<?xml version="1.0"?>\n<!DOCTYPE TEI [<!ENTITY a "' + "a" * 50000 + '">]>\n'
                 + TEI_OPEN + "<ab type=\"jing\" xml:id=\"u1\"><seg xml:id=\"u1.j1\">" + "&a;" * 20000
                 + "</seg></ab>" + TEI_CLOSE,
    "external-dtd": '<?xml version="1.0"?>\n<!DOCTYPE TEI SYSTEM "http://127.0.0.1:9/evil.dtd">\n'
                    + TEI_OPEN + TEI_CLOSE,
    "stylesheet-pi": '<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="http://127.0.0.1:9/x.xsl"?>\n'
                     + TEI_OPEN + TEI_CLOSE,
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_attacks_are_refused_fast_and_leak_nothing(tmp_path, attack):
    p = tmp_path / f"{attack}.xml"
    p.write_text(ATTACKS[attack], encoding="utf-8")
    exe = Path(sys.executable).with_name("zhushu")
    for args in (["validate", str(p)], ["text", str(p)], ["render", "html", str(p), "-o", str(tmp_path / "site")]):
        t0 = time.perf_counter()
        r = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=10)
        assert time.perf_counter() - t0 < 2.0, args
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        out = r.stdout + r.stderr
        assert "root:" not in out and "lollol" not in out and "aaaa" not in out and "Traceback" not in out
        assert out.count("\n") <= 2
    assert not (tmp_path / "site" / f"{attack}.html").exists()


@pytest.mark.parametrize("attribute", [
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="x http://127.0.0.1:9/x.xsd"',
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="ab"',
    # the namespace name spelled with a character reference: not in the bytes as such
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema&#x2D;instance" xsi:type="ab"',
], ids=["schemaLocation", "type", "char-ref"])
def test_xsi_attributes_are_refused(tmp_path, run, attribute):
    """XSD validators honour xsi:type and accept xsi:schemaLocation anywhere; our TEI is closed."""
    tei = (INVALID / "valid.xml").read_text(encoding="utf-8")
    bad = tei.replace('<ab type="jing"', f'<ab {attribute} type="jing"', 1)
    assert bad != tei
    p = tmp_path / "xsi.xml"
    p.write_text(bad, encoding="utf-8")
    code, out, _ = run("validate", p)
    assert code == 1 and "ZS-SCHEMA-001" in out and "xsi" in out.lower(), out


def test_a_duplicate_id_is_one_finding_at_its_element(run):
    # uniqueness is the rule's alone (the schema's xml:id is an NCName, not an xs:ID): one
    # ZS-ID-001 at the second element, naming the line of the first, and no ZS-SCHEMA-001
    path = INVALID / "ZS-ID-001.xml"
    code, out, _ = run("validate", path)
    lines = out.splitlines()
    dup = [l for l in lines if "u1.z1" in l and ("ZS-ID-001" in l or "ZS-SCHEMA-001" in l)]
    assert code == 1 and len(dup) == 1, out
    text = path.read_text(encoding="utf-8").splitlines()
    first, second = [n for n, line in enumerate(text, 1) if 'xml:id="u1.z1"' in line]
    at = text[second - 1]
    col = at.rindex("<", 0, at.index('xml:id="u1.z1"')) + 1      # the element's start tag
    assert dup[0].startswith(f"{path}:{second}:{col}: "), out
    assert f"error: ZS-ID-001: duplicate xml:id 'u1.z1' (first on line {first})" in dup[0], out
    assert not any("ZS-SCHEMA-001" in l for l in lines), out


def test_comments_anywhere_in_the_body_are_allowed(tmp_path, run):
    """A comment after every start tag of the body: still valid (comments are no elements, and
    add no text to the spans the rules compare), and no traceback."""
    import re
    tei = (ROOT / "tei" / "004_788d901eea474415.xml").read_text(encoding="utf-8")
    head, body = tei.split("<body>", 1)
    p = tmp_path / "comments.xml"
    p.write_text(head + "<body>" + re.sub(r"(<[A-Za-z][^<>]*[^/]>)", r"\1<!-- c -->", body), encoding="utf-8")
    code, out, err = run("validate", p)
    assert code == 0 and out == "", out


def test_script_urls_are_errors_and_never_links(tmp_path, run):
    tei = (INVALID / "valid.xml").read_text(encoding="utf-8")
    bad = tei.replace('target="#u1.z1"', 'target="javascript:alert(document.cookie)"', 1) \
             .replace('ref="#zhengxuan"', 'ref="data:text/html,&lt;script&gt;x&lt;/script&gt;"', 1)
    assert bad.count("javascript:") == 1
    p = tmp_path / "xss.xml"
    p.write_text(bad, encoding="utf-8")
    code, out, _ = run("validate", p)
    assert code == 1 and "ZS-PTR-001" in out
    code, _, _ = run("render", "html", p, "-o", tmp_path / "site")
    html = (tmp_path / "site" / "xss.html").read_text(encoding="utf-8")
    assert "javascript:" not in html and 'href="data:' not in html


def test_validate_loads_no_converter_and_no_renderer():
    """The CI gate starts fast because it loads only what validation needs: not the converter,
    not the TEI writer, not Saxon or the browser driver (each costs a tenth of a second or more)."""
    probe = ("import sys\n"
             "from pipeline.cli import main\n"
             "sys.argv = ['zhushu', 'validate', sys.argv[1]]\n"
             "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
             "heavy = ('pipeline.convert', 'pipeline.tei', 'pipeline.render', 'pipeline.readers', 'saxonche', 'playwright')\n"
             "print(code, sorted(m for m in heavy if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", probe, str(INVALID / "valid.xml")], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split("\n")[-2]
    assert out == "0 []"
