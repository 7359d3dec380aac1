// TrainDevice: what every backend's runner of a TrainProgram (train_program.hpp) offers — the Vulkan
// TrainRunner (engine/ops) and the WebGPU one — so the CLI, the tests and the shell's Train view drive a
// training run without knowing the backend. Buffers are named as in the program; the logs are
// `log` (loss, accuracy per step: 2·steps f32) and `val_log` (likewise per evaluated step).
#pragma once
#include "normlab/plan/histogram_set.hpp"
#include "normlab/train/train_program.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace normlab::train {

class TrainDevice {
public:
    virtual ~TrainDevice() = default;

    // Uploads `bytes` of `data` into the buffer named `name` (InternalError when absent or too
    // small). Waits for everything submitted first.
    virtual void upload(const std::string& name, const void* data, std::size_t bytes) = 0;
    // Queues `steps` training steps without waiting, and an evaluation after every `eval_every`-th
    // step counted from the first step ever run (0: none) and after the last of them when `eval_last`.
    virtual void submit(int steps, int eval_every = 0, bool eval_last = false) = 0;
    // Whether everything submitted has finished (then log() and val_log() are current). Never blocks:
    // a front end calls it once a frame and submits the next slice when it says true.
    virtual bool poll() = 0;
    // Waits for everything submitted.
    virtual void finish() = 0;
    // The training and validation logs as of the last finish() or true poll(); entries of steps not
    // run (or not evaluated) hold 0.
    virtual std::vector<float> log() const = 0;
    virtual std::vector<float> val_log() const = 0;
    // The whole buffer named `name` as f32 (waits for everything submitted first).
    virtual std::vector<float> download(const std::string& name) = 0;
    // The histogram of the whole buffer named `name` (f32): `bins` equal-width bins over its [min, max],
    // computed on the device by the backend's own histogram op (engine/ops' Histogram on Vulkan,
    // WgpuHistogram on WebGPU), only the result read back. Waits for everything submitted first.
    virtual plan::HistogramResult histogram(const std::string& name, std::uint32_t bins) = 0;
    // Steps submitted so far.
    virtual int steps_run() const = 0;
    virtual const TrainProgram& program() const = 0;
};

}  // namespace normlab::train
