"""`zhushu convert`: outputs, reports, exit codes, and bad input without tracebacks."""
import json
import os
import subprocess
import sys

from conftest import ROOT, SEED_004


def test_convert_file_to_stdout_and_report(run, tmp_path):
    rep = tmp_path / "r.json"
    code, out, err = run("convert", SEED_004, "--report", rep)
    assert code == 0
    assert out.startswith("<?xml") and "周禮注疏 卷三十八" in out
    data = json.loads(rep.read_text(encoding="utf-8"))
    r = data["reports"][0]
    assert r["layout"] == "paren" and "[疏] lines" in r["layout_reason"]
    w = next(i for i in r["issues"] if i["code"] == "ZS-CONV-GLOSS")
    assert w["line"] == 3 and w["col"] > 1
    assert any(b["method"] == "lemma" for b in r["boundaries"])


def test_convert_directory_needs_output_dir(run, tmp_path):
    code, out, err = run("convert", ROOT / "corpus")
    assert code == 2 and "-o DIR" in err
    code, out, err = run("convert", ROOT / "corpus", "-o", tmp_path / "out", "-q")
    assert code == 0
    assert (tmp_path / "out" / "004_788d901eea474415.xml").exists()


def test_format_is_chosen_from_the_registry(run, tmp_path):
    code, out, err = run("convert", SEED_004, "--format", "paren", "-o", tmp_path / "a.xml")
    assert code == 0
    code, out, err = run("convert", SEED_004, "--format", "nope")
    assert code == 2 and "nope" in err
    code, out, _ = run("formats")
    from pipeline.readers import READERS
    assert [line.split("\t")[0] for line in out.splitlines()] == sorted(READERS)


def one_line_error(err: str, name: str):
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == 1, err
    assert name in lines[0] and "Traceback" not in err
    return lines[0]


def test_empty_file(run, tmp_path):
    p = tmp_path / "empty.txt"
    p.write_text("  \n\n")
    code, out, err = run("convert", p)
    assert code == 2
    assert "empty" in one_line_error(err, "empty.txt")


def test_binary_junk(run, tmp_path):
    p = tmp_path / "junk.txt"
    p.write_bytes(bytes(range(256)) * 8)
    code, out, err = run("convert", p)
    assert code == 2
    assert "not a text file" in one_line_error(err, "junk.txt")


def test_invalid_utf8_names_line_and_column(run, tmp_path):
    p = tmp_path / "bad.txt"
    p.write_bytes("卷一\n王曰：".encode() + b"\xff\xfe\xfa\x80\x80" + "大哉。".encode())
    code, out, err = run("convert", p)
    assert code == 2
    line = one_line_error(err, "bad.txt")
    assert "bad.txt:2:4:" in line


def test_empty_directory(run, tmp_path):
    d = tmp_path / "nothing"
    d.mkdir()
    code, out, err = run("convert", d, "-o", tmp_path / "o")
    assert code == 2
    assert "no .txt files" in one_line_error(err, "nothing")


def test_missing_file(run, tmp_path):
    code, out, err = run("convert", tmp_path / "absent.txt")
    assert code == 2
    one_line_error(err, "absent.txt")


def test_unknown_layout(run, tmp_path):
    p = tmp_path / "prose.txt"
    p.write_text("This is an English sentence with no commentary at all.\n")
    code, out, err = run("convert", p)
    assert code == 2
    assert "--format" in one_line_error(err, "prose.txt")


def test_cut_off_inside_parenthesis_is_a_warning(run, tmp_path):
    p = tmp_path / "cut.txt"
    text = SEED_004.read_text(encoding="utf-8")
    cut = text.index("（", 2000) + 10
    p.write_text(text[:cut], encoding="utf-8")
    code, out, err = run("convert", p, "-o", tmp_path / "cut.xml")
    assert code == 0
    assert "ZS-CONV-UNCLOSED" in err
    code, out, _ = run("text", tmp_path / "cut.xml")
    from pipeline.chars import lossless_form
    assert out.strip() == lossless_form(text[:cut])


def test_python_m_pipeline_is_the_zhushu_command(tmp_path):
    """`python -m pipeline` runs the CLI: the same conversion, messages and exit codes."""
    bad = tmp_path / "empty.txt"
    bad.write_text("", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "pipeline", "convert", str(SEED_004), str(bad), "-o",
                        str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "empty.txt:1:1: fatal: ZS-SRC-001" in r.stderr
    assert "004_788d901eea474415.txt → " in r.stderr and (tmp_path / "out" / "004_788d901eea474415.xml").exists()


def test_console_script_has_no_traceback(tmp_path):
    exe = os.path.join(os.path.dirname(sys.executable), "zhushu")
    p = tmp_path / "junk.txt"
    p.write_bytes(b"\x00\x01\x02" * 100)
    r = subprocess.run([exe, "convert", str(p)], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "junk.txt" in r.stderr


def test_convert_in_processes_is_the_same_conversion(run, tmp_path):
    """-j 2 writes the same bytes, reports and messages, in input order, as one process, and a
    bad source among good ones is reported in its place with exit 2."""
    bad = tmp_path / "empty.txt"
    bad.write_text("", encoding="utf-8")
    args = (ROOT / "corpus", bad)
    one = run("convert", *args, "-o", tmp_path / "one", "--report", tmp_path / "one.json")
    two = run("convert", *args, "-o", tmp_path / "two", "--report", tmp_path / "two.json", "-j", "2")
    assert one[0] == two[0] == 2
    assert one[2].replace(str(tmp_path / "one"), "") == two[2].replace(str(tmp_path / "two"), "")
    assert "empty.txt" in one[2].splitlines()[-1]
    assert (tmp_path / "one.json").read_bytes() == (tmp_path / "two.json").read_bytes()
    names = sorted(os.listdir(tmp_path / "one"))
    # the five TEI and the corpus's shared files (persons.xml, categories.xml)
    assert len(names) == 7 and names == sorted(os.listdir(tmp_path / "two"))
    for n in names:
        assert (tmp_path / "one" / n).read_bytes() == (tmp_path / "two" / n).read_bytes()


def test_big5_and_gb18030_sources_decode_to_their_text(tmp_path):
    """Nearly every Big5 byte sequence is valid GB18030 too: the reading made of common
    characters wins, whichever encoding the file is in."""
    from pipeline.sources.decoding import read_source
    text = ("周禮注疏卷三十八\n及宿，則令聚柝。（令，令野廬氏。○廬，力於反。）\n"
            "[疏]注“令令野廬氏”○釋曰：知“令野廬氏”，其職云“有賓客，令其地之民聚柝之”，故知也。\n")
    for enc in ("big5", "gb18030"):
        p = tmp_path / f"{enc}.txt"
        p.write_bytes(text.encode(enc))
        assert read_source(str(p)).text == text, enc


def test_report_lists_unusable_sources_too(run, tmp_path):
    bad = tmp_path / "empty.txt"
    bad.write_text("", encoding="utf-8")
    rep = tmp_path / "r.json"
    code, _, err = run("convert", SEED_004, bad, "-o", tmp_path / "out", "--report", rep)
    assert code == 2
    reports = json.loads(rep.read_text(encoding="utf-8"))["reports"]
    assert [r["source"].rsplit("/", 1)[-1] for r in reports] == [SEED_004.name, "empty.txt"]
    assert reports[1]["issues"][0]["level"] == "fatal" and reports[1]["issues"][0]["code"] == "ZS-SRC-001"
