// Transfers between the host and compute buffers (staging.hpp) and the Normalizer's resident
// x and y: exact round trips in chunks, bounded staging, reuse of x across runs. Run plain
// (lavapipe maps compute buffers directly) and under NORMLAB_MEMORY=staged, where every
// transfer goes through the staging buffers as on a discrete GPU.
#include <catch2/catch.hpp>

#include "../support.hpp"

#include "normlab/staging.hpp"

#include <numeric>

using namespace normlab;
using namespace normlab::test;

TEST_CASE("staging round trips in chunks through a bounded buffer", "[gpu][staging]") {
    VulkanContext& ctx = context();
    CommandRecorder rec(ctx);
    Staging st(ctx, rec, 256);  // 256 bytes: a 4000-byte transfer takes 16 chunks
    GpuBuffer a(ctx, 4096, BufferRole::Compute), b(ctx, 64, BufferRole::Compute);
    std::vector<float> src(1000), small{1, 2, 3, 4, 5, 6, 7, 8};
    std::iota(src.begin(), src.end(), -500.0f);
    st.upload({{&a, 16, src.data(), src.size() * 4}, {&b, 0, small.data(), small.size() * 4}});
    std::vector<float> back(1000, 0.0f), back_small(8, 0.0f), head(4, 0.0f);
    st.download({{&a, 16, back.data(), back.size() * 4}, {&b, 0, back_small.data(), 32}, {&a, 16, head.data(), 16}});
    CHECK(back == src);
    CHECK(back_small == small);
    CHECK(head == std::vector<float>(src.begin(), src.begin() + 4));
    CHECK(st.capacity() == 256);
    if (!ctx.direct_mapping_allowed()) CHECK_FALSE(a.mappable());  // NORMLAB_MEMORY=staged
    if (a.mappable()) {
        CHECK(st.submits() == 0);  // direct mapping: memcpy only
    } else {
        CHECK(st.submits() >= 2 * 16);  // every chunk a submit, both ways
    }
    CHECK(ctx.validation_messages() == 0);
}

TEST_CASE("x stays on the device: reuse_x gives the same results as a fresh upload", "[gpu][staging]") {
    Tensor x = make_tensor({3, 8, 5, 7}, Init::Randn, 77);
    NormSpec group = default_spec(Method::Group);
    group.groups = 4;
    NormSpec layer = default_spec(Method::Layer);
    auto first = normalizer().run(x, group);
    auto reused = normalizer().run(x, layer, {}, RunOptions{.reuse_x = true, .read_y = true});
    auto fresh = normalizer().run(x, layer);
    CHECK(reused.y.data == fresh.y.data);
    CHECK(reused.mean == fresh.mean);
    CHECK(first.upload_ms >= 0.0);
    CHECK(reused.readback_ms >= 0.0);
    if (context().timestamps()) CHECK(reused.gpu_ms > 0.0);

    // read_y = false: the statistics come back, y stays on the device and holds the result.
    auto stats_only = normalizer().run(x, layer, {}, RunOptions{.reuse_x = true, .read_y = false});
    CHECK(stats_only.y.data.empty());
    CHECK(stats_only.var == fresh.var);
    CommandRecorder rec(context());
    Staging st(context(), rec);
    std::vector<float> y(x.data.size());
    st.download({{&normalizer().y_buffer(), 0, y.data(), y.size() * 4}});
    CHECK(y == fresh.y.data);

    // A different shape is uploaded even when reuse_x is asked for.
    Tensor other = make_tensor({2, 8, 5, 7}, Init::Randn, 78);
    auto r = normalizer().run(other, layer, {}, RunOptions{.reuse_x = true, .read_y = true});
    CHECK(r.y.data == normalizer().run(other, layer).y.data);
    CHECK(context().validation_messages() == 0);
}

TEST_CASE("load_values puts x and y on the device as given", "[gpu][staging]") {
    Tensor x = make_tensor({2, 3, 4, 5}, Init::Randn, 5), y = make_tensor({2, 3, 4, 5}, Init::Randn, 6);
    normalizer().load_values(x, y);
    CommandRecorder rec(context());
    Staging st(context(), rec);
    std::vector<float> bx(x.data.size()), by(y.data.size());
    st.download({{&normalizer().x_buffer(), 0, bx.data(), bx.size() * 4},
                 {&normalizer().y_buffer(), 0, by.data(), by.size() * 4}});
    CHECK(bx == x.data);
    CHECK(by == y.data);
    Tensor wrong = make_tensor({2, 3, 4, 4}, Init::Randn, 7);
    CHECK_THROWS_AS(normalizer().load_values(x, wrong), InputError);
}
