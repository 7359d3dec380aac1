#!/usr/bin/python3
"""Training steps per second: normlab-cli train on the Vulkan device beside PyTorch's CPU, same run.

For each norm (none, batch, layer, group with G=4, rms): the mlp of 4 hidden layers of 32 (ReLU, norm
before the activation), batch 32, SGD with momentum 0.9, on spirals. normlab: `normlab-cli train --bench`
(steps per second from the first submission to the last step's completion; setup and shader
compilation excluded). PyTorch: the same module (tests/golden/golden_train.py's Mlp) with
torch.set_num_threads(THREADS), a full step each time (zero_grad, forward, cross-entropy, backward,
optimizer step, loss.item()), after 20 warm-up steps. A test-time tool: normlab never needs PyTorch.

Usage: /usr/bin/python3 bench/train_bench.py [--cli build/bin/normlab-cli] [--steps 500] [--threads 2] [--repeat 3]
Each figure is the best of --repeat runs, normlab's and PyTorch's interleaved. Prints a Markdown table
with the device name, the date and the machine's load average (other work on the CPUs slows both sides:
lavapipe runs on the same cores).
"""
import argparse
import datetime
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "golden"))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from golden_train import Mlp  # noqa: E402

NORMS = ["none", "batch", "layer", "group", "rms"]


def config(norm):
    return {"norm": norm, "depth": 4, "width": 32, "activation": "relu", "placement": "before",
            "groups": 4 if norm == "group" else 1, "classes": 2, "batch": 32, "lr": 0.05, "momentum": 0.9}


def normlab_run(cli, cfg, steps, per_submit):
    args = [cli, "train", "--model", "mlp", "--depth", str(cfg["depth"]), "--width", str(cfg["width"]),
            "--norm", cfg["norm"], "--groups", str(cfg["groups"]), "--batch", str(cfg["batch"]),
            "--steps", str(steps), "--lr", str(cfg["lr"]), "--optimizer", "sgd", "--samples", "1024",
            "--eval-every", "0", "--steps-per-submit", str(per_submit), "--bench"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    rate = float(re.search(r"bench: ([0-9.]+) steps/s", out).group(1))
    device = re.search(r" on (.*?); last step", out).group(1)
    return rate, device


def torch_run(cfg, steps, warmup=20):
    torch.manual_seed(0)
    model = Mlp(cfg)
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=cfg["momentum"])
    x = torch.randn(1024, 2)
    y = torch.randint(0, cfg["classes"], (1024,))
    model.train()
    start = None
    for t in range(warmup + steps):
        if t == warmup:
            start = time.perf_counter()
        idx = torch.randint(0, 1024, (cfg["batch"],))
        opt.zero_grad()
        loss = F.cross_entropy(model(x[idx]), y[idx])
        loss.backward()
        opt.step()
        loss.item()
    return steps / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "bin", "normlab-cli"))
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--steps-per-submit", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.use_deterministic_algorithms(False)
    rows, device = [], "?"
    for norm in NORMS:
        cfg = config(norm)
        ours, theirs = 0.0, 0.0
        for _ in range(a.repeat):
            rate, device = normlab_run(a.cli, cfg, a.steps, a.steps_per_submit)
            ours, theirs = max(ours, rate), max(theirs, torch_run(cfg, a.steps))
        rows.append((norm, ours, theirs))
    print(f"mlp 4×32 ReLU, batch 32, SGD momentum 0.9, {a.steps} steps; normlab on {device} "
          f"({a.steps_per_submit} steps per submission), PyTorch {torch.__version__} CPU with {a.threads} threads; "
          f"{datetime.date.today().isoformat()}; best of {a.repeat}; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs\n")
    print("| norm | normlab steps/s | PyTorch CPU steps/s | ratio |")
    print("|---|---:|---:|---:|")
    for norm, ours, theirs in rows:
        print(f"| {norm} | {ours:.0f} | {theirs:.0f} | {ours / theirs:.2f}× |")


if __name__ == "__main__":
    main()
