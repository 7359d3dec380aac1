#!/usr/bin/python3
"""Generate the backward-pass golden fixtures (tests/golden/grad/) with torch.autograd.

    /usr/bin/python3 tests/golden/make_golden_grad.py

Inputs (x, dy, gamma, beta, running statistics) are float32, drawn from
numpy.random.default_rng(crc32(name)). PyTorch runs in float64 on those float32 values:
y = module(x64) (or the functional op), y.backward(dy64), and the fixture stores x.grad,
weight.grad and bias.grad as float64 (dx.npy, dweight.npy, dbias.npy). Every gradient is
cross-checked against the closed-form backward written out with numpy before anything is
written. RMSNorm is not in torch 1.13: autograd runs through its definition
x * rsqrt(mean(x^2) + eps) * gamma. The script deletes and rewrites tests/golden/grad/.
"""
import json
import os
import shutil
import zlib

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "grad")
FLT_EPS = float(np.finfo(np.float32).eps)

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)


def f32(a):
    return np.ascontiguousarray(np.asarray(a, dtype="<f4"))


def t64(a, grad=False):
    t = torch.from_numpy(np.asarray(a, dtype=np.float64).copy())
    return t.requires_grad_(grad)


def closed_form(x, dy, w, dims, eps, centered, eval_stats=None, pshape=None):
    """The backward by formula (numpy, float64): x̂, g = dy·γ, dx = rstd·(g − mean g − x̂·mean g·x̂)."""
    x = x.astype(np.float64)
    dy = dy.astype(np.float64)
    gam = np.ones(pshape) if w is None else w.astype(np.float64)
    if eval_stats is not None:
        rm, rv = eval_stats
        bshape = [1, -1] + [1] * (x.ndim - 2)
        mean, var = rm.astype(np.float64).reshape(bshape), rv.astype(np.float64).reshape(bshape)
    elif centered:
        mean = x.mean(axis=dims, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=dims, keepdims=True)
    else:
        mean = 0.0
        var = (x * x).mean(axis=dims, keepdims=True)
    rstd = 1.0 / np.sqrt(var + eps)
    xhat = (x - mean) * rstd
    g = dy * gam.reshape(pshape)
    if eval_stats is not None:
        dx = rstd * g
    else:
        mg = g.mean(axis=dims, keepdims=True) if centered else 0.0
        dx = rstd * (g - mg - xhat * (g * xhat).mean(axis=dims, keepdims=True))
    return dx, dy * xhat


def param_sum(t, pshape):
    """Sum over every axis where the parameter shape (broadcast form) has size 1."""
    axes = tuple(i for i, s in enumerate(pshape) if s == 1)
    return t.sum(axis=axes).reshape(-1)


def torch_forward(norm, x64, w64, b64, running, mode, eps, groups, normalized_shape, pshape):
    """y from PyTorch (RMSNorm by its definition) and the axes a statistic covers (None: GroupNorm's)."""
    r = x64.dim()
    rm, rv = running
    if norm == "batch":
        y = F.batch_norm(x64, t64(rm) if rm is not None else None, t64(rv) if rv is not None else None,
                         w64, b64, training=(mode == "train"), momentum=0.1, eps=eps)
        dims = (0,) + tuple(range(2, r))
    elif norm == "layer":
        y = F.layer_norm(x64, list(normalized_shape), w64, b64, eps)
        dims = tuple(range(r - len(normalized_shape), r))
    elif norm == "instance":
        y = F.instance_norm(x64, weight=w64, bias=b64, eps=eps)
        dims = tuple(range(2, r))
    elif norm == "group":
        y = F.group_norm(x64, groups, w64, b64, eps)
        dims = None
    else:  # rms by definition
        dims = tuple(range(r - len(normalized_shape), r))
        y = x64 * torch.rsqrt((x64 * x64).mean(dim=dims, keepdim=True) + eps)
        if w64 is not None:
            y = y * w64.reshape(pshape)
    return y, dims


