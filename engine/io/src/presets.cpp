#include "normlab/io/presets.hpp"

#include "normlab/core/error.hpp"
#include "normlab/io/json_reader.hpp"
#include "normlab/core/tensor_init.hpp"

#include <cmath>
#include <set>
#include <string_view>
#include <utility>

namespace normlab::io {

// assets/presets/*.json as (path, text), in file-name order; generated at build time by
// cmake/embed_text.cmake (engine/io/CMakeLists.txt).
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_presets();

namespace {

constexpr std::size_t kMaxTransforms = 16;

void check_size(const JsonReader& r, const core::Shape4& s) {
    if (s.numel() > kMaxPresetElements)
        r.fail("a preset's tensor holds at most " + std::to_string(kMaxPresetElements) + " elements, " + s.str() +
               " has " + std::to_string(s.numel()));
}

// {"op": "scale" | "add", "by": B, "along": "n" | "c"}: x·B or x + B, B one number or one per
// sample (n) or channel (c), in float32.
void elementwise(const JsonReader& t, core::Tensor& x, bool scale) {
    t.only_keys({"op", "by", "along"});
    std::vector<float> by;
    int axis = -1;  // -1: every element, 0: per sample, 1: per channel
    if (t.get("by").is_array()) {
        const std::string along = t.has("along") ? t.string("along") : "";
        if (along != "n" && along != "c") t.fail(t.key("along") + " must be n or c when " + t.key("by") + " is a list");
        axis = along == "n" ? 0 : 1;
        by = t.floats("by");
        const std::int64_t want = axis == 0 ? x.shape.n : x.shape.c;
        if (static_cast<std::int64_t>(by.size()) != want)
            t.fail(t.key("by") + " has " + std::to_string(by.size()) + " numbers for " + std::to_string(want) +
                   (axis == 0 ? " samples" : " channels"));
    } else {
        if (t.has("along")) t.fail(t.key("along") + " needs " + t.key("by") + " to be a list");
        const float b = static_cast<float>(t.number("by"));
        if (!std::isfinite(b)) t.fail(t.key("by") + " = " + t.at("by").dump() + " does not fit a float32");
        by = {b};
    }
    for (std::size_t i = 0; i < x.data.size(); ++i) {
        const auto flat = static_cast<std::int64_t>(i);
        const std::int64_t k = axis < 0 ? 0 : axis == 0 ? flat / x.shape.chw() : flat / x.shape.hw() % x.shape.c;
        const float b = by[static_cast<std::size_t>(k)];
        x.data[i] = scale ? x.data[i] * b : x.data[i] + b;
    }
}

// {"op": "append_sample", "from": K, "scale": S, "add": A}: a new last sample x[K]·S + A.
void append_sample(const JsonReader& t, core::Tensor& x) {
    t.only_keys({"op", "from", "scale", "add"});
    const std::int64_t from = t.integer("from", 0, x.shape.n - 1);
    const double s = t.has("scale") ? t.number("scale") : 1.0, a = t.has("add") ? t.number("add") : 0.0;
    const float scale = static_cast<float>(s), add = static_cast<float>(a);
    if (!std::isfinite(scale) || !std::isfinite(add)) t.fail("scale and add must fit a float32");
    core::Shape4 grown = x.shape;
    grown.n += 1;
    check_size(t, grown);
    const auto chw = static_cast<std::size_t>(x.shape.chw()), start = static_cast<std::size_t>(from) * chw;
    x.data.reserve(x.data.size() + chw);
    for (std::size_t i = 0; i < chw; ++i) x.data.push_back(x.data[start + i] * scale + add);
    x.shape = grown;
}

void apply_transforms(const JsonReader& t, core::Tensor& x) {
    const nlohmann::json& list = t.list("transforms", 0, kMaxTransforms);
    for (std::size_t i = 0; i < list.size(); ++i) {
        JsonReader step(list[i], t.key("transforms[" + std::to_string(i) + "]"), t.name());
        const std::string op = step.string("op");
        if (op == "scale" || op == "add")
            elementwise(step, x, op == "scale");
        else if (op == "append_sample")
            append_sample(step, x);
        else
            step.fail(step.key("op") + " '" + op + "' is not one of scale, add, append_sample");
    }
}

// The "tensor" object: shape with its values written out, or generated (init, seed, value)
// as a scene's tensor, then the transforms in order.
core::Tensor read_tensor(const JsonReader& t) {
    t.only_keys({"shape", "values", "init", "seed", "value", "transforms"});
    if (!t.has("shape")) t.fail(t.key("shape") + " is missing");
    const core::TensorSource src = tensor_source_from_json(t);  // shape, init, seed, value as in a scene
    check_size(t, src.shape);
    core::Tensor x;
    if (t.has("values")) {
        if (t.has("init") || t.has("seed") || t.has("value"))
            t.fail(t.key("values") + " excludes init, seed and value");
        x = core::Tensor(src.shape);
        x.data = t.floats("values");
        if (static_cast<std::int64_t>(x.data.size()) != src.shape.numel())
            t.fail(t.key("values") + " has " + std::to_string(x.data.size()) + " numbers, shape " + src.shape.str() +
                   " needs " + std::to_string(src.shape.numel()));
    } else {
        if (!t.has("init")) t.fail(t.key("values") + " or " + t.key("init") + " is needed");
        x = make_tensor(src.shape, src.init, src.seed, src.value);
    }
    if (t.has("transforms")) apply_transforms(t, x);
    return x;
}

std::vector<Preset> load_embedded() {
    std::vector<Preset> out;
    std::set<std::string> names;
    for (const auto& [path, text] : embedded_presets()) {
        out.push_back(preset_from_json(std::string(text), std::string(path)));
        if (!names.insert(out.back().name).second)
            throw core::InputError(std::string(path) + ": the preset name '" + out.back().name + "' is used twice");
    }
    return out;
}

}  // namespace

Preset preset_from_json(const std::string& text, const std::string& name) {
    const nlohmann::json j = parse_json_text(text, name);
    JsonReader root(j, "", name, "a preset");
    root.format_version("normlab_preset", "preset");
    root.only_keys({"normlab_preset", "name", "source", "description", "literals", "tensor", "norm", "params"});
    Preset p;
    p.name = root.nonempty_string("name");
    const core::LocalText source = root.text("source", true), description = root.text("description", true);
    p.source = source.en;
    p.source_zh = source.zh;
    p.description = description.en;
    p.description_zh = description.zh;
    p.x = read_tensor(root.child("tensor"));
    p.spec = root.has("norm") ? norm_spec_from_json(root.child("norm")) : core::default_spec(core::Method::Batch);
    if (root.has("params")) p.params = norm_params_from_json(root.child("params"));
    if (root.has("literals")) {
        p.literals = root.strings("literals");
        for (const auto& l : p.literals)
            if (l.empty()) root.fail("\"literals\" must list non-empty strings");
    }
    core::State shown;
    shown.spec = p.spec;
    shown.params = p.params;
    check_state_for_shape(shown, p.x.shape, name, " (the preset's tensor has shape " + p.x.shape.str() + ")");
    return p;
}

const std::vector<Preset>& presets() {
    static const std::vector<Preset> all = load_embedded();
    return all;
}

const Preset* find_preset(const std::string& name) {
    for (const auto& p : presets())
        if (p.name == name) return &p;
    return nullptr;
}

}  // namespace normlab::io
