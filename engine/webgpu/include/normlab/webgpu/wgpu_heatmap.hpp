// WgpuHeatmap: the heatmap image on WebGPU (shaders/wgsl/heatmap.wgsl, the twin of
// shaders/heatmap.comp): one packed RGBA8 value per pixel of an N×C grid of H×W tiles, from the
// device's x and y (e.g. the WgpuNormalizer's buffers()), in value mode through a colour table
// or in statistics mode through a palette. The parameters are the engine's HeatmapFillParams
// (normlab/plan/heatmap_fill_params.hpp, heatmap.wgsl's struct Fill), as both backends take them; the
// table and the palette come from views/colormap.
#pragma once
#include "normlab/plan/heatmap_fill_params.hpp"
#include "normlab/webgpu/wgpu_buffer.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace normlab::webgpu {

class WgpuHeatmap {
public:
    explicit WgpuHeatmap(WgpuContext& ctx);
    ~WgpuHeatmap();
    WgpuHeatmap(const WgpuHeatmap&) = delete;
    WgpuHeatmap& operator=(const WgpuHeatmap&) = delete;

    // Fills the image (img_w × img_h of `params`) and reads it back, row by row. `palette` holds
    // one RGBA (4 floats) per statistic, `lut` lut_size RGBAs. InputError when the image does not
    // fit one binding.
    std::vector<std::uint32_t> fill(const WgpuBuffer& x, const WgpuBuffer& y, const std::vector<float>& palette,
                                    const std::vector<float>& lut, const plan::HeatmapFillParams& params);
    // The last image on the device (a storage buffer of img_w·img_h packed pixels).
    const WgpuBuffer& pixels() const { return pixels_; }

private:
    WgpuContext* ctx_;
    WGPUBindGroupLayout bind_layout_ = nullptr;
    WGPUPipelineLayout pipeline_layout_ = nullptr;
    WGPUComputePipeline pipeline_ = nullptr;
    WgpuBuffer palette_, lut_, pixels_, uniform_;
    std::vector<WgpuBuffer> staging_;
};

}  // namespace normlab::webgpu
