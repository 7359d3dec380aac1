// Transfers between the host and compute buffers (staging.hpp) and the Normalizer's resident
// x and y: exact round trips in chunks through both slots of the double-buffered staging
// buffers, bounded staging, reuse of x across runs. Run plain (lavapipe maps compute buffers
// directly) and under NORMLAB_MEMORY=staged, where every transfer goes through the staging
// buffers as on a discrete GPU.
#include <catch2/catch.hpp>

#include "../support.hpp"

#include "normlab/gpu/staging.hpp"

#include <cstdint>
#include <limits>
#include <numeric>

using namespace normlab;
using namespace normlab::test;

TEST_CASE("staging round trips in chunks through a bounded buffer", "[gpu][staging]") {
    gpu::VulkanContext& ctx = context();
    gpu::CommandRecorder rec(ctx);
    gpu::Staging st(ctx, rec, 256);  // 256 bytes: a 4000-byte transfer takes 16 chunks
    gpu::GpuBuffer a(ctx, 4096, gpu::BufferRole::Compute), b(ctx, 64, gpu::BufferRole::Compute);
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

// Bytes that differ from their neighbours and from another seed's, so a piece copied to the
// wrong place, from the wrong slot or twice shows.
static std::vector<std::uint8_t> pattern(std::size_t n, std::uint32_t seed) {
    std::vector<std::uint8_t> v(n);
    std::uint32_t h = seed * 2654435761u + 1;
    for (auto& b : v) {
        h ^= h << 13, h ^= h >> 17, h ^= h << 5;
        b = static_cast<std::uint8_t>(h >> 24);
    }
    return v;
}

TEST_CASE("staging round trips many chunks through both slots, odd sizes and offsets", "[gpu][staging]") {
    gpu::VulkanContext& ctx = context();
    gpu::CommandRecorder rec(ctx);
    gpu::Staging st(ctx, rec, 256);  // two slots of 128 bytes
    constexpr std::size_t kBuf = 16384;
    gpu::GpuBuffer a(ctx, kBuf, gpu::BufferRole::Compute);
    const std::vector<std::uint8_t> ground = pattern(kBuf, 1);
    // 0 bytes; under one chunk; one chunk exactly; one byte over; odd sizes of many chunks
    // (97 chunks for 12,345 bytes), at odd offsets.
    const std::vector<std::pair<std::size_t, std::size_t>> cases{{0, 0},    {5, 3},    {16, 128},   {1, 129},
                                                                 {7, 1000}, {0, 4096}, {33, 12345}, {0, kBuf}};
    int seed = 2;
    for (const auto& [offset, bytes] : cases) {
        CAPTURE(offset, bytes);
        st.upload({{&a, 0, ground.data(), kBuf}});
        const int before = st.submits();
        const std::vector<std::uint8_t> piece = pattern(bytes, static_cast<std::uint32_t>(seed++));
        st.upload({{&a, offset, piece.data(), bytes}});
        std::vector<std::uint8_t> back(bytes, 0), whole(kBuf, 0);
        st.download({{&a, offset, back.data(), bytes}});
        if (!a.mappable()) CHECK(st.submits() - before == 2 * static_cast<int>((bytes + 127) / 128));
        CHECK(back == piece);
        // Nothing outside the piece was written.
        st.download({{&a, 0, whole.data(), kBuf}});
        std::vector<std::uint8_t> want = ground;
        std::copy(piece.begin(), piece.end(), want.begin() + static_cast<std::ptrdiff_t>(offset));
        CHECK(whole == want);
    }
    // Many pieces in one call, sharing chunks and crossing slot boundaries, both ways.
    std::vector<std::vector<std::uint8_t>> parts;
    std::vector<gpu::HostToDevice> up;
    std::vector<std::size_t> at;
    for (std::size_t i = 0, off = 0; i < 40; off += 3 * i + 41, ++i) {
        parts.push_back(pattern(3 * i + 1, static_cast<std::uint32_t>(100 + i)));
        at.push_back(off);
    }
    for (std::size_t i = 0; i < parts.size(); ++i) up.push_back({&a, at[i], parts[i].data(), parts[i].size()});
    st.upload(up);
    std::vector<std::vector<std::uint8_t>> backs;
    for (const auto& p : parts) backs.emplace_back(p.size(), 0);
    std::vector<gpu::DeviceToHost> down;
    for (std::size_t i = 0; i < parts.size(); ++i) down.push_back({&a, at[i], backs[i].data(), backs[i].size()});
    st.download(down);
    CHECK(backs == parts);
    CHECK(ctx.validation_messages() == 0);
}

TEST_CASE("staging chunks a large transfer in about eighths, at most half the capacity each", "[gpu][staging]") {
    gpu::VulkanContext& ctx = context();
    gpu::CommandRecorder rec(ctx);
    gpu::Staging st(ctx, rec, vk::DeviceSize{64} << 20);
    const std::size_t bytes = (std::size_t{12} << 20) + 4;  // 12 MiB and 4 bytes: chunks of just over 1.5 MiB
    gpu::GpuBuffer a(ctx, bytes, gpu::BufferRole::Compute);
    const std::vector<std::uint8_t> src = pattern(bytes, 9);
    std::vector<std::uint8_t> back(bytes, 0);
    st.upload({{&a, 0, src.data(), bytes}});
    st.download({{&a, 0, back.data(), bytes}});
    CHECK(back == src);
    if (!a.mappable()) CHECK(st.submits() == 2 * 8);  // eight chunks each way, the last a little shorter
    CHECK(ctx.validation_messages() == 0);
}

TEST_CASE("x stays on the device: reuse_x gives the same results as a fresh upload", "[gpu][staging]") {
    core::Tensor x = make_tensor({3, 8, 5, 7}, core::Init::Randn, 77);
    core::NormSpec group = core::default_spec(core::Method::Group);
    group.groups = 4;
    core::NormSpec layer = core::default_spec(core::Method::Layer);
    auto first = normalizer().run(x, group);
    auto reused = normalizer().run(x, layer, {}, plan::RunOptions{.reuse_x = true, .read_y = true});
    auto fresh = normalizer().run(x, layer);
    CHECK(reused.y.data == fresh.y.data);
    CHECK(reused.mean == fresh.mean);
    CHECK(first.upload_ms >= 0.0);
    CHECK(reused.readback_ms >= 0.0);
    if (context().timestamps()) CHECK(reused.gpu_ms > 0.0);

    // read_y = false: the statistics come back, y stays on the device and holds the result.
    auto stats_only = normalizer().run(x, layer, {}, plan::RunOptions{.reuse_x = true, .read_y = false});
    CHECK(stats_only.y.data.empty());
    CHECK(stats_only.var == fresh.var);
    gpu::CommandRecorder rec(context());
    gpu::Staging st(context(), rec);
    std::vector<float> y(x.data.size());
    st.download({{&normalizer().y_buffer(), 0, y.data(), y.size() * 4}});
    CHECK(y == fresh.y.data);

    // A different shape is uploaded even when reuse_x is asked for.
    core::Tensor other = make_tensor({2, 8, 5, 7}, core::Init::Randn, 78);
    auto r = normalizer().run(other, layer, {}, plan::RunOptions{.reuse_x = true, .read_y = true});
    CHECK(r.y.data == normalizer().run(other, layer).y.data);

    // The count of non-finite inputs is the loaded x's, reused or not.
    other.data[3] = std::numeric_limits<float>::quiet_NaN();
    CHECK(normalizer().run(other, layer).nonfinite_inputs == 1);
    CHECK(normalizer().run(other, group, {}, plan::RunOptions{.reuse_x = true}).nonfinite_inputs == 1);
    CHECK(normalizer().run(x, group, {}, plan::RunOptions{.reuse_x = true}).nonfinite_inputs == 0);  // another shape
    CHECK(context().validation_messages() == 0);
}

TEST_CASE("load_values puts x and y on the device as given", "[gpu][staging]") {
    core::Tensor x = make_tensor({2, 3, 4, 5}, core::Init::Randn, 5),
                 y = make_tensor({2, 3, 4, 5}, core::Init::Randn, 6);
    normalizer().load_values(x, y);
    gpu::CommandRecorder rec(context());
    gpu::Staging st(context(), rec);
    std::vector<float> bx(x.data.size()), by(y.data.size());
    st.download({{&normalizer().x_buffer(), 0, bx.data(), bx.size() * 4},
                 {&normalizer().y_buffer(), 0, by.data(), by.size() * 4}});
    CHECK(bx == x.data);
    CHECK(by == y.data);
    core::Tensor wrong = make_tensor({2, 3, 4, 4}, core::Init::Randn, 7);
    CHECK_THROWS_AS(normalizer().load_values(x, wrong), core::InputError);
}
