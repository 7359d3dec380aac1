#include "key_queue.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <utility>

namespace normlab::app {
namespace {

KeyQueue* g_queue = nullptr;  // GLFW callbacks take no user data; the app has one window

}  // namespace

KeyQueue::~KeyQueue() { uninstall(); }

void KeyQueue::install(GLFWwindow* window) {
    uninstall();
    window_ = window;
    g_queue = this;
    previous_ = glfwSetKeyCallback(window, &KeyQueue::on_key);
}

void KeyQueue::uninstall() {
    if (!window_) return;
    glfwSetKeyCallback(window_, previous_);
    if (g_queue == this) g_queue = nullptr;
    window_ = nullptr;
    previous_ = nullptr;
}

std::vector<KeyPress> KeyQueue::take() {
    deferred_ = std::exchange(held_, {});  // ImGui sees these keys down for this whole frame
    return std::exchange(presses_, {});
}

void KeyQueue::release_deferred() {
    // Between frames: the ImGui backend sets io.KeyCtrl & co. from its callback, and ImGui 1.86
    // asserts (InputTextEx) when they change after NewFrame took io.KeyMods from them.
    for (const Event& e : std::exchange(deferred_, {}))
        if (previous_) previous_(window_, e.key, e.scancode, e.action, e.mods);
}

void KeyQueue::on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
    KeyQueue* q = g_queue;
    if (!q) return;
    const bool pressed_this_frame =
        std::any_of(q->presses_.begin(), q->presses_.end(), [&](const KeyPress& p) { return p.key == key; });
    if (action == GLFW_RELEASE && key != GLFW_KEY_UNKNOWN && (pressed_this_frame || !q->held_.empty()))
        q->held_.push_back(Event{key, scancode, action, mods});  // ImGui sees it down for one frame first
    else if (q->previous_)
        q->previous_(window, key, scancode, action, mods);  // ImGui's own
    if (action == GLFW_PRESS && key != GLFW_KEY_UNKNOWN) q->presses_.push_back(KeyPress{key, mods});
}

}  // namespace normlab::app
