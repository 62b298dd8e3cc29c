"""A wheel installs schema/ and xslt/ under <prefix>/share/zhushu from pyproject.toml's
data-files list (pipeline/resources.py looks there outside a checkout): every file the
stylesheets and validators read must be on that list, or an installed zhushu would fail where a
checkout works (issue 18's siku.xsl, siku.css and type.css were missing from it at first)."""
import tomllib

from conftest import ROOT


def listed() -> set[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        data_files = tomllib.load(f)["tool"]["setuptools"]["data-files"]
    return {p for files in data_files.values() for p in files}


def test_every_stylesheet_asset_and_schema_is_installed():
    shipped = {str(p.relative_to(ROOT)) for d in ("xslt", "xslt/assets", "schema")
               for p in (ROOT / d).iterdir() if p.is_file() and p.name != "README.md"}
    assert shipped - listed() == set()


def test_everything_listed_exists():
    assert {p for p in listed() if not (ROOT / p).is_file()} == set()
