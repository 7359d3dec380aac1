// The named edits (state_edits.hpp): what each keeps and resets, whichever widget makes it.
#include <catch2/catch.hpp>

#include "normlab/io/file_kind.hpp"
#include "normlab/io/presets.hpp"
#include "normlab/session/state_edits.hpp"

using namespace normlab;

namespace {
core::State batch_with_history() {
    core::State s;
    s.spec = core::default_spec(core::Method::Batch);
    s.params.weight = {2, 2, 2};
    s.params.bias = {1, 1, 1};
    s.params.running_mean = {0.5f, 0.5f, 0.5f};
    s.params.running_var = {2, 2, 2};
    s.params.num_batches_tracked = 7;
    s.spec.sync_devices = 2;
    return s;
}
}  // namespace

TEST_CASE("with_method: the method's defaults; γ/β, running statistics and SyncBN reset", "[edits]") {
    const core::State s = batch_with_history();
    for (core::Method m : {core::Method::Layer, core::Method::Instance, core::Method::Group, core::Method::Rms}) {
        const core::State next = session::with_method(s, m, 12);
        CHECK(next.spec.method == m);
        CHECK(next.params.weight.empty());
        CHECK(next.params.bias.empty());
        CHECK(next.params.running_mean.empty());
        CHECK(next.params.running_var.empty());
        CHECK(next.params.num_batches_tracked == 0);
        CHECK(next.spec.sync_devices == 0);
        CHECK(next.source.preset == s.source.preset);  // the tensor is not touched
    }
    CHECK(session::with_method(s, core::Method::Group, 12).spec.groups == 3);  // default_groups' middle divisor
    core::State g4 = session::with_groups(session::with_method(s, core::Method::Group, 12), 4);
    CHECK(
        session::with_method(session::with_method(g4, core::Method::Layer, 12), core::Method::Group, 12).spec.groups ==
        3);
    CHECK(session::with_method(s, core::Method::Batch, 12).params.running_mean ==
          s.params.running_mean);                                                     // no change, nothing reset
    CHECK(session::with_method(s, core::Method::Instance, 12).spec.affine == false);  // PyTorch's default
}

TEST_CASE("with_groups_step walks the divisors of C and stops at either end", "[edits]") {
    core::State s = session::with_method(core::State{}, core::Method::Group, 12);
    s = session::with_groups(s, 1);
    CHECK_FALSE(session::with_groups_step(s, 12, -1).has_value());
    CHECK(session::with_groups_step(s, 12, 1)->spec.groups == 2);
    CHECK(session::with_groups_step(session::with_groups(s, 6), 12, 1)->spec.groups == 12);
    CHECK_FALSE(session::with_groups_step(session::with_groups(s, 12), 12, 1).has_value());
    CHECK_FALSE(session::with_groups_step(session::with_groups(s, 5), 12, 1).has_value());  // G does not divide C
    CHECK(session::divisors(12) == std::vector<std::int64_t>{1, 2, 3, 4, 6, 12});
}

TEST_CASE("the small edits change one field and keep the rest", "[edits]") {
    const core::State s = batch_with_history();
    CHECK(session::toggled_mode(s).spec.mode == core::Mode::Eval);
    CHECK(session::toggled_mode(session::toggled_mode(s)).spec.mode == core::Mode::Train);
    CHECK(session::toggled_mode(s).params.running_mean == s.params.running_mean);
    CHECK(session::with_eps(s, 0.25).spec.effective_eps() == 0.25);
    CHECK(session::with_eps(s, 0.25).params.weight == s.params.weight);
    CHECK_FALSE(session::with_momentum(s, std::nullopt).spec.momentum.has_value());
    CHECK(session::with_running_reset(s).params.running_var.empty());
    CHECK(session::with_running_reset(s).params.weight == s.params.weight);
    CHECK(session::with_sync_mode(session::with_sync_devices(s, 4), core::SyncMode::Naive).spec.sync_devices == 4);
    // RMSNorm has no β: with_params drops it.
    const core::State rms = session::with_method(s, core::Method::Rms, 3);
    CHECK(session::with_params(rms, {1, 2, 3}, {4, 5, 6}).params.bias.empty());
    CHECK(session::with_params(s, {1, 2, 3}, {4, 5, 6}).params.bias == std::vector<float>{4, 5, 6});
    // normalized_shape changes γ/β's shape.
    const core::State layer = session::with_params(session::with_method(s, core::Method::Layer, 3), {1, 2}, {3, 4});
    CHECK(session::with_normalized_shape(layer, {4}).params.weight.empty());
}

TEST_CASE("tensor edits name the new source; a preset brings its method and γ/β", "[edits]") {
    const core::State s = batch_with_history();
    const core::State gen = session::with_source_shape(s, core::Shape4{2, 3, 4, 5});
    CHECK(gen.source.kind == core::TensorSource::Kind::Generated);
    CHECK(gen.source.shape == core::Shape4{2, 3, 4, 5});
    CHECK_FALSE(core::same_source(gen.source, session::with_source_seed(gen, 9).source));
    CHECK(session::with_source_kind(s, core::TensorSource::Kind::Generated, core::Shape4{8, 3, 2, 2}).source.shape ==
          core::Shape4{8, 3, 2, 2});
    CHECK(session::with_source_file(s, "a.npy").source.kind == core::TensorSource::Kind::File);
    CHECK(session::with_source_image(s, "a.png").source.path == "a.png");
    const io::Preset& p = io::presets().front();
    const core::State ps = session::with_source_preset(gen, p.name);
    CHECK(ps.source.kind == core::TensorSource::Kind::Preset);
    CHECK(ps.spec.method == p.spec.method);
    CHECK(ps.params.weight == p.params.weight);
}

TEST_CASE("fitted_to_tensor: parameters of another shape reset, a selection outside dropped", "[edits]") {
    core::State s = batch_with_history();
    s.selection = core::Index4{3, 2, 1, 1};
    const core::StatLayout small = core::make_layout(s.spec, core::Shape4{2, 3, 2, 2});
    const core::State fit = session::fitted_to_tensor(s, small);
    CHECK_FALSE(fit.selection.has_value());
    CHECK(fit.params.weight == s.params.weight);  // C = 3 still
    const core::State wider = session::fitted_to_tensor(s, core::make_layout(s.spec, core::Shape4{4, 5, 2, 2}));
    CHECK(wider.params.weight.empty());
    CHECK(wider.params.running_mean.empty());
    CHECK(wider.selection.has_value());
    core::State no_affine = s;
    no_affine.spec.affine = false;
    CHECK(session::fitted_to_tensor(no_affine, small).params.weight.empty());
}

TEST_CASE("file_kind: the extension, any case, tells a tensor, a picture and a scene", "[edits]") {
    CHECK(io::file_kind("x.npy") == io::FileKind::Npy);
    CHECK(io::file_kind("dir.v2/X.NPY") == io::FileKind::Npy);
    CHECK(io::file_kind("photo.JPG") == io::FileKind::Image);
    CHECK(io::file_kind("a.jpeg") == io::FileKind::Image);
    CHECK(io::file_kind("images/cat.Png") == io::FileKind::Image);
    CHECK(io::file_kind("lesson.normlab.json") == io::FileKind::Scene);
    CHECK(io::file_kind("notes.txt") == io::FileKind::Other);
    CHECK(io::file_kind("npy") == io::FileKind::Other);
    CHECK(io::file_kind("archive.npy.gz") == io::FileKind::Other);
}
