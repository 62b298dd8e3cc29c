"""音義 glosses: split into items, heads and readings marked, text kept exactly."""
import pytest

from pipeline.readers.yinyi import head_of, split_glosses, tokenize

CASES = [
    ("闽，亡巾反，又音文。", "闽", ["fanqie:亡巾反", "zhiyin:音文"]),
    ("大如字，徐音泰。", "大", ["ruzi:如字", "zhiyin:音泰"]),
    ("腐音辅。", "腐", ["zhiyin:音辅"]),
    ("退复，扶又反。", "退复", ["fanqie:扶又反"]),
    ("秭，徐音姊，刘祖礼反。", "秭", ["zhiyin:音姊", "fanqie:祖礼反"]),
    ("下同。", "", []),
]


@pytest.mark.parametrize("gloss,head,parts", CASES)
def test_tokens(gloss, head, parts):
    toks = tokenize(gloss)
    assert "".join(t.text for t in toks) == gloss
    assert head_of(gloss) == head
    assert [f"{t.kind}:{t.text}" for t in toks if t.kind not in ("text", "term")] == parts


def test_split_respects_quotes():
    run = "道，音导，下文注“道之”、“道宾”、“道王”同。好，呼报反，注下皆同。恶"
    items = split_glosses(run)
    assert [g for _, g in items] == ["道，音导，下文注“道之”、“道宾”、“道王”同。", "好，呼报反，注下皆同。", "恶"]
    assert all(run[o:o + len(g)] == g for o, g in items)


def test_tokens_concatenate_to_any_gloss():
    # the TEI writer checks a gloss for escapes once, on its whole text, because of this
    from test_matching import random_texts
    for gloss in random_texts(31, "闽亡巾反又音文如字徐，。<&“”下同", 16, 5000):
        assert "".join(t.text for t in tokenize(gloss)) == gloss, gloss
