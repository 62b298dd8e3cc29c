"""The shortcuts in reading a Kanripo (mandoku) source agree with the plain reading they
skip: parse reads the commonest lines in short (parse_plain reads every line in full), and join
gives a line with no page and no gaiji its events in short (_events is the full reading)."""
import glob
import os
import random

from pipeline.sources import mandoku, paragraphs

PIECES = ["之", "也", "曲禮曰", "\u3000", " ", "¶", "¶", "¶", "<pb:KR1d0053_WYG_001-1a>",
          "<pb:KR1d0053_WYG_001-2b>¶", "(注/文)", "(音", "義)", "/", "&KR0427;", "*", "** "]
HEADS = ["", "", "", "# a comment", "#+TITLE: 禮記註疏", "#+PROPERTY: JUAN 1", "** 1 曲禮上",
         "<pb:KR1d0053_WYG_002-1a>¶", "¶"]


def _random_mandoku(rnd: random.Random) -> str:
    lines = []
    for _ in range(rnd.randrange(1, 20)):
        head = rnd.choice(HEADS)
        lines.append(head + "".join(rnd.choice(PIECES) for _ in range(rnd.randrange(8))))
    return "\n".join(lines)


def test_parse_reads_as_the_plain_parse():
    rnd = random.Random(31)
    for _ in range(3000):
        text = _random_mandoku(rnd)
        assert mandoku.parse(text, "x.txt") == mandoku.parse_plain(text, "x.txt")


def test_parse_reads_the_kanripo_files_as_the_plain_parse():
    here = os.path.dirname(os.path.abspath(__file__))
    paths = sorted(glob.glob(os.path.join(here, "fixtures", "kanripo", "**", "*.txt"), recursive=True))
    texts = [open(p, encoding="utf-8", errors="replace").read() for p in paths]
    texts = [t for t in texts if mandoku.looks_like(t)]
    assert texts
    for t in texts:
        assert mandoku.parse(t, "x.txt") == mandoku.parse_plain(t, "x.txt")


def test_line_events_in_short_as_in_full():
    rnd = random.Random(32)
    for _ in range(2000):
        for line in mandoku.parse(_random_mandoku(rnd), "x.txt").lines:
            line.begins = rnd.random() < 0.8
            skip = rnd.randrange(len(line.text) + 1)
            size = rnd.randrange(100)
            got = paragraphs._line_events(line, size, size - skip, skip)
            want = paragraphs._events(line, size, size - skip, skip)
            assert [(e.at, e.kind, e.value) for e in got] == [(e.at, e.kind, e.value) for e in want]
