#include "normlab/state.hpp"

#include "normlab/atomic_file.hpp"
#include "normlab/error.hpp"
#include "normlab/npy.hpp"
#include "normlab/presets.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace normlab {

using nlohmann::json;

Tensor load_tensor(const TensorSource& src) {
    switch (src.kind) {
        case TensorSource::Kind::Generated: return make_tensor(src.shape, src.init, src.seed, src.value);
        case TensorSource::Kind::Preset: {
            const Preset* p = find_preset(src.preset);
            if (!p) throw InputError("unknown preset '" + src.preset + "' (see --list-presets)");
            return p->x;
        }
        case TensorSource::Kind::File: {
            NpyArray a = read_npy(src.path);
            if (a.shape.size() != 4)
                throw InputError(src.path + ": expected a 4-D N×C×H×W array, got shape " + dims_str(a.shape));
            Tensor t;
            t.shape = Shape4::from_dims(a.shape);
            t.data = std::move(a.data);
            return t;
        }
    }
    throw InputError("bad tensor source");
}

void validate_selection(const std::optional<Index4>& sel, const Shape4& s) {
    if (!sel) return;
    auto d = s.dims();
    for (std::size_t i = 0; i < 4; ++i)
        if ((*sel)[i] < 0 || (*sel)[i] >= d[i])
            throw InputError("selection " + dims_str({(*sel)[0], (*sel)[1], (*sel)[2], (*sel)[3]}) +
                             " is outside the tensor of shape " + s.str());
}

namespace {

const char* kind_name(TensorSource::Kind k) {
    switch (k) {
        case TensorSource::Kind::Generated: return "generated";
        case TensorSource::Kind::Preset: return "preset";
        case TensorSource::Kind::File: return "file";
    }
    return "?";
}

// Typed access to a JSON object that names the offending key in its errors.
class Reader {
public:
    Reader(const json& j, std::string where, std::string name) : j_(j), where_(std::move(where)), name_(std::move(name)) {
        if (!j_.is_object()) fail(where_.empty() ? "a scene must be a JSON object" : where_ + " must be an object");
    }
    [[noreturn]] void fail(const std::string& why) const { throw InputError(name_ + ": " + why); }
    std::string key(const std::string& k) const { return where_.empty() ? k : where_ + "." + k; }
    bool has(const std::string& k) const { return j_.contains(k) && !j_.at(k).is_null(); }
    const json& at(const std::string& k) const { return get(k); }
    // The value of a key that must be there (nlohmann's at() would throw its own exception).
    const json& get(const std::string& k) const {
        auto it = j_.find(k);
        if (it == j_.end()) fail(key(k) + " is missing");
        return *it;
    }

    std::int64_t integer(const std::string& k, std::int64_t lo, std::int64_t hi) const {
        const json& v = get(k);
        if (!v.is_number_integer()) fail(key(k) + " must be an integer");
        std::int64_t x = v.get<std::int64_t>();
        if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)) x = hi + 1;
        if (x < lo || x > hi) fail(key(k) + " = " + v.dump() + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
        return x;
    }
    double number(const std::string& k) const {
        const json& v = get(k);
        if (!v.is_number()) fail(key(k) + " must be a number");
        return v.get<double>();
    }
    bool boolean(const std::string& k) const {
        const json& v = get(k);
        if (!v.is_boolean()) fail(key(k) + " must be true or false");
        return v.get<bool>();
    }
    std::string string(const std::string& k) const {
        const json& v = get(k);
        if (!v.is_string()) fail(key(k) + " must be a string");
        return v.get<std::string>();
    }
    std::vector<std::int64_t> dims(const std::string& k, std::size_t lo, std::size_t hi) const {
        const json& v = get(k);
        if (!v.is_array() || v.size() < lo || v.size() > hi)
            fail(key(k) + " must be a list of " + std::to_string(lo) + (lo == hi ? "" : " to " + std::to_string(hi)) + " integers");
        std::vector<std::int64_t> out;
        for (const auto& e : v) {
            if (!e.is_number_integer() || e.get<std::int64_t>() < 0 || (e.is_number_unsigned() && e.get<std::uint64_t>() > (1ull << 40)))
                fail(key(k) + " must hold non-negative integers");
            out.push_back(e.get<std::int64_t>());
        }
        return out;
    }
    std::vector<float> floats(const std::string& k) const {
        const json& v = get(k);
        if (!v.is_array()) fail(key(k) + " must be a list of numbers");
        std::vector<float> out;
        for (const auto& e : v) {
            if (!e.is_number()) fail(key(k) + " must be a list of numbers");
            // JSON has no Inf/NaN: a value beyond float32 would become Inf and save as null.
            const float f = static_cast<float>(e.get<double>());
            if (!std::isfinite(f)) fail(key(k) + " holds " + e.dump() + ", which does not fit a float32");
            out.push_back(f);
        }
        return out;
    }

private:
    const json& j_;
    std::string where_, name_;
};

}  // namespace

