#include "web_heatmap_image.hpp"

#include "normlab/cpu/cpu_backend.hpp"
#include "normlab/cpu/cpu_heatmap.hpp"
#include "normlab/webgpu/wgpu_backend.hpp"

#include <algorithm>

namespace normlab::web {

void WebHeatmapImage::draw(const views::HeatmapPicture& picture, ImVec2 origin, ImVec2 size) {
    if (!picture.shown || picture.push.img_w == 0 || picture.push.img_h == 0) return;
    if (!(picture == filled_)) {
        const session::ShownTensors& s = *picture.shown;
        const std::vector<float> palette = views::palette_rgba(s.layout().stat_count, picture.palette),
                                 lut = views::lut_rgba(picture.colormap);
        std::vector<std::uint32_t> pixels;
        if (fill_) {
            pixels = fill_->fill(webgpu::wgpu_buffer(s.x_device()), webgpu::wgpu_buffer(s.y_device()), palette, lut,
                                 picture.push);
        } else {
            const cpu::CpuBuffer &x = cpu::cpu_values(s.x_device()), &y = cpu::cpu_values(s.y_device());
            pixels = cpu::fill_heatmap(x.data(), y.data(), std::min(x.size(), y.size()), palette, lut, picture.push);
        }
        texture_.set(static_cast<int>(picture.push.img_w), static_cast<int>(picture.push.img_h), pixels);
        filled_ = picture;
        ++fills_;
    }
    ImGui::GetWindowDrawList()->AddImage(texture_.id(), origin, ImVec2(origin.x + size.x, origin.y + size.y));
}

}  // namespace normlab::web
