#include "normlab/classroom/lesson_text.hpp"

#include "normlab/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab::classroom {
namespace {

const char* const kMinus = "\u2212";

struct NameInfo {
    const char* name;
    std::size_t indices;  // 0, 1 or 4
    bool integer;
};
constexpr NameInfo kNames[] = {{"mean", 1, false},
                               {"var", 1, false},
                               {"uvar", 1, false},
                               {"rstd", 1, false},
                               {"ms", 1, false},
                               {"rmean", 1, false},
                               {"rvar", 1, false},
                               {"x", 4, false},
                               {"y", 4, false},
                               {"count", 0, true},
                               {"stats", 0, true},
                               // SyncBN (spec.sync_devices): shard k's statistics, each mode's, its y
                               {"shard_mean", 2, false},
                               {"shard_var", 2, false},
                               {"sync_mean", 1, false},
                               {"sync_var", 1, false},
                               {"naive_mean", 1, false},
                               {"naive_var", 1, false},
                               {"y_sync", 4, false},
                               {"y_local", 4, false},
                               {"y_naive", 4, false},
                               {"devices", 0, true},
                               // Switchable Normalization's statistics, derived from InstanceNorm's
                               {"ln_mean", 1, false},
                               {"ln_var", 1, false},
                               {"bn_mean", 1, false},
                               {"bn_var", 1, false},
                               {"sn_mean", 2, false},
                               {"sn_var", 2, false},
                               // the forward's timings (milliseconds)
                               {"gpu_ms", 0, false},
                               {"dispatch_ms", 0, false},
                               // a training run's results (run[i].FIELD, lesson_text.hpp)
                               {"run", 1, false},
                               // a sweep's results (sweep[i].FIELD)
                               {"sweep", 1, false}};

constexpr const char* kRunFields[] = {"steps",      "final_loss", "final_acc", "recent_loss",
                                      "recent_acc", "val_loss",   "val_acc"};
constexpr const char* kRunLayerFields[] = {"std_first", "std_last"};  // run[i,l].FIELD
constexpr const char* kSweepFields[] = {"train_loss", "train_acc", "val_loss", "val_acc", "val_err"};

const NameInfo* find_name(const std::string& n) {
    for (const auto& i : kNames)
        if (n == i.name) return &i;
    return nullptr;
}

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

template <std::size_t N>
std::string list_text(const char* const (&names)[N]) {
    std::string all;
    for (const char* f : names) all += std::string(all.empty() ? "" : ", ") + f;
    return all;
}

std::string run_fields_text() { return list_text(kRunFields) + "; run[i,l]: " + list_text(kRunLayerFields); }

template <std::size_t N>
bool one_of(const std::string& s, const char* const (&names)[N]) {
    return std::find_if(std::begin(names), std::end(names), [&](const char* f) { return s == f; }) != std::end(names);
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool at(const std::vector<double>& v, std::int64_t i, double& out) {
    if (i < 0 || static_cast<std::size_t>(i) >= v.size()) return false;
    out = v[static_cast<std::size_t>(i)];
    return true;
}

// SyncBN's values: none without sync devices.
bool sync_value(const LessonPlaceholder& p, const core::Tensor& x, const core::NormResult& r, double& v) {
    if (!r.sync) return false;
    const core::SyncStats& st = *r.sync;
    const auto& ix = p.index;
    if (p.name == "devices") return v = static_cast<double>(st.devices), true;
    if (p.name == "shard_mean" || p.name == "shard_var") {
        const std::int64_t C = x.shape.c;
        if (ix[0] >= st.devices || ix[1] >= C) return false;
        return at(p.name == "shard_mean" ? st.shard_mean : st.shard_var, ix[0] * C + ix[1], v);
    }
    if (p.name == "sync_mean") return at(st.sync_mean, ix[0], v);
    if (p.name == "sync_var") return at(st.sync_var, ix[0], v);
    if (p.name == "naive_mean") return at(st.naive_mean, ix[0], v);
    if (p.name == "naive_var") return at(st.naive_var, ix[0], v);
    const core::Shape4& s = x.shape;  // y_sync, y_local, y_naive
    if (ix[0] >= s.n || ix[1] >= s.c || ix[2] >= s.h || ix[3] >= s.w) return false;
    const auto off = static_cast<std::size_t>(x.offset(ix[0], ix[1], ix[2], ix[3]));
    const auto& y = p.name == "y_sync" ? st.y_sync : p.name == "y_local" ? st.y_local : st.y_naive;
    if (off >= y.size()) return false;
    v = y[off];
    return true;
}

// Switchable Normalization (Luo et al., 2019) as its implementation computes it: InstanceNorm's
// statistics per (n, c) first, then LayerNorm's per n and BatchNorm's per c from them (the mean of
// the means; the mean of σ² + μ², less the new μ²), and SN's mix of the three with equal weights
// (its importance weights at initialization: softmax of equal logits). Only where the step runs
// InstanceNorm on a batched tensor (statistics [N, C]).
bool switchable_value(const LessonPlaceholder& p, const core::NormResult& r, double& v) {
    if (r.layout.method != core::Method::Instance || r.layout.stat_shape.size() != 2) return false;
    const std::int64_t N = r.layout.stat_shape[0], C = r.layout.stat_shape[1];
    const auto mu = [&](std::int64_t n, std::int64_t c) { return r.mean[static_cast<std::size_t>(n * C + c)]; };
    const auto sq = [&](std::int64_t n, std::int64_t c) {  // E[x²] of (n, c): σ² + μ²
        return r.var[static_cast<std::size_t>(n * C + c)] + mu(n, c) * mu(n, c);
    };
    // LayerNorm's (over c, for sample n) or BatchNorm's (over n, for channel c) μ and σ².
    const auto pooled = [&](bool layer, std::int64_t i, double& m, double& var) {
        double s = 0, s2 = 0;
        const std::int64_t k = layer ? C : N;
        for (std::int64_t j = 0; j < k; ++j) {
            s += layer ? mu(i, j) : mu(j, i);
            s2 += layer ? sq(i, j) : sq(j, i);
        }
        m = s / static_cast<double>(k);
        var = s2 / static_cast<double>(k) - m * m;
    };
    const auto& ix = p.index;
    double m = 0, var = 0;
    if (p.name == "ln_mean" || p.name == "ln_var" || p.name == "bn_mean" || p.name == "bn_var") {
        const bool layer = p.name[0] == 'l';
        if (ix[0] >= (layer ? N : C)) return false;
        pooled(layer, ix[0], m, var);
        v = p.name.ends_with("mean") ? m : var;
        return true;
    }
    if (ix[0] >= N || ix[1] >= C) return false;  // sn_mean, sn_var
    double lm = 0, lv = 0, bm = 0, bv = 0;
    pooled(true, ix[0], lm, lv);
    pooled(false, ix[1], bm, bv);
    const double im = mu(ix[0], ix[1]), iv = sq(ix[0], ix[1]) - im * im;
    v = p.name == "sn_mean" ? (im + lm + bm) / 3.0 : (iv + lv + bv) / 3.0;
    return true;
}

}  // namespace

std::vector<LessonPlaceholder> parse_placeholders(const std::string& t) {
    std::vector<LessonPlaceholder> out;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] != '{' || i + 1 >= t.size() || !is_lower(t[i + 1])) continue;
        const std::size_t close = t.find('}', i);
        const std::string body = close == std::string::npos ? t.substr(i) : t.substr(i, close - i + 1);
        const auto bad = [&](const std::string& why) { throw core::InputError("placeholder " + body + ": " + why); };
        if (close == std::string::npos) bad("no closing '}'");
        LessonPlaceholder p;
        p.begin = i;
        p.end = close + 1;
        std::size_t k = i + 1;
        while (k < close && (is_lower(t[k]) || is_digit(t[k]) || t[k] == '_')) p.name += t[k++];
        const NameInfo* info = find_name(p.name);
        if (!info)
            bad("unknown value '" + p.name +
                "' (mean, var, uvar, rstd, ms, rmean, rvar, x, y, count, stats, "
                "shard_mean, shard_var, sync_mean, sync_var, naive_mean, naive_var, y_sync, y_local, y_naive, "
                "devices, ln_mean, ln_var, bn_mean, bn_var, sn_mean, sn_var, gpu_ms, dispatch_ms, run, sweep)");
        if (k < close && t[k] == '[') {
            ++k;
            while (true) {
                std::size_t d = k;
                while (d < close && is_digit(t[d])) ++d;
                if (d == k || d - k > 9) bad("an index must be a non-negative integer");
                p.index.push_back(std::stoll(t.substr(k, d - k)));
                k = d;
                while (k < close && t[k] == ' ') ++k;
                if (k < close && t[k] == ',') {
                    ++k;
                    while (k < close && t[k] == ' ') ++k;
                    continue;
                }
                if (k < close && t[k] == ']') {
                    ++k;
                    break;
                }
                bad("expected ',' or ']'");
            }
        }
        const bool run_layer = p.name == "run" && p.index.size() == 2;  // run[i,l]
        if (p.index.size() != info->indices && !run_layer)
            bad("'" + p.name + "' takes " + std::to_string(info->indices) + " index(es), not " +
                std::to_string(p.index.size()));
        bool integer = info->integer;
        if (p.name == "run") {
            if (k >= close || t[k] != '.') bad("run[i] takes a field: run[i].val_acc (" + run_fields_text() + ")");
            for (++k; k < close && (is_lower(t[k]) || t[k] == '_');) p.field += t[k++];
            if (run_layer ? !one_of(p.field, kRunLayerFields) : !one_of(p.field, kRunFields))
                bad("unknown " + std::string(run_layer ? "run[i,l]" : "run[i]") + " field '" + p.field + "' (" +
                    run_fields_text() + ")");
            if (run_layer && p.index[1] < 1) bad("run[i,l]'s layer l counts from 1");
            integer = p.field == "steps";
        }
        if (p.name == "sweep") {
            if (k >= close || t[k] != '.')
                bad("sweep[i] takes a field: sweep[i].val_err (" + list_text(kSweepFields) + ")");
            for (++k; k < close && (is_lower(t[k]) || t[k] == '_');) p.field += t[k++];
            if (!one_of(p.field, kSweepFields))
                bad("unknown sweep[i] field '" + p.field + "' (" + list_text(kSweepFields) + ")");
        }
        const bool trained = p.name == "run" || p.name == "sweep";  // may be written as a percentage
        if (k < close) {
            if (integer) bad("'" + p.name + "' is an integer and takes no format");
            const bool percent = trained && close - k == 4 && t[k + 3] == '%';
            if (close - k != 4 || t[k] != ':' || t[k + 1] != '.' || !is_digit(t[k + 2]) || t[k + 2] > '6' ||
                (t[k + 3] != 'f' && !percent))
                bad(trained ? "the format must be :.Df or :.D% with D from 0 to 6"
                            : "the format must be :.Df with D from 0 to 6");
            p.decimals = t[k + 2] - '0';
            p.percent = percent;
        }
        if (integer) p.decimals = 0;
        out.push_back(std::move(p));
        i = close;
    }
    return out;
}

