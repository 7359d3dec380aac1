#!/usr/bin/env python3
"""The Train view's sweep in the desktop app (issue 40), run under xvfb-run with NORMLAB_VALIDATION=1:

  train_sweep_test.py APP CLI WORKDIR [app args...]

starts a sweep (norm=batch,group × batch=4,16 over the view's first run, 30 steps) in the Sweep tab at
1600×900 with --train-sweep-export: the app draws frames until the sweep has finished, then writes its CSV
and the figure's PNG as Export CSV and Export PNG do. The CSV must have normlab-cli train --sweep's columns
and, for the same grid, its numbers, bit for bit (a sweep's runs plan the CLI's program: no decision
boundary's grid); the PNG must be the figure (not blank). The window is saved as a screenshot at
1600×900 and at 1024×768 (WORKDIR/train-sweep-*.png). Then bad sweep options exit 2 with one line.
A scene file whose view.train.sweep starts the same grid (norm listed out of the view's order) opens the Sweep
tab and runs it to the same CSV (WORKDIR/train-sweep-scene-1600x900.png); a scene with a bad sweep exits 2.
"""
import csv
import json
import os
import subprocess
import sys

from app_test import error, read_png, run, screenshot

SWEEP = ["--train-sweep", "norm=batch,group", "--train-sweep", "batch=4,16"]
# The view's first run (views::default_train_config) with 30 steps and GroupNorm's G = 4 (sweep_base), as
# normlab-cli's options.
CLI_BASE = ["--model", "mlp", "--data", "spirals", "--classes", "3", "--depth", "3", "--width", "16", "--norm",
            "batch", "--groups", "4", "--batch", "32", "--steps", "30", "--lr", "0.1", "--optimizer", "sgd",
            "--momentum", "0.9"]


# The same grid as a scene: CLI_BASE as the Train view's run, the sweep's keys as the Sweep tab's fields.
SCENE_BASE = {"model": "mlp", "data": "spirals", "classes": 3, "depth": 3, "width": 16, "norm": "batch", "batch": 32,
              "steps": 30, "lr": 0.1, "optimizer": "sgd", "momentum": 0.9}


def scene_file(workdir, sweep, name):
    path = os.path.join(workdir, name)
    with open(path, "w") as f:
        json.dump({"normlab_scene": 1, "view": {"heatmap": "stats", "train": {"base": SCENE_BASE, "runs": [{}],
                                                                              "sweep": sweep}}}, f)
    return path


def rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def sweep(app, workdir, size, extra):
    export = os.path.join(workdir, f"sweep-export-{size}")
    for name in ("normlab-sweep.csv", "normlab-sweep.png"):
        if os.path.exists(os.path.join(export, name)):
            os.remove(os.path.join(export, name))
    w, h = size.split("x")
    shot = os.path.join(workdir, f"train-sweep-{size}.png")
    args = ["--train", "--train-steps", "30"] + SWEEP + ["--train-sweep-export", "--export-dir", export,
                                                        "--width", w, "--height", h]
    p, _ = screenshot(app, shot, args + extra)
    return export, p


def compare(got, want, fail, what):
    if got[0] != want[0] or len(got) != 5 or len(want) != 5:
        fail.append(f"{what}: the CSV's header or rows differ from normlab-cli's: {got[0]} / {want[0]}")
    for g, x in zip(got[1:], want[1:]):
        if g[:6] != x[:6]:
            fail.append(f"{what}: row {g} differs from normlab-cli's {x}")
        if not float(g[6]) > 0:
            fail.append(f"{what}: row {g}: no steps per second")


def scene_sweep(app, workdir, want, extra, fail):
    """The grid as a scene's view.train.sweep, opened with --scene: the Sweep tab runs it to normlab-cli's CSV."""
    scene = scene_file(workdir, {"norm": ["group", "batch"], "batch": [4, 16], "start": True}, "sweep.normlab.json")
    export = os.path.join(workdir, "sweep-export-scene")
    path = os.path.join(export, "normlab-sweep.csv")
    if os.path.exists(path):
        os.remove(path)
    screenshot(app, os.path.join(workdir, "train-sweep-scene-1600x900.png"),
               ["--scene", scene, "--train-sweep-export", "--export-dir", export, "--width", "1600", "--height",
                "900"] + extra)
    got = rows(path)
    print("scene:", got)
    compare(got, want, fail, "the scene's sweep")
    bad = scene_file(workdir, {"norm": ["none", "batch"], "batch": [1, 4]}, "bad-sweep.normlab.json")
    error(app, 2, ["--scene", bad])  # BatchNorm with one sample per batch


def main():
    app, cli, workdir, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    export, _ = sweep(app, workdir, "1600x900", extra)
    got = rows(os.path.join(export, "normlab-sweep.csv"))
    want_path = os.path.join(workdir, "sweep-cli.csv")
    c = subprocess.run([cli, "train"] + CLI_BASE + ["--sweep", "norm=batch,group", "--sweep", "batch=4,16", "-q",
                                                    "--sweep-csv", want_path], capture_output=True, text=True)
    if c.returncode != 0:
        sys.exit(f"FAIL: normlab-cli exited {c.returncode}: {c.stderr}")
    want = rows(want_path)
    print("app:", got)
    print("cli:", want)
    fail = []
    compare(got, want, fail, "--train-sweep")
    pw, ph, pix = read_png(os.path.join(export, "normlab-sweep.png"))
    colours = len({px for row in pix[::3] for px in row[::3]})
    print(f"the figure's PNG: {pw}x{ph}, {colours} colours")
    if pw < 300 or ph < 200 or colours < 20:
        fail.append(f"the figure's PNG is {pw}x{ph} with {colours} colours")
    export_small, _ = sweep(app, workdir, "1024x768", extra)
    if rows(os.path.join(export_small, "normlab-sweep.csv"))[0] != want[0]:
        fail.append("the 1024x768 window's CSV has other columns")
    scene_sweep(app, workdir, want, extra, fail)
    if fail:
        sys.exit("FAIL: " + "; ".join(fail))
    error(app, 2, ["--train", "--train-sweep", "norm=batch,magic"])  # an unknown norm
    error(app, 2, ["--train", "--train-sweep", "norm=none,batch", "--train-sweep", "batch=1,4"])  # batch 1
    error(app, 2, ["--train", "--train-sweep-export"])  # no sweep
    error(app, 2, ["--train-sweep", "batch=4,8"])  # without --train
    print("PASS")


if __name__ == "__main__":
    main()
