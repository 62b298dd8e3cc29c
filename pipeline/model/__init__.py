"""The document model: what every reader builds and the TEI writer writes.

- nodes.py: the nodes, plain data (a Document of Divs of blocks: Unit, Shu, YishuBlock, …).
- walk.py: the one walk over them (`walk`), which every pass below takes its nodes from.
- passes.py: passes over a finished document: `assign_ids`, `persons_pointed_at`, `stats`.
- spans.py: the pieces a span covers, in document order (`PieceOrder`).
- strays.py: the pass that drops the delimiters no reader consumed (`strays.drop`).

Import the nodes and passes from here: `from pipeline.model import Unit, assign_ids`.
"""
from pipeline.model.nodes import (AN, FORENAME, HAO, JING, MARK, NATIVE, QUE, SHU, SURNAME,
                                  TEXTUAL, TRANSLATION, XIAOZHU, YINYI, YISHU, ZHU, ZI, Anchor,
                                  Chuwen, Div, Document, Fw, Head, Judgment, KaozhengEntry, Meta,
                                  NameEntry, NamePart, Para, Piece, Pointable, Pos, Prose, Quote,
                                  Shu, SmallNote, SubLemma, Token, Translation, Unit, Volume, Work,
                                  YishuBlock)
from pipeline.model.passes import assign_ids, persons_pointed_at, stats
from pipeline.model.spans import PieceOrder
from pipeline.model.walk import walk

__all__ = ["AN", "FORENAME", "HAO", "JING", "MARK", "NATIVE", "QUE", "SHU", "SURNAME", "TEXTUAL",
           "TRANSLATION", "XIAOZHU", "YINYI", "YISHU", "ZHU", "ZI", "Anchor", "Chuwen", "Div",
           "Document", "Fw", "Head", "Judgment", "KaozhengEntry", "Meta", "NameEntry", "NamePart",
           "Para", "Piece", "PieceOrder", "Pointable", "Pos", "Prose", "Quote", "Shu", "SmallNote",
           "SubLemma", "Token", "Translation", "Unit", "Volume", "Work", "YishuBlock", "assign_ids",
           "persons_pointed_at", "stats", "walk"]
