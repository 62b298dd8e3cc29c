"""The fast forms of the matching helpers agree with the plain definitions they replace.

Each helper was rewritten for speed (bit-parallel edit distance, regexes tried only where they
can match); these tests hold them to the straightforward versions on random and edge inputs.
"""
import random
import re

from pipeline.chars import (DELIMITERS, Q_CLOSE, Q_OPEN, QUOTE_MARKS, WHITESPACE, lossless_form,
                            strip_ws)
from pipeline.matching import (_SKIP, edit_distance, find_all, prefix_distances,
                               prefix_distances_plain, squeeze)
from pipeline.model import JING, Piece, Pos
from pipeline.readers import sniffing
from pipeline.readers.yinyi import _GLOSS
from pipeline.readers.yishu.attribution import ATTRIBUTION, attributions
from pipeline.readers.yishu.interleave import _Likeness, similarity
from pipeline.readers.yishu.lines import GLUED_AN
from pipeline.readers.zhushu.anchoring import Stream, _kept_runs
from pipeline.readers.zhushu.shu import SubQuotes

ALPHABET = "之也者其而以不為人子□?"


def test_prefix_distances_match_the_table():
    rnd = random.Random(1)
    for _ in range(20000):
        q = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 14)))
        t = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 18)))
        if q and rnd.random() < 0.5:
            t = q[:rnd.randint(0, len(q))] + t
        cap = rnd.randint(0, 5)
        assert prefix_distances(q, t, cap) == prefix_distances_plain(q, t, cap), (q, t, cap)


def test_prefix_distances_on_long_quotes():
    rnd = random.Random(2)
    for _ in range(500):
        q = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(60, 90)))
        t = q
        for _ in range(rnd.randint(0, 12)):              # edits: change, insert, delete
            k = rnd.randrange(len(t))
            op = rnd.random()
            t = t[:k] + (rnd.choice(ALPHABET) if op < 0.66 else "") + t[k + (op > 0.33):]
        cap = max(1, len(q) // 8)
        assert prefix_distances(q, t, cap) == prefix_distances_plain(q, t, cap)
        assert edit_distance(q, t, cap) == min(prefix_distances_plain(q, t, cap)[len(t)], cap + 1)


def test_prefix_distances_stop_early_as_the_table():
    """A window far from the quote stops once the rest must be over cap: the same list."""
    rnd = random.Random(3)
    for _ in range(3000):
        q = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(6, 40)))
        t = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 50)))
        if rnd.random() < 0.3:
            t = t[:rnd.randint(0, 4)] + q[:rnd.randint(0, len(q))] + t
        cap = max(1, len(q) // 8)
        assert prefix_distances(q, t, cap) == prefix_distances_plain(q, t, cap), (q, t, cap)


def _find_all_plain(hay: str, quote: str, lo: int, allowed: int) -> list[tuple[int, int]]:
    """Every window with at most `allowed` differing characters (no placeholders anywhere)."""
    n = len(quote)
    out = []
    for s in range(lo, len(hay) - n + 1):
        bad = sum(a != b for a, b in zip(hay[s:s + n], quote))
        if bad <= allowed:
            out.append((s, bad))
    return out


def test_find_all_without_placeholders_finds_every_near_match():
    rnd = random.Random(3)
    letters = "之也者其而以"
    for _ in range(3000):
        hay = "".join(rnd.choice(letters) for _ in range(rnd.randint(0, 40)))
        quote = "".join(rnd.choice(letters) for _ in range(rnd.randint(3, 6)))
        lo = rnd.randint(0, 5)
        exact = _find_all_plain(hay, quote, lo, 0)
        want = exact or _find_all_plain(hay, quote, lo, 1)
        assert find_all(hay, quote, lo) == want, (hay, quote, lo)


def test_stream_where_maps_back_to_the_piece_text():
    pieces = [Piece(JING, t, Pos(1, 1)) for t in ("大宰，掌建邦之六典。", "“以佐王”", "。，", "治邦國")]
    st = Stream.of(pieces)
    assert st.chars == "".join(squeeze(p.text) for p in pieces)
    for i, ch in enumerate(st.chars):
        pi, off = st.where(i)
        assert pieces[pi].text[off] == ch and ch not in _SKIP
    assert [i for i in range(len(st.chars)) if st.at_piece_start(i)] == [0, 8, 11]
    assert st.at_piece_end(7) and st.at_piece_end(len(st.chars) - 1) and not st.at_piece_end(6)


def random_texts(seed: int, alphabet: str, longest: int, count: int = 20000) -> list[str]:
    """`count` texts of 0 to `longest` characters drawn from `alphabet`."""
    rnd = random.Random(seed)
    return ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, longest))) for _ in range(count)]


def assert_same_matches(fast, plain, texts) -> None:
    """Both find the same matches (spans and named groups) in every text."""
    for t in texts:
        assert [(m.span(), m.groupdict()) for m in fast(t)] == \
               [(m.span(), m.groupdict()) for m in plain.finditer(t)], t


