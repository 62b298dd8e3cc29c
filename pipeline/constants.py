"""Names and lists more than one stage uses, defined once: the TEI namespace, the 義疏
categories, the header line of a 四庫 page. (Character classes, whitespace among them, are in
pipeline/chars.py.)"""
from __future__ import annotations

TEI_NS = "http://www.tei-c.org/ns/1.0"
TEI = f"{{{TEI_NS}}}"                  # the Clark prefix of a TEI element: f"{TEI}div"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XML = f"{{{XML_NS}}}"
XML_ID, XML_LANG = f"{XML}id", f"{XML}lang"

# The 義疏 categories of the 欽定三禮義疏, in the order it explains them: the id (TEI @subtype,
# the HTML data-category, `zhushu text --category`), the label in traditional script, and what a
# block of the category holds. xslt/common.xsl and html.xsl name them too (a test holds them equal).
YISHU_CATEGORIES = (
    ("zhengyi", "正義", "the accepted explanation"),
    ("bianzheng", "辨正", "corrections"),
    ("tonglun", "通論", "general discussion"),
    ("yulun", "餘論", "further remarks"),
    ("cunyi", "存疑", "doubtful views kept"),
    ("cunyi2", "存異", "divergent views kept"),
    ("zonglun", "總論", "summary discussion"),
)
CATEGORY_IDS = tuple(cid for cid, _, _ in YISHU_CATEGORIES)

# A category's label as printed (simplified or traditional) → its id.
CATEGORIES = {
    "正义": "zhengyi", "正義": "zhengyi", "辨正": "bianzheng", "通论": "tonglun", "通論": "tonglun",
    "馀论": "yulun", "余论": "yulun", "餘論": "yulun", "存疑": "cunyi", "存异": "cunyi2",
    "存異": "cunyi2", "总论": "zonglun", "總論": "zonglun",
}

# 欽定四庫全書, the line that heads every page of the 四庫 edition, in either script; as a
# regular expression's alternatives, SIKU_HEADER.
SIKU_HEADERS = ("欽定四庫全書", "钦定四库全书")
SIKU_HEADER = "|".join(SIKU_HEADERS)

# The files every document of a corpus shares, beside the documents, and the prefixes that
# point into them (declared in each header's listPrefixDef): psn:zhengxuan is
# persons.xml#zhengxuan, cat:shu is categories.xml#shu.
PERSONS_FILE, CATEGORIES_FILE = "persons.xml", "categories.xml"
SHARED_PREFIXES = {"psn": PERSONS_FILE, "cat": CATEGORIES_FILE}
SHARED_FILES = tuple(SHARED_PREFIXES.values())
