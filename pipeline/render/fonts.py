"""The fonts Chromium prints the print edition with: Noto Serif CJK TC as TrueType, built once.

Skia (Chromium's PDF writer) embeds a TrueType-outline font as a CID font (Type 0 over
CIDFontType2, subset, named) but has no writer for an OpenType font with CFF outlines: it draws
each of its glyphs as a Type 3 procedure, 256 to a font, unnamed (pdffonts shows 105–155 of them
per 卷; poppler warns of their bounding boxes; the strokes come out thin). Debian's Noto Serif CJK
is CFF (in a collection); taking the face out of the collection changes nothing, converting its
outlines to TrueType does (docs/performance.md has the measurements). So the TC face, Regular and
Bold, is converted whole with fontTools (cubic → quadratic curves within 1 font unit) under a
family name of our own, cached under $XDG_CACHE_HOME/zhushu/fonts, and handed to Chromium through
a fontconfig file of its own (FONTCONFIG_FILE in Chromium's environment only) and @font-face rules
that give the stylesheets' "Noto Serif CJK TC" our faces (local(): no font data crosses the
page). Every print document gets the rules, whatever stylesheet made it.

When the faces cannot be built (no fontTools, no Noto Serif CJK, an unwritable cache) the PDF is
printed with the installed fonts as before, and stderr says so once.
"""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from pipeline import files

# What the stylesheets ask for, and what our converted faces are called (name table: family,
# full name, PostScript name; the PostScript name is what pdffonts shows after the subset tag).
FAMILY = "Noto Serif CJK TC"
OUR_FAMILY = "Zhushu Serif TC"
# (CSS weight, fontconfig's weight (FC_WEIGHT_REGULAR, FC_WEIGHT_BOLD), the face's style name)
WEIGHTS = ((400, 80, "Regular"), (700, 200, "Bold"))
# Bumped whenever the conversion changes, so a cache built by an older one is never used.
BUILD = 1
# cu2qu's tolerance in font units (1000 a em): a stroke moves by at most 1/1000 of a cell.
MAX_ERR = 1.0


@dataclass(frozen=True)
class PrintFonts:
    """What Chromium is given: the @font-face rules every document gets, the variables its
    process gets; both empty when the installed fonts are used as they are."""
    css: str = ""
    env: dict[str, str] = field(default_factory=dict)
    faces: tuple[str, ...] = ()


INSTALLED = PrintFonts()
_warned: set[str] = set()


