#include "session_test.hpp"

#include "backend_checks.hpp"
#include "generated_state.hpp"
#include "kernel_test.hpp"

#include "normlab/reference/reference.hpp"
#include "normlab/session/session.hpp"
#include "normlab/session/shown_values.hpp"
#include "normlab/session/state_edits.hpp"
#include "normlab/core/tensor_init.hpp"
#include "normlab/io/scene_file.hpp"
#include "normlab/reference/grad_reference.hpp"

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

void x_stays(webgpu::WgpuBackend& b, BackendChecks& t) {
    t.start("x stays on the device when the method, G or eps change");
    session::Session s(b);
    const core::State st = session::with_groups(test::generated_state(core::Method::Group, {3, 8, 6, 5}), 2);
    t.expect(!s.apply(st, session::TensorChange::from_source()).has_value(), "the first state was refused");
    t.expect(s.last_x_upload_bytes() == 3 * 8 * 6 * 5 * 4,
             "the first apply uploaded " + std::to_string(s.last_x_upload_bytes()) + " bytes");
    t.expect(s.histograms().input.count == 720, "the input histogram counts " + g(s.histograms().input.count));
    for (const core::State& next :
         {session::with_groups(s.state(), 4), session::with_method(s.state(), core::Method::Instance, 8),
          session::with_eps(s.state(), 0.1), session::with_method(s.state(), core::Method::Layer, 8)}) {
        const std::string m = core::method_name(next.spec.method);
        t.expect(!s.apply(next, session::TensorChange::keep()).has_value(), m + ": refused");
        t.expect(s.last_x_upload_bytes() == 0, m + ": x uploaded again");
        t.expect(!s.last_x_histogram_recomputed(), m + ": x histogrammed again");
        t.expect(s.max_error_wait() <= 1e-5, m + ": max error " + g(s.max_error_wait()));
        t.expect(t.on_device(s.x_device(), 720) == s.x().data, m + ": the device's x is not the session's");
        t.expect(t.on_device(s.y_device(), 720) == s.result().y.data, m + ": the device's y is not the result's");
    }
    s.select(core::Index4{1, 2, 0, 3});
    t.expect(s.histograms().has_group && s.histograms().group_input.count == s.layout().count(),
             "the selected statistic's histogram counts " + g(s.histograms().group_input.count));
    const std::uint64_t gen = s.generation();
    auto err = s.apply(session::with_groups(session::with_method(s.state(), core::Method::Group, 2), 3),
                       session::TensorChange::keep());
    t.expect(err && err->find("divisible") != std::string::npos, "G = 3 on C = 8 was not refused as PyTorch does");
    t.expect(s.generation() == gen && s.state().spec.method == core::Method::Layer, "a refused edit changed the state");
}

void views_on_engine(webgpu::WgpuBackend& b, BackendChecks& t) {
    t.start("a view's values on the session's backend, the session's x and y kept");
    session::Session engine(b);
    t.expect(
        !engine.apply(test::generated_state(core::Method::Batch, {2, 4, 3, 3}), session::TensorChange::from_source())
             .has_value(),
        "the engine's state was refused");
    const std::vector<float> x_before = engine.x().data, y_before = engine.result().y.data;
    const std::uint64_t epoch = engine.shown().buffer_epoch();
    const std::uint64_t ids = engine.x_device().identity() ^ (engine.y_device().identity() << 1);
    session::ShownValues v(engine);
    const core::State group = session::with_groups(test::generated_state(core::Method::Group, {3, 8, 6, 5}), 2);
    const core::Tensor x = io::load_tensor(group.source);
    t.expect(!v.compute(group, x).has_value(), "the view's state was refused");
    const double err = reference::Reference(x, group.spec, {}).max_abs_error(v.shown().y().data);
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

    const core::Tensor dy = make_tensor(x.shape, core::Init::Randn, 5);
    const core::GradResult gr = engine.backward(group, x, dy);
    const double gerr = grad_error(gr, reference::reference_backward(reference::Reference(x, group.spec, {}), dy));
    t.expect(gerr <= 1e-4, "the backward through the session is " + g(gerr) + " from reference_backward");
    t.expect(t.on_device(engine.y_device(), y_before.size()) == y_before, "the backward left another y");
    t.expect(
        !engine.apply(session::with_method(engine.state(), core::Method::Instance, 4), session::TensorChange::keep())
                .has_value() &&
            engine.last_x_upload_bytes() == 0 && engine.max_error_wait() <= 1e-5,
        "the edit after the backward did not keep x on the device");
}

}  // namespace

nlohmann::json run_session_tests(webgpu::WgpuBackend& backend) {
    BackendChecks t(backend);
    x_stays(backend, t);
    views_on_engine(backend, t);
    return t.report();
}

}  // namespace normlab::web
