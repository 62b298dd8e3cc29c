"""The 四庫 注疏's 疏, which print no 出文: anchored by their bare `X者` quotes, or their words.

Each 疏 section is cut into its 經 part and, from 注正義曰 / 注釋曰 on, its 注 part; each part points
from its first quote to its last, and each quote is a sub-lemma on exactly the characters it
quotes (bare_quotes.py finds them). The fallbacks, in order, and their confidences are below.
"""
from __future__ import annotations

import re

from pipeline.model import JING, ZHU, Para, Shu
from pipeline.readers.zhushu import bare_quotes
from pipeline.readers.zhushu.anchoring import LAYER_NAME, Span, Stream, SubQuote, shift, span_at, split_at
from pipeline.report import Report


def by_quotes(shus: list[Shu], stream, report: Report) -> list[Shu]:
    """The 疏 of an unpunctuated edition with no 出文 (the 四庫 注疏), anchored by their quotes
    (bare_quotes.py). A section turns to the 注 at 注正義曰 / 注釋曰: from there on it is a section
    of its own, which explains the 注 (marked neither 疏 nor by a lemma: the edition prints the
    two parts as one note). The 經 part points from its first quoted clause to its last, the 注
    part from its first `云X者` to its last, and each quote is a sub-lemma pointing at exactly
    the characters it quotes. A part with no quote found keeps no target (the caller attaches
    it by position)."""
    out: list[Shu] = []
    for shu in shus:
        if shu.chuwen is not None or shu.detached:
            out.append(shu)
            continue
        for part, layer in _parts(shu):
            _anchor_part(part, layer, stream, report)
            out.append(part)
    return out


def _parts(shu: Shu) -> list[tuple[Shu, str]]:
    """The section's 經 part and, from 注正義曰 / 注釋曰 on, its 注 part."""
    for i, para in enumerate(shu.paras):
        m = bare_quotes.ZHU_PART.search(para.text)
        if m is None:
            continue
        head, tail = shu.paras[:i], shu.paras[i + 1:]
        if m.start():
            head = head + [Para(para.text[:m.start()], para.pos)]
        zhu = Para(para.text[m.start():], shift(para.pos, m.start()))
        if not head:
            return [(shu, ZHU)]
        jing_part = Shu(None, head, shu.pos, mark=shu.mark, resp=shu.resp)
        zhu_part = Shu(None, [zhu] + tail, zhu.pos, resp=shu.resp)
        return [(jing_part, JING), (zhu_part, ZHU)]
    return [(shu, JING)]


def _anchor_part(shu: Shu, layer: str, stream, report: Report) -> None:
    """One part of a 疏 section, anchored by the first of: its quotes of its own layer, the
    words of it it repeats, its quotes of the other layer (the 經 part quoting the 注, the 注
    part the 經), its two-character quotes where its phrasing marks them (own layer first),
    the other layer's words, its X者 quotes with a variant character."""
    texts = [p.text for p in shu.paras]
    st = stream(layer)
    if st.chars:
        index = bare_quotes.TextIndex(st.chars)
        found = bare_quotes.find(texts, index, (layer,), disjoint=True)
        if found:
            _point(shu, found, st, report, f"{'云X者' if layer == ZHU else 'X者'} quote", CONF_QUOTE)
            return
        if _by_words(shu, layer, st, index, report):
            return
    other = ZHU if layer == JING else JING
    ot = stream(other)
    other_index = bare_quotes.TextIndex(ot.chars) if ot.chars else None
    if other_index is not None:
        found = bare_quotes.find(texts, other_index, (other,), disjoint=True, across=True)
        if found:
            _point(shu, found, ot, report, "X者 quote", CONF_ACROSS, f" of the {LAYER_NAME[other]}")
            return
    for lay, s in ((layer, st), (other, ot)):
        found = bare_quotes.find_short(texts, s.chars, lay)
        if found:
            _point(shu, found, s, report, "two-character quote", CONF_SHORT,
                   "" if lay == layer else f" of the {LAYER_NAME[lay]}")
            return
    if other_index is not None and _by_words(shu, other, ot, other_index, report, MIN_WORDS_ACROSS, _NAMED):
        return
    for lay, s in ((layer, st), (other, ot)):
        found = bare_quotes.find_variant(texts, s.chars, lay)
        if found:
            _point(shu, found, s, report, "X者 quote", CONF_VARIANT,
                   " with a differing character" + ("" if lay == layer else f", of the {LAYER_NAME[lay]}"))
            return


