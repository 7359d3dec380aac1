// Backward: the gradients of L = Σ dy ⊙ y on the GPU for the Normalizer's last run, with that
// run's x, statistics (K, mean, var, rstd) and γ/β still on the device (grad.hpp has the
// formulas and the float64 reference). Where the forward fused (a statistic fits one owner, one
// window), grad_fused.comp reads x and dy once and writes ∂L/∂x; where it split them but the
// device has owners enough for one per statistic (or block of them), grad_looped.comp walks
// each statistic twice in one kernel, the second read from the cache; elsewhere, over the forward's
// StatLayout, slabs and chunks: per statistic Σ dy·γ and Σ dy·γ·x̂ (grad_reduce.comp; where a
// chunk has one γ it sums Σ dy and Σ dy·x̂ and grad_merge.comp, adding up the chunks' partials,
// multiplies γ in), then the element-wise ∂L/∂x (grad_apply.comp); BatchNorm
// eval needs only the last. ∂L/∂γ and ∂L/∂β come from partials of those same passes where
// they allow it (chunks with one γ; layer/rms in one window: per-element sums over blocks of
// statistics), else from a reduce + merge over a layout whose groups are the γ/β indices.
#pragma once
#include "normlab/core/grad.hpp"
#include "normlab/gpu/kernel_cache.hpp"
#include "normlab/ops/normalizer.hpp"

namespace normlab::ops {

class Backward {
public:
    explicit Backward(Normalizer& normalizer);

    // The backward of the normalizer's last run. Throws InputError when there was none, or when
    // dy's shape differs from that run's input (the message names both shapes).
    // read_dx = false: ∂L/∂x stays on the device (dx_buffer()), r.dx empty.
    core::GradResult run(const core::Tensor& dy, bool read_dx = true);
    // The path the last run took (normlab/plan/backward_plan.hpp): "eval", "fused", "looped" or
    // "split" ("" before the first).
    const char* last_path() const { return last_path_; }
    const gpu::GpuBuffer& dx_buffer() const { return dx_; }

private:
    struct Passes;  // backward.cpp
    void check(const Normalizer::Prepared& p, const core::Tensor& dy) const;
    void upload(const Passes& passes, const core::Tensor& dy);
    double dispatch(Passes& passes);
    void read_back(const Passes& passes, core::GradResult& r, bool read_dx);

    Normalizer* n_;
    gpu::KernelCache kernels_;
    gpu::GpuBuffer dy_, dx_, stat_partials_, stat_means_, param_partials_, param_sums_;
    const char* last_path_ = "";
};

// Runs the forward of (x, spec, params) without reading y back, then the backward for dy.
core::GradResult run_backward(Normalizer& n, Backward& b, const core::Tensor& x, const core::Tensor& dy,
                              const core::NormSpec& spec, const core::NormParams& params = {});

}  // namespace normlab::ops
