#!/usr/bin/env python3
"""bench/clock_report.py on recorded nvidia-smi lines: parsing, the window of each case, the verdict."""
import datetime
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
import clock_report  # noqa: E402

# As nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.max.sm --format=csv,noheader,nounits
# prints them on an H200 (two GPUs), with the lines a run can also leave: N/A, a header, a torn end.
SAMPLE = """2026/12/01 20:10:11.000, 0, 1980, 1980
2026/12/01 20:10:11.000, 1, 345, 1980
2026/12/01 20:10:11.100, 0, 1980, 1980
2026/12/01 20:10:11.200, 0, 1410, 1980
timestamp, index, clocks.current.sm [MHz], clocks.max.sm [MHz]
2026/12/01 20:10:11.300, 0, [N/A], 1980
2026/12/01 20:10:11.400, 0, 1965, 1980
2026/12/01 20:10:11.5
"""


def unix(s):
    return datetime.datetime.strptime(s, "%Y/%m/%d %H:%M:%S.%f").timestamp()


def check(cond, what):
    if not cond:
        print("FAILED:", what)
        sys.exit(1)


samples = clock_report.parse_samples(SAMPLE.splitlines(), gpu=0)
check([s[1] for s in samples] == [1980, 1980, 1410, 1965], f"GPU 0's clocks parsed: {samples}")
check(clock_report.parse_samples(SAMPLE.splitlines(), gpu=1)[0][1] == 345, "GPU 1 kept apart")
t0 = unix("2026/12/01 20:10:11.000")
check(clock_report.clock_of(samples, t0 + 0.05, t0 + 0.15) == (1980, 1980, "full"), "a case at full clock")
check(clock_report.clock_of(samples, t0 + 0.15, t0 + 0.25) == (1410, 1980, "lowered"), "a case with a lowered sample")
check(clock_report.clock_of(samples, t0 + 0.31, t0 + 0.33)[2] == "lowered", "a short case takes the sample before it")
check(clock_report.clock_of(samples, t0 - 5, t0 - 4) == (None, None, "unknown"), "no sample: unknown")

# The whole script on files, --annotate writing the verdicts into the bench records.
with tempfile.TemporaryDirectory() as d:
    csv, js = os.path.join(d, "gpu-clock.csv"), os.path.join(d, "gpu.json")
    open(csv, "w").write(SAMPLE)
    recs = [{"norm": "instance", "shape": [64, 64, 128, 128], "timed_from_unix": t0, "timed_to_unix": t0 + 0.1},
            {"norm": "rms", "shape": [64, 64, 128, 128], "timed_from_unix": t0 + 0.15, "timed_to_unix": t0 + 0.25}]
    json.dump(recs, open(js, "w"))
    out = subprocess.run([sys.executable, os.path.join(sys.argv[1], "bench", "clock_report.py"), csv, js,
                          "--annotate"], capture_output=True, text=True, check=True).stdout
    check("| instance | 64×64×128×128 | 1980 | 1980 | full |" in out, out)
    check("| rms | 64×64×128×128 | 1410 | 1980 | lowered |" in out, out)
    got = json.load(open(js))
    check([r["clock"] for r in got] == ["full", "lowered"] and got[1]["sm_clock_min_mhz"] == 1410, str(got))
    # bench/report.py marks the lowered case instead of mixing it in.
    import report  # noqa: E402
    check([report.case_label(r) for r in got] == ["instance", "rms (lowered clock)"], "report.py's marks")
print("clock report: ok")
