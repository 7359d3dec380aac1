// The float64 references' shared ops (train_reference.cpp for the mlp, cnn_reference.cpp for the cnn): the
// activations, the five norms over a TrainNormLayout (forward with BatchNorm's running statistics, backward
// with ∂γ, ∂β), Linear forward and backward, softmax cross-entropy mean and a batch's gathering. Private to
// engine/train.
#pragma once
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_data.hpp"
#include "normlab/train/train_norm_layout.hpp"
#include "normlab/train/reference_state.hpp"
#include "normlab/train/train_reference.hpp"

#include <cstdint>
#include <vector>

namespace normlab::train::reference {

using Vec = std::vector<double>;

double act(TrainActivation a, double v);
// f'(·) from the activation's output y.
double act_grad(TrainActivation a, double y);

struct NormOut {
    Vec y, xhat, rstd;
};

// The norm over l's sets; γ per l.channel, β (may be null), BatchNorm's running mean and variance updated in
// training (momentum 0.1, unbiased variance) and used in eval.
NormOut norm_forward(const TrainNormLayout& l, TrainNorm norm, const Vec& x, const Vec* gamma, const Vec* beta,
                     Vec* rmean, Vec* rvar, bool train);
// dX, and dγ, dβ accumulated into dgamma, dbeta (dbeta may be null).
Vec norm_backward(const TrainNormLayout& l, TrainNorm norm, const NormOut& f, const Vec& dy, const Vec& gamma,
                  Vec& dgamma, Vec* dbeta);

// Back through layer `q`'s norm (layout l, its forward f) and activation (its output act_out) in c's order:
// Norm → Act, or Act → Norm with c.norm_after, the activation alone without a norm; ∂γ, ∂β accumulated
// into t's "grad." + q + "norm.*".
Vec norm_act_backward(const TrainConfig& c, const TrainNormLayout& l, const NormOut& f, const Vec& act_out, Vec dy,
                      ReferenceState& t, const std::string& q);

// Y = X·Wᵀ + b for n samples of `in` features.
Vec linear(const Vec& x, const Vec& w, const Vec& b, int n, int in, int out);
// dW = dYᵀ·X and db = Σ dY accumulated into dw, db; returns dX = dY·W (empty unless want_dx).
Vec linear_backward(const Vec& x, const Vec& w, const Vec& dy, int n, int in, int out, Vec& dw, Vec& db, bool want_dx);

// The mean cross-entropy of n rows of k logits against y and the accuracy of their argmax; dlogits (may be
// null) gets the loss's gradient.
TrainScore softmax_cross_entropy(const Vec& logits, const std::vector<std::int32_t>& y, int n, int k, Vec* dlogits);

// The samples `batch` of `data`: x (batch × features) and y.
void gather(const TrainDataSet& data, const std::vector<std::int32_t>& batch, Vec& x, std::vector<std::int32_t>& y);

}  // namespace normlab::train::reference
