"""Notes in small characters, 〈…〉 (四庫 texts), 【…】 (punctuated ones) or (…) (Kanripo's
files, pipeline/sources/mandoku.py): what each one is.

`〈竟音境下并同〉` is a sound gloss, `〈注今文赴作讣〉` a textual note, `〈贾疏…〉` / `【孔疏：…】` a
quotation of the 疏, `【…。案：…】` adds the compilers' remark. One bracket may hold several
of these in a row (`〈衰七回反注今文赴作讣〉`: a gloss, then a textual note): each becomes its
own SmallNote, in order, so nothing is lost and every part is typed.
"""
from __future__ import annotations

import re

from pipeline import persons
from pipeline.model import (AN, SHU, TEXTUAL, XIAOZHU, YINYI, Pos, SmallNote, Token, Unit,
                            YishuBlock)
from pipeline.readers import yinyi
from pipeline.readers.zhushu.pieces import LUDEMING
from pipeline.readers.yishu.attribution import ATTRIBUTION

NOTE = re.compile(r"〈([^〈〉]*)〉|【([^【】]*)】|\(([^()]*)\)")
_SHU_QUOTE = re.compile(r"^(贾疏|賈疏|賈䟽|孔疏|孔䟽)[：:]?")
_SHU_AUTHOR = {"贾疏": "jiagongyan", "賈疏": "jiagongyan", "賈䟽": "jiagongyan", "孔疏": "kongyingda",
               "孔䟽": "kongyingda"}
_AN = re.compile(r"^(?:案|按)")
_SOURCE = re.compile(r"^(?:釋文|释文)")          # 陸德明's 經典釋文, quoted for its glosses
_PUNCTUATED = re.compile("[，。；：]")       # a note holding any of these is punctuated
_SOUND = re.compile(r"音|反|如字|[平上去入]声|[平上去入]聲|读[为如曰]|讀[為如曰]")
_TEXTUAL = re.compile(r"作|本|石经|石經|监本|監本|释文|釋文|今文|古文|衍|脱|脫|误|誤|疑")
# One unpunctuated sound gloss: a head, a reading, more readings, a closing remark.
_BARE = re.compile(r"[^音反]{1,2}?(?:音[^音反]|[^音反]{2}反|如字)"
                   r"(?:(?:又|亦)?(?:音[^音反]|[^音反]{2}反))*"
                   r"(?:下注同|注下同|下并同|下並同|下同|注同|篇内同|篇內同|出注)?")


def parse(content: str, pos: Pos) -> list[SmallNote]:
    """The typed parts of one bracket's content (the brackets themselves are delimiters)."""
    m = _SOURCE.match(content)
    if m and m.end() < len(content):             # 釋文…: the glosses that follow are its
        notes = parse(content[m.end():], Pos(pos.line, pos.col + m.end()))
        if notes:
            first = notes[0]
            first.text, first.pos = m.group() + first.text, pos
            if first.tokens is not None:
                first.tokens.insert(0, Token("text", m.group()))
            return notes
    m = _SHU_QUOTE.match(content)
    if m:
        return [SmallNote(SHU, content, pos, resp=_SHU_AUTHOR[m.group(1)])]
    m = ATTRIBUTION.match(content)
    if m:
        resp = persons.alias(m.group("alias")) if m.group("alias") else \
            persons.lookup(m.group("sur"), m.group("given"))
        return [SmallNote(XIAOZHU, content, pos, resp=resp)]
    if _AN.match(content):
        return [SmallNote(AN, content, pos)]
    punctuated = _PUNCTUATED.search(content) is not None
    parts = _punctuated(content) if punctuated else _bare(content)
    out: list[SmallNote] = []
    for off, text, kind in parts:
        if out and out[-1].kind == kind and kind != YINYI:
            out[-1].text += text
            continue
        note = SmallNote(kind, text, Pos(pos.line, pos.col + off))
        if kind == YINYI:                        # 陸德明's, as the 義疏 prints them from 釋文
            note.tokens, note.resp = yinyi.tokenize(text), LUDEMING
        out.append(note)
    return out


def follow(parts: list, original) -> None:
    """A translation's small notes translate its original's, one for one: each is typed (and
    credited) as the original's it stands for, since its modern words (“朝”读作“潮”, 孔颖达疏：)
    do not say it as the original's do (朝音潮, 孔疏：). Left as read when the counts differ."""
    mine = [p for p in parts if isinstance(p, SmallNote)]
    theirs = [p for p in _parts_of(original) if isinstance(p, SmallNote)]
    if not mine or len(mine) != len(theirs):
        return
    for m, t in zip(mine, theirs):
        if m.kind != t.kind:
            m.kind = t.kind
            m.tokens = yinyi.tokenize(m.text) if t.kind == YINYI else None
        m.resp = t.resp


def _parts_of(block) -> list:
    """The parts of an original a translation can stand for: a 經 unit's pieces, a 義疏
    block's quotations' parts; nothing for furniture."""
    if isinstance(block, Unit):
        return block.pieces
    if isinstance(block, YishuBlock):
        return [p for q in block.quotes for p in q.parts]
    return []


def _kind(text: str) -> str:
    if _AN.match(text):
        return AN
    if _SOUND.search(text):
        return YINYI
    if _TEXTUAL.search(text):
        return TEXTUAL
    return XIAOZHU


def _punctuated(content: str) -> list[tuple[int, str, str]]:
    return [(off, g, _kind(g)) for off, g in yinyi.split_glosses(content)]


def _bare(content: str) -> list[tuple[int, str, str]]:
    """Unpunctuated: sound glosses where a reading shows, the stretches between them typed on
    their own (a textual note, usually)."""
    out, at = [], 0
    for m in _BARE.finditer(content):
        if m.start() > at:
            rest = content[at:m.start()]
            out.append((at, rest, _kind(rest) if _kind(rest) != YINYI else TEXTUAL))
        out.append((m.start(), m.group(), YINYI))
        at = m.end()
    if at < len(content):
        rest = content[at:]
        out.append((at, rest, _kind(rest) if not _SOUND.search(rest) else YINYI))
    return out


def split(text: str, pos: Pos) -> list[tuple[int, object]]:
    """A run of text as (offset, part) pairs: plain strings and SmallNotes, brackets dropped."""
    if not _has_note(text):                      # most runs: no note at all
        return [(0, text)] if text else []
    parts: list[tuple[int, object]] = []
    at = 0
    for m in NOTE.finditer(text):
        if m.start() > at:
            parts.append((at, text[at:m.start()]))
        content = next(g for g in m.groups() if g is not None)
        if content:
            parts += [(m.start() + 1, n) for n in parse(content, Pos(pos.line, pos.col + m.start() + 1))]
        at = m.end()
    if at < len(text):
        parts.append((at, text[at:]))
    return parts


def mask(text: str) -> str:
    """The text with every small note blanked out (same length), for finding structure in the
    main text only."""
    if not _has_note(text):                      # most lines: no note, nothing to blank
        return text
    return NOTE.sub(_blank, text)


def _has_note(text: str) -> bool:
    return "〈" in text or "【" in text or "(" in text


def _blank(m: re.Match) -> str:
    return "\u3000" * (m.end() - m.start())
