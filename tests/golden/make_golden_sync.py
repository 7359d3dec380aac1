#!/usr/bin/python3
"""Generate PyTorch golden fixtures for SyncBN on K simulated devices (normlab --sync-devices).

Run with Debian's python (torch 1.13 + numpy):

    /usr/bin/python3 tests/golden/make_golden_sync.py

Writes tests/golden/sync/<name>/{x,w,b,rm,rv}.npy + expected.json and tests/golden/sync/cases.json.
Inputs are float32, drawn from numpy.random.default_rng(crc32(name)); everything expected is
computed by PyTorch in float64 from those float32 values, the batch split into K shards of
N/K consecutive samples:
  sync  = F.batch_norm on the whole batch (training=True): what SyncBatchNorm computes;
  local = F.batch_norm on each shard (training=True), concatenated: data parallel without SyncBN;
          running statistics from shard 0's call (what rank 0 keeps);
  naive = mean of the shard means, mean of the shard biased variances (seed 004's formula);
          running_var takes it times n/(n-1), n = N*H*W.
Each case holds every mode's y and statistics (y_sync.npy, y_local.npy, y_naive.npy).
"""
import json
import os
import shutil
import zlib

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "sync")
torch.set_num_threads(1)


def f32(a):
    return np.ascontiguousarray(np.asarray(a, dtype="<f4"))


def save(path, a, dtype="<f4"):
    np.save(path, np.ascontiguousarray(np.asarray(a, dtype=dtype)))


def flat(t):
    return [float(v) for v in t.reshape(-1)]


def running(rm, rv, mean, var_biased, count, momentum):
    unbiased = var_biased * count / (count - 1)
    return (1 - momentum) * rm + momentum * mean, (1 - momentum) * rv + momentum * unbiased


def case(name, shape, k, affine, momentum, eps=1e-5, scale=1.0, shard_shift=0.0):
    rng = np.random.default_rng(zlib.crc32(name.encode("utf-8")))
    n, c = shape[0], shape[1]
    x = rng.standard_normal(shape) * scale
    # Devices that saw different data: each shard's samples shifted by its own offset.
    for s in range(k):
        x[s * (n // k):(s + 1) * (n // k)] += shard_shift * (s - (k - 1) / 2)
    x = f32(x)
    w = f32(rng.uniform(0.5, 1.5, c)) if affine else None
    b = f32(rng.uniform(-0.5, 0.5, c)) if affine else None
    rm = f32(rng.standard_normal(c) * 0.1)
    rv = f32(rng.uniform(0.5, 1.5, c))
    xd = torch.from_numpy(x).double()
    wd = torch.from_numpy(w).double() if affine else None
    bd = torch.from_numpy(b).double() if affine else None
    rmd, rvd = torch.from_numpy(rm).double(), torch.from_numpy(rv).double()
    dims = [0] + list(range(2, len(shape)))
    cshape = [1, c] + [1] * (len(shape) - 2)
    count = int(np.prod(shape)) // c
    shards = list(torch.chunk(xd, k, dim=0))

    shard_mean = torch.stack([s.mean(dim=dims) for s in shards])
    shard_var = torch.stack([s.var(dim=dims, unbiased=False) for s in shards])

    # sync: BatchNorm over the whole batch.
    rm_s, rv_s = rmd.clone(), rvd.clone()
    y_sync = F.batch_norm(xd, rm_s, rv_s, wd, bd, training=True, momentum=momentum, eps=eps)
    sync_mean, sync_var = xd.mean(dim=dims), xd.var(dim=dims, unbiased=False)
    # local: each shard its own BatchNorm; running statistics from shard 0's call.
    ys = []
    rm_l, rv_l = None, None
    for i, s in enumerate(shards):
        a, v = rmd.clone(), rvd.clone()
        ys.append(F.batch_norm(s, a, v, wd, bd, training=True, momentum=momentum, eps=eps))
        if i == 0:
            rm_l, rv_l = a, v
    y_local = torch.cat(ys, dim=0)
    # naive: the seed's formula.
    naive_mean, naive_var = shard_mean.mean(dim=0), shard_var.mean(dim=0)
    y_naive = (xd - naive_mean.view(cshape)) / torch.sqrt(naive_var.view(cshape) + eps)
    if affine:
        y_naive = y_naive * wd.view(cshape) + bd.view(cshape)
    rm_n, rv_n = running(rmd, rvd, naive_mean, naive_var, count, momentum)

    d = os.path.join(OUT, name)
    os.makedirs(d)
    save(os.path.join(d, "x.npy"), x)
    if affine:
        save(os.path.join(d, "w.npy"), w)
        save(os.path.join(d, "b.npy"), b)
    save(os.path.join(d, "rm.npy"), rm)
    save(os.path.join(d, "rv.npy"), rv)
    for mode, y in (("sync", y_sync), ("local", y_local), ("naive", y_naive)):
        save(os.path.join(d, "y_%s.npy" % mode), y.numpy(), "<f8")
    expected = {
        "shard_mean": flat(shard_mean), "shard_var": flat(shard_var),
        "sync": {"mean": flat(sync_mean), "var": flat(sync_var),
                 "running_mean": flat(rm_s), "running_var": flat(rv_s)},
        "local": {"mean": flat(shard_mean), "var": flat(shard_var),
                  "running_mean": flat(rm_l), "running_var": flat(rv_l)},
        "naive": {"mean": flat(naive_mean), "var": flat(naive_var),
                  "running_mean": flat(rm_n), "running_var": flat(rv_n)},
        # The naive error: sync's variance minus naive's is the variance of the shard means.
        "var_of_shard_means": flat(shard_mean.var(dim=0, unbiased=False)),
    }
    with open(os.path.join(d, "expected.json"), "w") as fh:
        json.dump(expected, fh, indent=1)
        fh.write("\n")
    return {"name": name, "shape": list(shape), "devices": k, "affine": affine, "momentum": momentum,
            "eps": eps}


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    cases = [
        case("k1_plain", (4, 3, 5, 5), 1, False, 0.1),
        case("k2_affine", (4, 3, 5, 5), 2, True, 0.1, shard_shift=1.0),
        case("k4_shifted", (8, 2, 3, 3), 4, False, 0.3, shard_shift=2.0),
        case("k2_hw1", (6, 5, 1, 1), 2, True, 0.1, scale=3.0, shard_shift=0.5),
        case("k3_odd", (9, 3, 3, 5), 3, True, 0.2, shard_shift=1.5),
        case("k4_1d", (8, 3, 7), 4, False, 0.1, shard_shift=1.0),
    ]
    with open(os.path.join(OUT, "cases.json"), "w") as fh:
        json.dump(cases, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
