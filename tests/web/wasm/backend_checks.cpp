#include "backend_checks.hpp"

#include <algorithm>
#include <cmath>

namespace normlab::web {

void BackendChecks::close(const std::vector<double>& got, const std::vector<double>& want, double tol,
                          const std::string& what) {
    bool ok = got.size() == want.size();
    double worst = 0;
    for (std::size_t i = 0; ok && i < want.size(); ++i)
        worst = std::max(worst, std::abs(got[i] - want[i]) / std::max(1.0, std::abs(want[i])));
    expect(ok && worst <= tol, what + ": worst relative error " + std::to_string(worst) + " (" +
                                   std::to_string(got.size()) + " values, " + std::to_string(want.size()) +
                                   " expected)");
}

std::vector<float> BackendChecks::on_device(const plan::DeviceTensor& t, std::size_t n) {
    std::vector<float> out(n);
    webgpu::read_back(b_.context(), staging_, {{&webgpu::wgpu_buffer(t), out.data(), n * 4}});
    return out;
}

nlohmann::json BackendChecks::report() const {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count();
    return {{"cases", cases_}, {"checks", checks_}, {"failures", failures_}, {"ms", ms}};
}

}  // namespace normlab::web
