"""`zhushu validate`: rules with ids and positions, exit codes, hostile input refused."""
import re

import pytest

from conftest import ROOT

TEI_FILE = ROOT / "tei" / "004_788d901eea474415.xml"
GOOD = TEI_FILE.read_text(encoding="utf-8")


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def write(tmp_path, name, text):
    """A TEI file in a corpus of its own: the shared files (persons.xml, categories.xml) beside it."""
    import shutil

    from pipeline.constants import SHARED_FILES
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    for shared in SHARED_FILES:
        shutil.copy(ROOT / "tei" / shared, tmp_path / shared)
    return p


def test_archival_tei_is_valid(run):
    code, out, err = run("validate", ROOT / "tei")
    assert code == 0, out
    assert "0 errors" in err


# (rule, mutation of the good file, the text whose line the error must name)
BROKEN = [
    ("ZS-ID-001", lambda t: t.replace('xml:id="u2.z1"', 'xml:id="u1.z1"'), 'xml:id="u1.z1" resp="psn:zhengxuan" target="#u2.j1"'),
    ("ZS-PTR-001", lambda t: t.replace('target="#u4.z1"', 'target="#u999.z1"', 1), 'target="#u999.z1"'),
    ("ZS-TYPE-001", lambda t: t.replace('<note type="yinyi"', '<note type="yinyi-x"', 1), '<note type="yinyi-x"'),
    ("ZS-SHU-001", lambda t: t.replace('target="#u2.j1" corresp="#u2.j1"><label type="mark">',
                                      'target="#u3.j1" corresp="#u3.j1"><label type="mark">'), 'xml:id="u2.s1"'),
    ("ZS-SHU-003", lambda t: t.replace('target="#u2.j1" corresp="#u2.j1"><label type="mark">',
                                      'target="#u2.j1" corresp="#u2.j1 #u2.z1"><label type="mark">'), 'xml:id="u2.s1"'),
    ("ZS-TEXT-002", lambda t: t.replace("若以时入宾", "若以\ufffd入宾", 1), "若以\ufffd入宾"),
    ("ZS-TEXT-001", lambda t: t.replace("若以时入宾", "若以e\u0301入宾", 1), "若以e\u0301入宾"),
]


@pytest.mark.parametrize("rule,mutate,needle", BROKEN, ids=[b[0] for b in BROKEN])
def test_each_rule_reports_id_and_line(run, tmp_path, rule, mutate, needle):
    bad = mutate(GOOD)
    assert bad != GOOD
    p = write(tmp_path, f"{rule}.xml", bad)
    code, out, err = run("validate", p)
    assert code == 1, out
    hits = [l for l in out.splitlines() if f": {rule}: " in l]
    assert hits, out
    m = re.match(r"(.+?):(\d+):(\d+): error: ", hits[0])
    assert m and m.group(1) == str(p)
    assert int(m.group(2)) == line_of(bad, needle)
    assert int(m.group(3)) >= 1


def test_schema_errors_are_reported(run, tmp_path):
    p = write(tmp_path, "s.xml", GOOD.replace("<head type=\"juan\" xml:id=\"d1.h\">", "<bogus/><head type=\"juan\" xml:id=\"d1.h\">"))
    code, out, _ = run("validate", p)
    assert code == 1 and "ZS-SCHEMA-001" in out


def test_unusable_input_exits_2(run, tmp_path):
    code, out, err = run("validate", write(tmp_path, "n.xml", "not xml at all"))
    assert code == 2 and "n.xml:1:1: fatal: ZS-XML-001" in out
    code, out, err = run("validate", tmp_path / "absent.xml")
    assert code == 2


def test_dtd_and_entities_are_refused(run, tmp_path):
    xxe = ('<?xml version="1.0"?>\n<!DOCTYPE TEI [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
           '<TEI xmlns="http://www.tei-c.org/ns/1.0">&x;</TEI>')
    code, out, err = run("validate", write(tmp_path, "xxe.xml", xxe))
    assert code == 2 and "root:" not in out and "DTD" in out
