// BackendChecks: the checks of the kernel test's parts that drive the WebGPU backend as a whole
// (session_test, sync_test): named cases, each check counted, each failure described, what a device
// tensor holds read back, and the part's JSON report (cases, checks, failures, ms).
#pragma once
#include "normlab/webgpu/wgpu_backend.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace normlab::web {

class BackendChecks {
public:
    explicit BackendChecks(webgpu::WgpuBackend& b) : b_(b), t0_(std::chrono::steady_clock::now()) {}

    void start(const std::string& name) { case_ = name, ++cases_; }
    void expect(bool ok, const std::string& what) {
        ++checks_;
        if (!ok) failures_.push_back({{"case", case_}, {"what", what}});
    }
    // got[i] within tol·max(1, |want[i]|) of want[i] for every i, as the Vulkan suites check.
    void close(const std::vector<double>& got, const std::vector<double>& want, double tol, const std::string& what);
    // What a device tensor holds (its first n floats), read back from the device.
    std::vector<float> on_device(const plan::DeviceTensor& t, std::size_t n);
    // The report, its ms the time since this object was made.
    nlohmann::json report() const;

private:
    webgpu::WgpuBackend& b_;
    std::string case_;
    int cases_ = 0, checks_ = 0;
    nlohmann::json failures_ = nlohmann::json::array();
    std::vector<webgpu::WgpuBuffer> staging_;
    std::chrono::steady_clock::time_point t0_;
};

}  // namespace normlab::web