def test_attributions_are_the_regex_matches():
    texts = ["郑氏康成曰遭丧主国君薨也　敖氏继公曰聘", "朱子曰程子曰", "曰氏甲曰", "甲氏乙丙曰丁氏曰"]
    assert_same_matches(attributions, ATTRIBUTION, texts + random_texts(4, "曰氏朱子程张甲乙丙。", 30))


def test_sub_quotes_are_the_combined_pattern():
    body = Q_OPEN + r"(?P<q1>[^" + QUOTE_MARKS + r"]{1,80})" + Q_CLOSE + r"(?P<zhe>者)?"
    combined = re.compile("(?:^|云)" + body)
    texts = ["“大凡”者，云“协其礼”者", "云“甲”云“乙”者", "甲云“乙”"]
    assert_same_matches(SubQuotes(body).finditer, combined, texts + random_texts(5, "云“”「」者甲乙", 20))


def test_glued_an_looks_back_for_a_closing_quote():
    plain = re.compile(r"(?<=[」”])(?P<an>案|按)(?P<punct>[：:]?)")
    assert_same_matches(GLUED_AN.finditer, plain, random_texts(6, "案按」”：:。甲", 12))


def test_gloss_runs_split_as_one_character_at_a_time():
    plain = re.compile(r"(?:[^。“‘「『]|“[^”]*”?|‘[^’]*’?|「[^」]*」?|『[^』]*』?)+。?|。")
    assert_same_matches(_GLOSS.finditer, plain, random_texts(7, "甲乙。“”‘’「」『』，", 16))


def test_kept_runs_are_the_regex_runs():
    kept = re.compile("[^" + re.escape("".join(sorted(_SKIP))) + "]+")
    for t in random_texts(8, "之也，。 　“”□", 14):
        runs = [m.span() for m in kept.finditer(t)]
        squeezed_at = [sum(b - a for a, b in runs[:k]) for k in range(len(runs))]
        assert _kept_runs(t) == (squeezed_at, [a for a, _ in runs]), t


def test_removing_characters_is_the_regex_substitution():
    ws = re.compile("[" + re.escape("".join(sorted(WHITESPACE))) + "]+")
    lossless = re.compile("[" + re.escape("".join(sorted(WHITESPACE | DELIMITERS))) + "]+")
    for t in random_texts(9, "之 \t\u3000\ufeff\n（）()○【】甲", 14):
        assert strip_ws(t) == ws.sub("", t) and lossless_form(t) == lossless.sub("", t), t


def test_mostly_cjk_is_more_than_half_ideographs():
    # U+4DFF and U+A000 lie just outside the range; a character beyond the BMP is no URO ideograph
    assert sniffing.mostly_cjk("之也\u4e00") and sniffing.mostly_cjk("\u9fff\u4e00a")
    assert not sniffing.mostly_cjk("\u4dff\ua000之") and not sniffing.mostly_cjk("\U00020000\U00020001之")
    assert not sniffing.mostly_cjk("") and not sniffing.mostly_cjk("ab")
    long = "之" * 70000 + "a" * 70001
    assert not sniffing.mostly_cjk(long) and sniffing.mostly_cjk(long[:-2])


def test_likeness_thresholds_and_means_agree_with_the_exact_values():
    """The bounded answers of _Likeness against its plain twins, on random lines."""
    rnd = random.Random(11)
    lines = ["".join(rnd.choice("之也者其而说曰，。的") for _ in range(rnd.randint(0, 12)))
             for _ in range(60)]
    alike = _Likeness(lines)
    for _ in range(5000):
        i, j = rnd.randrange(60), rnd.randrange(60)
        exact = similarity(lines[i], lines[j])
        assert alike(i, j) == exact and alike.bound(i, j) >= exact
        ratio = rnd.choice((0.6, 0.8))
        assert alike.reaching(i, j, ratio) == alike.exact_reaching(i, j, ratio) == \
            (exact if exact >= ratio else None)
    for _ in range(2000):
        pairs = [(rnd.randrange(60), rnd.randrange(60)) for _ in range(rnd.randint(1, 5))]
        mean = sum(similarity(lines[o], lines[r]) for r, o in pairs) / len(pairs)
        assert alike.mean_reaching(pairs, 0.5) == alike.exact_mean_reaching(pairs, 0.5) == \
            (mean if mean >= 0.5 else None)


def test_shu_lines_are_counted_as_the_multiline_pattern():
    from pipeline.readers.zhushu import runon
    old = re.compile(r"^\s*(?:[\[［【〔][疏疎][\]］】〕]|[疏疎](?=○?(?:注|註)?" + Q_OPEN + "))", re.M)
    rnd = random.Random(12)
    for _ in range(5000):
        t = "".join(rnd.choice(["[疏]", "疏", "○", "注", "“", "甲", "\n", " ", "　"])
                    for _ in range(rnd.randint(0, 20)))
        lines = sniffing.nonblank_lines(t)
        assert sum(1 for l in lines if runon._SHU_LINE.match(l)) == len(old.findall(t)), t
