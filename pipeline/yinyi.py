"""音義 glosses: split a run of 陸德明's glosses into items and mark their parts.

`○闽，亡巾反，又音文。貉，亡百反。` → two glosses; in each, the glossed character(s) (`term`), 反切
(`fanqie`), 直音 (`zhiyin`) and 如字 (`ruzi`) become tokens, the rest stays plain text.
"""
from __future__ import annotations

import re

from .chars import QUOTE_MARKS
from .model import Token

_FANQIE = r"[^\s，。、；：○（）" + QUOTE_MARKS + "]{2}反"
_ZHIYIN = r"音[^\s，。、；：○（）反" + QUOTE_MARKS + "]"
_RUZI = r"如字"
_PART = re.compile(f"(?P<fanqie>{_FANQIE})|(?P<ruzi>{_RUZI})|(?P<zhiyin>{_ZHIYIN})")
# A gloss whose head is glued to its reading: 腐音辅, 大如字, 覆芳服反.
_GLUED_HEAD = re.compile(f"^(.{{1,3}}?)(?={_RUZI}|{_ZHIYIN}|{_FANQIE})")
_HEAD_SEP = "，,"


# A gloss runs to a 。 that is not inside quotation marks (下文注“道之”、“道宾”同。 is one gloss).
# (Runs of plain characters are taken at once: the same matches as one character at a time.)
_GLOSS = re.compile(r"(?:[^。“‘「『]+|“[^”]*”?|‘[^’]*’?|「[^」]*」?|『[^』]*』?)+。?|。")


# Unpunctuated glosses (四庫): a head of one or two characters, a reading, a closing remark.
_BARE_GLOSS = re.compile(r".{1,2}?(?:音[^音反]|[^音反]{2}反|如字)(?:又[^又音反]{0,2}?(?:音.|..反))?"
                         r"(?:下注同|注下同|下同|注同|篇内同|篇內同|出注)?")


def split_glosses(text: str) -> list[tuple[int, str]]:
    """Split at each 。 outside quotation marks (or, in unpunctuated text, after each reading);
    return (offset, gloss) pairs covering `text`."""
    if "。" not in text and "，" not in text:
        items: list[tuple[int, str]] = []
        pos = 0
        for m in _BARE_GLOSS.finditer(text):
            if m.start() > pos and items:          # stray characters stay with the gloss before
                o, g = items[-1]
                items[-1] = (o, g + text[pos:m.start()])
            elif m.start() > pos:
                items.append((pos, text[pos:m.start()]))
            items.append((m.start(), m.group()))
            pos = m.end()
        if pos < len(text):
            if items:
                o, g = items[-1]
                items[-1] = (o, g + text[pos:])
            else:
                items.append((pos, text[pos:]))
        return items
    return [(m.start(), m.group()) for m in _GLOSS.finditer(text) if m.group().strip()]


_COMMA_HEAD = re.compile(r"^([^，,]{1,6})[，,]")


def head_of(gloss: str) -> str:
    """The glossed character(s), or '' when the gloss names none (e.g. a bare 下同)."""
    m = _COMMA_HEAD.match(gloss)
    if m:
        glued = _GLUED_HEAD.match(m.group(1))       # 大如字，徐音泰: the head is 大
        return glued.group(1) if glued else m.group(1)
    if gloss[:1] in _HEAD_SEP:
        return ""
    m = _GLUED_HEAD.match(gloss)
    return m.group(1) if m else ""


def head_of_tokens(tokens: list[Token]) -> str:
    """head_of(gloss), read off tokenize(gloss): the head is its first token, as a term."""
    return tokens[0].text if tokens and tokens[0].kind == "term" else ""


def tokenize(gloss: str) -> list[Token]:
    """Tokens whose texts concatenate back to `gloss` exactly."""
    tokens: list[Token] = []
    head = head_of(gloss)
    if head:
        tokens.append(Token("term", head))
    rest, pos = gloss[len(head):], 0
    for m in _PART.finditer(rest):
        if m.start() > pos:
            tokens.append(Token("text", rest[pos:m.start()]))
        tokens.append(Token(m.lastgroup, m.group()))
        pos = m.end()
    if pos < len(rest):
        tokens.append(Token("text", rest[pos:]))
    return tokens
