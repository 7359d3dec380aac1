// normlab: the desktop app. Opens a window with the State given by the same options as
// normlab-cli (plus --select, --scene), normalized on the GPU; classroom options choose
// presenter mode, language, a lesson step or an experiment at start; --screenshot and
// --frames render without a person (tests, figures, frame-time measurement).
#include "app_ui.hpp"
#include "i18n.hpp"
#include "session.hpp"
#include "soak_driver.hpp"
#include "state_options.hpp"
#include "window.hpp"

#include "normlab/error.hpp"

#include <CLI/CLI.hpp>
#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

using namespace normlab;
using namespace normlab::app;

namespace {

struct AppOptions {
    std::string screenshot;
    int frames = 0;
    int width = 1600, height = 900;
    std::string heatmap, colormap, palette;
    bool dump_layout = false;
    bool presenter = false, compare = false, cube = false, help = false;
    std::string lang = "en";
    std::string lessons_dir, lesson, lesson_id, experiment, export_dir = "normlab-export";
    int step = 1;
};

// assets/ next to the binary's install prefix, NORMLAB_ASSETS, or the source tree's.
std::string assets_dir(const char* argv0) {
    if (const char* env = std::getenv("NORMLAB_ASSETS")) return env;
    std::error_code ec;
    auto exe = std::filesystem::canonical("/proc/self/exe", ec);
    if (ec) exe = std::filesystem::absolute(argv0, ec);
    for (auto p : {exe.parent_path() / "../share/normlab/assets", exe.parent_path() / "../assets"})
        if (std::filesystem::is_directory(p / "lessons", ec)) return p.lexically_normal().string();
    return NORMLAB_SOURCE_ASSETS;
}

void dump_layout(const HeatmapView& h, const Session& s) {
    const TileLayout& t = h.layout();
    std::printf("{\"origin\": [%.1f, %.1f], \"cell\": %.4f, \"gap\": %.1f, \"tile\": [%.4f, %.4f], \"image\": [%d, %d], "
                "\"shape\": [%lld, %lld, %lld, %lld], \"stat_count\": %lld, \"stat_stride\": %lld",
                h.origin_x(), h.origin_y(), t.cell, t.gap, t.tile_w(), t.tile_h(), t.width, t.height,
                static_cast<long long>(t.shape.n), static_cast<long long>(t.shape.c), static_cast<long long>(t.shape.h),
                static_cast<long long>(t.shape.w), static_cast<long long>(s.layout().stat_count),
                static_cast<long long>(s.layout().stat_stride));
    if (auto st = s.selected_stat()) std::printf(", \"selected_stat\": %lld", static_cast<long long>(*st));
    std::printf("}\n");
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App cli("normlab: see which elements share normalization statistics");
    StateOptions so;
    AppOptions ao;
    add_state_options(cli, so, false);
    cli.add_option("--screenshot", ao.screenshot, "render a few frames, write the window image to FILE.png and exit");
    cli.add_option("--frames", ao.frames, "render K frames, print the mean frame time and exit")->check(CLI::Range(1, 1000000));
    int soak_frames = 0;
    cli.add_option("--soak", soak_frames, "render K frames while method, shape, G and selection change every 4 frames; "
                                          "report memory growth (exit 1 at 5 % or more)")->check(CLI::Range(10, 1000000));
    cli.add_option("--width", ao.width, "window width (default 1600)")->check(CLI::Range(400, 8192));
    cli.add_option("--height", ao.height, "window height (default 900)")->check(CLI::Range(300, 8192));
    cli.add_option("--heatmap", ao.heatmap, "heatmap mode: input | output | diff | stats (default stats)")
        ->check(CLI::IsMember({"input", "output", "diff", "stats"}));
    cli.add_option("--colormap", ao.colormap, "diverging | viridis | cividis")->check(CLI::IsMember({"diverging", "viridis", "cividis"}));
    cli.add_option("--palette", ao.palette, "colors of statistic groups: okabe-ito | hues")->check(CLI::IsMember({"okabe-ito", "hues"}));
    cli.add_flag("--dump-layout", ao.dump_layout, "print where the heatmap tiles were drawn (JSON) before exiting");
    cli.add_flag("--presenter", ao.presenter, "start in presenter mode (large text, high contrast; key F5 or P)");
    cli.add_option("--lang", ao.lang, "en | zh (key L)")->check(CLI::IsMember({"en", "zh"}));
    cli.add_flag("--compare", ao.compare, "start with the compare view (BN, LN, IN, GN side by side; key C)");
    cli.add_flag("--cube", ao.cube, "draw the N, C, H·W cube of the partition (key K)");
    cli.add_flag("--show-help", ao.help, "start with the keyboard shortcut overlay open (key F1)");
    cli.add_option("--lessons-dir", ao.lessons_dir, "folder of lesson files (default: the installed assets/lessons)");
    cli.add_option("--lesson", ao.lesson, "open this lesson file (a malformed file is reported in the app)");
    cli.add_option("--lesson-id", ao.lesson_id, "open the lesson with this id from the lesson folder");
    cli.add_option("--step", ao.step, "with --lesson/--lesson-id: start at step K (1-based)")->check(CLI::Range(1, 1000));
    cli.add_option("--experiment", ao.experiment, "start an experiment (Experiments menu) by id");
    cli.add_option("--export-dir", ao.export_dir, "where exports and screenshots (F12) go (default ./normlab-export)");
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return cli.exit(e);
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }

