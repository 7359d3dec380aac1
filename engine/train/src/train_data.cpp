// The mlp's generated 2-D point data and the batch order (train_data.hpp).
#include "normlab/train/train_data.hpp"

#include "normlab/train/texture_data.hpp"

#include <cmath>
#include <numeric>
#include <numbers>

namespace normlab::train {

std::uint64_t TrainRng::next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double TrainRng::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double TrainRng::normal() {
    const double u1 = 1.0 - uniform();  // (0, 1]
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

namespace {

// One 2-D point of class k of `data`.
void point(const TrainConfig& c, int k, TrainRng& rng, double& px, double& py) {
    const double pi = std::numbers::pi;
    if (c.data == "spirals") {
        const double r = rng.uniform(0.05, 1.0);
        const double a = 2 * pi * k / c.classes + r * 3 * pi;
        px = r * std::cos(a);
        py = r * std::sin(a);
    } else if (c.data == "circles") {
        const double a = rng.uniform(0, 2 * pi);
        const double r = k == 0 ? 0.5 : 1.0;
        px = r * std::cos(a);
        py = r * std::sin(a);
    } else if (c.data == "xor") {
        // Quadrants: class 0 where x·y > 0 (kept 0.05 away from the axes).
        const double sx = rng.uniform() < 0.5 ? -1 : 1;
        const double sy = k == 0 ? sx : -sx;
        px = sx * rng.uniform(0.05, 1.0);
        py = sy * rng.uniform(0.05, 1.0);
    } else {  // blobs: centres on the unit circle
        const double a = 2 * pi * k / c.classes;
        px = std::cos(a);
        py = std::sin(a);
    }
    px += c.noise * rng.normal();
    py += c.noise * rng.normal();
}

TrainDataSet make_set(const TrainConfig& c, int samples, std::uint64_t stream) {
    TrainRng rng(stream);
    TrainDataSet s;
    s.x.resize(static_cast<std::size_t>(samples) * 2);
    s.y.resize(samples);
    for (int i = 0; i < samples; ++i) {
        const int k = i % c.classes;
        double px = 0, py = 0;
        point(c, k, rng, px, py);
        s.x[2 * i] = static_cast<float>(px);
        s.x[2 * i + 1] = static_cast<float>(py);
        s.y[i] = k;
    }
    return s;
}

}  // namespace

TrainData make_train_data(const TrainConfig& c) {
    TrainData d;
    if (c.data == "textures") {  // the cnn's images (texture_data.hpp), from the same two streams
        TextureData t = make_train_textures(c);
        d.train = std::move(t.train);
        d.val = std::move(t.val);
    } else {
        d.train = make_set(c, c.samples, c.data_seed * 4 + 1);
        d.val = make_set(c, validation_samples(c), c.data_seed * 4 + 2);
    }
    TrainRng rng(c.data_seed * 4 + 3);
    std::vector<std::int32_t> perm(c.samples);
    std::size_t used = perm.size();  // forces a shuffle first
    d.batches.reserve(static_cast<std::size_t>(c.steps) * c.batch);
    for (int t = 0; t < c.steps; ++t) {
        if (used + c.batch > perm.size()) {
            std::iota(perm.begin(), perm.end(), 0);
            for (std::size_t i = perm.size() - 1; i > 0; --i) std::swap(perm[i], perm[rng.below(i + 1)]);
            used = 0;
        }
        d.batches.insert(d.batches.end(), perm.begin() + used, perm.begin() + used + c.batch);
        used += c.batch;
    }
    return d;
}

}  // namespace normlab::train
