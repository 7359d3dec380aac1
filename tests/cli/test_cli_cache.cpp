// normlab-cli with its caches (SPIR-V and the pipeline cache under $XDG_CACHE_HOME/normlab/) as
// a user meets them: a cold run fills the folder, a warm run gives the same bytes, damaged files
// are rebuilt without a word, NORMLAB_NO_CACHE=1 writes nothing, no HOME runs without a cache.
#include <catch2/catch.hpp>

#include "cli_support.hpp"

#include <nlohmann/json.hpp>

#include <map>

using namespace normlab::test;
using nlohmann::json;

namespace {

const std::string kArgs = "--norm group --groups 4 --shape 2,8,6,6 --init randn --seed 7";

// normlab's cache files (the Mesa drivers keep their own cache beside them, in mesa_shader_cache).
std::map<std::string, std::string> cache_files(const fs::path& home) {
    std::map<std::string, std::string> out;
    if (!fs::exists(home / "normlab")) return out;
    for (const auto& e : fs::recursive_directory_iterator(home / "normlab"))
        if (e.is_regular_file()) out[fs::relative(e.path(), home).string()] = slurp(e.path());
    return out;
}

// One run with XDG_CACHE_HOME=home (and `env`); returns y.npy's bytes.
std::string run(const fs::path& home, const char* label, const std::string& env = "") {
    const fs::path y = tmpdir() / "cache_y.npy", s = tmpdir() / "cache_s.json";
    fs::remove(y);
    Run r = cli(kArgs + " --output '" + y.string() + "' --stats '" + s.string() + "'",
                "XDG_CACHE_HOME='" + home.string() + "' " + env);
    INFO(label << "\n" << r.err);
    CHECK(r.status == 0);
    CHECK(r.err.empty());  // no warning, no validation message (NORMLAB_VALIDATION=1)
    CHECK(json::parse(slurp(s))["max_abs_error_vs_reference"].get<double>() <= 1e-5);
    return slurp(y);
}

}  // namespace

TEST_CASE("normlab-cli fills the cache, reuses it, and rebuilds damaged files silently", "[cli][cache]") {
    const fs::path home = tmpdir() / "cache-home";
    fs::remove_all(home);
    fs::create_directories(home);
    const std::string y = run(home, "cold");
    const auto cold = cache_files(home);
    std::size_t spirv = 0, pipelines = 0;
    for (const auto& [name, bytes] : cold) {
        spirv += name.rfind("normlab/spirv/", 0) == 0 && name.size() > 4 && name.substr(name.size() - 4) == ".spv";
        pipelines += name.rfind("normlab/pipelines-", 0) == 0;
        CHECK(name.find(".tmp-") == std::string::npos);
    }
    CHECK(spirv >= 1);
    CHECK(pipelines == 1);
    CHECK(run(home, "warm") == y);
    CHECK(cache_files(home) == cold);  // a warm run changes nothing

    struct Damage {
        const char* what;
        std::string (*apply)(std::string);
    };
    const Damage damages[] = {
        {"every file empty", [](std::string) { return std::string(); }},
        {"every file truncated to half", [](std::string s) { return s.substr(0, s.size() / 2); }},
        {"a byte flipped in every file",
         [](std::string s) {
             s[s.size() / 2] ^= 0x20;
             return s;
         }},
        {"every file garbage", [](std::string s) { return std::string(s.size(), '\x5c'); }},
    };
    for (const auto& d : damages) {
        for (const auto& [name, bytes] : cold) write(home / name, d.apply(bytes));
        CHECK(run(home, d.what) == y);
        const auto after = cache_files(home);
        INFO(d.what);
        for (const auto& [name, bytes] : cold) {
            REQUIRE(after.count(name));
            if (name.find("/spirv/") != std::string::npos)
                CHECK(after.at(name) == bytes);  // compiled again: the same SPIR-V
            else
                CHECK(after.at(name).size() >= 48 + 32);  // a frame around a Vulkan header at least
        }
        CHECK(run(home, "warm after the rebuild") == y);
    }
}

TEST_CASE("NORMLAB_NO_CACHE=1 writes nothing, and without HOME normlab-cli runs without a cache", "[cli][cache]") {
    const fs::path home = tmpdir() / "cache-off";
    fs::remove_all(home);
    fs::create_directories(home);
    const std::string y = run(home, "cache off", "NORMLAB_NO_CACHE=1");
    CHECK(cache_files(home).empty());
    CHECK(run(home, "no HOME, no XDG_CACHE_HOME", "env -u HOME -u XDG_CACHE_HOME") == y);
    CHECK(cache_files(home).empty());
    write(home / "a-file", "x");
    // (Mesa's shader cache, which would also live there, elsewhere: it would say it is disabled.)
    CHECK(run(home / "a-file", "a cache folder that cannot be made",
              "MESA_SHADER_CACHE_DIR='" + (home / "mesa").string() + "'") == y);
    CHECK(cache_files(home).empty());
    CHECK(fs::is_regular_file(home / "a-file"));
    CHECK_FALSE(fs::exists(home / "normlab"));
}
