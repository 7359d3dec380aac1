// SoakDriver (normlab --soak FRAMES): changes method, shape, G and the selection every few
// frames, as a busy classroom would, and measures whether the app leaks: resident and virtual
// memory (/proc/self/statm; lavapipe allocates device memory, buffers and pipelines from host
// memory, so leaked Vulkan objects show up there) and open file descriptors, after warm-up and
// at the end (warm-up: one full cycle of the state combinations). report() prints one "soak:" line and returns false on
// growth of 5 % or more.
#pragma once
#include <cstdint>

namespace normlab::session {
class Session;
}  // namespace normlab::session

namespace normlab::app {

class SoakDriver {
public:
    explicit SoakDriver(int frames, int every = 4);
    // Call before drawing frame `frame` (0-based): applies the next state every `every` frames.
    void before_frame(int frame, session::Session& session);
    // Call after frame `frame` (0-based) was rendered: samples memory at warm-up and the end.
    void after_frame(int frame);
    bool report() const;

private:
    struct Sample {
        double rss_mib = 0, vm_mib = 0;
        int fds = 0;
    };
    static Sample sample();
    int frames_, every_, warmup_;
    int applied_ = 0, refused_ = 0;
    Sample warm_, end_;
};

}  // namespace normlab::app
