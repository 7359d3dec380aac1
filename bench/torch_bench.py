#!/usr/bin/python3
"""Times PyTorch's CPU (or CUDA) normalization on the same cases and shapes as normlab-bench,
and its backward (y.backward(dy): dx, and dγ/dβ where the case has them) as torch_backward_ms.

Usage: torch_bench.py --cases normlab.json --out torch.json [--device cpu|cuda] [--threads 2]
Reads normlab-bench's JSON records (norm, shape, params) and writes one record per case
with torch_ms (median over repetitions after warm-up). A test-time tool: normlab never
depends on PyTorch at run time.
"""
import argparse
import json
import statistics
import time

import torch
import torch.nn.functional as F


def make_fn(rec, x, dev):
    norm, p = rec["norm"], rec["params"]
    C = x.shape[1]
    w = torch.ones(C, device=dev, requires_grad=True)
    b = torch.zeros(C, device=dev, requires_grad=True)
    if norm in ("batch-train", "batch-eval"):
        rm = torch.zeros(C, device=dev)
        rv = torch.ones(C, device=dev)
        training = norm == "batch-train"
        return lambda: F.batch_norm(x, rm, rv, w, b, training=training, momentum=0.1, eps=1e-5)
    if norm.startswith("layer"):
        shape = p["normalized_shape"]
        lw = torch.ones(shape, device=dev, requires_grad=True)
        lb = torch.zeros(shape, device=dev, requires_grad=True)
        return lambda: F.layer_norm(x, shape, lw, lb, 1e-5)
    if norm == "instance":
        return lambda: F.instance_norm(x, eps=1e-5)
    if norm.startswith("group"):
        g = p["groups"]
        return lambda: F.group_norm(x, g, w, b, 1e-5)
    if norm == "rms":
        shape = p["normalized_shape"]
        dims = tuple(range(4 - len(shape), 4))
        rw = torch.ones(shape, device=dev, requires_grad=True)
        eps = 1.1920929e-07
        # torch 1.13 has no rms_norm: the usual composite of ops.
        return lambda: x * torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + eps) * rw
    raise ValueError(norm)


def time_ms(fn, dev, reps):
    for _ in range(3):
        fn()
    times = []
    for _ in range(reps):
        if dev == "cuda":
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end))
        else:
            t0 = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=0)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    out = []
    for rec in json.load(open(a.cases)):
        n, c, h, w = rec["shape"]
        x = torch.randn(n, c, h, w, device=a.device)
        fn = make_fn(rec, x, a.device)
        elements = n * c * h * w
        reps = a.reps or max(5, min(50, int(2e8 / (elements * 8 + 1))))
        with torch.no_grad():
            ms = time_ms(fn, a.device, reps)
        # The backward alone: one forward graph kept, y.backward(dy) timed (grads reset each time).
        xg = x.clone().requires_grad_(True)
        y = make_fn(rec, xg, a.device)()
        dy = torch.randn_like(y)

        def backward():
            xg.grad = None
            y.backward(dy, retain_graph=True)
        bw_ms = time_ms(backward, a.device, reps)
        out.append({"norm": rec["norm"], "shape": rec["shape"], "elements": elements, "torch_ms": ms,
                    "torch_gbps": 2 * 4 * elements / (ms * 1e6), "torch_backward_ms": bw_ms,
                    "torch_backward_gbps": 3 * 4 * elements / (bw_ms * 1e6), "torch": torch.__version__,
                    "device": a.device if a.device == "cpu" else torch.cuda.get_device_name(),
                    "threads": a.threads})
    json.dump(out, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
