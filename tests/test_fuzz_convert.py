"""Property-based tests of `zhushu convert` on damaged corpus text (tests/fuzzing/mutations.py):
for every input no traceback, an exit code in {0, 1, 2}, messages in the one-line form, no output
when the conversion fails, and after exit 0 an output that is lossless, deterministic and valid
(tests/fuzzing/oracle.py). A bounded, derandomized sample runs in `make test`; `make fuzz N=…`
runs the long campaign (scripts/fuzz.py), which saves what fails under tests/fuzz-found/."""
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT
from fuzzing import mutations
from fuzzing.oracle import check_convert, run_cli

CORPUS = mutations.load_corpus()
EXAMPLES = int(os.environ.get("ZHUSHU_FUZZ_EXAMPLES", "150"))


def run(*args, timeout=10.0, **kw):
    return run_cli(*args, timeout=timeout, **kw)


def explain(label, verdict):
    return f"input: {label}\n" + "\n".join(str(f) for f in verdict.failures)


@settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(st.randoms(use_true_random=False))
def test_convert_keeps_the_contract_on_damaged_corpus_text(tmp_path_factory, rng):
    inp = mutations.make_input(rng, CORPUS)
    v = check_convert(inp.data, str(tmp_path_factory.mktemp("fuzz")), run=run, intended=inp.intended,
                      options=inp.options)
    assert v.ok, explain(inp.label, v)


@pytest.mark.parametrize("encoding", sorted(mutations.ENCODINGS))
def test_a_corpus_text_in_each_encoding(encoding, tmp_path):
    import random
    text = (ROOT / "corpus" / "002_3cfb79cd5f7996b0.txt").read_text(encoding="utf-8")
    data, intended = mutations.encode(random.Random(0), text, encoding)
    v = check_convert(data, str(tmp_path), run=run, intended=intended)
    assert v.ok, explain(encoding, v)


@pytest.mark.parametrize("ends", ["\r\n", "\r"])
def test_a_corpus_text_with_cr_line_ends(ends, tmp_path):
    text = (ROOT / "corpus" / "004_788d901eea474415.txt").read_text(encoding="utf-8")
    v = check_convert(text.replace("\n", ends).encode("utf-8"), str(tmp_path), run=run, intended=text)
    assert v.ok, explain(repr(ends), v)
