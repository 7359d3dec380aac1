// BatchNoisePanel: in an experiment that normalizes the first k samples beside the whole batch,
// a button measures on the GPU how BatchNorm's batch statistics scatter as N shrinks (N = the
// experiment's whole batch, halved down to 2), over many batches drawn from N(0, 1) with the tensor's C and
// L = H·W, and shows the measured spread beside 1/√(N·L).
#pragma once
#include "normlab/session.hpp"

#include "normlab/batch_noise.hpp"
#include "normlab/experiments.hpp"

#include <memory>
#include <string>
#include <vector>

namespace normlab::app {

class BatchNoisePanel {
public:
    explicit BatchNoisePanel(const VulkanContext& ctx) : ctx_(&ctx) {}
    static bool applies(const Experiment& e, const Session& s);
    void draw(Session& session, const Experiment& e);

private:
    const VulkanContext* ctx_;
    std::unique_ptr<Normalizer> normalizer_;  // its own buffers: the session's x and y stay as shown
    std::vector<BatchNoiseRow> rows_;
    std::string measured_for_;  // the experiment the rows belong to
    std::string error_;
};

}  // namespace normlab::app
