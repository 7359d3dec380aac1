// "Copy as PyTorch": the module, its arguments, non-default parameters and the mode.
#include <catch2/catch.hpp>

#include "normlab/classroom/experiments.hpp"
#include "normlab/classroom/torch_code.hpp"

using namespace normlab;

namespace {
bool has(const std::string& code, const std::string& part) { return code.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("torch code names the module with PyTorch's arguments", "[torch]") {
    core::State s;
    s.source.kind = core::TensorSource::Kind::Generated;
    s.source.shape = {2, 6, 4, 4};
    s.spec = core::default_spec(core::Method::Group);
    s.spec.groups = 3;
    std::string g = classroom::torch_code(s, s.source.shape);
    CHECK(has(g, "m = nn.GroupNorm(3, 6, affine=True)"));
    CHECK(has(g, "x = torch.randn(2, 6, 4, 4)"));
    CHECK(has(g, "m.train()"));

    s.spec = core::default_spec(core::Method::Batch);
    s.spec.mode = core::Mode::Eval;
    s.spec.momentum.reset();
    s.params.running_mean = {1, 2, 3, 4, 5, 6};
    s.params.num_batches_tracked = 7;
    std::string b = classroom::torch_code(s, s.source.shape);
    CHECK(has(b, "nn.BatchNorm2d(6, momentum=None, affine=True, track_running_stats=True)"));
    CHECK(has(b, "m.running_mean.copy_(torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))"));
    CHECK(has(b, "m.num_batches_tracked.fill_(7)"));
    CHECK(has(b, "m.eval()"));

    s.spec = core::default_spec(core::Method::Layer);
    s.spec.normalized_shape = {4, 4};
    s.spec.eps = 1e-3;
    s.params = {};
    s.selection = core::Index4{1, 2, 3, 0};
    std::string l = classroom::torch_code(s, s.source.shape);
    CHECK(has(l, "nn.LayerNorm([4, 4], eps=0.001, elementwise_affine=True)"));
    CHECK(has(l, "print(y[1, 2, 3, 0])"));
    CHECK(has(l, "x.requires_grad_(True)\ny = m(x)"));
    CHECK(has(l, "dy = torch.zeros_like(y)\ndy[1, 2, 3, 0] = 1.0"));
    CHECK(has(l, "y.backward(dy)\nprint(x.grad)"));
    CHECK(has(l, "print(m.weight.grad)"));
    CHECK(has(l, "print(m.bias.grad)"));

    s.spec = core::default_spec(core::Method::Instance);
    s.selection.reset();
    const std::string in = classroom::torch_code(s, s.source.shape);
    CHECK(has(in, "nn.InstanceNorm2d(6, affine=False)"));
    CHECK(has(in, "dy = torch.ones_like(y)\ny.backward(dy)"));
    CHECK_FALSE(has(in, "m.weight.grad"));
    s.spec = core::default_spec(core::Method::Rms);
    CHECK(has(classroom::torch_code(s, s.source.shape), "nn.RMSNorm([6, 4, 4], elementwise_affine=True)"));
}

TEST_CASE("small presets are written out as literal tensors with their γ and β", "[torch]") {
    const classroom::Experiment* e = classroom::find_experiment("seed004-bn");
    REQUIRE(e);
    std::string code = classroom::torch_code(e->state, core::Shape4{4, 1, 1, 1});
    CHECK(has(code, "x = torch.tensor([1.5, -0.5, 2.0, -1.0]).reshape(4, 1, 1, 1)"));
    CHECK(has(code, "m.weight.copy_(torch.tensor([0.5]))"));
    CHECK(has(code, "m.bias.copy_(torch.tensor([0.200000003]))"));
}

TEST_CASE("torch code of SyncBN on simulated devices computes the state's mode from x.chunk(K)", "[torch][sync]") {
    core::State st;
    st.source.kind = core::TensorSource::Kind::Generated;
    st.source.shape = {4, 3, 2, 2};
    st.spec = core::default_spec(core::Method::Batch);
    st.spec.sync_devices = 2;
    st.spec.sync_mode = core::SyncMode::Naive;
    const std::string naive = classroom::torch_code(st, st.source.shape);
    CHECK(naive.find("x.chunk(2)") != std::string::npos);
    CHECK(naive.find("s.var(dims, unbiased=False)") != std::string::npos);
    CHECK(naive.find("m.weight.view(shape)") != std::string::npos);
    st.spec.sync_mode = core::SyncMode::Local;
    CHECK(classroom::torch_code(st, st.source.shape).find("y = torch.cat([m(s) for s in x.chunk(2)])") !=
          std::string::npos);
    st.spec.sync_devices = 0;
    CHECK(classroom::torch_code(st, st.source.shape).find("chunk") == std::string::npos);
}

TEST_CASE("torch code for a 1-D tensor and for LayerNorm over every dim", "[torch][ranks]") {
    core::State s;
    s.source.kind = core::TensorSource::Kind::Generated;
    s.source.shape = core::Shape4::vec(6);
    s.spec = core::default_spec(core::Method::Layer);
    s.selection = core::Index4{0, 4, 0, 0};
    const std::string v = classroom::torch_code(s, s.source.shape);
    CHECK(has(v, "x = torch.randn(6)"));
    CHECK(has(v, "m = nn.LayerNorm([6]"));
    CHECK(has(v, "print(y[4])"));
    s.source.shape = core::Shape4{2, 3, 4, 5};
    s.spec.normalized_shape = {2, 3, 4, 5};
    s.selection = core::Index4{1, 2, 3, 4};
    const std::string w = classroom::torch_code(s, s.source.shape);
    CHECK(has(w, "m = nn.LayerNorm([2, 3, 4, 5]"));
    CHECK(has(w, "print(y[1, 2, 3, 4])"));
}
