// TouchInput: a finger on the screen as Dear ImGui 1.86 understands a mouse, one frame at a time.
// ImGui 1.86 keeps only per-frame mouse state and the browser's own touch-to-mouse mapping reaches
// it late or at a stale position, so a tap selected nothing or only showed a tooltip. Here a touch
// moves the pointer to the finger for one frame before the button goes down (ImGui sees what is
// under it first), holds the button while the finger stays, and releases it in a later frame:
// - a tap selects (the pointer stays where the finger was, so the heatmap's tooltip shows the
//   numbers of what was tapped);
// - a long press (0.5 s without moving) is a right click (the heatmap clears its selection); the left
//   button is let go first without acting;
// - a finger that moves on a slider ImGui made active drags it; anywhere else it scrolls the panel
//   under it (as a mouse wheel, the content following the finger), and the button it pressed first
//   is let go without acting.
// - a second finger down while the first stays (not on a slider) starts a pinch: the press is cancelled
//   and each frame gives the change of the two fingers' distance (zoom) and of their centre (pan),
//   which the heatmap applies (HeatmapZoom, heatmap_zoom.hpp); after either finger lifts, the other does
//   nothing until it lifts too;
// - a second tap soon after a first one, near it, is flagged as a double tap on its release frame.
// The browser's window (web/src/web_window) feeds it the page's touch events, applies frame() to
// ImGui's mouse and hands the frame to the views (set_frame_touch: the heatmap's pinch and double tap);
// tests/app/test_touch_input.cpp checks it.
#pragma once
#include <deque>
#include <optional>

namespace normlab::views {

// The mouse ImGui sees in one frame.
struct PointerFrame {
    float x = 0, y = 0;  // ImGui units
    bool left = false, right = false;
    float wheel_x = 0, wheel_y = 0;  // wheel notches (ImGui: positive scrolls up / left)
    bool cancel_press = false;       // a press became a scroll: what it made active must not act on release
    // Two fingers: the factor by which their distance grew since the last frame (1: no pinch), their
    // centre now and how far it moved since the last frame (ImGui units).
    bool pinching = false;
    float zoom = 1, pan_x = 0, pan_y = 0;
    bool double_tap = false;  // this release ends a second tap near the first, soon after it
    bool landed = false;      // the first frame of a finger (the pointer moved to it, not yet pressed)
};

class TouchInput {
public:
    struct Options {
        float slop = 10;             // ImGui units a finger may move and still tap
        double long_press_s = 0.5;   // a finger held this long without moving: a right click
        float wheel_units = 85;      // ImGui units of finger travel per wheel notch (ImGui scrolls 5 lines a notch)
        double double_tap_s = 0.35;  // a second tap within this of the first's release is a double tap
    };
    TouchInput() = default;
    explicit TouchInput(Options o) : o_(o) {}
    void set_options(Options o) { o_ = o; }

    // The page's touch events: finger `id` at (x, y) in ImGui units, at `t` seconds.
    void start(int id, float x, float y, double t);
    void move(int id, float x, float y, double t);
    void end(int id, float x, float y, double t);
    // A real mouse moved or clicked: its pointer is ImGui's again.
    void mouse_used() { owned_ = false; }
    // After each frame: whether ImGui had a slider (or drag) active, which a moving finger then drags
    // instead of scrolling.
    void set_slider_active(bool active) { item_active_ = active; }

    // The mouse for the frame at `t`: nullopt when no finger has touched since the mouse was last used.
    std::optional<PointerFrame> frame(double t);
    // When a finger that stays becomes a long press (the frame loop draws a frame then).
    std::optional<double> long_press_at() const;
    // Steps not yet given to a frame (the frame loop keeps drawing while there are any).
    bool busy() const { return !steps_.empty() || finger_ || pinch_ || spent_; }

private:
    Options o_;
    std::deque<PointerFrame> steps_;  // frames to give in order before the finger's own state
    bool finger_ = false;             // the primary finger is down
    int id_ = -1;
    float x0_ = 0, y0_ = 0, x_ = 0, y_ = 0, wheel_x_ = 0, wheel_y_ = 0;
    double t0_ = 0;
    bool moved_ = false, scrolling_ = false, long_fired_ = false, owned_ = false, item_active_ = false;
    bool cancel_ = false;  // the next frame cancels the press (a scroll began)
    PointerFrame last_;
    // The pinch: the second finger, the distance and centre last given to a frame.
    bool pinch_ = false, spent_ = false;  // spent_: a pinch ended, the finger left does nothing
    int id2_ = -1;
    float x2_ = 0, y2_ = 0, dist_ = 1, cx_ = 0, cy_ = 0;
    // The last tap's release (a double tap's first half).
    double tap_t_ = -1e9;
    float tap_x_ = 0, tap_y_ = 0;

    void start_pinch(int id, float x, float y);
    bool pinch_move(int id, float x, float y);
    bool pinch_end(int id);
    PointerFrame pinch_frame();
};

// A finger's release that would act on a popup opened since the finger landed (a menu opened by its
// press, or a submenu ImGui opened under it on hover): the item now under the finger must not be chosen
// on lift (a 40-px row's Lessons submenu, taller than a phone, opens over the finger). Called once a
// frame with the touch frame (null: a mouse), the popups open at the frame's start and whether ImGui
// sees a left release in it; true: that release is swallowed.
class PopupGuard {
public:
    bool swallow(const PointerFrame* touch, int popups_open, bool released);

private:
    int at_landing_ = -1;  // the popups open when the finger landed (-1: no finger)
};

// The touch frame ImGui's mouse comes from in the frame being drawn, for the views that act on
// gestures (the heatmap's pinch, pan and double tap): the window sets it before each frame, nullopt
// when the mouse is a real one. frame_touch(): null then, and on the desktop.
void set_frame_touch(const std::optional<PointerFrame>& f);
const PointerFrame* frame_touch();

}  // namespace normlab::views
