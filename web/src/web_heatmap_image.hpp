// WebHeatmapImage: the browser's HeatmapImage (normlab/views/heatmap_image.hpp) — the heatmap's picture filled
// by heatmap.wgsl (WgpuHeatmap) from x and y where the Session left them on the WebGPU device, or
// without WebGPU by engine/cpu's fill_heatmap from the CPU backend's x and y, with
// the app's fill parameters and colours, and drawn as a WebGL2 texture (GlTexture) into the ImGui
// window. It fills again only when the picture asked for changed.
#pragma once
#include "gl_texture.hpp"
#include "normlab/views/heatmap_image.hpp"

#include "normlab/webgpu/wgpu_heatmap.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace normlab::web {

class WebHeatmapImage : public views::HeatmapImage {
public:
    // ctx: the WebGPU device the Session runs on; null when it runs on the CPU backend.
    explicit WebHeatmapImage(webgpu::WgpuContext* ctx) {
        if (ctx) fill_ = std::make_unique<webgpu::WgpuHeatmap>(*ctx);
    }
    void draw(const views::HeatmapPicture& picture, ImVec2 origin, ImVec2 size) override;
    int fills() const { return fills_; }                // how often the picture was filled
    int uploads() const { return texture_.uploads(); }  // and uploaded to the texture

private:
    std::unique_ptr<webgpu::WgpuHeatmap> fill_;  // null: the CPU fill
    GlTexture texture_;
    views::HeatmapPicture filled_;
    int fills_ = 0;
};

}  // namespace normlab::web
