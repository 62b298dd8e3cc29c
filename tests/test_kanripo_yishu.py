"""The 義疏 reader on Kanripo's 欽定三禮義疏 (mandoku): fixtures written in the layout of
KR1d0068 (欽定禮記義疏: rows split by `/`, indentation kept) and KR1d0037 (欽定儀禮義疏:
artefact `¶` lines, lost indentation, no `/`), and the two works themselves when ../shared
holds them."""
import glob
import os

import pytest
from lxml import etree

from conftest import ROOT, SHARED, _tei_all_schema
from pipeline import readers
from pipeline.readers import pian
from pipeline.readers.common import CHAPTER
from pipeline.convert import convert_source
from pipeline.model import JING, Piece, Pos, SmallNote, Unit
from pipeline.readers.yishu import kanripo
from pipeline.readers.yishu import reader as yishu
from pipeline.readers.yishu import smallnotes
from pipeline.readers.yishu.attribution import OPENING, attributions
from pipeline.readers.zhushu import siku
from pipeline.report import Report
from pipeline.sources import mandoku
from pipeline.sources.decoding import read_source
from pipeline.textlayers import layer_lines

NS = {"t": "http://www.tei-c.org/ns/1.0"}
FIX = ROOT / "tests" / "fixtures" / "kanripo"
LIJI, YILI, TU, JUANSHOU = (FIX / f"yishu_{n}.txt" for n in ("liji", "yili", "tu", "juanshou"))
KANRIPO = SHARED / "kanripo" / "WYG"


def convert(path, fmt="auto"):
    """Convert a Kanripo file; what every conversion must keep is checked here: no error (the
    lossless invariant is one), valid TEI."""
    src = read_source(str(path))
    data, report = convert_source(src, fmt)
    root = etree.fromstring(data)
    assert not report.errors, report.errors
    schema = _tei_all_schema()
    if schema is not None:
        assert schema.validate(root), schema.error_log
    return root, report


def q(root, path):
    return root.xpath(path, namespaces=NS)


def blocks(root):
    """(category, label, [(resp, text)]) of each 義疏 block, in order."""
    out = []
    for n in q(root, "//t:body//t:div/t:note[@type='yishu' or @type='an']"):    # blocks: children of a div
        label = "".join(n.xpath("string(t:label)", namespaces=NS).split())
        # who said it is the cit's author (a p: words nobody is named for): its pointer, psn: for
        # a scholar of the shared registry (persons.xml), # for one declared from the text
        quotes = [(p.xpath("string(t:bibl/t:author/@ref)", namespaces=NS),
                   "".join("".join(p.itertext()).split()))
                  for p in n.xpath("t:cit|t:p", namespaces=NS)]
        out.append((n.get("subtype") or n.get("type"), label, quotes))
    return out


def printed_lines(path) -> int:
    return len(mandoku.parse(path.read_text(encoding="utf-8"), str(path)).lines)


@pytest.mark.parametrize("path", [LIJI, YILI, TU, JUANSHOU], ids=lambda p: p.stem)
def test_detected_as_yishu_and_not_as_zhushu(path):
    root, report = convert(path)
    assert report.layout == "yishu" and report.layout_reason.startswith("Kanripo")
    doc = mandoku.parse(path.read_text(encoding="utf-8"), str(path))
    assert siku.sniff_mandoku(doc)[0] == 0.0
    # every printed line (artefact ¶ lines too) keeps its line break, every page its pb
    assert len(q(root, "//t:text//t:lb")) == printed_lines(path)
    assert q(root, "//t:text//t:pb/@n") == [p.n for p in doc.pages()]


def test_forced_format(run, tmp_path):
    code, out, err = run("convert", LIJI, "--format", "yishu", "-o", tmp_path / "x.xml")
    assert code == 0, err
    assert layer_lines(etree.parse(str(tmp_path / "x.xml")).getroot(), "jing")[1] == "孔子曰父母在不遠遊遊必有方"


def test_a_zhushu_file_stays_the_zhushu_readers():
    text = ("#+TITLE: 禮記註疏\n<pb:KR1d0053_WYG_001-1a>¶\n欽定四庫全書¶\n　禮記注疏卷一¶\n"
            "曲禮曰毋不敬注禮主於敬音義(毋音無/)疏(正義曰此一/節明人君)¶\n")
    doc = mandoku.parse(text, "t.txt")
    assert siku.sniff_mandoku(doc)[0] > yishu.sniff_mandoku(doc)[0]


def test_liji_jing_runs_on_and_its_note_goes_on():
    root, _ = convert(LIJI)
    assert layer_lines(root, "jing") == [
        "凡為人子之禮冬温而夏凊昏定而晨省在醜夷不爭出必告反必面所遊必有常所習必有業",
        "孔子曰父母在不遠遊遊必有方"]          # opens like a scholar, but at the margin: 經
    # the note printed over two lines is one note, its two glosses typed
    assert layer_lines(root, "yinyi") == ["凊七性反", "告古毒反下同"]
    assert len(q(root, "//t:ab[@type='jing']//t:milestone[@unit='row']")) == 2


