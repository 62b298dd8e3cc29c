"""Every reproducer `make fuzz` saved under tests/fuzz-found/ (NAME.bin, the input's bytes, and
NAME.json, how it was made and what failed) is replayed: it must now keep the contract, and one
saved for a conversion error (exit 1, e.g. ZS-CONV-LOSSLESS: a bug the self-check caught) must
convert without one."""
import json
import pathlib

import pytest

from fuzzing.oracle import check_convert, run_cli

FOUND = pathlib.Path(__file__).resolve().parent / "fuzz-found"
CASES = sorted(FOUND.glob("*.json"))


def test_the_reproducers_are_complete():
    for side in CASES:
        meta = json.loads(side.read_text(encoding="utf-8"))
        assert (FOUND / meta["input"]).is_file(), side.name
        assert meta["command"] and meta["failures"], side.name


@pytest.mark.parametrize("side", CASES, ids=[p.stem for p in CASES])
def test_a_saved_reproducer_now_keeps_the_contract(side, tmp_path):
    meta = json.loads(side.read_text(encoding="utf-8"))
    data = (FOUND / meta["input"]).read_bytes()
    v = check_convert(data, str(tmp_path), run=lambda *a, **k: run_cli(*a, **k),
                      intended=meta.get("intended"), options=tuple(meta.get("options", ())))
    assert v.ok, f"{side.name} ({meta.get('steps')}):\n" + "\n".join(str(f) for f in v.failures)
    if meta.get("expect_no_conversion_error"):
        assert v.code != 1, f"{side.name} ({meta.get('steps')}): still a conversion error: {v.first_error}"
