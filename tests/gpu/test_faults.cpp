// Device-side faults end in a clear error, never a crash or a hang: a shader that does not
// compile gives the compiler's message; a buffer the device cannot hold is refused.
#include <catch2/catch.hpp>

#include "../support.hpp"
#include "normlab/gpu/gpu_buffer.hpp"
#include "normlab/gpu/shader_library.hpp"

using namespace normlab;

TEST_CASE("a shader that fails to compile reports the compiler's message", "[faults]") {
    const std::string broken =
        "#version 450\nlayout(local_size_x = 64) in;\nvoid main() {\n  float x = undefined_thing;\n}\n";
    try {
        gpu::compile_glsl("broken.comp", broken);
        FAIL("broken GLSL compiled");
    } catch (const gpu::ShaderError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("broken.comp") != std::string::npos);
        CHECK(what.find("failed to compile") != std::string::npos);
        CHECK(what.find("undefined_thing") != std::string::npos);  // glslang's own words, with the line
        CHECK(what.find(":4:") != std::string::npos);
    }
    CHECK_THROWS_AS(gpu::compile_glsl("syntax.comp", "#version 450\nvoid main( {"), gpu::ShaderError);
    // A good shader still compiles afterwards.
    CHECK_FALSE(gpu::compile_glsl("ok.comp", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n").empty());
}

TEST_CASE("a buffer larger than the device's memory is refused, not allocated", "[faults]") {
    auto& ctx = test::context();
    const vk::DeviceSize too_big = ctx.device_memory_bytes() + 1;
    CHECK_THROWS_AS(gpu::GpuBuffer(ctx, too_big, gpu::BufferRole::Compute), core::InputError);
    CHECK_THROWS_WITH(gpu::GpuBuffer(ctx, vk::DeviceSize(1) << 62, gpu::BufferRole::Readback),
                      Catch::Contains("does not fit"));
    // The context stays usable.
    gpu::GpuBuffer ok(ctx, 1024, gpu::BufferRole::Compute);
    CHECK(ok.size() == 1024);
}
