// StatsTable: one row per statistic (index, count, μ, σ² biased, σ² unbiased, 1/√(σ²+ε);
// RMSNorm: mean(x²) and 1/√(mean(x²)+ε)), all from the Normalizer's shaders. Clicking a row
// selects that group in the heatmap; a selection made in the heatmap scrolls to its row.
#pragma once
#include "normlab/session/session.hpp"

#include <optional>

namespace normlab::views {

class StatsTable {
public:
    void draw(session::Session& session);

private:
    std::optional<std::int64_t> last_selected_;
};

}  // namespace normlab::views
