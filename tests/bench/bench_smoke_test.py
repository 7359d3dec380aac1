#!/usr/bin/env python3
"""normlab-bench as the README runs it, on two small shapes (label bench):

  bench_smoke_test.py NORMLAB_BENCH WORKDIR

every record of --json names its case, shape and plan, has positive forward and backward times and
the device's copy beside them, and as many records as cases × shapes; a bad case or shape exits 2
with one line and writes no JSON."""
import json
import math
import os
import subprocess
import sys

SHAPES = [[2, 4, 8, 8], [3, 5, 7]]
NORMS = ["batch-train", "layer-CHW", "group-C", "rms"]


def run(bench, args):
    return subprocess.run([bench] + args, capture_output=True, text=True, timeout=120)


def main():
    bench, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, "bench-smoke.json")
    if os.path.exists(out):
        os.remove(out)
    args = ["--reps", "3", "--json", out]
    for s in SHAPES:
        args += ["--shape", ",".join(map(str, s))]
    for n in NORMS:
        args += ["--norm", n]
    p = run(bench, args)
    if p.returncode != 0:
        sys.exit(f"FAIL: normlab-bench exited {p.returncode}\n{p.stderr}")
    records = json.load(open(out))
    fail = []
    if sorted((r.get("norm"), r.get("shape")) for r in records) != sorted((n, s) for n in NORMS for s in SHAPES):
        fail.append(f"{len(records)} records for {len(SHAPES)} shapes x {len(NORMS)} cases")
    for r in records:
        name = f"{r.get('norm')} {r.get('shape')}"
        if r.get("norm") not in NORMS or r.get("shape") not in SHAPES:
            fail.append(f"{name}: a case or shape not asked for")
            continue
        if r["elements"] != math.prod(r["shape"]):
            fail.append(f"{name}: {r['elements']} elements")
        for key in ("gpu_ms", "copy_ms", "backward_gpu_ms", "end_to_end_ms"):
            if not (isinstance(r.get(key), (int, float)) and r[key] > 0):
                fail.append(f"{name}: {key} = {r.get(key)}")
        if not r.get("plan") or not r.get("device"):
            fail.append(f"{name}: no plan or device")
    if fail:
        sys.exit("FAIL: " + "; ".join(fail))
    os.remove(out)
    for bad in (["--norm", "nope"], ["--shape", "2,x"]):
        p = run(bench, bad + ["--json", out])
        lines = p.stderr.strip().splitlines()
        if p.returncode != 2 or len(lines) != 1 or not lines[0].startswith("error:") or os.path.exists(out):
            sys.exit(f"FAIL: {' '.join(bad)}: exit {p.returncode}, stderr {p.stderr!r}, json written "
                     f"{os.path.exists(out)}")
    print(f"PASS: {len(records)} records")


if __name__ == "__main__":
    main()
