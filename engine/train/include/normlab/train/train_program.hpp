// TrainProgram: a training step (or an evaluation) as a backend-free list of kernel launches, planned
// once in engine/train and run by every backend (the Vulkan runner in engine/ops records the passes
// into one command buffer and replays it; a WebGPU runner encodes the same list). A pass names its
// kernel (shaders/<kernel>.comp and shaders/wgsl/<kernel>.wgsl), its parameter block (32-bit words:
// u32 values and f32 bits, in the order the kernel declares them), its grid and its storage buffers
// by binding. Every pass may read what the passes before it wrote: a runner orders them (a barrier
// between consecutive passes in Vulkan, pass order in WebGPU).
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace normlab {

// A device buffer of the program: float32 (or u32/i32 bits) elements, zeroed when created unless
// the host uploads it.
struct TrainBuffer {
    std::string name;  // e.g. "layers.0.linear.weight", "act.1", "grad.act.1"
    std::uint64_t elements = 0;
};

struct TrainPass {
    std::string kernel;                            // shader name without suffix
    std::vector<std::uint32_t> params;             // the parameter block (≤ 128 bytes: push constants)
    std::array<std::uint32_t, 3> groups{1, 1, 1};  // workgroups in x, y, z
    std::vector<int> buffers;                      // binding i → TrainProgram::buffers[buffers[i]]
};

struct TrainProgram {
    std::vector<TrainBuffer> buffers;
    std::vector<TrainPass> passes;

    int add_buffer(std::string name, std::uint64_t elements) {
        buffers.push_back({std::move(name), elements});
        return static_cast<int>(buffers.size()) - 1;
    }
};

// Parameter-block words.
inline std::uint32_t param_f32(float v) { return std::bit_cast<std::uint32_t>(v); }

}  // namespace normlab