def _point(shu: Shu, found: list, st: Stream, report: Report, what: str, conf: float,
           where: str = "") -> None:
    """The part points from its first quote to its last, and each quote is a sub-lemma on
    exactly the characters it quotes."""
    first, last = found[0], found[-1]
    span = span_at(st, first.start, last.stop - 1)
    shu.target, shu.target_end = span.start, span.end
    report.boundary("shu-target", "quote", conf, shu.pos,
                    f"{len(found)} {what}" + ("s" if len(found) > 1 else "") + where)
    by_para: dict[int, list[tuple[SubQuote, Span]]] = {}
    for f in found:
        spans = [(f.at, f.inner[0]), (f.inner[1], f.end)] if f.inner else [(f.at, f.end)]
        text = shu.paras[f.para].text
        sq = SubQuote(f.at, spans, [text[a:b] for a, b in spans])
        by_para.setdefault(f.para, []).append((sq, span_at(st, f.start, f.stop - 1)))
    paras: list[Para] = []
    for i, para in enumerate(shu.paras):
        paras += split_at(para, by_para[i]) if i in by_para else [para]
    shu.paras = paras


CONF_QUOTE = 0.9        # the 疏 quotes the clause; a quote of three characters may be chance
CONF_WORDS = 0.6        # the 疏 uses the text's words, unmarked: they are what it explains
CONF_ACROSS = 0.8       # the 經 part quoting the 注 (or the 注 part the 經): it explains that
CONF_SHORT = 0.7        # two characters, in a quote's frame (云XX者): a word of the text
CONF_VARIANT = 0.6      # X者 with one character of X differing: a variant, or a paraphrase
# The fewest characters of the text a 疏 with no `X者` must repeat to be anchored by them: the
# 疏 of a short passage says its words (釋曰衽於奥主於婦席…, 言彌略者), often only a word or two
# of it (卿大夫, 不言一); the shortest a quote may be (bare_quotes.MIN_QUOTE), looked for only in
# the text of the group the 疏 follows. Four would leave a quarter more of the 儀禮 疏 to position.
MIN_WORDS = bare_quotes.MIN_QUOTE
# The other layer's words (the 經 part saying the 注's): five characters, or three after the
# name of whose words they are (鄭云, 注云, 經云): four and three unnamed are often words both
# layers use (天子之臣), or a third text both quote (其職云掌盜賊之…).
MIN_WORDS_ACROSS = 5
_NAMED = re.compile("[鄭注經]云")


def _by_words(shu: Shu, layer: str, st: Stream, index, report: Report, least: int = MIN_WORDS,
              named: re.Pattern | None = None) -> bool:
    """A part with no `X者` quote, anchored by the longest run of its text that `layer` of the
    group holds (the 疏 saying the words of what it explains), `least` characters or more, or
    MIN_WORDS where `named` says whose words they are (鄭云X); the boundary's note quotes them.
    With none long enough, the part keeps no target."""
    best = None
    for para in shu.paras:
        hit = index.longest_common(para.text)
        if hit is not None and hit[2] >= least and (best is None or hit[2] > best[2]):
            best = hit
        for m in named.finditer(para.text) if named is not None else ():
            at = index.longest_at(para.text, m.end())
            if at is not None and at[1] >= MIN_WORDS and (best is None or at[1] > best[2]):
                best = (m.end(), *at)
    if best is None or best[2] < MIN_WORDS:
        return False
    _, at, n = best
    span = span_at(st, at, at + n - 1)
    shu.target, shu.target_end = span.start, span.end
    report.boundary("shu-target", "quote", CONF_WORDS, shu.pos,
                    f"the {LAYER_NAME[layer]}'s words, unmarked: “{st.chars[at:at + n]}”")
    return True
