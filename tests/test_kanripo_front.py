"""The front matter of the 四庫 editions (layout `front`, pipeline/readers/front/): a Kanripo
`_000` file's 提要, 序, 凡例, 引用姓氏, 目録, 原目 and their 考證 as divisions, the 引用姓氏 read
into names. Fixtures written in the style of the files (tests/fixtures/kanripo/front_*.txt);
the tests over the real files skip when ../shared is absent."""
import collections
import functools
import glob
import os

import pytest
from lxml import etree

from conftest import ROOT, SHARED, TEI_ALL
from pipeline import readers
from pipeline.convert import convert_file
from pipeline.readers import front
from pipeline.sources import mandoku

FIX = ROOT / "tests" / "fixtures" / "kanripo"
KANRIPO = SHARED / "kanripo"
NS = {"t": "http://www.tei-c.org/ns/1.0"}


@functools.cache
def _schema():
    return etree.RelaxNG(etree.parse(str(TEI_ALL))) if TEI_ALL.exists() else None


@functools.cache
def converted(path: str):
    """(TEI root, report) of a file, checked as every output must be: no error (the lossless
    check is one), the front layout, valid against tei_all when ../shared has it."""
    data, report = convert_file(path)
    assert not report.errors, report.errors
    root = etree.fromstring(data)
    schema = _schema()
    if schema is not None:
        assert schema.validate(root), schema.error_log
    return root, report


def fixture(name: str):
    return converted(str(FIX / f"front_{name}.txt"))


def divs(root, where: str = "front") -> list[tuple[str, str]]:
    """(type, head text) of the top-level divisions of <front> or <body>."""
    out = []
    for d in root.xpath(f"//t:{where}/t:div", namespaces=NS):
        head = d.find("t:head", NS)
        out.append((d.get("type"), "".join(head.itertext()) if head is not None else ""))
    return out


def text(e) -> str:
    return "".join(e.itertext()).replace("\u3000", "")


# -- detection -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["zhushu", "yishu", "yili"])
def test_front_fixtures_are_detected_as_front(name):
    doc = mandoku.parse((FIX / f"front_{name}.txt").read_text(encoding="utf-8"), name)
    layout, why = readers.detect_mandoku(doc)
    assert layout == "front", why
    assert front.sniff_mandoku(doc)[0] >= readers.get("siku").sniff_mandoku(doc)[0]


def test_a_juan_file_is_not_front_matter():
    """A 卷 names itself (禮記注疏卷一): the front reader gives it nothing, whatever the
    headings the text holds."""
    doc = mandoku.parse("#+TITLE: 禮記註疏\n<pb:KR1d0053_WYG_001-1a>¶\n欽定四庫全書¶\n"
                        "　禮記注疏卷一¶\n　目録¶\n　提要¶\n曲禮曰毋不敬注禮主於敬¶\n", "t")
    assert front.sniff_mandoku(doc)[0] == 0.0


def test_plain_texts_are_left_to_their_readers():
    for path in sorted((ROOT / "corpus").glob("*.txt")):
        assert front.sniff(path.read_text(encoding="utf-8"))[0] == 0.0, path


# -- the divisions -------------------------------------------------------------------------------
def test_zhushu_divisions_front_and_body():
    root, _ = fixture("zhushu")
    assert divs(root) == [("mulu", "目録"), ("tiyao", ""), ("xu", "周禮正義序"),
                          ("kaozheng", "周禮正義序考證"), ("yuanmu", "周禮注疏原目")]
    # TEI needs a body: a file with no 卷 gets an empty one
    body = root.xpath("//t:body/t:div", namespaces=NS)
    assert [(d.get("type"), d.get("n"), len(d)) for d in body] == [("juan", "0", 0)]


def test_furniture_title_and_catalogue():
    root, _ = fixture("zhushu")
    mulu = root.xpath("//t:front/t:div[1]", namespaces=NS)[0]
    assert [(f.get("type"), text(f)) for f in mulu.findall("t:fw", NS)] == [
        ("header", "欽定四庫全書"), ("catalogue", "經部四"), ("title", "周禮注疏"),
        ("catalogue", "禮類一"), ("catalogue", "周禮之屬")]
    # the catalogue lines classify the work: its narrowest category of the shared taxonomy
    assert root.xpath("//t:textClass/t:catRef[@scheme='cat:siku']/@target", namespaces=NS) == \
        ["cat:siku.jing.li.zhouli"]


