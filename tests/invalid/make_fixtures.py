"""Regenerate the deliberately broken TEI files of this directory, one (or two) per rule, and
expected.tsv (file, rule, line): `python tests/invalid/make_fixtures.py`. Review the diff."""
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from pipeline.convert import convert_source
from pipeline.sources.decoding import source_from_bytes

SOURCE = """卷一
及宿，则令聚柝。（令，令野卢氏。○庐，力于反。）
[疏]注“令令野庐氏”○释曰：知“令野庐氏”，其职云“有宾客，令其地之民聚柝之”，故知也。
及委，则致积。（以王命致于宾。）
[疏]注“以王命致于宾”○释曰：凡致礼于宾，无非王命。
掌察。（阙。）
"""


# A Kanripo (mandoku) 卷: pages, printed lines, double rows, a character from Kanripo's table.
KANRIPO_SOURCE = """#+TITLE: 禮記註疏
#+PROPERTY: JUAN 1
<pb:KR9z0001_WYG_001-1a>¶
　禮記注疏卷一¶
曲禮曰毋不敬注禮主於敬音義(毋音無禁止之/詞其字從女)儼若思¶
注儼矜莊貌人之坐思貌必儼然&KR0001;疏(正義曰此一節明人君/立治之本)¶
<pb:KR9z0001_WYG_001-1b>¶
安定辭注審言語也音義(辭如字/)疏(正義曰安定/審也)¶
"""


def base() -> str:
    data, _ = convert_source(source_from_bytes(SOURCE.encode(), "base.txt", meta={"work": "周禮注疏"}))
    return data.decode("utf-8")


def kanripo_base() -> str:
    data, _ = convert_source(source_from_bytes(KANRIPO_SOURCE.encode(), "KR9z0001_001.txt"))
    return data.decode("utf-8")


# name → (rule, mutation, the text whose line the finding names)
CASES = {
    "ZS-SCHEMA-001": ("ZS-SCHEMA-001", lambda t: t.replace('<head type="juan"', '<bogus/><head type="juan"'), "<bogus/>"),
    "ZS-ID-001": ("ZS-ID-001", lambda t: t.replace('xml:id="u2.z1"', 'xml:id="u1.z1"'), 'xml:id="u1.z1" resp="psn:zhengxuan" target="#u2.j1"'),
    "ZS-ID-002": ("ZS-ID-002", lambda t: t.replace('xml:id="u3"', 'xml:id="unit-3"'), 'xml:id="unit-3"'),
    "ZS-PTR-001-1": ("ZS-PTR-001", lambda t: t.replace('target="#u2.z1"', 'target="#u9.z1"'), 'target="#u9.z1"'),
    "ZS-PTR-001-2": ("ZS-PTR-001", lambda t: t.replace('target="#u1.z1"', 'target="javascript:alert(1)"', 1), 'javascript:alert(1)'),
    "ZS-TYPE-001": ("ZS-TYPE-001", lambda t: t.replace('<note type="yinyi"', '<note type="yinyi-old"', 1), '<note type="yinyi-old"'),
    "ZS-SHU-001": ("ZS-SHU-001", lambda t: t.replace('<mentioned>以王命致于宾</mentioned>', '<mentioned>以君命致于客</mentioned>'), '以君命致于客'),
    # the span goes with the pieces it lists (a @corresp without @target is ZS-SHU-003)
    "ZS-SHU-002": ("ZS-SHU-002", lambda t: t.replace(' target="#u2.z1" corresp="#u2.z1"><label type="mark">',
                                                     '><label type="mark">'), 'xml:id="u2.s1"'),
    "ZS-YINYI-001": ("ZS-YINYI-001", lambda t: t.replace('<term>庐</term>', '<term>鼓</term>').replace(
        'xml:id="u1.y1" resp="psn:ludeming">', 'xml:id="u1.y1" resp="psn:ludeming" target="#u1.j1">'), 'xml:id="u1.y1"'),
    "ZS-TEXT-001": ("ZS-TEXT-001", lambda t: t.replace("及委，则致积。", "及委，则致积e\u0301。"), "e\u0301"),
    "ZS-TEXT-002": ("ZS-TEXT-002", lambda t: t.replace("及委，则致积。", "及委，则\ufffd积。"), "\ufffd"),
    "ZS-CHAR-001": ("ZS-CHAR-001", lambda t: t.replace("及委，则致积。", "及委，则\ue123积。"), "\ue123"),
    "ZS-HDR-001": ("ZS-HDR-001", lambda t: t.replace('<title type="juan">卷一</title>', ''), "<teiHeader"),
    "ZS-XML-001": ("ZS-XML-001", lambda t: t.replace("</TEI>", ""), None),
    "ZS-XML-002": ("ZS-XML-002", lambda t: t.replace("<TEI ", '<!DOCTYPE TEI [<!ENTITY x "x">]>\n<TEI ', 1), "<!DOCTYPE"),
    "ZS-XML-003": ("ZS-XML-003", lambda t: t.replace("<TEI ", '<?xml-stylesheet href="x.xsl"?>\n<TEI ', 1), "xml-stylesheet"),
}

# the same on the Kanripo 卷: a row end of another unit, a page pointing at no surface, a
# Kanripo character outside its <g>
KANRIPO_CASES = {
    "ZS-SCHEMA-001-2": ("ZS-SCHEMA-001", lambda t: t.replace('<milestone unit="row"/>', '<milestone unit="line"/>', 1),
                        '<milestone unit="line"/>'),
    "ZS-PTR-001-3": ("ZS-PTR-001", lambda t: t.replace('<pb ed="WYG" n="1-1b" facs="#f001-1b"/>',
                                                       '<pb ed="WYG" n="1-1b" facs="#d1"/>'), 'facs="#d1"'),
    "ZS-CHAR-001-2": ("ZS-CHAR-001", lambda t: t.replace('<g ref="#KR0001">\U00100001</g>', '\U00100001'),
                      "\U00100001"),
}


def main() -> None:
    good, kanripo = base(), kanripo_base()
    (HERE / "valid.xml").write_text(good, encoding="utf-8")
    (HERE / "valid-kanripo.xml").write_text(kanripo, encoding="utf-8")
    rows = ["# file\trule\tline (0: none)"]
    cases = [(good, c) for c in CASES.items()] + [(kanripo, c) for c in KANRIPO_CASES.items()]
    for good, (name, (rule, mutate, needle)) in cases:
        bad = mutate(good)
        assert bad != good, name
        (HERE / f"{name}.xml").write_text(bad, encoding="utf-8")
        assert needle is None or needle in bad, (name, needle)
        line = bad[:bad.index(needle)].count("\n") + 1 if needle else bad.count("\n") + 1
        rows.append(f"{name}.xml\t{rule}\t{line}")
    (HERE / "expected.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
