// Scene files and tensor sources: a State read from and written to JSON (docs/scene-format.md)
// or one line of text, and the tensor a TensorSource names (generated, preset, .npy, image).
#include "normlab/io/scene_file.hpp"

#include "normlab/core/error.hpp"
#include "normlab/io/atomic_file.hpp"
#include "normlab/io/image_file.hpp"
#include "normlab/io/json_reader.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/io/presets.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace normlab::io {

using nlohmann::json;

core::Tensor load_tensor(const core::TensorSource& src, std::optional<core::Method> method) {
    switch (src.kind) {
        case core::TensorSource::Kind::Generated: return make_tensor(src.shape, src.init, src.seed, src.value);
        case core::TensorSource::Kind::Preset: {
            const Preset* p = find_preset(src.preset);
            if (!p) throw core::InputError("unknown preset '" + src.preset + "' (see --list-presets)");
            return p->x;
        }
        case core::TensorSource::Kind::File: {
            NpyArray a = read_npy(src.path);
            const std::string rank = core::rank_error(method.value_or(core::Method::Layer), a.shape);
            if (!rank.empty()) throw core::InputError(src.path + ": " + rank);
            core::Tensor t;
            t.shape = core::Shape4::from_dims(a.shape);
            t.data = std::move(a.data);
            return t;
        }
        case core::TensorSource::Kind::Image: return load_image(src.path);
    }
    throw core::InputError("bad tensor source");
}

namespace {

const char* kind_name(core::TensorSource::Kind k) {
    switch (k) {
        case core::TensorSource::Kind::Generated: return "generated";
        case core::TensorSource::Kind::Preset: return "preset";
        case core::TensorSource::Kind::File: return "file";
        case core::TensorSource::Kind::Image: return "image";
    }
    return "?";
}

// A known key that the chosen source or method does not read is a mistake (a forgotten
// "source": "file", a G under LayerNorm), refused with the key and what would read it;
// unknown keys stay ignored (docs/scene-format.md: forward compatibility).
void refuse_unread(const JsonReader& r, const char* key, bool read, const char* reader, const std::string& here) {
    if (!read && r.has(key)) r.fail(r.key(key) + " is read only " + reader + " (here: " + here + ")");
}

void refuse_unread_tensor_keys(const JsonReader& t, const core::TensorSource& src) {
    const std::string here = std::string("\"source\": \"") + kind_name(src.kind) + "\"";
    const bool generated = src.kind == core::TensorSource::Kind::Generated;
    for (const char* k : {"shape", "init", "seed"})
        refuse_unread(t, k, generated, "with \"source\": \"generated\"", here);
    refuse_unread(t, "value", generated && src.init == core::Init::Constant,
                  "with \"source\": \"generated\" and \"init\": \"constant\"",
                  generated ? std::string("\"init\": \"") + core::init_name(src.init) + "\"" : here);
    refuse_unread(t, "preset", src.kind == core::TensorSource::Kind::Preset, "with \"source\": \"preset\"", here);
    refuse_unread(t, "path", src.kind == core::TensorSource::Kind::File || src.kind == core::TensorSource::Kind::Image,
                  "with \"source\": \"file\" or \"image\"", here);
}

void refuse_unread_norm_keys(const JsonReader& n, const core::NormSpec& spec) {
    const std::string here = std::string("the method ") + core::method_name(spec.method);
    refuse_unread(n, "groups", spec.method == core::Method::Group, "by the method group", here);
    refuse_unread(n, "normalized_shape", spec.method == core::Method::Layer || spec.method == core::Method::Rms,
                  "by the methods layer and rms", here);
    for (const char* k : {"sync_devices", "sync_mode"})
        refuse_unread(n, k, spec.method == core::Method::Batch, "by the method batch (SyncBN)", here);
    refuse_unread(n, "style_image", spec.method == core::Method::Instance, "by the method instance (AdaIN)", here);
}

}  // namespace

