"""The 四庫 疏's quotes beyond `X者` of its own layer (quote_anchoring._anchor_part): the 經 part
quoting the 注 (釋曰云X者 with X the 注's words), two-character quotes where the 疏's phrasing
marks them (云XX者, 釋曰XX者, the office a 敘官 疏 names), and none by chance (釋曰此六者). The
same 卷, written for the purpose, in the plain-text layout and as Kanripo prints it."""
import pytest
from lxml import etree

from pipeline.convert import convert_file
from pipeline.readers.zhushu import bare_quotes

NS = {"t": "http://www.tei-c.org/ns/1.0"}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"

# 經, 注 and 疏 of six groups: the 疏 of the first quotes only the 注 (its 經 shares no three
# characters with it); of the second, three words of two characters after 云; of the third,
# the office it explains; of the fourth, nothing (此六 is the 疏's "these six"); of the fifth,
# the 注's words by its author's name (鄭云); the sixth shares four characters with its 注
# (天子之臣), words both use, not a quote; the seventh quotes its 經 with a variant (於 for 于).
GROUPS = [("共賓客之稍禮", "稍禮非飧饔之禮漿人所給亦六飲而已",
           "釋曰云稍禮非飧饔之禮者謂王稍稍所給云漿人所給亦六飲而已者漿人唯主飲"),
          ("王燕食則奉膳贊祭", "燕食謂日中與夕食", "釋曰此云燕食者謂日中與夕相接云奉膳者奉朝之餘膳云贊祭者助王祭"),
          ("鼓人中士六人府二人史二人徒二十人", "", "釋曰鼓人在此者以其主敎六鼓四金故在此也"),
          ("春朝諸侯而圖天下之事", "此六事者以王見諸侯為文", "釋曰此六者各自相對為文"),
          ("凡四方之賔客造焉則以告", "造猶至也告於王而止客", "釋曰四方賔客至皆遣人徃迎故鄭云告於王也"),
          ("孤執皮帛卿執羔", "皮帛者天子之臣所執", "釋曰凡此所執天子之臣尊諸侯之臣卑"),
          ("漿人掌共王之六飲入于酒府", "", "釋曰言入於酒府者亦入於酒正之府")]


def plain() -> str:
    lines = ["钦定四库全书", "周礼注疏卷五", "汉郑氏注　唐陆德明音义　贾公彦疏"]
    lines += [f"　　{j}" + (f"注{z}" if z else "") + f"疏【{s}】" for j, z, s in GROUPS]
    return "\n".join(lines) + "\n"


def mandoku() -> str:
    lines = ["#+TITLE: 周禮注疏", "#+PROPERTY: JUAN 5", "<pb:KR9z0003_WYG_005-1a>", "欽定四庫全書",
             "　周禮注疏卷五", "　　漢鄭氏注　唐陸徳明音義　賈公彦疏"]
    # the 疏 as a small note over two rows, split mid-quote in the second group
    lines += [f"{j}" + (f"注{z}" if z else "") + f"疏({s[:20]}/{s[20:]})" for j, z, s in GROUPS]
    return "¶\n".join(lines) + "¶\n"


@pytest.fixture(scope="module", params=["plain", "mandoku"])
def converted(request, tmp_path_factory):
    d = tmp_path_factory.mktemp("shuq")
    src = d / ("juan5.txt" if request.param == "plain" else "KR9z0003_005.txt")
    src.write_text(plain() if request.param == "plain" else mandoku(), encoding="utf-8")
    data, report = convert_file(str(src))
    assert report.layout == "siku"
    return etree.fromstring(data), report


def shu_parts(root):
    return root.xpath("//t:note[@type='shu'][not(@subtype)]", namespaces=NS)


def mentioned(shu):
    return ["".join(m.itertext()) for m in shu.xpath(".//t:note[@subtype='sublemma']//t:mentioned", namespaces=NS)]


def test_the_jing_part_quoting_the_zhu_points_at_the_zhu(converted):
    root, report = converted
    ids = {e.get(XML_ID): e for e in root.iter()}
    shu = shu_parts(root)[0]
    assert mentioned(shu) == ["稍禮非飧饔之禮", "漿人所給亦六飲而已"]
    assert ids[shu.get("target")[1:]].get("type") == "zhu"
    notes = [b.note for b in report.boundaries if b.kind == "shu-target"]
    assert notes[0] == "2 X者 quotes of the 注"


