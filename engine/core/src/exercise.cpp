#include "normlab/core/exercise.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/state.hpp"

#include <array>

namespace normlab::core {

namespace {

constexpr std::array<const char*, kControlCount> kNames = {
    "tensor",   "method",        "groups", "normalized_shape", "eps",       "affine", "params", "mode",
    "momentum", "running_stats", "sync",   "explain",          "statistics"};

std::uint32_t bit(Control c) { return 1u << static_cast<int>(c); }

std::vector<std::string> names_of(std::uint32_t bits) {
    std::vector<std::string> out;
    for (int i = 0; i < kControlCount; ++i)
        if ((bits >> i) & 1u) out.emplace_back(kNames[static_cast<std::size_t>(i)]);
    return out;
}

}  // namespace

const char* control_name(Control c) { return kNames[static_cast<std::size_t>(c)]; }

std::optional<Control> parse_control(const std::string& name) {
    for (int i = 0; i < kControlCount; ++i)
        if (name == kNames[static_cast<std::size_t>(i)]) return static_cast<Control>(i);
    return std::nullopt;
}

std::string control_names() {
    std::string s;
    for (const char* n : kNames) s += (s.empty() ? "" : ", ") + std::string(n);
    return s;
}

bool is_panel(Control c) { return c == Control::Explain || c == Control::Statistics; }

void Exercise::hide(Control c, bool on) { hidden = on ? hidden | bit(c) : hidden & ~bit(c); }
void Exercise::lock(Control c, bool on) { locked = on ? locked | bit(c) : locked & ~bit(c); }
std::vector<std::string> Exercise::hidden_names() const { return names_of(hidden); }
std::vector<std::string> Exercise::locked_names() const { return names_of(locked); }

Exercise make_exercise(const std::vector<std::string>& hide, const std::vector<std::string>& lock,
                       const std::string& what_hide, const std::string& what_lock) {
    Exercise e;
    for (int pass = 0; pass < 2; ++pass) {
        for (const std::string& n : pass == 0 ? hide : lock) {
            const std::string& what = pass == 0 ? what_hide : what_lock;
            auto c = parse_control(n);
            if (!c) throw InputError(what + ": '" + n + "' is not a control (" + control_names() + ")");
            if (pass == 1 && is_panel(*c))
                throw InputError(what + ": " + n + " is a panel: it can be hidden, not locked");
            pass == 0 ? e.hide(*c) : e.lock(*c);
        }
    }
    return e;
}

std::optional<Control> locked_change(const State& from, const State& to) {
    const Exercise& e = from.exercise;
    if (e.empty()) return std::nullopt;
    const NormSpec &a = from.spec, &b = to.spec;
    const NormParams &p = from.params, &q = to.params;
    const bool same_method = a.method == b.method;
    const std::array<std::pair<Control, bool>, 11> changes = {{
        {Control::Tensor, !same_source(from.source, to.source)},
        {Control::Method, !same_method},
        {Control::Groups, same_method && a.groups != b.groups},
        {Control::NormalizedShape, same_method && a.normalized_shape != b.normalized_shape},
        {Control::Eps, same_method && a.eps != b.eps},
        {Control::Affine, same_method && (a.affine != b.affine || a.bias != b.bias)},
        {Control::Params,
         same_method && (p.weight != q.weight || p.bias != q.bias || from.style_image != to.style_image)},
        {Control::Mode, same_method && a.mode != b.mode},
        {Control::Momentum,
         same_method && (a.momentum != b.momentum || a.track_running_stats != b.track_running_stats)},
        {Control::RunningStats, same_method && (p.running_mean != q.running_mean || p.running_var != q.running_var ||
                                                p.num_batches_tracked != q.num_batches_tracked)},
        {Control::Sync, same_method && (a.sync_devices != b.sync_devices || a.sync_mode != b.sync_mode)},
    }};
    for (const auto& [c, changed] : changes)
        if (changed && e.locks(c)) return c;
    return std::nullopt;
}

}  // namespace normlab::core
