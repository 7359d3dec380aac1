// Window: the GLFW window, the VulkanContext made for it (surface, swapchain and frames via
// Dear ImGui's Vulkan helpers), Dear ImGui's GLFW + Vulkan backends, and capture of a frame
// into an offscreen image written as PNG (the same draw data, so it looks like the window).
#pragma once
#include "normlab/views/key_queue.hpp"
#include "normlab/views/offscreen.hpp"
#include "normlab/views/fonts.hpp"
#include "normlab/gpu/vk_context.hpp"

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <optional>
#include <vector>

struct GLFWwindow;
struct ImDrawData;

namespace normlab::app {

// Records work that must happen outside the render pass (compute dispatches, barriers) into
// the frame's command buffer before ImGui's draw data is rendered into `extent`.
// (BeforePass: normlab/views/offscreen.hpp.)

struct WindowOptions {
    int width = 1600, height = 900;
    bool unlimited_fps = false;  // mailbox/immediate present (for --frames timing)
    std::string title = "normlab";
    std::string glyph_text;  // extra text whose CJK glyphs the font atlas must hold (lessons)
    float ui_scale = 0;      // 0: the monitor's (NORMLAB_UI_SCALE or the window's content scale)
};

class Window {
public:
    // Throws DeviceError with a message a user can act on (no display, no Vulkan device).
    explicit Window(const WindowOptions& options);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    bool should_close() const;
    // Takes the events that arrived, without waiting.
    void poll();
    // Waits for an event (at most `timeout_s` when given), then takes the events; returns at once
    // while a key is held back for the next frame (key_queue.hpp).
    void wait_events(std::optional<double> timeout_s);
    // The key presses polled since the last call, in order (see key_queue.hpp).
    std::vector<views::KeyPress> take_key_presses();
    // Rebuilds the swapchain after a resize and starts an ImGui frame.
    void new_frame();
    // ImGui::Render(), then draws it to the swapchain and presents.
    void render(const views::BeforePass& before_pass);
    // Draws the last ImGui::Render() result into an offscreen image and writes it as PNG;
    // with a non-empty `crop` (x, y, w, h in pixels) only that rectangle. Atomic write.
    void capture(const views::BeforePass& before_pass, const std::string& png_path,
                 std::array<int, 4> crop = {0, 0, 0, 0});

    const gpu::VulkanContext& context() const { return *ctx_; }
    vk::RenderPass render_pass() const;
    const views::FontSet& fonts() const { return fonts_; }
    // HiDPI: how much larger than at 96 dpi the UI is drawn (fonts, style, presenter layout).
    float ui_scale() const { return ui_scale_; }

private:
    void open_context();
    void open_swapchain(const WindowOptions& options);
    void init_imgui(const WindowOptions& options);
    void set_scales(float forced);
    struct Impl;
    GLFWwindow* window_ = nullptr;
    std::unique_ptr<gpu::VulkanContext> ctx_;
    std::unique_ptr<Impl> impl_;
    views::FontSet fonts_;
    float ui_scale_ = 1, fb_scale_ = 1;
};

}  // namespace normlab::app
