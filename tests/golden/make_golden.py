#!/usr/bin/python3
"""Generate PyTorch golden fixtures for normlab.

Run with Debian's python (it has torch 1.13 + numpy):

    /usr/bin/python3 tests/golden/make_golden.py

Writes tests/golden/cases/<name>/*.npy + expected.json, tests/golden/cases.json and
tests/golden/errors.json. Everything is deterministic: each case draws its inputs from
numpy.random.default_rng(crc32(name)), and torch runs single-threaded on the CPU in float64.

Inputs are float32. Expected outputs are computed by PyTorch in float64 from those float32
values (x.double(), module.double()). RMSNorm does not exist in torch 1.13; it is computed in
float64 from its definition.
"""
import json
import os
import shutil
import sys
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from golden_common import (
    dump_json,
    rng_for,
    f32,
    make_x,
    rand_weight,
    rand_bias,
    t64,
    flat,
    stats,
    write_case,
    check_close,
    reference_normalize,
    HERE,
    CASES_DIR,
    FLT_EPS,
)
from golden_errors import record_errors
from golden_onnx import onnx_cases


# --------------------------------------------------------------------------------------------
# batch
# --------------------------------------------------------------------------------------------
def batch_case(name, shape, mode="train", momentum=0.1, eps=1e-5, affine=False,
               running=False, num_batches_tracked=0, track_running_stats=True, offset=None,
               desc=""):
    rng = rng_for(name)
    N, C = shape[:2]
    red = (0,) + tuple(range(2, len(shape)))  # (0, 2, 3); BatchNorm1d on (N, C, L): (0, 2)
    pshape = [1, C] + [1] * (len(shape) - 2)
    x = make_x(rng, shape, offset)
    arrays = {"x.npy": x}
    torch_momentum = None if momentum == "cumulative" else momentum
    # BatchNorm1d on (N, C) and (N, C, L), BatchNorm2d on 4-D, BatchNorm3d on (N, C, D, H, W)
    module = {2: nn.BatchNorm1d, 3: nn.BatchNorm1d, 4: nn.BatchNorm2d, 5: nn.BatchNorm3d}[len(shape)]
    m = module(C, eps=eps, momentum=torch_momentum, affine=affine,
               track_running_stats=track_running_stats).double()
    w = b = None
    if affine:
        arrays["weight.npy"] = w = rand_weight(rng, [C])
        arrays["bias.npy"] = b = rand_bias(rng, [C])
        with torch.no_grad():
            m.weight.copy_(t64(w))
            m.bias.copy_(t64(b))
    rm_in = np.zeros([C]) if track_running_stats else None
    rv_in = np.ones([C]) if track_running_stats else None
    if running:
        assert track_running_stats
        arrays["running_mean.npy"] = rm32 = f32(rng.uniform(-1.0, 1.0, [C]))
        arrays["running_var.npy"] = rv32 = f32(rng.uniform(0.5, 2.0, [C]))
        rm_in, rv_in = rm32.astype(np.float64), rv32.astype(np.float64)
        with torch.no_grad():
            m.running_mean.copy_(t64(rm32))
            m.running_var.copy_(t64(rv32))
    if track_running_stats:
        m.num_batches_tracked.fill_(num_batches_tracked)
    else:
        assert num_batches_tracked == 0
    m.train(mode == "train")

    x64 = t64(x)
    with torch.no_grad():
        y = m(x64)

    bmean, bvar = stats(x64, red)
    use_batch = mode == "train" or not track_running_stats
    if use_batch:
        mean, var = bmean, bvar
    else:
        mean, var = t64(rm_in), t64(rv_in)

    # self-checks (independent of torch's kernel)
    check_close(y, reference_normalize(x64, mean, var, eps, red,
                                       None if w is None else t64(w),
                                       None if b is None else t64(b), pshape), name)
    if track_running_stats:
        if mode == "train":
            nbt = num_batches_tracked + 1
            f = 1.0 / nbt if momentum == "cumulative" else momentum
            cnt = int(np.prod([shape[d] for d in red]))
            uvar = bvar * cnt / (cnt - 1)
            check_close(m.running_mean, (1 - f) * t64(rm_in) + f * bmean, name + " rm")
            check_close(m.running_var, (1 - f) * t64(rv_in) + f * uvar, name + " rv")
            assert int(m.num_batches_tracked) == nbt
        else:
            check_close(m.running_mean, rm_in, name + " rm")
            check_close(m.running_var, rv_in, name + " rv")
            assert int(m.num_batches_tracked) == num_batches_tracked
    else:
        assert m.running_mean is None and m.running_var is None

    expected = {
        "stat_shape": [C],
        "mean": flat(mean),
        "var": flat(var),
        "running_mean": flat(m.running_mean) if track_running_stats else None,
        "running_var": flat(m.running_var) if track_running_stats else None,
        "num_batches_tracked": int(m.num_batches_tracked) if track_running_stats else None,
    }
    entry = {"name": name, "norm": "batch", "shape": list(shape), "eps": eps,
             "affine": affine, "mode": mode, "momentum": momentum,
             "num_batches_tracked": num_batches_tracked,
             "track_running_stats": track_running_stats, "description": desc}
    return write_case(entry, arrays, y, expected)


