"""Issue 13's "Must hold", file by file over the whole of ../shared/kanripo (skipped when it is
absent): every 卷 file of WYG, master, SBCK and bare converts with exit 0, passes zhushu
validate and tei_all, is lossless, carries one <pb> per page marker (its @facs resolving to the
page's image) and one <lb> per printed line; in the 四庫 注疏 each layer holds what the edition
marks as such and the 經 holds no markup or furniture.

The oracles are scripts/kanripo_check.py's, computed from the raw files (not with the pipeline's
own reading of them); that script prints the same checks as a table. Each folder is converted
once per session, as a user converts a repository checkout (`zhushu convert DIR -o OUT -j 2`),
and only the folders of the selected tests are (`-k KR1d0053_001` converts one folder). A
failing file shows by its id, `WYG/KR1d0053_001`.

The tests at the end judge the oracles themselves on a few lines written here, so that they
are known to fail where a TEI is wrong; they run without ../shared.
"""
from __future__ import annotations

import pathlib
import sys

import pytest

from conftest import ROOT, _tei_all_schema

sys.path.insert(0, str(ROOT / "scripts"))
import kanripo_check as kc  # noqa: E402

FILES = kc.juan_files(kc.KANRIPO) if kc.KANRIPO.is_dir() else []
FOLDER_OF = {kc.file_id(folder, path): folder for folder, path in FILES}
ZHUSHU = [(folder, path) for folder, path in FILES if kc.is_zhushu_juan(folder, path)]
FOLDERS = list(dict.fromkeys(folder for folder, _ in FILES))
shared = pytest.mark.skipif(not FILES, reason="../shared/kanripo not present")

each_file = pytest.mark.parametrize("juan", [kc.file_id(f, p) for f, p in FILES])
each_zhushu = pytest.mark.parametrize("juan", [kc.file_id(f, p) for f, p in ZHUSHU])


@pytest.fixture(scope="session")
def corpus(request, tmp_path_factory):
    """Every selected folder converted, validated and checked, once: a kanripo_check.Run."""
    wanted = set()
    for item in request.session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if getattr(item, "path", None) == pathlib.Path(__file__):
            wanted.add(FOLDER_OF.get(params.get("juan")) or params.get("folder"))
    wanted.discard(None)
    result = kc.run(kc.KANRIPO, tmp_path_factory.mktemp("kanripo"), jobs=2,
                    folders=wanted or None, tei_all=_tei_all_schema)
    s = result.seconds
    mb = sum(f["bytes"] for f in result.folders.values()) / 1e6
    line = (f"kanripo corpus: {len(result.files)} 卷 files, {mb:.1f} MB in {len(result.folders)} folders: "
            f"convert {s['convert']:.0f} s, validate {s['validate']:.0f} s, checks {s['checks']:.0f} s, "
            f"total {s['total']:.0f} s, {s['cpu']:.0f} CPU s")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():     # shown at once, not only for a failure
            reporter.write_line("\n" + line)
    return result


def _check(corpus, juan: str, name: str) -> None:
    """Fail with the check's own account of the first difference (no traceback: the oracle's
    message is the finding)."""
    r = corpus.files[juan]
    if name != "exit" and r["output"] is None:
        pytest.fail(f"{juan}: no TEI to check: {r['checks']['exit'][1]}", pytrace=False)
    if "oracle" in r["checks"]:
        pytest.fail(f"{juan}: the oracle broke on this file: {r['checks']['oracle'][1]}", pytrace=False)
    ok, detail = r["checks"][name]
    if ok is None:
        pytest.skip(detail)
    if not ok:
        pytest.fail(f"{juan}: {detail}", pytrace=False)


# -- every 卷 file ------------------------------------------------------------------------------------
@shared
@each_file
def test_converts_with_exit_0(corpus, juan):
    _check(corpus, juan, "exit")


@shared
@each_file
def test_zhushu_validate(corpus, juan):
    _check(corpus, juan, "validate")


@shared
@each_file
def test_tei_all(corpus, juan):
    _check(corpus, juan, "tei_all")


@shared
@each_file
def test_lossless(corpus, juan):
    """The TEI's text is the file's, less the markup and whitespace (compared in NFC)."""
    _check(corpus, juan, "lossless")


