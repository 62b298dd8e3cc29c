"""考證: the 四庫 editors' textual notes that close each 卷 of the 四庫全書 注疏.

    禮記注疏卷一考證                                  the head (and, again, the tail)
    曲禮上曲禮曰注疏是引儀禮正經○(臣召南)按古人…     an entry: the lemma it quotes, ○, the note
    　又…                                             a further note on the same lemma

The lemma is the text before the first ○ (the 經 words, with 注… or 疏… and their words); the
note that follows may quote authorities (劉敞曰 …) and holds the editors' judgments, each
`(臣X)按…` credited to that 臣, up to the next ○ or judgment. Small notes other than a 臣's
name (`(句)`, `(讀)` where a reading breaks, a lacuna) stay small notes.
"""
from __future__ import annotations

import re

from pipeline import persons
from pipeline.model import XIAOZHU, Judgment, KaozhengEntry, Pos, SmallNote
from pipeline.report import Report

# The head of a 考證 (and its tail): 禮記注疏卷一考證, 周禮正義序考證, 儀禮注疏原目考證
HEAD = re.compile(r"^\S{1,16}考[證証蹬]$")
# A 臣's judgment: his name in small characters (○ before it sometimes printed inside), then 按.
JUDGMENT = re.compile(r"\(○?(?P<who>臣[^()○]{1,4})\)(?P<verb>謹按|謹案|按|案)")
_NOTE = re.compile(r"\(([^()]*)\)")


def entry(text: str, pos: Pos, report: Report, declared: dict) -> KaozhengEntry:
    """A 考證 entry (its lines joined) → the lemma, then text, small notes and judgments.
    `declared` gathers the 臣 the registry does not know (id → (surname, given))."""
    cut = text.find("○")
    lemma, rest, at = (text, "", len(text)) if cut == -1 else (text[:cut], text[cut:], cut)
    parts: list = []
    marks = list(JUDGMENT.finditer(rest))
    parts += _parts(rest[:marks[0].start()] if marks else rest, pos, at)
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(rest)
        body = rest[m.end():end]
        stop = body.find("○")                 # a judgment runs to the next remark
        said, after = (body, "") if stop == -1 else (body[:stop], body[stop:])
        who = m.group("who")
        jpos = Pos(pos.line, pos.col + at + m.start())
        parts.append(Judgment(who, m.group("verb"), _parts(said, pos, at + m.end()), jpos,
                              _resp(who, jpos, report, declared)))
        parts += _parts(after, pos, at + m.end() + len(said))
    return KaozhengEntry(lemma, parts, pos)


def _parts(text: str, pos: Pos, offset: int) -> list:
    """Text and the small notes in it (their parentheses are delimiters)."""
    out: list = []
    at = 0
    for m in _NOTE.finditer(text):
        if m.start() > at:
            out.append(text[at:m.start()])
        if m.group(1):
            out.append(SmallNote(XIAOZHU, m.group(1), Pos(pos.line, pos.col + offset + m.start() + 1)))
        at = m.end()
    if at < len(text):
        out.append(text[at:])
    return [p for p in out if p != ""]


def _resp(who: str, pos: Pos, report: Report, declared: dict) -> str:
    """The id of the 臣 who judges: from the registry (臣召南 is 齊召南), else declared from
    the text with the name as printed."""
    pid = persons.alias(who)
    if pid:
        return pid
    pid = f"zs.{who}"
    if pid not in declared:
        declared[pid] = ("", who[1:])
        report.warn("ZS-CONV-SCHOLAR", f"{who} is not in the registry of scholars; declared from "
                    f"the text as {pid}", pos)
    return pid
