"""Resolving a 疏's 出文 lemma and its sub-lemmas: the span of 經 or 注 each one names.

A 出文 (`“大凡”至“變也”`, `注“等九儀之差數”`) names the passage its 疏 section explains, a sub-lemma
(`○“X”者`, `云“X”者`) a narrower one inside it; both are looked for in the group's streams
(anchoring.py) in order, exact first, then with one differing character, then loosely.
"""
from __future__ import annotations

import re

from pipeline.chars import Q_CLOSE, Q_OPEN, QUOTE_MARKS
from pipeline.matching import find_all, loose_quote, squeeze
from pipeline.model import JING, ZHU, Para, Shu, Unit
from pipeline.readers.zhushu.anchoring import (LAYER_NAME, Span, Stream, SubQuote, locate,
                                               locate_loose, shift, split_at)
from pipeline.readers.zhushu.quote_anchoring import by_quotes
from pipeline.readers.zhushu.shu import SubQuotes
from pipeline.report import Report


# How sure a 疏's target is, by how it was found: its 出文 quoted exactly; with a character
# differing (a variant, a misprint: 令令野庐氏); with no 出文 printed, by position (the 四庫's 疏
# follows what it explains, but may explain only part of it).
CONF_LEMMA, CONF_LEMMA_VARIANT, CONF_POSITION = 1.0, 0.8, 0.5


def resolve_group(units: list[Unit], shus: list[Shu], report: Report, lemmas: bool = True,
                  bare: bool = False) -> None:
    """Point each 疏 of a group at the span its 出文 names in the group's units.

    Lemmas are taken in order: each one's start lies after the previous start of the same layer,
    and a 經 lemma reaches as far as it can before the next 經 lemma begins. `bare`: the 疏 are
    unpunctuated (the 四庫's); one with no 出文 is anchored by its `X者` quotes (by_quotes).
    """
    pieces = [p for u in units for p in u.pieces]
    streams: dict[str, Stream] = {}

    def stream(layer: str) -> Stream:
        if layer not in streams:
            streams[layer] = Stream.of([p for p in pieces if p.layer == layer])
        return streams[layer]

    with_lemma = [s for s in shus if s.chuwen]
    _resolve_lemmas(with_lemma, stream, report)
    for shu in with_lemma:
        _sublemmas(shu, stream, report)
    if bare and pieces:
        shus[:] = by_quotes(shus, stream, report)
    _by_position(shus, [p for p in pieces if p.layer == JING], lemmas, bare, report)


def _resolve_lemmas(with_lemma: list[Shu], stream, report: Report) -> None:
    """Each 出文 looked for in its own layer, then the other: exact in either, then with one
    differing character; a lemma ends before the next lemma of its layer begins."""
    lo = {JING: 0, ZHU: 0}
    squeezed_quotes = [[squeeze(q) for q in s.chuwen.quotes] for s in with_lemma]
    for i, shu in enumerate(with_lemma):
        cw, qs = shu.chuwen, squeezed_quotes[i]
        span = None
        for layer, fuzzy in _PASSES[cw.layer]:
            st = stream(layer)
            reach = "far" if layer == JING else "near"
            span = locate(st, qs, lo[layer], reach=reach, fuzzy=fuzzy)
            if span is None:
                continue
            later = range(i + 1, len(with_lemma))
            nxt = next((k for k in later if with_lemma[k].chuwen.layer == layer), None)
            if nxt is not None:
                nstarts = [s for s, _ in find_all(st.chars, squeezed_quotes[nxt][0], span.first + 1)]
                if nstarts and nstarts[0] <= span.last:
                    bounded = locate(st, qs, lo[layer], nstarts[0], reach=reach, fuzzy=fuzzy)
                    span = bounded or span
            lo[layer] = span.first + 1
            if layer != cw.layer:
                report.warn("ZS-CONV-LEMMA-LAYER",
                            f"出文 {_show(cw)} names the {LAYER_NAME[cw.layer]} but matches the "
                            f"{LAYER_NAME[layer]}", cw.pos)
            break
        if span is None:
            report.warn("ZS-CONV-LEMMA", f"出文 {_show(cw)} not found in the preceding 經 or 注; "
                        "the 疏 is kept without a target", cw.pos)
            continue
        shu.target, shu.target_end = span.start, span.end
        conf = CONF_LEMMA if span.mismatches == 0 else CONF_LEMMA_VARIANT
        report.boundary("shu-target", "lemma", conf, cw.pos,
                        f"{_show(cw)}" + (f" ({span.mismatches} differing)" if span.mismatches else ""))


