#include "normlab/train/conv_plan.hpp"

#include "normlab/plan/dispatch_grid.hpp"
#include "normlab/core/error.hpp"

#include <string>

namespace normlab::train {
namespace {

constexpr std::uint64_t kMaxGroupsPerSide = 65535;  // Vulkan's guaranteed minimum and WebGPU's default

std::vector<std::uint32_t> conv_params(const ConvShape& s) {
    if (s.n < 1 || s.cin < 1 || s.cout < 1 || s.h < 1 || s.w < 1)
        throw core::InternalError("plan_conv3x3: every dimension must be at least 1");
    return {static_cast<std::uint32_t>(s.n), static_cast<std::uint32_t>(s.cin), static_cast<std::uint32_t>(s.cout),
            static_cast<std::uint32_t>(s.h), static_cast<std::uint32_t>(s.w)};
}

void check_buffer(const TrainProgram& p, int index, std::uint64_t elements, const char* what) {
    if (index < 0 || index >= static_cast<int>(p.buffers.size()))
        throw core::InternalError(std::string("plan_conv3x3: no buffer for ") + what);
    if (p.buffers[index].elements < elements)
        throw core::InternalError(std::string("plan_conv3x3: buffer ") + p.buffers[index].name + " is too small for " +
                                  what);
}

// The quads (4 pixels of a row) of `planes` H×W planes: an invocation each.
std::uint64_t quads(std::uint64_t planes, const ConvShape& s) { return planes * s.h * ((s.w + 3) / 4); }

}  // namespace

std::array<std::uint32_t, 3> train_grid(std::uint64_t groups) {
    plan::DispatchGrid g = plan::dispatch_grid(groups < 1 ? 1 : groups, kMaxGroupsPerSide, kMaxGroupsPerSide);
    return {g.x, g.y, 1};
}

std::array<std::uint32_t, 3> train_groups_for(std::uint64_t invocations) {
    return train_grid((invocations + kTrainGroupSize - 1) / kTrainGroupSize);
}

void plan_conv3x3_forward(TrainProgram& p, const ConvShape& s, int x, int weight, int bias, int y) {
    auto params = conv_params(s);
    check_buffer(p, x, s.x_size(), "x");
    check_buffer(p, weight, s.weight_size(), "the weight");
    check_buffer(p, bias, static_cast<std::uint64_t>(s.cout), "the bias");
    check_buffer(p, y, s.y_size(), "y");
    p.passes.push_back({"train_conv_forward",
                        params,
                        train_groups_for(quads(static_cast<std::uint64_t>(s.n) * ((s.cout + 3) / 4), s)),
                        {x, weight, bias, y}});
}

void plan_conv3x3_backward_input(TrainProgram& p, const ConvShape& s, int dy, int weight, int dx) {
    auto params = conv_params(s);
    check_buffer(p, dy, s.y_size(), "dy");
    check_buffer(p, weight, s.weight_size(), "the weight");
    check_buffer(p, dx, s.x_size(), "dx");
    p.passes.push_back({"train_conv_backward_input",
                        params,
                        train_groups_for(quads(static_cast<std::uint64_t>(s.n) * ((s.cin + 3) / 4), s)),
                        {dy, weight, dx}});
}

void plan_conv3x3_grad_params(TrainProgram& p, const ConvShape& s, int x, int dy, int dweight, int dbias) {
    auto params = conv_params(s);
    check_buffer(p, x, s.x_size(), "x");
    check_buffer(p, dy, s.y_size(), "dy");
    check_buffer(p, dweight, s.weight_size(), "the weight's gradient");
    check_buffer(p, dbias, static_cast<std::uint64_t>(s.cout), "the bias's gradient");
    // One workgroup per (output, input) channel pair (its 9 weights), then one per bias element.
    std::uint64_t groups = static_cast<std::uint64_t>(s.cout) * s.cin + s.cout;
    p.passes.push_back({"train_conv_grad_params", params, train_grid(groups), {x, dy, dweight, dbias}});
}

}  // namespace normlab::train
