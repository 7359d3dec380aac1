#include "state_options.hpp"

#include "normlab/core/error.hpp"
#include "normlab/io/image_file.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/io/presets.hpp"
#include "normlab/io/scene_file.hpp"

#include <cmath>

namespace normlab {

void add_state_options(CLI::App& app, StateOptions& o, bool norm_required) {
    auto* norm = app.add_option("--norm", o.norm, core::method_names(" | ", " | "));
    if (norm_required) norm->required();
    app.add_option("--input", o.input,
                   "input tensor: a .npy of 1 to 5 dims, N×C, N×L×D, N×C×H×W, N×C×D×H×W or D (float32 or float64)");
    app.add_option("--shape", o.shape, "generate a tensor of shape N,C,H,W, N,L,D, N,C, N,C,D,H,W or D (layer, rms)");
    app.add_option("--init", o.init,
                   "randn | uniform | arange | zeros | ones | constant (with --shape; default randn)");
    app.add_option("--value", o.value, "the value of --init constant");
    app.add_option("--seed", o.seed, "random seed for --init randn/uniform (default 0)");
    app.add_option("--preset", o.preset, "a built-in tensor from the seeds' worked examples (--list-presets)");
    app.add_option("--image", o.image,
                   "input image: an 8-bit PNG or JPEG as a 1×C×H×W tensor of value/255 (C = 1 gray or 3 RGB)");
    app.add_option("--style-image", o.style_image,
                   "instance: AdaIN with this PNG/JPEG's per-channel mean and std as β and γ");
    app.add_option("--scene", o.scene, "start from a scene file (other options override it)");
    app.add_option("--groups", o.groups, "group: number of groups G (must divide C)");
    app.add_option("--normalized-shape", o.normalized_shape,
                   "layer/rms: trailing dims W | H,W | C,H,W, or D | L,D of a 3-D tensor, up to every dim (N included: "
                   "one statistic over the whole tensor; default: all but N)");
    app.add_option("--eps", o.eps, "epsilon (default 1e-5; rms 1.1920929e-07)");
    app.add_option("--weight", o.weight, "γ .npy: shape [C] (batch/instance/group) or normalized_shape (layer/rms)");
    app.add_option("--bias", o.bias, "β .npy, same shape as --weight");
    app.add_flag("--no-affine", o.no_affine, "no γ and β at all");
    app.add_flag("--affine", o.affine, "use γ and β (instance: off by default)");
    app.add_flag("--no-bias", o.no_bias, "layer: LayerNorm(bias=False)");
    app.add_option("--mode", o.mode, "train | eval (batch; default train)");
    app.add_option("--momentum", o.momentum, "running-stat momentum M in [0,1] or 'cumulative' (default 0.1)");
    app.add_option("--running-mean", o.running_mean, "batch: running mean .npy [C] (default zeros)");
    app.add_option("--running-var", o.running_var, "batch: running variance .npy [C] (default ones)");
    app.add_option("--num-batches-tracked", o.num_batches_tracked, "batch: batches seen so far (default 0)");
    app.add_option("--select", o.select,
                   "select element n,c,h,w (n,l,d for a 3-D tensor, n,c for 2-D, n,c,d,h,w for 5-D, d for 1-D)");
    app.add_option("--sync-devices", o.sync_devices,
                   "batch: SyncBN on K simulated devices, shards of N/K consecutive samples (K divides N)");
    app.add_option("--sync-mode", o.sync_mode,
                   "sync | local | naive: exact all-reduce, per-shard statistics, or the mean of the shard "
                   "variances (with --sync-devices; default sync)");
}

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help
        throw core::InputError(std::string(e.what()) + " (see --help)");
    }
    return std::nullopt;
}

