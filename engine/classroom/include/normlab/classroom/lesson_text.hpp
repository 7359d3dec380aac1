// Lesson text with numbers bound to the engine's result: a placeholder such as {mean[1]:.2f}
// is replaced, when a step is shown, by that value of the current NormResult, rounded (printf
// rounding to nearest, never truncation) and written with a true minus sign (−).
//
// Syntax: '{' NAME [ '[' i (',' i)* ']' ] [ ':.' D 'f' ] '}', D in 0..6, default 2.
//   mean[s] var[s] uvar[s] rstd[s] ms[s]  statistic s: μ, biased σ², unbiased σ², 1/√(σ²+ε), mean(x²)
//                                         (RMSNorm's statistic; under the others σ² + μ² of the same
//                                         elements, none where BatchNorm uses running statistics)
//   rmean[c] rvar[c]                      BatchNorm's running mean / variance of channel c (as used
//                                         in eval, or after this forward's update in train)
//   x[n,c,h,w] y[n,c,h,w]                 input / output element
//   count stats                           elements per statistic / number of statistics (integers)
//   shard_mean[k,c] shard_var[k,c]        SyncBN (sync devices): device k's μ / biased σ² of channel c
//   sync_mean[c] sync_var[c]              SyncBN: the exact all-reduce (BatchNorm over the whole batch)
//   naive_mean[c] naive_var[c]            SyncBN: the mean of the shard means / of the shard variances
//   y_sync[n,c,h,w] y_local[…] y_naive[…] SyncBN: y under each mode; devices: K (an integer)
//   ln_mean[n] ln_var[n] bn_mean[c] bn_var[c] Switchable Normalization, under InstanceNorm only:
//   sn_mean[n,c] sn_var[n,c]              LayerNorm's and BatchNorm's μ, σ² derived from the
//                                         InstanceNorm statistics, and SN's equal-weight mix
//   gpu_ms dispatch_ms                    this forward's GPU time (timestamps; 0 without them, as
//                                         in the browser) and its dispatch wall time, in ms
//   run[i].FIELD                          training run i of the step's Train view (view.train), once
//                                         it has run all its steps ("…" until then): steps (an
//                                         integer), final_loss, final_acc (the last batch's),
//                                         recent_loss, recent_acc (the batch's mean over the last tenth
//                                         of the steps), val_loss, val_acc (the last evaluation's);
//                                         its format may also be ':.D%' (×100, with "%": {run[1].val_acc:.1%})
//   run[i,l].FIELD                        hidden layer l (1-based) of run i: the standard deviation over the
//                                         batch of its norm's input (the Train view's strips) at the first
//                                         strip column (std_first: after ⌈steps / 100⌉ steps) and at the
//                                         last step (std_last); "?" where the run has no such layer's strip
//   sweep[i].FIELD                        run i of the step's sweep (view.train.sweep), i its index in the
//                                         grid's order (the summary CSV's rows: the first axis slowest),
//                                         once every run of the sweep finished ("…" until then): the CSV's
//                                         train_loss, train_acc, val_loss, val_acc (after the last step)
//                                         and val_err (1 − val_acc, the figure's); ':.D%' as run[i]'s
// A '{' followed by a lower-case letter always starts a placeholder; any other '{' is text.
#pragma once
#include "normlab/core/norm_params.hpp"
#include "normlab/core/tensor.hpp"
#include "normlab/train/sweep_summary.hpp"

#include <string>
#include <vector>

namespace normlab::classroom {

struct LessonPlaceholder {
    std::size_t begin = 0, end = 0;  // byte range in the text, braces included
    std::string name;
    std::vector<std::int64_t> index;
    int decimals = 2;
    std::string field;     // run[i]'s or sweep[i]'s field
    bool percent = false;  // ':.D%'
};

// A hidden layer's norm input over the batch, at the first strip column and at the last step.
struct LessonLayer {
    double std_first = 0, std_last = 0;
};

// A training run as a lesson's text reads it: its steps and its logs (the batch's loss and accuracy
// per step run; the validation set's at the evaluated steps), and its hidden layers' inputs where the
// Train view read them (empty otherwise: run[i,l] shows "?").
struct LessonRun {
    int steps = 0;       // the run's T
    int steps_done = 0;  // run so far
    std::vector<float> loss, acc, val_loss, val_acc;
    std::vector<LessonLayer> layers;
};

// A sweep as a lesson's text reads it: the grid's runs (0: none) and the finished runs' results in the
// grid's order (sweep_summary.hpp); its numbers show "…" until every run finished.
struct LessonSweep {
    std::size_t runs = 0;
    std::vector<train::SweepResult> results;
};

// The placeholders of `text`; throws InputError("<what is wrong>") on a malformed one.
std::vector<LessonPlaceholder> parse_placeholders(const std::string& text);
inline void check_lesson_text(const std::string& text) { (void)parse_placeholders(text); }

// The value a placeholder names in (x, r); false when the index lies outside (or the value does
// not exist for this method, e.g. rmean without running statistics).
bool placeholder_value(const LessonPlaceholder& p, const core::Tensor& x, const core::NormResult& r, double& value);

// v rounded to `decimals` places, "−" for negatives, no "−0.00".
std::string format_lesson_number(double v, int decimals);

// The mean of a run's per-step log over its last tenth of steps (at least one): run[i].recent_*.
double recent_mean(const std::vector<float>& log);
// Run i's value of a run[i].FIELD placeholder; false while the run has not run all its steps, or
// where there is no run i.
bool run_placeholder_value(const LessonPlaceholder& p, const std::vector<LessonRun>& runs, double& value);
// Sweep run i's value of a sweep[i].FIELD placeholder; false until every run of the sweep finished.
bool sweep_placeholder_value(const LessonPlaceholder& p, const LessonSweep& sweep, double& value);
// Throws InputError("<where>: run[i] names a run its view.train does not have …") when a run[i]
// placeholder of `text` names no run of a Train view with `runs` runs (0: no view.train), and the same
// for a sweep[i] beyond a sweep of `sweep_runs` runs (0: no view.train.sweep).
void check_run_placeholders(const std::string& text, std::size_t runs, std::size_t sweep_runs,
                            const std::string& where);
// Whether `text` names a run that has not finished yet (its numbers show "…").
bool runs_pending(const std::string& text, const std::vector<LessonRun>& runs);
// Whether `text` names a sweep run and the sweep has not finished (its numbers show "…").
bool sweep_pending(const std::string& text, const LessonSweep& sweep);

// The text with every placeholder replaced by its value ("?" where it has none; a run's "…" until it
// has run all its steps; a sweep's until the sweep finished).
std::string render_lesson_text(const std::string& text, const core::Tensor& x, const core::NormResult& r,
                               const std::vector<LessonRun>& runs = {}, const LessonSweep& sweep = {});

// Numbers stated literally in `text`, placeholders left out: signed decimals such as "1.5",
// "−0.73", "64" (returned with "-" for "−" and "-"), not counting digits that are part of a word
// ("BatchNorm2d"). An entry of `skip` that is one number ("4", "−1") leaves that number out; any
// other entry ("§7.4.5", "2×2") is removed from the text first.
std::vector<std::string> literal_numbers(const std::string& text, const std::vector<std::string>& skip = {});

}  // namespace normlab::classroom
