// TrainProgram: a training step (or an evaluation) as a backend-free list of kernel launches, planned
// once in engine/train and run by every backend (the Vulkan runner in engine/ops records the passes
// into one command buffer and replays it; a WebGPU runner encodes the same list). A pass names its
// kernel (shaders/<kernel>.comp and shaders/wgsl/<kernel>.wgsl), its parameter block (32-bit words:
// u32 values and f32 bits, in the order the kernel declares them), its grid and its storage buffers
// by binding. Every pass may read what the passes before it wrote: a runner orders them (a barrier
// between consecutive passes in Vulkan, pass order in WebGPU).
//
// A program has two pass lists over the same buffers: `step` (one training step: gather the batch,
// forward, loss + accuracy into the log at the step's index with the step counter's advance, backward,
// optimizer update) and `eval` (the validation set in eval mode, loss + accuracy into the validation
// log at the index of the step last run). Neither list changes from step to step: the step index is
// the u32 in the buffer named "step" (kind U32), which the loss pass of `step` increments, so a
// runner records each list once and replays it. A buffer's role says who fills it: Data (uploaded
// once: samples, labels, batch order), Param (uploaded from the initial parameters, downloaded as
// the final ones: PyTorch's names), Log (read back: 2 f32 per step), the rest zeroed at creation.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace normlab::train {

// A device buffer of the program: float32 (or u32/i32 bits) elements, zeroed when created unless
// the host uploads it.
enum class TrainBufferKind { F32, U32 };
enum class TrainBufferRole { Data, Param, State, Scratch, Log };

struct TrainBuffer {
    std::string name;  // e.g. "layers.0.linear.weight", "act.1", "grad.act.1"
    std::uint64_t elements = 0;
    TrainBufferKind kind = TrainBufferKind::F32;
    TrainBufferRole role = TrainBufferRole::Scratch;
};

struct TrainPass {
    std::string kernel;                            // shader name without suffix
    std::vector<std::uint32_t> params;             // the parameter block (≤ 128 bytes: push constants)
    std::array<std::uint32_t, 3> groups{1, 1, 1};  // workgroups in x, y, z
    std::vector<int> buffers;                      // binding i → TrainProgram::buffers[buffers[i]]
};

struct TrainProgram {
    std::vector<TrainBuffer> buffers;
    std::vector<TrainPass> passes;       // one training step
    std::vector<TrainPass> eval_passes;  // one evaluation of the validation set (may be empty)

    int add_buffer(std::string name, std::uint64_t elements, TrainBufferRole role = TrainBufferRole::Scratch,
                   TrainBufferKind kind = TrainBufferKind::F32) {
        buffers.push_back({std::move(name), elements, kind, role});
        return static_cast<int>(buffers.size()) - 1;
    }
    // The index of the buffer named `name`, or -1.
    int find(const std::string& name) const {
        for (std::size_t i = 0; i < buffers.size(); ++i)
            if (buffers[i].name == name) return static_cast<int>(i);
        return -1;
    }
};

// Parameter-block words.
inline std::uint32_t param_f32(float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, sizeof u);  // not std::bit_cast: emscripten 3.1.6's libc++ 13 lacks it
    return u;
}

}  // namespace normlab::train
