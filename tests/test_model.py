"""The model's one walk and the passes built on it: ids, persons, stray delimiters, statistics."""
from pipeline.model import (JING, XIAOZHU, ZHU, Div, Document, Fw, Head, Judgment, KaozhengEntry,
                            Meta, Para, Piece, Pos, Prose, Quote, Shu, SmallNote, Unit, YishuBlock,
                            assign_ids, persons_pointed_at, stats, strays, walk)
from pipeline.report import Report


def _doc(*divs: Div) -> Document:
    return Document(Meta("x.txt", "0" * 64, "zhushu"), list(divs))


def _unit() -> Unit:
    return Unit([Piece(JING, "天子（", Pos(1, 1), resp=None),
                 SmallNote(XIAOZHU, "音）泰", Pos(1, 4), resp="ludeming"),
                 Piece(ZHU, "王也", Pos(1, 7), resp="zhengxuan")], Pos(1, 1))


def _document():
    unit = _unit()
    shu = Shu(None, [Para("疏曰", Pos(2, 1))], Pos(2, 1), resp="kongyingda", target=unit.pieces[0])
    entry = KaozhengEntry("天子", ["案", Judgment("臣召南", "按", ["某", SmallNote(XIAOZHU, "注", Pos(3, 9))],
                                                Pos(3, 3), resp="qizhaonan"), SmallNote(XIAOZHU, "又", Pos(3, 12))],
                          Pos(3, 1))
    section = Div("section", Head("曲禮", Pos(4, 1), kind="section"), [Prose(["序"], Pos(5, 1))])
    juan = Div("juan", Head("卷一", Pos(1, 1)), [unit, shu, entry, section],
               front=[Fw("欽定四庫全書", Pos(1, 1))])
    return _doc(juan), unit, shu, entry, section


def test_walk_takes_the_divs_first_then_each_block_with_what_is_inside_it():
    doc, unit, shu, entry, section = _document()
    juan = doc.divs[0]
    judgment = entry.parts[1]
    assert list(walk(doc)) == [juan, juan.head, juan.front[0], section, section.head,
                               unit, *unit.pieces, shu, entry, judgment, judgment.parts[1],
                               entry.parts[2], section.blocks[0]]


def test_ids_follow_document_order():
    doc, unit, shu, entry, section = _document()
    assign_ids(doc)
    assert [p.id for p in unit.pieces] == ["u1.j1", "u1.n1", "u1.z1"]
    assert shu.id == "u1.s1" and doc.divs[0].front[0].id == "fw1" and section.id == "d2"
    # a judgment's own notes are numbered after it, before the entry's next note
    assert [entry.parts[1].id, entry.parts[1].parts[1].id, entry.parts[2].id] == ["k1.n1", "k1.n2", "k1.n3"]
    assert section.blocks[0].id == "p1" and section.head.id == "d2.h"


def test_persons_are_every_resp_the_walk_meets():
    doc, *_ = _document()
    assert persons_pointed_at(doc) == ["kongyingda", "ludeming", "qizhaonan", "zhengxuan"]


def test_stats_count_units_pieces_and_anchored_shu():
    doc, *_ = _document()
    assert stats(doc) == {"units": 1, "pieces": 3, "shu": 1, "shu_anchored": 1}


def test_strays_leave_the_text_reported_in_print_order():
    quote = Quote("", "", ["甲（", SmallNote(XIAOZHU, "乙〉", Pos(1, 5)), "丙）"], Pos(1, 3))
    block = YishuBlock("zhengyi", "正义○", [quote], Pos(1, 1))
    unit = _unit()
    anchor = unit.pieces[0].anchor_at(3)
    doc = _doc(Div("juan", Head("卷【一", Pos(9, 1)), [unit, block]))
    report = Report("x.txt")
    strays.drop(doc, report)
    assert doc.divs[0].head.text == "卷一" and block.label == "正义"
    assert [unit.pieces[0].text, unit.pieces[1].text] == ["天子", "音泰"] and anchor.offset == 2
    assert quote.parts[0] == "甲" and quote.parts[1].text == "乙" and quote.parts[2] == "丙"
    assert [(i.line, i.col) for i in report.issues] == [(9, 2), (1, 3), (1, 5), (1, 3), (1, 4),
                                                       (1, 6), (1, 4)]