bool placeholder_value(const LessonPlaceholder& p, const core::Tensor& x, const core::NormResult& r, double& v) {
    const auto i0 = p.index.empty() ? std::int64_t{0} : p.index[0];
    if (p.name == "run" || p.name == "sweep") return false;  // a training run's (run_placeholder_value)
    if (p.name == "count") return v = static_cast<double>(r.layout.count()), true;
    if (p.name == "stats") return v = static_cast<double>(r.layout.stat_count), true;
    if (p.name == "mean") return at(r.mean, i0, v);
    if (p.name == "var") return at(r.var, i0, v);
    if (p.name == "rstd") return at(r.rstd, i0, v);
    if (p.name == "ms") {  // RMSNorm's statistic; elsewhere the same mean(x²) of S_i, as σ² + μ²
        if (!r.mean_square.empty()) return at(r.mean_square, i0, v);
        double m = 0, var = 0;
        if (r.stats_from_running || !at(r.mean, i0, m) || !at(r.var, i0, var)) return false;
        return v = var + m * m, true;
    }
    if (p.name == "rmean") return at(r.running_mean, i0, v);
    if (p.name == "rvar") return at(r.running_var, i0, v);
    if (p.name == "gpu_ms") return v = r.gpu_ms, true;
    if (p.name == "dispatch_ms") return v = r.dispatch_ms, true;
    if (p.name.size() > 3 && p.name.compare(2, 1, "_") == 0 &&
        (p.name.starts_with("ln") || p.name.starts_with("bn") || p.name.starts_with("sn")))
        return switchable_value(p, r, v);
    if (p.name.rfind("shard_", 0) == 0 || p.name.rfind("sync_", 0) == 0 || p.name.rfind("naive_", 0) == 0 ||
        p.name.rfind("y_", 0) == 0 || p.name == "devices")
        return sync_value(p, x, r, v);
    if (p.name == "uvar") {
        if (i0 < 0 || static_cast<std::size_t>(i0) >= r.var.size()) return false;
        v = r.unbiased_var(static_cast<std::size_t>(i0));
        return std::isfinite(v);
    }
    // x, y: four indices inside the tensor's shape.
    const core::Shape4& s = x.shape;
    const auto& ix = p.index;
    if (ix[0] >= s.n || ix[1] >= s.c || ix[2] >= s.h || ix[3] >= s.w) return false;
    const auto off = static_cast<std::size_t>(x.offset(ix[0], ix[1], ix[2], ix[3]));
    const core::Tensor& t = p.name == "x" ? x : r.y;
    if (off >= t.data.size()) return false;
    v = t.data[off];
    return true;
}