def test_table_rows_a_new_cell_is_no_continued_note():
    """In a 目録 a line opening with ( after a line ending in ) holds new cells."""
    root, _ = fixture("zhushu")
    rows = [[text(n) for n in p.findall("t:note", NS)] for p in
            root.xpath("//t:div[@type='mulu']/t:p", namespaces=NS)]
    assert ["大宰小宰", "宰夫宫正"] in rows
    assert ["膳夫", "庖人"] in rows


def test_tiyao_taitou_is_a_line_break_and_the_closing_trailers():
    root, _ = fixture("zhushu")
    tiyao = root.xpath("//t:div[@type='tiyao']", namespaces=NS)[0]
    paras = tiyao.findall("t:p", NS)
    # the raised 皇上 goes on with the sentence: one paragraph, a line break before it
    assert len(paras) == 1
    assert "恭惟我皇上崇儒重道" in text(paras[0])
    assert etree.tostring(paras[0], encoding=str).count("<lb/>") == 5
    assert [text(n) for n in paras[0].findall("t:note", NS)] == ["臣"]
    # the date, broken over two columns, and the signatures close the division
    assert [text(t) for t in tiyao.findall("t:trailer", NS)] == [
        "乾隆四十二年三月恭校上", "總纂官臣甲乙臣丙丁", "總校官臣戊己"]


def test_xu_author_line_and_tail():
    root, _ = fixture("zhushu")
    xu = root.xpath("//t:div[@type='xu']", namespaces=NS)[0]
    assert [(f.get("type"), text(f)) for f in xu.findall("t:fw", NS)][-1] == \
        ("responsibility", "唐某官臣某甲等奉勅撰")
    assert len(xu.findall("t:p", NS)) == 1
    assert [text(t) for t in xu.findall("t:trailer", NS)] == ["周禮正義序"]


def test_kaozheng_of_the_xu_credits_its_chen():
    root, _ = fixture("zhushu")
    kz = root.xpath("//t:div[@type='kaozheng']", namespaces=NS)[0]
    entry = kz.find("t:ab[@type='kaozheng']", NS)
    assert text(entry.find("t:label", NS)) == "夫禮者所以正人倫"
    note = entry.find("t:note[@type='an']", NS)
    assert note.get("resp") == "psn:qizhaonan"
    assert [text(t) for t in kz.findall("t:trailer", NS)] == ["周禮正義序考證"]


def test_yuanmu_notes_are_yinyi_and_shu_of_their_authors():
    root, _ = fixture("zhushu")
    paras = root.xpath("//t:div[@type='yuanmu']/t:p", namespaces=NS)
    assert [text(p)[:6] for p in paras] == ["天官冢宰第一", "地官司徒第二", "春官宗伯第三"]
    notes = [(n.get("type"), n.get("resp"), text(n)[:4]) for n in paras[0].findall("t:note", NS)]
    assert notes == [("yinyi", "psn:ludeming", "冢知勇反"), ("shu", "psn:jiagongyan", "釋曰第一")]
    # the 疏 note continued over the next lines is one note
    assert text(paras[0].findall("t:note", NS)[1]).endswith("故云冢大也")


def test_yishu_divisions_and_the_juanshou_in_the_body():
    root, _ = fixture("yishu")
    assert divs(root) == [("tiyao", "提要"), ("fanli", "欽定禮記義疏凡例"),
                          ("xingshi", "引用姓氏"), ("mulu", "欽定禮記義疏目錄")]
    assert divs(root, "body") == [("juanshou", "欽定禮記義疏卷首")]
    juanshou = root.xpath("//t:body/t:div", namespaces=NS)[0]
    sections = juanshou.findall("t:div", NS)
    assert [(d.get("type"), text(d.find("t:head", NS))) for d in sections] == [
        ("shengzhi", "聖制"), ("gangling", "綱領一")]
    # the 綱領's note stays a small note; its new leaf repeats the 卷首's title
    assert text(sections[1].find("t:p/t:note", NS)) == "此篇論本經源流"
    repeat = sections[1].find("t:fw[@type='title']", NS)
    assert repeat.get("sameAs") == "#" + juanshou.find("t:head", NS).get(
        "{http://www.w3.org/XML/1998/namespace}id")
    assert [text(t) for t in juanshou.findall("t:trailer", NS)] == ["欽定禮記義疏卷首"]
    # a quotation begins at the margin, its lines go on indented
    assert [text(p)[:4] for p in sections[1].findall("t:p", NS)][1:] == ["漢書藝文", "劉氏歆曰"]