namespace {

// Loads a parameter .npy and checks its shape exactly against `expected`.
std::vector<float> load_param(const std::string& path, const std::vector<std::int64_t>& expected, const char* what) {
    io::NpyArray a = io::read_npy(path);
    if (a.shape != expected)
        throw core::InputError(std::string(what) + " " + path + " has shape " + core::dims_str(a.shape) +
                               ", expected " + core::dims_str(expected));
    return a.data;
}

// --norm: a new method starts from its PyTorch defaults (a scene's own method keeps its spec).
void resolve_method(const StateOptions& o, core::State& s) {
    if (o.norm.empty()) return;
    auto m = core::parse_method(o.norm);
    if (!m) throw core::InputError("unknown --norm '" + o.norm + "' (" + core::method_names() + ")");
    if (*m != s.spec.method || o.scene.empty()) {
        core::NormSpec d = core::default_spec(*m);
        d.groups = s.spec.method == core::Method::Group && *m == core::Method::Group ? s.spec.groups : d.groups;
        s.spec = d;
    }
}

// --input, --shape or --preset, then --init, --seed and --value of a generated tensor.
void resolve_source(const StateOptions& o, core::State& s) {
    if (!o.input.empty()) {
        s.source.kind = core::TensorSource::Kind::File;
        s.source.path = o.input;
    } else if (!o.image.empty()) {
        s.source.kind = core::TensorSource::Kind::Image;
        s.source.path = o.image;
    } else if (!o.shape.empty()) {
        s.source.kind = core::TensorSource::Kind::Generated;
        // A well-formed shape of another rank (1-D, 6-D) gets PyTorch's refusal for the method.
        std::vector<std::int64_t> dims;
        try {
            dims = core::parse_dims(o.shape, "--shape", 1, 64);
        } catch (const core::InputError&) {}
        if (!dims.empty()) check_rank(s.spec.method, dims);
        s.source.shape = core::Shape4::from_dims(core::parse_dims(o.shape, "--shape", 1, 5));
    } else if (!o.preset.empty()) {
        const io::Preset* p = io::find_preset(o.preset);
        if (!p) throw core::InputError("unknown preset '" + o.preset + "' (see --list-presets)");
        s.source.kind = core::TensorSource::Kind::Preset;
        s.source.preset = o.preset;
        if (o.norm.empty()) s.spec = p->spec;
        if (p->spec.method == s.spec.method) {
            s.spec.normalized_shape = p->spec.normalized_shape;
            s.params.weight = p->params.weight;
            s.params.bias = p->params.bias;
        }
    }
    if (o.init.empty() && !o.seed && !o.value) return;
    if (s.source.kind != core::TensorSource::Kind::Generated)
        throw core::InputError("--init, --seed and --value need --shape");
    if (!o.init.empty()) {
        auto i = core::parse_init(o.init);
        if (!i)
            throw core::InputError("unknown --init '" + o.init + "' (randn, uniform, arange, zeros, ones or constant)");
        s.source.init = *i;
    }
    if (o.seed) s.source.seed = *o.seed;
    if (o.value) {
        if (!std::isfinite(*o.value)) throw core::InputError("--value must be finite");
        s.source.value = static_cast<float>(*o.value);
        if (o.init.empty()) s.source.init = core::Init::Constant;
    }
}

// --groups, --normalized-shape and --eps.
void resolve_shape_options(const StateOptions& o, core::NormSpec& spec) {
    if (o.groups) {
        if (spec.method != core::Method::Group) throw core::InputError("--groups is only used by --norm group");
        spec.groups = *o.groups;
    } else if (spec.method == core::Method::Group && !o.norm.empty()) {
        // G has no sensible default: GroupNorm(num_groups, num_channels) requires it too.
        throw core::InputError("--norm group needs --groups G (a divisor of C)");
    }
    if (!o.normalized_shape.empty()) {
        if (spec.method != core::Method::Layer && spec.method != core::Method::Rms)
            throw core::InputError("--normalized-shape is only used by --norm layer and rms");
        spec.normalized_shape = core::parse_dims(o.normalized_shape, "--normalized-shape", 1, 5);
    }
    if (o.eps) spec.eps = *o.eps;
}

// --affine, --no-affine and --no-bias. --weight or --bias make InstanceNorm affine, as
// F.instance_norm(x, weight=w, bias=b) is (unless --no-affine, which load_state refuses).
void resolve_affine(const StateOptions& o, core::NormSpec& spec) {
    if (o.no_affine && o.affine) throw core::InputError("give only one of --affine and --no-affine");
    if (o.no_affine) spec.affine = false;
    if (o.affine) spec.affine = true;
    if (spec.method == core::Method::Instance && !o.no_affine && (!o.weight.empty() || !o.bias.empty()))
        spec.affine = true;
    if (o.no_bias) {
        if (spec.method != core::Method::Layer) throw core::InputError("--no-bias is only used by --norm layer");
        spec.bias = false;
    }
}

// --mode and --momentum (BatchNorm).
void resolve_batch_options(const StateOptions& o, core::NormSpec& spec) {
    if (!o.mode.empty()) {
        auto m = core::parse_mode(o.mode);
        if (!m) throw core::InputError("--mode must be train or eval, got '" + o.mode + "'");
        spec.mode = *m;
    }
    if (o.momentum.empty()) return;
    if (o.momentum == "cumulative") {
        spec.momentum.reset();
        return;
    }
    char* end = nullptr;
    double m = std::strtod(o.momentum.c_str(), &end);
    if (end == o.momentum.c_str() || *end != '\0' || !(m >= 0 && m <= 1))
        throw core::InputError("--momentum must be a number in [0, 1] or 'cumulative', got '" + o.momentum + "'");
    spec.momentum = m;
}

// --sync-devices and --sync-mode (BatchNorm; the divisibility of N is checked with the tensor).
void resolve_sync_options(const StateOptions& o, core::NormSpec& spec) {
    if (!o.sync_mode.empty() && !o.sync_devices && spec.sync_devices == 0)
        throw core::InputError("--sync-mode needs --sync-devices K");
    if (o.sync_devices) {
        if (spec.method != core::Method::Batch) throw core::InputError("--sync-devices is only used by --norm batch");
        if (*o.sync_devices < 1)
            throw core::InputError("--sync-devices must be >= 1, got " + std::to_string(*o.sync_devices));
        spec.sync_devices = *o.sync_devices;
    }
    if (!o.sync_mode.empty()) {
        auto m = core::parse_sync_mode(o.sync_mode);
        if (!m) throw core::InputError("--sync-mode must be sync, local or naive, got '" + o.sync_mode + "'");
        spec.sync_mode = *m;
    }
}

}  // namespace