std::string format_lesson_number(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s[0] != '-') return s;
    s.erase(0, 1);
    if (s.find_first_not_of("0.") == std::string::npos) return s;  // "-0.00" is 0
    return kMinus + s;
}

bool run_finished(const LessonRun& run) { return run.steps > 0 && run.steps_done >= run.steps && !run.loss.empty(); }

double recent_mean(const std::vector<float>& s) {
    if (s.empty()) return 0.0;
    const std::size_t n = std::max<std::size_t>(1, s.size() / 10);
    double sum = 0;
    for (std::size_t i = s.size() - n; i < s.size(); ++i) sum += s[i];
    return sum / static_cast<double>(n);
}

bool run_placeholder_value(const LessonPlaceholder& p, const std::vector<LessonRun>& runs, double& v) {
    if (p.name != "run" || p.index.empty() || p.index[0] >= static_cast<std::int64_t>(runs.size())) return false;
    const LessonRun& run = runs[static_cast<std::size_t>(p.index[0])];
    if (!run_finished(run)) return false;
    if (p.index.size() == 2) {  // run[i,l]: hidden layer l's input, where the view read it
        if (p.index[1] < 1 || p.index[1] > static_cast<std::int64_t>(run.layers.size())) return false;
        const LessonLayer& l = run.layers[static_cast<std::size_t>(p.index[1] - 1)];
        return v = p.field == "std_first" ? l.std_first : l.std_last, true;
    }
    if (p.field == "steps") return v = run.steps_done, true;
    if (p.field == "final_loss") return v = run.loss.back(), true;
    if (p.field == "final_acc") return v = run.acc.back(), true;
    if (p.field == "recent_loss") return v = recent_mean(run.loss), true;
    if (p.field == "recent_acc") return v = recent_mean(run.acc), true;
    const auto& s = p.field == "val_loss" ? run.val_loss : run.val_acc;
    if (s.empty()) return false;
    return v = s.back(), true;
}

