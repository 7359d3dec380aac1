"""Golden data of the cnn's ops for the float64 references in engine/train (tests/train/test_conv_reference.cpp):
Conv2d(Cin, Cout, 3, padding=1) forward and backward, AvgPool2d(2) forward and backward, the global average
pool forward and backward (AdaptiveAvgPool2d(1)), and the bounds of Conv2d's default initialisation, all from
PyTorch in float64. Writes tests/golden/train_ops/cases.json; and short training runs of the cnn (one per norm,
float64, from float32-exact initial parameters and images) to tests/golden/train_ops/cnn_runs.json for
tests/train/test_conv_model.cpp and test_cnn_reference.cpp, and four more with the norm after the activation
(on cnn_runs.json's data) to tests/golden/train_ops/cnn_after_runs.json for test_cnn_reference.cpp (run with
Debian's /usr/bin/python3)."""
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


CNN = {"depth": 3, "channels": 4, "classes": 3, "batch": 4, "steps": 30, "samples": 8, "val": 16}
CNN_RUNS = [  # norm, activation, optimizer, lr, groups
    ("none", "relu", "sgd", 0.1, 1), ("batch", "relu", "sgd", 0.1, 1), ("layer", "tanh", "adam", 0.01, 1),
    ("instance", "relu", "sgd", 0.1, 1), ("group", "sigmoid", "sgd", 0.1, 2), ("rms", "relu", "adam", 0.01, 1),
]
CNN_AFTER_RUNS = [  # the same fields, placement "after": Conv2d -> Act -> Norm
    ("batch", "tanh", "adam", 0.01, 1), ("layer", "sigmoid", "sgd", 0.1, 1), ("group", "relu", "adam", 0.01, 2),
    ("rms", "tanh", "sgd", 0.1, 1),
]


class RMSNorm(nn.Module):
    """x·rsqrt(mean(x²) + 1.1920929e-07)·γ over (C, H, W), as normlab's rms."""
    def __init__(self, shape):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(shape))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(dim=(1, 2, 3), keepdim=True) + 1.1920929e-07) * self.weight


class Block(nn.Module):
    def __init__(self, cin, c, side, norm, act, groups, after):
        super().__init__()
        self.after = after
        self.conv = nn.Conv2d(cin, c, 3, padding=1)
        self.norm = {"none": None, "batch": lambda: nn.BatchNorm2d(c), "layer": lambda: nn.LayerNorm([c, side, side]),
                     "instance": lambda: nn.InstanceNorm2d(c, affine=True), "group": lambda: nn.GroupNorm(groups, c),
                     "rms": lambda: RMSNorm([c, side, side])}[norm]
        self.norm = self.norm() if self.norm else None
        self.act = {"relu": nn.ReLU(), "tanh": nn.Tanh(), "sigmoid": nn.Sigmoid()}[act]

    def forward(self, x):
        x = self.conv(x)
        if self.norm is None:
            return self.act(x)
        return self.norm(self.act(x)) if self.after else self.act(self.norm(x))


class Cnn(nn.Module):
    """Conv2d → Norm → Act (after: → Act → Norm) per layer, AvgPool2d(2) after layers 1, 3, 5, global average
    pool, Linear(C, K)."""
    def __init__(self, norm, act, groups, after=False):
        super().__init__()
        c, side, blocks = CNN["channels"], 16, []
        for i in range(CNN["depth"]):
            blocks.append(Block(1 if i == 0 else c, c, side, norm, act, groups, after))
            if i in (1, 3, 5):
                side //= 2
        self.layers = nn.ModuleList(blocks)
        self.head = nn.Linear(c, CNN["classes"])

    def forward(self, x):
        for i, b in enumerate(self.layers):
            x = b(x)
            if i in (1, 3, 5):
                x = nn.functional.avg_pool2d(x, 2)
        return self.head(x.mean(dim=(2, 3)))


def score(net, x, y):
    logits = net(x)
    loss = nn.functional.cross_entropy(logits, y)
    return loss, float((logits.argmax(1) == y).double().mean())


def cnn_run(norm, act, opt_name, lr, groups, data, after=False):
    torch.manual_seed(len(norm) * 7 + len(act))
    net = Cnn(norm, act, groups, after)
    with torch.no_grad():  # float32-exact starting values, then float64
        for t in net.state_dict().values():
            if t.is_floating_point():
                t.copy_(t.float())
    net = net.double()
    init = {k: flat(v) for k, v in net.state_dict().items() if not k.endswith("num_batches_tracked")}
    opt = (torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9) if opt_name == "sgd"
           else torch.optim.Adam(net.parameters(), lr=lr))
    x, y = t64(data["x_train"]).reshape(-1, 1, 16, 16), torch.tensor(data["y_train"])
    losses, accs = [], []
    for s in range(CNN["steps"]):
        idx = torch.tensor(data["batches"][s * CNN["batch"]:(s + 1) * CNN["batch"]])
        net.train()
        loss, acc = score(net, x[idx], y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss))
        accs.append(acc)
    net.eval()
    with torch.no_grad():
        vloss, vacc = score(net, t64(data["x_val"]).reshape(-1, 1, 16, 16), torch.tensor(data["y_val"]))
    final = {k: flat(v) for k, v in net.state_dict().items() if not k.endswith("num_batches_tracked")}
    out = {"norm": norm, "activation": act, "optimizer": opt_name, "lr": lr, "momentum": 0.9, "groups": groups}
    if after:
        out["placement"] = "after"
    out.update({"init": init, "losses": losses, "accs": accs, "val_loss": float(vloss), "val_acc": vacc,
                "final": final})
    return out


def cnn_runs():
    rng = rng_for("cnn_runs")
    n, nv, k = CNN["samples"], CNN["val"], CNN["classes"]
    data = {"x_train": flat(np.float32(rng.standard_normal((n, 256)))), "y_train": [i % k for i in range(n)],
            "x_val": flat(np.float32(rng.standard_normal((nv, 256)))), "y_val": [i % k for i in range(nv)],
            "batches": [int(v) for v in np.concatenate([rng.permutation(n)[:CNN["batch"]]
                                                        for _ in range(CNN["steps"])])]}
    out = dict(CNN)
    out.update({"torch": torch.__version__, "data": data, "runs": [cnn_run(*r, data) for r in CNN_RUNS]})
    path = os.path.join(HERE, "train_ops", "cnn_runs.json")
    dump_json(out, path)
    print("wrote", path)
    after = dict(CNN)
    after.update({"torch": torch.__version__, "data": "cnn_runs.json",
                  "runs": [cnn_run(*r, data, after=True) for r in CNN_AFTER_RUNS]})
    path = os.path.join(HERE, "train_ops", "cnn_after_runs.json")
    dump_json(after, path)
    print("wrote", path)


def main():
    cases = {"torch": torch.__version__,
             "conv": [conv_case(*s) for s in CONV_SHAPES],
             "pool": [pool_case(*s) for s in POOL_SHAPES],
             "init": [init_case(cin, cout) for cin, cout in ((1, 16), (3, 8), (16, 16))]}
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    dump_json(cases, OUT)
    print("wrote", OUT)
    cnn_runs()


if __name__ == "__main__":
    main()
