// Experiments as data: every experiment's states are valid for its tensors, and the tensor
// helpers (channels-last permutation, first samples, divisors) do what they say.
#include <catch2/catch.hpp>

#include "normlab/classroom/experiments.hpp"
#include "normlab/session/state_edits.hpp"
#include "normlab/io/presets.hpp"
#include "normlab/core/stat_layout.hpp"
#include "normlab/core/tensor_init.hpp"
#include "normlab/io/scene_file.hpp"

using namespace normlab;

TEST_CASE("every experiment's configuration is valid for its tensor", "[experiments]") {
    REQUIRE(classroom::experiments().size() >= 8);
    for (const auto& e : classroom::experiments()) {
        INFO(e.id);
        CHECK(!e.title.zh.empty());
        CHECK(!e.explanation.zh.empty());
        CHECK(e.view.experiment == e.id);
        core::Tensor x = io::load_tensor(e.state.source);
        if (e.left_samples) x = classroom::first_samples(x, e.left_samples);
        CHECK_NOTHROW(core::make_layout(e.state.spec, x.shape));
        CHECK_NOTHROW(core::validate_selection(e.state.selection, x.shape));
        if (e.kind == classroom::ExperimentKind::Pair) {
            core::Tensor r = io::load_tensor(e.right.source);
            if (e.right_channels_last) r = classroom::to_channels_last(r);
            CHECK_NOTHROW(core::make_layout(e.right.spec, r.shape));
        }
    }
    for (const char* id : {"seed003-in-vs-ln", "seed004-bn", "seed004-in", "batch-independence", "gn-continuum",
                           "bn-train-eval", "misconception-layernorm-c", "misconception-groupnorm1"})
        CHECK(classroom::find_experiment(id));
}

TEST_CASE("presets carry Chinese descriptions", "[experiments]") {
    for (const auto& p : io::presets()) {
        INFO(p.name);
        CHECK(!p.description_zh.empty());
    }
}

TEST_CASE("channels-last permutation and its inverse", "[experiments]") {
    core::Tensor x = make_tensor({2, 3, 4, 5}, core::Init::Arange);
    core::Tensor cl = classroom::to_channels_last(x);
    CHECK(cl.shape == core::Shape4{2, 4, 5, 3});
    CHECK(cl.at(1, 2, 3, 1) == x.at(1, 1, 2, 3));
    core::Tensor back = classroom::from_channels_last(cl);
    CHECK(back.shape == x.shape);
    CHECK(back.data == x.data);
    core::Tensor f = classroom::first_samples(x, 1);
    CHECK(f.shape == core::Shape4{1, 3, 4, 5});
    CHECK(f.data.back() == x.at(0, 2, 3, 4));
    CHECK(session::divisors(12) == std::vector<std::int64_t>{1, 2, 3, 4, 6, 12});
}