@shared
@each_file
def test_every_code_point_kept(corpus, juan):
    """The same, code point for code point: a CJK compatibility ideograph the edition prints
    (U+2F80F, U+FA54 …) is not its unified twin."""
    _check(corpus, juan, "code points")


@shared
@each_file
def test_one_pb_per_page_marker(corpus, juan):
    _check(corpus, juan, "pages")


@shared
@each_file
def test_pb_facs_is_the_listed_image(corpus, juan):
    _check(corpus, juan, "facs")


@shared
@each_file
def test_one_lb_per_printed_line(corpus, juan):
    _check(corpus, juan, "lines")


@shared
@pytest.mark.parametrize("juan", [kc.file_id(f, p) for f, p in FILES if not f.startswith("bare/")])
def test_line_rule_agrees_with_the_files_own_line_ends(juan):
    """The oracle's printed lines are the file's own: every ¶ but those of the page markers'
    lines (the bare editions' ¶ are phrase breaks, not printed lines: not asked of them)."""
    path = next(p for f, p in FILES if kc.file_id(f, p) == juan)
    ok, detail = kc.check_line_rule(kc.read_raw(path))
    assert ok, detail


# -- the 四庫 注疏 -------------------------------------------------------------------------------------
@shared
@each_zhushu
def test_yinyi_layer_is_the_editions_yinyi(corpus, juan):
    _check(corpus, juan, "yinyi")


@shared
@each_zhushu
def test_shu_layer_is_the_editions_shu(corpus, juan):
    _check(corpus, juan, "shu")


@shared
@each_zhushu
def test_zhu_lies_where_the_edition_marks_zhu(corpus, juan):
    _check(corpus, juan, "zhu")


@shared
@each_zhushu
def test_jing_holds_no_markup_or_furniture(corpus, juan):
    _check(corpus, juan, "jing")


# -- each work ----------------------------------------------------------------------------------------
@shared
@pytest.mark.parametrize("folder", FOLDERS)
def test_work_file_is_valid(corpus, folder):
    """The work's own TEI (<ID>.xml beside its 卷) passes zhushu validate and tei_all."""
    f = corpus.folders[folder]
    worst = max(r["exit"] for r in corpus.files.values() if r["folder"] == folder)
    assert f["rc"] == worst, f"zhushu convert {folder} exits {f['rc']}, its worst file {worst}: {f['stderr'][-300:]}"
    assert f["work"], f"no work file for {folder} (convert exit {f['rc']})"
    ok, detail = f["work_validate"]
    if not ok:
        pytest.fail(f"{folder}: zhushu validate: {detail}", pytrace=False)
    ok, detail = f.get("work_tei_all", [None, ""])
    if ok is None:
        pytest.skip(detail)
    if not ok:
        pytest.fail(f"{folder}: tei_all: {detail}", pytrace=False)


# -- the oracles themselves -----------------------------------------------------------------------------
# A 卷 in the style of the WYG 注疏 (written for these tests): a page marker on its own line,
# furniture, a note continued over a line and a page, a gaiji, a misprinted 注( for 疏(.
SAMPLE = """# -*- mode: mandoku-view -*-
#+TITLE: 禮記註疏
<pb:KR1d0053_WYG_001-1a>¶
欽定四庫全書¶
　禮記注疏卷一¶
　　漢鄭氏注　唐陸德明音義　孔穎達疏¶
　曲禮上¶
曲禮曰毋不敬注禮主於敬音義(毋音無/止之)¶
(詞也/)儼若思注&KR0427;矜莊貌疏(正義曰/此一)¶
<pb:KR1d0053_WYG_001-1b>¶
(節/)安定辭注(正義/曰審)¶
　¶
　禮記注疏卷一¶
"""