std::string scene_to_json(const core::State& s) {
    json j;
    j["normlab_scene"] = 1;
    json t;
    t["source"] = kind_name(s.source.kind);
    if (s.source.kind == core::TensorSource::Kind::Generated) {
        t["shape"] = s.source.shape.dims();
        t["init"] = core::init_name(s.source.init);
        t["seed"] = s.source.seed;
        if (s.source.init == core::Init::Constant) t["value"] = s.source.value;
    } else if (s.source.kind == core::TensorSource::Kind::Preset) {
        t["preset"] = s.source.preset;
    } else {
        t["path"] = s.source.path;
    }
    j["tensor"] = t;
    json n;
    n["method"] = core::method_name(s.spec.method);
    if (s.spec.method == core::Method::Group) n["groups"] = s.spec.groups;
    if (!s.spec.normalized_shape.empty()) n["normalized_shape"] = s.spec.normalized_shape;
    n["eps"] = s.spec.eps ? json(*s.spec.eps) : json(nullptr);
    n["affine"] = s.spec.affine;
    n["bias"] = s.spec.bias;
    n["mode"] = core::mode_name(s.spec.mode);
    n["momentum"] = s.spec.momentum ? json(*s.spec.momentum) : json("cumulative");
    n["track_running_stats"] = s.spec.track_running_stats;
    if (s.spec.sync_devices > 0) {
        n["sync_devices"] = s.spec.sync_devices;
        n["sync_mode"] = core::sync_mode_name(s.spec.sync_mode);
    }
    if (!s.style_image.empty()) n["style_image"] = s.style_image;
    j["norm"] = n;
    json p = json::object();
    if (!s.params.weight.empty()) p["weight"] = s.params.weight;
    if (!s.params.bias.empty()) p["bias"] = s.params.bias;
    if (!s.params.running_mean.empty()) p["running_mean"] = s.params.running_mean;
    if (!s.params.running_var.empty()) p["running_var"] = s.params.running_var;
    p["num_batches_tracked"] = s.params.num_batches_tracked;
    j["params"] = p;
    j["selection"] = s.selection ? json(*s.selection) : json(nullptr);
    if (!s.exercise.empty()) j["exercise"] = {{"hide", s.exercise.hidden_names()}, {"lock", s.exercise.locked_names()}};
    if (!s.view_json.empty()) {
        try {
            j["view"] = json::parse(s.view_json);
        } catch (const json::exception&) {}
    }
    return j.dump(2) + "\n";
}

core::TensorSource tensor_source_from_json(const JsonReader& t) {
    core::TensorSource src;
    const std::string kind = t.has("source") ? t.string("source") : "generated";
    if (kind == "generated") {
        src.kind = core::TensorSource::Kind::Generated;
        if (t.has("shape")) {
            auto d = t.dims("shape", 1, 5);
            try {
                src.shape = core::Shape4::from_dims(d);
            } catch (const core::InputError& e) {
                t.fail(t.key("shape") + ": " + e.what());
            }
        }
        if (t.has("init")) {
            auto i = core::parse_init(t.string("init"));
            if (!i)
                t.fail(t.key("init") + " '" + t.string("init") +
                       "' is not one of randn, uniform, arange, zeros, ones, constant");
            src.init = *i;
        }
        if (t.has("seed")) src.seed = static_cast<std::uint64_t>(t.integer("seed", 0, std::int64_t{1} << 53));
        if (t.has("value")) {
            src.value = static_cast<float>(t.number("value"));
            if (!std::isfinite(src.value))
                t.fail(t.key("value") + " = " + t.at("value").dump() + " does not fit a float32");
        }
    } else if (kind == "preset") {
        src.kind = core::TensorSource::Kind::Preset;
        src.preset = t.string("preset");
        if (!find_preset(src.preset)) t.fail("unknown preset '" + src.preset + "'");
    } else if (kind == "file") {
        src.kind = core::TensorSource::Kind::File;
        src.path = t.string("path");
    } else if (kind == "image") {
        src.kind = core::TensorSource::Kind::Image;
        src.path = t.string("path");
    } else {
        t.fail(t.key("source") + " must be generated, preset, file or image, got '" + kind + "'");
    }
    refuse_unread_tensor_keys(t, src);
    return src;
}

