// FramePacer (normlab/views/frame_pacer.hpp): an idle app draws nothing; a wake draws a few frames and
// a quarter of a second; a timer draws one frame when it is due.
#include "normlab/views/frame_pacer.hpp"

#include <catch2/catch.hpp>

using namespace normlab::views;
using namespace std::chrono_literals;

TEST_CASE("an idle app draws no frame until something wakes it", "[pacer]") {
    FramePacer p;
    const auto t0 = FramePacer::Clock::time_point{} + 100s;
    int drawn = 0;
    for (auto t = t0; p.due(t); t += 1ms) {  // the first frames, then nothing
        p.drew(t);
        ++drawn;
    }
    CHECK(drawn == FramePacer::kSettleFrames);
    CHECK_FALSE(p.due(t0 + 1h));
    CHECK_FALSE(p.wait(t0 + 1s).has_value());  // no timer: wait for input alone

    p.wake(t0 + 10s);  // input: at least three frames, and frames for 250 ms
    for (int i = 0; i < FramePacer::kSettleFrames; ++i) {
        REQUIRE(p.due(t0 + 20s));
        p.drew(t0 + 20s);
    }
    CHECK_FALSE(p.due(t0 + 20s));  // the frames are drawn and the 250 ms long past
    p.wake(t0 + 30s);
    for (int i = 0; i < 10; ++i) p.drew(t0 + 30s + 10ms * i);
    CHECK(p.due(t0 + 30s + 200ms));  // still settling
    CHECK_FALSE(p.due(t0 + 30s + 300ms));
    CHECK(p.wakes() == 2);
}

TEST_CASE("a timer draws one frame when it is due, the earliest first", "[pacer]") {
    FramePacer p;
    const auto t0 = FramePacer::Clock::time_point{} + 100s;
    while (p.due(t0)) p.drew(t0);
    p.wake_at(t0 + 8s);
    p.wake_at(t0 + 20s);  // later: the 8-s timer stays
    CHECK_FALSE(p.due(t0 + 7s));
    REQUIRE(p.wait(t0 + 7s).has_value());
    CHECK(*p.wait(t0 + 7s) == 1s);
    CHECK(p.due(t0 + 8s));
    CHECK(*p.wait(t0 + 8s) == FramePacer::Clock::duration::zero());
    p.drew(t0 + 8s);
    CHECK_FALSE(p.due(t0 + 9s));  // spent
    CHECK_FALSE(p.wait(t0 + 9s).has_value());
}