# Its TEI as a faithful conversion writes it (only what the oracles read).
GOOD = """<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><encodingDesc><charDecl><char
xml:id="KR0427"/></charDecl></encodingDesc></teiHeader>
<facsimile><surface xml:id="f001-1a"/><surface xml:id="f001-1b"/></facsimile>
<text><body><div>
<fw><pb ed="WYG" n="1-1a" facs="#f001-1a"/><lb/>欽定四庫全書</fw>
<head><lb/>禮記注疏卷一</head><fw><lb/>漢鄭氏注　唐陸德明音義　孔穎達疏</fw><head><lb/>曲禮上</head>
<ab type="jing"><seg><lb/>曲禮曰毋不敬</seg><label type="mark">注</label><note type="zhu">禮主於敬</note><label
type="mark">音義</label><note type="yinyi">毋音無<milestone unit="row"/>止之<lb/>詞也</note><seg>儼若思</seg><label
type="mark">注</label><note type="zhu"><g ref="#KR0427">\U00100427</g>矜莊貌</note></ab>
<note type="shu"><label type="mark">疏</label><p>正義曰此一<pb ed="WYG" n="1-1b" facs="#f001-1b"/><lb/>節</p></note>
<ab type="jing"><seg>安定辭</seg><note type="shu"><label type="mark">注</label><p>正義曰審</p></note></ab>
<lb/><trailer><lb/>禮記注疏卷一</trailer></div></body></text></TEI>
"""


def _judge(tmp_path, tei: str, sample: str = SAMPLE) -> dict:
    src = tmp_path / "KR1d0053_001.txt"
    src.write_text(sample, encoding="utf-8")
    out = tmp_path / "KR1d0053_001.xml"
    out.write_text(tei, encoding="utf-8")
    got = kc.judge(kc.read_raw(src), kc.read_tei(out), None, zhushu=True)
    got["line rule"] = kc.check_line_rule(kc.read_raw(src))
    return got


def _failing(results: dict) -> set:
    return {k for k, (ok, _) in results.items() if not ok}


def test_oracles_pass_a_faithful_tei(tmp_path):
    assert _failing(_judge(tmp_path, GOOD)) == set(), _judge(tmp_path, GOOD)


def test_oracle_reads_the_markup(tmp_path):
    src = tmp_path / "KR1d0053_001.txt"
    src.write_text(SAMPLE, encoding="utf-8")
    raw = kc.read_raw(src)
    assert raw.kept.startswith("欽定四庫全書禮記注疏卷一漢鄭氏注")
    assert "&KR0427;矜莊貌" in raw.kept and "(" not in raw.kept and "/" not in raw.kept
    assert [(m.ed, m.n, m.key) for m in raw.pages] == [("WYG", "1-1a", "001-1a"), ("WYG", "1-1b", "001-1b")]
    assert len(raw.lbs) == raw.own_lines == 9          # 11 ¶, less the two page markers' lines
    assert raw.order == ["pb"] + ["lb"] * 6 + ["pb"] + ["lb"] * 3
    notes = [(n.marker, raw.kept[n.start:n.end]) for n in raw.notes]
    assert notes == [("yinyi", "毋音無止之詞也"), ("shu", "正義曰此一節"), ("shu?", "正義曰審")]
    kinds = [f.kind for f in kc.furniture(raw)]
    assert kinds == [kc.HEADER, "卷 title", "commentators", "篇 title", "卷 title"]


def test_bare_line_rule(tmp_path):
    """A page marker after unfinished text ends that text's line (bare/KR1d0001's `…國。` then
    `<pb:…>¶`), and text after the last ¶ is a line."""
    src = tmp_path / "KR1d0001_001.txt"
    src.write_text("<pb:KR1d0001_tls_001-1a>¶\n惟王建國，¶\n以佐王均邦國。\n<pb:KR1d0001_tls_001-2a>¶\n\n治官之屬：\n",
                   encoding="utf-8")
    raw = kc.read_raw(src)
    assert [raw.kept[a:] [:4] for a in raw.lbs] == ["惟王建國", "以佐王均", "治官之屬"]
    assert [m.at for m in raw.pages] == [0, len("惟王建國，以佐王均邦國。")]


