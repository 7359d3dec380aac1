// HeatmapZoom: the heatmap's zoom and pan, a pure function of gestures and sizes (no ImGui), so that
// a pinch, a wheel and a reset act alike in both apps. The image, of its own size at zoom 1, sits in
// a panel; a point p of the image (in its zoom-1 units, from its top-left) is drawn at
// offset + p · zoom from the panel's top-left. Zooming keeps the image point under the gesture's
// centre where it is; the offset is clamped so that some of the image always stays in the panel.
// Hit-testing maps a screen point back through to_image(). tests/app/test_heatmap_zoom.cpp checks it.
#pragma once

namespace normlab::views {

class HeatmapZoom {
public:
    static constexpr float kMaxZoom = 16;
    static constexpr float kWheelStep = 1.15f;  // zoom factor per wheel notch

    // The image's size at zoom 1 and the panel's (the same units as the gestures).
    void set_sizes(float image_w, float image_h, float panel_w, float panel_h);
    // Zoom by `factor` about (cx, cy) (from the panel's top-left), then move by (dx, dy).
    void pinch(float factor, float cx, float cy, float dx = 0, float dy = 0);
    // One frame of two fingers (touch_input.hpp's PointerFrame): their distance grew by `factor`, their
    // centre is now at (cx, cy), having moved by (dx, dy): the image point that was under the centre zooms
    // about it and follows it (it stays under the fingers).
    void pinch_frame(float factor, float cx, float cy, float dx, float dy) { pinch(factor, cx - dx, cy - dy, dx, dy); }
    // `notches` of a wheel over (cx, cy): up (positive) zooms in.
    void wheel(float notches, float cx, float cy);
    void reset() { zoom_ = 1, ox_ = oy_ = 0; }

    float zoom() const { return zoom_; }
    bool zoomed() const { return zoom_ != 1 || ox_ != 0 || oy_ != 0; }
    float offset_x() const { return ox_; }
    float offset_y() const { return oy_; }
    // A point of the panel (from its top-left) in the image's zoom-1 units, and back.
    void to_image(float sx, float sy, float& ix, float& iy) const;
    void to_panel(float ix, float iy, float& sx, float& sy) const;

private:
    float iw_ = 1, ih_ = 1, pw_ = 1, ph_ = 1;
    float zoom_ = 1, ox_ = 0, oy_ = 0;

    void clamp();
};

}  // namespace normlab::views
