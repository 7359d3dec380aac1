// normlab: the desktop app. Opens a window with the State given by the same options as
// normlab-cli (plus --select), normalized on the GPU; --screenshot and --frames render
// without a person (tests, figures, frame-time measurement).
#include "controls_panel.hpp"
#include "explain_panel.hpp"
#include "heatmap_view.hpp"
#include "histogram_view.hpp"
#include "session.hpp"
#include "stats_table.hpp"
#include "state_options.hpp"
#include "window.hpp"

#include "normlab/error.hpp"

#include <CLI/CLI.hpp>
#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <optional>

using namespace normlab;
using namespace normlab::app;

namespace {

struct AppOptions {
    std::string screenshot;
    int frames = 0;
    int width = 1600, height = 900;
    std::string heatmap = "stats";
    std::string colormap = "diverging";
    bool dump_layout = false;
};

// Fixed layout of the panels (no docking in ImGui 1.86), proportional to the window.
void place(const char* name, float x, float y, float w, float h, ImGuiWindowFlags extra = 0) {
    ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Always);
    ImGui::Begin(name, nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                    ImGuiWindowFlags_NoSavedSettings | extra);
}

struct Ui {
    ControlsPanel controls;
    HeatmapView heatmap;
    HistogramView histograms;
    StatsTable table;
    ExplainPanel explain;
    double frame_ms = 0;

    void draw(Session& s, const VulkanContext& ctx) {
        const ImVec2 d = ImGui::GetIO().DisplaySize;
        const float status_h = ImGui::GetFrameHeightWithSpacing() + 6;
        const float left = std::max(330.0f, d.x * 0.21f), right = std::max(380.0f, d.x * 0.26f);
        const float mid = d.x - left - right, body = d.y - status_h;
        const float heat_h = body * 0.66f;
        const float explain_h = body * 0.42f;

        place("Tensor & method", 0, 0, left, body);
        controls.draw(s);
        ImGui::End();

        std::string title = std::string("Heatmap: ") + method_torch_name(s.state().spec.method) + "###heatmap";
        place(title.c_str(), left, 0, mid, heat_h);
        heatmap.draw(s);
        ImGui::End();

        place("Histograms (GPU)", left, heat_h, mid, body - heat_h);
        histograms.draw(s);
        ImGui::End();

        place("Explain", left + mid, 0, right, explain_h);
        explain.draw(s);
        ImGui::End();

        place("Statistics", left + mid, explain_h, right, body - explain_h);
        table.draw(s);
        ImGui::End();

        place("##status", 0, body, d.x, status_h, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
        ImGui::Text("device: %s  |  last recompute: GPU %.3f ms, total %.1f ms  |  max |error| vs CPU float64 reference: %.2e  |  %.1f fps",
                    ctx.device_name().c_str(), s.result().gpu_ms, s.recompute_ms(), s.max_error(),
                    frame_ms > 0 ? 1000.0 / frame_ms : 0.0);
        if (!controls.error().empty()) {
            ImGui::SameLine();
            ImGui::TextColored(ImVec4(1, 0.45f, 0.45f, 1), "| refused: %s", controls.error().c_str());
        }
        ImGui::End();
    }
};

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
    cli.add_option("--width", ao.width, "window width (default 1600)")->check(CLI::Range(400, 8192));
    cli.add_option("--height", ao.height, "window height (default 900)")->check(CLI::Range(300, 8192));
    cli.add_option("--heatmap", ao.heatmap, "heatmap mode: input | output | diff | stats (default stats)")
        ->check(CLI::IsMember({"input", "output", "diff", "stats"}));
    cli.add_option("--colormap", ao.colormap, "diverging | viridis")->check(CLI::IsMember({"diverging", "viridis"}));
    cli.add_flag("--dump-layout", ao.dump_layout, "print where the heatmap tiles were drawn (JSON) before exiting");
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

    try {
        const bool headless_run = !ao.screenshot.empty() || ao.frames > 0;
        Window window(WindowOptions{ao.width, ao.height, ao.frames > 0, "normlab"});
        const VulkanContext& ctx = window.context();
        Session session(ctx);
        if (auto err = session.apply(loaded.state, std::move(loaded.x))) {
            std::fprintf(stderr, "error: %s\n", err->c_str());
            return 2;
        }
        Ui ui{ControlsPanel{}, HeatmapView(ctx, window.render_pass()), HistogramView{}, StatsTable{}, ExplainPanel{}};
        const char* modes[] = {"input", "output", "diff", "stats"};
        for (int i = 0; i < 4; ++i)
            if (ao.heatmap == modes[i]) ui.heatmap.mode = static_cast<HeatmapMode>(i);
        ui.heatmap.colormap = ao.colormap == "viridis" ? Colormap::Viridis : Colormap::Diverging;
        // Runs without a person ignore the pointer (Xvfb leaves it mid-screen, over the heatmap).
        if (headless_run) ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NoMouse;
        auto before = [&](vk::CommandBuffer cmd, vk::Extent2D extent) { ui.heatmap.before_pass(cmd, extent); };

        const int frames = ao.frames > 0 ? ao.frames : (ao.screenshot.empty() ? 0 : 4);
        int rendered = 0;
        double total_ms = 0, warm_ms = 0;
        const int warmup = std::min(3, std::max(0, frames - 1));
        auto last = std::chrono::steady_clock::now();
        while (!window.should_close()) {
            window.poll(!headless_run, 0.05);
            window.new_frame();
            ui.draw(session, ctx);
            window.render(before);
            auto now = std::chrono::steady_clock::now();
            const double ms = std::chrono::duration<double, std::milli>(now - last).count();
            last = now;
            ui.frame_ms = ui.frame_ms == 0 ? ms : 0.9 * ui.frame_ms + 0.1 * ms;
            ++rendered;
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
        if (ao.dump_layout) dump_layout(ui.heatmap, session);
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
    }
    return 0;
}
