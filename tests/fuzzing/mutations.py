"""Damaged sources for `zhushu convert`, made from the bundled corpus (corpus/*.txt).

`make_input(rng, corpus)` takes a random.Random — a seeded one in scripts/fuzz.py, hypothesis's
`st.randoms()` in the tests, which then shrinks a failing input step by step — and returns an
Input: a window of a corpus text, a few text mutations (delimiters inserted and deleted, lines
cut, duplicated and shuffled, CJK of every block, private use of every plane, combining marks,
control characters, NUL, BOMs, U+FFFD, XML-special characters, very long lines), line ends, an
encoding (UTF-8 with or without BOM, UTF-16, UTF-32, GB18030, Big5) and now and then damaged
bytes. Each step is named in `Input.steps`, so a reproducer says how it was made.
"""
from __future__ import annotations

import pathlib
import random
from dataclasses import dataclass, field

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS_DIR = ROOT / "corpus"

DELIMITERS = "（）()［］[]【】〈〉○"
MARKUP = ["[疏]", "［疏］", "（阙。）", "“", "”", "「", "」", "○", "注", "疏【", "音义【", "〈", "〉", "右", "卷",
          "释曰：", "正义曰：", "案", "译", "正义", "存疑", "郑氏康成曰", "钦定四库全书", "卷第一", "以下", "至"]
# (first, last) code points of the blocks characters are drawn from
CJK_BLOCKS = [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B739), (0x2B740, 0x2B81D),
              (0x2B820, 0x2CEA1), (0x2CEB0, 0x2EBE0), (0x2EBF0, 0x2EE5D), (0x30000, 0x3134A),
              (0x31350, 0x323AF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1D), (0x2E80, 0x2FDF), (0x3000, 0x303F),
              (0xFF00, 0xFFEF)]
PUA_BLOCKS = [(0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD)]
COMBINING = [(0x0300, 0x036F), (0x1AB0, 0x1AFF), (0x20D0, 0x20FF), (0x302A, 0x302F), (0x3099, 0x309A),
             (0xFE00, 0xFE0F), (0xE0100, 0xE01EF), (0xFE20, 0xFE2F)]
CONTROLS = [chr(c) for c in range(0x20) if c not in (9, 10, 13)] + ["\x7f", "\x85", "\x9f", "\ufffe", "\uffff",
                                                                     "\U0001fffe", "\ufdd0"]
ODD = ["\ufeff", "\ufffd", "\u200b", "\u200d", "\u2028", "\u2029", "\u00a0", "\u3000", "\t", "\u0378",
       "\U000e0001", "\U0001f600", "&", "<", ">", "]]>", "&amp;", "<!--", "-->", "<?x?>", '"', "'", "&#0;",
       "<!DOCTYPE x>", "\\", "\U0002ffff"]

FORMATS = ("paren", "runon", "siku", "yishu")
WORKS = ("周禮注疏", "禮記正義", "儀禮注疏", "欽定周官義疏", "某書")

# name → (Python codec, BOM, whether decoding can only give back the text it encodes)
ENCODINGS = {
    "utf-8": ("utf-8", b"", True), "utf-8-bom": ("utf-8", b"\xef\xbb\xbf", True),
    "utf-16le-bom": ("utf-16-le", b"\xff\xfe", True), "utf-16be-bom": ("utf-16-be", b"\xfe\xff", True),
    "utf-16le": ("utf-16-le", b"", True), "utf-32le-bom": ("utf-32-le", b"\xff\xfe\x00\x00", True),
    "utf-32be-bom": ("utf-32-be", b"\x00\x00\xfe\xff", True), "gb18030": ("gb18030", b"", True),
    "big5": ("big5", b"", False),
}
ENCODING_WEIGHTS = {"utf-8": 12, "utf-8-bom": 2, "utf-16le-bom": 2, "utf-16be-bom": 1, "utf-16le": 1,
                    "utf-32le-bom": 1, "utf-32be-bom": 1, "gb18030": 3, "big5": 2}


