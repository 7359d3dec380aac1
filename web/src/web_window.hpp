// WebWindow: the browser twin of app/window (the desktop's GLFW + Vulkan frame loop). A GLFW
// window on the page's canvas (emscripten's built-in GLFW with a WebGL2 context) whose drawing
// buffer follows the canvas' size on the page times devicePixelRatio, the Dear ImGui context with
// its GLFW and OpenGL3 ("#version 300 es") backends, the app's fonts as the desktop loads them
// (normlab/views/fonts.hpp: the embedded Latin font, the CJK font the site carries, which app_page.js
// puts into emscripten's file system when Chinese is asked for: before the program starts, or later
// with the atlas made again), and the frame loop through
// emscripten_set_main_loop with ImGui's DeltaTime kept above zero. Keys go through the desktop's
// KeyQueue (normlab/views/key_queue.hpp), so a tap shorter than a frame is neither lost for ImGui nor for
// the shortcuts. ImGui's clipboard is the page's (navigator.clipboard and the page's paste
// events), a frame's pixels can be read back for a PNG, and the page knows when a frame that waits
// for the GPU is suspended (its calls into the program wait).
#pragma once
#include "normlab/views/fonts.hpp"
#include "normlab/views/frame_pacer.hpp"
#include "normlab/views/key_queue.hpp"
#include "normlab/views/touch_input.hpp"
#include "normlab/views/png_file.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

struct GLFWwindow;

namespace normlab::web {

struct WebWindowOptions {
    std::string canvas = "#canvas";  // the page's canvas (a CSS selector)
    std::string glyph_text;          // extra text whose CJK glyphs the font atlas must hold
};

class WebWindow {
public:
    // Throws DeviceError with what the browser lacks (no WebGL2 context).
    explicit WebWindow(const WebWindowOptions& options);
    ~WebWindow();
    WebWindow(const WebWindow&) = delete;
    WebWindow& operator=(const WebWindow&) = delete;

    // Calls frame() once per animation frame of the browser while `pacer` has a frame due, between
    // begin_frame() and end_frame(), for as long as the page lives; returns at once (the runtime
    // stays after main). An idle page pauses the loop: the page's input events (pointer, touch,
    // keys, wheel, focus, the canvas resized), wake() and the pacer's timer resume it. The window
    // and the pacer must outlive the page (allocate them once, never destroy them while looping).
    void run(std::function<void()> frame, views::FramePacer& pacer);
    // Something changed outside the page's input (a call into the program): draw the next frames.
    void wake();
    // A finger on the canvas (kind 0 start, 1 move, 2 end; canvas pixels; the event's time in seconds on
    // emscripten_get_now's clock), and a real mouse used.
    void touch(int kind, int id, float x, float y, double t);
    void mouse_used() { touch_.mouse_used(); }
    // Resizes the drawing buffer to the canvas' CSS size × devicePixelRatio (fonts and style are
    // made again when the ratio changes, so text stays crisp), then starts an ImGui frame.
    void begin_frame();
    // ImGui::Render(), then clears the canvas and draws ImGui's draw data.
    void end_frame();

    // The key presses since the last call, in order (normlab/views/key_queue.hpp); once a frame, after
    // begin_frame().
    std::vector<views::KeyPress> take_key_presses() { return keys_.take(); }

    const views::FontSet& fonts() const { return fonts_; }
    // The fonts and their atlas made again (a CJK font written into the file system since); between
    // frames only.
    void reload_fonts() { load_fonts(ui_scale_); }
    // ImGui's units are the canvas' pixels: the UI is drawn ui_scale() (devicePixelRatio, at
    // least 1) times larger than at 96 dpi.
    float ui_scale() const { return ui_scale_; }
    // The fonts' raster scale: ui_scale(), or less when the atlas would not fit WebGL's largest texture.
    float raster_scale() const { return raster_scale_; }
    // Canvas pixels per CSS pixel (devicePixelRatio).
    double css_scale() const { return css_scale_; }
    int width() const { return width_; }
    int height() const { return height_; }
    // Frames drawn so far.
    long frames() const { return frames_; }
    // After the next frame is drawn (a menu clicked in this one has closed by then), its pixels, read
    // from the drawing buffer before the browser shows it, go to `done`.
    void capture_next_frame(std::function<void(views::RgbaImage)> done);
    // ImGui's clipboard is the page's: text ImGui copies (Ctrl+C in a field, SetClipboardText) also goes to
    // the system clipboard (navigator.clipboard); the page's paste events set what ImGui pastes.
    static void set_pasted_text(const std::string& text);

private:
    void load_fonts(float scale);
    void follow_canvas();
    void tick();
    GLFWwindow* window_ = nullptr;
    std::string canvas_, glyph_text_;
    views::FontSet fonts_;
    float ui_scale_ = 0, raster_scale_ = 0;
    double css_scale_ = 1;
    int width_ = 0, height_ = 0;
    long frames_ = 0;
    bool imgui_glfw_ = false, imgui_gl_ = false;
    std::function<void()> frame_;
    views::FramePacer* pacer_ = nullptr;
    bool paused_ = false;  // the loop waits for wake()
    std::function<void(views::RgbaImage)> capture_;
    long capture_frame_ = -1;  // the frame whose pixels capture_ gets
    views::KeyQueue keys_;     // chained after ImGui's GLFW key and char callbacks
    views::TouchInput touch_;  // fingers as ImGui's mouse
};

}  // namespace normlab::web
