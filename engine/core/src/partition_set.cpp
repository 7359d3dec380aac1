#include "normlab/partition_set.hpp"

#include "normlab/error.hpp"

namespace normlab {

std::vector<std::string> partition_axis_names(Method m, const Shape4& s) {
    if (s.rank != 3) return {"N", "C", "H", "W"};
    if (m == Method::Layer || m == Method::Rms) return {"N", "L", "", "D"};
    return {"N", "C", "", "L"};
}

bool PartitionSet::member(const Index4& k) const {
    for (const auto& c : conditions) {
        const auto a = static_cast<std::size_t>(c.axis);
        if (k[a] / c.divisor != i[a] / c.divisor) return false;
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

}  // namespace

PartitionSet partition_set(const NormSpec& spec, const Shape4& s, const Index4& i) {
    spec.validate(s);
    validate_selection(i, s);
    PartitionSet p;
    p.i = i;
    const auto names = partition_axis_names(spec.method, s);
    const auto dims4 = std::vector<std::int64_t>{s.n, s.c, s.h, s.w};
    // The axes a 3-D tensor has (h is not one of them).
    std::vector<int> axes = s.rank == 3 ? std::vector<int>{0, 1, 3} : std::vector<int>{0, 1, 2, 3};
    std::vector<bool> fixed(4, false);
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
            p.conditions = {{0, 1, ""}, {1, 1, ""}};
            fixed[0] = fixed[1] = true;
            break;
        case Method::Group:
            p.conditions = {{0, 1, ""}, {1, s.c / spec.groups, "C/G"}};
            fixed[0] = true;
            break;
        case Method::Layer:
        case Method::Rms: {
            const std::size_t lead = axes.size() - spec.effective_normalized_shape(s).size();
            for (std::size_t j = 0; j < lead; ++j) {
                p.conditions.push_back({axes[j], 1, ""});
                fixed[static_cast<std::size_t>(axes[j])] = true;
            }
            break;
        }
    }
    // |S_i|: each axis contributes its size, a divided axis d, a fixed one 1.
    p.size = 1;
    std::vector<std::int64_t> per_axis(4);
    for (int a : axes) per_axis[static_cast<std::size_t>(a)] = dims4[static_cast<std::size_t>(a)];
    for (const auto& c : p.conditions) per_axis[static_cast<std::size_t>(c.axis)] = c.divisor;
    for (int a : axes) p.size *= per_axis[static_cast<std::size_t>(a)];
    for (int a : axes) {
        const auto u = static_cast<std::size_t>(a);
        if (fixed[u]) continue;
        if (spec.method == Method::Group && a == 1)
            p.spanned_axes.push_back("C/G");
        else if (spec.method == Method::Batch && a == 0 && spec.sync_devices > 1 && spec.sync_mode == SyncMode::Local &&
                 spec.uses_batch_stats())
            p.spanned_axes.push_back("N/K");
        else
            p.spanned_axes.push_back(names[u]);
    }
    std::string rule, filled;
    for (const auto& c : p.conditions) {
        const auto u = static_cast<std::size_t>(c.axis);
        rule += (rule.empty() ? "" : ", ") + condition_text(c, names[u], i[u], false);
        filled += (filled.empty() ? "" : ", ") + condition_text(c, names[u], i[u], true);
    }
    // No condition (LayerNorm over every dim of a 3-D tensor never happens: N is always leading).
    p.rule = "S_i = { k | " + rule + " }";
    std::string idx;
    for (int a : axes) idx += (idx.empty() ? "" : ", ") + ll(i[static_cast<std::size_t>(a)]);
    p.filled = "i = (" + idx + "): S_i = { k | " + filled + " }";
    return p;
}

}  // namespace normlab
