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
  app_test.py presenter APP OUT.png [app args...]    presenter mode: the heatmap fills its panel in
                                                      width or height and is drawn there; no panel
                                                      but Explain/Lesson overflows (--dump-layout)
  app_test.py pictures APP OUT.png STYLE.png [args]  with --image: the Pictures panel shows the
                                                      style image's pixels with --style-image STYLE,
                                                      and not without it
  app_test.py keys APP WORKDIR [app args...]        quick taps (xdotool key: press and release
                                                      at once) at 5 fps: each changes the state
                                                      (--state-file) exactly once, in order
  app_test.py exercise APP WORKDIR [app args...]    a scene that hides and locks controls: locks
                                                      hold against the keys; copy, load another
                                                      scene, paste (Ctrl+Shift+C/V) restores it
  app_test.py link APP WORKDIR [app args...]        a lesson step's link copied (Ctrl+Shift+C), the
                                                      state changed, pasted (Ctrl+Shift+V): all back
  app_test.py uploads APP WORKDIR [app args...]     G and the method changed by key upload 0 bytes
                                                      of x (NORMLAB_APP_TIMING=1's 'x upload' lines)
Every run has NORMLAB_VALIDATION=1; any validation message fails the test.
"""
import json
import os
import re
import struct
import subprocess
import sys
import time
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
def presenter(app, out, args, min_share=0.18):
    """Presenter mode at the display's size: the heatmap fills its panel in one direction (the
    grid's aspect kept) and is drawn there (pixels read back), and no panel but the scrolling
    text panels (Explain, Lesson) has content that does not fit (a cut title or number). The
    heatmap's room is min_share of the window's height at least (less where it shares its
    panel with the SyncBN devices or the pictures)."""
    p, rows = screenshot(app, out, args, ["--dump-layout"])
    layout = json.loads([l for l in p.stdout.splitlines() if l.startswith("{")][-1])
    (ox, oy), (iw, ih), (rw, rh) = layout["origin"], layout["image"], layout["room"]
    cut = [w for w in layout["overflow"] if w not in ("explain", "lesson", "##MainMenuBar")]
    if cut:
        sys.exit(f"FAIL: content does not fit in {cut}")
    if rw == 0:  # the compare or pair view: no main heatmap
        return
    fill = max(iw / rw, ih / rh)
    print(f"heatmap image {iw}x{ih} in room {rw:.0f}x{rh:.0f}: fills {fill:.0%} of one side; "
          f"room {rw * rh / (len(rows[0]) * len(rows)):.0%} of the window")
    if fill < 0.9:
        sys.exit("FAIL: the heatmap does not fill its panel's width or height")
    if rh < min_share * len(rows):
        sys.exit(f"FAIL: the heatmap panel is squeezed (under {min_share:.0%} of the window's height)")
    # The drawn tiles: along the image's middle row, colored pixels from its left to its right edge.
    y = int(oy + layout["tile"][1] / 2)  # the middle of the first row of tiles
    lit = [x for x in range(int(ox), int(ox + iw)) if max(rows[y][x]) > 40]
    if not lit or lit[0] > ox + iw * 0.05 or lit[-1] < ox + iw * 0.95:
        sys.exit(f"FAIL: the tiles are not drawn across the image (lit {lit[:1]}..{lit[-1:]})")


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


METHOD_KEYS = ["batch", "layer", "instance", "group", "rms"]  # keys 1–5 (README)


def tapping(app, workdir, args, script, name, extra_env=None):
    """Runs the app at a forced low frame rate with --state-file and calls script(tap, state, fail, xdotool):
    tap sends quick taps (each lands inside one frame; ImGui 1.86 alone would never see such a key
    down) and checks each changed the state exactly once."""
    # Files of their own: ctest runs the tapping tests side by side in the same folder.
    state_path = os.path.join(workdir, f"{name}_state.json")
    if os.path.exists(state_path):
        os.remove(state_path)
    env = dict(os.environ, NORMLAB_VALIDATION="1", **(extra_env or {}))
    cmd = [app, "--max-fps", "5", "--state-file", state_path] + args
    log = open(os.path.join(workdir, f"{name}_app.log"), "w+")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)

    def state():
        try:
            return json.loads(open(state_path).read())
        except (OSError, ValueError):
            return None

    def fail(msg):
        proc.kill()
        proc.wait()
        log.seek(0)
        sys.exit(f"FAIL: {msg}\napp output:\n{log.read()[-4000:]}")

    def wait_for(pred, what, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if proc.poll() is not None:
                fail(f"the app exited ({proc.returncode}) while waiting for {what}")
            s = state()
            if s is not None and pred(s):
                return s
            time.sleep(0.05)
        fail(f"timed out waiting for {what}; state {state()}")

    def xdotool(*a):
        subprocess.run(["xdotool"] + list(a), check=True, timeout=30, capture_output=True)

    t0 = time.monotonic()
    wait_for(lambda s: s["frame"] >= 2, "the first frames", 120)
    wid = subprocess.run(["xdotool", "search", "--sync", "--name", "^normlab$"], capture_output=True, text=True,
                         timeout=30).stdout.split()
    if not wid:
        fail("no window named normlab")
    xdotool("windowfocus", wid[0])

    def tap(keyseq, change, expect_same=()):
        """Sends keyseq (one xdotool key call: each key pressed and released at once), then waits
        until the state shows `change` (field -> value), and two frames more, and checks it held."""
        before = wait_for(lambda s: True, "the state", 30)
        want = dict(before)
        want.update(change)
        fields = list(change) + list(expect_same)
        # One key: press and release back to back. Several: 30 ms apart (GLFW drops a second
        # press of a key within the same X timestamp as a duplicate), still inside one frame.
        xdotool("key", "--delay", "0" if " " not in keyseq else "60", *keyseq.split())
        sent = state()["frame"]
        matches = lambda s: all(s[f] == want[f] for f in fields)
        got = wait_for(lambda s: s["frame"] >= sent + 3 and (matches(s) or s["frame"] >= sent + 25),
                       f"{keyseq!r} to give {change}", 60)
        if not matches(got):
            shown = {f: got[f] for f in fields}
            fail(f"after {keyseq!r}: {shown}, expected { {f: want[f] for f in fields} }")
        later = wait_for(lambda s: s["frame"] >= got["frame"] + 2, "two more frames", 30)
        if not matches(later):
            fail(f"after {keyseq!r} the state went on changing: {later}")
        print(f"{keyseq:>14}: {', '.join(f'{f}={got[f]}' for f in fields)} (frame {got['frame']})")
        return got

    script(tap, state, fail, xdotool)
    print(f"{time.monotonic() - t0:.1f} s of taps")
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.seek(0)
    out = log.read()
    if "validation:" in out:
        sys.exit("FAIL: Vulkan validation messages:\n" + out[:4000])
    return out




def keys(app, workdir, args):
    """Quick taps: steps, methods, language, presenter, compare, blank, a text field."""

    def script(tap, state, fail, xdotool):
        s = state()
        if s["lesson"] != "bn-vs-ln" or s["step"] != 1:
            fail(f"expected lesson bn-vs-ln step 1, got {s}")
        tap("Right", {"step": 2})
        tap("Page_Down", {"step": 3})  # Page Down: a presentation clicker's "next"
        tap("Page_Up", {"step": 2})  # Page Up
        tap("Left", {"step": 1})
        method = state()["method"]
        for name in ["rms", "layer", "group", "batch", "instance"]:
            if name != method:
                tap(str(METHOD_KEYS.index(name) + 1), {"method": name})
                method = name
        s = state()
        tap("l", {"language": "zh" if s["language"] == "en" else "en"})
        tap("l", {"language": s["language"]})
        tap("p", {"presenter": not s["presenter"]})
        tap("c", {"compare": not s["compare"]})
        tap("b", {"blank": True})
        tap("Right", {"blank": False}, ["step"])  # any key brings the picture back, and only that
        tap("period", {"blank": True})
        tap("period", {"blank": False})
        tap("Right Right", {"step": state()["step"] + 2})  # two taps inside one frame: both, in order
        tap("Left Right Left", {"step": state()["step"] - 1})
        # A text field has the keyboard (Ctrl+O focuses the scene path): letters are text, not shortcuts.
        compare = state()["compare"]
        tap("ctrl+o", {"text_field": True})
        tap("c", {}, ["compare", "presenter", "language", "text_field"])
        tap("Escape", {"text_field": False})  # leaves the field: ImGui's own widgets see quick taps too
        tap("c", {"compare": not compare})

    tapping(app, workdir, ["--lesson-id", "bn-vs-ln"] + args, script, "keys")


def exercise(app, workdir, args):
    """A handed-out exercise: a locked method stays put under its key, hidden and locked controls
    come back from the state, and the scene survives Ctrl+Shift+C, loading another scene, and
    Ctrl+Shift+V (the X clipboard, one line)."""
    handout = os.path.join(workdir, "exercise.normlab.json")
    other = os.path.join(workdir, "other.normlab.json")
    with open(handout, "w") as f:
        json.dump({"normlab_scene": 1, "tensor": {"source": "generated", "shape": [4, 6, 3, 3]},
                   "norm": {"method": "group", "groups": 3, "eps": 0.001},
                   "exercise": {"hide": ["method", "statistics"], "lock": ["eps"]}}, f)
    with open(other, "w") as f:
        json.dump({"normlab_scene": 1, "norm": {"method": "layer"}}, f)

    def script(tap, state, fail, xdotool):
        s = state()
        if s["method"] != "group" or s["hide"] != ["method", "statistics"] or s["lock"] != ["eps"]:
            fail(f"the exercise scene did not open as written: {s}")
        tap("2", {}, ["method", "hide", "lock"])  # the method is locked: its key changes nothing
        tap("minus", {"groups": 2}, ["method"])  # G is not locked
        tap("ctrl+shift+c", {}, ["method", "groups"])
        tap("ctrl+o", {"text_field": True})
        # Ctrl+A and the path's first character inside one frame (a fast typist, a slow frame):
        # the "/" must reach the field after Ctrl is up, not as Ctrl+/ (dropped).
        assert other.startswith("/")
        xdotool("key", "--delay", "0", "ctrl+a", "slash")
        xdotool("type", "--delay", "60", other[1:])
        tap("Return", {"method": "layer", "hide": [], "lock": [], "text_field": False})
        tap("3", {"method": "instance"})  # no exercise any more
        tap("ctrl+shift+v", {"method": "group", "groups": 2, "hide": ["method", "statistics"], "lock": ["eps"]})
        tap("1", {}, ["method"])

    tapping(app, workdir, ["--scene", handout] + args, script, "exercise")


def link(app, workdir, args):
    """The link (Ctrl+Shift+C / V, the browser's address): a lesson step in 中文 with G changed and
    presenter mode on, copied; the language, presenter mode and the step changed; pasted: all back."""

    def script(tap, state, fail, xdotool):
        s = state()
        if (s["lesson"], s["step"], s["language"], s["groups"]) != ("groupnorm-continuum", 2, "zh", 1):
            fail(f"--lesson-id groupnorm-continuum --step 2 --lang zh opened {s}")
        tap("equal", {"groups": 2})  # the continuum's next G: the experiment's setting, in the link's scene
        tap("p", {"presenter": True})
        tap("ctrl+shift+c", {}, ["lesson", "step", "groups"])
        tap("p", {"presenter": False})
        tap("l", {"language": "en"})
        tap("Right", {"step": 3, "groups": 4})
        tap("ctrl+shift+v", {"lesson": "groupnorm-continuum", "step": 2, "language": "zh", "groups": 2,
                             "presenter": True})

    tapping(app, workdir, ["--lesson-id", "groupnorm-continuum", "--step", "2", "--lang", "zh"] + args, script,
            "link")


def uploads(app, workdir, args):
    """Edits by key keep the tensor on the GPU: with NORMLAB_APP_TIMING=1 every recompute prints
    'x upload: N bytes'; the first (the tensor loaded) uploads x, each edit after it 0 bytes and
    keeps x's histogram."""
    npy = os.path.join(workdir, "uploads.npy")
    shape = (4, 8, 16, 16)
    count = shape[0] * shape[1] * shape[2] * shape[3]
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 8, 16, 16), }"
    header += " " * (63 - len(header) % 64) + "\n"
    with open(npy, "wb") as f:  # a file source: the case the app used to read and upload again
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(f"<{count}f", *[((i * 7919) % 1000) / 100.0 for i in range(count)]))

    def script(tap, state, fail, xdotool):
        s = state()
        if s["method"] != "group":
            fail(f"expected GroupNorm, got {s}")
        g = s["groups"]
        tap("equal", {"groups": g * 2})  # G: the next divisor of C = 8 (started at 2)
        tap("minus", {"groups": g})
        tap("2", {"method": "layer"})
        tap("4", {"method": "group"})
        tap("1", {"method": "batch"})
        tap("e", {"mode": "eval"})

    out = tapping(app, workdir, ["--input", npy, "--norm", "group", "--groups", "2"] + args, script, "uploads",
                  {"NORMLAB_APP_TIMING": "1"})
    lines = re.findall(r"x upload: (\d+) bytes \(x histogram (\w+)\)", out)
    print("\n".join(f"x upload: {b} bytes (x histogram {h})" for b, h in lines))
    if len(lines) < 7:
        sys.exit(f"FAIL: expected 7 recomputes or more, saw {len(lines)}:\n{out[-4000:]}")
    if lines[0] != (str(count * 4), "recomputed"):
        sys.exit(f"FAIL: the first recompute should upload the {count * 4} bytes of x, got {lines[0]}")
    edits = lines[1:]
    if any(e != ("0", "kept") for e in edits):
        sys.exit(f"FAIL: an edit uploaded x again or recomputed its histogram: {edits}")


