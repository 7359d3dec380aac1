#include "normlab/core/partition_set.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/stat_layout.hpp"

namespace normlab::core {

std::string axis_tuple(const std::vector<std::string>& names, std::size_t k) {
    std::string t;
    for (std::size_t a = 0; a < k; ++a) {
        std::string lower = names[a];
        for (char& ch : lower) ch = static_cast<char>(ch - 'A' + 'a');
        t += (a ? ", " : "") + lower;
    }
    return k == 1 ? t : "(" + t + ")";
}

std::string element_text(Method m, const Shape4& s, const Index4& i) {
    const auto names = axis_names(m, s);
    const auto u = user_index(s, i);
    std::string values;
    for (std::size_t a = 0; a < u.size(); ++a) values += (a ? ", " : "") + std::to_string(u[a]);
    return axis_tuple(names, names.size()) + (u.size() == 1 ? " = " + values : " = (" + values + ")");
}

bool PartitionSet::member(const Index4& k) const {
    const auto uk = user_index(shape, k), ui = user_index(shape, i);
    for (const auto& c : conditions) {
        const auto a = static_cast<std::size_t>(c.axis);
        if (uk[a] / c.divisor != ui[a] / c.divisor) return false;
    }
    return true;
}

namespace {

std::string ll(std::int64_t v) { return std::to_string(v); }

// "k_N = i_N" / "⌊k_C/(C/G)⌋ = ⌊i_C/(C/G)⌋", or filled in: "k_N = 1" / "⌊k_C/3⌋ = 1".
std::string condition_text(const PartitionSet::Condition& c, const std::string& axis, std::int64_t value, bool filled) {
    const std::string k = "k_" + axis;
    if (c.divisor == 1 && c.divisor_text.empty()) return k + " = " + (filled ? ll(value) : "i_" + axis);
    if (filled) return "⌊" + k + "/" + ll(c.divisor) + "⌋ = " + ll(value / c.divisor);
    return "⌊" + k + "/(" + c.divisor_text + ")⌋ = ⌊i_" + axis + "/(" + c.divisor_text + ")⌋";
}

// The conditions of S_i on the user's axes (as Shape4::dims() lists them); `fixed` marks the
// axes an equality condition pins.
void add_conditions(PartitionSet& p, const NormSpec& spec, const Shape4& s, std::vector<bool>& fixed) {
    switch (spec.method) {
        case Method::Batch:
            if (spec.sync_devices > 1 && spec.sync_mode == SyncMode::Local && spec.uses_batch_stats())
                p.conditions.push_back({0, s.n / spec.sync_devices, "N/K"});
            p.conditions.push_back({1, 1, ""});
            fixed[1] = true;
            if (!spec.uses_batch_stats())
                p.note = PartitionSet::Note::RunningStats;
            else if (spec.sync_devices > 1 && spec.sync_mode == SyncMode::Naive)
                p.note = PartitionSet::Note::NaiveShards;
            break;
        case Method::Instance:
            if (s.rank == 2) {  // InstanceNorm1d's unbatched (C, L): one row
                p.conditions = {{0, 1, ""}};
                fixed[0] = true;
                break;
            }
            p.conditions = {{0, 1, ""}, {1, 1, ""}};
            fixed[0] = fixed[1] = true;
            break;
        case Method::Group:
            p.conditions = {{0, 1, ""}, {1, s.c / spec.groups, "C/G"}};
            fixed[0] = true;
            break;
        case Method::Layer:
        case Method::Rms: {
            const std::size_t lead = s.dims().size() - spec.effective_normalized_shape(s).size();
            for (std::size_t j = 0; j < lead; ++j) {
                p.conditions.push_back({static_cast<int>(j), 1, ""});
                fixed[j] = true;
            }
            break;
        }
    }
}

}  // namespace

PartitionSet partition_set(const NormSpec& spec, const Shape4& s, const Index4& i) {
    spec.validate(s);
    validate_selection(i, s);
    PartitionSet p;
    p.i = i;
    p.shape = s;
    const auto names = axis_names(spec.method, s);
    const auto dims = s.dims();
    const auto ui = user_index(s, i);
    std::vector<bool> fixed(dims.size(), false);
    add_conditions(p, spec, s, fixed);
    // |S_i|: each axis contributes its size, a divided axis d, a fixed one 1.
    std::vector<std::int64_t> per_axis = dims;
    for (const auto& c : p.conditions) per_axis[static_cast<std::size_t>(c.axis)] = c.divisor;
    p.size = 1;
    for (auto v : per_axis) p.size *= v;
    for (std::size_t a = 0; a < dims.size(); ++a) {
        if (fixed[a]) continue;
        if (spec.method == Method::Group && a == 1)
            p.spanned_axes.push_back("C/G");
        else if (spec.method == Method::Batch && a == 0 && spec.sync_devices > 1 && spec.sync_mode == SyncMode::Local &&
                 spec.uses_batch_stats())
            p.spanned_axes.push_back("N/K");
        else
            p.spanned_axes.push_back(names[a]);
    }
    std::string rule, filled;
    for (const auto& c : p.conditions) {
        const auto u = static_cast<std::size_t>(c.axis);
        rule += (rule.empty() ? "" : ", ") + condition_text(c, names[u], ui[u], false);
        filled += (filled.empty() ? "" : ", ") + condition_text(c, names[u], ui[u], true);
    }
    // No condition only where layer/rms normalize every dim (one statistic over the whole tensor).
    if (p.conditions.empty()) rule = filled = "every k";
    p.rule = "S_i = { k | " + rule + " }";
    std::string idx;
    for (auto v : ui) idx += (idx.empty() ? "" : ", ") + ll(v);
    p.filled = "i = (" + idx + "): S_i = { k | " + filled + " }";
    return p;
}

}  // namespace normlab::core
