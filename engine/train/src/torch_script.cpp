// "Copy as PyTorch" (torch_script.hpp): the run's module, optimizer and replay as Python text.
#include "normlab/train/torch_script.hpp"

#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace normlab::train {
namespace {

using Fills = std::vector<std::pair<std::string, std::string>>;

// `text` with every @KEY@ replaced by its value.
std::string fill(std::string text, const Fills& fills) {
    for (const auto& [key, value] : fills)
        for (auto pos = text.find(key); pos != std::string::npos; pos = text.find(key, pos + value.size()))
            text.replace(pos, key.size(), value);
    return text;
}

// The shortest decimal that reads back as the same double, in Python's spelling (the fewest significant
// digits %g needs; floating std::to_chars is missing from the browser build's libc++).
std::string number(double v) {
    char buf[64];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    std::string s(buf);
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    return s;
}

const char* activation_call(TrainActivation a) {
    return a == TrainActivation::Relu ? "torch.relu" : a == TrainActivation::Tanh ? "torch.tanh" : "torch.sigmoid";
}

// The norm module of a layer with `f` features (mlp) or channels (cnn) on `side`×`side` (the cnn's).
std::string norm_module(const TrainConfig& c, const std::string& f, bool cnn) {
    const std::string per_element = cnn ? "[" + f + ", side, side]" : "[" + f + "]";
    switch (c.norm) {
        case TrainNorm::Batch: return std::string(cnn ? "nn.BatchNorm2d(" : "nn.BatchNorm1d(") + f + ")";
        case TrainNorm::Layer: return "nn.LayerNorm(" + per_element + ")";
        case TrainNorm::Instance: return "nn.InstanceNorm2d(" + f + ", affine=True)";
        case TrainNorm::Group: return "nn.GroupNorm(" + std::to_string(c.groups) + ", " + f + ")";
        case TrainNorm::Rms: return "RMSNorm(" + per_element + ")";
        case TrainNorm::None: break;
    }
    return "";
}

constexpr const char* kHeader = R"(#!/usr/bin/env python3
"""A normlab training run as PyTorch: @SUMMARY@.

Builds the same module with the names normlab saves, loads normlab's initial parameters (--save-init)
and data (--save-data), replays the run's batches with the same optimizer and prints each step's loss
and accuracy (training mode, before the step's update), then the validation set's in eval mode. Given
normlab's --log CSV, it compares every step's loss and exits with status 1 when one differs by more
than 1e-4 relative. Needs torch and numpy.

    python3 SCRIPT [INIT_DIR DATA_DIR [LOG_CSV]]
"""
import csv
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
INIT_DIR = os.path.join(HERE, @INIT@)
DATA_DIR = os.path.join(HERE, @DATA@)
LOG_CSV = @LOG@
TOLERANCE = 1e-4
)";

constexpr const char* kRms = R"(

class RMSNorm(nn.Module):
    """x * rsqrt(mean(x^2) + eps) * weight over the weight's dims (torch 1.13 has no nn.RMSNorm)."""

    def __init__(self, shape):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(shape))

    def forward(self, x):
        dims = tuple(range(x.dim() - self.weight.dim(), x.dim()))
        return x * torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + 1.1920929e-07) * self.weight
)";

constexpr const char* kMlp = R"(

class Layer(nn.Module):
    """@LAYER_DOC@"""

    def __init__(self, in_features):
        super().__init__()
        self.linear = nn.Linear(in_features, @W@)@NORM_INIT@

    def forward(self, x):
        return @FORWARD@


class Model(nn.Module):
    """@DEPTH@ hidden layers of @W@, then the head Linear(@W@, @K@)."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Layer(2 if i == 0 else @W@) for i in range(@DEPTH@)])
        self.head = nn.Linear(@W@, @K@)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)
)";

constexpr const char* kCnn = R"(

class Layer(nn.Module):
    """@LAYER_DOC@ on side x side images."""

    def __init__(self, in_channels, side):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, @W@, 3, padding=1)@NORM_INIT@

    def forward(self, x):
        return @FORWARD@


class Model(nn.Module):
    """@DEPTH@ conv layers of @W@ channels on 1x16x16 images, AvgPool2d(2) after layers 1, 3 and 5, the
    global average pool, then the head Linear(@W@, @K@)."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Layer(1 if i == 0 else @W@, 16 >> (i // 2)) for i in range(@DEPTH@)])
        self.head = nn.Linear(@W@, @K@)

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i in (1, 3, 5):
                x = F.avg_pool2d(x, 2)
        return self.head(x.mean(dim=(2, 3)))
)";

constexpr const char* kMain = R"(

def load_init(model, init_dir):
    state = model.state_dict()
    for name in state:
        state[name] = torch.from_numpy(np.load(os.path.join(init_dir, name + ".npy")))
    model.load_state_dict(state)


def compare(losses, val_loss, log_csv):
    with open(log_csv, newline="") as fh:
        rows = list(csv.DictReader(fh))
    logged = [float(row["train_loss"]) for row in rows]
    if len(logged) != len(losses):
        print(f"{log_csv}: {len(logged)} steps, the replay {len(losses)}")
        return 1
    worst = max(abs(a - b) / max(abs(b), 1e-12) for a, b in zip(losses, logged))
    val = abs(val_loss - float(rows[-1]["val_loss"])) / max(abs(float(rows[-1]["val_loss"])), 1e-12)
    print(f"against {log_csv}: worst relative loss difference {worst:.3g} over {len(losses)} steps, "
          f"last validation loss {val:.3g}")
    return 0 if worst <= TOLERANCE else 1


