#!/usr/bin/env python3
"""normlab-cli --figure without a display: exit 0, a PNG of the asked size that is not blank
and holds the highlighted group (saturated pixels) next to dimmed ones (stdlib only).

  figure_test.py CLI OUT.png [cli args...]
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "app"))
from app_test import read_png  # noqa: E402


def main():
    cli, out, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if os.path.exists(out):
        os.remove(out)
    env = dict(os.environ, NORMLAB_VALIDATION="1")
    p = subprocess.run([cli, "--figure", out, "--figure-size", "1200x800", "-q"] + args,
                       capture_output=True, text=True, env=env, timeout=120)
    if p.returncode != 0:
        sys.exit(f"FAIL: exit status {p.returncode}\n{p.stdout}\n{p.stderr}")
    w, h, rows = read_png(out)
    if (w, h) != (1200, 800):
        sys.exit(f"FAIL: figure is {w}x{h}, expected 1200x800")
    px = [px for row in rows[::4] for px in row[::4]]
    lum = [0.299 * r + 0.587 * g + 0.114 * b for (r, g, b) in px]
    mean = sum(lum) / len(lum)
    sd = (sum((v - mean) ** 2 for v in lum) / len(lum)) ** 0.5
    colors = len(set(px))
    saturated = sum(1 for (r, g, b) in px if max(r, g, b) - min(r, g, b) > 80)
    print(f"{out}: {w}x{h}, luminance sd {sd:.1f}, {colors} distinct colors, {saturated} saturated samples")
    if sd < 10 or colors < 40 or saturated < 200:
        sys.exit("FAIL: the figure looks blank")
    print("PASS")


if __name__ == "__main__":
    main()
