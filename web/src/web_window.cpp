#include "web_window.hpp"

#include "normlab/views/i18n.hpp"

#include "normlab/core/error.hpp"

#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_internal.h>  // the active item: a slider held by a finger

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <utility>

namespace normlab::web {
namespace {

std::string g_glfw_error;

void glfw_error(int code, const char* description) {
    g_glfw_error = description ? description : ("GLFW error " + std::to_string(code));
}

std::string g_clipboard;  // what ImGui pastes: the last text copied in the app or pasted into the page

const char* get_clipboard(void*) { return g_clipboard.c_str(); }

// clang-format off
EM_JS(void, js_copy_text, (const char* text), {
    if (navigator.clipboard) navigator.clipboard.writeText(UTF8ToString(text)).catch(function () {});
});
// clang-format on

void set_clipboard(void*, const char* text) {
    g_clipboard = text ? text : "";
    js_copy_text(g_clipboard.c_str());
}

// Whether a frame is under way: a frame that waits for the GPU (Asyncify) returns to the browser
// before it ends, and the page's calls into the program (app_page.js) wait until it has.
// clang-format off
EM_JS(void, js_frame_under_way, (int on), {
    window.normlabFrameUnderWay = !!on;
    if (!on) window.normlabFrames = (window.normlabFrames || 0) + 1;  // frames drawn (the idle test counts them)
});
// clang-format on

// Every input the page gets (also while a frame waits for the GPU: the call only marks frames due)
// wakes the frame loop, and so do the canvas changing size (the window resized, zoomed, rotated) and
// devicePixelRatio changing. Touches on the canvas go to TouchInput (normlab_window_touch: kind 0
// start, 1 move, 2 end; canvas pixels; the event's time, so that a frame that keeps the page busy
// does not stretch a double tap), not to the browser (no scrolling, zooming or emulated mouse
// events) nor to emscripten's GLFW (which would press the mouse at a stale position); a real
// mouse gives ImGui its pointer back (normlab_window_mouse).
// clang-format off
EM_JS(void, js_wake_on_input, (const char* canvas), {
    const wake = function () { _normlab_window_wake(); };
    ['pointerdown', 'pointerup', 'pointermove', 'pointercancel', 'mousedown', 'mouseup', 'mousemove', 'wheel',
     'keydown', 'keyup', 'focus', 'blur', 'resize', 'paste', 'visibilitychange'].forEach(function (type) {
        window.addEventListener(type, wake, { capture: true, passive: true });
    });
    const element = document.querySelector(UTF8ToString(canvas));
    if (element && window.ResizeObserver) new ResizeObserver(wake).observe(element);
    // devicePixelRatio (browser zoom, a window moved to another screen, device emulation) fires no
    // event every browser sends: one comparison four times a second, no frame unless it changed.
    let ratio = window.devicePixelRatio;
    setInterval(function () {
        if (window.devicePixelRatio !== ratio) {
            ratio = window.devicePixelRatio;
            wake();
        }
    }, 250);
    ['mousemove', 'mousedown'].forEach(function (type) {
        window.addEventListener(type, function (e) {
            if (!e.sourceCapabilities || !e.sourceCapabilities.firesTouchEvents) _normlab_window_mouse();
        }, { capture: true, passive: true });
    });
    if (!element) return;
    element.style.touchAction = 'none';
    const kinds = { touchstart: 0, touchmove: 1, touchend: 2, touchcancel: 2 };
    Object.keys(kinds).forEach(function (type) {
        window.addEventListener(type, function (e) {
            if (e.target !== element) return;
            e.preventDefault();
            e.stopPropagation();
            const rect = element.getBoundingClientRect();
            const now = performance.now();  // the event's time when the browser gives a plausible one
            const at = (e.timeStamp > 0 && e.timeStamp <= now && now - e.timeStamp < 2000 ? e.timeStamp : now) / 1000;
            for (let i = 0; i < e.changedTouches.length; ++i) {
                const t = e.changedTouches[i];
                _normlab_window_touch(kinds[type], t.identifier, (t.clientX - rect.left) * element.width / rect.width,
                                      (t.clientY - rect.top) * element.height / rect.height, at);
            }
        }, { capture: true, passive: false });
    });
});
EM_JS(void, js_wake_after, (double ms), { setTimeout(function () { _normlab_window_wake(); }, ms); });
// clang-format on

// Browser.setCanvasSize, what glfwSetWindowSize calls but without its fullscreen request when
// the size equals the screen's; its resize listener tells GLFW (window and framebuffer size).
// clang-format off
EM_JS(void, js_set_canvas_size, (int w, int h), { Browser.setCanvasSize(w, h); });
// clang-format on

}  // namespace

WebWindow::WebWindow(const WebWindowOptions& options) : canvas_(options.canvas), glyph_text_(options.glyph_text) {
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) throw core::DeviceError("cannot start GLFW in this page: " + g_glfw_error);
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    window_ = glfwCreateWindow(640, 480, "normlab", nullptr, nullptr);  // resized to the canvas below
    if (!window_) {
        glfwTerminate();
        throw core::DeviceError("this browser gives the page no WebGL2 context for its canvas" +
                                (g_glfw_error.empty() ? std::string() : " (" + g_glfw_error + ")"));
    }
    glfwMakeContextCurrent(window_);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // the layout is computed, never restored from imgui.ini
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    imgui_glfw_ = true;
    ImGui::GetIO().SetClipboardTextFn = set_clipboard;  // after the GLFW backend, which sets its own
    ImGui::GetIO().GetClipboardTextFn = get_clipboard;
    keys_.install(window_);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    imgui_gl_ = true;
    follow_canvas();
}

