"""The limits of untrusted XML agree: what one command accepts, every command accepts."""
import pytest

from conftest import ROOT
from pipeline import limits

GOOD = (ROOT / "tei" / "004_788d901eea474415.xml").read_text(encoding="utf-8")
SEG = '<seg xml:id="u1.j1">'
SEG_DEPTH = 7                 # TEI/text/body/div (卷)/div (篇)/ab/seg


def nested(depth: int) -> str:
    """The archival TEI with elements nested `depth` deep in all (hi inside the first 經 seg)."""
    at = GOOD.index(SEG) + len(SEG)
    n = depth - SEG_DEPTH
    return GOOD[:at] + "<hi>" * n + "X" + "</hi>" * n + GOOD[at:]


@pytest.mark.parametrize("depth,ok", [(limits.MAX_DEPTH, True), (limits.MAX_DEPTH + 1, False)])
def test_every_command_takes_the_same_depth(run, tmp_path, depth, ok):
    p = tmp_path / "deep.xml"
    p.write_text(nested(depth), encoding="utf-8")
    code, out, err = run("validate", p)
    assert (code != 2) is ok, out + err          # at the limit: read (and invalid: hi is not ours)
    code, out, err = run("text", p)
    assert (code == 0) is ok, err
    code, out, err = run("render", "html", p, "-o", tmp_path / "site")
    assert (code == 0) is ok, err
    if not ok:
        assert "ZS-XML-004" in err and len(err.strip().splitlines()) == 1


def test_limits_are_lowered_never_raised():
    with pytest.raises(ValueError):
        limits.Limits(max_depth=limits.MAX_DEPTH + 1)
    assert limits.Limits(max_depth=3).max_depth == 3
