"""The 四庫 layout of the 注疏 (fixtures written from the layout's description): bare 注 before
each 注, 音义【…】 and 疏【…】 inline, no punctuation, furniture lines."""
import pytest
from lxml import etree

from conftest import ROOT
from pipeline.chars import lossless_form
from pipeline.convert import convert_file
from pipeline.readers import detect
from pipeline.textlayers import layer_lines, layer_text
from pipeline.validate import iter_issues

NS = {"t": "http://www.tei-c.org/ns/1.0"}
FIX = ROOT / "tests" / "fixtures" / "siku"
LIJI, ZHOULI = FIX / "liji_juan3.txt", FIX / "zhouli_juan18.txt"


@pytest.fixture(scope="module", params=[LIJI, ZHOULI], ids=["liji", "zhouli"])
def conv(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("siku") / (request.param.stem + ".xml")
    data, report = convert_file(str(request.param), str(out))
    return request.param, out, etree.fromstring(data), report, data


def test_detected(conv):
    src = conv[0]
    assert detect(src.read_text(encoding="utf-8"))[0] == "siku"


def test_lossless_valid_deterministic(conv, tei_all):
    src, out, root, report, data = conv
    assert not report.errors
    assert layer_text(root, "all") == lossless_form(src.read_text(encoding="utf-8"))
    assert [i for i in iter_issues(str(out)) if i.level != "warning"] == []
    assert tei_all.validate(root), tei_all.error_log
    assert convert_file(str(src))[0] == data


def test_liji_layers():
    root = etree.fromstring(convert_file(str(LIJI))[0])
    assert layer_lines(root, "jing") == [
        "公仪仲子之丧檀弓免焉仲子舍其孙而立其子檀弓曰何居我未之前闻也",
        "趋而就子服伯子于门右曰仲子舍其孙而立其子何也",
        "伯子曰仲子亦犹行古之道也昔者文王舍伯邑考而立武王微子舍其孙腯而立衍也"]
    assert layer_lines(root, "zhu") == [
        "仲子鲁同姓也檀弓鲁人之知礼者也", "居读为姬姓之姬齐鲁之间语助也", "伯子鲁大夫子服景伯之子也",
        "伯子为亲者隐耳立孙宜也", "微子適子死立其弟衍殷礼也"]
    assert layer_lines(root, "yinyi") == ["免音问", "舍音舍", "居音基", "腯徒忽反"]


def people(root) -> set[str]:
    """Every person the file points at (@ref, @resp), and none declared in it: the registry's
    scholars are in the shared persons.xml."""
    assert root.xpath("//t:person", namespaces=NS) == []
    return set(root.xpath("//@resp | //t:author/@ref | //t:editor/@ref | //t:persName/@ref", namespaces=NS))


def commentators(root) -> set[str]:
    """The header's author and commentators (titleStmt), by their pointers."""
    return set(root.xpath("//t:titleStmt/*[self::t:author or self::t:editor]/@ref", namespaces=NS))


def test_liji_structure_and_people():
    root = etree.fromstring(convert_file(str(LIJI))[0])
    q = lambda x: root.xpath(x, namespaces=NS)
    assert q("string(//t:title[@type='main'])") == "礼记注疏 卷三"
    assert q("//t:div[@type='juan']/t:fw/@type") == ["header", "responsibility"]
    assert q("string(//t:div[@type='pian']/t:head)") == "檀弓上第三"
    assert people(root) == commentators(root) == {"psn:zhengxuan", "psn:ludeming", "psn:kongyingda"}
    # the 經 lemma spans both 經 sentences of the line; each 注 lemma its 注
    shus = q("//t:note[@type='shu'][not(ancestor::t:note)]")
    assert [(s.get("target"), s.get("targetEnd")) for s in shus[:3]] == [
        ("#u1.j1", "#u1.j2"), ("#u1.z1", None), ("#u1.z2", None)]
    assert all(s.get("target") for s in shus)


def test_zhouli_commentators_from_its_lines():
    root = etree.fromstring(convert_file(str(ZHOULI))[0])
    assert people(root) == commentators(root) == {"psn:zhengxuan", "psn:ludeming", "psn:jiagongyan"}
    assert layer_lines(root, "jing") == ["王命诸侯则傧", "国有大故则旅上帝及四望", "王大封则先告后土"]
    assert layer_lines(root, "yinyi") == ["傧必刃反", "乡许亮反", "大封如字"]


# The 四庫 as Kanripo prints it, in this layout: no 出文, the 疏 quoting each 經 clause as X者
# and the 注 as 云X者 after 注正义曰; the 注 为其不欲与己并行 runs on into the 經 从长者… unmarked,
# and the next 注 says a 經 lies before it.
UNMARKED = ("钦定四库全书\n礼记注疏卷二\n汉郑氏注　唐陆德明音义　孔颖达疏\n曲礼上第一\n"
            "　　从于先生不越路而与人言注尊不二也遭先生于道趋而进正立拱手注为有教使先生与之言则对"
            "不与之言则趋而退注为其不欲与己并行从长者而上丘陵则必乡长者所视注为远视不察有所问"
            "音义【上时掌反】疏【正义曰此一节明事师长之礼从于先生者谓从行时也遭先生于道者此明道路"
            "与师长相逢之法先生与之言则对者此谓问时事也从长者而上丘陵者谓登高也则必乡长者所视者"
            "长者东视则东视注正义曰云为其不欲与己并行者恐其并行也】\n")


@pytest.fixture(scope="module")
def unmarked(tmp_path_factory):
    src = tmp_path_factory.mktemp("siku") / "unmarked.txt"
    src.write_text(UNMARKED, encoding="utf-8")
    data, report = convert_file(str(src))
    return etree.fromstring(data), report


def test_a_zhu_is_cut_from_the_jing_the_shu_quotes(unmarked):
    root, report = unmarked
    zhu = ["".join(z.itertext()) for z in root.xpath("//t:note[@type='zhu']", namespaces=NS)]
    assert zhu == ["尊不二也", "为有教使", "为其不欲与己并行", "为远视不察有所问"]
    jing = ["".join(s.itertext()) for s in root.xpath("//t:ab[@type='jing']/t:seg", namespaces=NS)]
    assert "从长者而上丘陵则必乡长者所视" in jing
    cut = [b for b in report.boundaries if b.kind == "zhu|jing"]
    assert cut and all(b.method == "quote" for b in cut)


def test_the_shu_quotes_are_sub_lemmas_on_exactly_what_they_quote(unmarked):
    root, report = unmarked
    ids = {e.get("{http://www.w3.org/XML/1998/namespace}id"): e for e in root.iter()}
    subs = root.xpath("//t:note[@subtype='sublemma']", namespaces=NS)
    assert [s.xpath("string(.//t:mentioned)", namespaces=NS) for s in subs] == \
        ["从于先生", "遭先生于道", "先生与之言则对", "从长者而上丘陵", "则必乡长者所视", "为其不欲与己并行"]
    # each points at its clause: from the start of a seg (or an anchor in it) to an anchor
    # (or the seg's end); the 云X者 of the 注 part at the 注 itself
    assert ids[subs[-1].get("target")[1:]].get("type") == "zhu"
    shu = root.xpath("//t:note[@type='shu'][not(@subtype)]", namespaces=NS)
    assert len(shu) == 2                                  # the 經 part, the 注 part
    assert shu[0].get("target") == "#u1.j1" and shu[0].get("targetEnd") == "#u1.j4"
    assert shu[1].get("target") == "#u1.z3"
    methods = [b.method for b in report.boundaries if b.kind == "shu-target"]
    assert methods == ["quote", "quote"]


def test_quotes_in_order_and_of_three_characters_at_least():
    from pipeline.readers.zhushu import bare_quotes
    index = bare_quotes.TextIndex("甲乙丙丁戊己庚辛壬癸甲乙丙")
    found = bare_quotes.find(["说甲乙丙者也又说丁戊者又说己庚辛者", ], index, ("jing",))
    # 丁戊 is too short to tell a quote; 甲乙丙 is taken at its first place, 己庚辛 after it
    assert [(f.start, f.stop) for f in found] == [(0, 3), (5, 8)]


def test_pian_titles_without_a_number_are_headings(tmp_path):
    """A 篇 title alone on its line is a heading with or without 第N (`大學`, `曲礼上`): the 篇 of
    the 三禮 are listed (pipeline/readers/pian.py), since nothing in the line's shape tells them from a
    short 經 sentence. A sentence that opens with a 篇's name stays 經."""
    text = ("钦定四库全书\n礼记注疏卷六十\n汉郑氏注　唐陆德明音义　孔颖达疏\n大学\n"
            "大学之道在明明德在亲民在止于至善注明明德谓显明其至德也止犹自处也音义【大学旧音泰】"
            "疏【正义曰此经大学之道在明明德者言大学之道在于章明己之光明之德】\n"
            "曲礼上\n曲礼曰毋不敬俨若思注礼主于敬疏【正义曰毋不敬者人君行礼无有不敬】\n")
    src = tmp_path / "t.txt"
    src.write_text(text, encoding="utf-8")
    data, report = convert_file(str(src))
    root = etree.fromstring(data)
    assert not report.errors and report.layout == "siku"
    heads = [("".join(h.itertext()), h.get("type")) for h in root.iterfind(".//t:body//t:head", NS)]
    assert heads == [("礼记注疏卷六十", "juan"), ("大学", "pian"), ("曲礼上", "pian")]
    jing = "".join("".join(s.itertext()) for s in root.iterfind(".//t:ab[@type='jing']/t:seg", NS))
    assert jing.startswith("大学之道在明明德") and "曲礼上" not in jing
    assert layer_text(root, "all") == lossless_form(text)


def test_quoted_clauses_are_those_of_the_shus_jing_parts():
    from pipeline.readers.zhushu.bare_quotes import QuotedClauses
    clauses = QuotedClauses(["正义曰先生与之言则对者此谓问时事也注正义曰云为有教使者言有所教也"])
    run = "为有教使先生与之言则对不与之言则趋而退"
    assert clauses.first_in(run) == (4, 11)          # 先生与之言则对, not the 注's 为有教使
    assert clauses.first_in("为远视不察有所问") is None


# Two groups: the first 疏 quotes none of the 經 that its second 注 runs on into (先生与之言则
# 对…); the second 疏, on the next paragraph, does (`先生与之言则对者`).
OTHER_SHU = ("钦定四库全书\n礼记注疏卷二\n汉郑氏注　唐陆德明音义　孔颖达疏\n曲礼上第一\n"
             "　　从于先生不越路而与人言注尊不二也遭先生于道趋而进正立拱手注为有教使先生与之言则对"
             "不与之言则趋而退注为其不欲与己并行音义【并步顶反】疏【正义曰此一节明事师长之礼从于先生者"
             "谓从行时也遭先生于道者此明道路之法】\n"
             "　　从长者而上丘陵则必乡长者所视注为远视不察有所问疏【正义曰上云先生与之言则对者此谓问"
             "时事也从长者而上丘陵者谓登高也】\n")


def test_a_jing_quoted_by_another_shu_of_the_juan_ends_the_zhu(tmp_path):
    src = tmp_path / "other.txt"
    src.write_text(OTHER_SHU, encoding="utf-8")
    data, report = convert_file(str(src))
    root = etree.fromstring(data)
    zhu = ["".join(z.itertext()) for z in root.xpath("//t:note[@type='zhu']", namespaces=NS)]
    assert zhu[:3] == ["尊不二也", "为有教使", "为其不欲与己并行"]
    cut = [b for b in report.boundaries if b.kind == "zhu|jing"]
    assert [b.method for b in cut] == ["quote", "quote"]


def test_a_zhu_citing_a_commentary_by_name_is_one_zhu(tmp_path):
    """The bare 注 opens a 注; `杜子春注云` inside a 注 is the 注 citing a commentary by name (X's
    commentary says), the word 注 of its text: the 注 goes on, no 經 is cut out of it. Right
    after a 經, 注云 is the marker of a 注 that quotes its text (云X者), and 注曰 a marker too (a
    注 on the 經's 曰: `注曰辞也`)."""
    src = tmp_path / "zhouli_juan1.txt"
    src.write_text("钦定四库全书\n周礼注疏卷一\n汉郑氏注　唐陆德明音义　贾公彦疏\n天官冢宰第一\n"
                   "　　惟王建国注建立也杜子春注云国谓城郭也疏【惟王建国者释曰言建国者谓立国也】\n"
                   "　　祝辞曰哀子某注曰辞也某名也疏【祝辞曰者释曰此告神之辞也】\n"
                   "　　传曰君子子者贵人之子也注云君子子者则父在也疏【传曰至子也释曰此传释君子子】\n",
                   encoding="utf-8")
    root = etree.fromstring(convert_file(str(src))[0])
    assert layer_lines(root, "zhu") == ["建立也杜子春注云国谓城郭也", "曰辞也某名也", "云君子子者则父在也"]
    assert layer_lines(root, "jing") == ["惟王建国", "祝辞曰哀子某", "传曰君子子者贵人之子也"]
