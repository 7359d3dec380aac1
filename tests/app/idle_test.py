#!/usr/bin/env python3
"""An idle desktop app draws nothing: run bin/normlab (as a person would, no --max-fps) with
--state-file (written once per drawn frame), let it settle, then check that for 3 s no frame is drawn
and the process uses under 5 % of a core; a mouse move over the window draws frames again, and then
the app settles back to none.
usage: idle_test.py APP WORKDIR"""
import json
import os
import subprocess
import sys
import time

IDLE_S = 3.0
MAX_CORE_SHARE = 0.05


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def main():
    app, workdir = sys.argv[1], sys.argv[2]
    state_path = os.path.join(workdir, "idle_state.json")
    if os.path.exists(state_path):
        os.remove(state_path)
    log = open(os.path.join(workdir, "idle_app.log"), "w+")
    proc = subprocess.Popen([app, "--state-file", state_path, "--width", "1280", "--height", "720"], stdout=log,
                            stderr=subprocess.STDOUT, env=dict(os.environ, NORMLAB_VALIDATION="1"))

    def fail(msg):
        proc.kill()
        proc.wait()
        log.seek(0)
        sys.exit(f"FAIL: {msg}\napp output:\n{log.read()[-3000:]}")

    def frame():
        try:
            return json.loads(open(state_path).read())["frame"]
        except (OSError, ValueError):
            return 0

    def settle(what):
        """Waits until no frame has been drawn for 1 s (the pacer draws for 0.25 s after a wake)."""
        end = time.monotonic() + 60
        last, since = frame(), time.monotonic()
        while time.monotonic() < end:
            if proc.poll() is not None:
                fail(f"the app exited ({proc.returncode}) while {what}")
            time.sleep(0.1)
            now = frame()
            if now != last:
                last, since = now, time.monotonic()
            elif last > 0 and time.monotonic() - since > 1.0:
                return last
        fail(f"the app never stopped drawing {what}")

    try:
        f0 = settle("starting")
        c0 = cpu_seconds(proc.pid)
        time.sleep(IDLE_S)
        f1, c1 = frame(), cpu_seconds(proc.pid)
        share = (c1 - c0) / IDLE_S
        print(f"idle {IDLE_S:.0f} s: {f1 - f0} frames drawn, {share * 100:.1f} % of a core")
        if f1 != f0:
            fail(f"an idle app drew {f1 - f0} frames in {IDLE_S} s")
        if share > MAX_CORE_SHARE:
            fail(f"an idle app used {share * 100:.1f} % of a core (at most {MAX_CORE_SHARE * 100:.0f} %)")
        wid = subprocess.run(["xdotool", "search", "--sync", "--name", "^normlab$"], capture_output=True,
                             text=True, timeout=30).stdout.split()
        if not wid:
            fail("no window named normlab")
        subprocess.run(["xdotool", "mousemove", "--window", wid[0], "300", "300"], check=True, timeout=30)
        subprocess.run(["xdotool", "mousemove", "--window", wid[0], "340", "320"], check=True, timeout=30)
        f2 = settle("after the mouse moved")
        print(f"a mouse move: {f2 - f1} frames, then none")
        if f2 <= f1:
            fail("a mouse move over the window drew no frame")
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
