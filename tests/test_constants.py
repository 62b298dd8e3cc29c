"""The lists pipeline/constants.py defines once agree with the stylesheets, which name them too."""
import re
from pathlib import Path

from pipeline.constants import CATEGORIES, CATEGORY_IDS, YISHU_CATEGORIES

XSLT = Path(__file__).resolve().parents[1] / "xslt"


def test_every_printed_label_names_a_category():
    assert set(CATEGORIES.values()) == set(CATEGORY_IDS)
    assert all(CATEGORIES[label] == cid for cid, label, _ in YISHU_CATEGORIES)


def test_the_stylesheets_name_the_categories_in_order():
    common = (XSLT / "common.xsl").read_text(encoding="utf-8")
    shown = re.search(r'name="zs:categories".*?select="map\{(.*?)\}"', common, re.S).group(1)
    assert re.findall(r"'(\w+)': '(\w+)'", shown) == [(c, l) for c, l, _ in YISHU_CATEGORIES] + [("an", "案")]
    html = (XSLT / "html.xsl").read_text(encoding="utf-8")
    order = re.search(r'name="category-order".*?select="\((.*?)\)"', html, re.S).group(1)
    assert re.findall(r"'(\w+)'", order) == [*CATEGORY_IDS, "an"]
