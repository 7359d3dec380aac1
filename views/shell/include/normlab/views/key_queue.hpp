// KeyQueue: every key press GLFW reports, in order, until the frame's shortcuts take them, and
// the hand-over of key and character events to Dear ImGui, in order, one frame's worth at a time.
// ImGui 1.86 keeps only per-frame key state, so a press and release inside one frame (a
// presentation clicker, a quick tap on a slow frame) would vanish for it, and a character typed
// right after a quick Ctrl+A would be read as Ctrl+/ and dropped. So the events reach ImGui (the
// callbacks found at install) in the order they came, but a frame's batch ends before the release
// of a key ImGui reads by its state (Enter, Esc, arrows, Backspace, Ctrl+letter…) pressed in the
// same batch, before a modifier's release after such a press, and before a Ctrl (or Super)
// press after a character (ImGui would drop that character); the rest waits for the next frame
// (release_deferred, between frames). Nothing reaches ImGui in the middle of a frame.
#pragma once
#include <deque>
#include <functional>
#include <vector>

struct GLFWwindow;

namespace normlab::views {

struct KeyPress {
    int key = 0;   // GLFW_KEY_*
    int mods = 0;  // GLFW_MOD_* held at the press
};

class KeyQueue {
public:
    // Where events go once their frame comes: ImGui's GLFW callbacks in the app, a recorder in tests.
    struct Sink {
        std::function<void(int key, int scancode, int action, int mods)> key;
        std::function<void(unsigned codepoint)> character;
    };

    KeyQueue() = default;
    explicit KeyQueue(Sink sink) : sink_(std::move(sink)) {}
    KeyQueue(const KeyQueue&) = delete;
    KeyQueue& operator=(const KeyQueue&) = delete;
    ~KeyQueue();

    // After ImGui_ImplGlfw_InitForVulkan(window, true): ImGui's key and char callbacks become the
    // sink. One queue per process.
    void install(GLFWwindow* window);
    // Restores the callbacks found at install (before ImGui's backend shuts down).
    void uninstall();

    // What the GLFW callbacks receive.
    void key(int key, int scancode, int action, int mods);
    void character(unsigned codepoint);

    // The presses since the last call, oldest first (key repeats are not presses). Call once a
    // frame after ImGui::NewFrame(): the next events belong to the next frame.
    std::vector<KeyPress> take();
    // Hands the sink the events held back, as far as one frame allows. Call between frames,
    // before polling events.
    void release_deferred();
    // Events still wait for a later frame (the app should not sleep waiting for new ones).
    bool holding() const { return !held_.empty(); }

private:
    struct Event {
        bool is_char = false;
        int key = 0, scancode = 0, action = 0, mods = 0;
        unsigned codepoint = 0;
    };
    bool fits_this_frame(const Event& e) const;
    void forward(const Event& e);
    void offer(const Event& e);

    Sink sink_;
    GLFWwindow* window_ = nullptr;
    void (*previous_key_)(GLFWwindow*, int, int, int, int) = nullptr;
    void (*previous_char_)(GLFWwindow*, unsigned) = nullptr;
    std::vector<KeyPress> presses_;
    std::deque<Event> held_;       // not yet handed over, oldest first
    std::vector<int> state_keys_;  // state-read keys pressed in this frame's batch
    bool characters_ = false;      // a character went to ImGui in this frame's batch
};

}  // namespace normlab::views