def cache_root() -> str:
    """$XDG_CACHE_HOME/zhushu/fonts (~/.cache/zhushu/fonts)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "zhushu", "fonts")


def print_fonts(root: str | None = None) -> PrintFonts:
    """Our TrueType faces (built on first use, one line on stderr while building), or the
    installed fonts with one line on stderr saying why (once per process). Never raises."""
    try:
        return _prepared(root or cache_root())
    except Exception as e:  # noqa: BLE001 - any failure means the fonts as installed, not no PDF
        reason = (str(e).strip() or e.__class__.__name__).splitlines()[0]
        if reason not in _warned:
            _warned.add(reason)
            print(f"zhushu: print fonts not built ({reason}): printing with the installed "
                  f"fonts ({FAMILY} as Type 3 glyphs)", file=sys.stderr)
        return INSTALLED


def with_fonts(html: str, fonts: PrintFonts) -> str:
    """The print document with the @font-face rules in its head (where they stand does not
    matter: a rule for a family shadows the installed family of that name wherever it is)."""
    if not fonts.css:
        return html
    style = f"<style>{fonts.css}</style>"
    head = re.search(r"<head\b[^>]*>", html[:4096], re.I)
    return html[:head.end()] + style + html[head.end():] if head else style + html


def _prepared(root: str) -> PrintFonts:
    sources = [(css_weight, style, *found) for css_weight, fc_weight, style in WEIGHTS
               if (found := _source(fc_weight, required=css_weight == 400))]
    key = _key([(path, index) for _, _, path, index in sources])
    directory = os.path.join(root, key)
    faces = []
    for css_weight, style, path, index in sources:
        target = os.path.join(directory, f"{OUR_FAMILY.replace(' ', '')}-{style}.ttf")
        if not os.path.isfile(target):
            os.makedirs(directory, exist_ok=True)
            started = time.monotonic()
            print(f"zhushu: building the print font {OUR_FAMILY} {style} (TrueType from {FAMILY}, "
                  f"once, about a minute) in {directory}", file=sys.stderr, flush=True)
            build_face(path, index, target, style)
            print(f"zhushu: built {os.path.basename(target)} in {time.monotonic() - started:.0f} s",
                  file=sys.stderr, flush=True)
        faces.append((css_weight, style, target))
    conf = os.path.join(directory, "fonts.conf")
    text = _fontconfig(directory).encode("utf-8")
    if not os.path.isfile(conf) or _read(conf) != text:
        files.write_atomic(conf, text)
    css = "".join(f'@font-face{{font-family:"{FAMILY}";font-weight:{w};'
                  f'src:local("{OUR_FAMILY} {style}"),local("{_ps_name(style)}")}}'
                  for w, style, _ in faces)
    return PrintFonts(css=css, env={"FONTCONFIG_FILE": conf}, faces=tuple(t for _, _, t in faces))


def _source(weight: int, required: bool) -> tuple[str, int] | None:
    """The installed file and face index of Noto Serif CJK TC at `weight`, as fontconfig finds it;
    None for a weight that is not installed and not required (Chromium then emboldens the
    regular face, as it would the installed one)."""
    try:
        out = subprocess.run(["fc-match", "-f", "%{family}\t%{weight}\t%{file}\t%{index}",
                              f"{FAMILY}:weight={weight}"], capture_output=True, text=True,
                             timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError) as e:
        raise RuntimeError(f"fontconfig's tools failed: {e}") from None
    family, got, path, index = (out.split("\t") + ["", "", "", ""])[:4]
    if FAMILY not in family.split(",") or not os.path.isfile(path):
        raise RuntimeError(f"{FAMILY} is not installed (apt-get install fonts-noto-cjk)")
    if got.strip() != str(weight):
        if required:
            raise RuntimeError(f"{FAMILY} has no {weight} face")
        return None
    return path, int(index or 0)


def _key(sources: list[tuple[str, int]]) -> str:
    """The cache directory's name: what the faces are built from and by (a new Noto package, a
    new fontTools or a new BUILD gets a new directory; the file's size and time stand for its
    bytes, which would take longer to hash than the rest of a run)."""
    import fontTools
    h = hashlib.sha256(f"{BUILD} {fontTools.version} {MAX_ERR}".encode())
    for path, index in sources:
        st = os.stat(path)
        h.update(f"\n{os.path.realpath(path)} {index} {st.st_size} {st.st_mtime_ns}".encode())
    return h.hexdigest()[:16]


def _ps_name(style: str) -> str:
    return f"{OUR_FAMILY.replace(' ', '')}-{style}"


def build_face(path: str, index: int, target: str, style: str) -> None:
    """Face `index` of the font file `path` saved to `target` with TrueType outlines under our
    name. The same source gives the same bytes (the head table's dates are the source's)."""
    from fontTools.ttLib import TTFont
    font = TTFont(path, fontNumber=index, recalcTimestamp=False, lazy=True)
    _rename(font, style)
    if "CFF " in font:
        _to_truetype(font)
    with files.atomic_path(target) as tmp:     # a run that stops halfway leaves no half font
        font.save(tmp)


def _rename(font, style: str) -> None:
    """Our family name, so fontconfig never takes our faces for the installed ones (nor they ours);
    the typographic family and the variation names go, the copyright and licence stay."""
    name = font["name"]
    for nid in (16, 17, 21, 22):
        name.removeNames(nameID=nid)
    for nid, value in ((1, OUR_FAMILY), (2, style), (3, f"{_ps_name(style)};{BUILD}"),
                       (4, f"{OUR_FAMILY} {style}"), (6, _ps_name(style))):
        name.removeNames(nameID=nid)
        name.setName(value, nid, 3, 1, 0x409)
        name.setName(value, nid, 1, 0, 0)


def _to_truetype(font) -> None:
    """CFF outlines → glyf (as fontTools' otf2ttf snippet does). VORG stays: it holds the
    vertical origins the CFF glyphs were drawn for, and both Chromium and HarfBuzz read it for
    any outline format, so vertical text stands where it stood."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(None)
        glyph_set[name].draw(Cu2QuPen(pen, MAX_ERR, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    del font["CFF "]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name in order:                  # the left side bearing is the new outline's
        glyph = glyf[name]
        glyph.recalcBounds(glyf)
        hmtx.metrics[name] = (hmtx.metrics[name][0], getattr(glyph, "xMin", 0))
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.maxZones = 1
    for attr in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                 "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, attr, 0)
    font["post"].formatType = 3.0       # no glyph names: the CFF's were cid00001 …
    font.sfntVersion = "\000\001\000\000"


def _fontconfig(directory: str) -> str:
    """The system's configuration (or the caller's FONTCONFIG_FILE) and our directory, its cache
    written beside the faces (never into the system's cache)."""
    base = os.environ.get("FONTCONFIG_FILE") or "/etc/fonts/fonts.conf"
    return ('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
            "<fontconfig>\n"
            f"  <cachedir>{escape(os.path.join(directory, 'fontconfig'))}</cachedir>\n"
            f'  <include ignore_missing="yes">{escape(base)}</include>\n'
            f"  <dir>{escape(directory)}</dir>\n"
            "</fontconfig>\n")


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


if __name__ == "__main__":
    # `make demo` and `make test` build the faces before anything prints (a test that gives a
    # render a short time-out must not be the one that waits for the build)
    print_fonts()
