#include "normlab/core/norm_spec.hpp"

#include "normlab/core/error.hpp"

#include <cmath>
#include <sstream>

namespace normlab::core {

const std::vector<MethodInfo>& methods() {
    static const std::vector<MethodInfo> table{
        {Method::Batch, "batch", "BatchNorm2d", "BatchNorm"},
        {Method::Layer, "layer", "LayerNorm", "LayerNorm"},
        {Method::Instance, "instance", "InstanceNorm2d", "InstanceNorm"},
        {Method::Group, "group", "GroupNorm", "GroupNorm"},
        {Method::Rms, "rms", "RMSNorm", "RMSNorm"},
    };
    return table;
}

const MethodInfo& method_info(Method m) {
    for (const MethodInfo& info : methods())
        if (info.id == m) return info;
    static const MethodInfo unknown{Method::Batch, "?", "?", "?"};  // no value the enum names gets here
    return unknown;
}

std::string method_names(const std::string& sep, const std::string& last) {
    std::string out;
    const auto& all = methods();
    for (std::size_t i = 0; i < all.size(); ++i) out += (i == 0 ? "" : i + 1 == all.size() ? last : sep) + all[i].name;
    return out;
}

const char* method_name(Method m) { return method_info(m).name; }

const char* method_torch_name(Method m) { return method_info(m).torch_name; }

const char* method_torch_name(Method m, const Shape4& s) {
    if (m == Method::Batch) return s.rank <= 3 ? "BatchNorm1d" : s.rank == 5 ? "BatchNorm3d" : "BatchNorm2d";
    if (m == Method::Instance)
        return s.rank <= 3 ? "InstanceNorm1d" : s.rank == 5 ? "InstanceNorm3d" : "InstanceNorm2d";
    return method_torch_name(m);
}

std::string rank_error(Method m, const std::vector<std::int64_t>& dims) {
    const std::size_t r = dims.size();
    if (r >= 2 && r <= 5) return "";
    // LayerNorm and RMSNorm take one vector (nn.LayerNorm(D) on a single token).
    if (r == 1 && (m == Method::Layer || m == Method::Rms)) return "";
    const std::string got = " (got " + std::to_string(r) + "D input)";
    // PyTorch's own refusals: the module of the nearest rank (BatchNorm1d / BatchNorm3d, ...).
    if (m == Method::Batch) return (r < 2 ? "expected 2D or 3D input" : "expected 5D input") + got;
    if (m == Method::Instance) return (r < 2 ? "expected 2D or 3D input" : "expected 4D or 5D input") + got;
    if (m == Method::Group && r == 1) return "Dimension out of range (expected to be in range of [-1, 0], but got 1)";
    // PyTorch takes these (GroupNorm and LayerNorm beyond 5-D); normlab does not.
    return "normlab takes 1-D to 5-D tensors (D / N,C / N,L,D / N,C,H,W / N,C,D,H,W; 1-D under LayerNorm and "
           "RMSNorm only), got " +
           std::to_string(r) + "-D shape " + dims_str(dims);
}

void check_rank(Method m, const std::vector<std::int64_t>& dims) {
    const std::string e = rank_error(m, dims);
    if (!e.empty()) throw InputError(e);
}

std::optional<Method> parse_method(const std::string& name) {
    for (const MethodInfo& info : methods())
        if (name == info.name) return info.id;
    return std::nullopt;
}

const char* mode_name(Mode m) { return m == Mode::Train ? "train" : "eval"; }

std::optional<Mode> parse_mode(const std::string& name) {
    if (name == "train") return Mode::Train;
    if (name == "eval") return Mode::Eval;
    return std::nullopt;
}

const char* sync_mode_name(SyncMode m) {
    return m == SyncMode::Sync ? "sync" : m == SyncMode::Local ? "local" : "naive";
}

std::optional<SyncMode> parse_sync_mode(const std::string& name) {
    for (SyncMode m : {SyncMode::Sync, SyncMode::Local, SyncMode::Naive})
        if (name == sync_mode_name(m)) return m;
    return std::nullopt;
}

double NormSpec::effective_eps() const {
    if (eps) return *eps;
    return method == Method::Rms ? kRmsDefaultEps : kDefaultEps;
}

std::vector<std::int64_t> NormSpec::effective_normalized_shape(const Shape4& s) const {
    if (normalized_shape.empty()) {  // every dim but the first: [C,H,W]; [C]; [L,D]; [C,D,H,W]; 1-D: [D]
        const auto d = s.dims();
        return {d.begin() + (d.size() > 1 ? 1 : 0), d.end()};
    }
    return normalized_shape;
}

bool NormSpec::uses_batch_stats() const {
    return !(method == Method::Batch && mode == Mode::Eval && track_running_stats);
}

NormSpec default_spec(Method m) {
    NormSpec s;
    s.method = m;
    s.affine = m != Method::Instance;
    if (m == Method::Group) s.groups = 1;
    return s;
}

std::int64_t default_groups(std::int64_t channels, std::int64_t current) {
    if (channels < 1) return 1;
    if (current > 0 && channels % current == 0) return current;
    std::vector<std::int64_t> low, high;  // the divisors up to √C, and their partners, decreasing
    for (std::int64_t d = 1; d <= channels / d; ++d) {
        if (channels % d) continue;
        low.push_back(d);
        if (d != channels / d) high.push_back(channels / d);
    }
    low.insert(low.end(), high.rbegin(), high.rend());
    return low.size() > 2 ? low[(low.size() - 1) / 2] : low.back();
}

namespace {
// SyncBN on K simulated devices: BatchNorm only, N divisible by K, each shard more than one
// value per channel in training (PyTorch refuses a shard of one).
void validate_sync(const NormSpec& spec, const Shape4& s) {
    if (spec.method != Method::Batch)
        throw InputError(std::string("sync devices are only used by batch normalization, not by ") +
                         method_torch_name(spec.method));
    if (spec.sync_devices < 1)
        throw InputError("the number of sync devices must be >= 1, got " + std::to_string(spec.sync_devices));
    if (s.n % spec.sync_devices != 0)
        throw InputError("--sync-devices " + std::to_string(spec.sync_devices) + " needs a batch divisible by " +
                         std::to_string(spec.sync_devices) + ", got N = " + std::to_string(s.n));
    // Each device runs BatchNorm on its shard: PyTorch refuses a shard of one value per channel.
    if (spec.uses_batch_stats() && spec.mode == Mode::Train && (s.n / spec.sync_devices) * s.h * s.w == 1) {
        Shape4 shard = s;
        shard.n = s.n / spec.sync_devices;
        throw InputError("Expected more than 1 value per channel when training, got input size " + shard.str() +
                         " on each of the " + std::to_string(spec.sync_devices) + " devices");
    }
}

}  // namespace

void NormSpec::validate(const Shape4& s) const {
    s.validate();
    check_rank(method, s.dims());  // a 1-D tensor under BatchNorm, InstanceNorm or GroupNorm
    const double e = effective_eps();
    if (!std::isfinite(e) || e < 0) {
        std::ostringstream os;
        os << "eps must be a finite number >= 0, got " << e;
        throw InputError(os.str());
    }
    if (momentum && (!std::isfinite(*momentum) || *momentum < 0 || *momentum > 1)) {
        std::ostringstream os;
        os << "momentum must be in [0, 1] or 'cumulative', got " << *momentum;
        throw InputError(os.str());
    }
    if (sync_devices != 0) validate_sync(*this, s);
    switch (method) {
        case Method::Batch:
            // Also in eval mode without running statistics: PyTorch normalizes with the batch's then.
            if (uses_batch_stats() && s.n * s.h * s.w == 1)
                throw InputError("Expected more than 1 value per channel when training, got input size " + s.str());
            break;
        case Method::Instance:
            // PyTorch checks whenever instance statistics are used, which InstanceNorm2d
            // (track_running_stats=False) does in train and eval mode alike.
            // A 2-D input is one unbatched (C, L) sample to InstanceNorm1d: PyTorch prints [1, C, L].
            if (s.rank == 2 && s.c == 1)
                throw InputError("Expected more than 1 spatial element when training, got input size " +
                                 dims_str({1, s.n, s.c}));
            if (s.rank != 2 && s.h * s.w == 1)
                throw InputError("Expected more than 1 spatial element when training, got input size " + s.str());
            break;
        case Method::Group:
            if (groups <= 0)
                throw InputError("Expected num groups to be greater than 0, got " + std::to_string(groups));
            if (s.c % groups != 0)
                throw InputError(
                    "Expected number of channels in input to be divisible by num_groups, but got input of shape " +
                    s.str() + " and num_groups=" + std::to_string(groups));
            // PyTorch's GroupNorm also refuses a tensor whose only group has one element.
            if (s.n * (s.c / groups) * s.h * s.w == 1)
                throw InputError("Expected more than 1 value per channel when training, got input size " + s.str());
            break;
        case Method::Layer:
        case Method::Rms: {
            // normalized_shape is any run of trailing dims, up to all of them (one statistic over
            // the whole tensor, N included: F.layer_norm(x, x.shape)).
            const auto ns = effective_normalized_shape(s);  // never empty: [D] at rank 1
            const auto dims = s.dims();
            bool ok = ns.size() <= dims.size();
            for (std::size_t i = 0; ok && i < ns.size(); ++i)
                if (ns[i] != dims[dims.size() - ns.size() + i]) ok = false;
            if (!ok) {
                std::string expect = "[*";
                for (auto d : ns) expect += ", " + std::to_string(d);
                expect += "]";
                throw InputError("Given normalized_shape=" + dims_str(ns) + ", expected input with shape " + expect +
                                 ", but got input of size" + s.str());
            }
            break;
        }
    }
}

}  // namespace normlab::core
