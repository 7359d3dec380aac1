// The mlp's float64 training step (train_reference.hpp).
#include "normlab/train/train_reference.hpp"

#include "normlab/core/error.hpp"
#include "normlab/train/train_norm_layout.hpp"
#include "normlab/train/train_plan.hpp"

#include <algorithm>
#include <cmath>

namespace normlab {

namespace {

using Vec = std::vector<double>;

double act(TrainActivation a, double v) {
    if (a == TrainActivation::Relu) return v > 0 ? v : 0;
    if (a == TrainActivation::Tanh) return std::tanh(v);
    return 1 / (1 + std::exp(-v));
}

// f'(·) from the activation's output y.
double act_grad(TrainActivation a, double y) {
    if (a == TrainActivation::Relu) return y > 0 ? 1 : 0;
    if (a == TrainActivation::Tanh) return 1 - y * y;
    return y * (1 - y);
}

// Y = X·Wᵀ + b for n samples of `in` features.
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

struct NormOut {
    Vec y, xhat, rstd;
};

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

// dX, and dγ, dβ accumulated into dgamma, dbeta (dbeta may be null).
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

}  // namespace

struct MlpReference::Activations {
    std::vector<Vec> in, normed_in, act_out;  // per layer: its input, the norm's input, the act's output
    std::vector<NormOut> norm;
    Vec last;
};

MlpReference::MlpReference(const TrainConfig& c, const std::vector<TrainTensor>& init) : c_(c) {
    for (const auto& t : init) {
        t_[t.name] = Vec(t.values.begin(), t.values.end());
        if (t.trained) {
            trained_.push_back(t.name);
            t_["grad." + t.name] = Vec(t.values.size());
            for (const char* s : {".momentum_buffer", ".exp_avg", ".exp_avg_sq"}) t_[t.name + s] = Vec(t.values.size());
        }
    }
}

const std::vector<double>& MlpReference::tensor(const std::string& name) const {
    const auto it = t_.find(name);
    if (it == t_.end()) throw InternalError("reference has no tensor " + name);
    return it->second;
}

TrainScore MlpReference::forward(const Vec& x, const std::vector<std::int32_t>& y, int n, bool train, Activations* keep,
                                 Vec* dlogits) {
    const int w = c_.width, k = c_.classes;
    const bool normed = c_.norm != TrainNorm::None;
    const auto lay = normed ? train_norm_layout(c_.norm, n, w, 1, c_.groups) : TrainNormLayout{};
    Vec h = x;
    for (int i = 0; i < c_.depth; ++i) {
        const std::string q = "layers." + std::to_string(i) + ".";
        if (keep) keep->in.push_back(h);
        Vec z = linear(h, t_[q + "linear.weight"], t_[q + "linear.bias"], n, mlp_in_features(c_, i), w);
        auto do_norm = [&](const Vec& v) {
            if (keep) keep->normed_in.push_back(v);
            auto f = norm_forward(lay, c_.norm, v, &t_[q + "norm.weight"],
                                  norm_has_bias(c_.norm) ? &t_[q + "norm.bias"] : nullptr,
                                  norm_has_running(c_.norm) ? &t_[q + "norm.running_mean"] : nullptr,
                                  norm_has_running(c_.norm) ? &t_[q + "norm.running_var"] : nullptr, train);
            Vec out = f.y;
            if (keep) keep->norm.push_back(std::move(f));
            return out;
        };
        if (normed && !c_.norm_after) z = do_norm(z);
        for (auto& v : z) v = act(c_.activation, v);
        if (keep) keep->act_out.push_back(z);
        if (normed && c_.norm_after) z = do_norm(z);
        h = std::move(z);
    }
    if (keep) keep->last = h;
    const Vec logits = linear(h, t_["head.weight"], t_["head.bias"], n, w, k);
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

void MlpReference::backward(const Activations& a, const Vec& dlogits, int n) {
    const int w = c_.width, k = c_.classes;
    const bool normed = c_.norm != TrainNorm::None;
    const auto lay = normed ? train_norm_layout(c_.norm, n, w, 1, c_.groups) : TrainNormLayout{};
    for (const auto& name : trained_) std::fill(t_["grad." + name].begin(), t_["grad." + name].end(), 0.0);
    // dW = dYᵀ·X, db = Σ dY, dX = dY·W for one Linear.
    auto linear_back = [&](const std::string& p, const Vec& x, const Vec& dy, int in, int out, bool want_dx) {
        Vec& dw = t_["grad." + p + ".weight"];
        Vec& db = t_["grad." + p + ".bias"];
        const Vec& wt = t_[p + ".weight"];
        Vec dx(want_dx ? static_cast<std::size_t>(n) * in : 0);
        for (int i = 0; i < n; ++i)
            for (int o = 0; o < out; ++o) {
                const double g = dy[i * out + o];
                db[o] += g;
                for (int j = 0; j < in; ++j) {
                    dw[o * in + j] += g * x[i * in + j];
                    if (want_dx) dx[i * in + j] += g * wt[o * in + j];
                }
            }
        return dx;
    };
    Vec dy = linear_back("head", a.last, dlogits, w, k, true);
    for (int i = c_.depth - 1; i >= 0; --i) {
        const std::string q = "layers." + std::to_string(i) + ".";
        auto back_norm = [&](const Vec& g) {
            return norm_backward(lay, c_.norm, a.norm[i], g, t_[q + "norm.weight"], t_["grad." + q + "norm.weight"],
                                 norm_has_bias(c_.norm) ? &t_["grad." + q + "norm.bias"] : nullptr);
        };
        auto back_act = [&](Vec g) {
            for (std::size_t e = 0; e < g.size(); ++e) g[e] *= act_grad(c_.activation, a.act_out[i][e]);
            return g;
        };
        if (normed && c_.norm_after)
            dy = back_act(back_norm(dy));
        else if (normed)
            dy = back_norm(back_act(dy));
        else
            dy = back_act(dy);
        dy = linear_back(q + "linear", a.in[i], dy, mlp_in_features(c_, i), w, i > 0);
    }
}

std::vector<bool> MlpReference::noise_bound(const std::string& name) const {
    const auto it = noise_.find(name);
    if (it != noise_.end()) return it->second;
    const auto pos = name.find(".norm.running_mean");
    if (pos == std::string::npos) return {};
    return noise_bound(name.substr(0, pos) + ".linear.bias");
}

void MlpReference::update() {
    const double t = steps_ + 1;
    for (const auto& name : trained_) {
        Vec& p = t_[name];
        const Vec& g = t_["grad." + name];
        if (c_.optimizer == TrainOptimizer::Adam) {
            double largest = 0;
            for (double v : g) largest = std::max(largest, std::abs(v));
            auto& flags = noise_[name];
            flags.resize(g.size(), false);
            for (std::size_t e = 0; e < g.size(); ++e)
                if (std::abs(g[e]) < 1e-5 * largest) flags[e] = true;
        }
        if (c_.optimizer == TrainOptimizer::Sgd) {
            Vec& b = t_[name + ".momentum_buffer"];
            for (std::size_t e = 0; e < p.size(); ++e) {
                b[e] = c_.momentum * b[e] + g[e];
                p[e] -= c_.lr * b[e];
            }
            continue;
        }
        Vec& m = t_[name + ".exp_avg"];
        Vec& v = t_[name + ".exp_avg_sq"];
        const double bc1 = 1 - std::pow(kAdamBeta1, t), bc2 = 1 - std::pow(kAdamBeta2, t);
        for (std::size_t e = 0; e < p.size(); ++e) {
            m[e] = kAdamBeta1 * m[e] + (1 - kAdamBeta1) * g[e];
            v[e] = kAdamBeta2 * v[e] + (1 - kAdamBeta2) * g[e] * g[e];
            p[e] -= (c_.lr / bc1) * m[e] / (std::sqrt(v[e]) / std::sqrt(bc2) + kAdamEps);
        }
    }
}

TrainScore MlpReference::step(const TrainDataSet& data, const std::vector<std::int32_t>& batch) {
    const int n = static_cast<int>(batch.size()), f = data.features;
    Vec x(static_cast<std::size_t>(n) * f);
    std::vector<std::int32_t> y(n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < f; ++j) x[i * f + j] = data.x[batch[i] * f + j];
        y[i] = data.y[batch[i]];
    }
    Activations a;
    Vec dlogits;
    const TrainScore s = forward(x, y, n, true, &a, &dlogits);
    backward(a, dlogits, n);
    update();
    ++steps_;
    return s;
}

TrainScore MlpReference::evaluate(const TrainDataSet& data) const {
    auto& self = const_cast<MlpReference&>(*this);  // eval mode leaves every tensor as it is
    return self.forward(Vec(data.x.begin(), data.x.end()), data.y, data.samples(), false, nullptr, nullptr);
}

}  // namespace normlab
