#include "session_test.hpp"

#include "backend_checks.hpp"
#include "generated_state.hpp"
#include "kernel_test.hpp"

#include "normlab/core/reference.hpp"
#include "normlab/session/session.hpp"
#include "normlab/session/shown_values.hpp"
#include "normlab/core/state_edits.hpp"
#include "normlab/core/tensor_init.hpp"

#include <sstream>
#include <vector>

namespace normlab::web {
namespace {

using webgpu::WgpuBackend;

std::string g(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

void x_stays(WgpuBackend& b, BackendChecks& t) {
    t.start("x stays on the device when the method, G or eps change");
    Session s(b);
    const State st = with_groups(test::generated_state(Method::Group, {3, 8, 6, 5}), 2);
    t.expect(!s.apply(st, TensorChange::from_source()).has_value(), "the first state was refused");
    t.expect(s.last_x_upload_bytes() == 3 * 8 * 6 * 5 * 4,
             "the first apply uploaded " + std::to_string(s.last_x_upload_bytes()) + " bytes");
    t.expect(s.histograms().input.count == 720, "the input histogram counts " + g(s.histograms().input.count));
    for (const State& next : {with_groups(s.state(), 4), with_method(s.state(), Method::Instance, 8),
                              with_eps(s.state(), 0.1), with_method(s.state(), Method::Layer, 8)}) {
        const std::string m = method_name(next.spec.method);
        t.expect(!s.apply(next, TensorChange::keep()).has_value(), m + ": refused");
        t.expect(s.last_x_upload_bytes() == 0, m + ": x uploaded again");
        t.expect(!s.last_x_histogram_recomputed(), m + ": x histogrammed again");
        t.expect(s.max_error_wait() <= 1e-5, m + ": max error " + g(s.max_error_wait()));
        t.expect(t.on_device(s.x_device(), 720) == s.x().data, m + ": the device's x is not the session's");
        t.expect(t.on_device(s.y_device(), 720) == s.result().y.data, m + ": the device's y is not the result's");
    }
    s.select(Index4{1, 2, 0, 3});
    t.expect(s.histograms().has_group && s.histograms().group_input.count == s.layout().count(),
             "the selected statistic's histogram counts " + g(s.histograms().group_input.count));
    const std::uint64_t gen = s.generation();
    auto err = s.apply(with_groups(with_method(s.state(), Method::Group, 2), 3), TensorChange::keep());
    t.expect(err && err->find("divisible") != std::string::npos, "G = 3 on C = 8 was not refused as PyTorch does");
    t.expect(s.generation() == gen && s.state().spec.method == Method::Layer, "a refused edit changed the state");
}

void views_on_engine(WgpuBackend& b, BackendChecks& t) {
    t.start("a view's values on the session's backend, the session's x and y kept");
    Session engine(b);
    t.expect(!engine.apply(test::generated_state(Method::Batch, {2, 4, 3, 3}), TensorChange::from_source()).has_value(),
             "the engine's state was refused");
    const std::vector<float> x_before = engine.x().data, y_before = engine.result().y.data;
    const std::uint64_t epoch = engine.shown().buffer_epoch();
    const std::uint64_t ids = engine.x_device().identity() ^ (engine.y_device().identity() << 1);
    ShownValues v(engine);
    const State group = with_groups(test::generated_state(Method::Group, {3, 8, 6, 5}), 2);
    const Tensor x = load_tensor(group.source);
    t.expect(!v.compute(group, x).has_value(), "the view's state was refused");
    const double err = Reference(x, group.spec, {}).max_abs_error(v.shown().y().data);
    t.expect(err <= 1e-5, "the view's y is " + g(err) + " from the float64 reference");
    t.expect(t.on_device(v.shown().y_device(), x.data.size()) == v.shown().y().data, "the view's device y differs");
    t.expect(v.shown().histograms().output.count == static_cast<std::int64_t>(x.data.size()),
             "the view's output histogram counts " + g(v.shown().histograms().output.count));
    t.expect(t.on_device(engine.x_device(), x_before.size()) == x_before, "the engine's x was not put back");
    t.expect(t.on_device(engine.y_device(), y_before.size()) == y_before, "the engine's y was not put back");
    // The backend's buffers are re-created only when too small for the view's tensor (the page's
    // backend has run larger ones): the epoch changes exactly when they were.
    const bool recreated = (engine.x_device().identity() ^ (engine.y_device().identity() << 1)) != ids;
    t.expect(
        recreated == (engine.shown().buffer_epoch() != epoch),
        recreated ? "re-created buffers did not change the buffer epoch" : "the epoch changed, the buffers did not");

    const Tensor dy = make_tensor(x.shape, Init::Randn, 5);
    const GradResult gr = engine.backward(group, x, dy);
    const double gerr = grad_error(gr, reference_backward(Reference(x, group.spec, {}), dy));
    t.expect(gerr <= 1e-4, "the backward through the session is " + g(gerr) + " from reference_backward");
    t.expect(t.on_device(engine.y_device(), y_before.size()) == y_before, "the backward left another y");
    t.expect(!engine.apply(with_method(engine.state(), Method::Instance, 4), TensorChange::keep()).has_value() &&
                 engine.last_x_upload_bytes() == 0 && engine.max_error_wait() <= 1e-5,
             "the edit after the backward did not keep x on the device");
}

}  // namespace

nlohmann::json run_session_tests(WgpuBackend& backend) {
    BackendChecks t(backend);
    x_stays(backend, t);
    views_on_engine(backend, t);
    return t.report();
}

}  // namespace normlab::web
