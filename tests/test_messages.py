"""Where a problem is: issue 12 asks that every problem about a file be one line
`FILE:LINE:COL: LEVEL: RULE-ID: text` (an empty source is `FILE:1:1: fatal: …`), so that editors
and CI annotations can jump to it. pipeline/errors.py gives a problem of the whole file 1:1.
This test asks for the position on a sample of problems of every kind."""
import os
import shutil


from conftest import ROOT
from fuzzing import hostile_xml as hx
from fuzzing.oracle import PROBLEM, match_problem, run_cli, run_subprocess

SOURCE = ROOT / "corpus" / "002_3cfb79cd5f7996b0.txt"
GOOD_TEI = ROOT / "tei" / "002_3cfb79cd5f7996b0.xml"


def _cases(tmp_path):
    src = tmp_path / "s.txt"
    shutil.copyfile(SOURCE, src)
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    fifo = tmp_path / "pipe.xml"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.xml"
    base = hx.strip_declaration(GOOD_TEI.read_text(encoding="utf-8"))
    deep.write_bytes(hx.encode(hx.in_body(base, hx.nested(hx.limit("MAX_DEPTH") + 1 - hx.body_depth(base))), "utf-8"))
    return {
        "empty source": lambda: run_cli("convert", empty),
        "output onto the input": lambda: run_cli("convert", src, "-o", src),
        "work not named (a warning)": lambda: run_cli("convert", src, "-o", tmp_path / "out.xml"),
        "a FIFO": lambda: run_subprocess("text", str(fifo), timeout=10),
        "too deep": lambda: run_cli("text", deep),
        "missing report directory": lambda: run_cli("convert", src, "-o", tmp_path / "o2.xml",
                                                    "--report", tmp_path / "no" / "r.json"),
    }


def test_every_problem_about_a_file_names_line_and_column(tmp_path):
    without = []
    for what, run in _cases(tmp_path).items():
        r = run()
        for line in r.err.splitlines():
            m = match_problem(line)
            if m is not None and not line.startswith("zhushu: ") and not PROBLEM.match(line):
                without.append(f"{what}: {line}")
    assert not without, "problem lines without LINE:COL:\n" + "\n".join(without)
