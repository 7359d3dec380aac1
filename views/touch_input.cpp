#include "touch_input.hpp"

#include <cmath>
#include <utility>

namespace normlab::app {

void TouchInput::start(int id, float x, float y, double t) {
    if (finger_) return;  // a second finger: ignored
    finger_ = true;
    owned_ = true;
    id_ = id;
    x0_ = x_ = x;
    y0_ = y_ = y;
    t0_ = t;
    moved_ = scrolling_ = long_fired_ = false;
    wheel_x_ = wheel_y_ = 0;
    steps_.push_back({x, y, false, false});  // ImGui sees what is under the finger first
    steps_.push_back({x, y, true, false});   // then the press
}

void TouchInput::move(int id, float x, float y, double) {
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

void TouchInput::end(int id, float x, float y, double) {
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
    steps_.push_back(up);
}

std::optional<double> TouchInput::long_press_at() const {
    if (!finger_ || moved_ || long_fired_) return std::nullopt;
    return t0_ + o_.long_press_s;
}

std::optional<PointerFrame> TouchInput::frame(double t) {
    if (finger_ && !moved_ && !long_fired_ && t - t0_ >= o_.long_press_s) {
        long_fired_ = true;  // the left button goes up, then a right click
        steps_.push_back({x_, y_, false, false});
        steps_.push_back({x_, y_, false, true});
        steps_.push_back({x_, y_, false, false});
    }
    if (!steps_.empty()) {
        last_ = steps_.front();
        steps_.pop_front();
        return last_;
    }
    if (!owned_) return std::nullopt;
    PointerFrame f{x_, y_, finger_ && !long_fired_ && !scrolling_, false};
    if (scrolling_) {
        f.wheel_x = wheel_x_;
        f.wheel_y = wheel_y_;
        wheel_x_ = wheel_y_ = 0;
    }
    f.cancel_press = std::exchange(cancel_, false);
    last_ = f;
    return f;
}

}  // namespace normlab::app
