// TouchInput (views/touch_input.hpp): what ImGui's mouse is, frame by frame, for a tap, a long
// press, a swipe over a panel and a finger dragging a slider.
#include "touch_input.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace normlab::app;

namespace {

// The frames until the touch is spent (at most `n`), one every 16 ms from `t`.
std::vector<PointerFrame> frames(TouchInput& in, double t, int n) {
    std::vector<PointerFrame> out;
    for (int i = 0; i < n; ++i)
        if (auto f = in.frame(t + 0.016 * i)) out.push_back(*f);
    return out;
}

}  // namespace

TEST_CASE("a tap inside one frame: the pointer there, the press, the release, each in a frame", "[touch]") {
    TouchInput in;
    CHECK_FALSE(in.frame(0).has_value());  // no finger yet: the mouse is the platform's
    in.start(7, 100, 200, 1.0);
    in.end(7, 101, 201, 1.01);  // within the slop
    const auto f = frames(in, 1.02, 4);
    REQUIRE(f.size() == 4);
    CHECK((f[0].x == 100 && f[0].y == 200 && !f[0].left));
    CHECK((f[1].left && f[1].x == 100));
    CHECK((!f[2].left && f[2].x == 101 && f[2].y == 201));
    CHECK((!f[3].left && !f[3].right && f[3].x == 101));  // the pointer stays: the tooltip shows
    CHECK_FALSE(f[2].cancel_press);
    in.mouse_used();
    CHECK_FALSE(in.frame(2).has_value());
}

TEST_CASE("a long press is a right click, the left button let go first", "[touch]") {
    TouchInput in;
    in.start(1, 50, 60, 0.0);
    REQUIRE(in.long_press_at().has_value());
    CHECK(*in.long_press_at() == Approx(0.5));
    auto f = frames(in, 0.01, 3);  // pointer, press, held
    REQUIRE(f.size() == 3);
    CHECK(f[2].left);
    f = frames(in, 0.6, 4);
    REQUIRE(f.size() == 4);
    CHECK((!f[0].left && !f[0].right));
    CHECK((f[1].right && !f[1].left));
    CHECK((!f[2].right && !f[2].left));
    in.end(1, 50, 60, 0.7);
    CHECK_FALSE(in.frame(0.75)->left);  // nothing more is pressed
    CHECK_FALSE(in.long_press_at().has_value());
}

TEST_CASE("a swipe over a panel scrolls it with the finger and cancels the press", "[touch]") {
    TouchInput in(TouchInput::Options{10, 0.5, 100});
    in.start(2, 200, 400, 0.0);
    frames(in, 0.01, 2);  // pointer, press
    in.move(2, 200, 350, 0.05);
    in.move(2, 200, 300, 0.06);  // 100 units up: the content follows, one notch down
    auto f = in.frame(0.07);
    REQUIRE(f.has_value());
    CHECK(f->wheel_y == Approx(-1.0));
    CHECK_FALSE(f->left);
    CHECK(f->cancel_press);
    in.move(2, 200, 250, 0.08);
    in.end(2, 200, 250, 0.09);
    f = in.frame(0.1);
    REQUIRE(f.has_value());
    CHECK(f->wheel_y == Approx(-0.5));
    CHECK_FALSE(f->left);
    CHECK_FALSE(f->cancel_press);
}

TEST_CASE("a finger on a slider drags it instead of scrolling", "[touch]") {
    TouchInput in;
    in.start(3, 20, 20, 0.0);
    frames(in, 0.01, 2);
    in.set_slider_active(true);  // ImGui made the slider under the finger active
    in.move(3, 80, 22, 0.05);
    auto f = in.frame(0.06);
    REQUIRE(f.has_value());
    CHECK((f->left && f->x == 80 && f->wheel_x == 0 && !f->cancel_press));
    in.end(3, 90, 22, 0.07);
    f = in.frame(0.08);
    CHECK((!f->left && f->x == 90));
}

TEST_CASE("a second finger is ignored", "[touch]") {
    TouchInput in;
    in.start(1, 10, 10, 0.0);
    in.start(2, 300, 300, 0.0);
    in.end(2, 300, 300, 0.01);
    in.end(1, 10, 10, 0.02);
    for (const auto& f : frames(in, 0.03, 5)) CHECK(f.x == 10);
}
