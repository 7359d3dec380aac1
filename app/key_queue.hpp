// KeyQueue: every key press GLFW reports, in order, until the frame's shortcuts take them.
// Dear ImGui 1.86 keeps only per-frame key state, so a press and release inside one frame (a
// presentation clicker, a quick tap on a slow frame) would vanish; this queue's GLFW key
// callback is installed after ImGui's and calls it, so ImGui still sees every key. The release
// of a key pressed in the same frame reaches ImGui after that frame (release_deferred, before
// the next events are polled), so ImGui's own widgets (Enter, Esc, Ctrl+A in a text field) see
// the tap too, and the modifiers never change in the middle of a frame.
#pragma once
#include <vector>

struct GLFWwindow;

namespace normlab::app {

struct KeyPress {
    int key = 0;   // GLFW_KEY_*
    int mods = 0;  // GLFW_MOD_* held at the press
};

class KeyQueue {
public:
    KeyQueue() = default;
    KeyQueue(const KeyQueue&) = delete;
    KeyQueue& operator=(const KeyQueue&) = delete;
    ~KeyQueue();

    // After ImGui_ImplGlfw_InitForVulkan(window, true); one queue per process.
    void install(GLFWwindow* window);
    // Restores the callback found at install (before ImGui's backend shuts down).
    void uninstall();
    // The presses since the last call, oldest first (key repeats are not presses). Call once a
    // frame after ImGui::NewFrame().
    std::vector<KeyPress> take();
    // Hands ImGui the releases take() held back. Call between frames, before polling events.
    void release_deferred();

private:
    static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods);
    GLFWwindow* window_ = nullptr;
    void (*previous_)(GLFWwindow*, int, int, int, int) = nullptr;
    struct Event {
        int key, scancode, action, mods;
    };
    std::vector<KeyPress> presses_;
    std::vector<Event> deferred_;  // held_ at the last take(), for release_deferred()
    std::vector<Event> held_;      // releases of keys pressed since the last take(), for ImGui
};

}  // namespace normlab::app