bool sweep_finished(const LessonSweep& s) { return s.runs > 0 && s.results.size() >= s.runs; }

bool sweep_placeholder_value(const LessonPlaceholder& p, const LessonSweep& sweep, double& v) {
    if (p.name != "sweep" || p.index.empty() || !sweep_finished(sweep) ||
        p.index[0] >= static_cast<std::int64_t>(sweep.results.size()))
        return false;
    const train::SweepResult& r = sweep.results[static_cast<std::size_t>(p.index[0])];
    if (p.field == "train_loss") return v = r.train_loss, true;
    if (p.field == "train_acc") return v = r.train_acc, true;
    if (p.field == "val_loss") return v = r.val_loss, true;
    if (p.field == "val_acc") return v = r.val_acc, true;
    return v = 1.0 - static_cast<double>(r.val_acc), true;  // val_err
}

std::string format_placeholder(const LessonPlaceholder& p, double v) {
    return p.percent ? format_lesson_number(100 * v, p.decimals) + "%" : format_lesson_number(v, p.decimals);
}

void check_run_placeholders(const std::string& text, std::size_t runs, std::size_t sweep_runs,
                            const std::string& where) {
    for (const auto& p : parse_placeholders(text)) {
        if (p.name == "run" && p.index[0] >= static_cast<std::int64_t>(runs))
            throw core::InputError(where + ": run[" + std::to_string(p.index[0]) +
                                   "] names a run its view.train does not have (it has " + std::to_string(runs) + ")");
        if (p.name == "sweep" && p.index[0] >= static_cast<std::int64_t>(sweep_runs))
            throw core::InputError(
                where + ": sweep[" + std::to_string(p.index[0]) + "] names a run " +
                (sweep_runs ? "its view.train.sweep does not have (its grid has " + std::to_string(sweep_runs) + ")"
                            : "of a sweep, and its view.train has no sweep"));
    }
}

