"""Golden data of the cnn's ops for the float64 references in engine/train (tests/train/test_conv_reference.cpp):
Conv2d(Cin, Cout, 3, padding=1) forward and backward, AvgPool2d(2) forward and backward, the global average
pool forward and backward (AdaptiveAvgPool2d(1)), and the bounds of Conv2d's default initialisation, all from
PyTorch in float64. Writes tests/golden/train_ops/cases.json (run with Debian's /usr/bin/python3)."""
import math
import os
import numpy as np
import torch
import torch.nn as nn
from golden_common import HERE, dump_json, flat, rng_for, t64

OUT = os.path.join(HERE, "train_ops", "cases.json")
torch.manual_seed(0)

CONV_SHAPES = [  # n, cin, cout, h, w
    (1, 1, 1, 4, 4), (2, 3, 4, 5, 5), (3, 2, 5, 8, 8), (1, 4, 3, 2, 2), (2, 1, 2, 1, 3), (2, 2, 3, 6, 3),
]
POOL_SHAPES = [(1, 1, 2, 2), (2, 3, 4, 4), (2, 2, 5, 7), (1, 4, 8, 8), (3, 1, 3, 2)]  # n, c, h, w


def rand64(rng, shape):
    return rng.standard_normal(shape) * 1.3 + rng.uniform(-0.5, 0.5)


def conv_case(n, cin, cout, h, w):
    rng = rng_for("conv_%d_%d_%d_%d_%d" % (n, cin, cout, h, w))
    x = t64(rand64(rng, (n, cin, h, w))).requires_grad_(True)
    conv = nn.Conv2d(cin, cout, 3, stride=1, padding=1).double()
    with torch.no_grad():
        conv.weight.copy_(t64(rand64(rng, (cout, cin, 3, 3))))
        conv.bias.copy_(t64(rand64(rng, (cout,))))
    y = conv(x)
    dy = t64(rand64(rng, y.shape))
    y.backward(dy)
    return {"n": n, "cin": cin, "cout": cout, "h": h, "w": w, "x": flat(x), "weight": flat(conv.weight),
            "bias": flat(conv.bias), "y": flat(y), "dy": flat(dy), "dx": flat(x.grad),
            "dweight": flat(conv.weight.grad), "dbias": flat(conv.bias.grad)}


def pool_case(n, c, h, w):
    rng = rng_for("pool_%d_%d_%d_%d" % (n, c, h, w))
    out = {"n": n, "c": c, "h": h, "w": w}
    for key, module in (("avg2", nn.AvgPool2d(2)), ("global", nn.AdaptiveAvgPool2d(1))):
        x = t64(rand64(rng, (n, c, h, w))).requires_grad_(True)
        y = module(x)
        dy = t64(rand64(rng, y.shape))
        y.backward(dy)
        out[key] = {"x": flat(x), "y": flat(y), "dy": flat(dy), "dx": flat(x.grad)}
    return out


def init_case(cin, cout):
    conv = nn.Conv2d(cin, cout, 3, padding=1)
    fan_in, _ = nn.init._calculate_fan_in_and_fan_out(conv.weight)
    gain = nn.init.calculate_gain("leaky_relu", math.sqrt(5))
    weight_bound = gain * math.sqrt(3.0 / fan_in)  # kaiming_uniform_(a=√5), as reset_parameters calls it
    bias_bound = 1.0 / math.sqrt(fan_in)
    return {"cin": cin, "cout": cout, "fan_in": fan_in, "weight_bound": weight_bound, "bias_bound": bias_bound,
            "weight_max_abs": float(conv.weight.detach().abs().max()),
            "bias_max_abs": float(conv.bias.detach().abs().max())}


def main():
    cases = {"torch": torch.__version__,
             "conv": [conv_case(*s) for s in CONV_SHAPES],
             "pool": [pool_case(*s) for s in POOL_SHAPES],
             "init": [init_case(cin, cout) for cin, cout in ((1, 16), (3, 8), (16, 16))]}
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    dump_json(cases, OUT)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
