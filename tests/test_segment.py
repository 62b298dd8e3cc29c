"""Where nothing marks the layers: the segmenter on the shapes the runon family takes."""

from pipeline.textlayers import layer_lines

from conftest import convert_checked

NS = {"t": "http://www.tei-c.org/ns/1.0"}


def convert(text: str, work: str = "周禮注疏"):
    return convert_checked(text, {"work": work})


def test_two_groups_without_circle_and_lemmas_for_each():
    # 經 注 音義 經 注 音義 in one line, no ○; the 注 lemmas and the 經 lemma fix it.
    text = ("王命诸侯，则傧。傧，进之也。傧，必刃反。国有大故，则旅上帝。故，谓凶灾。旅，陈也。旅，力举反。\n"
            "[疏]“王命”至“上帝”○释曰：总释。○注“傧进”至“之也”○释曰：傧者进也。○注“故谓”至“陈也”○释曰：凶灾。\n")
    root, report = convert(text)
    assert report.layout == "runon"
    assert layer_lines(root, "jing") == ["王命诸侯，则傧。国有大故，则旅上帝。"]
    assert layer_lines(root, "zhu") == ["傧，进之也。", "故，谓凶灾。旅，陈也。"]
    assert layer_lines(root, "yinyi") == ["傧，必刃反。", "旅，力举反。"]


def test_zhu_without_lemma_found_by_cue_and_reported():
    # The 疏 quotes only the 經; the 注 opens with a word of the 經 and a gloss (鄭玄's habit).
    text = ("凡国之大丧，诏相国客之礼仪。客，谓诸侯使臣来吊者。\n"
            "[疏]“凡国”至“礼仪”○释曰：大丧言凡。\n")
    root, report = convert(text)
    assert layer_lines(root, "jing") == ["凡国之大丧，诏相国客之礼仪。"]
    assert layer_lines(root, "zhu") == ["客，谓诸侯使臣来吊者。"]
    b = next(b for b in report.boundaries if b.kind == "jing|zhu")
    assert b.method == "cue" and 0 < b.confidence < 1 and (b.line, b.col) == (1, 15)


def test_occurrence_after_the_jing_end_wins():
    # 七代 stands in the 經 and opens the 注: the 注 is the one after the 經 lemma's end.
    text = ("七代之所更立者，禘、郊、宗、祖，其馀不变也。七代通数颛顼及喾也。\n"
            "［疏］“七代”至“变也”。○正义曰：此一节。○注“七代”至“喾也”。○正义曰：颛顼。\n")
    root, report = convert(text, "禮記正義")
    assert layer_lines(root, "jing") == ["七代之所更立者，禘、郊、宗、祖，其馀不变也。"]
    assert layer_lines(root, "zhu") == ["七代通数颛顼及喾也。"]


def test_paragraph_without_shu_keeps_text_and_warns_when_unsure():
    text = ("王大封，则先告后土。后土，土神也。\n"
            "乃颁祀于邦国都家乡邑。班其所当祀及其礼。\n"
            "[疏]注“班其”至“其礼”释曰：班布也。\n")
    root, report = convert(text)
    assert layer_lines(root, "jing") == ["王大封，则先告后土。", "乃颁祀于邦国都家乡邑。"]
    assert layer_lines(root, "zhu") == ["后土，土神也。", "班其所当祀及其礼。"]


def test_zhu_without_lemma_runs_on_after_its_opening():
    # Only the 經 is quoted; the 注 opens with a 經 word and its gloss, then goes on without cues.
    text = ("主人玄冠，朝服，缁带，素韠，即位于门东，西面。主人，将冠者之父兄也。玄冠，委貌也。"
            "朝服者，十五升布衣而素裳也。不言色者，衣与冠同也。○韠音必。\n"
            "[疏]“主人”至“西面”○释曰：此论主人将筮之服。\n")
    root, report = convert(text, "儀禮注疏")
    assert layer_lines(root, "jing") == ["主人玄冠，朝服，缁带，素韠，即位于门东，西面。"]
    assert layer_lines(root, "zhu") == ["主人，将冠者之父兄也。玄冠，委貌也。朝服者，十五升布衣而素裳也。不言色者，衣与冠同也。"]
    assert layer_lines(root, "yinyi") == ["韠音必。"]
