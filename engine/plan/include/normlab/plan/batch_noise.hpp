// Batch noise: how far BatchNorm's batch statistics scatter as the batch shrinks, measured on
// the device (any ComputeBackend: Vulkan, WebGPU) over many batches drawn from one population,
// N(0, 1) in every channel. Each batch is
// an N×C×L tensor (BatchNorm1d's layout) normalized in train mode; the spread of its per-channel
// means and the average of its biased variances are compared with 1/√(N·L) and 1 − 1/(N·L).
#pragma once
#include "normlab/plan/compute_backend.hpp"

#include <cstdint>
#include <vector>

namespace normlab::plan {

struct BatchNoiseRow {
    std::int64_t n = 0;            // batch size
    std::int64_t count = 0;        // values per channel in one batch: N·L
    std::int64_t samples = 0;      // batch means measured: draws·C
    double sd_mean = 0;            // standard deviation of the batch means around the population's 0
    double mean_var = 0;           // average biased batch variance
    double expected_sd_mean = 0;   // 1/√(N·L)
    double expected_mean_var = 0;  // 1 − 1/(N·L)
};

// One row per batch size; draws batches per size (seeds seed, seed + 1, ...), all on the device,
// whose x and y are the last batch's afterwards. Throws InputError for sizes < 2 or draws < 1
// (BatchNorm needs 2 values per channel).
std::vector<BatchNoiseRow> measure_batch_noise(ComputeBackend& backend, std::int64_t channels, std::int64_t length,
                                               const std::vector<std::int64_t>& sizes, int draws, std::uint64_t seed);

}  // namespace normlab::plan
