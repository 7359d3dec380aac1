// SyncBN on the WebGPU backend in the browser's kernel test (?test=kernels): the twin of
// tests/gpu/test_sync_bn.cpp — random shapes, K, modes, train and eval through WgpuBackend
// (WgpuSyncBatchNorm: the WGSL shard statistics, sync_reduce.wgsl, each mode's apply) against the
// float64 reference_sync (y, shard, sync and naive statistics, the applied ones and the running
// statistics, within 1e-5), the device's y being the chosen mode's, the identities (K = 1 and sync
// are BatchNorm; naive misses exactly the variance of the shard means) and the refusals (one line).
#pragma once
#include "normlab/webgpu/wgpu_backend.hpp"

#include <nlohmann/json.hpp>

namespace normlab::web {

nlohmann::json run_sync_tests(webgpu::WgpuBackend& backend);

}  // namespace normlab::web
