"""The 四庫 注疏 as Kanripo prints them (mandoku syntax), on a 卷 written for the purpose
(tests/fixtures/kanripo: a repository checkout with its Readme.org, its _data imglist and a
KR-Gaiji table beside it): every feature the edition gives survives, where it belongs."""
import re

import pytest
from lxml import etree

from conftest import ROOT
from pipeline.sources import mandoku

FIX = ROOT / "tests" / "fixtures" / "kanripo"
JUAN = FIX / "KR9z0001" / "KR9z0001_002.txt"
T = {"t": "http://www.tei-c.org/ns/1.0"}


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    from click.testing import CliRunner

    from pipeline.cli import main
    out = tmp_path_factory.mktemp("kanripo")
    r = CliRunner().invoke(main, ["convert", str(FIX / "KR9z0001"), "-o", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    return out, etree.parse(str(out / "KR9z0001_002.xml")).getroot(), r.stderr


def xp(root, path):
    return root.xpath(path, namespaces=T)


def text_of(el) -> str:
    return "".join(el.itertext())


def test_lossless_against_the_file_less_its_markup(converted):
    """The TEI's text is the file's less `#` lines, <pb:…>, ¶, the row split /, the notes'
    parentheses and whitespace; a gaiji is its <g ref> (its character stands for &KR…;)."""
    _, root, _ = converted
    raw = "".join(l for l in JUAN.read_text(encoding="utf-8").splitlines(True) if not l.startswith("#"))
    want = re.sub(r"<pb:[^>]*>|[¶/()\s\u3000]", "", raw)
    body = xp(root, "//t:text")[0]
    for g in xp(body, ".//t:g[starts-with(@ref, '#KR')]"):
        g.text = "&" + g.get("ref")[1:] + ";"
    assert re.sub(r"\s", "", text_of(body)) == want


def test_a_pb_per_page_in_order_each_pointing_at_its_surface_and_image(converted):
    _, root, _ = converted
    pages = [m.group() for m in mandoku.PB.finditer(JUAN.read_text(encoding="utf-8"))]
    pbs = xp(root, "//t:text//t:pb")
    assert [f"<pb:KR9z0001_{p.get('ed')}_{int(p.get('n').split('-')[0]):03d}-{p.get('n').split('-')[1]}>"
            for p in pbs] == pages
    surfaces = {s.get("{http://www.w3.org/XML/1998/namespace}id"): s for s in xp(root, "//t:facsimile/t:surface")}
    assert [surfaces[p.get("facs")[1:]].get("n") for p in pbs] == [p.get("n") for p in pbs]
    graphics = [[g.get("url") for g in surfaces[p.get("facs")[1:]]] for p in pbs]
    # the imglist names two images; the third page is listed as missing: no graphic
    assert graphics == [["WYG0115/WYG0115-0025c.png"], ["WYG0115/WYG0115-0025d.png"], []]


def test_an_lb_per_printed_line(converted):
    _, root, _ = converted
    lines = [l for l in JUAN.read_text(encoding="utf-8").split("\n")
             if l.endswith("¶") and not mandoku.PB.fullmatch(l[:-1])]
    assert len(xp(root, "//t:text//t:lb")) == len(lines)


def test_a_double_row_note_over_two_lines_and_a_page_is_one_note_with_its_row_splits(converted):
    _, root, _ = converted
    shu = xp(root, "//t:note[@type='shu'][t:label[.='疏']]")[0]
    # the note as printed is the 疏's 經 part and, from 注正義曰 on, its 注 part: two sections
    zhu_part = xp(shu, "following-sibling::t:note[@type='shu'][1]")[0]
    assert text_of(shu).startswith("疏正義曰此一節") and text_of(zhu_part).startswith("注正義曰")
    assert text_of(zhu_part).endswith("已矣是也")
    # three printed segments, each with its row split (the last one's second row is empty:
    # its split at the note's end); the page break inside the note
    both = [shu, zhu_part]
    assert sum(len(xp(n, ".//t:milestone[@unit='row']")) for n in both) == 3
    assert sum(len(xp(n, ".//t:pb")) for n in both) == 1
    yinyi = xp(root, "//t:note[@type='yinyi']")[0]
    assert text_of(yinyi) == "毋音無説文云止之詞其字從女内有一畫象有姦之形禁止之"
    assert len(xp(yinyi, ".//t:milestone[@unit='row']")) == 2 and len(xp(yinyi, ".//t:lb")) == 1


def _ids(root) -> dict:
    return {el.get("{http://www.w3.org/XML/1998/namespace}id"): el for el in xp(root, "//*[@xml:id]")}


def _pointed(root, note) -> str:
    """The text a note's @target (…@targetEnd) names: whole elements here, or an anchor's
    element from the anchor on."""
    ids = _ids(root)
    a = ids[note.get("target")[1:]]
    end = note.get("targetEnd")
    b = ids[end[1:]] if end else a
    els = [a] + [e for e in a.itersiblings() if True]
    out = []
    for e in els:
        out.append(text_of(e) if e.tag != "{http://www.tei-c.org/ns/1.0}anchor" else "")
        if e is b:
            break
    return "".join(out)


def test_the_shu_quotes_are_sub_lemmas_pointing_at_what_they_quote(converted):
    """正義曰…毋不敬者…儼若思者…: each X者 a sub-lemma whose <mentioned> is X and whose target
    is the 經 X; the 疏's 經 part points from the first quoted clause to the last; its 注 part
    (注正義曰…禮主於敬者…) at the 注 it quotes."""
    _, root, _ = converted
    ids = _ids(root)
    subs = xp(root, "//t:note[@subtype='sublemma']")
    mentioned = [xp(s, ".//t:mentioned/text()") for s in subs]
    assert mentioned[:3] == [["毋不敬"], ["儼若思"], ["禮主於敬"]]
    targets = [ids[s.get("target")[1:]] for s in subs[:3]]
    assert [text_of(t) for t in targets[:2]] == ["曲禮曰毋不敬", "儼若思"] or \
        [t.tag.rsplit("}", 1)[1] for t in targets[:2]] == ["anchor", "seg"]
    assert text_of(targets[2]) == "禮主於敬" and targets[2].get("type") == "zhu"
    shu = xp(root, "//t:note[@type='shu'][t:label[.='疏']]")[0]
    zhu_part = xp(shu, "following-sibling::t:note[@type='shu'][1]")[0]
    assert ids[zhu_part.get("target")[1:]].get("type") == "zhu"
def test_gaiji_in_g_declared_with_kanripos_table(converted):
    _, root, _ = converted
    g = xp(root, "//t:g[@ref='#KR0002']")
    assert len(g) == 1
    char = xp(root, "//t:charDecl/t:char[@xml:id='KR0002']")[0]
    assert xp(char, "t:mapping[@type='normalized']/text()") == ["若"]
    assert xp(char, "t:graphic/@url")[0].endswith("images/KR0002.png")


def test_the_header_keeps_the_metadata_lines(converted):
    _, root, _ = converted
    # the e-text's metadata lines go to the e-text's bibl; the edition code names the print
    assert xp(root, "//t:sourceDesc/t:bibl[@type='printed']/t:edition/text()") == ["四庫全書 文淵閣本"]
    bibl = xp(root, "//t:sourceDesc/t:bibl[@type='etext']")[0]
    assert xp(bibl, "t:idno[@type='kanripo']/text()") == ["KR9z0001"]
    assert xp(bibl, "t:edition/text()") == ["四庫全書・文淵閣 (WYG)"]
    assert xp(bibl, "t:date/text()") == ["2015-09-23 09:38:05"]
    assert xp(root, "//t:titleStmt/t:title[@type='main']/text()") == ["禮記註疏 卷二"]


def test_furniture_is_never_jing(converted):
    _, root, _ = converted
    jing = "".join(text_of(s) for s in xp(root, "//t:ab[@type='jing']/t:seg"))
    for furniture in ("欽定四庫全書", "禮記注疏卷二", "漢鄭氏注", "曲禮上", "考證"):
        assert furniture not in jing
    assert [text_of(h) for h in xp(root, "//t:head")] == ["禮記注疏卷二", "曲禮上", "禮記注疏卷二考證"]
    assert [text_of(t) for t in xp(root, "//t:trailer")] == ["禮記注疏卷二", "禮記注疏卷二考證"]
    assert xp(root, "//t:fw[@type='responsibility']/text()") == ["漢鄭氏注　唐陸德明音義　孔穎達疏"]


def test_the_markers_as_printed(converted):
    _, root, _ = converted
    assert [text_of(n) for n in xp(root, "//t:note[@type='zhu']")][:2] == ["禮主於敬", "儼矜莊貌人之坐思貌也"]
    # the 經 安民哉 follows that 注 unmarked: the next 注 marker says a 經 lies before it
    assert "安民哉" in [text_of(s) for s in xp(root, "//t:ab[@type='jing']/t:seg")]
    shu = xp(root, "//t:note[@type='shu']/t:label[@type='mark']/text()")
    assert shu == ["疏", "䟽"]                      # 疏(…) and 䟽(…) alike
    # 儀禮's ○ before a section: kept as printed, and the 經 goes on after it (not 音義)
    unit = xp(root, "//t:ab[t:label[@type='mark'][.='○']]")[0]
    assert xp(unit, "t:seg[1]/text()") == ["擯者出請"]


def test_a_drum_score_is_jing_as_printed(converted):
    _, root, _ = converted
    score = xp(root, "//t:seg[.='○□○○□□半○□']")
    assert len(score) == 1 and not xp(score[0], "t:g")     # □ a beat, not a placeholder


def test_kaozheng_entries_and_judgments_credited(converted):
    out, root, stderr = converted
    entries = xp(root, "//t:div[@type='kaozheng']/t:ab[@type='kaozheng']")
    assert [xp(e, "string(t:label[@type='lemma'])") for e in entries] == ["曲禮上曲禮曰注疏是引儀禮正經", "若夫注言若欲為丈夫也"]
    judgments = xp(root, "//t:ab[@type='kaozheng']/t:note[@type='an']")
    assert [j.get("resp") for j in judgments] == ["psn:qizhaonan", "#zs.臣紱"]
    # the name split over two lines is one name
    assert xp(judgments[1], "string(t:persName)") == "臣紱"
    # the registry's 臣 is declared once, in the shared persons.xml written beside the file
    persons = etree.parse(str(out / "persons.xml")).getroot()
    assert xp(persons, "//t:standOff//t:person[@xml:id='qizhaonan']//t:persName[@type='full']/text()") == ["齊召南"]
    assert not xp(root, "//t:person[@xml:id='qizhaonan']")
    assert "臣紱 is not in the registry" in stderr


def test_report_positions_name_the_files_own_lines(tmp_path):
    from pipeline.convert import convert_file
    _, report = convert_file(str(JUAN))
    w = next(i for i in report.issues if i.rule == "ZS-CONV-SCHOLAR")
    # (臣/)¶ on line 23, its name's second part on line 24: where the name starts
    assert (w.line, w.col) == (23, 22)


def test_the_works_own_file_lists_its_contents(converted):
    out, _, _ = converted
    work = etree.parse(str(out / "KR9z0001.xml")).getroot()
    items = xp(work, "//t:div[@type='contents']/t:list/t:item")
    assert [text_of(i) for i in items] == ["禮記註疏 卷一", "禮記註疏 卷二", "禮記註疏 卷二考證"]
    # 卷一 is not in this checkout: listed, not linked
    assert [xp(i, "string(t:ref/@target)") for i in items] == ["", "KR9z0001_002.xml", "KR9z0001_002.xml"]


def test_tei_all(converted, tei_all):
    out, root, _ = converted
    for f in ("KR9z0001_002.xml", "KR9z0001.xml"):
        doc = etree.parse(str(out / f))
        assert tei_all.validate(doc), (f, tei_all.error_log)


# -- the edition's irregularities: a misprinted marker, a note continued after a gap, the 篇 title
# under the commentators carrying notes (tests/fixtures/kanripo/siku_*.txt, written for these)
def convert_one(name):
    from pipeline.convert import convert_file
    data, report = convert_file(str(FIX / name))
    return etree.fromstring(data), report


def less_markup(path) -> str:
    raw = "".join(l for l in path.read_text(encoding="utf-8").splitlines(True) if not l.startswith("#"))
    return re.sub(r"<pb:[^>]*>|[¶/()\s\u3000]", "", raw)


@pytest.fixture(scope="module")
def zhouli():
    return convert_one("siku_zhouli.txt")


@pytest.fixture(scope="module")
def kaogong():
    return convert_one("siku_kaogong.txt")


@pytest.mark.parametrize("name", ["siku_zhouli.txt", "siku_kaogong.txt"])
def test_irregular_fixtures_lossless_and_valid(name, tei_all):
    root, report = convert_one(name)
    assert report.layout == "siku" and not report.errors, report.errors
    assert re.sub(r"\s", "", text_of(xp(root, "//t:text")[0])) == less_markup(FIX / name)
    assert tei_all.validate(root), tei_all.error_log


def test_a_shu_misprinted_zhu_is_read_as_shu_with_its_marker_kept(zhouli):
    """`注(釋曰…)`: the edition's misprint of 疏 (the note opens in the 疏's voice). A 疏 whose
    label keeps the printed 注, with a warning at the marker; no 注 holds its text."""
    root, report = zhouli
    shu = xp(root, "//t:note[@type='shu'][t:label[@type='mark'][.='注']]")
    assert len(shu) == 1 and text_of(shu[0]) == "注釋曰醫師者衆醫之長故掌醫之政令言聚毒藥者謂藥物也"
    # it points into the 經 before it, as any 疏: at the clause it quotes (…言聚毒藥者)
    assert shu[0].get("target").startswith("#u1.")
    assert xp(shu[0], ".//t:mentioned/text()") == ["聚毒藥"]
    assert not [z for z in xp(root, "//t:note[@type='zhu']") if "釋曰" in text_of(z)]
    w = [(i.line, i.col) for i in report.issues if i.rule == "ZS-CONV-MARKER"]
    assert w == [(11, 10)]                                     # the file's own line:col of 注


def test_a_note_after_zhu_not_in_the_shus_voice_stays_in_the_zhu(zhouli):
    root, _ = zhouli
    assert not [s for s in xp(root, "//t:note[@type='shu']") if "闕" in text_of(s)]
    assert [text_of(z) for z in xp(root, "//t:note[@type='zhu']")][-1] == "闕二字疾病謂寒熱"


def test_a_note_continued_after_blank_cells_is_one_note(zhouli):
    """`疏(…/…)　(…/…)¶` then `(也/)` over a page: one 疏, nothing of it in the 經."""
    root, _ = zhouli
    shu = xp(root, "//t:note[@type='shu'][t:label[@type='mark'][.='疏']]")
    assert len(shu) == 1 and text_of(shu[0]) == "疏釋曰此經論食醫之事云六食者謂六穀也"
    assert len(xp(shu[0], ".//t:milestone[@unit='row']")) == 3 and len(xp(shu[0], ".//t:pb")) == 1
    jing = "".join(text_of(s) for s in xp(root, "//t:ab[@type='jing']/t:seg"))
    assert "六食者" not in jing and "也疾醫" not in jing
    assert xp(root, "string(//t:ab[@xml:id='u3']/t:seg[1])") == "疾醫掌養萬民之疾病"


def test_the_pian_title_under_the_commentators_is_a_head_with_its_yinyi(zhouli):
    """`　天官冢宰下音義(…)`: no 第N, a note on it, yet the title (it stands indented right
    under the commentators); its 音義 follows the head, and the 經 at the margin is its own."""
    root, _ = zhouli
    section = xp(root, "//t:div[@type='pian']")[0]
    assert xp(section, "string(t:head[@type='pian'])") == "天官冢宰下"
    p = xp(section, "t:head/following-sibling::*[1]")[0]
    assert p.tag == "{http://www.tei-c.org/ns/1.0}p" and text_of(p) == "音義天官下本亦作天官冢宰下"
    assert xp(p, "t:note[@type='yinyi']/@resp") == ["psn:ludeming"]
    jing = "".join(text_of(s) for s in xp(root, "//t:ab[@type='jing']/t:seg"))
    assert "天官" not in jing and jing.startswith("醫師掌醫之政令")


def test_a_shu_on_the_pian_title_points_at_the_head(kaogong):
    """考工記: the title, its 音義 and its 疏 run on in indented lines under it; the 疏 explains
    the title (it points at the head), and the 經 at the margin starts the body."""
    root, report = kaogong
    section = xp(root, "//t:div[@type='pian']")[0]
    head = xp(section, "t:head")[0]
    assert text_of(head) == "冬官考工記第六"
    assert xp(section, "string(t:p/t:note[@type='yinyi'])") == "鄭云此篇司空之官也司空篇亡漢興購求不得"
    shu = xp(section, "t:note[@type='shu']")
    assert shu[0].get("target") == "#" + head.get("{http://www.w3.org/XML/1998/namespace}id")
    assert text_of(shu[0]) == "疏釋曰此記人所爲雖不同周禮亦爲序次首末相承"
    assert shu[0].get("subtype") is None and not [i for i in report.issues if i.rule == "ZS-CONV-DETACHED"]
    assert xp(section, "string(t:ab[1]/t:seg[1])") == "國有六職百工與居一焉"
    assert shu[1].get("target") == "#u1.j1"


def test_the_title_paragraph_takes_only_the_lines_going_on_with_its_notes():
    from pipeline.readers.zhushu import siku
    doc = mandoku.parse((FIX / "siku_kaogong.txt").read_text(encoding="utf-8"), "siku_kaogong.txt")
    paras = [[line.text.strip("\u3000")[:4] for line in p] for p in siku.paragraphs(doc.lines)]
    assert ["冬官考工", "(漢興購", "(亦爲序"] in paras
    assert ["國有六職", "(與下文"] in paras


def test_the_commentators_line_with_the_variant_shu_is_furniture(tmp_path):
    """禮記註疏 卷四 prints 孔穎達䟽 (䟽 for 疏): still the commentators line, not a heading, and
    the 篇 title under it is the section's head."""
    from pipeline.convert import convert_file
    src = tmp_path / "KR9z0053_004.txt"
    src.write_text("#+TITLE: 禮記註疏\n#+PROPERTY: JUAN 4\n<pb:KR9z0053_WYG_004-1a>¶\n欽定四庫全書¶\n"
                   "　禮記注疏卷四¶\n　　漢鄭氏注　唐陸徳明音義　孔穎達䟽¶\n　曲禮下¶\n"
                   "凡奉者當心提者當帶注髙下之節音義(奉本亦作捧/同芳勇反)疏(正義曰此一節論臣所奉持之節/"
                   "凡奉者當心提者當帶者物有宜奉持之者)¶\n", encoding="utf-8")
    data, report = convert_file(str(src))
    root = etree.fromstring(data)
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    assert [("".join(e.itertext()), e.get("type")) for e in root.iterfind(".//t:body//t:fw", ns)][-1] == \
        ("漢鄭氏注　唐陸徳明音義　孔穎達䟽", "responsibility")
    assert ["".join(h.itertext()) for h in root.iterfind(".//t:body//t:head", ns)] == ["禮記注疏卷四", "曲禮下"]
    assert root.find(".//t:note[@type='shu']", ns).get("resp") == "psn:kongyingda"


def liji_juan(tmp_path, juan: int, numeral: str, pian: str, body: str):
    """A 禮記註疏 卷 in Kanripo's 四庫 layout, its head lines as the edition prints them and the
    body lines given: converted, as (TEI root, report)."""
    from pipeline.convert import convert_file
    src = tmp_path / f"KR9z0053_{juan:03d}.txt"
    src.write_text(f"#+TITLE: 禮記註疏\n#+PROPERTY: JUAN {juan}\n<pb:KR9z0053_WYG_{juan:03d}-1a>¶\n"
                   f"欽定四庫全書¶\n　禮記注疏卷{numeral}¶\n　　漢鄭氏注　唐陸徳明音義　孔穎達疏¶\n"
                   f"　{pian}¶\n" + body, encoding="utf-8")
    data, report = convert_file(str(src))
    return etree.fromstring(data), report


def test_a_jing_quoted_by_another_shu_of_the_juan_ends_the_zhu(tmp_path):
    """The 注 為有教使 runs on into the 經 先生與之言則對… unmarked; its own group's 疏 quotes
    none of that 經, the 疏 of the next paragraph does (`先生與之言則對者`): the 經 begins there."""
    root, report = liji_juan(tmp_path, 2, "二", "曲禮上第一",
                             "從於先生不越路而與人言注尊不二也遭先生於道趨¶\n"
                             "而進正立拱手注為有教使先生與之言則對不與之言¶\n"
                             "則趨而退注為其不欲與己並行音義(並步頂/反)疏(正義曰此/一節明事)¶\n"
                             "(師長之禮從於先生者謂從行時也遭先生於道者此/明道路之法)¶\n"
                             "從長者而上丘陵則必鄉長者所視注為逺視不察有所¶\n"
                             "問疏(正義曰上云先生與之言則對者此謂問時事也/從長者而上丘陵者謂登髙也)¶\n")
    zhu = [text_of(z) for z in xp(root, "//t:note[@type='zhu']")]
    assert zhu[:3] == ["尊不二也", "為有教使", "為其不欲與己並行"]
    assert [b.method for b in report.boundaries if b.kind == "zhu|jing"] == ["quote", "quote"]


def test_a_note_opening_a_paragraph_with_no_marker_is_a_small_note_not_jing(tmp_path):
    """禮記註疏 卷二十一: the 注 ends in a lacuna the edition prints as a note, `(闕七行/)`; after
    the blank columns the 疏, its marker lost, goes on as `(十萬/)(二千年也…)`. Small characters
    are never 經."""
    root, report = liji_juan(tmp_path, 21, "二十一", "禮運第九",
                             "皆從其朔注朔亦初也亦謂今行之然(闕七行/)¶\n　¶\n"
                             "　　　　　　(十萬/)¶\n(二千年也范金合土者范金者謂為形范以鑄金器合/土者謂和合其土)¶\n"
                             "故𤣥酒在室醴醆在户注此言今禮饌具所因於古疏(正義曰此一節/明祭祀之物)¶\n")
    assert not report.errors
    jing = "".join(text_of(s) for s in xp(root, "//t:ab[@type='jing']/t:seg"))
    assert "十萬" not in jing and "二千年" not in jing and "𤣥酒在室" in jing
    note = xp(root, "//t:note[@type='xiaozhu']")
    assert len(note) == 1 and text_of(note[0]).startswith("十萬二千年也")


def test_a_zhu_citing_a_commentary_by_name_is_one_zhu(tmp_path):
    """In Kanripo's 四庫 as in the plain layout: `鄭注云` inside a 注 is the 注 citing another
    commentary (X's commentary says), not a marker; the 注 runs on to its note."""
    root, report = liji_juan(tmp_path, 3, "三", "檀弓上第三",
                             "公儀仲子之喪檀弓免焉注仲子魯同姓也鄭注云檀弓魯人之知禮者¶\n"
                             "也音義(免音問/)疏(正義曰此一節論仲子舍孫立子之事/)¶\n")
    assert not report.errors
    assert [text_of(z) for z in xp(root, "//t:note[@type='zhu']")] == ["仲子魯同姓也鄭注云檀弓魯人之知禮者也"]
    assert "".join(text_of(s) for s in xp(root, "//t:ab[@type='jing']/t:seg")) == "公儀仲子之喪檀弓免焉"


def test_a_circle_inside_a_shu_note_is_printed_text_kept_where_it_stands(tmp_path):
    """In a Kanripo file ○ is a character of the edition, not markup: inside a 疏 note it still
    separates the 疏's sections (注X至Y opens the 注 part), and stays in the text, closing the
    paragraph before it or opening the one after a lemma."""
    root, report = liji_juan(tmp_path, 46, "四十六", "祭法第二十三",
                             "大凡生於天地之間者皆曰命注生時形體異可同名¶\n"
                             "疏(大凡至曰命正義曰此論人死○注生時至同名○正義曰形體既異)¶\n")
    assert not report.errors, report.errors
    shu = xp(root, "//t:note[@type='shu']")
    assert [s.get("target") for s in shu] == ["#u1.j1", "#u1.z1"]
    assert [text_of(p) for s in shu for p in xp(s, "t:p")] == ["正義曰此論人死○", "○正義曰形體既異"]
