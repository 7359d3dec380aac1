#include "normlab/views/frame_pacer.hpp"

#include <algorithm>

namespace normlab::views {

void FramePacer::wake(Clock::time_point now) {
    frames_left_ = std::max(frames_left_, kSettleFrames);
    settle_until_ = std::max(settle_until_, now + kSettleTime);
    ++wakes_;
}

void FramePacer::wake_at(Clock::time_point when) {
    if (!timer_ || when < *timer_) timer_ = when;
}

bool FramePacer::due(Clock::time_point now) const {
    return frames_left_ > 0 || now < settle_until_ || (timer_ && now >= *timer_);
}

void FramePacer::drew(Clock::time_point now) {
    if (frames_left_ > 0) --frames_left_;
    if (timer_ && now >= *timer_) timer_.reset();
    ++frames_;
}

std::optional<FramePacer::Clock::duration> FramePacer::wait(Clock::time_point now) const {
    if (due(now)) return Clock::duration::zero();
    if (!timer_) return std::nullopt;
    return *timer_ - now;
}

}  // namespace normlab::views
