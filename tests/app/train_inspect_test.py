#!/usr/bin/env python3
"""Inspect layer and the layers' strips in the desktop app's Train view, run under xvfb-run with
NORMLAB_VALIDATION=1 and TMPDIR set to WORKDIR:

  train_inspect_test.py APP OUT.png WORKDIR

opens the Train view with a GroupNorm run (G = 4) and a BatchNorm run, runs their first 20 steps and opens
the first run's layer 2 as the tensor (--train-inspect 2), renders a few frames with --state-file and
writes OUT.png. Checks from the state file: the tensor views are back (the Train view hidden), the method is
GroupNorm with G = 4 on the layer's 32 × 16 activations, the tensor is the .npy file the app wrote in
TMPDIR/normlab-train/ (a 2-D float32 array of that shape), and each run has the strips' columns of its 20
steps (a column every 10 steps of the 1,000). Then a layer past the model's depth, and --train-inspect
without --train, exit 2 with one line.
"""
import json
import os
import struct
import sys

from app_test import error, screenshot


def npy_shape(path):
    """The shape in a .npy file's header (version 1.0) and its dtype."""
    data = open(path, "rb").read()
    if data[:6] != b"\x93NUMPY":
        sys.exit(f"FAIL: {path} is not a .npy file")
    (hlen,) = struct.unpack("<H", data[8:10])
    header = data[10:10 + hlen].decode()
    shape = header.split("'shape':")[1].split(")")[0].strip(" (")
    descr = header.split("'descr':")[1].split(",")[0].strip(" '")
    return [int(v) for v in shape.split(",") if v.strip()], descr


def main():
    app, out, workdir = sys.argv[1], sys.argv[2], sys.argv[3]
    state_path = os.path.join(workdir, "train_inspect_state.json")
    if os.path.exists(state_path):
        os.remove(state_path)
    args = ["--train", "--train-runs", "group,batch", "--train-inspect", "2", "--frames", "20",
            "--state-file", state_path]
    p, _ = screenshot(app, out, args)
    print(p.stdout.strip())
    s = json.loads(open(state_path).read())
    print(json.dumps({k: s[k] for k in ("method", "groups", "tensor_dims", "tensor_file", "train")}))
    fail = []
    if s["train"]["shown"]:
        fail.append("the Train view is still shown")
    if s["method"] != "group" or s["groups"] != 4:
        fail.append(f"method {s['method']} G={s['groups']} instead of the run's GroupNorm, G = 4")
    if s["tensor_dims"] != [32, 16]:
        fail.append(f"tensor dims {s['tensor_dims']} instead of the layer's [32, 16]")
    f = s["tensor_file"]
    want_dir = os.path.join(os.path.realpath(workdir), "normlab-train")
    if not f or os.path.dirname(os.path.realpath(f)) != want_dir or not os.path.exists(f):
        fail.append(f"the tensor's file {f!r} is not a file in {want_dir}")
    elif npy_shape(f) != ([32, 16], "<f4"):
        fail.append(f"{f}: {npy_shape(f)} instead of [32, 16] float32")
    elif not os.path.basename(f) == "train-run1-group-layer2-step20.npy":
        fail.append(f"{f}: not named after the run, the layer and the step")
    for r in s["train"]["runs"]:
        if r["steps"] != 20 or r["strip_every"] != 10 or r["strip_columns"] != 2:
            fail.append(f"run {r['norm']}: {r['steps']} steps, strips every {r['strip_every']} with "
                        f"{r['strip_columns']} columns (20 steps, every 10, 2 columns wanted)")
    if fail:
        sys.exit("FAIL: " + "; ".join(fail))
    error(app, 2, ["--train", "--train-inspect", "4"])  # the default mlp has 3 layers
    error(app, 2, ["--train-inspect", "1"])  # without --train
    print("PASS")


if __name__ == "__main__":
    main()