def test_liji_commentary_paragraphs_and_scholars():
    root, _ = convert(LIJI)
    got = blocks(root)
    assert [(c, l) for c, l, _ in got] == [("zhengyi", "正義"), ("zhengyi", "正義"), ("cunyi", "存疑"),
                                         ("an", "案"), ("zhengyi", "正義")]
    # the 篇's own paragraph (indent 2), a scholar starting a line at indent 3
    assert [r for r, _ in got[0][2]] == ["psn:kongyingda", "psn:wucheng"]
    # U+3000 separates scholars; 孔氏 / 穎達曰 runs over the line end; 又曰 is 朱子 again
    assert [r for r, _ in got[1][2]] == ["psn:zhengxuan", "psn:kongyingda", "psn:zhuxi", "psn:zhuxi"]
    assert q(root, "string((//t:body//t:cit/t:bibl/t:author[node()])[4])") == "孔氏穎達"
    assert got[1][2][3][1] == "又曰出告反面孝子不忘親也案朱子此說本於鄭注"
    # a scholar at the head of an indented line goes on with the paragraph before
    assert [r for r, _ in got[2][2]] == ["psn:xionganshen", "psn:zhuxi"]
    # 正義 alone on its line opens the block; 正義 after a full line is a word of the text
    assert got[4][2] == [("psn:zhengxuan", "鄭氏康成曰方猶常也"),
                         ("psn:zhangzai", "張子曰樂者天地之和而正義者人心之所同然也")]


def test_liji_furniture():
    root, report = convert(LIJI)
    assert q(root, "//t:div[@type='juan']/t:fw/@type") == ["header"]
    assert q(root, "string(//t:div[@type='juan']/t:head)") == "欽定禮記義疏卷三"
    assert q(root, "string(//t:div[@type='pian']/t:head)") == "曲禮上第一之三"
    assert q(root, "normalize-space(//t:div[@type='juan']/t:trailer)") == "欽定禮記義疏卷三"
    assert not report.warnings


def test_yili_artefacts_lost_indentation_and_closings():
    root, _ = convert(YILI)
    assert layer_lines(root, "jing") == ["昏禮下達納采用鴈", "主人筵于戸西西上右几", "賓升西階當阿東面致命"]
    assert q(root, "//t:div[@type='section']/t:trailer/text()") == ["右納采", "右設筵"]
    got = blocks(root)
    assert [(c, l) for c, l, _ in got] == [("zhengyi", "正義"), ("an", "案"), ("zhengyi", "正義"),
                                         ("zhengyi", "正義"), ("an", "案"), ("an", "案"), ("zhengyi", "正義"),
                                         ("zonglun", "士昏禮總論")]
    # the 篇's paragraph printed at the margin between artefact ¶ lines
    assert got[0][2] == [("psn:zhengxuan", "鄭氏康成曰士娶妻之禮以昏為期因而名焉必以昏者陽往而隂來日入三商為昏"),
                         ("psn:aojigong", "敖氏繼公曰此篇言士娶妻之禮而他禮亦附見")]
    assert got[1][2] == [("", "昏禮於五禮屬嘉禮其節有六納采問名納吉納徴請期親迎是也")]
    # a note with no row split, going on after the page; a scholar with no separator before him
    assert [r for r, _ in got[2][2]] == ["psn:zhengxuan", "psn:aojigong"]
    assert layer_lines(root, "shu")[0] == "賈疏下達謂未相知時男家先遣媒通言"
    # a commentary line that lost its indentation, inside the paragraph: not 經
    assert got[3][2][-1] == ("psn:aojigong", "敖氏繼公曰右几者神之位在西也其筵於户西者以其為受禮之處也"
                                         "凡神席皆在室中而此在户外者變於常也")
    # a run of margin lines as wide as each other (printed three cells in) is one paragraph;
    # the line after it that a category paragraph comments on is 經
    assert got[5][2] == [("", "筵者布席之名几者依神之器二者皆設於廟中所以重其禮而不敢褻也凡納采皆如是")]
    # the tail title in other characters (疏 for 䟽, 巻 for 卷) closes the 卷
    assert q(root, "normalize-space(//t:div[@type='juan']/t:trailer)") == "欽定儀禮義疏巻三"


def test_tu_juan_holds_no_jing():
    root, _ = convert(TU)
    assert layer_lines(root, "jing") == []
    assert q(root, "string(//t:div[@type='juan']/t:head)") == "欽定儀禮義疏卷四十五禮節圖一"
    assert q(root, "string(//t:div[@type='pian']/t:head)") == "士冠禮"       # a 篇 without 第N
    assert [(c, l) for c, l, _ in blocks(root)] == [("an", "案"), ("an", "又案"), ("detached", ""), ("an", "案")]
    assert q(root, "normalize-space(//t:div[@type='juan']/t:trailer)") == "欽定儀禮義疏卷四十五"


