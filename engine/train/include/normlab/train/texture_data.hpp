// The `textures` data of the cnn: 1×16×16 grey images of K procedural classes (2–6), deterministic from
// a seed (TrainRng: the training images from stream seed·4+1, the held-out ones from seed·4+2, as the
// other data sets). Class k of sample i is i mod K; each image is
//     brightness + contrast·pattern(class, random phase, frequency, position) + noise·N(0, 1)
// with brightness U(−0.5, 0.5), contrast U(0.4, 1), the pattern in [−1, 1] less its mean over the image
// (so that no class is brighter than another on average). The classes, in order:
// horizontal stripes, vertical stripes, checks, blobs, rings, diagonal stripes. Every class has the
// same mean brightness, so telling them apart takes the convolutions' spatial filters: learnable, not
// in one step.
#pragma once
#include "normlab/train/train_data.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace normlab::train {

inline constexpr int kTextureSide = 16;
inline constexpr int kTextureMinClasses = 2;
inline constexpr int kTextureMaxClasses = 6;

struct TextureConfig {
    int classes = 4;
    int samples = 512;      // training images
    int val_samples = 256;  // held-out images
    double noise = 0.2;     // σ of the per-pixel Gaussian noise
    std::uint64_t seed = 0;
};

inline constexpr int kTexturePixels = kTextureSide * kTextureSide;

// train and val: x is samples×1×16×16 (features = 256), y the labels in 0 … classes−1.
struct TextureData {
    TrainDataSet train, val;
};

// The class names in order ("stripes-h", "stripes-v", "checks", "blobs", "rings", "stripes-d").
const std::vector<std::string>& texture_class_names();

// Throws InputError (one line) for classes outside 2–6, samples < 1, val_samples < 0 or noise < 0.
TextureData make_textures(const TextureConfig& config);

// The textures of a training configuration (c.data "textures"): c.samples training images, the
// validation set's size (validation_samples), c.noise, c.classes and c.data_seed.
TextureData make_train_textures(const TrainConfig& c);

}  // namespace normlab::train