core::NormSpec norm_spec_from_json(const JsonReader& n, core::NormSpec spec) {
    if (n.has("method")) {
        auto m = core::parse_method(n.string("method"));
        if (!m) n.fail("unknown method '" + n.string("method") + "' (batch, layer, instance, group or rms)");
        spec = core::default_spec(*m);
    }
    if (n.has("groups")) spec.groups = n.integer("groups", 1, core::kMaxElements);
    if (n.has("normalized_shape")) spec.normalized_shape = n.dims("normalized_shape", 1, 5);
    if (n.has("eps")) {
        double e = n.number("eps");
        if (!std::isfinite(e) || e < 0) n.fail(n.key("eps") + " must be a finite number >= 0");
        spec.eps = e;
    }
    if (n.has("affine")) spec.affine = n.boolean("affine");
    if (n.has("bias")) spec.bias = n.boolean("bias");
    if (n.has("mode")) {
        auto m = core::parse_mode(n.string("mode"));
        if (!m) n.fail(n.key("mode") + " must be train or eval");
        spec.mode = *m;
    }
    if (n.has("momentum")) {
        const std::string bad = n.key("momentum") + " must be a number in [0, 1] or \"cumulative\"";
        if (n.at("momentum").is_string()) {
            if (n.string("momentum") != "cumulative") n.fail(bad);
            spec.momentum.reset();
        } else {
            double m = n.number("momentum");
            if (!(m >= 0 && m <= 1)) n.fail(bad);
            spec.momentum = m;
        }
    }
    if (n.has("track_running_stats")) spec.track_running_stats = n.boolean("track_running_stats");
    if (n.has("sync_devices")) spec.sync_devices = n.integer("sync_devices", 0, core::kMaxElements);
    if (n.has("sync_mode")) {
        auto m = core::parse_sync_mode(n.string("sync_mode"));
        if (!m) n.fail(n.key("sync_mode") + " must be sync, local or naive");
        spec.sync_mode = *m;
    }
    refuse_unread_norm_keys(n, spec);
    return spec;
}

core::NormParams norm_params_from_json(const JsonReader& p) {
    core::NormParams params;
    if (p.has("weight")) params.weight = p.floats("weight");
    if (p.has("bias")) params.bias = p.floats("bias");
    if (p.has("running_mean")) params.running_mean = p.floats("running_mean");
    if (p.has("running_var")) params.running_var = p.floats("running_var");
    if (p.has("num_batches_tracked"))
        params.num_batches_tracked = p.integer("num_batches_tracked", 0, std::int64_t{1} << 53);
    return params;
}

core::State state_from_json(const JsonReader& r) {
    core::State s;
    if (r.has("tensor")) s.source = tensor_source_from_json(r.child("tensor"));
    if (r.has("norm")) {
        const JsonReader n = r.child("norm");
        s.spec = norm_spec_from_json(n, s.spec);
        if (n.has("style_image")) s.style_image = n.string("style_image");
    }
    if (r.has("params")) s.params = norm_params_from_json(r.child("params"));
    if (r.has("selection")) {
        auto d = r.dims("selection", 4, 4);
        s.selection = core::Index4{d[0], d[1], d[2], d[3]};
    }
    if (r.has("view")) s.view_json = r.at("view").dump();
    if (r.has("exercise")) {
        const JsonReader e = r.child("exercise");
        const auto names = [&](const char* k) { return e.has(k) ? e.strings(k) : std::vector<std::string>{}; };
        const std::vector<std::string> hide = names("hide"), lock = names("lock");
        try {
            s.exercise = core::make_exercise(hide, lock, e.key("hide"), e.key("lock"));
        } catch (const core::InputError& err) {
            r.fail(err.what());
        }
    }
    // Generated tensors have a known shape: check the whole configuration now.
    if (s.source.kind == core::TensorSource::Kind::Generated) check_state_for_shape(s, s.source.shape, r.name());
    return s;
}

core::State scene_from_json(const std::string& text, const std::string& name) {
    const json j = parse_json_text(text, name);
    JsonReader root(j, "", name, "a scene");
    root.format_version("normlab_scene", "scene");
    return state_from_json(root);
}

core::State load_scene(const std::string& path) { return scene_from_json(read_file(path, 64u << 20), path); }

void save_scene(const core::State& state, const std::string& path) { write_file_atomic(path, scene_to_json(state)); }

}  // namespace normlab::io
