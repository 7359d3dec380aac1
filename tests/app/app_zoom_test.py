#!/usr/bin/env python3
"""The desktop heatmap's zoom with a real mouse under Xvfb (xdotool), run by ctest under xvfb-run.

  app_zoom_test.py APP WORKDIR [app args...]

Ctrl+wheel over the middle of the heatmap zooms about the cursor (the element under it stays under
it), a click on the zoomed heatmap selects the element under the pointer (its statistic), the Fit
button over the image shows the whole tensor again. The app runs as app_test.py's tapping tests run it (5 fps,
--state-file, NORMLAB_VALIDATION=1).
"""
import subprocess
import sys
import time

from app_test import tapping


def zoom(app, workdir, args):
    def script(tap, state, fail, xdotool):
        wid = subprocess.run(["xdotool", "search", "--name", "^normlab$"], capture_output=True, text=True,
                             timeout=30).stdout.split()[0]

        def wait(pred, what):
            end = time.monotonic() + 30
            while time.monotonic() < end:
                s = state()
                if s is not None and pred(s):
                    return s
                time.sleep(0.1)
            fail(f"timed out waiting for {what}; state {state()}")

        def point(x, y):
            xdotool("mousemove", "--window", wid, str(round(x)), str(round(y)))

        s = state()
        if s["heatmap_zoom"] != 1 or "middle_probe" not in s:
            fail(f"the heatmap starts zoomed or without an element near its middle: {s}")
        x, y, w, h = s["heatmap_rect"]
        before = s["middle_probe"]
        point(before["at"][0] + before["cell"] / 2, before["at"][1] + before["cell"] / 2)
        wait(lambda s: s.get("hover_probe", {}).get("index") == before["index"], "the pointer over an element")
        xdotool("keydown", "ctrl")
        time.sleep(0.3)
        for _ in range(6):
            xdotool("click", "4")  # a wheel notch up
            time.sleep(0.05)
        time.sleep(0.3)
        xdotool("keyup", "ctrl")
        s = wait(lambda s: s["heatmap_zoom"] > 2.0, "Ctrl+wheel to zoom in")
        under = s.get("hover_probe", {}).get("index")
        print(f"Ctrl+wheel: zoom {s['heatmap_zoom']:.2f}, the element under the cursor: index {before['index']} "
              f"-> {under}, cell {before['cell']:.1f} -> {s['middle_probe']['cell']:.1f} px")
        if under != before["index"]:
            fail(f"the element under the cursor moved: index {before['index']} -> {under}")
        if s["middle_probe"]["cell"] < 2 * before["cell"]:
            fail(f"the cells grew from {before['cell']} to only {s['middle_probe']['cell']} px")
        # A click on the zoomed heatmap away from its middle, where the pointer is over an element (not a gap).
        for fx, fy in [(0.3, 0.35), (0.35, 0.3), (0.25, 0.4), (0.4, 0.25), (0.7, 0.65), (0.65, 0.7)]:
            point(x + w * fx, y + h * fy)
            time.sleep(0.5)
            if "hover_probe" in wait(lambda s: True, "the state"):
                break
        xdotool("click", "1")
        s = wait(lambda s: s["selected_stat"] != -1, "a click to select")
        want = s["hover_probe"]["stat"] if "hover_probe" in s else None
        print(f"click on the zoomed heatmap: statistic {s['selected_stat']} selected (under the pointer: {want})")
        if want is None or s["selected_stat"] != want:
            fail(f"the click selected statistic {s['selected_stat']}, the element under the pointer has {want}")
        fx, fy, fw, fh = s["heatmap_fit"]
        point(fx + fw / 2, fy + fh / 2)
        time.sleep(0.3)
        xdotool("click", "1")
        s = wait(lambda s: s["heatmap_zoom"] == 1, "the Fit button to show the whole tensor")
        print(f"Fit: zoom {s['heatmap_zoom']}, selected statistic {s['selected_stat']}")

    tapping(app, workdir, args, script, "zoom")


if __name__ == "__main__":
    zoom(sys.argv[1], sys.argv[2], sys.argv[3:])
    print("PASS")
