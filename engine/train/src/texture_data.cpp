#include "normlab/train/texture_data.hpp"

#include "normlab/core/error.hpp"
#include "normlab/train/train_data.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace normlab::train {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr int kPixels = kTexturePixels;

// One class's pattern on the 16×16 grid (values in [−1, 1], then its mean over the image subtracted), its
// random parameters drawn from rng in a fixed order.
void draw_pattern(int cls, TrainRng& rng, double* p) {
    double f = rng.uniform(3.0, 5.0) / kTextureSide;  // 3–5 periods across the image
    double phase = rng.uniform(0.0, kTwoPi);
    double phase2 = rng.uniform(0.0, kTwoPi);
    double cy = rng.uniform(4.0, 12.0), cx = rng.uniform(4.0, 12.0);
    double cy2 = rng.uniform(2.0, 14.0), cx2 = rng.uniform(2.0, 14.0);
    double sigma = rng.uniform(1.5, 2.5);
    for (int i = 0; i < kTextureSide; ++i)
        for (int j = 0; j < kTextureSide; ++j) {
            double v = 0.0;
            switch (cls) {
                case 0: v = std::sin(kTwoPi * f * i + phase); break;
                case 1: v = std::sin(kTwoPi * f * j + phase); break;
                case 2: v = std::sin(kTwoPi * f * i + phase) * std::sin(kTwoPi * f * j + phase2) * 2.0; break;
                case 3: {
                    double g1 = std::exp(-((i - cy) * (i - cy) + (j - cx) * (j - cx)) / (2.0 * sigma * sigma));
                    double g2 = std::exp(-((i - cy2) * (i - cy2) + (j - cx2) * (j - cx2)) / (2.0 * sigma * sigma));
                    v = 2.0 * std::min(1.0, g1 + g2) - 1.0;
                    break;
                }
                case 4: v = std::cos(kTwoPi * f * std::hypot(i - cy, j - cx) + phase); break;
                default: v = std::sin(kTwoPi * f * (i + j) / std::numbers::sqrt2 + phase); break;
            }
            p[i * kTextureSide + j] = std::clamp(v, -1.0, 1.0);
        }
    double mean = 0.0;
    for (int k = 0; k < kPixels; ++k) mean += p[k] / kPixels;
    for (int k = 0; k < kPixels; ++k) p[k] -= mean;
}

void fill_set(TrainDataSet& set, int samples, const TextureConfig& c, TrainRng& rng) {
    set.features = kPixels;
    set.x.resize(static_cast<std::size_t>(samples) * kPixels);
    set.y.resize(static_cast<std::size_t>(samples));
    double pattern[kPixels];
    for (int s = 0; s < samples; ++s) {
        int cls = s % c.classes;
        set.y[s] = cls;
        draw_pattern(cls, rng, pattern);
        double contrast = rng.uniform(0.4, 1.0);
        double brightness = rng.uniform(-0.5, 0.5);
        float* out = set.x.data() + static_cast<std::size_t>(s) * kPixels;
        for (int k = 0; k < kPixels; ++k)
            out[k] = static_cast<float>(brightness + contrast * pattern[k] + c.noise * rng.normal());
    }
}

}  // namespace

const std::vector<std::string>& texture_class_names() {
    static const std::vector<std::string> names{"stripes-h", "stripes-v", "checks", "blobs", "rings", "stripes-d"};
    return names;
}

TextureData make_textures(const TextureConfig& c) {
    if (c.classes < kTextureMinClasses || c.classes > kTextureMaxClasses)
        throw core::InputError("textures: --classes must be 2 to 6, not " + std::to_string(c.classes));
    if (c.samples < 1) throw core::InputError("textures: --samples must be at least 1");
    if (c.val_samples < 0) throw core::InputError("textures: the held-out sample count must not be negative");
    if (!(c.noise >= 0.0) || !std::isfinite(c.noise))
        throw core::InputError("textures: --noise must be finite and ≥ 0");
    TrainRng train_rng(c.seed * 4 + 1), val_rng(c.seed * 4 + 2);  // the training data's streams of a data seed
    TextureData d;
    fill_set(d.train, c.samples, c, train_rng);
    fill_set(d.val, c.val_samples, c, val_rng);
    return d;
}

TextureData make_train_textures(const TrainConfig& c) {
    return make_textures(TextureConfig{c.classes, c.samples, validation_samples(c), c.noise, c.data_seed});
}

}  // namespace normlab::train