def main():
    args = sys.argv[1:]
    init_dir, data_dir = (args[0], args[1]) if len(args) >= 2 else (INIT_DIR, DATA_DIR)
    log_csv = args[2] if len(args) >= 3 else (LOG_CSV if len(args) < 2 else None)
    model = Model()
    load_init(model, init_dir)

    def load(name):
        return torch.from_numpy(np.load(os.path.join(data_dir, name + ".npy")))

    x, y, batches = load("x_train"), load("y_train"), load("batches").long()
    optimizer = @OPTIMIZER@
    losses = []
    model.train()
    for step, batch in enumerate(batches):
        optimizer.zero_grad()
        logits = model(x[batch])
        loss = F.cross_entropy(logits, y[batch])
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        acc = (logits.argmax(1) == y[batch]).float().mean().item()
        print(f"step {step}: loss {losses[-1]:.9g} acc {acc:.9g}")
    model.eval()
    with torch.no_grad():
        x_val, y_val = load("x_val"), load("y_val")
        logits = model(x_val)
        val_loss = F.cross_entropy(logits, y_val).item()
        val_acc = (logits.argmax(1) == y_val).float().mean().item()
    print(f"validation: loss {val_loss:.9g} acc {val_acc:.9g}")
    return compare(losses, val_loss, log_csv) if log_csv else 0


if __name__ == "__main__":
    sys.exit(main())
)";

std::string layer_doc(const TrainConfig& c, bool cnn) {
    const std::string op = cnn ? "Conv2d(in, C, 3, padding=1)" : "Linear(in, W)";
    const std::string act = train_activation_name(c.activation);
    if (c.norm == TrainNorm::None) return op + " -> " + act;
    const std::string norm = train_norm_name(c.norm) + std::string(" norm");
    return c.norm_after ? op + " -> " + act + " -> " + norm : op + " -> " + norm + " -> " + act;
}

std::string forward_expr(const TrainConfig& c, bool cnn) {
    const std::string act = activation_call(c.activation);
    const std::string lin = cnn ? "self.conv(x)" : "self.linear(x)";
    if (c.norm == TrainNorm::None) return act + "(" + lin + ")";
    return c.norm_after ? "self.norm(" + act + "(" + lin + "))" : act + "(self.norm(" + lin + "))";
}

std::string summary(const TrainConfig& c, bool cnn) {
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "%s of depth %d, %s %d, %s, norm %s (%s, groups %d); data %s, %d classes, "
                  "batch %d, %d steps; %s lr %s%s; seed %llu, data seed %llu",
                  cnn ? "cnn" : "mlp", c.depth, cnn ? "channels" : "width", cnn ? c.channels : c.width,
                  train_activation_name(c.activation), train_norm_name(c.norm), c.norm_after ? "after" : "before",
                  c.groups, c.data.c_str(), c.classes, c.batch, c.steps, train_optimizer_name(c.optimizer),
                  number(c.lr).c_str(),
                  c.optimizer == TrainOptimizer::Sgd ? (" momentum " + number(c.momentum)).c_str() : "",
                  static_cast<unsigned long long>(c.seed), static_cast<unsigned long long>(c.data_seed));
    return buf;
}

}  // namespace

std::string python_string(const std::string& s) {
    std::string out = "\"";
    for (const char ch : s) {
        const auto u = static_cast<unsigned char>(ch);
        if (ch == '\\' || ch == '"') {
            out += '\\';
            out += ch;
        } else if (u < 0x20 || u == 0x7f) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\x%02x", u);
            out += esc;
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

std::string pytorch_script(const TrainConfig& c, const TorchScriptPaths& paths) {
    const bool cnn = c.model == TrainModel::Cnn;
    const std::string f = std::to_string(cnn ? c.channels : c.width);
    const std::string norm = norm_module(c, f, cnn);
    const std::string optimizer =
        c.optimizer == TrainOptimizer::Sgd
            ? "torch.optim.SGD(model.parameters(), lr=" + number(c.lr) + ", momentum=" + number(c.momentum) + ")"
            : "torch.optim.Adam(model.parameters(), lr=" + number(c.lr) + ")";
    const Fills fills{
        {"@SUMMARY@", summary(c, cnn)},
        {"@INIT@", python_string(paths.init_dir)},
        {"@DATA@", python_string(paths.data_dir)},
        {"@LOG@", paths.log_csv.empty() ? "None" : "os.path.join(HERE, " + python_string(paths.log_csv) + ")"},
        {"@LAYER_DOC@", layer_doc(c, cnn)},
        {"@NORM_INIT@", norm.empty() ? "" : "\n        self.norm = " + norm},
        {"@FORWARD@", forward_expr(c, cnn)},
        {"@DEPTH@", std::to_string(c.depth)},
        {"@W@", f},
        {"@K@", std::to_string(c.classes)},
        {"@OPTIMIZER@", optimizer},
    };
    std::string text = fill(kHeader, fills);
    if (c.norm == TrainNorm::Rms) text += kRms;
    text += fill(cnn ? kCnn : kMlp, fills);
    text += fill(kMain, fills);
    return text;
}

}  // namespace normlab::train
