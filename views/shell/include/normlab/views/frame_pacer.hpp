// FramePacer: when an app that draws only on change must draw its next frame. Nothing changing
// means no frame: input and every other change (a page's call into the program, a file opened, a
// window resized) wake it for a few frames — ImGui 1.86 needs a couple to settle: a click's
// release, a menu that opens, a window that fits its contents —, and a timer can ask for one frame
// later (a status message that fades). Both apps' frame loops consult it: the desktop waits for
// events meanwhile (app/window), the browser pauses its animation-frame loop (web/src/web_window).
#pragma once
#include <chrono>
#include <optional>

namespace normlab::views {

class FramePacer {
public:
    using Clock = std::chrono::steady_clock;
    // After a wake: at least this many frames, and frames until this long after it.
    static constexpr int kSettleFrames = 3;
    static constexpr std::chrono::milliseconds kSettleTime{250};

    // Something changed at `now`: draw the next frames.
    void wake(Clock::time_point now = Clock::now());
    // Draw one frame at `when` (the earliest of the timers asked for is kept).
    void wake_at(Clock::time_point when);
    // Whether a frame is due at `now`.
    bool due(Clock::time_point now = Clock::now()) const;
    // A frame was drawn at `now` (a timer that was due is spent).
    void drew(Clock::time_point now = Clock::now());
    // How long the loop may wait for input before the next frame is due: zero when one is due,
    // nothing when no timer is set (wait for input alone).
    std::optional<Clock::duration> wait(Clock::time_point now = Clock::now()) const;
    // Frames drawn and wakes so far (the tests' measure of an idle app).
    long frames() const { return frames_; }
    long wakes() const { return wakes_; }

private:
    int frames_left_ = kSettleFrames;  // the first frames draw without a wake
    Clock::time_point settle_until_{};
    std::optional<Clock::time_point> timer_;
    long frames_ = 0, wakes_ = 0;
};

}  // namespace normlab::views
