// The `textures` data (engine/train/texture_data): deterministic from the seed, balanced labels, the held-out
// split, bad configurations refused, and classes that differ in their spatial structure, not in brightness.
#include "normlab/core/error.hpp"
#include "normlab/train/texture_data.hpp"
#include "normlab/train/train_data.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace normlab;

namespace {

// Mean |difference| between vertically (dy) or horizontally (dx) adjacent pixels of image s.
double mean_step(const train::TrainDataSet& set, int s, bool vertical) {
    const float* p = set.x.data() + static_cast<std::size_t>(s) * train::kTextureSide * train::kTextureSide;
    double acc = 0.0;
    for (int i = 0; i < train::kTextureSide - 1; ++i)
        for (int j = 0; j < train::kTextureSide - 1; ++j)
            acc += std::abs(p[(i + vertical) * train::kTextureSide + j + !vertical] - p[i * train::kTextureSide + j]);
    return acc / ((train::kTextureSide - 1) * (train::kTextureSide - 1));
}

double image_mean(const train::TrainDataSet& set, int s) {
    const float* p = set.x.data() + static_cast<std::size_t>(s) * train::kTextureSide * train::kTextureSide;
    double acc = 0.0;
    for (int k = 0; k < train::kTextureSide * train::kTextureSide; ++k) acc += p[k];
    return acc / (train::kTextureSide * train::kTextureSide);
}

}  // namespace

TEST_CASE("TrainRng is splitmix64 with its published first outputs", "[train][texture]") {
    train::TrainRng rng(1234567);
    // splitmix64's reference outputs for seed 1234567 (Vigna's splitmix64.c).
    CHECK(rng.next() == 6457827717110365317ull);
    CHECK(rng.next() == 3203168211198807973ull);
    train::TrainRng u(0);
    for (int i = 0; i < 1000; ++i) {
        double v = u.uniform();
        REQUIRE((v >= 0.0 && v < 1.0));
    }
}

TEST_CASE("textures: shapes, labels, held-out split, deterministic from the seed", "[train][texture]") {
    train::TextureConfig c{.classes = 5, .samples = 100, .val_samples = 40, .noise = 0.2, .seed = 11};
    train::TextureData a = train::make_textures(c), b = train::make_textures(c);
    REQUIRE(a.train.samples() == 100);
    REQUIRE(a.val.samples() == 40);
    REQUIRE(a.train.x.size() == 100u * 256u);
    CHECK(a.train.features == train::kTexturePixels);
    REQUIRE(a.val.x.size() == 40u * 256u);
    CHECK(a.train.x == b.train.x);
    CHECK(a.val.x == b.val.x);
    CHECK(a.train.y == b.train.y);
    CHECK(a.train.x != a.val.x);  // the held-out images are other draws
    for (int s = 0; s < 100; ++s) CHECK(a.train.y[s] == s % 5);
    for (float v : a.train.x) REQUIRE(std::isfinite(v));
    c.seed = 12;
    CHECK(train::make_textures(c).train.x != a.train.x);
    CHECK(train::texture_class_names().size() == static_cast<std::size_t>(train::kTextureMaxClasses));
}

TEST_CASE("textures: bad configurations are refused with one line", "[train][texture]") {
    CHECK_THROWS_AS(train::make_textures({.classes = 1}), core::InputError);
    CHECK_THROWS_AS(train::make_textures({.classes = 7}), core::InputError);
    CHECK_THROWS_AS(train::make_textures({.classes = 3, .samples = 0}), core::InputError);
    CHECK_THROWS_AS(train::make_textures({.classes = 3, .samples = 4, .val_samples = -1}), core::InputError);
    CHECK_THROWS_AS(train::make_textures({.classes = 3, .samples = 4, .val_samples = 1, .noise = -0.1}),
                    core::InputError);
    CHECK_THROWS_AS(train::make_textures({.classes = 3, .samples = 4, .val_samples = 1, .noise = NAN}),
                    core::InputError);
}

TEST_CASE("textures: stripes differ in orientation, not in brightness", "[train][texture]") {
    train::TextureData d =
        train::make_textures({.classes = 6, .samples = 600, .val_samples = 0, .noise = 0.2, .seed = 3});
    int right = 0, count = 0;
    std::vector<double> class_mean(6, 0.0);
    for (int s = 0; s < d.train.samples(); ++s) {
        int k = d.train.y[s];
        class_mean[k] += image_mean(d.train, s) / 100.0;
        if (k > 1) continue;
        ++count;
        bool vertical_steps_larger = mean_step(d.train, s, true) > mean_step(d.train, s, false);
        right += (k == 0) == vertical_steps_larger;  // horizontal stripes change from row to row
    }
    CHECK(right >= count * 95 / 100);
    // Brightness U(−0.5, 0.5) per image: the class means stay near 0 (σ of a mean of 100 ≈ 0.03 + pattern).
    for (double m : class_mean) CHECK(std::abs(m) < 0.2);
}