WebWindow::~WebWindow() {
    emscripten_cancel_main_loop();
    keys_.uninstall();  // ImGui's callbacks back in place, so its shutdown restores GLFW's
    if (imgui_gl_) ImGui_ImplOpenGL3_Shutdown();
    if (imgui_glfw_) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window_);
    glfwTerminate();
}

// The fonts and the style at `scale` (views/panels/src/fonts.cpp, as the desktop's ImGuiVulkan loads them),
// the atlas built here so that it fits WebGL's largest texture: wider first, then rasterized
// smaller and drawn scaled up.
void WebWindow::load_fonts(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    GLint max_texture = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture);
    float raster = scale;
    io.Fonts->Flags |= ImFontAtlasFlags_NoPowerOfTwoHeight;  // WebGL2 takes any size: no rows wasted
    // ImGui 1.86's OpenGL3 backend makes its buffers and font texture at its first frame; after that
    // only the font texture is made again (recreating its buffers would leave their sizes stale).
    const bool remake_texture = ui_scale_ > 0;
    if (remake_texture) ImGui_ImplOpenGL3_DestroyFontsTexture();
    for (int width = 4096;;) {
        io.Fonts->Clear();
        fonts_ = views::load_fonts(glyph_text_, raster);
        io.Fonts->TexDesiredWidth = std::min(width, static_cast<int>(max_texture));
        io.Fonts->Build();
        if (io.Fonts->TexHeight <= max_texture || raster <= 1.0f) break;
        if (width < max_texture)
            width = max_texture;
        else
            raster = std::max(1.0f, raster * 0.75f);
    }
    if (remake_texture) ImGui_ImplOpenGL3_CreateFontsTexture();
    io.FontDefault = fonts_.normal;
    io.FontGlobalScale = scale / raster;  // ImGui's units are canvas pixels
    views::set_cjk_font(fonts_.cjk, fonts_.cjk_missing);
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    ImGui::StyleColorsDark();
    style.WindowRounding = 0.0f;
    style.ScaleAllSizes(scale);
    ui_scale_ = scale;
    raster_scale_ = raster;
}

// The drawing buffer as large as the canvas is on the page, in device pixels.
void WebWindow::follow_canvas() {
    double css_w = 0, css_h = 0;
    emscripten_get_element_css_size(canvas_.c_str(), &css_w, &css_h);
    const double dpr = emscripten_get_device_pixel_ratio();
    css_scale_ = dpr > 0 ? dpr : 1;
    const int w = std::max(1, static_cast<int>(std::lround(css_w * dpr)));
    const int h = std::max(1, static_cast<int>(std::lround(css_h * dpr)));
    if (w != width_ || h != height_) {
        js_set_canvas_size(w, h);
        width_ = w;
        height_ = h;
    }
    const float scale = std::clamp(static_cast<float>(dpr), 1.0f, 4.0f);
    if (scale != ui_scale_) load_fonts(scale);
}

void WebWindow::begin_frame() {
    follow_canvas();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // Emscripten's GLFW clock can give two frames the same time: ImGui asserts on a DeltaTime of 0.
    ImGuiIO& io = ImGui::GetIO();
    if (!(io.DeltaTime > 0.0f)) io.DeltaTime = 1.0f / 1000.0f;
    const auto touch = touch_.frame(emscripten_get_now() / 1000.0);
    views::set_frame_touch(touch);  // the views' gestures: the heatmap's pinch and double tap
    if (touch) {                    // a finger is ImGui's mouse (touch_input.hpp)
        io.MousePos = ImVec2(touch->x, touch->y);
        io.MouseDown[0] = touch->left;
        io.MouseDown[1] = touch->right;
        io.MouseWheel += touch->wheel_y;
        io.MouseWheelH += touch->wheel_x;
    }
    ImGui::NewFrame();
    if (touch && touch->cancel_press) ImGui::ClearActiveID();  // a press that became a scroll does not act
}

