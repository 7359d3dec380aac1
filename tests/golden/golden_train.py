"""PyTorch golden runs of `normlab-cli train` (tests/golden/train/<case>.json).

For each case: normlab-cli train writes the initial parameters (--save-init) and the data and batch
order (--save-data); this script builds the same PyTorch module (per hidden layer Linear -> Norm -> Act,
or Linear -> Act -> Norm with placement "after"; head Linear(W, K)), loads them, replays the T steps
with torch.optim (F.cross_entropy, mean over the batch; model.train()), then evaluates the validation
set in eval mode. The JSON keeps the configuration, the initial parameters and the data (the device
test runs from these, and checks that engine/train still draws the same), the loss and accuracy of
each step (before its update), the final parameters and buffers, and the final validation loss and
accuracy. tests/train/test_train_golden.cpp runs every case on the Vulkan runner and the float64
reference.

Run with Debian's python (torch 1.13):
    /usr/bin/python3 tests/golden/golden_train.py [path/to/normlab-cli]   (default build/bin/normlab-cli)
It deletes and rewrites tests/golden/train/.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, "train")
RMS_EPS = 1.1920929e-07

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)

# name: (norm, optimizer, depth, width, activation, placement, groups, data, classes, lr)
CASES = {
    "none_sgd": ("none", "sgd", 2, 16, "relu", "before", 1, "spirals", 3, 0.1),
    "none_adam": ("none", "adam", 3, 8, "tanh", "before", 1, "blobs", 4, 0.01),
    "batch_sgd": ("batch", "sgd", 2, 16, "relu", "before", 1, "circles", 2, 0.1),
    "batch_adam": ("batch", "adam", 2, 16, "tanh", "after", 1, "xor", 2, 0.01),
    "layer_sgd": ("layer", "sgd", 3, 16, "sigmoid", "before", 1, "spirals", 2, 0.1),
    "layer_adam": ("layer", "adam", 2, 32, "relu", "after", 1, "blobs", 3, 0.01),
    "group_sgd": ("group", "sgd", 2, 16, "tanh", "after", 4, "spirals", 3, 0.1),
    "group_adam": ("group", "adam", 3, 16, "relu", "before", 2, "circles", 2, 0.01),
    "rms_sgd": ("rms", "sgd", 2, 16, "relu", "after", 1, "xor", 2, 0.1),
    "rms_adam": ("rms", "adam", 2, 8, "sigmoid", "before", 1, "spirals", 4, 0.01),
}
COMMON = {"samples": 128, "noise": 0.25, "batch": 16, "steps": 30, "momentum": 0.9}


class RMSNorm(nn.Module):
    """x * rsqrt(mean(x^2) + eps) * weight over the last dim (torch 1.13 has no nn.RMSNorm)."""

    def __init__(self, width):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(width))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + RMS_EPS) * self.weight


def make_norm(cfg):
    w = cfg["width"]
    return {
        "batch": lambda: nn.BatchNorm1d(w),
        "layer": lambda: nn.LayerNorm([w]),
        "group": lambda: nn.GroupNorm(cfg["groups"], w),
        "rms": lambda: RMSNorm(w),
    }[cfg["norm"]]()


class Layer(nn.Module):
    def __init__(self, cfg, i):
        super().__init__()
        self.linear = nn.Linear(2 if i == 0 else cfg["width"], cfg["width"])
        self.has_norm = cfg["norm"] != "none"
        if self.has_norm:
            self.norm = make_norm(cfg)
        self.act = {"relu": torch.relu, "tanh": torch.tanh, "sigmoid": torch.sigmoid}[cfg["activation"]]
        self.after = cfg["placement"] == "after"

    def forward(self, x):
        x = self.linear(x)
        if not self.has_norm:
            return self.act(x)
        return self.norm(self.act(x)) if self.after else self.act(self.norm(x))


class Mlp(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.layers = nn.ModuleList([Layer(cfg, i) for i in range(cfg["depth"])])
        self.head = nn.Linear(cfg["width"], cfg["classes"])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


def f32_list(a):
    """float32 values as the shortest decimal that reads back to the same float32."""
    return [float(repr(np.float32(v))) for v in np.asarray(a, dtype=np.float32).ravel()]


def cli_run(cli, cfg, tmp):
    args = [cli, "train", "--model", "mlp", "-q", "--save-init", os.path.join(tmp, "init"),
            "--save-data", os.path.join(tmp, "data"), "--log", os.path.join(tmp, "log.csv")]
    for key in ("depth", "width", "activation", "norm", "groups", "data", "classes", "samples", "noise",
                "batch", "steps", "lr", "optimizer", "momentum", "seed"):
        args += ["--" + key, str(cfg[key])]
    args += ["--norm-placement", cfg["placement"], "--data-seed", str(cfg["data_seed"])]
    subprocess.run(args, check=True)


def train_and_score(model, cfg, load):
    """The CLI run's steps replayed on `model` (its batches from load("batches"), the optimizer of cfg); the
    loss and accuracy of each step's forward, the final state and the validation loss and accuracy in eval
    mode. `load(name)` reads the run's --save-data file NAME.npy."""
    x, y, batches = torch.from_numpy(load("x_train")), torch.from_numpy(load("y_train")), load("batches")
    if cfg["optimizer"] == "sgd":
        opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=cfg["momentum"])
    else:
        opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    losses, accs = [], []
    model.train()
    for t in range(cfg["steps"]):
        idx = torch.from_numpy(batches[t].astype(np.int64))
        opt.zero_grad()
        logits = model(x[idx])
        loss = F.cross_entropy(logits, y[idx])
        loss.backward()
        opt.step()
        losses.append(loss.item())
        accs.append((logits.argmax(1) == y[idx]).float().mean().item())
    model.eval()
    with torch.no_grad():
        xv, yv = torch.from_numpy(load("x_val")), torch.from_numpy(load("y_val"))
        lv = model(xv)
        val = (F.cross_entropy(lv, yv).item(), (lv.argmax(1) == yv).float().mean().item())
    final = {k: f32_list(v) for k, v in model.state_dict().items() if not k.endswith("num_batches_tracked")}
    return losses, accs, final, val