# --------------------------------------------------------------------------------------------
# layer
# --------------------------------------------------------------------------------------------
def layer_case(name, shape, normalized_shape, eps=1e-5, affine=True, bias=True, offset=None,
               desc=""):
    rng = rng_for(name)
    x = make_x(rng, shape, offset)
    arrays = {"x.npy": x}
    k = len(normalized_shape)
    r = len(shape)
    assert list(shape[r - k:]) == list(normalized_shape)
    m = nn.LayerNorm(normalized_shape, eps=eps, elementwise_affine=affine).double()
    w = b = None
    if affine:
        arrays["weight.npy"] = w = rand_weight(rng, normalized_shape)
        with torch.no_grad():
            m.weight.copy_(t64(w))
        if bias:
            arrays["bias.npy"] = b = rand_bias(rng, normalized_shape)
            with torch.no_grad():
                m.bias.copy_(t64(b))
        else:
            # torch 1.13 LayerNorm has no bias= argument: emulate bias=False with zeros
            with torch.no_grad():
                m.bias.zero_()
    else:
        assert bias is False, "bias requires elementwise_affine"
    x64 = t64(x)
    with torch.no_grad():
        y_train = m.train()(x64)
        y = m.eval()(x64)
    assert torch.equal(y, y_train)  # LayerNorm: identical in train and eval
    dims = tuple(range(r - k, r))
    mean, var = stats(x64, dims)
    check_close(y, reference_normalize(x64, mean, var, eps, dims,
                                       None if w is None else t64(w),
                                       None if b is None else t64(b), list(normalized_shape)),
                name)
    expected = {"stat_shape": list(shape[:r - k]), "mean": flat(mean), "var": flat(var)}
    entry = {"name": name, "norm": "layer", "shape": list(shape),
             "normalized_shape": list(normalized_shape), "eps": eps, "affine": affine,
             "bias": bool(affine and bias), "description": desc}
    return write_case(entry, arrays, y, expected)


