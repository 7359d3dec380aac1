// Generated training data, deterministic from a seed, no downloads: the mlp's 2-D points
// (spirals, circles, xor, blobs; 2–4 classes), a held-out validation set drawn from the same
// distribution, and the batch order (T×B training-sample indices).
//
// The RNG (TrainRng) is SplitMix64: state += 0x9E3779B97F4A7C15, then the usual two xor-shift-
// multiply rounds; uniform() is the top 53 bits / 2^53; normal() is Box–Muller (one value per
// two uniforms, the cosine branch). Streams: training set seed·4+1, validation set seed·4+2,
// batch order seed·4+3 (data_seed), parameters seed·4+0 (seed).
#pragma once
#include "normlab/train/train_config.hpp"

#include <cstdint>
#include <vector>

namespace normlab::train {

class TrainRng {
public:
    explicit TrainRng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    double uniform();  // [0, 1)
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    double normal();  // N(0, 1)
    std::uint64_t below(std::uint64_t n) { return next() % n; }

private:
    std::uint64_t state_;
};

struct TrainDataSet {
    std::vector<float> x;         // samples × features (mlp: 2)
    std::vector<std::int32_t> y;  // samples, in [0, K)
    int features = 2;
    int samples() const { return static_cast<int>(y.size()); }
};

struct TrainData {
    TrainDataSet train, val;
    std::vector<std::int32_t> batches;  // steps × batch training-sample indices
};

// The data of c (c valid). Batch order: epochs of a fresh shuffle (Fisher–Yates) of the training
// samples, each cut into consecutive batches; an epoch's last partial batch is dropped.
TrainData make_train_data(const TrainConfig& c);

}  // namespace normlab::train