def replay(cfg, tmp):
    model = Mlp(cfg)
    state = model.state_dict()
    init = {}
    for key in state:
        if key.endswith("num_batches_tracked"):
            continue
        state[key] = torch.from_numpy(np.load(os.path.join(tmp, "init", key + ".npy")))
        init[key] = f32_list(state[key])
    model.load_state_dict(state)
    load = lambda n: np.load(os.path.join(tmp, "data", n + ".npy"))
    losses, accs, final, val = train_and_score(model, cfg, load)
    data = {"x_train": f32_list(load("x_train")), "y_train": load("y_train").tolist(),
            "x_val": f32_list(load("x_val")), "y_val": load("y_val").tolist(),
            "batches": load("batches").ravel().tolist()}
    return init, data, losses, accs, final, val


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "normlab-cli")
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    for seed, (name, c) in enumerate(CASES.items()):
        cfg = dict(zip(("norm", "optimizer", "depth", "width", "activation", "placement", "groups", "data",
                        "classes", "lr"), c))
        cfg.update(COMMON, model="mlp", seed=seed + 1, data_seed=seed + 11)
        with tempfile.TemporaryDirectory() as tmp:
            cli_run(cli, cfg, tmp)
            init, data, losses, accs, final, val = replay(cfg, tmp)
        case = {"name": name, "torch": torch.__version__, "config": cfg, "loss": losses, "accuracy": accs,
                "val_loss": val[0], "val_accuracy": val[1], "init": init, "data": data, "final": final}
        with open(os.path.join(OUT, name + ".json"), "w") as fh:
            json.dump(case, fh, separators=(",", ":"))
            fh.write("\n")
        print(f"{name}: loss {losses[0]:.4f} -> {losses[-1]:.4f}, val acc {val[1]:.3f}")


if __name__ == "__main__":
    main()
