#include "normlab/classroom/experiments.hpp"

#include "normlab/classroom/lesson_text.hpp"

#include "normlab/core/error.hpp"
#include "normlab/io/json_reader.hpp"
#include "normlab/io/presets.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

namespace normlab::classroom {

// assets/experiments/*.json as (path, text), in file-name order; generated at build time by
// cmake/embed_text.cmake (engine/classroom/CMakeLists.txt).
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_experiments();

namespace {

using nlohmann::json;

std::optional<ExperimentKind> parse_kind(const std::string& k) {
    if (k == "single") return ExperimentKind::Single;
    if (k == "pair") return ExperimentKind::Pair;
    if (k == "continuum") return ExperimentKind::Continuum;
    if (k == "train-eval") return ExperimentKind::TrainEval;
    return std::nullopt;
}

// The shape of the tensor a source gives, where it is known without reading a file.
std::optional<core::Shape4> known_shape(const core::TensorSource& src) {
    if (src.kind == core::TensorSource::Kind::Generated) return src.shape;
    if (src.kind == core::TensorSource::Kind::Preset)
        if (const io::Preset* p = io::find_preset(src.preset)) return p->x.shape;
    return std::nullopt;
}

// A side's state (scene objects, no view), checked against the tensor that side normalizes.
core::State read_side(const io::JsonReader& root, const std::string& key, bool channels_last, std::int64_t samples) {
    const io::JsonReader r = root.child(key);
    r.only_keys({"tensor", "norm", "params", "selection"}, key + " key");
    core::State s = io::state_from_json(r);
    if (auto shape = known_shape(s.source)) {
        if (samples > 0) shape->n = std::clamp<std::int64_t>(samples, 1, shape->n);
        if (channels_last) *shape = core::Shape4{shape->n, shape->h, shape->w, shape->c};
        io::check_state_for_shape(s, *shape, root.name(),
                                  " (" + key + ": the tensor it normalizes has shape " + shape->str() + ")");
    }
    return s;
}

void read_pair(const io::JsonReader& root, Experiment& e) {
    e.left_samples = root.has("left_samples") ? root.integer("left_samples", 0, core::kMaxElements) : 0;
    e.right_channels_last = root.has("right_channels_last") && root.boolean("right_channels_last");
    e.follow_method = root.has("follow_method") && root.boolean("follow_method");
    e.left_label = root.text("left_label", true);
    e.right_label = root.text("right_label", true);
    e.right = read_side(root, "right", e.right_channels_last, 0);
}

std::vector<Experiment> load_embedded() {
    std::vector<Experiment> out;
    std::set<std::string> ids;
    for (const auto& [path, text] : embedded_experiments()) {
        out.push_back(experiment_from_json(std::string(text), std::string(path)));
        if (!ids.insert(out.back().id).second)
            throw core::InputError(std::string(path) + ": the experiment id '" + out.back().id + "' is used twice");
    }
    return out;
}

}  // namespace

Experiment experiment_from_json(const std::string& text, const std::string& name) {
    const json j = io::parse_json_text(text, name);
    io::JsonReader root(j, "", name, "an experiment");
    root.format_version("normlab_experiment", "experiment");
    root.only_keys({"normlab_experiment", "id", "kind", "title", "explanation", "literals", "state", "view", "right",
                    "left_label", "right_label", "left_samples", "right_channels_last", "follow_method"});
    Experiment e;
    e.id = root.nonempty_string("id");
    if (root.has("kind")) {
        const auto kind = parse_kind(root.string("kind"));
        if (!kind) root.fail("kind '" + root.string("kind") + "' is not one of single, pair, continuum, train-eval");
        e.kind = *kind;
    }
    e.title = root.text("title", true);
    e.explanation = root.text("explanation", true);
    if (root.has("literals")) {
        e.literals = root.strings("literals");
        for (const auto& l : e.literals)
            if (l.empty()) root.fail("\"literals\" must list non-empty strings");
    }
    if (e.kind == ExperimentKind::Pair) {
        read_pair(root, e);
    } else {
        for (const char* k :
             {"right", "left_label", "right_label", "left_samples", "right_channels_last", "follow_method"})
            if (root.has(k)) root.fail(std::string(k) + " is only for pair experiments");
    }
    e.state = read_side(root, "state", false, e.left_samples);
    if (root.has("view")) e.view = parse_view(root.get("view").dump(), name);
    if (!e.view.experiment.empty()) root.fail("view.experiment is the experiment's id; leave it out");
    e.view.experiment = e.id;
    // The title and explanation: well-formed placeholders, a run[i] only of the Train view's runs, a sweep[i]
    // only of its sweep's.
    const std::size_t runs = e.view.train ? e.view.train->runs.size() : 0;
    for (const core::LocalText* t : {&e.title, &e.explanation})
        for (const std::string* text : {&t->en, &t->zh})
            check_run_placeholders(*text, runs, sweep_run_count(e.view.train), name);
    return e;
}

const std::vector<Experiment>& experiments() {
    static const std::vector<Experiment> all = load_embedded();
    return all;
}

const Experiment* find_experiment(const std::string& id) {
    for (const auto& e : experiments())
        if (e.id == id) return &e;
    return nullptr;
}

core::Tensor to_channels_last(const core::Tensor& x) {
    const core::Shape4& s = x.shape;
    core::Tensor out(core::Shape4{s.n, s.h, s.w, s.c});
    for (std::int64_t n = 0; n < s.n; ++n)
        for (std::int64_t c = 0; c < s.c; ++c)
            for (std::int64_t h = 0; h < s.h; ++h)
                for (std::int64_t w = 0; w < s.w; ++w)
                    out.data[static_cast<std::size_t>(out.offset(n, h, w, c))] = x.at(n, c, h, w);
    return out;
}

core::Tensor from_channels_last(const core::Tensor& y) {
    const core::Shape4& s = y.shape;  // {N, H, W, C}
    core::Tensor out(core::Shape4{s.n, s.w, s.c, s.h});
    for (std::int64_t n = 0; n < s.n; ++n)
        for (std::int64_t h = 0; h < s.c; ++h)
            for (std::int64_t w = 0; w < s.h; ++w)
                for (std::int64_t c = 0; c < s.w; ++c)
                    out.data[static_cast<std::size_t>(out.offset(n, c, h, w))] = y.at(n, h, w, c);
    return out;
}

core::Tensor first_samples(const core::Tensor& x, std::int64_t k) {
    k = std::clamp<std::int64_t>(k, 1, x.shape.n);
    core::Shape4 s = x.shape;  // keeps the rank of a 3-D tensor
    s.n = k;
    core::Tensor out(s);
    std::copy_n(x.data.begin(), out.data.size(), out.data.begin());
    return out;
}

}  // namespace normlab::classroom
