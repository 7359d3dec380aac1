#include "normlab/views/touch_input.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace normlab::views {
namespace {
std::optional<PointerFrame> g_frame_touch;  // the frame being drawn's (set_frame_touch)
}  // namespace

void set_frame_touch(const std::optional<PointerFrame>& f) { g_frame_touch = f; }
const PointerFrame* frame_touch() { return g_frame_touch ? &*g_frame_touch : nullptr; }

void TouchInput::start(int id, float x, float y, double t) {
    if (pinch_ || spent_) return;  // a third finger, or a finger while a pinch winds down: ignored
    if (finger_) {
        if (id != id_ && !item_active_ && !long_fired_) start_pinch(id, x, y);
        return;  // else a second finger on a slider or after a long press: ignored
    }
    finger_ = true;
    owned_ = true;
    id_ = id;
    x0_ = x_ = x;
    y0_ = y_ = y;
    t0_ = t;
    moved_ = scrolling_ = long_fired_ = false;
    wheel_x_ = wheel_y_ = 0;
    PointerFrame land{x, y, false, false};  // ImGui sees what is under the finger first
    land.landed = true;
    steps_.push_back(land);
    steps_.push_back({x, y, true, false});  // then the press
}

void TouchInput::start_pinch(int id, float x, float y) {
    pinch_ = true;
    id2_ = id;
    x2_ = x;
    y2_ = y;
    dist_ = std::max(std::hypot(x2_ - x_, y2_ - y_), 1.0f);
    cx_ = (x_ + x2_) * 0.5f;
    cy_ = (y_ + y2_) * 0.5f;
    steps_.clear();  // a press not yet given is not given
    scrolling_ = false;
    wheel_x_ = wheel_y_ = 0;
    cancel_ = true;  // one given is let go without acting
}

void TouchInput::move(int id, float x, float y, double) {
    if (pinch_move(id, x, y)) return;
    if (!finger_ || id != id_) return;
    if (!moved_ && std::hypot(x - x0_, y - y0_) > o_.slop) {
        moved_ = true;
        scrolling_ = !item_active_ && !long_fired_;  // a slider held: a drag
        cancel_ = scrolling_;
    }
    if (scrolling_) {
        wheel_x_ += (x - x_) / o_.wheel_units;
        wheel_y_ += (y - y_) / o_.wheel_units;
    }
    x_ = x;
    y_ = y;
}

// A finger of a pinch moved (true), or a finger of a spent pinch (true: nothing to do).
bool TouchInput::pinch_move(int id, float x, float y) {
    if (spent_) return true;
    if (!pinch_) return false;
    if (id == id_) {
        x_ = x;
        y_ = y;
    } else if (id == id2_) {
        x2_ = x;
        y2_ = y;
    }
    return true;
}

void TouchInput::end(int id, float x, float y, double t) {
    if (pinch_end(id)) return;
    if (!finger_ || id != id_) return;
    finger_ = false;
    if (!scrolling_) {
        x_ = x;
        y_ = y;
    }
    if (long_fired_) return;
    PointerFrame up{x_, y_, false, false, wheel_x_, wheel_y_};  // the release, in a frame of its own
    up.cancel_press = std::exchange(cancel_, false);
    wheel_x_ = wheel_y_ = 0;
    if (!moved_) {  // a tap: the second of two near each other soon after is a double tap
        up.double_tap = t - tap_t_ <= o_.double_tap_s && std::hypot(x - tap_x_, y - tap_y_) <= 4 * o_.slop;
        tap_t_ = up.double_tap ? -1e9 : t;
        tap_x_ = x;
        tap_y_ = y;
    }
    steps_.push_back(up);
}

// A finger of a pinch lifted (true): the pinch ends, the other finger does nothing until it lifts.
bool TouchInput::pinch_end(int id) {
    if (!pinch_ && !spent_) return false;
    const bool ours = id == id_ || id == id2_;
    if (pinch_ && ours) {
        steps_.push_back(pinch_frame());  // the last movement
        pinch_ = false;
        spent_ = true;
        if (id == id_) id_ = id2_;  // the finger left
        finger_ = false;
        tap_t_ = -1e9;
    } else if (spent_ && id == id_) {
        spent_ = false;
    }
    return true;
}

// The pinch since the last frame: zoom by the fingers' distance, pan by their centre.
PointerFrame TouchInput::pinch_frame() {
    const float d = std::max(std::hypot(x2_ - x_, y2_ - y_), 1.0f);
    const float cx = (x_ + x2_) * 0.5f, cy = (y_ + y2_) * 0.5f;
    PointerFrame f{cx, cy, false, false};
    f.pinching = true;
    f.zoom = d / dist_;
    f.pan_x = cx - cx_;
    f.pan_y = cy - cy_;
    f.cancel_press = std::exchange(cancel_, false);
    dist_ = d;
    cx_ = cx;
    cy_ = cy;
    return f;
}

std::optional<double> TouchInput::long_press_at() const {
    if (!finger_ || moved_ || long_fired_ || pinch_) return std::nullopt;
    return t0_ + o_.long_press_s;
}

std::optional<PointerFrame> TouchInput::frame(double t) {
    if (finger_ && !pinch_ && !moved_ && !long_fired_ && t - t0_ >= o_.long_press_s) {
        long_fired_ = true;  // the left button goes up without acting, then a right click
        PointerFrame up{x_, y_, false, false};
        up.cancel_press = true;
        steps_.push_back(up);
        steps_.push_back({x_, y_, false, true});
        steps_.push_back({x_, y_, false, false});
    }
    if (!steps_.empty()) {
        last_ = steps_.front();
        steps_.pop_front();
        return last_;
    }
    if (!owned_) return std::nullopt;
    if (pinch_) return last_ = pinch_frame();
    PointerFrame f{x_, y_, finger_ && !long_fired_ && !scrolling_, false};
    if (spent_) f = {last_.x, last_.y, false, false};  // the finger left after a pinch: the pointer stays
    if (scrolling_) {
        f.wheel_x = wheel_x_;
        f.wheel_y = wheel_y_;
        wheel_x_ = wheel_y_ = 0;
    }
    f.cancel_press = std::exchange(cancel_, false);
    last_ = f;
    return f;
}

bool PopupGuard::swallow(const PointerFrame* touch, int popups_open, bool released) {
    if (!touch) {
        at_landing_ = -1;
        return false;
    }
    if (touch->landed) at_landing_ = popups_open;
    const bool opened = at_landing_ >= 0 && popups_open > at_landing_;
    if (released) at_landing_ = -1;
    return released && opened;
}

}  // namespace normlab::views