# --------------------------------------------------------------------------------------------
# instance
# --------------------------------------------------------------------------------------------
def instance_case(name, shape, eps=1e-5, affine=False, offset=None, desc=""):
    rng = rng_for(name)
    N, C = shape[:2]
    red = tuple(range(2, len(shape)))  # (2, 3); InstanceNorm1d on (N, C, L): (2,)
    pshape = [1, C] + [1] * (len(shape) - 2)
    stat_shape = [N, C]
    if len(shape) == 2:  # InstanceNorm1d reads a 2-D input as one unbatched (C, L): per row
        C, red, pshape, stat_shape = N, (1,), [N, 1], [N]
    x = make_x(rng, shape, offset)
    arrays = {"x.npy": x}
    module = {2: nn.InstanceNorm1d, 3: nn.InstanceNorm1d, 4: nn.InstanceNorm2d, 5: nn.InstanceNorm3d}[len(shape)]
    m = module(C, eps=eps, affine=affine).double()
    w = b = None
    if affine:
        arrays["weight.npy"] = w = rand_weight(rng, [C])
        arrays["bias.npy"] = b = rand_bias(rng, [C])
        with torch.no_grad():
            m.weight.copy_(t64(w))
            m.bias.copy_(t64(b))
    x64 = t64(x)
    with torch.no_grad():
        y = m.train()(x64)
        y_eval = m.eval()(x64)
    assert torch.equal(y, y_eval)  # track_running_stats=False: eval uses instance stats too
    mean, var = stats(x64, red)
    check_close(y, reference_normalize(x64, mean, var, eps, red,
                                       None if w is None else t64(w),
                                       None if b is None else t64(b), pshape), name)
    expected = {"stat_shape": stat_shape, "mean": flat(mean), "var": flat(var)}
    entry = {"name": name, "norm": "instance", "shape": list(shape), "eps": eps,
             "affine": affine, "description": desc}
    return write_case(entry, arrays, y, expected)


# --------------------------------------------------------------------------------------------
# group
# --------------------------------------------------------------------------------------------
def group_case(name, shape, groups, eps=1e-5, affine=False, offset=None, desc=""):
    rng = rng_for(name)
    N, C = shape[:2]
    pshape = [1, C] + [1] * (len(shape) - 2)
    assert C % groups == 0
    x = make_x(rng, shape, offset)
    arrays = {"x.npy": x}
    m = nn.GroupNorm(groups, C, eps=eps, affine=affine).double()
    w = b = None
    if affine:
        arrays["weight.npy"] = w = rand_weight(rng, [C])
        arrays["bias.npy"] = b = rand_bias(rng, [C])
        with torch.no_grad():
            m.weight.copy_(t64(w))
            m.bias.copy_(t64(b))
    x64 = t64(x)
    with torch.no_grad():
        y = m(x64)
    xg = x64.reshape(N, groups, -1)
    mean, var = stats(xg, (2,))
    yref = (xg - mean[:, :, None]) / torch.sqrt(var[:, :, None] + eps)
    yref = yref.reshape(*shape)
    if w is not None:
        yref = yref * t64(w).reshape(pshape) + t64(b).reshape(pshape)
    check_close(y, yref, name)
    expected = {"stat_shape": [N, groups], "mean": flat(mean), "var": flat(var)}
    entry = {"name": name, "norm": "group", "shape": list(shape), "groups": groups,
             "eps": eps, "affine": affine, "description": desc}
    return write_case(entry, arrays, y, expected)


# --------------------------------------------------------------------------------------------
# rms (not in torch 1.13: float64 by definition)
# --------------------------------------------------------------------------------------------
def rms_case(name, shape, normalized_shape, eps, affine=True, offset=None, desc=""):
    rng = rng_for(name)
    x = make_x(rng, shape, offset)
    arrays = {"x.npy": x}
    k = len(normalized_shape)
    r = len(shape)
    assert list(shape[r - k:]) == list(normalized_shape)
    dims = tuple(range(r - k, r))
    x64 = t64(x)
    ms = (x64 * x64).mean(dim=dims, keepdim=True)
    y = x64 / torch.sqrt(ms + eps)
    if affine:
        arrays["weight.npy"] = w = rand_weight(rng, normalized_shape)
        y = y * t64(w)
    expected = {"stat_shape": list(shape[:r - k]), "mean_square": flat(ms)}
    entry = {"name": name, "norm": "rms", "shape": list(shape),
             "normalized_shape": list(normalized_shape), "eps": eps, "affine": affine,
             "bias": False, "description": desc}
    if eps == FLT_EPS:
        entry["eps_note"] = "torch.finfo(torch.float32).eps = 2**-23, the value eps=None means"
    return write_case(entry, arrays, y, expected)


