// BatchNoisePanel: in an experiment that normalizes the first k samples beside the whole batch,
// a button measures on the session's device (Vulkan on the desktop, WebGPU in the browser) how BatchNorm's batch
// statistics scatter as N shrinks (N = the experiment's whole batch, halved down to 2), over many batches drawn from
// N(0, 1) with the tensor's C and L = H·W, and shows the measured spread beside 1/√(N·L).
#pragma once
#include "normlab/session/session.hpp"

#include "normlab/plan/batch_noise.hpp"
#include "normlab/classroom/experiments.hpp"

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace normlab::views {

class BatchNoisePanel {
public:
    // `make_backend`: a backend of the session's device with buffers of its own (made at the first
    // measurement), so the session's x and y stay as shown.
    explicit BatchNoisePanel(std::function<std::unique_ptr<plan::ComputeBackend>()> make_backend)
        : make_backend_(std::move(make_backend)) {}
    static bool applies(const classroom::Experiment& e, const session::Session& s);
    void draw(session::Session& session, const classroom::Experiment& e);
    // The last measurement's rows (one per N), its error line, and where the button was last drawn.
    const std::vector<plan::BatchNoiseRow>& rows() const { return rows_; }
    const std::string& error() const { return error_; }
    std::array<float, 2> button_at() const { return button_at_; }

private:
    std::function<std::unique_ptr<plan::ComputeBackend>()> make_backend_;
    std::unique_ptr<plan::ComputeBackend> backend_;
    std::vector<plan::BatchNoiseRow> rows_;
    std::string measured_for_;  // the experiment the rows belong to
    std::string error_;
    std::array<float, 2> button_at_{-1, -1};
};

}  // namespace normlab::views
