"""The script of a text, as the web edition's lang says it: the seeds are simplified e-texts,
Kanripo's editions traditional; text with neither kind of form says nothing."""
import pathlib

import pytest

from pipeline import hanzi

ROOT = pathlib.Path(__file__).resolve().parents[1]
KANRIPO = ROOT.parent / "shared" / "kanripo"


@pytest.mark.parametrize("seed", sorted((ROOT / "corpus").glob("*.txt")), ids=lambda p: p.name[:3])
def test_the_seeds_are_simplified(seed):
    assert hanzi.script(seed.read_text(encoding="utf-8")) == hanzi.HANS


@pytest.mark.parametrize("name", ["WYG/KR1d0053/KR1d0053_046.txt", "bare/KR1d0052/KR1d0052_001.txt",
                                  "SBCK/KR1d0026/KR1d0026_001.txt"])
def test_kanripo_editions_are_traditional(name):
    path = KANRIPO / name
    if not path.exists():
        pytest.skip("../shared/kanripo is not beside the project")
    assert hanzi.script(path.read_text(encoding="utf-8")) == hanzi.HANT


def test_a_traditional_text_full_of_yun_and_yu_stays_traditional():
    # 云 and 于 are changed by s2t, yet a traditional 疏 is full of them: the forms only a
    # traditional text has (於, 禮, 說) outweigh them
    assert hanzi.script("鄭云：「于，於也。」禮說云：「祭于廟。」") == hanzi.HANT
    assert hanzi.script("郑云：于，於也。") == hanzi.HANS


def test_text_with_no_distinguishing_form_has_no_script():
    assert hanzi.script("天子之子") == ""
    assert hanzi.script("") == ""