# --------------------------------------------------------------------------------------------
def main():
    if os.path.isdir(CASES_DIR):
        shutil.rmtree(CASES_DIR)
    os.makedirs(CASES_DIR)
    cases = []
    B, L, I, G, R = batch_case, layer_case, instance_case, group_case, rms_case

    # ---- batch
    cases.append(B("batch_train_default", [4, 3, 5, 5],
                   desc="train, momentum 0.1, running stats absent (0/1 start), no affine"))
    cases.append(B("batch_train_m03_running", [3, 4, 3, 5], momentum=0.3, running=True,
                   num_batches_tracked=7,
                   desc="train, momentum 0.3, running stats given in, num_batches_tracked 7"))
    cases.append(B("batch_train_cumulative_nbt3", [2, 3, 4, 4], momentum="cumulative",
                   running=True, num_batches_tracked=3,
                   desc="train, momentum=None (cumulative, factor 1/4), running given, nbt 3"))
    cases.append(B("batch_train_cumulative_fresh", [5, 2, 3, 3], momentum="cumulative",
                   desc="train, momentum=None from fresh buffers: factor 1, running = batch"))
    cases.append(B("batch_train_affine_prime", [3, 5, 7, 3], affine=True, eps=1e-3,
                   desc="train, random gamma/beta, prime dims, eps 1e-3"))
    cases.append(B("batch_eval_running", [3, 4, 3, 5], mode="eval", running=True,
                   num_batches_tracked=5,
                   desc="eval, normalizes with the given running stats, buffers unchanged"))
    cases.append(B("batch_eval_running_affine", [2, 3, 5, 7], mode="eval", running=True,
                   affine=True, num_batches_tracked=11, eps=1e-4,
                   desc="eval with running stats and random gamma/beta, eps 1e-4"))
    cases.append(B("batch_eval_no_track", [4, 3, 3, 3], mode="eval",
                   track_running_stats=False,
                   desc="track_running_stats=False in eval: uses batch statistics"))
    cases.append(B("batch_train_hw1", [2, 3, 1, 1],
                   desc="H=W=1, N=2: two values per channel (valid in train)"))
    cases.append(B("batch_train_n1", [1, 4, 3, 1], affine=True,
                   desc="N=1, W=1 (3 values per channel), affine"))
    cases.append(B("batch_train_offset", [4, 3, 4, 5], affine=True, offset=1e4,
                   desc="x = 1e4 + 0.1*randn (cancellation stress), train, affine"))
    cases.append(B("batch_train_large", [4, 2, 15, 16], running=True, num_batches_tracked=1,
                   desc="960 values per channel (more than one 256-wide workgroup)"))

    # ---- layer
    cases.append(L("layer_W_affine", [2, 3, 4, 5], [5], desc="normalized_shape [W], affine"))
    cases.append(L("layer_W_noaffine", [3, 5, 7, 3], [3], affine=False, bias=False,
                   desc="[W] with W=3, elementwise_affine=False, prime dims"))
    cases.append(L("layer_HW_affine", [2, 3, 4, 5], [4, 5], eps=1e-6,
                   desc="[H,W], affine, eps 1e-6"))
    cases.append(L("layer_HW_noaffine", [2, 3, 4, 5], [4, 5], affine=False, bias=False,
                   desc="[H,W], elementwise_affine=False"))
    cases.append(L("layer_HW_nobias", [2, 3, 5, 7], [5, 7], bias=False,
                   desc="[H,W], weight only (bias=False)"))
    cases.append(L("layer_CHW_affine", [3, 5, 7, 3], [5, 7, 3], desc="[C,H,W], affine, prime dims"))
    cases.append(L("layer_CHW_noaffine", [2, 3, 4, 4], [3, 4, 4], affine=False, bias=False,
                   desc="[C,H,W], no affine"))
    cases.append(L("layer_CHW_nobias", [2, 3, 4, 5], [3, 4, 5], bias=False,
                   desc="[C,H,W], weight only (bias=False)"))
    cases.append(L("layer_dim1", [1, 3, 1, 5], [1, 5], eps=1e-3,
                   desc="N=1, H=1, normalized_shape [1,5], affine, eps 1e-3"))
    cases.append(L("layer_offset", [2, 3, 4, 5], [3, 4, 5], offset=1e4,
                   desc="x = 1e4 + 0.1*randn over [C,H,W], affine"))
    cases.append(L("layer_large", [2, 4, 15, 16], [4, 15, 16], affine=False, bias=False,
                   desc="960 elements per statistic"))

    # ---- instance
    cases.append(I("instance_default", [2, 3, 4, 5], desc="affine off (default)"))
    cases.append(I("instance_affine_prime", [3, 5, 7, 3], affine=True, eps=1e-3,
                   desc="affine on, prime dims, eps 1e-3"))
    cases.append(I("instance_h1", [2, 3, 1, 6], desc="H=1 (6 spatial elements), affine off"))
    cases.append(I("instance_offset", [2, 3, 4, 5], affine=True, offset=1e4,
                   desc="x = 1e4 + 0.1*randn, affine"))

    # ---- group
    cases.append(G("group_G1_noaffine", [2, 6, 3, 4], 1, desc="G=1 (LayerNorm([C,H,W]) stats)"))
    cases.append(G("group_G1_affine", [2, 6, 3, 4], 1, affine=True, desc="G=1, affine"))
    cases.append(G("group_G2_noaffine", [2, 6, 3, 4], 2, desc="G=2, no affine"))
    cases.append(G("group_G2_affine", [2, 6, 3, 4], 2, affine=True, eps=1e-4,
                   desc="G=2, affine, eps 1e-4"))
    cases.append(G("group_GC_noaffine", [2, 6, 3, 4], 6, desc="G=C (InstanceNorm stats)"))
    cases.append(G("group_GC_affine_prime", [3, 5, 7, 3], 5, affine=True,
                   desc="G=C=5, affine, prime dims"))
    cases.append(G("group_G3_dim1", [1, 6, 1, 5], 3, affine=True,
                   desc="N=1, H=1, G=3 (2 channels x 5 per group), affine"))
    cases.append(G("group_offset", [2, 6, 3, 4], 2, affine=True, offset=1e4,
                   desc="x = 1e4 + 0.1*randn, G=2, affine"))
    cases.append(G("group_large", [2, 8, 11, 11], 4, affine=True,
                   desc="G=4, 484 elements per group, affine"))

    # ---- rms
    cases.append(R("rms_W_weight", [2, 3, 4, 5], [5], eps=1e-5, desc="over [W], weight"))
    cases.append(R("rms_W_noweight", [2, 3, 4, 5], [5], eps=1e-6, affine=False,
                   desc="over [W], no weight, eps 1e-6"))
    cases.append(R("rms_CHW_weight", [3, 5, 7, 3], [5, 7, 3], eps=1e-5,
                   desc="over [C,H,W], weight, prime dims"))
    cases.append(R("rms_CHW_noweight_flteps", [2, 3, 4, 4], [3, 4, 4], eps=FLT_EPS,
                   affine=False, desc="over [C,H,W], no weight, eps = float32 eps (eps=None)"))
    cases.append(R("rms_HW_weight_flteps", [1, 3, 5, 1], [5, 1], eps=FLT_EPS,
                   desc="over [H,W] with W=1, N=1, weight, eps = float32 eps"))
    cases.append(R("rms_offset", [2, 3, 4, 5], [4, 5], eps=1e-5, offset=1e4,
                   desc="x = 1e4 + 0.1*randn over [H,W], weight"))

    # ---- 3-D sequence tensors: (N, L, D) for layer/rms (per token over D or over [L, D]);
    # (N, C, L) for BatchNorm1d, InstanceNorm1d and GroupNorm
    cases.append(L("layer_seq_D_affine", [2, 5, 8], [8],
                   desc="Transformer (N, L, D): nn.LayerNorm(D), one statistic per token, affine"))
    cases.append(L("layer_seq_D_noaffine", [3, 7, 5], [5], affine=False, bias=False,
                   desc="(N, L, D) = (3, 7, 5), nn.LayerNorm(5, elementwise_affine=False)"))
    cases.append(L("layer_seq_LD_affine", [2, 4, 6], [4, 6], eps=1e-6,
                   desc="(N, L, D), normalized_shape [L, D], affine, eps 1e-6"))
    cases.append(L("layer_seq_offset", [2, 5, 8], [8], offset=1e4,
                   desc="x = 1e4 + 0.1*randn, (N, L, D), LayerNorm(D), affine"))
    cases.append(R("rms_seq_D_weight", [2, 5, 8], [8], eps=FLT_EPS,
                   desc="(N, L, D), RMSNorm(D), weight, eps = float32 eps"))
    cases.append(B("batch1d_train_affine", [4, 6, 5], affine=True,
                   desc="BatchNorm1d on (N, C, L) = (4, 6, 5): per channel over N and L, affine"))
    cases.append(B("batch1d_train_running", [3, 4, 7], momentum=0.2, running=True,
                   num_batches_tracked=2, desc="BatchNorm1d train, momentum 0.2, running stats given in"))
    cases.append(B("batch1d_eval_running", [2, 3, 5], mode="eval", running=True, num_batches_tracked=4,
                   desc="BatchNorm1d eval with the given running stats"))
    cases.append(I("instance1d_affine", [2, 3, 6], affine=True, desc="InstanceNorm1d on (N, C, L), affine"))
    cases.append(G("group1d_G3_affine", [2, 6, 5], 3, affine=True, desc="GroupNorm(3, 6) on (N, C, L), affine"))

    # ---- 2-D (N, C): an MLP's features. BatchNorm1d per feature over the batch, LayerNorm and
    # RMSNorm per sample over [C], GroupNorm over C/G features, InstanceNorm1d (an unbatched (C, L))
    cases.append(B("batch2d_mlp_affine", [8, 5], affine=True,
                   desc="BatchNorm1d on (N, C) = (8, 5): per feature over the batch, affine"))
    cases.append(B("batch2d_train_running", [4, 3], momentum=0.3, running=True, num_batches_tracked=1,
                   desc="BatchNorm1d on (N, C), train, momentum 0.3, running stats given in"))
    cases.append(B("batch2d_eval_running", [3, 4], mode="eval", running=True, num_batches_tracked=5,
                   desc="BatchNorm1d on (N, C), eval with the given running stats"))
    cases.append(B("batch2d_two_samples", [2, 6], desc="BatchNorm1d on (2, 6): two values per feature"))
    cases.append(L("layer2d_C_affine", [4, 7], [7], desc="LayerNorm(7) on (N, C) = (4, 7), affine"))
    cases.append(L("layer2d_C_nobias", [3, 5], [5], bias=False, desc="LayerNorm(5, bias=False) on (3, 5)"))
    cases.append(R("rms2d_C_weight", [4, 6], [6], eps=FLT_EPS, desc="RMSNorm(6) on (N, C), weight"))
    cases.append(G("group2d_G2_affine", [3, 8], 2, affine=True, desc="GroupNorm(2, 8) on (N, C) = (3, 8)"))
    cases.append(I("instance2d_unbatched", [3, 6], affine=True,
                   desc="InstanceNorm1d(3) on a 2-D (3, 6): one unbatched (C, L) sample, per row"))

    # ---- 5-D (N, C, D, H, W): volumes and video. BatchNorm3d, InstanceNorm3d, GroupNorm over
    # (N, C, D·H·W); LayerNorm / RMSNorm over [W], [H, W], [D, H, W] or [C, D, H, W]
    cases.append(B("batch3d_train_affine", [2, 3, 4, 3, 5], affine=True,
                   desc="BatchNorm3d on (2, 3, 4, 3, 5): per channel over N, D, H, W, affine"))
    cases.append(B("batch3d_eval_running", [2, 2, 3, 4, 2], mode="eval", running=True, num_batches_tracked=3,
                   desc="BatchNorm3d eval with the given running stats"))
    cases.append(B("batch3d_cumulative", [3, 2, 2, 3, 3], momentum="cumulative", running=True, num_batches_tracked=4,
                   desc="BatchNorm3d train, momentum=None (cumulative average)"))
    cases.append(I("instance3d_affine", [2, 3, 3, 4, 5], affine=True, desc="InstanceNorm3d, affine"))
    cases.append(G("group3d_G2_affine", [2, 4, 3, 2, 5], 2, affine=True, desc="GroupNorm(2, 4) on 5-D, affine"))
    cases.append(L("layer3d_W", [2, 3, 2, 3, 4], [4], desc="LayerNorm([W]) on 5-D"))
    cases.append(L("layer3d_HW", [2, 2, 3, 4, 5], [4, 5], desc="LayerNorm([H, W]) on 5-D, affine"))
    cases.append(L("layer3d_DHW", [2, 3, 2, 4, 3], [2, 4, 3], affine=False, bias=False,
                   desc="LayerNorm([D, H, W], elementwise_affine=False) on 5-D"))
    cases.append(L("layer3d_CDHW", [2, 2, 3, 3, 4], [2, 3, 3, 4], eps=1e-6,
                   desc="LayerNorm([C, D, H, W]) on 5-D, eps 1e-6"))
    cases.append(R("rms3d_DHW_weight", [2, 3, 2, 3, 4], [2, 3, 4], eps=FLT_EPS,
                   desc="RMSNorm([D, H, W]) on 5-D, weight"))

    # ---- 1-D (one vector: nn.LayerNorm(D) on a single token) and normalized_shape over every dim
    # (F.layer_norm(x, x.shape): one statistic over the whole tensor, N included)
    cases.append(L("layer1d_D_affine", [6], [6], desc="nn.LayerNorm(6) on one vector of 6 features, affine"))
    cases.append(L("layer1d_one", [1], [1], desc="nn.LayerNorm(1) on one value: variance 0, y = beta"))
    cases.append(R("rms1d_D_weight", [7], [7], eps=FLT_EPS, desc="RMSNorm(7) on one vector, weight"))
    cases.append(L("layer_all_2d", [3, 4], [3, 4], affine=False, bias=False,
                   desc="F.layer_norm(x, x.shape) on (3, 4): one statistic"))
    cases.append(L("layer_all_4d_nobias", [2, 3, 4, 5], [2, 3, 4, 5], bias=False,
                   desc="LayerNorm(x.shape, bias=False) on 4-D: one statistic"))
    cases.append(R("rms_all_3d", [2, 5, 8], [2, 5, 8], eps=1e-5, desc="RMSNorm over (N, L, D): one statistic"))
    cases.append(R("rms_all_5d", [2, 2, 3, 2, 3], [2, 2, 3, 2, 3], eps=FLT_EPS, affine=False,
                   desc="RMSNorm over every dim of a 5-D tensor, no weight"))
    cases.extend(onnx_cases(B, L, I))

    names = [c["name"] for c in cases]
    assert len(names) == len(set(names))
    for c in cases:
        assert np.prod(c["shape"]) <= 2048, c["name"]

    dump_json(cases, os.path.join(HERE, "cases.json"))

    errors = record_errors()
    dump_json(errors, os.path.join(HERE, "errors.json"))

    print("torch %s numpy %s: wrote %d cases, %d error records"
          % (torch.__version__, np.__version__, len(cases), len(errors)), file=sys.stderr)


if __name__ == "__main__":
    main()
