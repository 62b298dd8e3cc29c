"""音義 glosses: split a run of 陸德明's glosses into items and mark their parts.

`○闽，亡巾反，又音文。貉，亡百反。` → two glosses; in each, the glossed character(s) (`term`), 反切
(`fanqie`), 直音 (`zhiyin`) and 如字 (`ruzi`) become tokens, the rest stays plain text.
"""
from __future__ import annotations

import re

from pipeline.chars import QUOTE_MARKS
from pipeline.model import Token

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


# Unpunctuated glosses read beside the text they gloss (Kanripo's editions print the 音義 in the
# 注's note, after ○): every reading — 反切, 音X, 如字 — opens a gloss of the head printed just
# before it, unless the words before it make it another reading of the head before (又, 一音, a
# scholar's 徐 or 王肅: _ALSO) or the reading of a variant a remark names (本亦作難乃旦反). The
# head is the longest run of up to four characters before the reading that the glossed text
# holds (else one character); what lies between a gloss's readings and the next head (下同,
# 注同, 本亦作X, a gloss of sense) stays with the gloss before. 音同, 音之 … are remarks.
_READING = re.compile(r"[^反音]{2}反|音(?![^反音]{2}反)[^音反同之也者]|如字")
_ALSO = ("又", "一", "並", "竝", "皆", "或", "舊", "徐", "劉", "沈", "皇", "戚", "盧", "呂", "崔", "字林",
         "王肅", "盧植", "馬融", "皇侃", "孫炎", "郭璞", "李巡", "鄭玄", "賀瑒")
# Said of the head before them, before its reading: 恂依注音峻, 斉衰上音咨.
_BEFORE_READING = ("依注", "上")
# A variant of the head before its reading: 奉本亦作捧同芳勇反 (the head is 奉, not 同).
_VARIANT_SAME = re.compile(r"(?:本[亦又或]?|[亦或又]|字[亦又]?)作.{1,2}同$")
_VARIANT = re.compile(r"作.{1,2}$")
_MAX_HEAD = 4


def split_beside(text: str, held) -> list[tuple[int, str, str]]:
    """(offset, gloss, head) covering `text`, an unpunctuated run of glosses; `held(s)` says
    whether the 經 or 注 glossed holds `s`. A gloss with no head (a remark before the first
    reading's head) has head ''."""
    starts: list[tuple[int, int]] = []           # (offset, head length) of each gloss
    upper = False                                 # the open gloss reads its 上 character: 下 follows
    end = 0
    for m in _READING.finditer(text):
        q, mid, end = m.start(), text[end:m.start()], m.end()
        if mid.endswith("音") and m.group().endswith("反"):
            q, mid = q - 1, mid[:-1]              # 音 + 反切 (鏜音吐郎反): one reading
        if not starts:
            head = _held_prefix(mid, held)
            h = None if mid.endswith(_ALSO) else _head_before(mid, held)
            if h and held(h[1]) and h[2] - len(h[1]) >= len(head) + 2:
                # a gloss of sense, or a remark, before the first reading's own head
                starts.append((0, len(head)))
                starts.append((h[2] - len(h[1]), len(h[1])))
                upper = h[0]
            else:
                head = head or (mid if len(mid) <= 2 else mid[:1])
                starts.append((0, len(head)))
                upper = mid.endswith("上") and len(mid) > len(head)
            continue
        if not mid or mid.endswith(_ALSO) or (mid.endswith("下") and (upper or starts[-1][1] > 1)):
            continue                      # 上X反下Y反: the two characters of a head of two
        h = _head_before(mid, held, text.startswith("下", end))
        if h is None:
            continue
        upper = h[0] or mid.endswith("上")
        starts.append((q - len(mid) + h[2] - len(h[1]), len(h[1])))
    if not starts:                        # a gloss of sense or of the text: 近附近之近, 童本或作僮
        return [(0, text, _held_prefix(text, held))] if text else []
    out = []
    for k, (a, hl) in enumerate(starts):
        b = starts[k + 1][0] if k + 1 < len(starts) else len(text)
        if b > a:
            out.append((a, text[a:b], text[a:a + hl]))
    return out


def _head_before(mid: str, held, lower_next: bool = False) -> tuple[bool, str, int] | None:
    """(is followed by 上, the head, where it ends in `mid`) of the reading after `mid`, or
    None when the reading is a named variant's (本亦作難乃旦反). `lower_next`: 下 follows the
    reading, so a 上 before it reads the first of two characters (匍匐上音蒲下音蒲北反)."""
    stem = mid
    v = _VARIANT_SAME.search(stem)
    if v and v.start() > 0:
        stem = stem[:v.start()]
    for word in _BEFORE_READING:
        if stem.endswith(word) and len(stem) > len(word):
            h = _held_suffix(stem[:-len(word)], held)
            if not h and word == "上" and lower_next:
                h = stem[-3:-1]
            if h:
                return word == "上", h, len(stem) - len(word)
    h = _held_suffix(stem, held)
    if h:
        return False, h, len(stem)
    if _VARIANT.search(stem):
        return None
    return False, stem[-1:], len(stem)


def _held_prefix(s: str, held) -> str:
    for n in range(min(_MAX_HEAD, len(s)), 0, -1):
        if held(s[:n]):
            return s[:n]
    return ""


def _held_suffix(s: str, held) -> str:
    """The longest end of `s` the glossed text holds; a head never starts right after 作 (the
    variant a remark names is not glossed)."""
    for n in range(min(_MAX_HEAD, len(s)), 0, -1):
        if held(s[-n:]) and not s[:-n].endswith("作"):
            return s[-n:]
    return ""


def head_of_tokens(tokens: list[Token]) -> str:
    """head_of(gloss), read off tokenize(gloss): the head is its first token, as a term."""
    return tokens[0].text if tokens and tokens[0].kind == "term" else ""


def tokenize(gloss: str, head: str | None = None) -> list[Token]:
    """Tokens whose texts concatenate back to `gloss` exactly; `head`, when known (split_beside),
    is the gloss's head, else it is read off the gloss."""
    tokens: list[Token] = []
    if head is None or not gloss.startswith(head):
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
