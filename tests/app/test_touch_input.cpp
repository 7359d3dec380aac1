// TouchInput (normlab/views/touch_input.hpp): what ImGui's mouse is, frame by frame, for a tap, a long
// press, a swipe over a panel and a finger dragging a slider.
#include "normlab/views/touch_input.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace normlab::views;

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
    CHECK((!f[0].left && !f[0].right && f[0].cancel_press));  // the press does not act (no selection)
    CHECK((f[1].right && !f[1].left && !f[1].cancel_press));
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

TEST_CASE("two fingers pinch: the press cancelled, zoom and pan per frame, then nothing until both lift", "[touch]") {
    TouchInput in;
    in.start(1, 100, 100, 0.0);
    frames(in, 0.01, 2);  // pointer, press
    in.start(2, 200, 100, 0.05);
    CHECK_FALSE(in.long_press_at().has_value());
    in.move(2, 300, 100, 0.06);  // distance 100 → 200, centre 150 → 200
    auto f = in.frame(0.07);
    REQUIRE(f.has_value());
    CHECK((f->pinching && !f->left && !f->right && f->cancel_press));
    CHECK(f->zoom == Approx(2.0));
    CHECK((f->pan_x == Approx(50) && f->pan_y == Approx(0)));
    CHECK((f->x == Approx(200) && f->y == Approx(100)));
    in.move(1, 150, 150, 0.08);  // both move down 50: distance √(150² + 50²), centre (225, 125)
    in.move(2, 300, 150, 0.08);
    f = in.frame(0.09);
    CHECK((f->pinching && !f->cancel_press));
    CHECK(f->zoom == Approx(150.0 / 200.0));
    CHECK((f->pan_x == Approx(25) && f->pan_y == Approx(50)));
    f = in.frame(0.1);  // nothing moved
    CHECK((f->zoom == Approx(1) && f->pan_x == 0 && f->pan_y == 0));
    in.end(2, 300, 150, 0.2);
    in.move(1, 400, 400, 0.21);  // the finger left neither scrolls nor presses
    for (const auto& g : frames(in, 0.22, 40)) CHECK((!g.left && !g.right && g.wheel_y == 0 && g.zoom == 1));
    CHECK(in.busy());
    in.end(1, 400, 400, 1.0);
    CHECK_FALSE(frames(in, 1.01, 3).back().left);
    CHECK_FALSE(in.busy());
    in.start(3, 50, 50, 2.0);  // a new finger taps as before
    in.end(3, 50, 50, 2.01);
    const auto t = frames(in, 2.02, 3);
    REQUIRE(t.size() == 3);
    CHECK((t[1].left && t[1].x == 50 && !t[2].left && !t[2].double_tap));
}

TEST_CASE("a second finger before the press was given: the press is never given", "[touch]") {
    TouchInput in;
    in.start(1, 10, 10, 0.0);
    in.start(2, 110, 10, 0.0);
    for (const auto& f : frames(in, 0.01, 5)) CHECK((!f.left && f.pinching));
}

TEST_CASE("a second finger on a held slider is ignored, and a third finger during a pinch", "[touch]") {
    TouchInput in;
    in.start(1, 10, 10, 0.0);
    frames(in, 0.01, 2);
    in.set_slider_active(true);
    in.start(2, 300, 300, 0.03);
    in.move(2, 400, 300, 0.04);
    auto f = in.frame(0.05);
    CHECK((f->left && !f->pinching && f->x == 10));
    in.end(1, 10, 10, 0.06);
    in.end(2, 400, 300, 0.06);
    in.set_slider_active(false);
    frames(in, 0.07, 3);
    in.start(1, 0, 0, 1.0);
    in.start(2, 100, 0, 1.0);
    in.start(3, 500, 500, 1.0);  // ignored
    in.move(3, 900, 900, 1.01);
    frames(in, 1.01, 1);
    in.move(2, 200, 0, 1.02);
    f = in.frame(1.03);
    CHECK(f->zoom == Approx(2.0));
}

TEST_CASE("two taps near each other soon after: the second release is a double tap", "[touch]") {
    TouchInput in;
    in.start(1, 100, 100, 0.0);
    in.end(1, 100, 100, 0.05);
    auto f = frames(in, 0.06, 3);
    CHECK_FALSE(f[2].double_tap);
    in.start(2, 104, 98, 0.2);
    in.end(2, 104, 98, 0.25);  // 0.2 s after the first release, 4.5 units away
    f = frames(in, 0.26, 3);
    REQUIRE(f.size() == 3);
    CHECK((f[1].left && !f[2].left && f[2].double_tap));
    in.start(3, 104, 98, 0.3);  // a third tap starts a new pair
    in.end(3, 104, 98, 0.32);
    CHECK_FALSE(frames(in, 0.33, 3)[2].double_tap);
    in.start(4, 400, 400, 0.4);  // far from the last: no double tap
    in.end(4, 400, 400, 0.41);
    CHECK_FALSE(frames(in, 0.42, 3)[2].double_tap);
    in.start(5, 400, 400, 2.0);  // too late
    in.end(5, 400, 400, 2.01);
    CHECK_FALSE(frames(in, 2.02, 3)[2].double_tap);
}

TEST_CASE("a finger's lift does not act on a popup opened since it landed, and acts on one open before", "[touch]") {
    TouchInput in;
    PopupGuard guard;
    // A tap on a menu's row: the submenu opens when the pointer reaches the row (before the press).
    in.start(1, 40, 300, 0.0);
    in.end(1, 40, 300, 0.05);
    auto f = frames(in, 0.06, 3);  // landed, pressed, released
    REQUIRE(f.size() == 3);
    CHECK((f[0].landed && !f[1].landed && !f[2].landed));
    CHECK_FALSE(guard.swallow(&f[0], 1, false));
    CHECK_FALSE(guard.swallow(&f[1], 2, false));  // ImGui opened the submenu on hover
    CHECK(guard.swallow(&f[2], 2, true));         // its item now under the finger is not chosen
    // A tap on an item of that submenu: nothing opened since the finger landed, the release acts.
    in.start(2, 60, 320, 1.0);
    in.end(2, 60, 320, 1.05);
    f = frames(in, 1.06, 3);
    REQUIRE(f.size() == 3);
    CHECK_FALSE(guard.swallow(&f[0], 2, false));
    CHECK_FALSE(guard.swallow(&f[1], 2, false));
    CHECK_FALSE(guard.swallow(&f[2], 2, true));
    // A mouse is never held back.
    CHECK_FALSE(guard.swallow(nullptr, 0, false));
    CHECK_FALSE(guard.swallow(nullptr, 3, true));
}