def test_fanli_items_begin_with_yi_across_taitou():
    root, _ = fixture("yishu")
    items = root.xpath("//t:div[@type='fanli']/t:p", namespaces=NS)
    assert [text(p)[:3] for p in items] == ["一本朝", "一說禮", "一經文"]
    assert "成編兹特命儒臣" in text(items[0])


def test_tiyao_date_after_its_text_on_one_line():
    root, _ = fixture("yishu")
    tiyao = root.xpath("//t:div[@type='tiyao']", namespaces=NS)[0]
    assert text(tiyao.find("t:p", NS)).endswith("學者便之")
    assert [text(t) for t in tiyao.findall("t:trailer", NS)] == [
        "乾隆四十六年十月恭校上", "總纂官臣甲乙"]


# -- 引用姓氏 --------------------------------------------------------------------------------------
def _fields(e):
    return (e.dynasty, e.surname, e.given, e.courtesy, e.native_place)


def test_xingshi_small_cells_by_position():
    entries = front.xingshi((FIX / "front_yishu.txt").read_text(encoding="utf-8"))
    assert [_fields(e) for e in entries] == [
        ("周", "荀", "况", "", ""),
        ("漢", "董", "仲舒", "寛夫", "廣川"),
        ("漢", "毛", "萇", "", "趙郡"),            # no 字: the place stands in its column
        ("漢", "司馬", "遷", "子長", "龍門"),
        ("漢", "戴", "聖", "次君", ""),
        ("漢", "鄭", "玄", "康成", "髙密"),
        ("", "王", "", "", "石梁"),                # 以上二人未詳世次: no dynasty for the two
        ("", "徐", "", "", "")]
    assert (entries[1].pos.line, entries[1].pos.col) == (30, 3)


def test_xingshi_full_size_entries():
    entries = front.xingshi((FIX / "front_yili.txt").read_text(encoding="utf-8"))
    assert [_fields(e) + (e.hao,) for e in entries] == [
        ("周", "荀", "况", "", "", ""),
        ("漢", "董", "仲舒", "寛夫", "廣川", ""),
        ("漢", "毛", "萇", "", "趙郡", ""),
        ("漢", "孔", "安國", "子國", "", ""),       # a small 字 right after the name
        ("漢", "趙", "岐", "邠卿", "", ""),
        ("三國", "劉", "熙", "成國", "", ""),      # 以下三國時人: this one and those after
        ("三國", "王", "肅", "子邕", "", ""),
        ("宋", "劉", "敞", "原父", "臨江", "公是"),
        ("宋", "楊", "復", "", "秦溪", "信齋")]
    assert entries[4].remarks == ("又字臺卿",)


def test_xingshi_from_parsed_lines_uses_the_rows():
    lines = mandoku.parse((FIX / "front_yishu.txt").read_text(encoding="utf-8"), "t").lines
    assert [_fields(e) for e in front.xingshi(lines)] == \
        [_fields(e) for e in front.xingshi((FIX / "front_yishu.txt").read_text(encoding="utf-8"))]


def test_xingshi_tei_names_and_dynasties():
    root, _ = fixture("yishu")
    xingshi = root.xpath("//t:div[@type='xingshi']", namespaces=NS)[0]
    assert [(d.get("type"), d.get("n")) for d in xingshi.findall("t:div", NS)] == [
        ("dynasty", "周"), ("dynasty", "漢")]
    p = xingshi.xpath(".//t:p[t:persName]", namespaces=NS)[1]
    name = p.find("t:persName", NS)
    assert [(c.tag.split("}")[1], c.get("type"), c.get("rend"), text(c)) for c in name] == [
        ("surname", None, None, "董"), ("forename", None, "small", "仲舒"),
        ("addName", "zi", "small", "寛夫")]
    assert text(name) == "董氏仲舒寛夫"
    assert text(p.find("t:placeName", NS)) == "廣川"
    # a scholar the registry knows is pointed at in the shared persons.xml, and is the only
    # person the file points at; none is declared in the file itself
    zheng = xingshi.xpath(".//t:persName[t:forename='玄']", namespaces=NS)[0]
    assert zheng.get("ref") == "psn:zhengxuan"
    assert sorted(set(root.xpath("//@ref[starts-with(., 'psn:') or starts-with(., '#zs.')]"
                                 " | //@resp", namespaces=NS))) == ["psn:zhengxuan"]
    assert root.xpath("//t:listPerson/t:person", namespaces=NS) == []


def test_yili_bare_line_ends_break_nothing():
    """欽定儀禮義疏's transcription writes empty ¶ between the printed lines: an item runs on
    over them."""
    root, _ = fixture("yili")
    items = root.xpath("//t:div[@type='fanli']/t:p", namespaces=NS)
    assert [text(p) for p in items] == ["一儀禮相傳周公所作其篇次各家不同兹從鄭氏",
                                        "一每篇俱案行禮之節次分為章段"]