std::string scene_to_json(const State& s) {
    json j;
    j["normlab_scene"] = 1;
    json t;
    t["source"] = kind_name(s.source.kind);
    if (s.source.kind == TensorSource::Kind::Generated) {
        t["shape"] = s.source.shape.dims();
        t["init"] = init_name(s.source.init);
        t["seed"] = s.source.seed;
        if (s.source.init == Init::Constant) t["value"] = s.source.value;
    } else if (s.source.kind == TensorSource::Kind::Preset) {
        t["preset"] = s.source.preset;
    } else {
        t["path"] = s.source.path;
    }
    j["tensor"] = t;
    json n;
    n["method"] = method_name(s.spec.method);
    if (s.spec.method == Method::Group) n["groups"] = s.spec.groups;
    if (!s.spec.normalized_shape.empty()) n["normalized_shape"] = s.spec.normalized_shape;
    n["eps"] = s.spec.eps ? json(*s.spec.eps) : json(nullptr);
    n["affine"] = s.spec.affine;
    n["bias"] = s.spec.bias;
    n["mode"] = mode_name(s.spec.mode);
    n["momentum"] = s.spec.momentum ? json(*s.spec.momentum) : json("cumulative");
    n["track_running_stats"] = s.spec.track_running_stats;
    j["norm"] = n;
    json p = json::object();
    if (!s.params.weight.empty()) p["weight"] = s.params.weight;
    if (!s.params.bias.empty()) p["bias"] = s.params.bias;
    if (!s.params.running_mean.empty()) p["running_mean"] = s.params.running_mean;
    if (!s.params.running_var.empty()) p["running_var"] = s.params.running_var;
    p["num_batches_tracked"] = s.params.num_batches_tracked;
    j["params"] = p;
    j["selection"] = s.selection ? json(*s.selection) : json(nullptr);
    if (!s.view_json.empty()) {
        try {
            j["view"] = json::parse(s.view_json);
        } catch (const json::exception&) {
        }
    }
    return j.dump(2) + "\n";
}

