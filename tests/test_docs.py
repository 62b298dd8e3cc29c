"""The docs say what the code does: the CLI reference is current, every rule is documented."""
import os
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))


def test_cli_reference_is_current():
    import cli_docs
    assert (ROOT / "docs" / "cli.md").read_text(encoding="utf-8") == cli_docs.render(), \
        "docs/cli.md is stale: run `make docs`"


def test_every_rule_is_documented():
    from pipeline import errors
    from pipeline.validate import rules
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in [*rules.RULES, *errors.RULES]:
        assert f"| {rule} |" in doc, rule


def test_every_report_code_is_documented():
    import re
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    codes = set()
    for d, _, fs in os.walk(ROOT / "pipeline"):
        for f in fs:
            if f.endswith(".py"):
                codes |= set(re.findall(r'"(ZS-[A-Z]+-[A-Z0-9-]+)"', open(os.path.join(d, f), encoding="utf-8").read()))
    for code in sorted(codes):
        assert f"| {code} |" in doc, code
