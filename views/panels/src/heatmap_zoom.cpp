#include "normlab/views/heatmap_zoom.hpp"

#include <algorithm>
#include <cmath>

namespace normlab::views {

void HeatmapZoom::set_sizes(float image_w, float image_h, float panel_w, float panel_h) {
    iw_ = std::max(image_w, 1.0f);
    ih_ = std::max(image_h, 1.0f);
    pw_ = std::max(panel_w, 1.0f);
    ph_ = std::max(panel_h, 1.0f);
    clamp();
}

void HeatmapZoom::pinch(float factor, float cx, float cy, float dx, float dy) {
    if (!(factor > 0) || !std::isfinite(factor)) factor = 1;
    float ix = 0, iy = 0;
    to_image(cx, cy, ix, iy);  // the image point under the centre stays under it
    zoom_ = std::clamp(zoom_ * factor, 1.0f, kMaxZoom);
    ox_ = cx - ix * zoom_ + dx;
    oy_ = cy - iy * zoom_ + dy;
    if (zoom_ == 1.0f && std::abs(ox_) < 0.5f && std::abs(oy_) < 0.5f) ox_ = oy_ = 0;
    clamp();
}

void HeatmapZoom::wheel(float notches, float cx, float cy) { pinch(std::pow(kWheelStep, notches), cx, cy); }

void HeatmapZoom::to_image(float sx, float sy, float& ix, float& iy) const {
    ix = (sx - ox_) / zoom_;
    iy = (sy - oy_) / zoom_;
}

void HeatmapZoom::to_panel(float ix, float iy, float& sx, float& sy) const {
    sx = ox_ + ix * zoom_;
    sy = oy_ + iy * zoom_;
}

// At least a quarter of the panel (or all of the image where it is smaller) stays covered by the image.
void HeatmapZoom::clamp() {
    const float w = iw_ * zoom_, h = ih_ * zoom_;
    const float kx = std::min(w, pw_ * 0.25f), ky = std::min(h, ph_ * 0.25f);
    ox_ = std::clamp(ox_, kx - w, pw_ - kx);
    oy_ = std::clamp(oy_, ky - h, ph_ - ky);
}

}  // namespace normlab::views
