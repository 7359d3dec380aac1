// Export of what the app shows, for slides and notebooks: the tensors x, y and the group
// map as .npy, the statistics as CSV and JSON, the scene, the PyTorch code. Every file is
// written atomically (normlab/io/atomic_file.hpp); names are <dir>/<stem>-<what>.<ext>.
#pragma once
#include "normlab/session/session.hpp"

#include <string>
#include <vector>

namespace normlab::app {

// Statistics of the current result as CSV: one row per statistic with its count, μ,
// biased and unbiased σ², 1/√(σ²+ε) (RMSNorm: mean(x²), 1/√(mean(x²)+ε)).
std::string stats_csv(const session::Session& s);
std::string stats_json(const session::Session& s);

// "batch-20250101-120000": the method and the local time, unique enough per click.
std::string export_stem(const session::Session& s);

// Writes x.npy, y.npy, groups.npy, stats.csv, stats.json, scene.normlab.json and torch.py; returns
// the paths written. Throws InputError (e.g. the folder cannot be created).
std::vector<std::string> export_all(const session::Session& s, const std::string& dir, const std::string& stem);

}  // namespace normlab::app