core::State resolve_state(const StateOptions& o, core::State s) {
    if (!o.scene.empty()) s = io::load_scene(o.scene);
    const int sources = !o.input.empty() + !o.shape.empty() + !o.preset.empty() + !o.image.empty();
    if (sources > 1) throw core::InputError("give only one of --input, --image, --shape and --preset");
    resolve_method(o, s);
    if (!o.style_image.empty()) {
        if (s.spec.method != core::Method::Instance)
            throw core::InputError("--style-image (AdaIN) is only used by --norm instance");
        s.style_image = o.style_image;
    } else if (s.spec.method != core::Method::Instance) {
        s.style_image.clear();  // a scene's AdaIN style, dropped with its method
    }
    resolve_source(o, s);
    resolve_shape_options(o, s.spec);
    resolve_affine(o, s.spec);
    resolve_batch_options(o, s.spec);
    resolve_sync_options(o, s.spec);
    if (!o.select.empty()) core::parse_indices(o.select, "--select", 5, 1);  // well-formed; load_state places it
    if (o.num_batches_tracked) s.params.num_batches_tracked = *o.num_batches_tracked;
    return s;
}

namespace {

// --select's indices on the user's axes of x (d / n,c / n,l,d / n,c,h,w / n,c,d,h,w), each inside
// its dim, as the stored (n, c, h, w) index (stored_index).
core::Index4 selected_element(const std::string& text, const core::Shape4& shape, core::Method m) {
    const auto u = core::parse_indices(text, "--select", 5, 1);
    const auto dims = shape.dims();
    if (u.size() != dims.size())
        throw core::InputError("--select " + text + " has " + std::to_string(u.size()) +
                               " indices, the tensor of shape " + shape.str() + " has " + std::to_string(dims.size()) +
                               " dims");
    for (std::size_t a = 0; a < u.size(); ++a)
        if (u[a] >= dims[a])
            throw core::InputError("--select " + text + " is outside the tensor of shape " + shape.str() + " (axis " +
                                   core::axis_names(m, shape)[a] + " has " + std::to_string(dims[a]) + ")");
    return core::stored_index(shape, u);
}

}  // namespace

LoadedState load_state(const StateOptions& o, core::State base,
                       const std::function<void(const core::Shape4&)>& check_shape) {
    LoadedState out;
    out.state = resolve_state(o, std::move(base));
    core::State& s = out.state;
    if (check_shape && s.source.kind == core::TensorSource::Kind::Generated) check_shape(s.source.shape);
    out.x = io::load_tensor(s.source, s.spec.method);
    if (check_shape) check_shape(out.x.shape);
    out.layout = core::make_layout(s.spec, out.x.shape);
    const auto& ps = out.layout.param_shape;
    const std::vector<std::int64_t> cs{out.x.shape.c};
    if (!o.weight.empty()) s.params.weight = load_param(o.weight, ps, "--weight");
    if (!o.bias.empty()) s.params.bias = load_param(o.bias, ps, "--bias");
    if (!o.running_mean.empty() || !o.running_var.empty() || o.num_batches_tracked) {
        if (s.spec.method != core::Method::Batch)
            throw core::InputError(
                "--running-mean, --running-var and --num-batches-tracked are only used by --norm batch");
    }
    if (!o.running_mean.empty()) s.params.running_mean = load_param(o.running_mean, cs, "--running-mean");
    if (!o.running_var.empty()) s.params.running_var = load_param(o.running_var, cs, "--running-var");
    if (!s.spec.affine) {
        if (!o.weight.empty() || !o.bias.empty())
            throw core::InputError(o.no_affine
                                       ? "--weight and --bias cannot be used with --no-affine"
                                       : "--weight and --bias need γ/β, which this state has off (add --affine)");
        s.params.weight.clear();
        s.params.bias.clear();
    }
    if (!s.spec.has_bias() && !s.params.bias.empty()) {
        if (!o.bias.empty())
            throw core::InputError(s.spec.method == core::Method::Rms ? "rms has no bias (--bias)"
                                                                      : "--bias cannot be used with --no-bias");
        s.params.bias.clear();
    }
    s.params.validate(s.spec, out.layout);
    if (!o.select.empty()) s.selection = selected_element(o.select, out.x.shape, s.spec.method);
    core::validate_selection(s.selection, out.x.shape);
    if (!s.style_image.empty()) {
        if (!o.weight.empty() || !o.bias.empty())
            throw core::InputError(
                "--weight and --bias cannot be used with --style-image (AdaIN takes γ and β from the style)");
        out.style = io::load_image(s.style_image);
        io::check_style_channels(out.x.shape, out.style->shape,
                                 s.source.kind == core::TensorSource::Kind::Image ? "the content image" : "the input");
    }
    return out;
}

}  // namespace normlab
