#include "soak_driver.hpp"

#include "normlab/session/session.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace normlab::app {

SoakDriver::SoakDriver(int frames, int every) : frames_(frames), every_(every < 1 ? 1 : every) {
    // Warm-up covers one full cycle of the combinations below (lcm(5, 8, 15, 3) = 120 changes)
    // so every kernel variant has been built once, but never more than half of the run.
    const int cycle = 120 * every_;
    warmup_ = std::min(std::max(frames / 5, cycle), frames / 2);
}

SoakDriver::Sample SoakDriver::sample() {
    Sample s;
    long pages_vm = 0, pages_rss = 0;
    if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages_vm, &pages_rss) != 2) pages_vm = pages_rss = 0;
        std::fclose(f);
    }
    const double page_mib = static_cast<double>(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
    s.rss_mib = static_cast<double>(pages_rss) * page_mib;
    s.vm_mib = static_cast<double>(pages_vm) * page_mib;
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
        ++s.fds;
    return s;
}

void SoakDriver::before_frame(int frame, session::Session& session) {
    if (frame % every_ != 0) return;
    const int k = frame / every_;
    // Shapes, methods, G and selections that cycle with different periods, so that the
    // combinations keep changing (5 methods × 4 shapes × 3 G × selections).
    static constexpr std::array<core::Shape4, 4> shapes{core::Shape4{2, 6, 4, 4}, core::Shape4{4, 12, 8, 8},
                                                        core::Shape4{8, 24, 16, 16}, core::Shape4{3, 6, 5, 7}};
    if (k % 3 == 2) {  // every third change only moves the selection
        const core::Shape4 sh = session.x().shape;
        const std::int64_t i = k * 7919;
        session.select(core::Index4{i % sh.n, (i / 3) % sh.c, (i / 5) % sh.h, (i / 11) % sh.w});
        return;
    }
    core::State next = session.state();
    const core::Shape4 sh = shapes[static_cast<std::size_t>(k / 2) % shapes.size()];
    next.source = core::TensorSource{};
    next.source.kind = core::TensorSource::Kind::Generated;
    next.source.shape = sh;
    next.source.seed = static_cast<std::uint64_t>(k);
    next.spec = core::default_spec(core::methods()[static_cast<std::size_t>(k) % core::methods().size()].id);
    if (next.spec.method == core::Method::Group)
        next.spec.groups = std::array<std::int64_t, 3>{1, 2, 3}[static_cast<std::size_t>(k / 5) % 3];
    next.params = core::NormParams{};
    next.selection = core::Index4{k % sh.n, k % sh.c, k % sh.h, k % sh.w};
    if (session.apply(std::move(next), session::TensorChange::from_source()))
        ++refused_;
    else
        ++applied_;
}

void SoakDriver::after_frame(int frame) {
    if (frame + 1 == warmup_) warm_ = sample();
    if (frame + 1 == frames_) end_ = sample();
}

bool SoakDriver::report() const {
    auto pct = [](double a, double b) { return a > 0 ? 100.0 * (b - a) / a : 0.0; };
    const double rss = pct(warm_.rss_mib, end_.rss_mib), vm = pct(warm_.vm_mib, end_.vm_mib);
    const bool ok = rss < 5.0 && vm < 5.0 && end_.fds <= warm_.fds && refused_ == 0 && warm_.rss_mib > 0;
    std::printf(
        "soak: %d frames, %d states applied (%d refused), %d selections; after warm-up (frame %d) rss %.1f MiB, "
        "vm %.1f MiB, %d fds; at the end rss %.1f MiB (%+.2f %%), vm %.1f MiB (%+.2f %%), %d fds: %s\n",
        frames_, applied_, refused_, (frames_ + every_ - 1) / every_ / 3, warmup_, warm_.rss_mib, warm_.vm_mib,
        warm_.fds, end_.rss_mib, rss, end_.vm_mib, vm, end_.fds, ok ? "ok" : "FAIL");
    return ok;
}

}  // namespace normlab::app
