// The float64 references' shared ops (train_reference_ops.hpp).
#include "train_reference_ops.hpp"

#include "normlab/train/train_plan.hpp"

#include <algorithm>
#include <cmath>

namespace normlab::train::reference {

double act(TrainActivation a, double v) {
    if (a == TrainActivation::Relu) return v > 0 ? v : 0;
    if (a == TrainActivation::Tanh) return std::tanh(v);
    return 1 / (1 + std::exp(-v));
}

double act_grad(TrainActivation a, double y) {
    if (a == TrainActivation::Relu) return y > 0 ? 1 : 0;
    if (a == TrainActivation::Tanh) return 1 - y * y;
    return y * (1 - y);
}

NormOut norm_forward(const TrainNormLayout& l, TrainNorm norm, const Vec& x, const Vec* gamma, const Vec* beta,
                     Vec* rmean, Vec* rvar, bool train) {
    NormOut o{Vec(x.size()), Vec(x.size()), Vec(l.sets)};
    const double eps = train_norm_eps(norm), m_count = l.members;
    for (std::uint32_t s = 0; s < l.sets; ++s) {
        double mean = 0, var = 0;
        if (norm != TrainNorm::Rms) {
            for (std::uint32_t m = 0; m < l.members; ++m) mean += x[l.address(s, m)];
            mean /= m_count;
        }
        for (std::uint32_t m = 0; m < l.members; ++m) var += std::pow(x[l.address(s, m)] - mean, 2);
        var /= m_count;
        if (norm == TrainNorm::Batch && !train) {
            mean = (*rmean)[s];
            var = (*rvar)[s];
        } else if (norm == TrainNorm::Batch) {
            (*rmean)[s] = (1 - kTrainBnMomentum) * (*rmean)[s] + kTrainBnMomentum * mean;
            (*rvar)[s] =
                (1 - kTrainBnMomentum) * (*rvar)[s] + kTrainBnMomentum * var * m_count / std::max(1.0, m_count - 1);
        }
        o.rstd[s] = 1 / std::sqrt(var + eps);
        for (std::uint32_t m = 0; m < l.members; ++m) {
            const auto a = l.address(s, m);
            const auto c = l.channel(a);
            o.xhat[a] = (x[a] - mean) * o.rstd[s];
            o.y[a] = o.xhat[a] * (*gamma)[c] + (beta ? (*beta)[c] : 0.0);
        }
    }
    return o;
}

Vec norm_backward(const TrainNormLayout& l, TrainNorm norm, const NormOut& f, const Vec& dy, const Vec& gamma,
                  Vec& dgamma, Vec* dbeta) {
    Vec dx(dy.size());
    for (std::uint32_t s = 0; s < l.sets; ++s) {
        double sg = 0, sgx = 0;
        for (std::uint32_t m = 0; m < l.members; ++m) {
            const auto a = l.address(s, m);
            const double g = dy[a] * gamma[l.channel(a)];
            sg += g;
            sgx += g * f.xhat[a];
        }
        const double mg = norm == TrainNorm::Rms ? 0 : sg / l.members, mgx = sgx / l.members;
        for (std::uint32_t m = 0; m < l.members; ++m) {
            const auto a = l.address(s, m);
            const auto c = l.channel(a);
            dx[a] = f.rstd[s] * (dy[a] * gamma[c] - mg - f.xhat[a] * mgx);
            dgamma[c] += dy[a] * f.xhat[a];
            if (dbeta) (*dbeta)[c] += dy[a];
        }
    }
    return dx;
}

Vec norm_act_backward(const TrainConfig& c, const TrainNormLayout& l, const NormOut& f, const Vec& act_out, Vec dy,
                      ReferenceState& t, const std::string& q) {
    auto back_norm = [&](const Vec& g) {
        return norm_backward(l, c.norm, f, g, t[q + "norm.weight"], t["grad." + q + "norm.weight"],
                             norm_has_bias(c.norm) ? &t["grad." + q + "norm.bias"] : nullptr);
    };
    auto back_act = [&](Vec g) {
        for (std::size_t e = 0; e < g.size(); ++e) g[e] *= act_grad(c.activation, act_out[e]);
        return g;
    };
    if (c.norm == TrainNorm::None) return back_act(std::move(dy));
    return c.norm_after ? back_act(back_norm(dy)) : back_norm(back_act(std::move(dy)));
}

Vec linear(const Vec& x, const Vec& w, const Vec& b, int n, int in, int out) {
    Vec y(static_cast<std::size_t>(n) * out);
    for (int i = 0; i < n; ++i)
        for (int o = 0; o < out; ++o) {
            double acc = b[o];
            for (int k = 0; k < in; ++k) acc += x[i * in + k] * w[o * in + k];
            y[i * out + o] = acc;
        }
    return y;
}

Vec linear_backward(const Vec& x, const Vec& w, const Vec& dy, int n, int in, int out, Vec& dw, Vec& db, bool want_dx) {
    Vec dx(want_dx ? static_cast<std::size_t>(n) * in : 0);
    for (int i = 0; i < n; ++i)
        for (int o = 0; o < out; ++o) {
            const double g = dy[i * out + o];
            db[o] += g;
            for (int j = 0; j < in; ++j) {
                dw[o * in + j] += g * x[i * in + j];
                if (want_dx) dx[i * in + j] += g * w[o * in + j];
            }
        }
    return dx;
}

TrainScore softmax_cross_entropy(const Vec& logits, const std::vector<std::int32_t>& y, int n, int k, Vec* dlogits) {
    TrainScore s;
    if (dlogits) dlogits->assign(logits.size(), 0.0);
    for (int i = 0; i < n; ++i) {
        const double* l = &logits[i * k];
        const int arg = static_cast<int>(std::max_element(l, l + k) - l);
        double sum = 0;
        for (int j = 0; j < k; ++j) sum += std::exp(l[j] - l[arg]);
        s.loss += std::log(sum) + l[arg] - l[y[i]];
        s.accuracy += arg == y[i] ? 1 : 0;
        if (dlogits)
            for (int j = 0; j < k; ++j) (*dlogits)[i * k + j] = (std::exp(l[j] - l[arg]) / sum - (j == y[i])) / n;
    }
    s.loss /= n;
    s.accuracy /= n;
    return s;
}

void gather(const TrainDataSet& data, const std::vector<std::int32_t>& batch, Vec& x, std::vector<std::int32_t>& y) {
    const int n = static_cast<int>(batch.size()), f = data.features;
    x.assign(static_cast<std::size_t>(n) * f, 0.0);
    y.assign(n, 0);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < f; ++j)
            x[static_cast<std::size_t>(i) * f + j] = data.x[static_cast<std::size_t>(batch[i]) * f + j];
        y[i] = data.y[batch[i]];
    }
}

}  // namespace normlab::train::reference
