#include "normlab/views/key_queue.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <utility>

namespace normlab::views {
namespace {

KeyQueue* g_queue = nullptr;  // GLFW callbacks take no user data; the app has one window

bool is_modifier(int key) { return key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER; }

// Modifiers under which ImGui 1.86's text fields drop the frame's characters (Ctrl; Super on macOS).
bool mutes_characters(int key) {
    return key == GLFW_KEY_LEFT_CONTROL || key == GLFW_KEY_RIGHT_CONTROL || key == GLFW_KEY_LEFT_SUPER ||
           key == GLFW_KEY_RIGHT_SUPER;
}

// Keys whose text comes through the character callback; ImGui reads their state only with
// Ctrl, Alt or Super held (Ctrl+A, Ctrl+C…).
bool is_printable(int key) {
    return (key >= GLFW_KEY_SPACE && key <= GLFW_KEY_GRAVE_ACCENT) || key == GLFW_KEY_WORLD_1 ||
           key == GLFW_KEY_WORLD_2;
}

// A key ImGui reads by its state in a frame: its press and release must not share one.
bool state_read(int key, int mods) {
    if (key == GLFW_KEY_UNKNOWN || is_modifier(key)) return false;
    return !is_printable(key) || (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) != 0;
}

void on_key(GLFWwindow*, int key, int scancode, int action, int mods) {
    if (g_queue) g_queue->key(key, scancode, action, mods);
}

void on_char(GLFWwindow*, unsigned codepoint) {
    if (g_queue) g_queue->character(codepoint);
}

}  // namespace

KeyQueue::~KeyQueue() { uninstall(); }

void KeyQueue::install(GLFWwindow* window) {
    uninstall();
    window_ = window;
    g_queue = this;
    previous_key_ = glfwSetKeyCallback(window, &on_key);
    previous_char_ = glfwSetCharCallback(window, &on_char);
    sink_.key = [this](int k, int s, int a, int m) {
        if (previous_key_) previous_key_(window_, k, s, a, m);
    };
    sink_.character = [this](unsigned c) {
        if (previous_char_) previous_char_(window_, c);
    };
}

void KeyQueue::uninstall() {
    if (!window_) return;
    glfwSetKeyCallback(window_, previous_key_);
    glfwSetCharCallback(window_, previous_char_);
    if (g_queue == this) g_queue = nullptr;
    window_ = nullptr;
    previous_key_ = nullptr;
    previous_char_ = nullptr;
    sink_ = {};
}

void KeyQueue::key(int key, int scancode, int action, int mods) {
    if (action == GLFW_PRESS && key != GLFW_KEY_UNKNOWN) presses_.push_back(KeyPress{key, mods});
    offer(Event{false, key, scancode, action, mods, 0});
}

void KeyQueue::character(unsigned codepoint) { offer(Event{true, 0, 0, 0, 0, codepoint}); }

std::vector<KeyPress> KeyQueue::take() {
    state_keys_.clear();  // ImGui::NewFrame has read this frame's batch
    characters_ = false;
    return std::exchange(presses_, {});
}

void KeyQueue::release_deferred() {
    // Between frames: the ImGui backend sets io.KeyCtrl & co. from its callback, and ImGui 1.86
    // asserts (InputTextEx) when they change after NewFrame took io.KeyMods from them.
    while (!held_.empty() && fits_this_frame(held_.front())) {
        forward(held_.front());
        held_.pop_front();
    }
}

bool KeyQueue::fits_this_frame(const Event& e) const {
    if (e.is_char) return true;
    // Text typed just before Ctrl goes down reaches the field in a frame without Ctrl.
    if (e.action == GLFW_PRESS) return !(characters_ && mutes_characters(e.key));
    if (e.action != GLFW_RELEASE) return true;
    // ImGui sees a state-read key down for one frame first, and Ctrl down with that Ctrl+A.
    const bool pressed_now = std::find(state_keys_.begin(), state_keys_.end(), e.key) != state_keys_.end();
    return !pressed_now && !(is_modifier(e.key) && !state_keys_.empty());
}

void KeyQueue::forward(const Event& e) {
    if (e.is_char) {
        characters_ = true;
        if (sink_.character) sink_.character(e.codepoint);
        return;
    }
    if (e.action == GLFW_PRESS && state_read(e.key, e.mods)) state_keys_.push_back(e.key);
    if (sink_.key) sink_.key(e.key, e.scancode, e.action, e.mods);
}

void KeyQueue::offer(const Event& e) {
    if (held_.empty() && fits_this_frame(e))
        forward(e);
    else
        held_.push_back(e);  // behind what waits already: order is kept
}

}  // namespace normlab::views