@pytest.mark.parametrize("name, change, fails", [
    ("a character lost", ("矜莊貌", "矜莊"), {"lossless", "code points"}),
    ("a gaiji written as its character", ('<g ref="#KR0427">\U00100427</g>', "\U00100427"),
     {"lossless", "code points", "zhu"}),
    ("a gaiji not declared", ('<char\nxml:id="KR0427"/>', ""), {"lossless"}),
    ("a page moved", ('此一<pb ed="WYG" n="1-1b" facs="#f001-1b"/><lb/>節', '此<pb ed="WYG" n="1-1b" facs="#f001-1b"/>一<lb/>節'),
     {"pages"}),
    ("a page's leaf wrong", ('n="1-1b"', 'n="1-2b"'), {"pages"}),
    ("a page pointing nowhere", ('facs="#f001-1b"', 'facs="#f001-9b"'), {"facs"}),
    ("a surface written twice", ('<surface xml:id="f001-1b"/>', '<surface xml:id="f001-1b"/>' * 2), {"facs"}),
    ("a line break lost", ("<lb/>詞也", "詞也"), {"lines"}),
    ("a line break moved", ("<lb/>詞也", "詞<lb/>也"), {"lines"}),
    ("a page after the line break it comes before", ('<pb ed="WYG" n="1-1b" facs="#f001-1b"/><lb/>節', '<lb/><pb ed="WYG" n="1-1b" facs="#f001-1b"/>節'),
     {"lines"}),
    ("音義 in the 注", ('<note type="zhu">禮主於敬</note><label\ntype="mark">音義</label><note type="yinyi">毋音無',
                      '<note type="zhu">禮主於敬</note><label\ntype="mark">音義</label><note type="zhu">毋音無'),
     {"yinyi", "zhu"}),
    ("the 注 swallowing its marker", ('禮主於敬</note><label\ntype="mark">音義</label>', '禮主於敬<label\ntype="mark">音義</label></note>'),
     {"zhu"}),
    ("the 篇 title in the 經", ("<head><lb/>曲禮上</head>", '<ab type="jing"><seg><lb/>曲禮上</seg></ab>'), {"jing"}),
    ("a marker's text in the 經", ('<seg>安定辭</seg>', '<seg>安定辭(</seg>'), {"jing", "lossless", "code points"}),
    ("the misprinted 注( read as 注", ('<note type="shu"><label type="mark">注</label><p>正義曰審</p></note>',
                                     '<label type="mark">注</label><note type="zhu">正義曰審</note>'), {"zhu"}),
    ("the 疏 cut short", ("<p>正義曰此一<pb", "<p>正義曰此</p></note><ab type=\"jing\"><seg>一</seg></ab><note type=\"shu\"><p><pb"),
     {"shu"}),
])
def test_oracles_fail_a_wrong_tei(tmp_path, name, change, fails):
    old, new = change
    assert old in GOOD
    got = _judge(tmp_path, GOOD.replace(old, new, 1))
    assert _failing(got) == fails, got


def test_a_compatibility_ideograph_is_kept_as_its_variation_sequence(tmp_path):
    """The file prints U+2F80F (a compatibility ideograph of 兔): the TEI must hold its
    standardized variation sequence U+5154 U+FE00 (NFC keeps it), not the unified U+5154 that
    plain NFC would give (the distinction the e-text made is lost)."""
    sample = SAMPLE.replace("安定辭", "安定\U0002F80F")
    assert _failing(_judge(tmp_path, GOOD.replace("安定辭", "安定兔\ufe00"), sample)) == set()
    got = _judge(tmp_path, GOOD.replace("安定辭", "安定兔"), sample)
    assert {"lossless", "code points"} <= _failing(got), got


def test_a_page_after_the_last_line_is_a_pb_too(tmp_path):
    """A 卷 that ends on a page marker (the blank last page: 57 files of 0037 and SBCK)."""
    sample = SAMPLE + "<pb:KR1d0053_WYG_001-2a>¶\n"
    tei = GOOD.replace('<surface xml:id="f001-1b"/>', '<surface xml:id="f001-1b"/><surface xml:id="f001-2a"/>')
    assert _failing(_judge(tmp_path, tei, sample)) == {"pages"}
    ended = tei.replace("</trailer>", '</trailer><pb ed="WYG" n="1-2a" facs="#f001-2a"/>')
    assert _failing(_judge(tmp_path, ended, sample)) == set()


def test_a_control_character_is_text_held_by_its_stand_in(tmp_path):
    """Kanripo's 儀禮 has a stray U+0001 in a note: a character of the file, which XML cannot
    hold; a TEI keeps it as a declared private stand-in (U+10FF01), and not dropped."""
    sample = SAMPLE.replace("矜莊貌", "矜\x01莊貌")
    kept = GOOD.replace("矜莊貌", '矜<g ref="#zs-g10FF01">\U0010FF01</g>莊貌')
    assert _failing(_judge(tmp_path, kept, sample)) == set()
    assert _failing(_judge(tmp_path, GOOD, sample)) == {"lossless", "code points", "zhu"}
