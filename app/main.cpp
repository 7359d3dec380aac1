// normlab: the desktop app. Opens a window with the State given by the same options as
// normlab-cli (plus --select, --scene), normalized on the GPU; classroom options choose
// presenter mode, language, a lesson step or an experiment at start; --screenshot and
// --frames render without a person (tests, figures, frame-time measurement).
// Exit status as normlab-cli's (normlab/core/error.hpp): 2 bad options or input, 3 no display or
// usable Vulkan device, 4 validation messages; 1 when --soak saw memory grow.
#include "app_ui.hpp"
#include "assets_dir.hpp"
#include "normlab/views/i18n.hpp"
#include "normlab/io/file_kind.hpp"
#include "normlab/session/session.hpp"
#include "normlab/ops/vulkan_backend.hpp"
#include "soak_driver.hpp"
#include "state_options.hpp"
#include "window.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/core/error.hpp"
#include "normlab/classroom/experiments.hpp"
#include "normlab/io/presets.hpp"

#include <CLI/CLI.hpp>
#include <imgui.h>
#include <imgui_internal.h>  // the windows, for --dump-layout

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <thread>

using namespace normlab;
using namespace normlab::app;

namespace {

struct AppOptions {
    StateOptions state;
    std::string screenshot;
    int frames = 0, soak_frames = 0;
    int width = 1600, height = 900;
    std::string heatmap, colormap, palette;
    bool dump_layout = false;
    bool presenter = false, compare = false, cube = false, help = false, gradient = false;
    std::string lang = "en";
    std::string lessons_dir, lesson, lesson_id, experiment, export_dir = "normlab-export";
    std::string file;  // the positional FILE: a scene or a .npy (the desktop entry's %f)
    int step = 1;
    double max_fps = 0;                      // 0: as fast as the display presents
    float ui_scale = 0;                      // 0: NORMLAB_UI_SCALE, else the monitor's
    std::string state_file;                  // the UI state as JSON after every frame (tests of the keys)
    std::vector<std::string> hide, lock;     // an exercise, on top of --scene's
    bool train = false, train_play = false;  // the Train view, its runs playing
    std::vector<std::string> train_runs;     // a run per norm (the view's first run's other settings)
    int train_inspect = 0;                   // 1-based: that layer of the first run opened as the tensor
    int train_steps = 0;                     // the runs' steps (0: the view's default)
    std::vector<std::string> train_sweep;    // KEY=V1,V2,… axes of a sweep started at the first frame
    bool train_sweep_export = false;         // its CSV and PNG exported once it has finished
};

void add_view_options(CLI::App& cli, AppOptions& ao) {
    cli.add_option("--width", ao.width, "window width (default 1600)")->check(CLI::Range(400, 8192));
    cli.add_option("--height", ao.height, "window height (default 900)")->check(CLI::Range(300, 8192));
    cli.add_option("--heatmap", ao.heatmap, "heatmap mode: input | output | diff | stats (default stats)")
        ->check(CLI::IsMember({"input", "output", "diff", "stats"}));
    cli.add_option("--colormap", ao.colormap, "diverging | viridis | cividis")
        ->check(CLI::IsMember({"diverging", "viridis", "cividis"}));
    cli.add_option("--palette", ao.palette, "colors of statistic groups: okabe-ito | hues")
        ->check(CLI::IsMember({"okabe-ito", "hues"}));
    cli.add_flag("--dump-layout", ao.dump_layout, "print where the heatmap tiles were drawn (JSON) before exiting");
    cli.add_flag("--presenter", ao.presenter, "start in presenter mode (large text, high contrast; key F5 or P)");
    cli.add_option("--lang", ao.lang, "en | zh (key L)")->check(CLI::IsMember({"en", "zh"}));
    cli.add_flag("--compare", ao.compare, "start with the compare view (BN, LN, IN, GN side by side; key C)");
    cli.add_flag("--gradient", ao.gradient, "start with the gradient view (the backward pass; key D)");
    cli.add_flag("--cube", ao.cube, "draw the N, C, H·W cube of the partition (key K)");
    cli.add_flag("--show-help", ao.help, "start with the keyboard shortcut overlay open (key F1)");
    cli.add_option("--ui-scale", ao.ui_scale,
                   "draw the UI S times larger, fonts rasterized at that size (HiDPI, projectors; default: "
                   "NORMLAB_UI_SCALE, else the monitor's content scale)")
        ->check(CLI::Range(0.5, 4.0));
}

void add_app_options(CLI::App& cli, AppOptions& ao) {
    add_state_options(cli, ao.state, false);
    cli.add_option("--screenshot", ao.screenshot, "render a few frames, write the window image to FILE.png and exit");
    cli.add_option("--frames", ao.frames, "render K frames, print the mean frame time and exit")
        ->check(CLI::Range(1, 1000000));
    cli.add_option("--soak", ao.soak_frames,
                   "render K frames while method, shape, G and selection change every 4 frames; "
                   "report memory growth (exit 1 at 5 % or more)")
        ->check(CLI::Range(10, 1000000));
    add_view_options(cli, ao);
    cli.add_option("--lessons-dir", ao.lessons_dir,
                   "folder of lesson files (default: the lessons of share/normlab or NORMLAB_ASSETS)");
    cli.add_option("--lesson", ao.lesson, "open this lesson file (a malformed file is reported in the app)");
    cli.add_option("--lesson-id", ao.lesson_id, "open the lesson with this id from the lesson folder");
    cli.add_option("--step", ao.step, "with --lesson/--lesson-id: start at step K (1-based)")
        ->check(CLI::Range(1, 1000));
    cli.add_option("--experiment", ao.experiment, "start an experiment (Experiments menu) by id");
    cli.add_option("--max-fps", ao.max_fps,
                   "render F frames a second, also when nothing changes (tests of quick key taps)")
        ->check(CLI::Range(0.5, 1000.0));
    cli.add_option("--state-file", ao.state_file,
                   "after every frame, write the state the keys change (method, lesson step, language, presenter, "
                   "compare, blank, frame) to FILE as one JSON line");
    cli.add_option("--hide", ao.hide,
                   "an exercise: controls to hide, comma-separated (" + core::control_names() + "; added to --scene's)")
        ->delimiter(',');
    cli.add_option("--lock", ao.lock, "an exercise: controls to grey out, comma-separated (not explain, statistics)")
        ->delimiter(',');
    cli.add_flag("--train", ao.train, "start in the Train view (key R)");
    cli.add_option("--train-runs", ao.train_runs,
                   "with --train: one run per norm, comma-separated (none, batch, layer, group, rms; up to 4)")
        ->delimiter(',');
    cli.add_flag("--train-play", ao.train_play, "with --train: the runs train from the first frame");
    cli.add_option("--train-inspect", ao.train_inspect,
                   "with --train: the runs' first 20 steps before the first frame, then the first run's layer "
                   "LAYER (1-based) opened as the tensor (Inspect layer)")
        ->check(CLI::PositiveNumber);
    cli.add_option("--train-steps", ao.train_steps, "with --train: the runs' steps (1 to 20000)")
        ->check(CLI::Range(1, 20000));
    cli.add_option("--train-sweep", ao.train_sweep,
                   "with --train: KEY=V1,V2,… a sweep's axis over the first run's settings (repeatable; the keys of "
                   "normlab-cli train --sweep), started at the first frame in the Sweep tab");
    cli.add_flag("--train-sweep-export", ao.train_sweep_export,
                 "with --train-sweep or a scene whose view.train.sweep starts: its CSV and PNG written to "
                 "--export-dir once it has finished (--frames then waits for it)");
    cli.add_option("--export-dir", ao.export_dir, "where exports and screenshots (F12) go (default ./normlab-export)");
    cli.add_option("file", ao.file,
                   "a scene file (FILE.normlab.json) or an N×C×H×W .npy to open (as --scene or --input)");
}

// The positional FILE, what a file manager passes: a .npy is --input, anything else --scene.
void open_file_argument(AppOptions& ao) {
    if (ao.file.empty()) return;
    const io::FileKind kind = io::file_kind(ao.file);  // anything else is read as a scene (its error names the file)
    const bool npy = kind == io::FileKind::Npy, image = kind == io::FileKind::Image;
    std::string& slot = npy ? ao.state.input : image ? ao.state.image : ao.state.scene;
    const char* option = npy ? "--input" : image ? "--image" : "--scene";
    if (!slot.empty()) throw core::InputError(std::string("both ") + option + " and the file " + ao.file + " given");
    slot = ao.file;
}

void dump_layout(const views::HeatmapPanel& h, const session::Session& s) {
    const views::TileLayout& t = h.layout();
    std::printf(
        "{\"origin\": [%.1f, %.1f], \"cell\": %.4f, \"gap\": %.1f, \"tile\": [%.4f, %.4f], \"image\": [%d, %d], "
        "\"shape\": [%lld, %lld, %lld, %lld], \"stat_count\": %lld, \"stat_stride\": %lld",
        h.origin_x(), h.origin_y(), t.cell, t.gap, t.tile_w(), t.tile_h(), t.width, t.height,
        static_cast<long long>(t.shape.n), static_cast<long long>(t.shape.c), static_cast<long long>(t.shape.h),
        static_cast<long long>(t.shape.w), static_cast<long long>(s.layout().stat_count),
        static_cast<long long>(s.layout().stat_stride));
    if (auto st = s.selected_stat()) std::printf(", \"selected_stat\": %lld", static_cast<long long>(*st));
    // The room the image was given, and the windows whose content does not fit (cut or scrolled).
    std::printf(", \"room\": [%.1f, %.1f], \"overflow\": [", static_cast<double>(h.image_room_w()),
                static_cast<double>(h.image_room_h()));
    const char* sep = "";
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
        if (w->Active && (w->ScrollMax.x > 0.5f || w->ScrollMax.y > 0.5f)) {
            std::string name = w->Name;
            const auto id = name.rfind("###");
            if (id != std::string::npos) name = name.substr(id + 3);
            std::printf("%s\"%s\"", sep, name.c_str());
            sep = ", ";
        }
    std::printf("]}\n");
}

// The lessons of the lesson folder and of --lesson (before the window: the font atlas needs
// their Chinese glyphs). `from_file`: the index of --lesson's lesson, or -1.
views::LessonPanel load_lessons(const AppOptions& ao, int& from_file) {
    views::LessonPanel lessons;
    lessons.load_dir(ao.lessons_dir.empty() ? (assets_dir() / "lessons").string() : ao.lessons_dir);
    for (const auto& e : lessons.load_errors()) std::fprintf(stderr, "warning: %s\n", e.c_str());
    from_file = -1;
    if (ao.lesson.empty()) return lessons;
    if (lessons.load_file(ao.lesson)) {
        for (int i = 0; i < lessons.count(); ++i)
            if (lessons.lessons()[static_cast<std::size_t>(i)].path == ao.lesson) from_file = i;
    } else {
        std::fprintf(stderr, "warning: %s\n", lessons.error().c_str());
    }
    return lessons;
}

// --train, --train-runs, --train-play: the Train view with a run per norm given, playing.
void start_training(views::Shell& shell, const AppOptions& ao) {
    if ((!ao.train_runs.empty() || ao.train_play || ao.train_inspect > 0 || ao.train_steps > 0 ||
         !ao.train_sweep.empty()) &&
        !ao.train)
        throw core::InputError(
            "--train-runs, --train-play, --train-inspect, --train-steps and --train-sweep need --train");
    if (ao.train_sweep_export && ao.train_sweep.empty()) {  // a scene's view.train.sweep may have started one
        if (!shell.train_sweep().running())
            throw core::InputError("--train-sweep-export needs --train-sweep or a scene whose sweep starts");
        shell.train_view().show_sweep(true);
    }
    if (!ao.train) return;
    if (ao.train_runs.size() > static_cast<std::size_t>(views::kMaxTrainRuns))
        throw core::InputError("--train-runs takes at most 4 norms");
    shell.set_train(true);
    views::TrainRunSet& runs = shell.train_runs();
    train::TrainConfig c = views::default_train_config();
    if (ao.train_steps > 0) c.steps = ao.train_steps;
    for (std::size_t i = 0; i < ao.train_runs.size(); ++i) {
        c.norm = train::parse_train_norm(ao.train_runs[i]);
        if (c.norm == train::TrainNorm::Group) c.groups = 4;
        auto err = i == 0 ? runs.start(c) : runs.add(c);
        if (err) throw core::InputError("--train-runs " + ao.train_runs[i] + ": " + *err);
    }
    if ((ao.train_play || ao.train_inspect > 0 || !ao.train_sweep.empty()) && runs.runs().empty() && runs.start(c))
        throw core::InputError("the Train view's first run cannot start");
    if (ao.train_inspect > 0) {
        for (int k = 0; k < 20 && !runs.done(); ++k) {
            runs.step_once();
            runs.finish();
        }
        if (auto err = shell.inspect_layer(0, ao.train_inspect - 1)) throw core::InputError("--train-inspect: " + *err);
    }
    if (ao.train_play) runs.play(true);
    if (ao.train_sweep.empty()) return;
    std::vector<train::SweepAxis> axes;
    for (const auto& a : ao.train_sweep) axes.push_back(train::parse_sweep_axis(a));
    if (auto err = shell.train_sweep().start(runs.factory(), views::sweep_base(runs, 0), axes))
        throw core::InputError("--train-sweep: " + *err);
    shell.train_view().show_sweep(ao.train_sweep_export);
}

// The start-up state of the UI: the scene's view, the command line's view options, the
// language, an experiment, a lesson step, presenter mode and the help overlay.
void start_ui(AppUi& ui, const AppOptions& ao, const classroom::ViewSettings& scene_view,
              const core::State& scene_state, int lesson) {
    ui.shell().apply_view(scene_view);
    classroom::ViewSettings v = ui.shell().view();
    if (!ao.heatmap.empty()) v.heatmap = ao.heatmap;
    if (!ao.colormap.empty()) v.colormap = ao.colormap;
    if (!ao.palette.empty()) v.palette = ao.palette;
    ui.shell().apply_view(v);
    if (ao.lang == "zh") ui.shell().set_language(core::Language::Zh);
    if (!scene_view.experiment.empty()) ui.shell().start_experiment(scene_view.experiment, scene_state);
    if (!ao.experiment.empty() && !ui.shell().start_experiment(ao.experiment))
        throw core::InputError("unknown --experiment '" + ao.experiment + "'");
    if (!ao.lesson_id.empty()) {
        for (int i = 0; i < ui.shell().lessons().count(); ++i)
            if (ui.shell().lessons().lessons()[static_cast<std::size_t>(i)].id == ao.lesson_id) lesson = i;
        if (lesson < 0) throw core::InputError("no lesson with id '" + ao.lesson_id + "'");
    }
    if (lesson >= 0) ui.shell().go_to_step(lesson, ao.step - 1);
    if (!ui.shell().lessons().error().empty())
        std::fprintf(stderr, "warning: %s\n", ui.shell().lessons().error().c_str());
    if (ao.compare || ao.cube) {  // after the lesson step, whose view would turn them off
        classroom::ViewSettings w = ui.shell().view();
        w.compare = w.compare || ao.compare;
        w.cube = w.cube || ao.cube;
        ui.shell().apply_view(w);
    }
    ui.shell().set_presenter(ao.presenter);
    ui.shell().show_help(ao.help);
    start_training(ui.shell(), ao);
    if (ao.gradient) ui.shell().set_gradient(true);  // else the lesson step's or scene's view decides
}

struct FrameStats {
    int rendered = 0, warmup = 0;
    double total_ms = 0, warm_ms = 0;
};

// The main loop: until the window closes, or after `frames` frames in a run without a person.
FrameStats render_loop(Window& window, AppUi& ui, session::Session& session, const AppOptions& ao,
                       const views::BeforePass& before, SoakDriver* soak) {
    const bool headless_run = !ao.screenshot.empty() || ao.frames > 0;
    const int frames = ao.frames > 0 ? ao.frames : (ao.screenshot.empty() ? 0 : 4);
    FrameStats fs;
    fs.warmup = std::min(3, std::max(0, frames - 1));
    auto last = std::chrono::steady_clock::now();
    const auto min_frame = std::chrono::duration<double>(ao.max_fps > 0 ? 1.0 / ao.max_fps : 0.0);
    // A person's app draws only when something changes (FramePacer); a run without a person, a
    // soak and --max-fps draw every frame.
    const bool every_frame = headless_run || soak || ao.max_fps > 0;
    views::FramePacer& pacer = ui.shell().pacer();
    while (!window.should_close()) {
        if (every_frame || pacer.due()) {
            window.poll();
        } else {
            const auto wait = pacer.wait();
            window.wait_events(wait ? std::optional<double>(std::chrono::duration<double>(*wait).count())
                                    : std::nullopt);
            pacer.wake();                             // an event, or a timer that is due
            last = std::chrono::steady_clock::now();  // the frame time leaves out the wait
        }
        const auto frame_start = std::chrono::steady_clock::now();
        if (soak) soak->before_frame(fs.rendered, session);
        window.new_frame();
        ui.draw(window.take_key_presses());
        window.render(before);
        if (auto cap = ui.take_capture()) {
            try {
                std::filesystem::create_directories(std::filesystem::path(cap->path).parent_path());
                window.capture(before, cap->path, cap->crop);
                ui.captured(cap->path, "");
            } catch (const std::exception& e) {
                ui.captured(cap->path, core::error_line(e));
            }
        }
        auto now = std::chrono::steady_clock::now();
        const double ms = std::chrono::duration<double, std::milli>(now - last).count();
        last = now;
        ui.frame_ms = ui.frame_ms == 0 ? ms : 0.9 * ui.frame_ms + 0.1 * ms;
        ++fs.rendered;
        pacer.drew();
        if (!ao.state_file.empty()) io::write_file_atomic(ao.state_file, ui.state_json(fs.rendered) + "\n");
        if (soak) soak->after_frame(fs.rendered - 1);
        if (headless_run) {
            fs.total_ms += ms;
            if (fs.rendered > fs.warmup) fs.warm_ms += ms;
            // A sweep to export (--train-sweep-export): the frames go on until it has finished.
            if (fs.rendered >= frames && !(ao.train_sweep_export && ui.shell().train_sweep().running())) break;
        }
        if (min_frame.count() > 0)  // --max-fps: keys pressed meanwhile all arrive in the next poll
            std::this_thread::sleep_until(frame_start +
                                          std::chrono::duration_cast<std::chrono::nanoseconds>(min_frame));
    }
    return fs;
}

// --frames: the mean frame time, then the warm recompute latency (the same state with ε
// changed, kernels already compiled).
void print_frame_times(const FrameStats& fs, session::Session& session) {
    const int n = fs.rendered - fs.warmup;
    const double mean = n > 0 ? fs.warm_ms / n : fs.total_ms / std::max(1, fs.rendered);
    std::printf(
        "frames: %d, mean frame time %.2f ms (%.1f fps) over the last %d (first %d skipped as warm-up); "
        "tensor %s, last recompute %.1f ms (GPU %.3f ms)\n",
        fs.rendered, mean, 1000.0 / mean, n, fs.warmup, session.x().shape.str().c_str(), session.recompute_ms(),
        session.result().gpu_ms);
    const core::State next = session::with_eps(session.state(), session.state().spec.effective_eps() * 2);
    auto t0 = std::chrono::steady_clock::now();
    auto err = session.apply(next, session::TensorChange::keep());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("recompute (warm, eps changed): %.1f ms total, GPU normalization %.3f ms%s\n", ms,
                session.result().gpu_ms, err ? " (rejected)" : "");
}

// --frames in the Train view: its frames and steps per second while training, and each run's loss.
void print_train(const views::TrainRunSet& runs) {
    std::printf("train: %.1f fps while training, %.0f steps/s (all runs)", runs.mean_fps(), runs.steps_per_second());
    for (const auto& r : runs.runs()) {
        const auto& l = r.curves.loss;
        std::printf("; %s %d steps, batch loss %.3f -> %.3f", r.label().c_str(), r.steps_done,
                    l.empty() ? 0.0 : l.front(), l.empty() ? 0.0 : l.back());
    }
    std::printf("\n");
}

// Declared after the views and the session, destroyed before them: they free buffers the
// last frames may still read, so wait for the device first (never throwing from a destructor).
struct IdleOnExit {
    const gpu::VulkanContext& ctx;
    ~IdleOnExit() {
        try {
            ctx.device().waitIdle();
        } catch (...) {}
    }
};

int run_app(int argc, char** argv) {
    CLI::App cli("normlab: see which elements share normalization statistics");
    AppOptions ao;
    add_app_options(cli, ao);
    if (auto help = parse_command_line(cli, argc, argv)) return *help;
    open_file_argument(ao);
    if (const char* env = std::getenv("NORMLAB_UI_SCALE"); ao.ui_scale == 0 && env && *env) {
        char* end = nullptr;
        ao.ui_scale = std::strtof(env, &end);
        if (*end != '\0' || !(ao.ui_scale >= 0.5f && ao.ui_scale <= 4.0f))
            throw core::InputError(std::string("NORMLAB_UI_SCALE must be a number from 0.5 to 4, not '") + env + "'");
    }
    find_images_in_assets();
    LoadedState loaded = load_state(ao.state);
    const core::Exercise extra = core::make_exercise(ao.hide, ao.lock, "--hide", "--lock");
    loaded.state.exercise.hidden |= extra.hidden;
    loaded.state.exercise.locked |= extra.locked;
    const std::string& scene = ao.state.scene;
    const classroom::ViewSettings scene_view =
        classroom::parse_view(loaded.state.view_json, scene.empty() ? "view" : scene);
    if (ao.soak_frames > 0) ao.frames = ao.soak_frames;

    int lesson_from_file = -1;
    views::LessonPanel lessons = load_lessons(ao, lesson_from_file);
    std::string glyphs = views::all_chinese_text() + lessons.all_text();
    for (const io::Preset& p : io::presets()) glyphs += p.source_zh + p.description_zh;  // their Chinese too
    for (const classroom::Experiment& e : classroom::experiments())
        glyphs += e.title.zh + e.explanation.zh + e.left_label.zh + e.right_label.zh;
    Window window(WindowOptions{ao.width, ao.height, ao.frames > 0, "normlab", glyphs, ao.ui_scale});
    views::set_cjk_font(window.fonts().cjk, window.fonts().cjk_missing);
    const gpu::VulkanContext& ctx = window.context();
    ops::VulkanBackend backend(ctx);
    session::Session session(backend);
    if (auto err = session.apply(loaded.state, session::TensorChange::given(std::move(loaded.x))))
        throw core::InputError(*err);
    AppUi ui(window, session, ao.export_dir);
    IdleOnExit idle_on_exit{ctx};
    ui.shell().lessons() = std::move(lessons);
    start_ui(ui, ao, scene_view, loaded.state, lesson_from_file);
    // Runs without a person ignore the pointer (Xvfb leaves it mid-screen, over the heatmap).
    if (!ao.screenshot.empty() || ao.frames > 0) ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NoMouse;
    const views::BeforePass before = [&](vk::CommandBuffer cmd, vk::Extent2D extent) { ui.before_pass(cmd, extent); };

    std::optional<SoakDriver> soak;
    if (ao.soak_frames > 0) soak.emplace(ao.soak_frames);
    const FrameStats fs = render_loop(window, ui, session, ao, before, soak ? &*soak : nullptr);
    if (!ao.screenshot.empty()) {
        window.capture(before, ao.screenshot);
        std::printf("screenshot: %s (%dx%d)\n", ao.screenshot.c_str(), ao.width, ao.height);
    }
    if (ao.frames > 0) print_frame_times(fs, session);
    if (ao.frames > 0 && ui.shell().train_shown()) print_train(ui.shell().train_runs());
    if (ao.dump_layout) dump_layout(ui.shell().heatmap(), session);
    const int status = soak && !soak->report() ? core::kExitFailure : core::kExitOk;
    return core::validation_status(ctx.validation_messages(), status);
}

}  // namespace

int main(int argc, char** argv) {
    return core::run_main([&] { return run_app(argc, argv); });
}
