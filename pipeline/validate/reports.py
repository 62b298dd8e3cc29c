"""Validation reports in the forms CI systems show best: text, json, github, junit.

All four are built from the same list of issues (validate.iter_issues), in file order.
"""
from __future__ import annotations

import json
from collections import defaultdict
from xml.sax.saxutils import escape, quoteattr

from pipeline.issues import Issue

FORMATS = ("text", "json", "github", "junit")


def summary(files: list[str], issues: list[Issue]) -> str:
    errors = sum(i.level in ("error", "fatal") for i in issues)
    warnings = sum(i.level == "warning" for i in issues)
    bad = len({i.file for i in issues if i.level in ("error", "fatal")})
    return (f"{_n(len(files), 'file')} checked, {len(files) - bad} valid, {bad} invalid; "
            f"{_n(errors, 'error')}, {_n(warnings, 'warning')}")


def _n(k: int, noun: str) -> str:
    return f"{k} {noun}" + ("" if k == 1 else "s")


def render(fmt: str, files: list[str], issues: list[Issue]) -> str:
    return {"text": _text, "json": _json, "github": _github, "junit": _junit}[fmt](files, issues)


def _text(files, issues) -> str:
    lines = [str(i) for i in issues]
    lines.append(summary(files, issues))
    return "\n".join(lines) + "\n"


def _json(files, issues) -> str:
    by_file = defaultdict(list)
    for i in issues:
        by_file[i.file].append({"line": i.line, "col": i.col, "level": i.level, "rule": i.rule,
                                "message": i.message})
    data = {"files": [{"file": f, "valid": not any(x["level"] in ("error", "fatal") for x in by_file[f]),
                       "issues": by_file[f]} for f in files],
            "summary": summary(files, issues)}
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _gh_escape(s: str, prop: bool = False) -> str:
    """GitHub workflow-command escaping (data, or a property value)."""
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return s.replace(":", "%3A").replace(",", "%2C") if prop else s


def _github(files, issues) -> str:
    out = []
    for i in issues:
        kind = "warning" if i.level == "warning" else "error"
        props = f"file={_gh_escape(i.file, True)}"
        if i.line:
            props += f",line={i.line},col={i.col or 1}"
        props += f",title={_gh_escape(i.rule, True)}"
        out.append(f"::{kind} {props}::{_gh_escape(i.message)}")
    out.append(summary(files, issues))
    return "\n".join(out) + "\n"


def _junit(files, issues) -> str:
    """One testcase per file; a file with errors fails, with each error in the failure text."""
    by_file = defaultdict(list)
    for i in issues:
        by_file[i.file].append(i)
    failed = sum(1 for f in files if any(i.level in ("error", "fatal") for i in by_file[f]))
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name="zhushu validate" tests="{len(files)}" failures="{failed}">',
           f'<testsuite name="zhushu validate" tests="{len(files)}" failures="{failed}">']
    for f in files:
        mine = by_file[f]
        out.append(f"<testcase classname=\"zhushu.validate\" name={quoteattr(f)}>")
        errors = [i for i in mine if i.level in ("error", "fatal")]
        if errors:
            first = errors[0]
            out.append(f"<failure message={quoteattr(f'{first.rule}: {first.message}')} "
                       f"type={quoteattr(first.rule)}>{escape(chr(10).join(str(i) for i in errors))}</failure>")
        warnings = [i for i in mine if i.level == "warning"]
        if warnings:
            out.append(f"<system-out>{escape(chr(10).join(str(i) for i in warnings))}</system-out>")
        out.append("</testcase>")
    out += ["</testsuite>", "</testsuites>"]
    return "\n".join(out) + "\n"
