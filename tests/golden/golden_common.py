"""What tests/golden/make_golden.py's cases share: the case folder, float32 ε, deterministic torch,
JSON and .npy writing, the random inputs of a case, statistics and a float64 reference."""
import json
import os
import shutil
import sys
import zlib
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "cases")
FLT_EPS = float(np.finfo(np.float32).eps)  # 1.1920928955078125e-07 == torch.finfo(torch.float32).eps

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------
def dump_json(obj, path):
    """Indented JSON, but lists of scalars stay on one line."""
    def enc(o, ind):
        pad = " " * ind
        if isinstance(o, dict):
            if not o:
                return "{}"
            items = ["%s %s: %s" % (pad, json.dumps(k), enc(v, ind + 1)) for k, v in o.items()]
            return "{\n" + ",\n".join(items) + "\n" + pad + "}"
        if isinstance(o, list) and any(isinstance(v, (dict, list)) for v in o):
            items = ["%s %s" % (pad, enc(v, ind + 1)) for v in o]
            return "[\n" + ",\n".join(items) + "\n" + pad + "]"
        return json.dumps(o)
    with open(path, "w") as fh:
        fh.write(enc(obj, 0) + "\n")


def rng_for(name):
    return np.random.default_rng(zlib.crc32(name.encode("utf-8")))


def f32(a):
    return np.ascontiguousarray(np.asarray(a, dtype="<f4"))


def make_x(rng, shape, offset=None):
    if offset is None:
        return f32(rng.standard_normal(shape) * 1.5 + rng.uniform(-1.0, 1.0))
    # near-constant data far from zero: stresses the E[x^2] - E[x]^2 cancellation
    return f32(offset + 0.1 * rng.standard_normal(shape))


def rand_weight(rng, shape):
    # random, sign-mixed, never ones
    return f32(rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape))


def rand_bias(rng, shape):
    return f32(rng.uniform(-1.0, 1.0, shape))


def t64(a):
    return torch.from_numpy(np.asarray(a, dtype=np.float64).copy())


def flat(t):
    if isinstance(t, torch.Tensor):
        t = t.detach().cpu().numpy()
    return [float(v) for v in np.asarray(t, dtype=np.float64).reshape(-1)]


def stats(x64, dims):
    mean = x64.mean(dim=dims)
    var = torch.var(x64, dim=dims, unbiased=False)
    return mean, var


def write_case(entry, arrays, y, expected):
    d = os.path.join(CASES_DIR, entry["name"])
    os.makedirs(d)
    files = []
    for fname in ("x.npy", "weight.npy", "bias.npy", "running_mean.npy", "running_var.npy"):
        if fname in arrays:
            a = arrays[fname]
            assert a.dtype == np.dtype("<f4") and a.flags["C_CONTIGUOUS"], fname
            np.save(os.path.join(d, fname), a)
            files.append(fname)
    y = np.ascontiguousarray(np.asarray(y, dtype="<f8"))
    assert y.shape == arrays["x.npy"].shape
    assert np.all(np.isfinite(y))
    np.save(os.path.join(d, "y.npy"), y)
    dump_json(expected, os.path.join(d, "expected.json"))
    entry["files"] = files
    return entry


def check_close(a, b, what, tol=1e-10):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    err = np.max(np.abs(a - b) / (1.0 + np.abs(b)))
    if not err < tol:
        raise AssertionError("%s: self-check failed, rel err %g" % (what, err))


def reference_normalize(x64, mean, var, eps, dims, w=None, b=None, wshape=None):
    """Independent float64 formula used to cross-check torch's output."""
    keep = list(x64.shape)
    for d in dims:
        keep[d] = 1
    m = mean.reshape(keep) if mean.dim() else mean
    v = var.reshape(keep) if var.dim() else var
    y = (x64 - m) / torch.sqrt(v + eps)
    if w is not None:
        y = y * w.reshape(wshape)
    if b is not None:
        y = y + b.reshape(wshape)
    return y
