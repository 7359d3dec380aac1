// The named edits (state_edits.hpp): what each keeps and resets, whichever widget makes it.
#include <catch2/catch.hpp>

#include "normlab/core/file_kind.hpp"
#include "normlab/core/presets.hpp"
#include "normlab/core/state_edits.hpp"

using namespace normlab;

namespace {
State batch_with_history() {
    State s;
    s.spec = default_spec(Method::Batch);
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
    const State s = batch_with_history();
    for (Method m : {Method::Layer, Method::Instance, Method::Group, Method::Rms}) {
        const State next = with_method(s, m, 12);
        CHECK(next.spec.method == m);
        CHECK(next.params.weight.empty());
        CHECK(next.params.bias.empty());
        CHECK(next.params.running_mean.empty());
        CHECK(next.params.running_var.empty());
        CHECK(next.params.num_batches_tracked == 0);
        CHECK(next.spec.sync_devices == 0);
        CHECK(next.source.preset == s.source.preset);  // the tensor is not touched
    }
    CHECK(with_method(s, Method::Group, 12).spec.groups == 3);  // default_groups' middle divisor
    State g4 = with_groups(with_method(s, Method::Group, 12), 4);
    CHECK(with_method(with_method(g4, Method::Layer, 12), Method::Group, 12).spec.groups == 3);
    CHECK(with_method(s, Method::Batch, 12).params.running_mean == s.params.running_mean);  // no change, nothing reset
    CHECK(with_method(s, Method::Instance, 12).spec.affine == false);                       // PyTorch's default
}

TEST_CASE("with_groups_step walks the divisors of C and stops at either end", "[edits]") {
    State s = with_method(State{}, Method::Group, 12);
    s = with_groups(s, 1);
    CHECK_FALSE(with_groups_step(s, 12, -1).has_value());
    CHECK(with_groups_step(s, 12, 1)->spec.groups == 2);
    CHECK(with_groups_step(with_groups(s, 6), 12, 1)->spec.groups == 12);
    CHECK_FALSE(with_groups_step(with_groups(s, 12), 12, 1).has_value());
    CHECK_FALSE(with_groups_step(with_groups(s, 5), 12, 1).has_value());  // G does not divide C
    CHECK(divisors(12) == std::vector<std::int64_t>{1, 2, 3, 4, 6, 12});
}

TEST_CASE("the small edits change one field and keep the rest", "[edits]") {
    const State s = batch_with_history();
    CHECK(toggled_mode(s).spec.mode == Mode::Eval);
    CHECK(toggled_mode(toggled_mode(s)).spec.mode == Mode::Train);
    CHECK(toggled_mode(s).params.running_mean == s.params.running_mean);
    CHECK(with_eps(s, 0.25).spec.effective_eps() == 0.25);
    CHECK(with_eps(s, 0.25).params.weight == s.params.weight);
    CHECK_FALSE(with_momentum(s, std::nullopt).spec.momentum.has_value());
    CHECK(with_running_reset(s).params.running_var.empty());
    CHECK(with_running_reset(s).params.weight == s.params.weight);
    CHECK(with_sync_mode(with_sync_devices(s, 4), SyncMode::Naive).spec.sync_devices == 4);
    // RMSNorm has no β: with_params drops it.
    const State rms = with_method(s, Method::Rms, 3);
    CHECK(with_params(rms, {1, 2, 3}, {4, 5, 6}).params.bias.empty());
    CHECK(with_params(s, {1, 2, 3}, {4, 5, 6}).params.bias == std::vector<float>{4, 5, 6});
    // normalized_shape changes γ/β's shape.
    const State layer = with_params(with_method(s, Method::Layer, 3), {1, 2}, {3, 4});
    CHECK(with_normalized_shape(layer, {4}).params.weight.empty());
}

TEST_CASE("tensor edits name the new source; a preset brings its method and γ/β", "[edits]") {
    const State s = batch_with_history();
    const State gen = with_source_shape(s, Shape4{2, 3, 4, 5});
    CHECK(gen.source.kind == TensorSource::Kind::Generated);
    CHECK(gen.source.shape == Shape4{2, 3, 4, 5});
    CHECK_FALSE(same_source(gen.source, with_source_seed(gen, 9).source));
    CHECK(with_source_kind(s, TensorSource::Kind::Generated, Shape4{8, 3, 2, 2}).source.shape == Shape4{8, 3, 2, 2});
    CHECK(with_source_file(s, "a.npy").source.kind == TensorSource::Kind::File);
    CHECK(with_source_image(s, "a.png").source.path == "a.png");
    const Preset& p = presets().front();
    const State ps = with_source_preset(gen, p.name);
    CHECK(ps.source.kind == TensorSource::Kind::Preset);
    CHECK(ps.spec.method == p.spec.method);
    CHECK(ps.params.weight == p.params.weight);
}

TEST_CASE("fitted_to_tensor: parameters of another shape reset, a selection outside dropped", "[edits]") {
    State s = batch_with_history();
    s.selection = Index4{3, 2, 1, 1};
    const StatLayout small = make_layout(s.spec, Shape4{2, 3, 2, 2});
    const State fit = fitted_to_tensor(s, small);
    CHECK_FALSE(fit.selection.has_value());
    CHECK(fit.params.weight == s.params.weight);  // C = 3 still
    const State wider = fitted_to_tensor(s, make_layout(s.spec, Shape4{4, 5, 2, 2}));
    CHECK(wider.params.weight.empty());
    CHECK(wider.params.running_mean.empty());
    CHECK(wider.selection.has_value());
    State no_affine = s;
    no_affine.spec.affine = false;
    CHECK(fitted_to_tensor(no_affine, small).params.weight.empty());
}

TEST_CASE("file_kind: the extension, any case, tells a tensor, a picture and a scene", "[edits]") {
    CHECK(file_kind("x.npy") == FileKind::Npy);
    CHECK(file_kind("dir.v2/X.NPY") == FileKind::Npy);
    CHECK(file_kind("photo.JPG") == FileKind::Image);
    CHECK(file_kind("a.jpeg") == FileKind::Image);
    CHECK(file_kind("images/cat.Png") == FileKind::Image);
    CHECK(file_kind("lesson.normlab.json") == FileKind::Scene);
    CHECK(file_kind("notes.txt") == FileKind::Other);
    CHECK(file_kind("npy") == FileKind::Other);
    CHECK(file_kind("archive.npy.gz") == FileKind::Other);
}