def test_juanshou_quotations_hang_at_the_margin():
    root, _ = convert(JUANSHOU)
    assert layer_lines(root, "jing") == []
    assert q(root, "string(//t:div[@type='section']/t:head)") == "綱領一此篇論本經源流"
    (_, _, quotes), = blocks(root)
    assert [r for r, _ in quotes] == ["#zs.司馬遷", "#zs.劉歆", "", "psn:zhuxi", "psn:zhuxi"]
    assert quotes[2][1].startswith("隋書經籍志曰")    # a book, not the scholar before it
    assert q(root, "//t:note[@type='xiaozhu']/@resp") == ["psn:zhuxi"]


def test_notes_in_ascii_parentheses_and_as_the_plain_reader_types_them():
    parts = smallnotes.split("面葉(注古文葉為擖)筵(筵音延)", Pos(1, 1))
    assert [(p.kind, p.text) for _, p in parts if isinstance(p, SmallNote)] == \
        [("textual", "注古文葉為擖"), ("yinyi", "筵音延")]
    assert smallnotes.mask("甲(乙丙)丁") == "甲\u3000\u3000\u3000\u3000丁"
    assert smallnotes.parse("賈䟽引昏禮", Pos(1, 1))[0].resp == "jiagongyan"
    note, = smallnotes.parse("釋文率所律反", Pos(1, 1))
    assert (note.kind, note.text) == ("yinyi", "釋文率所律反")


def test_attributions_compound_surnames_surname_alone_and_again():
    assert [m.group("who") for m in attributions("之　慕容氏彥逢曰甲　司馬氏光曰乙")] == ["慕容氏彥逢", "司馬氏光"]
    assert [m.group() for m in attributions("馬氏曰禮曰無辭")] == []      # no 曰 in a name
    assert [m.group() for m in OPENING.finditer("吕氏曰甲　又曰乙　王氏曰丙。劉氏曰")] == ["吕氏曰", "又曰", "王氏曰"]


def test_width_counts_rows_and_halves_notes_without_a_split():
    (line,) = mandoku.parse("甲乙(丙丁/戊)¶\n", "t").lines
    assert kanripo._width(line) == 4
    (line,) = mandoku.parse("甲乙(丙丁戊)¶\n", "t").lines
    assert kanripo._width(line) == 4


# -- the works themselves ---------------------------------------------------------------------
WORKS = sorted(f for w in ("KR1d0037", "KR1d0068")
               for f in glob.glob(str(KANRIPO / w / f"{w}_[0-9][0-9][0-9].txt")) if not f.endswith("_000.txt"))


@pytest.mark.skipif(not WORKS, reason="../shared/kanripo not present")
def test_every_juan_of_the_two_yishu():
    """Every 卷 of 欽定儀禮義疏 and 欽定禮記義疏 converts without error (lossless), valid, read as
    a 義疏, and no commentary line printed indented (not a title, not a note going on) is 經."""
    bad = []
    for f in WORKS:
        name = os.path.basename(f)
        try:
            convert(f)
        except AssertionError as e:
            bad.append((name, str(e)[:200]))
            continue
        src = read_source(f)
        report = Report(src.name)
        readers.prepare(src, "yishu", report)
        doc = yishu.read(src, report)
        jing = set()
        for b in doc.blocks():
            if isinstance(b, Unit):
                for p in b.pieces:
                    if isinstance(p, Piece) and p.layer == JING and p.text:
                        first = src.locate(p.pos.line, p.pos.col)[0]
                        jing.update(range(first, src.locate(p.pos.line, p.pos.col + len(p.text) - 1)[0] + 1))
        for line in src.mandoku.lines:
            title = smallnotes.mask(line.body).rstrip()
            if line.indent and not line.blank and not line.body.startswith("(") and line.n in jing \
                    and not (CHAPTER.match(title) or pian.title(title) is not None):
                bad.append((name, line.n, line.text[:20]))
    assert bad == []


def test_two_juan_in_one_file(tmp_path):
    """A file holding two 卷: the first closed by its tail title, the second a 卷 of its own."""
    both = tmp_path / "two.txt"
    both.write_text(LIJI.read_text(encoding="utf-8") + JUANSHOU.read_text(encoding="utf-8"), encoding="utf-8")
    root, _ = convert(both)
    assert q(root, "//t:div[@type='juan']/t:head/text()") == ["欽定禮記義疏卷三", "欽定儀禮義䟽卷首上"]
    assert [normalize(t) for t in q(root, "//t:div[@type='juan']/t:trailer")] == ["欽定禮記義疏卷三", "欽定儀禮義疏卷首上"]


def normalize(e) -> str:
    return "".join("".join(e.itertext()).split())


@pytest.mark.parametrize("title", ["曲禮上", "曲礼上", "内則", "大學"])
def test_a_pian_title_without_its_number_is_a_heading(tmp_path, title):
    """A 篇 title with no 第N (the editions print both) heads its section, never 經 (the 篇 of
    the 三禮 are listed: pipeline/readers/pian.py)."""
    path = tmp_path / "KR1d0068_003.txt"
    path.write_text(LIJI.read_text(encoding="utf-8").replace("　曲禮上第一之三¶", f"　{title}¶"), encoding="utf-8")
    root, _ = convert(path)
    assert q(root, "string(//t:div[@type='pian']/t:head)") == title
    assert not any(title in line for line in layer_lines(root, "jing"))