def test_two_character_quotes_only_in_a_quotes_frame(converted):
    root, report = converted
    shu = shu_parts(root)
    assert mentioned(shu[1]) == ["燕食", "奉膳", "贊祭"]
    assert mentioned(shu[2]) == ["鼓人"]
    assert mentioned(shu[3]) == []            # 此六者: not a quote, left to position
    assert shu[3].get("target") == "#u4.j1"


def test_the_zhus_words_by_name_and_no_shorter_words_unnamed(converted):
    root, report = converted
    notes = [b.note for b in report.boundaries if b.kind == "shu-target" and b.method == "quote"]
    assert notes[3] == "the 注's words, unmarked: “告於王”" and len(notes) == 5
    ids = {e.get(XML_ID): e for e in root.iter()}
    assert ids[shu_parts(root)[4].get("target")[1:]].tag.endswith("anchor")
    assert shu_parts(root)[5].get("target") == "#u6.j1"       # by position


def test_a_quote_with_a_variant_character(converted):
    root, report = converted
    shu = shu_parts(root)[6]
    assert mentioned(shu) == ["入於酒府"]
    ab = root.xpath("//t:ab[@xml:id='u7']", namespaces=NS)[0]
    text, at = _offsets(ab)
    sub = shu.xpath(".//t:note[@subtype='sublemma']", namespaces=NS)[0]
    assert text[at[sub.get("target")[1:]][0]:at[sub.get("targetEnd")[1:]][1]] == "入于酒府"
    assert [b.note for b in report.boundaries if b.kind == "shu-target"][-1] == \
        "1 X者 quote with a differing character"


def test_the_sub_lemmas_point_at_exactly_what_they_quote(converted):
    root, _ = converted
    for shu in shu_parts(root)[:3]:
        for sub in shu.xpath(".//t:note[@subtype='sublemma']", namespaces=NS):
            ab = root.xpath(f"//*[@xml:id='{sub.get('target')[1:]}']/ancestor-or-self::t:ab", namespaces=NS)[0]
            text, at = _offsets(ab)
            quoted = text[at[sub.get("target")[1:]][0]:at[sub.get("targetEnd")[1:]][1]]
            assert quoted == sub.xpath("string(.//t:mentioned)", namespaces=NS)


def _offsets(ab):
    """The text of an ab (less the row milestones' nothing) and each id's (start, end) in it."""
    chars, at = [], {}

    def walk(el):
        start = sum(map(len, chars))
        chars.append(el.text or "")
        for child in el:
            walk(child)
            chars.append(child.tail or "")
        at[el.get(XML_ID)] = (start, sum(map(len, chars)))
    walk(ab)
    return "".join(chars), at


def test_find_short_takes_the_frames_in_order():
    text = "選百羞醬物珍物以俟饋"
    found = bare_quotes.find_short(["釋曰百羞者則醬物者云珍物者言俟饋者"], text, "jing")
    # 醬物者 has no frame (云/言, or the opener before it): two characters by chance as often
    assert [text[f.start:f.stop] for f in found] == ["百羞", "珍物", "俟饋"]
    assert bare_quotes.find_short(["釋曰此六者云俟饋者云百羞者"], text, "jing")[0].start == 8
    # in order: 百羞 lies before 俟饋, so it is not found after it
    assert len(bare_quotes.find_short(["釋曰此六者云俟饋者云百羞者"], text, "jing")) == 1


def test_find_across_takes_every_zhe_as_a_quote_of_the_other_layer():
    index = bare_quotes.TextIndex("甲乙丙丁戊己庚辛壬癸")
    # the 注 part (注釋曰…) quoting the 經 as X者, with no 云 before it
    found = bare_quotes.find(["注釋曰知丁戊己者又庚辛壬者"], index, ("jing",), disjoint=True, across=True)
    assert [(f.start, f.stop) for f in found] == [(3, 6), (6, 9)]
    # as the 注 part's own quotes, only the one right after 注釋曰 is taken (no 云 before 庚辛壬)
    assert len(bare_quotes.find(["注釋曰知丁戊己者又庚辛壬者"], index, ("zhu",), disjoint=True)) == 1


def test_find_variant_one_character_in_four_or_more():
    text = "入于酒府池視重霤"
    found = bare_quotes.find_variant(["言入於酒府者又於酒府者池者柳車之池也重霤者"], text, "jing")
    # 於酒府: three characters with one changed is any word of the text; 池也重霤 differs from
    # 池視重霤 by the 也 that ended the 疏's sentence on 池
    assert [(f.at, f.end, text[f.start:f.stop]) for f in found] == [(1, 5, "入于酒府")]
