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

namespace normlab {

// Divisors of c in increasing order (the G a GroupNorm over c channels accepts).
std::vector<std::int64_t> divisors(std::int64_t c);

// The method m with its default spec (PyTorch's defaults; GroupNorm's G from default_groups
// for C channels, the current G when it divides C). γ/β go back to ones and zeros, the running
// statistics to 0 and 1, SyncBN off: none of them means anything under another method.
State with_method(const State& s, Method m, std::int64_t channels);
State with_groups(const State& s, std::int64_t g);
// The next larger (step > 0) or smaller divisor of C as G; nullopt at either end or when the
// current G does not divide C.
std::optional<State> with_groups_step(const State& s, std::int64_t channels, int step);
// LayerNorm/RMSNorm's normalized_shape ({} = every dim but N); γ/β change shape, so reset.
State with_normalized_shape(const State& s, std::vector<std::int64_t> dims);
State with_eps(const State& s, double eps);
State with_affine(const State& s, bool affine);
State with_bias(const State& s, bool bias);
// γ and β (empty: ones, zeros); β is ignored where the spec has none.
State with_params(const State& s, std::vector<float> weight, std::vector<float> bias);
// BatchNorm's train/eval.
State with_mode(const State& s, Mode m);
State toggled_mode(const State& s);
// momentum (nullopt: cumulative moving average, PyTorch's momentum=None).
State with_momentum(const State& s, std::optional<double> momentum);
// Running mean 0, running var 1, num_batches_tracked 0.
State with_running_reset(const State& s);
// SyncBN on K simulated devices (0: off) and its mode.
State with_sync_devices(const State& s, std::int64_t k);
State with_sync_mode(const State& s, SyncMode m);
// AdaIN's style image under InstanceNorm ("" removes the style).
State with_style_image(const State& s, std::string path);
State with_exercise(const State& s, Exercise e);

// Tensor edits: a new x.
State with_source_kind(const State& s, TensorSource::Kind kind, const Shape4& current_shape);
State with_source_shape(const State& s, const Shape4& shape);  // a generated tensor of that shape
State with_source_init(const State& s, Init init);
State with_source_value(const State& s, float value);
State with_source_seed(const State& s, std::uint64_t seed);
// A preset, with the method and γ/β it comes with.
State with_source_preset(const State& s, const std::string& name);
State with_source_file(const State& s, std::string path);   // a .npy file
State with_source_image(const State& s, std::string path);  // a PNG or JPEG

// What every edit ends with, once the tensor is known: γ/β and running statistics whose shape
// no longer fits (the method or C changed) go back to their defaults, γ/β vanish where the spec
// has none, and a selection outside the tensor (it shrank) is dropped.
State fitted_to_tensor(State s, const StatLayout& layout);

}  // namespace normlab
