#!/usr/bin/env python3
"""The SM clock while each normlab-bench case was timed (scripts/gpu-bench.sh).

clock_report.py CLOCK_CSV BENCH_JSON [--gpu INDEX] [--annotate]

CLOCK_CSV holds nvidia-smi samples, one line each (--query-gpu=timestamp,index,clocks.sm,clocks.max.sm
--format=csv,noheader,nounits): "2026/12/01 20:10:11.123, 0, 1980, 1980". Each bench record
carries timed_from_unix and timed_to_unix, the part where its kernels and copies ran back to
back. Prints a Markdown table: per case, the lowest and highest SM clock over that part (and the
sample just before it), "lowered" when the lowest is under 0.9 of the GPU's maximum SM clock.
--annotate writes sm_clock_min_mhz, sm_clock_max_mhz and clock ("full", "lowered" or "unknown")
into BENCH_JSON, which bench/report.py then marks. Lines that do not parse ("[N/A]", a header,
a torn last line) are skipped.
"""
import argparse
import datetime
import json
import sys

LOWERED = 0.9


def parse_samples(lines, gpu=0):
    """(Unix seconds, SM MHz, max SM MHz) of GPU `gpu`, in the order given."""
    out = []
    for row in lines:
        f = [x.strip() for x in row.split(",")]
        if len(f) != 4:
            continue
        try:
            t = datetime.datetime.strptime(f[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
            if int(f[1]) != gpu:
                continue
            out.append((t, float(f[2]), float(f[3])))
        except ValueError:
            continue
    return out


def clock_of(samples, start, end):
    """(lowest, highest, verdict) over [start, end] and the last sample before it."""
    before = [s for s in samples if s[0] < start]
    window = ([before[-1]] if before else []) + [s for s in samples if start <= s[0] <= end]
    if not window:
        return None, None, "unknown"
    lo, hi = min(s[1] for s in window), max(s[1] for s in window)
    top = max(s[2] for s in window)
    return lo, hi, "lowered" if lo < LOWERED * top else "full"


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("clock_csv")
    ap.add_argument("bench_json")
    ap.add_argument("--gpu", type=int, default=0, help="nvidia-smi index of the GPU the bench ran on")
    ap.add_argument("--annotate", action="store_true", help="write the clocks into BENCH_JSON")
    a = ap.parse_args(argv)
    with open(a.clock_csv) as f:
        samples = parse_samples(f, a.gpu)
    with open(a.bench_json) as f:
        records = json.load(f)
    print("| case | shape | SM MHz min | SM MHz max | clock |\n|---|---|---:|---:|---|")
    for r in records:
        lo, hi, verdict = clock_of(samples, r.get("timed_from_unix", 0), r.get("timed_to_unix", 0))
        r["clock"] = verdict
        if lo is not None:
            r["sm_clock_min_mhz"], r["sm_clock_max_mhz"] = lo, hi
        shape = "×".join(str(d) for d in r["shape"])
        cells = f"{lo:.0f} | {hi:.0f}" if lo is not None else "– | –"
        print(f"| {r['norm']} | {shape} | {cells} | {verdict} |")
    if a.annotate:
        with open(a.bench_json, "w") as f:
            json.dump(records, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
