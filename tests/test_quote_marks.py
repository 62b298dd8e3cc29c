"""Editions of the same family print quotation marks as 「」『』 (traditional typesetting) as
often as “”‘’: the converters must find the same 出文 lemmas, sub-lemmas and 音義 either way."""
import pytest

from pipeline.textlayers import layer_text

from conftest import CORPUS, convert_checked

NS = {"t": "http://www.tei-c.org/ns/1.0"}
TO_CORNER = str.maketrans("“”‘’", "「」『』")
FROM_CORNER = str.maketrans("「」『』", "“”‘’")


def structure(root) -> dict:
    """What the converter recovered: layers, and each 疏's and sub-lemma's target span."""
    out = {layer: layer_text(root, layer).translate(FROM_CORNER)
           for layer in ("jing", "zhu", "yinyi", "shu")}
    out["targets"] = [(n.get("subtype"), n.get("target"), n.get("targetEnd"))
                      for n in root.iterfind(".//t:note[@type='shu']", NS)]
    return out


@pytest.mark.parametrize("seed", ["000_5a9685f2ae5c6de4", "002_3cfb79cd5f7996b0", "004_788d901eea474415"])
def test_corner_quotes_convert_like_curly_quotes(seed):
    text = (CORPUS / f"{seed}.txt").read_text(encoding="utf-8")
    meta = {"work": "禮記正義" if seed.startswith("000") else "周禮注疏"}
    curly, _ = convert_checked(text, meta)
    corner, report = convert_checked(text.translate(TO_CORNER), meta)
    want, got = structure(curly), structure(corner)
    assert sum(1 for _, t, _ in want["targets"] if t) > 5          # the seed has anchored 疏
    assert got == want
    assert not [w for w in report.warnings if w.rule.startswith("ZS-CONV-LEMMA")]