    LoadedState loaded;
    try {
        loaded = load_state(so);
    } catch (const InputError& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
    ViewSettings scene_view;
    try {
        scene_view = parse_view(loaded.state.view_json, so.scene.empty() ? "view" : so.scene);
    } catch (const InputError& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }

    try {
        if (soak_frames > 0) ao.frames = soak_frames;
        const bool headless_run = !ao.screenshot.empty() || ao.frames > 0;
        // Lessons first: the font atlas needs their Chinese glyphs.
        LessonPanel lessons;
        lessons.load_dir(ao.lessons_dir.empty() ? assets_dir(argv[0]) + "/lessons" : ao.lessons_dir);
        for (const auto& e : lessons.load_errors()) std::fprintf(stderr, "warning: %s\n", e.c_str());
        int lesson_from_file = -1;
        if (!ao.lesson.empty()) {
            if (lessons.load_file(ao.lesson)) {
                for (int i = 0; i < lessons.count(); ++i)
                    if (lessons.lessons()[static_cast<std::size_t>(i)].path == ao.lesson) lesson_from_file = i;
            } else {
                std::fprintf(stderr, "warning: %s\n", lessons.error().c_str());
            }
        }
        std::string glyphs = all_chinese_text() + lessons.all_text();
        Window window(WindowOptions{ao.width, ao.height, ao.frames > 0, "normlab", glyphs});
        set_cjk_font(window.fonts().cjk, window.fonts().cjk_missing);
        const VulkanContext& ctx = window.context();
        Session session(ctx);
        if (auto err = session.apply(loaded.state, std::move(loaded.x))) {
            std::fprintf(stderr, "error: %s\n", err->c_str());
            return 2;
        }
        AppUi ui(window, session, ao.export_dir);
        // Declared last, destroyed first: the views and the session free buffers the last frames may
        // still read, so wait for the device before they go (never throwing from a destructor).
        struct IdleOnExit {
            const VulkanContext& ctx;
            ~IdleOnExit() {
                try {
                    ctx.device().waitIdle();
                } catch (...) {
                }
            }
        } idle_on_exit{ctx};
        ui.lessons() = std::move(lessons);
        ui.apply_view(scene_view);
        if (!ao.heatmap.empty()) ui.apply_view([&] { ViewSettings v = ui.view(); v.heatmap = ao.heatmap; return v; }());
        if (!ao.colormap.empty()) ui.apply_view([&] { ViewSettings v = ui.view(); v.colormap = ao.colormap; return v; }());
        if (!ao.palette.empty()) ui.apply_view([&] { ViewSettings v = ui.view(); v.groups = ao.palette; return v; }());
        if (ao.lang == "zh") ui.set_language(Language::Zh);
        if (!scene_view.experiment.empty()) ui.start_experiment(scene_view.experiment, loaded.state);
        if (!ao.experiment.empty() && !ui.start_experiment(ao.experiment)) {
            std::fprintf(stderr, "error: unknown --experiment '%s'\n", ao.experiment.c_str());
            return 2;
        }
        int lesson = lesson_from_file;
        if (!ao.lesson_id.empty()) {
            for (int i = 0; i < ui.lessons().count(); ++i)
                if (ui.lessons().lessons()[static_cast<std::size_t>(i)].id == ao.lesson_id) lesson = i;
            if (lesson < 0) {
                std::fprintf(stderr, "error: no lesson with id '%s'\n", ao.lesson_id.c_str());
                return 2;
            }
        }
        if (lesson >= 0) ui.go_to_step(lesson, ao.step - 1);
        if (!ui.lessons().error().empty()) std::fprintf(stderr, "warning: %s\n", ui.lessons().error().c_str());
        if (ao.compare) ui.apply_view([&] { ViewSettings v = ui.view(); v.compare = true; return v; }());
        if (ao.cube) ui.apply_view([&] { ViewSettings v = ui.view(); v.cube = true; return v; }());
        ui.set_presenter(ao.presenter);
        ui.show_help(ao.help);
        // Runs without a person ignore the pointer (Xvfb leaves it mid-screen, over the heatmap).
        if (headless_run) ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NoMouse;
        auto before = [&](vk::CommandBuffer cmd, vk::Extent2D extent) { ui.before_pass(cmd, extent); };

        const int frames = ao.frames > 0 ? ao.frames : (ao.screenshot.empty() ? 0 : 4);
        int rendered = 0;
        double total_ms = 0, warm_ms = 0;
        const int warmup = std::min(3, std::max(0, frames - 1));
        auto last = std::chrono::steady_clock::now();
        std::optional<SoakDriver> soak;
        if (soak_frames > 0) soak.emplace(soak_frames);
        while (!window.should_close()) {
            window.poll(!headless_run, 0.05);
            if (soak) soak->before_frame(rendered, session);
            window.new_frame();
            ui.draw();
            window.render(before);
            if (auto cap = ui.take_capture()) {
                try {
                    std::filesystem::create_directories(std::filesystem::path(cap->path).parent_path());
                    window.capture(before, cap->path, cap->crop);
                    ui.captured(cap->path, "");
                } catch (const std::exception& e) {
                    ui.captured(cap->path, e.what());
                }
            }
            auto now = std::chrono::steady_clock::now();
            const double ms = std::chrono::duration<double, std::milli>(now - last).count();
            last = now;
            ui.frame_ms = ui.frame_ms == 0 ? ms : 0.9 * ui.frame_ms + 0.1 * ms;
            ++rendered;
            if (soak) soak->after_frame(rendered - 1);
            if (headless_run) {
                total_ms += ms;
                if (rendered > warmup) warm_ms += ms;
                if (rendered >= frames) break;
            }
        }
        if (!ao.screenshot.empty()) {
            window.capture(before, ao.screenshot);
            std::printf("screenshot: %s (%dx%d)\n", ao.screenshot.c_str(), ao.width, ao.height);
        }
        if (ao.frames > 0) {
            const int n = rendered - warmup;
            const double mean = n > 0 ? warm_ms / n : total_ms / std::max(1, rendered);
            std::printf("frames: %d, mean frame time %.2f ms (%.1f fps) over the last %d (first %d skipped as warm-up); "
                        "tensor %s, last recompute %.1f ms (GPU %.3f ms)\n",
                        rendered, mean, 1000.0 / mean, n, warmup, session.x().shape.str().c_str(), session.recompute_ms(),
                        session.result().gpu_ms);
        }
        if (ao.frames > 0) {
            // Warm recompute latency: the same state with ε changed (kernels already compiled).
            State next = session.state();
            next.spec.eps = next.spec.effective_eps() * 2;
            auto t0 = std::chrono::steady_clock::now();
            auto err = session.apply(next, session.x());
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            std::printf("recompute (warm, eps changed): %.1f ms total, GPU normalization %.3f ms%s\n", ms,
                        session.result().gpu_ms, err ? " (rejected)" : "");
        }
        if (ao.dump_layout) dump_layout(ui.heatmap(), session);
        if (soak && !soak->report()) return 1;
        if (ctx.validation_messages() > 0) {
            std::fprintf(stderr, "error: %llu Vulkan validation messages\n",
                         static_cast<unsigned long long>(ctx.validation_messages()));
            return 1;
        }
    } catch (const InputError& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    } catch (const DeviceError& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 3;
    } catch (const vk::SystemError& e) {
        std::fprintf(stderr, "error: Vulkan: %s\n", e.what());
        return 3;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "error: out of memory\n");
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
