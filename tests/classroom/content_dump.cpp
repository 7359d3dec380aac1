#include "content_dump.hpp"

#include "normlab/classroom/experiments.hpp"
#include "normlab/io/presets.hpp"
#include "normlab/core/state.hpp"
#include "normlab/classroom/view_settings.hpp"
#include "normlab/io/scene_file.hpp"

namespace normlab::test {

using nlohmann::json;

namespace {

json text(const core::LocalText& t) { return {{"en", t.en}, {"zh", t.zh}}; }

const char* kind_name(classroom::ExperimentKind k) {
    switch (k) {
        case classroom::ExperimentKind::Single: return "single";
        case classroom::ExperimentKind::Pair: return "pair";
        case classroom::ExperimentKind::Continuum: return "continuum";
        case classroom::ExperimentKind::TrainEval: return "train-eval";
    }
    return "?";
}

}  // namespace

json preset_dump() {
    json out = json::array();
    for (const io::Preset& p : io::presets()) {
        core::State s;  // spec and γ/β as a scene writes them
        s.source.kind = core::TensorSource::Kind::Preset;
        s.source.preset = p.name;
        s.spec = p.spec;
        s.params = p.params;
        json values = json::array();  // float32 → double is exact; dump() keeps every bit
        for (float v : p.x.data) values.push_back(static_cast<double>(v));
        out.push_back({{"name", p.name},
                       {"source", {{"en", p.source}, {"zh", p.source_zh}}},
                       {"description", {{"en", p.description}, {"zh", p.description_zh}}},
                       {"literals", p.literals},
                       {"shape", p.x.shape.dims()},
                       {"values", values},
                       {"scene", json::parse(io::scene_to_json(s))}});
    }
    return out;
}

json experiment_dump() {
    json out = json::array();
    for (const classroom::Experiment& e : classroom::experiments()) {
        json j = {{"id", e.id},
                  {"kind", kind_name(e.kind)},
                  {"title", text(e.title)},
                  {"explanation", text(e.explanation)},
                  {"literals", e.literals},
                  {"state", json::parse(io::scene_to_json(e.state))},
                  {"view", json::parse(classroom::view_to_json(e.view))},
                  {"right", json::parse(io::scene_to_json(e.right))},
                  {"left_label", text(e.left_label)},
                  {"right_label", text(e.right_label)},
                  {"left_samples", e.left_samples},
                  {"right_channels_last", e.right_channels_last},
                  {"follow_method", e.follow_method}};
        out.push_back(j);
    }
    return out;
}

}  // namespace normlab::test