@dataclass
class Input:
    data: bytes
    intended: str | None          # the text the bytes encode, when decoding cannot be in doubt
    steps: list[str] = field(default_factory=list)
    options: tuple[str, ...] = ()  # convert's options: now and then a forced --format, a --work

    @property
    def label(self) -> str:
        return " · ".join(self.steps)


def load_corpus(directory=CORPUS_DIR) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(pathlib.Path(directory).glob("*.txt"))}


def _char(rng: random.Random, blocks) -> str:
    lo, hi = rng.choice(blocks)
    return chr(rng.randint(lo, hi))


def _insert(rng, text: str, pieces: list[str]) -> str:
    chars = list(text)
    for p in pieces:
        chars.insert(rng.randint(0, len(chars)), p)
    return "".join(chars)


def _lines(text):
    return text.split("\n")


def _some(rng, n=8):
    return rng.randint(1, n)


# Each mutation: (rng, text) → text.
def insert_delimiters(rng, t):
    return _insert(rng, t, [rng.choice(DELIMITERS) for _ in range(_some(rng))])


def delete_delimiters(rng, t):
    where = [i for i, c in enumerate(t) if c in DELIMITERS or c in "“”「」"]
    drop = set(rng.sample(where, min(len(where), _some(rng)))) if where else set()
    return "".join(c for i, c in enumerate(t) if i not in drop)


def insert_markup(rng, t):
    return _insert(rng, t, [rng.choice(MARKUP) for _ in range(_some(rng, 4))])


def cut_line(rng, t):
    ls = _lines(t)
    i = rng.randrange(len(ls))
    at = rng.randint(0, len(ls[i]))
    if rng.random() < 0.5:
        ls[i] = ls[i][:at]                                # cut short
    else:
        ls[i:i + 1] = [ls[i][:at], ls[i][at:]]            # cut in two
    return "\n".join(ls)


def delete_lines(rng, t):
    ls = _lines(t)
    i = rng.randrange(len(ls))
    del ls[i:i + _some(rng, 5)]
    return "\n".join(ls)


def duplicate_lines(rng, t):
    ls = _lines(t)
    i = rng.randrange(len(ls))
    j = i + _some(rng, 5)
    ls[j:j] = ls[i:j] * rng.randint(1, 3)
    return "\n".join(ls)


def shuffle_lines(rng, t):
    ls = _lines(t)
    i = rng.randrange(len(ls))
    j = min(len(ls), i + rng.randint(2, 30))
    part = ls[i:j]
    rng.shuffle(part)
    ls[i:j] = part
    return "\n".join(ls)