def pictures(app, out, style, args):
    """The Pictures panel draws the style image (its exact pixel colours) only while a style is set."""
    _, _, style_rows = read_png(style)
    colors = {px for row in style_rows for px in row}
    _, rows = screenshot(app, out, args + ["--style-image", style])
    with_style = sum(px in colors for row in rows for px in row)
    _, rows = screenshot(app, out.replace(".png", "-plain.png"), args)
    without = sum(px in colors for row in rows for px in row)
    print(f"pixels of the style's colours: {with_style} with the style, {without} without")
    if with_style < len(style_rows) * len(style_rows[0]) or without * 20 > with_style:
        sys.exit("FAIL: the Pictures panel does not show the style image")


def main():
    mode, app = sys.argv[1], sys.argv[2]
    if mode == "screenshot":
        screenshot(app, sys.argv[3], sys.argv[4:])
    elif mode == "presenter":
        presenter(app, sys.argv[3], sys.argv[4:])
    elif mode == "presenter_shared":
        presenter(app, sys.argv[3], sys.argv[4:], min_share=0.06)
    elif mode == "methods":
        methods(app, sys.argv[3])
    elif mode == "highlight":
        highlight(app, sys.argv[3], sys.argv[4:])
    elif mode == "warns":
        p, _ = screenshot(app, sys.argv[3], sys.argv[5:])
        print(p.stderr.strip())
        if sys.argv[4] not in p.stderr:
            sys.exit(f"FAIL: stderr does not mention {sys.argv[4]!r}")
    elif mode == "keys":
        keys(app, sys.argv[3], sys.argv[4:])
    elif mode == "exercise":
        exercise(app, sys.argv[3], sys.argv[4:])
    elif mode == "link":
        link(app, sys.argv[3], sys.argv[4:])
    elif mode == "uploads":
        uploads(app, sys.argv[3], sys.argv[4:])
    elif mode == "pictures":
        pictures(app, sys.argv[3], sys.argv[4], sys.argv[5:])
    elif mode == "error":
        error(app, int(sys.argv[3]), sys.argv[4:])
    else:
        sys.exit("unknown mode " + mode)
    print("PASS")


if __name__ == "__main__":
    main()
