#include "normlab/train/pool_plan.hpp"

#include "normlab/core/error.hpp"
#include "normlab/train/conv_plan.hpp"

#include <string>

namespace normlab::train {
namespace {

std::uint64_t planes(const PoolShape& s) {
    if (s.n < 1 || s.c < 1 || s.h < 1 || s.w < 1)
        throw core::InternalError("plan_pool: every dimension must be at least 1");
    return static_cast<std::uint64_t>(s.n) * s.c;
}

void check_buffer(const TrainProgram& p, int index, std::uint64_t elements, const char* what) {
    if (index < 0 || index >= static_cast<int>(p.buffers.size()))
        throw core::InternalError(std::string("plan_pool: no buffer for ") + what);
    if (p.buffers[index].elements < elements)
        throw core::InternalError(std::string("plan_pool: buffer ") + p.buffers[index].name + " is too small for " +
                                  what);
}

std::uint64_t pooled_size(const PoolShape& s) { return planes(s) * (s.h / 2) * (s.w / 2); }

}  // namespace

void plan_avgpool2_forward(TrainProgram& p, const PoolShape& s, int x, int y) {
    if (s.h < 2 || s.w < 2) throw core::InternalError("plan_avgpool2: h and w must be at least 2");
    check_buffer(p, x, s.size(), "x");
    check_buffer(p, y, pooled_size(s), "y");
    auto n = static_cast<std::uint32_t>(planes(s));
    p.passes.push_back({"train_pool_avg2_forward",
                        {n, static_cast<std::uint32_t>(s.h), static_cast<std::uint32_t>(s.w)},
                        train_groups_for(pooled_size(s)),
                        {x, y}});
}

void plan_avgpool2_backward(TrainProgram& p, const PoolShape& s, int dy, int dx) {
    if (s.h < 2 || s.w < 2) throw core::InternalError("plan_avgpool2: h and w must be at least 2");
    check_buffer(p, dy, pooled_size(s), "dy");
    check_buffer(p, dx, s.size(), "dx");
    auto n = static_cast<std::uint32_t>(planes(s));
    p.passes.push_back({"train_pool_avg2_backward",
                        {n, static_cast<std::uint32_t>(s.h), static_cast<std::uint32_t>(s.w)},
                        train_groups_for(s.size()),
                        {dy, dx}});
}

void plan_global_avgpool_forward(TrainProgram& p, const PoolShape& s, int x, int y) {
    std::uint64_t n = planes(s);
    check_buffer(p, x, s.size(), "x");
    check_buffer(p, y, n, "y");
    // One workgroup per plane: its H·W values summed in the workgroup.
    p.passes.push_back({"train_pool_global_forward",
                        {static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(s.h * s.w)},
                        train_grid(n),
                        {x, y}});
}

void plan_global_avgpool_backward(TrainProgram& p, const PoolShape& s, int dy, int dx) {
    std::uint64_t n = planes(s);
    check_buffer(p, dy, n, "dy");
    check_buffer(p, dx, s.size(), "dx");
    p.passes.push_back({"train_pool_global_backward",
                        {static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(s.h * s.w)},
                        train_groups_for(s.size()),
                        {dy, dx}});
}

}  // namespace normlab::train