bool runs_pending(const std::string& text, const std::vector<LessonRun>& runs) {
    try {
        for (const auto& p : parse_placeholders(text))
            if (p.name == "run" && p.index[0] < static_cast<std::int64_t>(runs.size()) &&
                !run_finished(runs[static_cast<std::size_t>(p.index[0])]))
                return true;
    } catch (const core::InputError&) {}
    return false;
}

bool sweep_pending(const std::string& text, const LessonSweep& sweep) {
    try {
        for (const auto& p : parse_placeholders(text))
            if (p.name == "sweep" && !sweep_finished(sweep)) return true;
    } catch (const core::InputError&) {}
    return false;
}

std::string render_lesson_text(const std::string& text, const core::Tensor& x, const core::NormResult& r,
                               const std::vector<LessonRun>& runs, const LessonSweep& sweep) {
    std::vector<LessonPlaceholder> ps;
    try {
        ps = parse_placeholders(text);
    } catch (const core::InputError&) {
        return text;  // checked when the lesson was read; shown as written
    }
    std::string out;
    std::size_t pos = 0;
    for (const auto& p : ps) {
        out += text.substr(pos, p.begin - pos);
        double v = 0;
        if (p.name == "run") {
            const bool finished = p.index[0] < static_cast<std::int64_t>(runs.size()) &&
                                  run_finished(runs[static_cast<std::size_t>(p.index[0])]);
            // "…" until the run has run all its steps; "?" for a value a finished run does not have.
            out += run_placeholder_value(p, runs, v) ? format_placeholder(p, v) : finished ? "?" : "\u2026";
        } else if (p.name == "sweep") {  // "…" until every run of the sweep finished
            out += sweep_placeholder_value(p, sweep, v) ? format_placeholder(p, v) : "\u2026";
        } else {
            out += placeholder_value(p, x, r, v) ? format_placeholder(p, v) : "?";
        }
        pos = p.end;
    }
    return out + text.substr(pos);
}

std::vector<std::string> literal_numbers(const std::string& text, const std::vector<std::string>& skip) {
    std::string t;
    std::size_t pos = 0;
    for (const auto& p : parse_placeholders(text)) {
        t += text.substr(pos, p.begin - pos) + " ";
        pos = p.end;
    }
    t += text.substr(pos);
    // An entry that is one number skips that number; any other entry is removed as text.
    std::vector<std::string> skip_numbers;
    for (const auto& s : skip) {
        const auto nums = literal_numbers(s);
        if (nums.size() == 1 && (s == nums[0] || (nums[0][0] == '-' && s == kMinus + nums[0].substr(1)))) {
            skip_numbers.push_back(nums[0]);
            continue;
        }
        for (std::size_t f = t.find(s); f != std::string::npos; f = t.find(s, f + 1))
            t = t.substr(0, f) + " " + t.substr(f + s.size());
    }
    std::vector<std::string> out;
    const std::string minus = kMinus;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (!is_digit(t[i])) continue;
        const char prev = i ? t[i - 1] : ' ';
        const bool in_word = is_lower(prev) || (prev >= 'A' && prev <= 'Z') || prev == '_' || prev == '.';
        std::size_t e = i;
        while (e < t.size() && is_digit(t[e])) ++e;
        if (e + 1 < t.size() && t[e] == '.' && is_digit(t[e + 1]))
            for (++e; e < t.size() && is_digit(t[e]);) ++e;
        if (!in_word) {
            std::string num = t.substr(i, e - i);
            if (i >= 1 && t[i - 1] == '-')
                num = "-" + num;
            else if (i >= minus.size() && t.compare(i - minus.size(), minus.size(), minus) == 0)
                num = "-" + num;
            if (std::find(skip_numbers.begin(), skip_numbers.end(), num) == skip_numbers.end()) out.push_back(num);
        }
        i = e;
    }
    return out;
}

}  // namespace normlab::classroom