void WebWindow::end_frame() {
    ImGui::Render();
    glViewport(0, 0, width_, height_);
    glClearColor(0.06f, 0.06f, 0.07f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (capture_ && frames_ >= capture_frame_) {
        // Read in the frame's own task: without preserveDrawingBuffer the buffer is cleared once shown.
        views::RgbaImage shot{width_, height_,
                              std::vector<unsigned char>(static_cast<std::size_t>(width_) * height_ * 4)};
        std::vector<unsigned char> rows(shot.rgba.size());
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
        const auto row_bytes = static_cast<std::size_t>(width_) * 4;
        for (int y = 0; y < height_; ++y)  // GL's rows go bottom up, a PNG's top down
            std::copy_n(
                rows.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(height_ - 1 - y) * row_bytes),
                row_bytes, shot.rgba.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * row_bytes));
        for (std::size_t i = 3; i < shot.rgba.size(); i += 4) shot.rgba[i] = 255;  // the canvas is opaque
        auto done = std::exchange(capture_, nullptr);
        done(std::move(shot));
    }
    ++frames_;
}

void WebWindow::capture_next_frame(std::function<void(views::RgbaImage)> done) {
    capture_ = std::move(done);
    capture_frame_ = frames_ + 1;
    wake();
}

void WebWindow::set_pasted_text(const std::string& text) { g_clipboard = text; }

// The one window of the page (the frame loop's, and the input listeners' wake target).
WebWindow* g_window = nullptr;

void WebWindow::tick() {
    if (!pacer_->due()) {  // idle: no frame until an event, a call or the timer wakes the loop
        emscripten_pause_main_loop();
        paused_ = true;
        if (const auto wait = pacer_->wait()) js_wake_after(std::chrono::duration<double, std::milli>(*wait).count());
        return;
    }
    js_frame_under_way(1);
    keys_.release_deferred();  // between frames: the events held back for this one
    begin_frame();
    frame_();
    end_frame();
    pacer_->drew();
    // A slider held by a finger is dragged, not scrolled (ImGui's sliders and drags ask for ←/→).
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    touch_.set_slider_active(g.ActiveId != 0 &&
                             (g.ActiveIdUsingNavDirMask & ((1u << ImGuiDir_Left) | (1u << ImGuiDir_Right))) != 0);
    if (touch_.busy()) pacer_->wake();  // a finger down, or steps still to give
    js_frame_under_way(0);
}

void WebWindow::touch(int kind, int id, float x, float y, double t) {
    // A long press counts from when the program learns of the finger (a busy page must not turn a tap
    // into one); a double tap from the releases' own times (a busy page must not stretch one apart).
    const double now = emscripten_get_now() / 1000.0;
    if (kind == 0) {
        touch_.set_options({10 * ui_scale_, 0.5, 5 * views::kNormalFontPx * ui_scale_});
        touch_.start(id, x, y, now);
    } else if (kind == 1) {
        touch_.move(id, x, y, now);
    } else {
        touch_.end(id, x, y, t);
    }
    wake();
    if (const auto at = touch_.long_press_at())  // a frame when the finger becomes a long press
        pacer_->wake_at(views::FramePacer::Clock::now() +
                        std::chrono::duration_cast<views::FramePacer::Clock::duration>(
                            std::chrono::duration<double>(*at - now + 0.01)));
}

void WebWindow::wake() {
    if (!pacer_) return;
    pacer_->wake();
    if (paused_) {
        paused_ = false;
        emscripten_resume_main_loop();
    }
}

void WebWindow::run(std::function<void()> frame, views::FramePacer& pacer) {
    frame_ = std::move(frame);
    pacer_ = &pacer;
    g_window = this;
    js_wake_on_input(canvas_.c_str());
    emscripten_set_main_loop_arg([](void* self) { static_cast<WebWindow*>(self)->tick(); }, this, 0, false);
}

}  // namespace normlab::web

// The page's input listeners and the pacer's timer (js_wake_on_input, js_wake_after).
extern "C" EMSCRIPTEN_KEEPALIVE void normlab_window_wake() {
    if (normlab::web::g_window) normlab::web::g_window->wake();
}

extern "C" EMSCRIPTEN_KEEPALIVE void normlab_window_touch(int kind, int id, float x, float y, double t) {
    if (normlab::web::g_window) normlab::web::g_window->touch(kind, id, x, y, t);
}

extern "C" EMSCRIPTEN_KEEPALIVE void normlab_window_mouse() {
    if (normlab::web::g_window) normlab::web::g_window->mouse_used();
}
