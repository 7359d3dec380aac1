"""PyTorch golden runs of `normlab-cli train --model cnn` (tests/golden/train_cnn/<case>.json).

As golden_train.py does for the mlp: for each case normlab-cli train writes the initial parameters
(--save-init) and the textures and batch order (--save-data); this script builds the same PyTorch module
(per layer Conv2d(in, C, 3, padding=1) -> Norm -> Act, or -> Act -> Norm with placement "after";
AvgPool2d(2) after layers 1, 3 and 5; the global average pool; the head Linear(C, K)), loads them, replays
the 30 steps with torch.optim in float32 (F.cross_entropy, mean over the batch; model.train()), then
evaluates the validation set in eval mode. Every norm (instance included) with SGD (momentum 0.9) and Adam.

To keep tests/golden small, a case keeps the configuration, the loss and accuracy of each step, the final
validation loss and accuracy, every final parameter and buffer, the initial parameters other than the
norms' (which start at 1 and 0), the labels and the batch order, and of the images only their sums: the
device test (tests/train/test_train_golden_cnn.cpp) draws the data and parameters with engine/train, checks
them against these, and runs each case on the Vulkan runner.

Run with Debian's python (torch 1.13):
    /usr/bin/python3 tests/golden/golden_train_cnn.py [path/to/normlab-cli]   (default build/bin/normlab-cli)
It deletes and rewrites tests/golden/train_cnn/.
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

from golden_train import ROOT, HERE, f32_list, train_and_score

OUT = os.path.join(HERE, "train_cnn")
RMS_EPS = 1.1920929e-07

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)

# name: (norm, optimizer, activation, placement, groups, classes, lr)
CASES = {
    "none_sgd": ("none", "sgd", "relu", "before", 1, 3, 0.1),
    "none_adam": ("none", "adam", "tanh", "before", 1, 4, 0.01),
    "batch_sgd": ("batch", "sgd", "relu", "before", 1, 3, 0.1),
    "batch_adam": ("batch", "adam", "tanh", "after", 1, 3, 0.01),
    "layer_sgd": ("layer", "sgd", "tanh", "before", 1, 4, 0.1),
    "layer_adam": ("layer", "adam", "relu", "after", 1, 3, 0.01),
    "instance_sgd": ("instance", "sgd", "tanh", "before", 1, 3, 0.1),
    "instance_adam": ("instance", "adam", "tanh", "before", 1, 2, 0.01),
    "group_sgd": ("group", "sgd", "sigmoid", "before", 2, 3, 0.1),
    "group_adam": ("group", "adam", "relu", "before", 2, 4, 0.01),
    "rms_sgd": ("rms", "sgd", "relu", "before", 1, 3, 0.1),
    "rms_adam": ("rms", "adam", "tanh", "after", 1, 3, 0.01),
}
COMMON = {"model": "cnn", "data": "textures", "depth": 3, "channels": 4, "samples": 16, "noise": 0.2, "batch": 4,
          "steps": 30, "momentum": 0.9}


class RMSNorm(nn.Module):
    """x * rsqrt(mean(x^2) + eps) * weight over (C, H, W) (torch 1.13 has no nn.RMSNorm)."""

    def __init__(self, shape):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(shape))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(dim=(1, 2, 3), keepdim=True) + RMS_EPS) * self.weight


def make_norm(cfg, side):
    c = cfg["channels"]
    return {
        "batch": lambda: nn.BatchNorm2d(c),
        "layer": lambda: nn.LayerNorm([c, side, side]),
        "instance": lambda: nn.InstanceNorm2d(c, affine=True),
        "group": lambda: nn.GroupNorm(cfg["groups"], c),
        "rms": lambda: RMSNorm([c, side, side]),
    }[cfg["norm"]]()


class Layer(nn.Module):
    def __init__(self, cfg, i, side):
        super().__init__()
        self.conv = nn.Conv2d(1 if i == 0 else cfg["channels"], cfg["channels"], 3, padding=1)
        self.has_norm = cfg["norm"] != "none"
        if self.has_norm:
            self.norm = make_norm(cfg, side)
        self.act = {"relu": torch.relu, "tanh": torch.tanh, "sigmoid": torch.sigmoid}[cfg["activation"]]
        self.after = cfg["placement"] == "after"

    def forward(self, x):
        x = self.conv(x)
        if not self.has_norm:
            return self.act(x)
        return self.norm(self.act(x)) if self.after else self.act(self.norm(x))


class Cnn(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.layers = nn.ModuleList([Layer(cfg, i, 16 >> (i // 2)) for i in range(cfg["depth"])])
        self.head = nn.Linear(cfg["channels"], cfg["classes"])

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i in (1, 3, 5):
                x = F.avg_pool2d(x, 2)
        return self.head(x.mean(dim=(2, 3)))


def cli_run(cli, cfg, tmp):
    args = [cli, "train", "-q", "--save-init", os.path.join(tmp, "init"), "--save-data", os.path.join(tmp, "data")]
    for key in ("model", "depth", "channels", "activation", "norm", "groups", "data", "classes", "samples", "noise",
                "batch", "steps", "lr", "optimizer", "momentum", "seed"):
        args += ["--" + key, str(cfg[key])]
    args += ["--norm-placement", cfg["placement"], "--data-seed", str(cfg["data_seed"])]
    subprocess.run(args, check=True)


def image_sums(x):
    x = x.astype(np.float64)
    return {"count": int(x.size), "sum": float(x.sum()), "sum_squares": float((x * x).sum()),
            "first": f32_list(x.ravel()[:8])}


def replay(cfg, tmp):
    model = Cnn(cfg)
    state = model.state_dict()
    init = {}
    for key in state:
        state[key] = torch.from_numpy(np.load(os.path.join(tmp, "init", key + ".npy")))
        if ".norm." not in key:
            init[key] = f32_list(state[key])
    model.load_state_dict(state)
    load = lambda n: np.load(os.path.join(tmp, "data", n + ".npy"))
    losses, accs, final, val = train_and_score(model, cfg, load)
    data = {"x_train": image_sums(load("x_train")), "y_train": load("y_train").tolist(),
            "x_val": image_sums(load("x_val")), "y_val": load("y_val").tolist(),
            "batches": load("batches").ravel().tolist()}
    return init, data, losses, accs, final, val


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "normlab-cli")
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    for seed, (name, c) in enumerate(CASES.items()):
        cfg = dict(zip(("norm", "optimizer", "activation", "placement", "groups", "classes", "lr"), c))
        cfg.update(COMMON, seed=seed + 21, data_seed=seed + 31)
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
