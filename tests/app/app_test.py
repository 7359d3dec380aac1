#!/usr/bin/env python3
"""End-to-end checks of the normlab app, run by ctest under xvfb-run (stdlib only).

  app_test.py screenshot APP OUT.png [app args...]   the PNG is written, exit 0, not blank
  app_test.py methods APP OUTDIR                      a screenshot (as above) per method that the
                                                      app's --help lists for --norm (the method
                                                      table), OUTDIR/<method>.png
  app_test.py highlight APP OUT.png [app args...]    with --select: a tile of the selected
                                                      group differs from a tile outside it
  app_test.py error APP EXPECTED_RC [app args...]    one 'error: ...' line and that exit status
                                                      (2 bad options or input, 3 no display or
                                                      device, 4 validation messages; README)
  app_test.py warns APP OUT.png TEXT [app args...]   keeps running (screenshot as above) and
                                                      says TEXT on stderr (malformed lessons)
Every run has NORMLAB_VALIDATION=1; any validation message fails the test.
"""
import json
import os
import re
import struct
import subprocess
import sys
import zlib


def read_png(path):
    """Returns (width, height, rows of (r, g, b) tuples) of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), f"unsupported PNG (depth {depth}, color type {ctype})"
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def run(app, args):
    env = dict(os.environ, NORMLAB_VALIDATION="1")
    p = subprocess.run([app] + args, capture_output=True, text=True, env=env, timeout=300)
    if "validation:" in p.stderr:
        sys.exit("FAIL: Vulkan validation messages:\n" + p.stderr[:4000])
    return p


def screenshot(app, out, args, extra=()):
    if os.path.exists(out):
        os.remove(out)
    p = run(app, args + ["--screenshot", out] + list(extra))
    if p.returncode != 0:
        sys.exit(f"FAIL: exit status {p.returncode}\n{p.stdout}\n{p.stderr}")
    w, h, rows = read_png(out)
    lum = [0.299 * r + 0.587 * g + 0.114 * b for row in rows[::4] for (r, g, b) in row[::4]]
    mean = sum(lum) / len(lum)
    sd = (sum((v - mean) ** 2 for v in lum) / len(lum)) ** 0.5
    colors = len({px for row in rows[::3] for px in row[::3]})
    print(f"{out}: {w}x{h}, luminance sd {sd:.1f}, {colors} distinct colors")
    if sd < 10 or colors < 50:
        sys.exit("FAIL: the screenshot looks blank")
    return p, rows


def highlight(app, out, args):
    p, rows = screenshot(app, out, args, ["--dump-layout", "--heatmap", "stats"])
    layout = json.loads([l for l in p.stdout.splitlines() if l.startswith("{")][-1])
    ox, oy = layout["origin"]
    tw, th = layout["tile"]
    gap = layout["gap"]
    n_, c_, h_, w_ = layout["shape"]
    sel = layout.get("selected_stat")
    if sel is None:
        sys.exit("FAIL: --select did not select a statistic")
    stride, count = layout["stat_stride"], layout["stat_count"]

    def tile_stat(n, c):  # the statistic of the tile's centre element
        off = ((n * c_ + c) * h_ + h_ // 2) * w_ + w_ // 2
        return (off // stride) % count

    def tile_pixel(n, c):  # a pixel a quarter into the tile (away from the selection outline)
        x = ox + c * (tw + gap) + tw * 0.25
        y = oy + n * (th + gap) + th * 0.25
        return rows[int(y)][int(x)]

    inside = [(n, c) for n in range(n_) for c in range(c_) if tile_stat(n, c) == sel]
    outside = [(n, c) for n in range(n_) for c in range(c_) if tile_stat(n, c) != sel]
    if not inside or not outside:
        sys.exit("FAIL: need tiles inside and outside the selected group")
    a, b = tile_pixel(*inside[0]), tile_pixel(*outside[0])
    diff = sum(abs(x - y) for x, y in zip(a, b))
    sat = lambda px: max(px) - min(px)
    print(f"selected-group tile {inside[0]} pixel {a}, other tile {outside[0]} pixel {b}, |diff| {diff}")
    if diff < 60 or sat(a) <= sat(b):
        sys.exit("FAIL: the selected group is not highlighted (other tiles should be dimmed grey)")


# What each method's screenshot shows besides the method (a method not named here gets the
# defaults); GroupNorm needs its G.
METHOD_ARGS = {
    "batch": ["--select", "0,1,0,0"],
    "layer": ["--heatmap", "output"],
    "instance": ["--heatmap", "input"],
    "group": ["--groups", "2", "--heatmap", "diff"],
    "rms": ["--normalized-shape", "4,4"],
}


def method_names(app):
    """The --norm choices as the app's --help lists them ("batch | layer | ...")."""
    p = run(app, ["--help"])
    if p.returncode != 0:
        sys.exit(f"FAIL: --help exit status {p.returncode}\n{p.stderr}")
    m = re.search(r"--norm\s+\S+\s+(.+)", p.stdout)
    if not m:
        sys.exit("FAIL: --help does not list --norm\n" + p.stdout)
    return [n.strip() for n in m.group(1).split("|")]


def methods(app, outdir):
    names = method_names(app)
    print("methods:", ", ".join(names))
    stale = set(METHOD_ARGS) - set(names)
    if stale:
        sys.exit(f"FAIL: METHOD_ARGS names methods the app does not list: {sorted(stale)}")
    for name in names:
        screenshot(app, os.path.join(outdir, name + ".png"), ["--norm", name] + METHOD_ARGS.get(name, []))


def error(app, rc, args):
    p = run(app, args)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    print(p.stderr.strip())
    if p.returncode != rc:
        sys.exit(f"FAIL: exit status {p.returncode}, expected {rc}")
    if not lines or not lines[-1].startswith("error: "):
        sys.exit("FAIL: no 'error: ...' line")


def main():
    mode, app = sys.argv[1], sys.argv[2]
    if mode == "screenshot":
        screenshot(app, sys.argv[3], sys.argv[4:])
    elif mode == "methods":
        methods(app, sys.argv[3])
    elif mode == "highlight":
        highlight(app, sys.argv[3], sys.argv[4:])
    elif mode == "warns":
        p, _ = screenshot(app, sys.argv[3], sys.argv[5:])
        print(p.stderr.strip())
        if sys.argv[4] not in p.stderr:
            sys.exit(f"FAIL: stderr does not mention {sys.argv[4]!r}")
    elif mode == "error":
        error(app, int(sys.argv[3]), sys.argv[4:])
    else:
        sys.exit("unknown mode " + mode)
    print("PASS")


if __name__ == "__main__":
    main()
