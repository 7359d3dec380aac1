#!/usr/bin/env python3
"""normlab-cli --figure without a display: exit 0, a PNG of the asked size that is not blank
and holds the highlighted group (saturated pixels) next to dimmed ones, and no warning that
the font lacks a glyph the figure draws (μ, σ, ...: they would show as '?') (stdlib only).

  figure_test.py [--hide-system-fonts] [--env NAME=VALUE]... [--expect-once TEXT] CLI OUT.png [cli args...]

--hide-system-fonts  run the CLI where /usr/share/fonts is empty (an empty tmpfs mounted over
                     it in a private mount namespace, `unshare -rm`): a machine without
                     fonts-dejavu-core or a CJK font; exits 77 (skipped) when the system
                     allows no namespaces
--env NAME=VALUE     set a variable for the CLI (e.g. NORMLAB_FONT_DIR=/nonexistent)
--expect-once TEXT   the CLI's stderr must hold TEXT exactly once (a warning said once)
--same-with-system-fonts  with --hide-system-fonts: render again with the system's fonts
                     visible; the two PNGs must be identical (the figure's text never depends
                     on a font file: a fallback font would draw '?' for μ and σ)
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "app"))
from app_test import read_png  # noqa: E402


SKIP = 77


def hide_fonts_prefix():
    """The command prefix that runs a program with /usr/share/fonts empty, or None."""
    script = ('mount -t tmpfs normlab-no-fonts /usr/share/fonts && '
              '[ -z "$(ls -A /usr/share/fonts)" ] && exec "$@"')
    for unshare in (["unshare", "-rm"], ["unshare", "-m"]):
        try:
            probe = subprocess.run(unshare + ["sh", "-c", script, "sh", "true"], capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if probe.returncode == 0:
            return unshare + ["sh", "-c", script, "sh"]
    return None


def main():
    argv, extra_env, hide_fonts, expect_once, same = sys.argv[1:], {}, False, None, False
    while argv and argv[0].startswith("--"):
        opt = argv.pop(0)
        if opt == "--hide-system-fonts":
            hide_fonts = True
        elif opt == "--env":
            name, _, value = argv.pop(0).partition("=")
            extra_env[name] = value
        elif opt == "--expect-once":
            expect_once = argv.pop(0)
        elif opt == "--same-with-system-fonts":
            same = True
        else:
            sys.exit(f"figure_test.py: unknown option {opt}")
    cli, out, args = argv[0], argv[1], argv[2:]
    if os.path.exists(out):
        os.remove(out)
    env = dict(os.environ, NORMLAB_VALIDATION="1", **extra_env)
    prefix = []
    if hide_fonts:
        prefix = hide_fonts_prefix()
        if prefix is None:
            print("SKIP: cannot hide /usr/share/fonts here (no mount namespaces: unshare -rm and unshare -m fail)")
            sys.exit(SKIP)
    cmd = [cli, "--figure", out, "--figure-size", "1200x800", "-q"] + args
    p = subprocess.run(prefix + cmd, capture_output=True, text=True, env=env, timeout=120)
    if p.returncode != 0:
        sys.exit(f"FAIL: exit status {p.returncode}\n{p.stdout}\n{p.stderr}")
    if p.stderr:
        print(f"stderr:\n{p.stderr.rstrip()}")
    if "has no glyph" in p.stderr:
        sys.exit("FAIL: the font lacks glyphs the figure draws (they render as '?')")
    if expect_once is not None and p.stderr.count(expect_once) != 1:
        sys.exit(f"FAIL: stderr holds '{expect_once}' {p.stderr.count(expect_once)} times, expected once")
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
    if same and hide_fonts:
        ref = out[:-4] + "_system_fonts.png" if out.endswith(".png") else out + ".system_fonts.png"
        cmd[2] = ref
        q = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        if q.returncode != 0:
            sys.exit(f"FAIL: with the system fonts: exit status {q.returncode}\n{q.stdout}\n{q.stderr}")
        _, _, ref_rows = read_png(ref)
        diff = sum(1 for a, b in zip(rows, ref_rows) for pa, pb in zip(a, b) if pa != pb)
        print(f"{ref}: {diff} pixels differ from the figure drawn without system fonts")
        if diff:
            sys.exit("FAIL: the figure's text depends on the system's fonts")
    print("PASS")


if __name__ == "__main__":
    main()