State scene_from_json(const std::string& text, const std::string& name) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        std::string what = e.what();
        throw InputError(name + ": not valid JSON (" + what.substr(what.find(']') + 2) + ")");
    }
    Reader root(j, "", name);
    if (!root.has("normlab_scene") || root.integer("normlab_scene", 1, 1) != 1)
        root.fail("not a normlab scene (needs \"normlab_scene\": 1)");
    State s;
    if (root.has("tensor")) {
        Reader t(root.at("tensor"), "tensor", name);
        std::string kind = t.has("source") ? t.string("source") : "generated";
        if (kind == "generated") {
            s.source.kind = TensorSource::Kind::Generated;
            if (t.has("shape")) {
                auto d = t.dims("shape", 4, 4);
                try {
                    s.source.shape = Shape4::from_dims(d);
                } catch (const InputError& e) {
                    t.fail(std::string("tensor.shape: ") + e.what());
                }
            }
            if (t.has("init")) {
                auto i = parse_init(t.string("init"));
                if (!i) t.fail("tensor.init '" + t.string("init") + "' is not one of randn, uniform, arange, zeros, ones, constant");
                s.source.init = *i;
            }
            if (t.has("seed")) s.source.seed = static_cast<std::uint64_t>(t.integer("seed", 0, std::int64_t{1} << 53));
            if (t.has("value")) {
                s.source.value = static_cast<float>(t.number("value"));
                if (!std::isfinite(s.source.value)) t.fail("tensor.value = " + t.at("value").dump() + " does not fit a float32");
            }
        } else if (kind == "preset") {
            s.source.kind = TensorSource::Kind::Preset;
            s.source.preset = t.string("preset");
            if (!find_preset(s.source.preset)) t.fail("unknown preset '" + s.source.preset + "'");
        } else if (kind == "file") {
            s.source.kind = TensorSource::Kind::File;
            s.source.path = t.string("path");
        } else {
            t.fail("tensor.source must be generated, preset or file, got '" + kind + "'");
        }
    }
    if (root.has("norm")) {
        Reader n(root.at("norm"), "norm", name);
        if (n.has("method")) {
            auto m = parse_method(n.string("method"));
            if (!m) n.fail("unknown method '" + n.string("method") + "' (batch, layer, instance, group or rms)");
            s.spec = default_spec(*m);
        }
        if (n.has("groups")) s.spec.groups = n.integer("groups", 1, kMaxElements);
        if (n.has("normalized_shape")) s.spec.normalized_shape = n.dims("normalized_shape", 1, 3);
        if (n.has("eps")) {
            double e = n.number("eps");
            if (!std::isfinite(e) || e < 0) n.fail("norm.eps must be a finite number >= 0");
            s.spec.eps = e;
        }
        if (n.has("affine")) s.spec.affine = n.boolean("affine");
        if (n.has("bias")) s.spec.bias = n.boolean("bias");
        if (n.has("mode")) {
            auto m = parse_mode(n.string("mode"));
            if (!m) n.fail("norm.mode must be train or eval");
            s.spec.mode = *m;
        }
        if (n.has("momentum")) {
            if (n.at("momentum").is_string()) {
                if (n.string("momentum") != "cumulative") n.fail("norm.momentum must be a number in [0, 1] or \"cumulative\"");
                s.spec.momentum.reset();
            } else {
                double m = n.number("momentum");
                if (!(m >= 0 && m <= 1)) n.fail("norm.momentum must be a number in [0, 1] or \"cumulative\"");
                s.spec.momentum = m;
            }
        }
        if (n.has("track_running_stats")) s.spec.track_running_stats = n.boolean("track_running_stats");
    }
    if (root.has("params")) {
        Reader p(root.at("params"), "params", name);
        if (p.has("weight")) s.params.weight = p.floats("weight");
        if (p.has("bias")) s.params.bias = p.floats("bias");
        if (p.has("running_mean")) s.params.running_mean = p.floats("running_mean");
        if (p.has("running_var")) s.params.running_var = p.floats("running_var");
        if (p.has("num_batches_tracked")) s.params.num_batches_tracked = p.integer("num_batches_tracked", 0, std::int64_t{1} << 53);
    }
    if (root.has("selection")) {
        auto d = root.dims("selection", 4, 4);
        s.selection = Index4{d[0], d[1], d[2], d[3]};
    }
    if (root.has("view")) s.view_json = root.at("view").dump();
    // Generated tensors have a known shape: check the whole configuration now.
    if (s.source.kind == TensorSource::Kind::Generated) {
        try {
            StatLayout layout = make_layout(s.spec, s.source.shape);
            s.params.validate(s.spec, layout);
            validate_selection(s.selection, s.source.shape);
        } catch (const InputError& e) {
            root.fail(e.what());
        }
    }
    return s;
}

State load_scene(const std::string& path) { return scene_from_json(read_file(path, 64u << 20), path); }

void save_scene(const State& state, const std::string& path) { write_file_atomic(path, scene_to_json(state)); }

}  // namespace normlab
