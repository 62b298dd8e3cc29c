"""Short cuts taken for speed agree with the plain versions they replace, on random texts.

squeeze skips the substitution for a text of letters only, and removes the punctuation of a long
one by str.replace; the 疏 paragraphs are scanned for
sub-lemma quotes once, and the segmenter's 經 / 注 phrases are read off that scan; the 義疏
sniff counts its labels over the lines the reader reads; the persons of the 義疏 quotations
are gathered by C-level maps; the Viterbi
step reads a table by label; the stray-delimiter pass tests a one-run quotation in its loop.
"""
import random
import re

from test_matching import random_texts

from pipeline.chars import Q_CLOSE, Q_OPEN, QUOTE_MARKS
from pipeline.model import XIAOZHU, Div, Document, Meta, Para, Pos, Quote, SmallNote, YishuBlock
from pipeline.readers import sniffing
from pipeline.readers.yishu import lines as yishu_lines
from pipeline.readers.yishu import reader as yishu
from pipeline.readers.yishu import smallnotes
from pipeline.readers.yishu.attribution import ATTRIBUTION
from pipeline.readers.zhushu.anchoring import _SKIP, _SKIP_RUN, _SUB, squeeze, sub_quotes
from pipeline.readers.zhushu.segment import _INTO, _TRANS, _is_phrase
from pipeline.readers.zhushu.shu import SubQuotes
from pipeline.report import Report
from pipeline.strays import drop


def test_no_skipped_character_is_a_letter():
    assert not any(c.isalpha() for c in _SKIP)


def test_squeeze_is_the_substitution():
    texts = random_texts(21, "之也，。 　“”□?▯甲ab·…", 12) + random_texts(25, "之也，。 　“”□甲", 600, 300)
    for t in texts + ["", "大凡", "大，凡", "?", "ab", "之，" * 150]:
        assert squeeze(t) == _SKIP_RUN.sub("", t), t


# The patterns the sub-lemma scans used before they were one scan.
_SUBLEMMA_PLAIN = SubQuotes(Q_OPEN + r"([^" + QUOTE_MARKS + r"]{2,80})" + Q_CLOSE + "者")


def test_sub_quotes_are_the_sub_lemma_matches():
    texts = random_texts(22, "云“”「」者至甲乙，", 24) + ["“大凡”者，云“协其礼”者", "云“甲”至“乙丙”者", "“甲乙”至云“丙丁”者"]
    for t in texts:
        para = Para(t, Pos(1, 1))
        got = [(q.at, q.spans, q.squeezed) for q in sub_quotes(para)]
        want = []
        for m in _SUB.finditer(t):
            if m.group("zhe") or m.group("q2"):
                spans = [m.span("q1")] + ([m.span("q2")] if m.group("q2") else [])
                want.append((m.start(), spans, [squeeze(t[a:b]) for a, b in spans]))
        assert got == want, t
        phrases = [q.squeezed[0] for q in sub_quotes(para) if _is_phrase(q)]
        assert phrases == list(filter(None, (squeeze(m.group(1)) for m in _SUBLEMMA_PLAIN.finditer(t)))), t


def _sniff_plain(text: str) -> tuple[float, str]:
    """yishu.sniff as it was: its own split of the text into stripped lines."""
    ws = "".join(sorted(yishu_lines._WS))
    lines = [l.strip(ws) for l in text.split("\n") if l.strip()]
    if not lines:
        return 0.0, "empty"
    cats = sum(1 for l in lines if (m := yishu_lines.LINE_LABEL.match(l)) and
               (ATTRIBUTION.match(l, m.end()) or m.group("an")))
    glued = sum(len(yishu_lines.GLUED.findall(smallnotes.mask(l))) for l in lines if "曰" in l)
    if cats + glued < 2:
        return 0.0, f"{cats + glued} 義疏 categories"
    return min(1.0, 0.4 + 2 * (cats + glued) / len(lines)), \
        f"{cats + glued} 義疏 categories (正义, 存疑 …) or 案 in {len(lines)} lines"


def test_yishu_sniff_counts_as_its_own_split():
    rnd = random.Random(23)
    pieces = ["正义", "案", "郑氏康成曰", "〈音境〉", "存疑。", "甲", "\n", " ", "\u3000", "\ufeff",
              "\u2003", "曰", "通论"]
    for _ in range(4000):
        t = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30)))
        assert yishu.sniff(t) == _sniff_plain(t), repr(t)
        assert len(sniffing.nonblank_lines(t)) == sum(1 for l in t.split("\n") if l.strip())


def _parts_plain(parts, pos, report):
    out = []
    for p in parts:
        if isinstance(p, SmallNote):
            pass
        elif re.search("[（）()［］\\[\\]【】〈〉○]", p):
            p = re.sub("[（）()［］\\[\\]【】〈〉○]", "", p)
        if p != "":
            out.append(p)
    return out


def test_stray_quotations_tested_in_the_loop_as_by_parts():
    """strays.drop tests a one-run quotation itself and hands the others to its parts pass."""
    rnd = random.Random(27)
    texts = random_texts(28, "甲（）○【", 4, 3000)
    for k in range(0, len(texts), 3):
        partss = [[t] for t in texts[k:k + 2]] + \
                 [[texts[k + 2], SmallNote(XIAOZHU, "乙", Pos(1, 1))] if rnd.random() < 0.5 else []]
        quotes = [Quote("", "", list(parts), Pos(1, 1)) for parts in partss]
        doc = Document(Meta("x.txt", "0" * 64, "yishu"),
                       [Div("juan", None, blocks=[YishuBlock("zhengyi", "", quotes, Pos(1, 1))])])
        drop(doc, Report("x"))
        assert [q.parts for q in quotes] == [_parts_plain(p, Pos(1, 1), None) for p in partss]


def test_viterbi_steps_read_the_transition_table():
    assert {(p, lab): t for lab, row in _INTO.items() for p, t in row.items()} == _TRANS
