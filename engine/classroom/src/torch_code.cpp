#include "normlab/classroom/torch_code.hpp"
#include "normlab/io/scene_file.hpp"

#include <cstdio>
#include <sstream>

namespace normlab::classroom {
namespace {

constexpr std::int64_t kMaxLiteral = 96;  // tensors up to this size are written out in full

std::string num(double v) {
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%.9g", v);
    std::string s = buf;
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
}

std::string dims(const std::vector<std::int64_t>& d) {
    std::string s;
    for (std::size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
    return s;
}

std::string list(const std::vector<float>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + num(v[i]);
    return s + "]";
}

std::string py_bool(bool b) { return b ? "True" : "False"; }

// The line that makes x: the preset's values written out when small, else a stand-in.
std::string input_code(const core::State& st, const core::Shape4& shape) {
    std::ostringstream o;
    const std::string shp = dims(shape.dims());
    switch (st.source.kind) {
        case core::TensorSource::Kind::File:
            o << "x = torch.from_numpy(np.load(\"" << st.source.path << "\")).float()  # shape (" << shp << ")\n";
            break;
        case core::TensorSource::Kind::Image:
            o << "x = read_image(\"" << st.source.path << "\", ImageReadMode." << (shape.c == 1 ? "GRAY" : "RGB")
              << ").float().div(255).unsqueeze(0)  # shape (" << shp << ")\n";
            break;
        case core::TensorSource::Kind::Preset:
            if (shape.numel() <= kMaxLiteral) {
                core::Tensor t = io::load_tensor(st.source);
                o << "x = torch.tensor(" << list(t.data) << ").reshape(" << shp << ")  # preset " << st.source.preset
                  << "\n";
            } else {
                o << "# preset '" << st.source.preset << "': export it with normlab (tensors .npy) and load it here\n";
                o << "x = torch.randn(" << shp << ")\n";
            }
            break;
        case core::TensorSource::Kind::Generated:
            o << "x = torch.randn(" << shp
              << ")  # normlab's generator differs: export x as .npy for the same numbers\n";
            break;
    }
    return o.str();
}

// The torch.nn module with its arguments, e.g. "nn.GroupNorm(2, 6, affine=True)".
std::string module_code(const core::NormSpec& spec, const core::Shape4& shape) {
    const std::string eps = spec.eps ? num(*spec.eps) : "";
    switch (spec.method) {
        case core::Method::Batch:
            return std::string("nn.") + core::method_torch_name(spec.method, shape) + "(" + std::to_string(shape.c) +
                   (spec.eps ? ", eps=" + eps : "") + ", momentum=" + (spec.momentum ? num(*spec.momentum) : "None") +
                   ", affine=" + py_bool(spec.affine) + ", track_running_stats=" + py_bool(spec.track_running_stats) +
                   ")";
        case core::Method::Layer:
            return "nn.LayerNorm([" + dims(spec.effective_normalized_shape(shape)) + "]" +
                   (spec.eps ? ", eps=" + eps : "") + ", elementwise_affine=" + py_bool(spec.affine) +
                   (spec.affine && !spec.bias ? ", bias=False" : "") + ")";
        case core::Method::Instance:
            // A 2-D input is one unbatched (C, L) sample to InstanceNorm1d: num_features is its first dim.
            return std::string("nn.") + core::method_torch_name(spec.method, shape) + "(" +
                   std::to_string(shape.rank == 2 ? shape.n : shape.c) + (spec.eps ? ", eps=" + eps : "") +
                   ", affine=" + py_bool(spec.affine) + ")";
        case core::Method::Group:
            return "nn.GroupNorm(" + std::to_string(spec.groups) + ", " + std::to_string(shape.c) +
                   (spec.eps ? ", eps=" + eps : "") + ", affine=" + py_bool(spec.affine) + ")";
        case core::Method::Rms:
            return "nn.RMSNorm([" + dims(spec.effective_normalized_shape(shape)) + "]" +
                   (spec.eps ? ", eps=" + eps : "") + ", elementwise_affine=" + py_bool(spec.affine) + ")";
    }
    return "";
}

// γ/β and the running statistics when they are not the defaults, copied in under no_grad.
std::string params_code(const core::State& st, const core::Shape4& shape) {
    const core::NormSpec& spec = st.spec;
    const bool w = spec.has_weight() && !st.params.weight.empty();
    const bool b = spec.has_bias() && !st.params.bias.empty();
    const bool rm =
        spec.method == core::Method::Batch && spec.track_running_stats &&
        (!st.params.running_mean.empty() || !st.params.running_var.empty() || st.params.num_batches_tracked);
    if (!w && !b && !rm) return "";
    std::ostringstream o;
    o << "with torch.no_grad():\n";
    auto shaped = [&](const std::vector<float>& v) {
        return "torch.tensor(" + list(v) + ")" +
               (spec.method == core::Method::Layer || spec.method == core::Method::Rms
                    ? ".reshape(" + dims(spec.effective_normalized_shape(shape)) + ")"
                    : "");
    };
    if (w) o << "    m.weight.copy_(" << shaped(st.params.weight) << ")\n";
    if (b) o << "    m.bias.copy_(" << shaped(st.params.bias) << ")\n";
    if (rm) {
        if (!st.params.running_mean.empty())
            o << "    m.running_mean.copy_(torch.tensor(" << list(st.params.running_mean) << "))\n";
        if (!st.params.running_var.empty())
            o << "    m.running_var.copy_(torch.tensor(" << list(st.params.running_var) << "))\n";
        o << "    m.num_batches_tracked.fill_(" << st.params.num_batches_tracked << ")\n";
    }
    return o.str();
}

// SyncBN on K simulated devices: y of the state's mode, from the K shards x.chunk(K).
std::string sync_code(const core::NormSpec& spec) {
    const std::string k = std::to_string(spec.sync_devices);
    std::ostringstream o;
    o << "# SyncBN on " << k << " simulated devices (mode " << core::sync_mode_name(spec.sync_mode) << "): shards of N/"
      << k << " consecutive samples\n";
    if (spec.sync_mode == core::SyncMode::Sync) {
        o << "# nn.SyncBatchNorm over " << k << " processes computes y = m(x) above: the whole batch\n";
    } else if (spec.sync_mode == core::SyncMode::Local) {
        o << "y = torch.cat([m(s) for s in x.chunk(" << k << ")])  # each device its own statistics\n";
        o << "# (m's running statistics were updated once per shard here; normlab keeps shard 0's)\n";
    } else {
        o << "dims = [0] + list(range(2, x.dim()))\n";
        o << "shape = [1, -1] + [1] * (x.dim() - 2)\n";
        o << "mu = torch.stack([s.mean(dims) for s in x.chunk(" << k << ")]).mean(0)\n";
        o << "var = torch.stack([s.var(dims, unbiased=False) for s in x.chunk(" << k
          << ")]).mean(0)  # seed 004's formula\n";
        o << "y = (x - mu.view(shape)) / torch.sqrt(var.view(shape) + m.eps)\n";
        if (spec.has_weight()) o << "y = y * m.weight.view(shape) + m.bias.view(shape)\n";
    }
    return o.str();
}

}  // namespace

std::string torch_code(const core::State& st, const core::Shape4& shape) {
    const bool adain = !st.style_image.empty() && st.spec.method == core::Method::Instance;
    core::NormSpec adain_spec = st.spec;
    adain_spec.affine = false;  // AdaIN's γ and β are the style's statistics, put back below
    const core::NormSpec& spec = adain ? adain_spec : st.spec;
    std::ostringstream o;
    o << "import torch\nimport torch.nn as nn\n";
    if (st.source.kind == core::TensorSource::Kind::File) o << "import numpy as np\n";
    if (st.source.kind == core::TensorSource::Kind::Image || !st.style_image.empty())
        o << "from torchvision.io import read_image, ImageReadMode\n";
    o << "\n" << input_code(st, shape);
    o << "m = " << module_code(spec, shape) << "\n";
    if (spec.method == core::Method::Layer && spec.affine && !spec.bias) o << "# bias=False needs PyTorch >= 2.1\n";
    if (spec.method == core::Method::Rms)
        o << "# nn.RMSNorm needs PyTorch >= 2.4 (eps=None: float32 machine epsilon)\n";
    if (!adain) o << params_code(st, shape);
    o << (spec.mode == core::Mode::Eval ? "m.eval()\n" : "m.train()\n");
    o << "x.requires_grad_(True)\n";
    o << "y = m(x)\n";
    if (spec.sync_devices > 0) o << sync_code(spec);
    if (adain) {
        // AdaIN: the style image's per-channel mean and std (biased variance + eps) put back.
        o << "s = read_image(\"" << st.style_image << "\", ImageReadMode." << (shape.c == 1 ? "GRAY" : "RGB")
          << ").float().div(255).unsqueeze(0)  # AdaIN's style\n";
        o << "s_mean = s.mean((2, 3), keepdim=True)\n";
        o << "s_std = (s.var((2, 3), unbiased=False, keepdim=True) + " << num(spec.effective_eps()) << ").sqrt()\n";
        o << "y = y * s_std + s_mean  # AdaIN\n";
    }
    std::string at;
    if (st.selection) {
        for (auto v : core::user_index(shape, *st.selection)) at += (at.empty() ? "" : ", ") + std::to_string(v);
        o << "print(y[" << at << "])  # the selected element\n";
    }
    // The backward pass of L = (dy * y).sum(), as the gradient view computes it: dy one-hot at the
    // selected element gives one row of the Jacobian, ∂y_k/∂x.
    o << "\n# backward: L = (dy * y).sum()\n";
    if (st.selection)
        o << "dy = torch.zeros_like(y)\ndy[" << at << "] = 1.0  # one-hot: x.grad is dy_k/dx, one Jacobian row\n";
    else
        o << "dy = torch.ones_like(y)\n";
    o << "y.backward(dy)\n";
    o << "print(x.grad)  # dL/dx\n";
    if (spec.has_weight()) o << "print(m.weight.grad)  # dL/dweight\n";
    if (spec.has_bias()) o << "print(m.bias.grad)  # dL/dbias\n";
    return o.str();
}

}  // namespace normlab::classroom
