#!/usr/bin/python3
"""Makes assets/fonts/DejaVuSans-subset.ttf, the Latin/Greek/math font compiled into every
normlab binary (views/panels/src/embedded_font.cpp), from Debian's DejaVu Sans.

  scripts/subset-font.py [SOURCE.ttf]   (default /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)

Needs Debian's python3-fonttools (apt-get install python3-fonttools; Debian ships no
pyftsubset command, only the module) and fonts-dejavu-core; only whoever changes the font
runs it: its output is committed, so building normlab needs neither package.

The ranges are those views/panels/src/fonts.cpp asks ImGui for (kLatinRanges): keep the two in step.
Glyph outlines, hinting and the name table (copyright and the full license text, name ID 13)
are kept unchanged; only glyphs outside the ranges are dropped. The Bitstream Vera and Arev
licenses allow modified fonts whose names contain none of "Bitstream", "Vera", "Arev" and
"Tavmjong Bah": "DejaVu Sans" does not. License: assets/fonts/LICENSE-DejaVu.txt.
"""
import os
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

# Basic Latin + Latin-1, combining marks + Greek, General Punctuation, Superscripts and
# Subscripts, currency, letterlike, number forms, Arrows, Mathematical Operators, ceiling and
# floor (⌈⌉⌊⌋, the Explain panel's S_i), and Geometric Shapes: the same (first, last) pairs as
# views/panels/src/fonts.cpp's kLatinRanges.
RANGES = [(0x0020, 0x00FF), (0x0300, 0x03FF), (0x2000, 0x22FF), (0x2308, 0x230B), (0x25A0, 0x25FF)]
# Characters normlab draws that must survive any change of the ranges above.
MUST_HAVE = "μσ²γβε√∑×±≈—…→←·⌊⌋"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    out = os.path.join(root, "assets", "fonts", "DejaVuSans-subset.ttf")
    opts = subset.Options()
    opts.name_IDs = ["*"]  # keep the copyright (0) and the license text (13, 14)
    opts.name_languages = ["*"]
    opts.name_legacy = True
    opts.hinting = True
    opts.notdef_outline = True
    font = TTFont(src, recalcTimestamp=False)  # reproducible: the same input gives the same bytes
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=[u for first, last in RANGES for u in range(first, last + 1)])
    sub.subset(font)
    cmap = font.getBestCmap()
    missing = [c for c in MUST_HAVE if ord(c) not in cmap]
    if missing:
        sys.exit(f"subset-font: the subset lacks {''.join(missing)}")
    font.save(out)
    print(f"{out}: {os.path.getsize(out)} bytes, {len(cmap)} characters (from {src}, {os.path.getsize(src)} bytes)")


if __name__ == "__main__":
    main()
