#include "normlab/plan/batch_noise.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/tensor_init.hpp"

#include <cmath>

namespace normlab::plan {

std::vector<BatchNoiseRow> measure_batch_noise(ComputeBackend& backend, std::int64_t channels, std::int64_t length,
                                               const std::vector<std::int64_t>& sizes, int draws, std::uint64_t seed) {
    if (draws < 1 || channels < 1 || length < 1) throw core::InputError("batch noise needs draws, C and L >= 1");
    const core::NormSpec spec = core::default_spec(core::Method::Batch);  // train mode: the batch's own statistics
    std::vector<BatchNoiseRow> rows;
    for (std::int64_t n : sizes) {
        if (n < 2) throw core::InputError("batch noise needs batches of at least 2 samples, got " + std::to_string(n));
        BatchNoiseRow row;
        row.n = n;
        row.count = n * length;
        double sum_sq = 0, sum_var = 0;
        for (int k = 0; k < draws; ++k) {
            const core::Tensor x = make_tensor(core::Shape4::seq(n, channels, length), core::Init::Randn,
                                               seed + static_cast<std::uint64_t>(k));
            const core::NormResult r = backend.normalize(x, spec, {}, RunOptions{.read_y = false});
            for (std::int64_t c = 0; c < channels; ++c) {
                const auto i = static_cast<std::size_t>(c);
                sum_sq += r.mean[i] * r.mean[i];  // the population mean is 0
                sum_var += r.var[i];
            }
        }
        row.samples = static_cast<std::int64_t>(draws) * channels;
        row.sd_mean = std::sqrt(sum_sq / static_cast<double>(row.samples));
        row.mean_var = sum_var / static_cast<double>(row.samples);
        row.expected_sd_mean = 1.0 / std::sqrt(static_cast<double>(row.count));
        row.expected_mean_var = 1.0 - 1.0 / static_cast<double>(row.count);
        rows.push_back(row);
    }
    return rows;
}

}  // namespace normlab::plan
