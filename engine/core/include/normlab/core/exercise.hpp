// Exercise: what a scene hides or locks when a teacher hands it to a class (the scene's
// "exercise" object, docs/scene-format.md). A control names a part of the State the app lets
// a user change (tensor, method, eps, ...) or a panel that shows results (explain,
// statistics). A hidden control is not drawn and cannot be changed; a locked one is drawn
// greyed out. The Session refuses any edit that would change a locked part of the State, so
// no shortcut, button or panel can get around it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace normlab::core {

struct State;

enum class Control : std::uint8_t {
    Tensor,           // the tensor: source, shape, init, seed, preset, file
    Method,           // the normalization method
    Groups,           // GroupNorm's G
    NormalizedShape,  // LayerNorm/RMSNorm's normalized_shape
    Eps,              // ε
    Affine,           // whether γ and β are used (and LayerNorm's bias)
    Params,           // the values of γ and β, and AdaIN's style image (which sets them)
    Mode,             // BatchNorm train/eval
    Momentum,         // BatchNorm momentum and track_running_stats
    RunningStats,     // BatchNorm running statistics (train step, reset)
    Sync,             // BatchNorm's simulated devices K and the SyncBN mode
    Explain,          // panel: the formula with the real numbers (hide only)
    Statistics,       // panel: the statistics table (hide only)
};
inline constexpr int kControlCount = 13;

const char* control_name(Control c);  // "normalized_shape", ...
std::optional<Control> parse_control(const std::string& name);
// "tensor, method, groups, ..." for error messages.
std::string control_names();
// Panels can be hidden but not locked (they change nothing).
bool is_panel(Control c);

struct Exercise {
    std::uint32_t hidden = 0, locked = 0;  // bit i: Control(i)

    bool hides(Control c) const { return (hidden >> static_cast<int>(c)) & 1u; }
    // Hidden controls are locked too.
    bool locks(Control c) const { return ((hidden | locked) >> static_cast<int>(c)) & 1u; }
    bool empty() const { return hidden == 0 && locked == 0; }
    void hide(Control c, bool on = true);
    void lock(Control c, bool on = true);
    std::vector<std::string> hidden_names() const;
    std::vector<std::string> locked_names() const;
    bool operator==(const Exercise&) const = default;
};

// From lists of names; throws InputError("<what>: 'x' is not a control (tensor, method, ...)")
// or "<what>: explain is a panel: it can be hidden, not locked".
Exercise make_exercise(const std::vector<std::string>& hide, const std::vector<std::string>& lock,
                       const std::string& what_hide = "hide", const std::string& what_lock = "lock");

// The first locked control whose part of the State differs between `from` and `to`, under
// `from`'s exercise. Settings that belong to a method (groups, eps, γ/β, ...) are compared
// only when both states use the same method: lock the method as well to hold them.
std::optional<Control> locked_change(const State& from, const State& to);

}  // namespace normlab::core
