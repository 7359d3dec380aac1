// KeyQueue (normlab/views/key_queue.hpp) without a window: what Dear ImGui would see in each frame when
// keys and characters come faster than the frames (a clicker, xdotool, a fast typist).
#include "normlab/views/key_queue.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

using normlab::views::KeyQueue;

namespace {

std::string name(int key) {
    switch (key) {
        case GLFW_KEY_LEFT_CONTROL: return "Ctrl";
        case GLFW_KEY_ESCAPE: return "Esc";
        case GLFW_KEY_ENTER: return "Enter";
        case GLFW_KEY_RIGHT: return "Right";
        case GLFW_KEY_LEFT_SHIFT: return "Shift";
        default: return std::string(1, static_cast<char>(key));  // GLFW's printable keys are ASCII
    }
}

// The events ImGui receives, frame by frame: "+K" press, "-K" release, "'c'" a character.
struct Frames {
    std::vector<std::vector<std::string>> frames{{}};
    KeyQueue queue{KeyQueue::Sink{
        [this](int key, int, int action, int) {
            if (action != GLFW_REPEAT) frames.back().push_back((action == GLFW_PRESS ? "+" : "-") + name(key));
        },
        [this](unsigned c) { frames.back().push_back("'" + std::string(1, static_cast<char>(c)) + "'"); }}};

    void press(int key, int mods = 0) { queue.key(key, 0, GLFW_PRESS, mods); }
    void release(int key, int mods = 0) { queue.key(key, 0, GLFW_RELEASE, mods); }
    void type(char c) {  // a lowercase letter or '/': press, character, release
        const int key = c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
        press(key);
        queue.character(static_cast<unsigned char>(c));
        release(key);
    }
    // NewFrame reads what came so far; then, between frames, the held events get their turn.
    void frame() {
        queue.take();
        frames.emplace_back();
        queue.release_deferred();
    }
};

using Batch = std::vector<std::string>;

}  // namespace

TEST_CASE("a tap inside one frame: ImGui sees the key down for one frame, up the next", "[keys]") {
    Frames f;
    f.press(GLFW_KEY_ESCAPE);
    f.release(GLFW_KEY_ESCAPE);
    f.frame();
    f.frame();
    CHECK(f.frames[0] == Batch{"+Esc"});
    CHECK(f.frames[1] == Batch{"-Esc"});
    CHECK(f.frames[2].empty());
}

TEST_CASE("Ctrl+A and typing in one frame: the text comes after Ctrl is up, none of it lost", "[keys]") {
    Frames f;
    f.press(GLFW_KEY_LEFT_CONTROL);
    f.press(GLFW_KEY_A, GLFW_MOD_CONTROL);
    f.release(GLFW_KEY_A, GLFW_MOD_CONTROL);
    f.release(GLFW_KEY_LEFT_CONTROL, GLFW_MOD_CONTROL);
    f.type('/');
    f.type('x');
    f.frame();
    f.frame();
    CHECK(f.frames[0] == Batch{"+Ctrl", "+A"});  // select all, with Ctrl down all frame
    CHECK(f.frames[1] == Batch{"-A", "-Ctrl", "+/", "'/'", "-/", "+X", "'x'", "-X"});
    CHECK(f.frames[2].empty());
}

TEST_CASE("text typed just before Ctrl+A reaches ImGui in a frame without Ctrl", "[keys]") {
    Frames f;
    f.type('x');
    f.press(GLFW_KEY_LEFT_CONTROL);
    f.press(GLFW_KEY_A, GLFW_MOD_CONTROL);
    f.release(GLFW_KEY_A, GLFW_MOD_CONTROL);
    f.release(GLFW_KEY_LEFT_CONTROL, GLFW_MOD_CONTROL);
    f.frame();
    f.frame();
    f.frame();
    CHECK(f.frames[0] == Batch{"+X", "'x'", "-X"});  // ImGui 1.86 drops a frame's text while Ctrl is down
    CHECK(f.frames[1] == Batch{"+Ctrl", "+A"});
    CHECK(f.frames[2] == Batch{"-A", "-Ctrl"});
    CHECK(f.queue.holding() == false);
}

TEST_CASE("plain typing is not slowed down: a frame takes every letter", "[keys]") {
    Frames f;
    for (char c : std::string("/tmp/a")) f.type(c);
    f.press(GLFW_KEY_LEFT_SHIFT);  // Shift+minus types '_': Shift's state does not matter here
    f.press(GLFW_KEY_MINUS, GLFW_MOD_SHIFT);
    f.queue.character('_');
    f.release(GLFW_KEY_MINUS, GLFW_MOD_SHIFT);
    f.release(GLFW_KEY_LEFT_SHIFT, GLFW_MOD_SHIFT);
    f.frame();
    REQUIRE(f.frames[0].size() == 6 * 3 + 5);
    CHECK(f.frames[0][20] == "'_'");
    CHECK(f.frames[1].empty());
}

TEST_CASE("held events keep their order: what comes after a held release waits behind it", "[keys]") {
    Frames f;
    f.press(GLFW_KEY_RIGHT);
    f.release(GLFW_KEY_RIGHT);
    f.press(GLFW_KEY_RIGHT);
    f.release(GLFW_KEY_RIGHT);
    f.type('q');
    f.press(GLFW_KEY_ENTER);
    f.frame();
    f.frame();
    f.frame();
    CHECK(f.frames[0] == Batch{"+Right"});
    CHECK(f.frames[1] == Batch{"-Right", "+Right"});  // the second tap: its own frame
    CHECK(f.frames[2] == Batch{"-Right", "+Q", "'q'", "-Q", "+Enter"});
    CHECK(f.frames[3].empty());
}

TEST_CASE("the shortcuts get every press at once, in order, whatever ImGui waits for", "[keys]") {
    KeyQueue q{KeyQueue::Sink{}};
    for (int key : {GLFW_KEY_RIGHT, GLFW_KEY_RIGHT, GLFW_KEY_L}) {
        q.key(key, 0, GLFW_PRESS, 0);
        q.key(key, 0, GLFW_REPEAT, 0);  // a repeat is not a press
        q.key(key, 0, GLFW_RELEASE, 0);
    }
    const auto presses = q.take();
    REQUIRE(presses.size() == 3);
    CHECK(presses[0].key == GLFW_KEY_RIGHT);
    CHECK(presses[1].key == GLFW_KEY_RIGHT);
    CHECK(presses[2].key == GLFW_KEY_L);
    CHECK(q.take().empty());
}