def join_lines(rng, t):
    """A very long line: lines run together, or one line many times over."""
    ls = _lines(t)
    i = rng.randrange(len(ls))
    if rng.random() < 0.5:
        ls[i:i + rng.randint(2, 60)] = ["".join(ls[i:i + 60])]
    else:                                  # up to some 200,000 characters
        ls[i] = ls[i] * min(rng.randint(2, 400), max(2, 200_000 // max(1, len(ls[i]))))
    return "\n".join(ls)


def insert_cjk(rng, t):
    return _insert(rng, t, [_char(rng, CJK_BLOCKS) for _ in range(_some(rng, 12))])


def insert_private_use(rng, t):
    return _insert(rng, t, [_char(rng, PUA_BLOCKS) for _ in range(_some(rng, 6))])


def insert_combining(rng, t):
    return _insert(rng, t, [_char(rng, COMBINING) for _ in range(_some(rng, 6))])


def insert_control(rng, t):
    return _insert(rng, t, [rng.choice(CONTROLS) for _ in range(_some(rng, 2))])


def insert_nul(rng, t):
    return _insert(rng, t, ["\x00"])


def insert_odd(rng, t):
    """BOMs inside the text, U+FFFD, zero-width and line-separator characters, unassigned code
    points, emoji, and what XML must escape."""
    return _insert(rng, t, [rng.choice(ODD) for _ in range(_some(rng, 4))])


def insert_placeholders(rng, t):
    return _insert(rng, t, [rng.choice("?┹▯□") for _ in range(_some(rng, 6))])


def blank(rng, t):
    return rng.choice(["", " ", "\n", "\n\n\u3000\n", "\t \n"])


TEXT_MUTATIONS = [insert_delimiters, delete_delimiters, insert_markup, cut_line, delete_lines,
                  duplicate_lines, shuffle_lines, join_lines, insert_cjk, insert_private_use,
                  insert_combining, insert_control, insert_nul, insert_odd, insert_placeholders, blank]
WEIGHTS = [6, 6, 5, 5, 3, 3, 4, 2, 4, 3, 2, 1, 1, 3, 2, 0.2]


def line_ends(rng, t):
    kind = rng.choice(["crlf", "cr", "mixed"])
    if kind == "crlf":
        return t.replace("\n", "\r\n"), kind
    if kind == "cr":
        return t.replace("\n", "\r"), kind
    return "".join(c + ("\r" if c == "\n" and rng.random() < 0.3 else "") for c in t), kind


def encode(rng, text: str, name: str) -> tuple[bytes, str | None]:
    codec, bom, certain = ENCODINGS[name]
    data = bom + text.encode(codec, errors="replace" if codec in ("big5", "gb18030") else "surrogatepass")
    if codec == "big5":
        return data, None
    intended = data[len(bom):].decode(codec) if certain else None
    if name == "gb18030":
        try:                                  # bytes that happen to be UTF-8 are UTF-8
            intended = data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    return data, intended


def damage_bytes(rng, data: bytes) -> tuple[bytes, str]:
    kind = rng.choice(["truncate", "flip", "insert", "surrogate"])
    if not data:
        return data, kind
    at = rng.randrange(len(data))
    if kind == "truncate":
        return data[:at], kind
    if kind == "flip":
        return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:], kind
    if kind == "insert":
        return data[:at] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 4))) + data[at:], kind
    return data[:at] + b"\xed\xa0\x80" + data[at:], kind       # a UTF-8-encoded lone surrogate


def window(rng, text: str) -> tuple[str, str]:
    """A whole corpus file now and then; mostly a run of lines (conversion stays fast)."""
    ls = _lines(text)
    if rng.random() < 0.1:
        return text, "whole"
    n = rng.choice([1, 2, 3, 5, 10, 20, 40, 80])
    i = rng.randrange(max(1, len(ls) - n + 1))
    return "\n".join(ls[i:i + n]) + ("\n" if rng.random() < 0.8 else ""), f"lines {i + 1}-{i + n}"


def make_input(rng: random.Random, corpus: dict[str, str]) -> Input:
    name = rng.choice(sorted(corpus))
    text, where = window(rng, corpus[name])
    steps = [f"{name} {where}"]
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4, 6])):
        m = rng.choices(TEXT_MUTATIONS, WEIGHTS)[0]
        text = m(rng, text)
        steps.append(m.__name__)
    if rng.random() < 0.15:
        text, kind = line_ends(rng, text)
        steps.append(f"line ends {kind}")
    enc = rng.choices(list(ENCODING_WEIGHTS), list(ENCODING_WEIGHTS.values()))[0]
    data, intended = encode(rng, text, enc)
    steps.append(enc)
    if rng.random() < 0.08:
        data, kind = damage_bytes(rng, data)
        steps.append(f"bytes {kind}")
        intended = None
    options: tuple[str, ...] = ()
    if rng.random() < 0.1:                  # a reader forced on any text must still keep the contract
        options += ("--format", rng.choice(FORMATS))
    if rng.random() < 0.15:
        options += ("--work", rng.choice(WORKS))
    if options:
        steps.append(" ".join(options))
    return Input(data, intended, steps, options)