def _by_position(shus: list[Shu], jing: list, lemmas: bool, bare: bool, report: Report) -> None:
    """A 疏 still without a target points at the group's 經, which it follows."""
    for shu in shus:
        if shu.chuwen is None and not shu.detached and shu.target is None and jing:
            shu.target, shu.target_end = jing[0], (jing[-1] if len(jing) > 1 else None)
            if lemmas:
                report.warn("ZS-CONV-NOLEMMA", "疏 without a 出文 lemma; attached to the preceding 經",
                            shu.pos)
            else:       # an edition that prints none (the 四庫's): the 疏 follows what it explains
                report.boundary("shu-target", "position", CONF_POSITION, shu.pos,
                                "no 出文 printed" + (", no quote found" if bare else ""))


# A sub-lemma opens a paragraph (“X”者) or follows 云 (云“X”者, 云“X”至“Y”); 「」 quote as “” do.
_SUB = SubQuotes(Q_OPEN + r"(?P<q1>[^" + QUOTE_MARKS + r"]{1,80})" + Q_CLOSE +
                 r"(?:至" + Q_OPEN + r"(?P<q2>[^" + QUOTE_MARKS + r"]{1,80})" + Q_CLOSE + r")?(?P<zhe>者)?")


def sub_quotes(para: Para) -> list[SubQuote]:
    """The paragraph's quotes that have a 者 or a second quote (others quote some other text):
    the segmenter takes 經 and 注 phrases from them, the resolver points them."""
    return [_sub_quote(m) for m in _SUB.finditer(para.text) if m.group("zhe") or m.group("q2")]


def _sub_quote(m: re.Match) -> SubQuote:
    q1, q2 = m.group("q1", "q2")
    if q2:
        return SubQuote(m.start(), [m.span("q1"), m.span("q2")], [squeeze(q1), squeeze(q2)])
    return SubQuote(m.start(), [m.span("q1")], [squeeze(q1)])


# The searches a lemma or a sub-lemma goes through, in order, for each layer of its section
# first: exact in either layer, then with one differing character.
_PASSES = {layer: ((layer, False), (other, False), (layer, True), (other, True))
               for layer, other in ((JING, ZHU), (ZHU, JING))}


def _sublemmas(shu: Shu, stream, report: Report) -> None:
    """Split a 疏 section's paragraphs at each sub-lemma that names a span of its group, and
    point each at that span. Sub-lemmas are taken in order, like the lemmas."""
    passes = _PASSES[shu.chuwen.layer]
    lo = {JING: 0, ZHU: 0}
    paras: list[Para] = []
    for para in shu.paras:
        cuts: list[tuple[SubQuote, Span]] = []
        quotes = sub_quotes(para)
        for sq in quotes:
            span = _sub_span(para, sq, passes, lo, stream)
            if span is not None:
                cuts.append((sq, span))
            elif sq.at == 0:                    # ○“X”者 opening a sub-section: surely a lemma
                report.warn("ZS-CONV-SUBLEMMA", f"sub-lemma “{'”至“'.join(sq.text(para))}” not found in "
                            "the 經 or 注 of its group; left as text", shift(para.pos, sq.at))
        if cuts:
            paras += split_at(para, cuts)
        else:
            paras.append(para)
    shu.paras = paras


def _sub_span(para: Para, sq: SubQuote, passes, lo: dict[str, int], stream) -> Span | None:
    """The span a sub-lemma names, searched from the previous sub-lemma of each layer on (exact,
    then one differing character, then loosely), moving that layer's start past it."""
    qs = sq.squeezed
    for lay, fuzzy in passes:
        span = locate(stream(lay), qs, lo[lay], None, "near", fuzzy)
        if span is not None:
            lo[lay] = span.first + 1
            return span
    if len(qs) > 1:
        return None
    a, b = sq.spans[0]
    q = loose_quote(para.text[a:b])
    for lay, _ in passes[:2]:
        span = locate_loose(stream(lay), q, lo[lay])
        if span is not None:
            lo[lay] = span.first + 1
            return span
    return None


def _show(cw) -> str:
    return "".join(t.text for t in cw.tokens)
