// The state options shared by normlab-cli and the app (--norm, --shape, --preset, --groups,
// ...): registered on a CLI11 app and resolved into a State, so both parse identically.
#pragma once
#include "normlab/core/state.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>

namespace normlab {

struct StateOptions {
    std::string norm, input, shape, init, preset, scene;
    std::string image, style_image;  // --image (a PNG/JPEG as the tensor), --style-image (AdaIN)
    std::optional<std::uint64_t> seed;
    std::optional<double> value;
    std::optional<std::int64_t> groups;
    std::string normalized_shape;
    std::optional<double> eps;
    std::string weight, bias, running_mean, running_var;
    bool no_affine = false, affine = false, no_bias = false;
    std::string mode, momentum;
    std::optional<std::int64_t> num_batches_tracked;
    std::string select;
    std::optional<std::int64_t> sync_devices;  // batch: SyncBN on K simulated devices
    std::string sync_mode;                     // sync | local | naive (with sync_devices)
};

// Registers every state option on `app`; `norm_required` for normlab-cli.
void add_state_options(CLI::App& app, StateOptions& o, bool norm_required);

// Parses the command line: --help prints the help and gives its exit status (0) to return; a
// bad option throws InputError (CLI11's message and "(see --help)"); otherwise nullopt.
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

// Applies the options on top of `base` (the default state, or --scene's), all but --select's
// element, which load_state places once x's dims are known. Throws InputError.
core::State resolve_state(const StateOptions& o, core::State base = core::State{});

struct LoadedState {
    core::State state;
    core::Tensor x;
    core::StatLayout layout;
    std::optional<core::Tensor> style;  // AdaIN's style image (state.style_image), channels checked against x
};
// resolve_state, then the tensor, the layout (spec validated against the tensor's shape)
// and the γ/β/running-statistics .npy files, each checked against the shape it must have;
// the style image (AdaIN) with its channel count checked against x's.
// `check_shape` (if set) sees the tensor's shape before a generated tensor is made, so a
// shape the device cannot hold is refused before gigabytes are allocated.
LoadedState load_state(const StateOptions& o, core::State base = core::State{},
                       const std::function<void(const core::Shape4&)>& check_shape = {});

}  // namespace normlab
