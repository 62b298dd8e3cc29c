"""Whole works: a Kanripo repository checkout given to `zhushu convert` as a directory (its
Readme.org and its 卷 files) gets, beside the TEI of each 卷, one TEI file for the work — its
title, its editions and its table of contents in the edition's order, each entry linked to the
TEI of its 卷 — which the web edition's index reads for the order and the title of the work.
"""
from __future__ import annotations

import os

from pipeline import files
from pipeline.errors import PipelineError
from pipeline.model import Volume, Work
from pipeline.sources import kanripo


def plan(pairs: list[tuple[str, str | None]]) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(repository directory, work file to write, its (source, output) pairs) for each
    directory of sources that holds a Readme.org and whose outputs go to one directory."""
    by_dir: dict[str, list[tuple[str, str]]] = {}
    for src, out in pairs:
        if out is not None:
            by_dir.setdefault(os.path.dirname(os.path.abspath(src)), []).append((src, out))
    plans = []
    for d, members in sorted(by_dir.items()):
        readme = os.path.join(d, "Readme.org")
        out_dirs = {os.path.dirname(os.path.abspath(o)) for _, o in members}
        if not os.path.exists(readme) or len(out_dirs) != 1:
            continue
        r = kanripo.read_readme(readme)
        wid = _work_id(members, d)
        if r is None or not wid:
            continue
        target = os.path.join(out_dirs.pop(), f"{wid}.xml")
        for src, out in pairs:
            if os.path.abspath(out or "") == os.path.abspath(target):
                raise PipelineError(f"the work's file {target} would also be written for {src}", src,
                                    rule="ZS-IO-003")
        files.refuse_overwriting_inputs([s for s, _ in pairs], target)
        plans.append((d, target, members))
    return plans


def _work_id(members, directory: str) -> str:
    import re
    for src, _ in members:
        m = re.match(r"(KR\d[a-z]\d{4})_\d{3}\.txt$", os.path.basename(src))
        if m:
            return m.group(1)
    return ""


def work(directory: str, target: str, members: list[tuple[str, str]], converted: set[str]) -> Work:
    """The work of a repository: the Readme.org's table of contents, each entry linked to the
    TEI written for its file (`converted`: the sources whose TEI was written); files the
    Readme.org does not list come after, in file order."""
    r = kanripo.read_readme(os.path.join(directory, "Readme.org")) or kanripo.Readme()
    here = os.path.dirname(target)
    outputs = {os.path.basename(s): os.path.relpath(o, here) for s, o in members if s in converted}
    w = Work(os.path.splitext(os.path.basename(target))[0], r.title, list(r.editions),
             source=directory)
    listed = set()
    for file, page, title in r.contents:
        w.volumes.append(Volume(title, file, page, outputs.get(file)))
        listed.add(file)
    for name in sorted(set(outputs) - listed):
        w.volumes.append(Volume(name, name, "", outputs[name]))
    return w