def group_closed_form(x, dy, w, groups, eps):
    """GroupNorm's backward by formula (numpy, float64): dx and dy·x̂."""
    shape = x.shape
    N, C = shape[0], shape[1]
    spatial = int(np.prod(shape[2:]))
    xg = x.reshape(N, groups, -1)
    dyg = dy.reshape(N, groups, C // groups, spatial)
    gam = np.ones(C) if w is None else w.astype(np.float64)
    g = (dyg * gam.reshape(1, groups, C // groups, 1)).reshape(N, groups, -1)
    xd = xg.astype(np.float64)
    mean = xd.mean(axis=2, keepdims=True)
    rstd = 1.0 / np.sqrt(((xd - mean) ** 2).mean(axis=2, keepdims=True) + eps)
    xhat = (xd - mean) * rstd
    dx_ref = (rstd * (g - g.mean(axis=2, keepdims=True) - xhat * (g * xhat).mean(axis=2, keepdims=True)))
    return dx_ref.reshape(shape), dy.astype(np.float64) * xhat.reshape(shape)


def check_closed_form(name, norm, inputs, grads, dims, eps, groups, pshape):
    """Asserts autograd's dx, dweight and dbias are the closed form's (float64, to 1e-9)."""
    x, dy, w, rm, rv = inputs
    dx, dw, db = grads
    if norm == "group":
        dx_ref, dyxh = group_closed_form(x, dy, w, groups, eps)
    else:
        ev = (rm, rv) if rm is not None else None
        dx_ref, dyxh = closed_form(x, dy, w, dims, eps, norm != "rms", ev, pshape)
    scale = max(1.0, float(np.abs(dx_ref).max()))
    assert np.abs(dx - dx_ref).max() < 1e-9 * scale, name
    if dw is not None:
        assert np.allclose(dw, param_sum(dyxh, pshape), rtol=1e-9, atol=1e-9), name
    if db is not None:
        assert np.allclose(db, param_sum(dy.astype(np.float64), pshape), rtol=1e-9, atol=1e-9), name


def write_case(name, arrays, grads):
    """Writes the inputs and the float64 gradients into grad/NAME/; the inputs' file names."""
    dx, dw, db = grads
    d = os.path.join(OUT, name)
    os.makedirs(d)
    files = []
    for fname, a in arrays.items():
        np.save(os.path.join(d, fname), a)
        files.append(fname)
    np.save(os.path.join(d, "dx.npy"), np.ascontiguousarray(dx, dtype="<f8"))
    if dw is not None:
        np.save(os.path.join(d, "dweight.npy"), np.ascontiguousarray(dw, dtype="<f8"))
    if db is not None:
        np.save(os.path.join(d, "dbias.npy"), np.ascontiguousarray(db, dtype="<f8"))
    return files


def case(name, norm, shape, desc, affine=True, bias=True, groups=None, normalized_shape=None,
         mode="train", eps=None, offset=None):
    rng = np.random.default_rng(zlib.crc32(name.encode("utf-8")))
    C = shape[1] if len(shape) > 1 else shape[0]  # 1-D: one vector
    r = len(shape)  # 1-D (D), 2-D (N, C) to 5-D (N, C, D, H, W)
    x = f32(offset + 0.1 * rng.standard_normal(shape)) if offset is not None else \
        f32(rng.standard_normal(shape) * 1.5 + rng.uniform(-1.0, 1.0))
    dy = f32(rng.standard_normal(shape))
    if eps is None:
        eps = FLT_EPS if norm == "rms" else 1e-5
    layer_like = norm in ("layer", "rms")
    wshape = list(normalized_shape) if layer_like else [C]
    pshape = [1] * (r - len(wshape)) + wshape if layer_like else [1, C] + [1] * (r - 2)
    has_bias = affine and bias and norm != "rms"
    arrays = {"x.npy": x, "dy.npy": dy}
    w = b = None
    if affine:
        arrays["weight.npy"] = w = f32(rng.uniform(0.5, 1.5, wshape) * rng.choice([-1.0, 1.0], wshape))
    if has_bias:
        arrays["bias.npy"] = b = f32(rng.uniform(-1.0, 1.0, wshape))
    rm = rv = None
    if norm == "batch" and mode == "eval":
        arrays["running_mean.npy"] = rm = f32(rng.uniform(-1.0, 1.0, [C]))
        arrays["running_var.npy"] = rv = f32(rng.uniform(0.5, 2.0, [C]))

    x64 = t64(x, True)
    w64 = t64(w, True) if w is not None else None
    b64 = t64(b, True) if b is not None else None
    y, dims = torch_forward(norm, x64, w64, b64, (rm, rv), mode, eps, groups, normalized_shape, pshape)
    y.backward(t64(dy))
    grads = (x64.grad.numpy(), w64.grad.numpy().reshape(-1) if w64 is not None else None,
             b64.grad.numpy().reshape(-1) if b64 is not None else None)
    check_closed_form(name, norm, (x, dy, w, rm, rv), grads, dims, eps, groups, pshape)

    files = write_case(name, arrays, grads)
    entry = {"name": name, "norm": norm, "shape": list(shape), "eps": eps, "affine": affine,
             "description": desc, "files": files, "offset": offset is not None}
    if norm == "group":
        entry["groups"] = groups
    if layer_like:
        entry["normalized_shape"] = list(normalized_shape)
    if norm == "layer":
        entry["bias"] = has_bias
    if norm == "batch":
        entry["mode"] = mode
    return entry


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    cases = [
        case("batch_train_affine_prime", "batch", [3, 5, 7, 3], "train, prime dims, random γ/β"),
        case("batch_train_plain", "batch", [4, 3, 4, 5], "train, affine off", affine=False),
        case("batch_train_hw1", "batch", [6, 4, 1, 1], "train, H=W=1 (BatchNorm1d-like)"),
        case("batch_eval_affine", "batch", [3, 5, 7, 3], "eval with running statistics", mode="eval"),
        case("batch_eval_plain", "batch", [2, 3, 5, 5], "eval, affine off", affine=False, mode="eval"),
        case("batch_train_offset", "batch", [4, 3, 8, 8], "x = 1e4 + 0.1·randn", offset=1e4),
        case("layer_w", "layer", [3, 4, 5, 7], "normalized_shape [W]", normalized_shape=[7]),
        case("layer_hw_nobias", "layer", [2, 3, 5, 7], "[H,W], bias=False", normalized_shape=[5, 7], bias=False),
        case("layer_chw", "layer", [2, 3, 5, 7], "[C,H,W]", normalized_shape=[3, 5, 7]),
        case("layer_plain", "layer", [3, 5, 3, 11], "elementwise_affine=False", affine=False,
             normalized_shape=[5, 3, 11]),
        case("layer_offset", "layer", [2, 4, 8, 8], "x = 1e4 + 0.1·randn", normalized_shape=[4, 8, 8], offset=1e4),
        case("instance_plain", "instance", [2, 3, 5, 7], "affine off (the default)", affine=False),
        case("instance_affine", "instance", [3, 2, 7, 5], "affine=True"),
        case("instance_offset", "instance", [2, 3, 8, 8], "x = 1e4 + 0.1·randn", offset=1e4),
        case("group_affine", "group", [2, 6, 5, 3], "G=3, random γ/β", groups=3),
        case("group_plain", "group", [3, 10, 3, 7], "G=2, affine off", groups=2, affine=False),
        case("group_one", "group", [2, 6, 4, 4], "G=1 (LayerNorm over C,H,W)", groups=1),
        case("group_offset", "group", [2, 4, 8, 8], "x = 1e4 + 0.1·randn, G=2", groups=2, offset=1e4),
        case("rms_w", "rms", [3, 4, 5, 7], "normalized_shape [W]", normalized_shape=[7]),
        case("rms_chw", "rms", [2, 3, 5, 7], "[C,H,W], eps 1e-6", normalized_shape=[3, 5, 7], eps=1e-6),
        case("rms_plain", "rms", [2, 3, 5, 7], "no weight", normalized_shape=[5, 7], affine=False),
        # 2-D (N, C): BatchNorm1d on features, LayerNorm/RMSNorm per sample, GroupNorm
        case("batch2d_train", "batch", [6, 5], "BatchNorm1d on (N, C), train, random γ/β"),
        case("batch2d_eval", "batch", [4, 3], "BatchNorm1d on (N, C), eval with running statistics", mode="eval"),
        case("layer2d_c", "layer", [5, 7], "LayerNorm(C) on (N, C)", normalized_shape=[7]),
        case("rms2d_c", "rms", [4, 6], "RMSNorm(C) on (N, C)", normalized_shape=[6]),
        case("group2d", "group", [3, 8], "GroupNorm(2, 8) on (N, C): 4 features per group", groups=2),
        # 5-D (N, C, D, H, W): BatchNorm3d, InstanceNorm3d, GroupNorm, LayerNorm/RMSNorm
        case("batch3d_train", "batch", [2, 3, 3, 4, 5], "BatchNorm3d, train, random γ/β"),
        case("instance3d_affine", "instance", [2, 3, 3, 4, 2], "InstanceNorm3d, affine=True"),
        case("group3d", "group", [2, 4, 2, 3, 5], "GroupNorm(2, 4) on 5-D", groups=2),
        case("layer3d_dhw", "layer", [2, 3, 2, 4, 3], "LayerNorm([D, H, W])", normalized_shape=[2, 4, 3]),
        case("rms3d_hw", "rms", [2, 2, 3, 4, 5], "RMSNorm([H, W]) on 5-D", normalized_shape=[4, 5]),
        # 1-D (one vector) and normalized_shape over every dim (one statistic, N included)
        case("layer1d", "layer", [9], "nn.LayerNorm(9) on one vector", normalized_shape=[9]),
        case("rms1d", "rms", [8], "RMSNorm(8) on one vector", normalized_shape=[8]),
        case("layer_all_4d", "layer", [2, 3, 4, 5], "F.layer_norm(x, x.shape): one statistic",
             normalized_shape=[2, 3, 4, 5]),
        case("rms_all_3d", "rms", [3, 4, 6], "RMSNorm over every dim of (N, L, D)", normalized_shape=[3, 4, 6]),
    ]
    with open(os.path.join(OUT, "cases.json"), "w") as fh:
        json.dump(cases, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
