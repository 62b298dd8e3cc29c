"""Short cuts taken for speed agree with the plain versions they replace, on random texts.

The 疏 paragraphs are scanned for sub-lemma quotes once, and the segmenter's 經 / 注 phrases are
read off that scan; the 義疏 sniff counts its labels over the lines the reader reads, and the
reader cuts at the glued labels the sniff found.
"""
import random

from test_matching import random_texts

from pipeline.chars import Q_CLOSE, Q_OPEN, QUOTE_MARKS
from pipeline.matching import squeeze
from pipeline.model import Para, Pos
from pipeline.readers import sniffing
from pipeline.readers.yishu import lines as yishu_lines
from pipeline.readers.yishu import reader as yishu
from pipeline.readers.yishu import smallnotes
from pipeline.readers.yishu.attribution import ATTRIBUTION
from pipeline.readers.zhushu.evidence import _is_phrase
from pipeline.readers.zhushu.lemmas import _SUB, sub_quotes
from pipeline.readers.zhushu.shu import SubQuotes

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
