// One table of the cnn ops' kernel cases that both GPU suites run: tests/train/test_conv_gpu.cpp on the Vulkan
// TrainRunner and tests/web/wasm/train_test.cpp on the WebGPU WgpuTrainRunner in the browser. Each case is a
// TrainProgram of the conv and pooling passes (conv_plan.hpp, pool_plan.hpp) on random or odd shapes with its
// float32 inputs, checked against the float64 references (conv_reference.hpp, pool_reference.hpp) within
// float32's bound for a sum of K rounded terms, |gpu − ref| ≤ (K + 1)·ε·Σ|terms| (ε = 2⁻²³, twice the unit
// roundoff), K the longest chain of additions in the backend's kernel and Σ|terms| the reference on absolute
// values. Backend-neutral: depends on engine/train only.
#pragma once
#include "normlab/train/train_device.hpp"
#include "normlab/train/train_program.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace normlab::test {

// Whose kernels ran: their sums take other orders (train_conv_grad_params and train_pool_global_forward).
enum class ConvBackend { Vulkan, WebGPU };

struct ConvKernelCase {
    std::string name;
    train::TrainProgram program;  // with the "log" and "val_log" buffers a runner reads
    std::vector<std::pair<std::string, std::vector<float>>> inputs;  // by buffer name; the others start zeroed
    // One line per failure, from every buffer's values after one submission (the program's order).
    std::function<std::vector<std::string>(const std::vector<std::vector<float>>&, ConvBackend)> check;
};

// Conv2d 3×3 forward, ∂x, ∂W and ∂b on 18 shapes (N 1–8, Cin and Cout 1–16, sides 16, 8, 4, 2 and the odd
// 5×7 and 1×1); AvgPool2d(2) and the global pool, forward and backward, on 17 (one of sides 5×7); and
// conv → AvgPool2d → global pool and back in one program (each pass sees the last one's writes).
const std::vector<ConvKernelCase>& conv_kernel_cases();

// Uploads a case's inputs into `device` (made from its program), runs one submission and reads every buffer.
std::vector<std::vector<float>> run_kernel_case(train::TrainDevice& device, const ConvKernelCase& k);

}  // namespace normlab::test
