// WebHeatmapImage: the browser's HeatmapImage (views/heatmap_image.hpp) — the heatmap's picture filled
// by heatmap.wgsl (WgpuHeatmap) from x and y where the Session left them on the WebGPU device, with
// the app's fill parameters and colours, and drawn as a WebGL2 texture (GlTexture) into the ImGui
// window. It fills again only when the picture asked for changed.
#pragma once
#include "gl_texture.hpp"
#include "heatmap_image.hpp"

#include "normlab/webgpu/wgpu_heatmap.hpp"

#include <cstdint>
#include <vector>

namespace normlab::web {

class WebHeatmapImage : public app::HeatmapImage {
public:
    explicit WebHeatmapImage(webgpu::WgpuContext& ctx) : fill_(ctx) {}
    void draw(const app::HeatmapPicture& picture, ImVec2 origin, ImVec2 size) override;
    int fills() const { return fills_; }                // how often the picture was filled
    int uploads() const { return texture_.uploads(); }  // and uploaded to the texture

private:
    webgpu::WgpuHeatmap fill_;
    GlTexture texture_;
    app::HeatmapPicture filled_;
    int fills_ = 0;
};

}  // namespace normlab::web
