#!/usr/bin/env python3
"""Merges normlab-bench JSON (and optionally torch_bench.py JSON) into Markdown tables."""
import json
import sys


def split(r):
    """upload / dispatch / readback wall times (records of older normlab-bench runs lack them)."""
    if "upload_ms" not in r:
        return "–"
    return f"{r['upload_ms']:.3f} / {r['dispatch_ms']:.3f} / {r['readback_ms']:.3f}"


def case_label(r):
    """The case's name, marked when scripts/gpu-bench.sh saw the SM clock lowered while it was timed."""
    return r["norm"] + (" (lowered clock)" if r.get("clock") == "lowered" else "")


def main():
    nl = json.load(open(sys.argv[1]))
    torch = {}
    if len(sys.argv) > 2:
        for r in json.load(open(sys.argv[2])):
            torch[(r["norm"], tuple(r["shape"]))] = r
    dev = nl[0]["device"] if nl else "?"
    print(f"device: {dev}\n")
    hdr = ("| case | shape | elements | normlab gpu ms | copy ms (best) | efficiency | shader copy ms"
           " | efficiency vs shader copy"
           " | GB/s | end-to-end ms | upload / dispatch / readback ms |")
    sep = "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    if torch:
        hdr += " PyTorch ms | PyTorch GB/s | normlab gpu / PyTorch | normlab e2e / PyTorch |"
        sep += "---:|---:|---:|---:|"
    print(hdr)
    print(sep)
    for r in nl:
        shape = "×".join(str(d) for d in r["shape"])
        line = (f"| {case_label(r)} | {shape} | {r['elements']} | {r['gpu_ms']:.3f} | "
                f"{r['copy_ms']:.3f} ({r['copy_variant']}) | "
                f"{r['efficiency']:.2f} | {r['shader_copy_ms']:.3f} | {r['shader_efficiency']:.2f} | {r['gbps']:.2f} | "
                f"{r['end_to_end_ms']:.3f} | {split(r)} |")
        t = torch.get((r["norm"], tuple(r["shape"])))
        if torch:
            if t:
                line += (f" {t['torch_ms']:.3f} | {t['torch_gbps']:.2f} | {r['gpu_ms'] / t['torch_ms']:.2f} |"
                         f" {r['end_to_end_ms'] / t['torch_ms']:.2f} |")
            else:
                line += " – | – | – | – |"
        print(line)
    if any(r.get("clock") == "lowered" for r in nl):
        print("\n(lowered clock): the SM clock fell under 0.9 of its maximum while the case was timed"
              " (gpu-clock.md); its times are not comparable with the others'.")
    backward_table(nl, torch)


def backward_table(nl, torch):
    """The backward pass: reads x and dy, writes dx (three streams: efficiency against 1.5 copies)."""
    rows = [r for r in nl if "backward_gpu_ms" in r]
    if not rows:
        return
    print("\nBackward pass (∂L/∂x, ∂L/∂γ, ∂L/∂β of L = Σ dy⊙y):\n")
    hdr = "| case | shape | backward gpu ms | efficiency vs 1.5 copies | GB/s | end-to-end ms |"
    sep = "|---|---|---:|---:|---:|---:|"
    if torch:
        hdr += " PyTorch backward ms | normlab / PyTorch |"
        sep += "---:|---:|"
    print(hdr)
    print(sep)
    for r in rows:
        shape = "×".join(str(d) for d in r["shape"])
        line = (f"| {case_label(r)} | {shape} | {r['backward_gpu_ms']:.3f} | {r['backward_efficiency']:.2f} | "
                f"{r['backward_gbps']:.2f} | {r['backward_end_to_end_ms']:.3f} |")
        t = torch.get((r["norm"], tuple(r["shape"])))
        if torch:
            if t and "torch_backward_ms" in t:
                line += f" {t['torch_backward_ms']:.3f} | {r['backward_gpu_ms'] / t['torch_backward_ms']:.2f} |"
            else:
                line += " – | – |"
        print(line)


if __name__ == "__main__":
    main()
