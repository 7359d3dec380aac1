#!/usr/bin/python3
"""Training steps per second: normlab-cli train on its Vulkan device beside PyTorch, same run.

For each norm: the mlp of 4 hidden layers of 32 (ReLU, norm before the activation) on spirals, or the
cnn of 4 conv layers of 16 channels (ReLU, norm after each conv, AvgPool2d(2) after layers 1 and 3) on
textures; batch 32, SGD with momentum 0.9. normlab: `normlab-cli train --bench` (steps per second from the
first submission to the last step's completion; setup and shader compilation excluded). PyTorch: the same
module (tests/golden/golden_train.py's Mlp, golden_train_ops.py's Cnn) doing full steps (zero_grad,
forward, cross-entropy, backward, optimizer step) after 20 warm-up steps:
- on the CPU with torch.set_num_threads(THREADS), reading each step's loss (loss.item());
- on CUDA (--cuda, where torch.cuda.is_available()), without a host read per step: the losses stay on
  the device and one synchronize ends the timing, as normlab's runs read back only at the end.
A test-time tool: normlab never needs PyTorch.

Usage: python3 bench/train_bench.py [--cli build/bin/normlab-cli] [--model mlp|cnn|both] [--steps 500]
       [--threads 2] [--repeat 3] [--cuda] [--no-cpu]
Each figure is the best of --repeat runs, normlab's and PyTorch's interleaved. Prints a Markdown table per
model with the device name, the date and the machine's load average (other work on the CPUs slows both
sides: lavapipe runs on the same cores).
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
import golden_train_ops  # noqa: E402
from golden_train import Mlp  # noqa: E402

NORMS = {"mlp": ["none", "batch", "layer", "group", "rms"],
         "cnn": ["none", "batch", "layer", "instance", "group", "rms"]}
SHAPE = {"mlp": "4×32", "cnn": "4 conv layers × 16 channels"}


def config(model, norm):
    groups = 4 if norm == "group" else 1
    if model == "mlp":
        return {"model": "mlp", "norm": norm, "depth": 4, "width": 32, "activation": "relu", "placement": "before",
                "groups": groups, "classes": 2, "batch": 32, "lr": 0.05, "momentum": 0.9, "data": "spirals"}
    return {"model": "cnn", "norm": norm, "depth": 4, "channels": 16, "activation": "relu", "groups": groups,
            "classes": 4, "batch": 32, "lr": 0.05, "momentum": 0.9, "data": "textures"}


def normlab_run(cli, cfg, steps, per_submit):
    size = ["--width", str(cfg["width"])] if cfg["model"] == "mlp" else ["--channels", str(cfg["channels"])]
    args = [cli, "train", "--model", cfg["model"], "--depth", str(cfg["depth"]), *size, "--norm", cfg["norm"],
            "--groups", str(cfg["groups"]), "--batch", str(cfg["batch"]), "--classes", str(cfg["classes"]),
            "--data", cfg["data"], "--steps", str(steps), "--lr", str(cfg["lr"]), "--optimizer", "sgd",
            "--samples", "1024", "--eval-every", "0", "--steps-per-submit", str(per_submit), "--bench"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    rate = float(re.search(r"bench: ([0-9.]+) steps/s", out).group(1))
    device = re.search(r" on (.*?); last step", out).group(1)
    return rate, device


def torch_model(cfg):
    if cfg["model"] == "mlp":
        return Mlp(cfg), torch.randn(1024, 2)
    golden_train_ops.CNN.update({"depth": cfg["depth"], "channels": cfg["channels"], "classes": cfg["classes"]})
    return golden_train_ops.Cnn(cfg["norm"], cfg["activation"], cfg["groups"]), torch.randn(1024, 1, 16, 16)


def torch_run(cfg, steps, device, warmup=20):
    torch.manual_seed(0)
    model, x = torch_model(cfg)
    model, x = model.to(device), x.to(device)
    y = torch.randint(0, cfg["classes"], (1024,), device=device)
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=cfg["momentum"])
    cuda = device == "cuda"
    losses = torch.zeros(warmup + steps, device=device)
    model.train()
    start = None
    for t in range(warmup + steps):
        if t == warmup:
            if cuda:
                torch.cuda.synchronize()
            start = time.perf_counter()
        idx = torch.randint(0, 1024, (cfg["batch"],), device=device)
        opt.zero_grad()
        loss = F.cross_entropy(model(x[idx]), y[idx])
        loss.backward()
        opt.step()
        if cuda:
            losses[t] = loss.detach()
        else:
            loss.item()
    if cuda:
        torch.cuda.synchronize()
    return steps / (time.perf_counter() - start)


def bench_model(a, model):
    sides = (["cpu"] if not a.no_cpu else []) + (["cuda"] if a.cuda else [])
    rows, device = [], "?"
    for norm in NORMS[model]:
        cfg = config(model, norm)
        best = {"normlab": 0.0, **{s: 0.0 for s in sides}}
        for _ in range(a.repeat):
            rate, device = normlab_run(a.cli, cfg, a.steps, a.steps_per_submit)
            best["normlab"] = max(best["normlab"], rate)
            for s in sides:
                best[s] = max(best[s], torch_run(cfg, a.steps, s))
        rows.append((norm, best))
    gpu = f", PyTorch CUDA on {torch.cuda.get_device_name(0)}" if a.cuda else ""
    print(f"{model} {SHAPE[model]}, ReLU, batch 32, SGD momentum 0.9, {a.steps} steps; normlab on {device} "
          f"({a.steps_per_submit} steps per submission); PyTorch {torch.__version__}"
          f"{'' if a.no_cpu else f' CPU with {a.threads} threads'}{gpu}; {datetime.date.today().isoformat()}; "
          f"best of {a.repeat}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n")
    head = "| norm | normlab steps/s |" + "".join(f" PyTorch {s.upper()} steps/s | normlab ÷ {s.upper()} |"
                                                  for s in sides)
    print(head)
    print("|---|---:|" + "---:|---:|" * len(sides))
    for norm, best in rows:
        cells = "".join(f" {best[s]:.0f} | {best['normlab'] / best[s]:.2f}× |" for s in sides)
        print(f"| {norm} | {best['normlab']:.0f} |{cells}")
    print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "bin", "normlab-cli"))
    ap.add_argument("--model", choices=["mlp", "cnn", "both"], default="mlp")
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--steps-per-submit", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cuda", action="store_true", help="also time PyTorch on CUDA")
    ap.add_argument("--no-cpu", action="store_true", help="leave PyTorch's CPU out")
    a = ap.parse_args()
    if a.cuda and not torch.cuda.is_available():
        sys.exit("train_bench: --cuda but this PyTorch has no CUDA device")
    torch.set_num_threads(a.threads)
    torch.use_deterministic_algorithms(False)
    for model in (["mlp", "cnn"] if a.model == "both" else [a.model]):
        bench_model(a, model)


if __name__ == "__main__":
    main()
