"""`zhushu text`: each layer in document order."""


def test_layers(run, converted_004):
    path, _, _ = converted_004
    code, out, _ = run("text", path, "--layer", "jing")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "貉、戎、狄之国使，掌传王之言而谕说焉，以和亲之。"
    assert lines[-1] == "家士。"
    code, out, _ = run("text", path, "--layer", "zhu")
    assert out.splitlines()[0] == "谓蕃国之臣来┹聘者。"
    code, out, _ = run("text", path, "--layer", "yinyi")
    assert out.splitlines()[:3] == ["闽，亡巾反，又音文。", "貉，亡百反。", "使，所吏反。"]
    code, out, _ = run("text", path, "--layer", "shu")
    assert out.splitlines()[0].startswith("疏注“谓蕃”至“聘者”释曰：蕃国之君")


def test_text_of_non_xml_is_one_line_error(run, tmp_path):
    p = tmp_path / "x.xml"
    p.write_text("<TEI><unclosed></TEI>")
    code, out, err = run("text", p)
    assert code == 2 and err.count("\n") == 1 and "x.xml:1:" in err
