// Named edits: State → State functions for every change a panel, a key or a menu makes, so one
// rule decides what a change keeps and what it resets, whichever widget makes it. Each returns
// the next state and leaves its argument alone; the Session applies it (and refuses what the
// engine or an exercise lock refuses). The tensor edits say so in their name (with_source_…):
// they are the only ones after which the Session loads a new x (TensorChange::FromSource).
#pragma once
#include "normlab/core/stat_layout.hpp"
#include "normlab/core/state.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace normlab::session {

// Divisors of c in increasing order (the G a GroupNorm over c channels accepts).
std::vector<std::int64_t> divisors(std::int64_t c);

// The method m with its default spec (PyTorch's defaults; GroupNorm's G from default_groups
// for C channels, the current G when it divides C). γ/β go back to ones and zeros, the running
// statistics to 0 and 1, SyncBN off: none of them means anything under another method.
core::State with_method(const core::State& s, core::Method m, std::int64_t channels);
core::State with_groups(const core::State& s, std::int64_t g);
// The next larger (step > 0) or smaller divisor of C as G; nullopt at either end or when the
// current G does not divide C.
std::optional<core::State> with_groups_step(const core::State& s, std::int64_t channels, int step);
// LayerNorm/RMSNorm's normalized_shape ({} = every dim but N); γ/β change shape, so reset.
core::State with_normalized_shape(const core::State& s, std::vector<std::int64_t> dims);
core::State with_eps(const core::State& s, double eps);
core::State with_affine(const core::State& s, bool affine);
core::State with_bias(const core::State& s, bool bias);
// γ and β (empty: ones, zeros); β is ignored where the spec has none.
core::State with_params(const core::State& s, std::vector<float> weight, std::vector<float> bias);
// BatchNorm's train/eval.
core::State with_mode(const core::State& s, core::Mode m);
core::State toggled_mode(const core::State& s);
// momentum (nullopt: cumulative moving average, PyTorch's momentum=None).
core::State with_momentum(const core::State& s, std::optional<double> momentum);
// Running mean 0, running var 1, num_batches_tracked 0.
core::State with_running_reset(const core::State& s);
// SyncBN on K simulated devices (0: off) and its mode.
core::State with_sync_devices(const core::State& s, std::int64_t k);
core::State with_sync_mode(const core::State& s, core::SyncMode m);
// AdaIN's style image under InstanceNorm ("" removes the style).
core::State with_style_image(const core::State& s, std::string path);
core::State with_exercise(const core::State& s, core::Exercise e);

// Tensor edits: a new x.
core::State with_source_kind(const core::State& s, core::TensorSource::Kind kind, const core::Shape4& current_shape);
core::State with_source_shape(const core::State& s, const core::Shape4& shape);  // a generated tensor of that shape
core::State with_source_init(const core::State& s, core::Init init);
core::State with_source_value(const core::State& s, float value);
core::State with_source_seed(const core::State& s, std::uint64_t seed);
// A preset, with the method and γ/β it comes with.
core::State with_source_preset(const core::State& s, const std::string& name);
core::State with_source_file(const core::State& s, std::string path);   // a .npy file
core::State with_source_image(const core::State& s, std::string path);  // a PNG or JPEG

// What every edit ends with, once the tensor is known: γ/β and running statistics whose shape
// no longer fits (the method or C changed) go back to their defaults, γ/β vanish where the spec
// has none, and a selection outside the tensor (it shrank) is dropped.
core::State fitted_to_tensor(core::State s, const core::StatLayout& layout);

}  // namespace normlab::session