# -- the real files ------------------------------------------------------------------------------
needs_shared = pytest.mark.skipif(not KANRIPO.exists(), reason="../shared/kanripo not present")
FRONT_FILES = sorted(glob.glob(str(KANRIPO / "*" / "*" / "*_000.txt")))


@needs_shared
def test_detection_over_every_kanripo_file():
    """front wins on the front matter (_000) and the 跋語 files (a work's afterword: no 卷, a
    division of <back>), and on nothing else."""
    wrong = []
    for path in sorted(glob.glob(str(KANRIPO / "*" / "*" / "*_[0-9][0-9][0-9].txt"))):
        text_ = open(path, encoding="utf-8").read()
        if not mandoku.looks_like(text_):
            continue
        doc = mandoku.parse(text_, path)
        score = front.sniff_mandoku(doc)[0]
        try:
            layout = readers.detect_mandoku(doc)[0]
        except Exception:
            layout = None
        is_front = path.endswith("_000.txt") or "跋語" in front.sniff_mandoku(doc)[1]
        if (layout == "front") != is_front or (not is_front and score > 0):
            wrong.append((os.path.relpath(path, KANRIPO), layout, score))
    assert not wrong


EXPECTED = {
    "WYG/KR1d0003": ["mulu", "tiyao", "xu", "kaozheng", "xu", "kaozheng", "yuanmu", "kaozheng"],
    "WYG/KR1d0028": ["xu", "tiyao", "yuanmu", "kaozheng"],
    "WYG/KR1d0053": ["yuzhi", "mulu", "tiyao", "xu", "kaozheng", "yuanmu", "chuanshu"],
    "master/KR1d0053": ["yuzhi", "mulu", "tiyao", "xu", "kaozheng", "yuanmu", "chuanshu"],
    "WYG/KR1d0037": ["fanli", "xingshi", "tiyao", "mulu"],
    "WYG/KR1d0068": ["tiyao", "fanli", "xingshi", "mulu"],
}


@needs_shared
@pytest.mark.parametrize("path", FRONT_FILES, ids=lambda p: os.path.relpath(p, KANRIPO))
def test_front_files_convert(path):
    root, report = converted(path)
    assert report.layout == "front"
    work = os.path.relpath(os.path.dirname(path), KANRIPO)
    if work in EXPECTED:
        assert [k for k, _ in divs(root)] == EXPECTED[work]
        assert all(d.find("t:head", NS) is not None or d.get("type") == "tiyao"
                   for d in root.xpath("//t:front/t:div", namespaces=NS))
    # every page of the file, in order (those after its last line too)
    doc = mandoku.parse(open(path, encoding="utf-8").read(), path)
    pages = [p.key for p in doc.pages()]
    assert [pb.get("facs")[2:] for pb in root.iter("{%s}pb" % NS["t"])] == pages


@needs_shared
@pytest.mark.parametrize("work, count", [("KR1d0068", 244), ("KR1d0037", 196)])
def test_xingshi_of_the_yishu(work, count):
    path = KANRIPO / "WYG" / work / f"{work}_000.txt"
    entries = front.xingshi(path.read_text(encoding="utf-8"))
    assert len(entries) == count
    assert collections.Counter(e.dynasty for e in entries)["漢"] > 20
    root, _ = converted(str(path))
    assert len(root.xpath("//t:div[@type='xingshi']//t:persName", namespaces=NS)) == count


def test_a_plain_etext_of_front_matter_reads_alike():
    from pipeline.convert import convert_source
    from pipeline.sources.decoding import source_from_bytes
    plain = ("钦定四库全书\n提要\n（臣）等谨按此书凡若干卷\n乾隆四十二年三月恭校上\n"
             "欽定禮記義疏凡例\n一經文字樣間有不同\n一每經文下講說諸家各以時代為次\n")
    assert front.sniff(plain)[0] > 0
    data, report = convert_source(source_from_bytes(plain.encode("utf-8"), "t.txt"), "front")
    assert not report.errors, report.errors
    root = etree.fromstring(data)
    assert divs(root) == [("tiyao", "提要"), ("fanli", "欽定禮記義疏凡例")]
    assert [text(n) for n in root.iter("{%s}note" % NS["t"])] == ["臣"]
    assert [text(t) for t in root.iter("{%s}trailer" % NS["t"])] == ["乾隆四十二年三月恭校上"]
