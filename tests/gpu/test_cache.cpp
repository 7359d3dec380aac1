// The caches kept between runs (cache_file.hpp, spirv_cache.hpp, pipeline_cache.hpp): a hit gives
// what a compile gives; a missing, truncated, corrupt, foreign or stale file is rebuilt silently
// (no exception, no validation message) and the numbers stay right; NORMLAB_NO_CACHE=1 writes
// nothing. Each test has its own XDG_CACHE_HOME, set before any context is created.
#include <catch2/catch.hpp>

#include "../support.hpp"
#include "normlab/io/atomic_file.hpp"
#include "normlab/gpu/cache_file.hpp"
#include "normlab/gpu/pipeline_cache.hpp"
#include "normlab/gpu/shader_library.hpp"
#include "normlab/gpu/spirv_cache.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <thread>

using namespace normlab;
namespace fs = std::filesystem;

namespace {

// Sets (or unsets) an environment variable for one scope, then restores it.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        value ? ::setenv(name, value, 1) : ::unsetenv(name);
    }
    ~ScopedEnv() { old_ ? ::setenv(name_, old_->c_str(), 1) : ::unsetenv(name_); }

private:
    const char* name_;
    std::optional<std::string> old_;
};

// A fresh XDG_CACHE_HOME for one test, removed afterwards. (Mesa's drivers keep their shader
// cache in XDG_CACHE_HOME too: pointed elsewhere, so that they say nothing when the test makes
// XDG_CACHE_HOME unusable.)
struct TempCacheHome {
    fs::path root = [] {
        std::string t = (fs::temp_directory_path() / "normlab-cache-test-XXXXXX").string();
        return fs::path(::mkdtemp(t.data()));
    }();
    ScopedEnv xdg{"XDG_CACHE_HOME", root.c_str()};
    ScopedEnv mesa{"MESA_SHADER_CACHE_DIR", (root / "mesa").c_str()};
    ScopedEnv off{"NORMLAB_NO_CACHE", nullptr};
    ~TempCacheHome() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    fs::path dir() const { return root / "normlab"; }
    // Files in normlab's folder (the Mesa drivers keep their own cache beside it).
    std::size_t files() const {
        std::size_t n = 0;
        if (fs::exists(dir()))
            for (const auto& e : fs::recursive_directory_iterator(dir())) n += e.is_regular_file();
        return n;
    }
};

const std::string kOk = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n";

std::string bytes_of(const std::vector<std::uint32_t>& words) {
    return std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4);
}

// The ways a cache file goes bad, each applied to the file's bytes.
struct Damage {
    const char* what;
    std::function<std::string(std::string)> apply;
};
std::vector<Damage> damages() {
    return {
        {"empty", [](std::string) { return std::string(); }},
        {"truncated to half", [](std::string s) { return s.substr(0, s.size() / 2); }},
        {"cut by one byte", [](std::string s) { return s.substr(0, s.size() - 1); }},
        {"a payload byte flipped",
         [](std::string s) {
             s[s.size() - 3] ^= 0x5a;
             return s;
         }},
        {"a header byte flipped",
         [](std::string s) {
             s[10] ^= 0x01;
             return s;
         }},
        {"garbage", [](std::string s) { return std::string(s.size(), '\xa7'); }},
        {"one extra byte", [](std::string s) { return s + "x"; }},
    };
}

// Runs GroupNorm on its own context and checks y against the float64 reference; the context
// reports no validation message.
void run_and_check(const char* label) {
    gpu::VulkanContext ctx;
    {
        ops::Normalizer norm(ctx);
        core::Tensor x = make_tensor({2, 6, 5, 7}, core::Init::Randn, 808);
        core::NormSpec spec = core::default_spec(core::Method::Group);
        spec.groups = 3;
        core::NormResult r = norm.run(x, spec);
        INFO(label);
        CHECK(reference::max_abs_error(r.y.data, reference::reference_normalize(x, spec, {}).y) <= 1e-5);
    }
    INFO(label);
    CHECK(ctx.validation_messages() == 0);
}

std::string pipeline_file(const gpu::VulkanContext& ctx, const fs::path& dir) {
    return gpu::pipeline_cache_path(dir.string(), ctx.physical().getProperties());
}

}  // namespace

TEST_CASE("the cache folder: XDG_CACHE_HOME, else ~/.cache, none when off or impossible", "[cache]") {
    TempCacheHome home;
    REQUIRE(gpu::cache_directory() == home.dir().string());
    CHECK(fs::is_directory(home.dir()));
    {
        ScopedEnv h("HOME", home.root.c_str());
        ScopedEnv relative("XDG_CACHE_HOME", "relative/path");  // the XDG spec: ignore a relative one
        CHECK(gpu::cache_directory() == (home.root / ".cache" / "normlab").string());
    }
    {
        ScopedEnv h("HOME", nullptr);
        ScopedEnv x("XDG_CACHE_HOME", nullptr);
        CHECK_FALSE(gpu::cache_directory());
    }
    {
        io::write_file_atomic((home.root / "a-file").string(), "not a folder");
        ScopedEnv x("XDG_CACHE_HOME", (home.root / "a-file").c_str());
        CHECK_FALSE(gpu::cache_directory());
        run_and_check("a cache folder that cannot be created");
    }
    {
        ScopedEnv off("NORMLAB_NO_CACHE", "1");
        CHECK_FALSE(gpu::cache_directory());
    }
    {
        ScopedEnv on("NORMLAB_NO_CACHE", "0");
        CHECK(gpu::cache_directory());
    }
}

TEST_CASE("a cached SPIR-V entry is what the compiler gives, and is read back", "[cache]") {
    TempCacheHome home;
    const auto dir = gpu::cache_directory();
    REQUIRE(dir);
    const std::string name = "histogram.comp";
    const gpu::ShaderMacros macros = {{"PASS", "1"}};
    const auto fresh = gpu::compile_glsl(name, gpu::shader_source(name), macros);
    CHECK(gpu::compile_glsl_cached(name, gpu::shader_source(name), macros, dir) == fresh);
    const gpu::Digest key = gpu::spirv_key(name, gpu::shader_source(name), macros);
    const std::string path = gpu::spirv_cache_path(*dir, key);
    REQUIRE(fs::exists(path));
    CHECK(gpu::read_cache_entry(path, "NLSPIRV1", key) == bytes_of(fresh));
    CHECK(gpu::compile_glsl_cached(name, gpu::shader_source(name), macros, dir) == fresh);

    // A hit does not compile: a valid entry holding other SPIR-V is returned as it is.
    const auto other = gpu::compile_glsl("ok.comp", kOk);
    gpu::write_cache_entry(path, "NLSPIRV1", key, bytes_of(other));
    CHECK(gpu::compile_glsl_cached(name, gpu::shader_source(name), macros, dir) == other);

    // Everything that changes the compiler's output changes the key.
    CHECK(gpu::spirv_key(name, gpu::shader_source(name), {{"PASS", "2"}}) != key);
    CHECK(gpu::spirv_key(name, gpu::shader_source(name), {}) != key);
    CHECK(gpu::spirv_key(name, gpu::shader_source(name) + "\n", macros) != key);
    CHECK(gpu::spirv_key("histogram.vert", gpu::shader_source(name), macros) != key);
    CHECK(gpu::spirv_key("x.comp", kOk, {{"A", "1"}, {"B", ""}}) != gpu::spirv_key("x.comp", kOk, {{"A", "1B"}}));
    CHECK(gpu::shader_compiler_identity().find("shaderc ") == 0);
    CHECK(gpu::shader_compiler_identity().find("glslang ") != std::string::npos);
}

TEST_CASE("damaged SPIR-V entries are compiled again and rewritten", "[cache]") {
    TempCacheHome home;
    const auto dir = gpu::cache_directory();
    REQUIRE(dir);
    const std::string name = "norm_apply.comp";
    const auto fresh = gpu::compile_glsl(name, gpu::shader_source(name));
    const gpu::Digest key = gpu::spirv_key(name, gpu::shader_source(name), {});
    const std::string path = gpu::spirv_cache_path(*dir, key);
    REQUIRE(gpu::compile_glsl_cached(name, gpu::shader_source(name), {}, dir) == fresh);
    const std::string good = io::read_file(path, 1 << 24);
    for (const auto& d : damages()) {
        INFO(d.what);
        io::write_file_atomic(path, d.apply(good));
        CHECK(gpu::compile_glsl_cached(name, gpu::shader_source(name), {}, dir) == fresh);
        CHECK(io::read_file(path, 1 << 24) == good);
    }
    // An entry framed correctly whose payload is not SPIR-V (a stale format) is not used either.
    gpu::write_cache_entry(path, "NLSPIRV1", key, "not spir-v, but a multiple of 4 bytes long");
    CHECK(gpu::compile_glsl_cached(name, gpu::shader_source(name), {}, dir) == fresh);
    CHECK(io::read_file(path, 1 << 24) == good);
    // A folder where the entry should be: compiled, nothing thrown.
    fs::remove(path);
    fs::create_directories(path);
    CHECK(gpu::compile_glsl_cached(name, gpu::shader_source(name), {}, dir) == fresh);
}

TEST_CASE("the pipeline cache header is checked as the Vulkan spec describes", "[cache]") {
    vk::PhysicalDeviceProperties p;
    p.vendorID = 0x10005;
    p.deviceID = 0x42;
    for (std::uint32_t i = 0; i < VK_UUID_SIZE; ++i) p.pipelineCacheUUID[i] = static_cast<std::uint8_t>(i * 7);
    auto header = [&](std::uint32_t size, std::uint32_t version, std::uint32_t vendor, std::uint32_t device) {
        std::string s(32, '\0');
        std::memcpy(s.data(), &size, 4);
        std::memcpy(s.data() + 4, &version, 4);
        std::memcpy(s.data() + 8, &vendor, 4);
        std::memcpy(s.data() + 12, &device, 4);
        std::memcpy(s.data() + 16, p.pipelineCacheUUID.data(), VK_UUID_SIZE);
        return s;
    };
    const std::string good = header(32, VK_PIPELINE_CACHE_HEADER_VERSION_ONE, p.vendorID, p.deviceID) + "data";
    CHECK(gpu::pipeline_cache_header_matches(good, p));
    CHECK(gpu::pipeline_cache_header_matches(good.substr(0, 32), p));
    CHECK_FALSE(gpu::pipeline_cache_header_matches(good.substr(0, 31), p));
    CHECK_FALSE(gpu::pipeline_cache_header_matches("", p));
    CHECK_FALSE(gpu::pipeline_cache_header_matches(header(31, 1, p.vendorID, p.deviceID), p));  // length too small
    CHECK_FALSE(gpu::pipeline_cache_header_matches(header(64, 1, p.vendorID, p.deviceID), p));  // longer than the data
    // The specification requires headerSize 32, even where more data follows the header.
    CHECK_FALSE(gpu::pipeline_cache_header_matches(header(33, 1, p.vendorID, p.deviceID) + "more data", p));
    CHECK_FALSE(gpu::pipeline_cache_header_matches(header(32, 2, p.vendorID, p.deviceID), p));  // another version
    CHECK_FALSE(gpu::pipeline_cache_header_matches(header(32, 1, p.vendorID + 1, p.deviceID), p));
    CHECK_FALSE(gpu::pipeline_cache_header_matches(header(32, 1, p.vendorID, p.deviceID + 1), p));
    std::string uuid = good;
    uuid[16 + 5] ^= 0x10;
    CHECK_FALSE(gpu::pipeline_cache_header_matches(uuid, p));
    // The file is named after the device and the driver.
    vk::PhysicalDeviceProperties q = p;
    q.driverVersion = p.driverVersion + 1;
    CHECK(gpu::pipeline_cache_path("/c", p) != gpu::pipeline_cache_path("/c", q));
    CHECK_FALSE(gpu::pipeline_cache_key(p) == gpu::pipeline_cache_key(q));
    q = p;
    q.pipelineCacheUUID[0] ^= 1;
    CHECK(gpu::pipeline_cache_path("/c", p) != gpu::pipeline_cache_path("/c", q));
}

TEST_CASE("the pipeline cache is saved, reloaded, and damaged files are rebuilt silently", "[cache][gpu]") {
    TempCacheHome home;
    std::string path;
    {
        gpu::VulkanContext ctx;
        REQUIRE(ctx.pipeline_cache() != nullptr);
        REQUIRE(ctx.pipeline_cache_handle() != VK_NULL_HANDLE);
        path = pipeline_file(ctx, home.dir());
    }
    run_and_check("first run, empty cache");
    REQUIRE(fs::exists(path));
    gpu::VulkanContext probe;  // the device's properties (its own cache is not saved: it creates no pipeline)
    const auto props = probe.physical().getProperties();
    const auto key = gpu::pipeline_cache_key(props);
    auto valid = [&] {
        auto data = gpu::read_cache_entry(path, gpu::kPipelineCacheMagic, key);
        return data && gpu::pipeline_cache_header_matches(*data, props);
    };
    REQUIRE(valid());
    const std::string good = io::read_file(path, 1 << 28);
    run_and_check("warm cache");
    CHECK(valid());

    for (const auto& d : damages()) {
        io::write_file_atomic(path, d.apply(good));
        run_and_check(d.what);
        INFO(d.what);
        CHECK(valid());
    }
    // Framed correctly (so only the Vulkan header check stands between the data and the driver).
    const std::string vulkan = *read_cache_entry(path, gpu::kPipelineCacheMagic, key);
    auto reframed = [&](const char* what, std::size_t at, char bit) {
        std::string v = vulkan;
        v[at] ^= bit;
        gpu::write_cache_entry(path, gpu::kPipelineCacheMagic, key, v);
        REQUIRE_FALSE(gpu::pipeline_cache_header_matches(v, props));
        run_and_check(what);
        INFO(what);
        CHECK(valid());
    };
    reframed("header length wrong", 0, 0x01);
    reframed("header version 2", 4, 0x03);
    reframed("another vendor", 8, 0x01);
    reframed("another device", 12, 0x01);
    reframed("another UUID", 16 + 3, 0x40);
    reframed("another UUID (last byte)", 31, 0x01);
    // A stale file: the key of another driver version in the frame.
    vk::PhysicalDeviceProperties old = props;
    old.driverVersion ^= 1;
    gpu::write_cache_entry(path, gpu::kPipelineCacheMagic, gpu::pipeline_cache_key(old), vulkan);
    run_and_check("another driver version");
    CHECK(valid());
    CHECK(probe.validation_messages() == 0);
}

TEST_CASE("NORMLAB_NO_CACHE=1 reads and writes nothing", "[cache][gpu]") {
    TempCacheHome home;
    ScopedEnv off("NORMLAB_NO_CACHE", "1");
    {
        gpu::VulkanContext ctx;
        CHECK(ctx.pipeline_cache() == nullptr);
        CHECK(ctx.pipeline_cache_handle() == VK_NULL_HANDLE);
    }
    run_and_check("no cache");
    CHECK(gpu::compile_glsl_cached("ok.comp", kOk, {}, gpu::cache_directory()) == gpu::compile_glsl("ok.comp", kOk));
    CHECK(home.files() == 0);
    CHECK_FALSE(fs::exists(home.dir()));
}

TEST_CASE("concurrent writers of one entry never leave a torn file", "[cache]") {
    TempCacheHome home;
    const auto dir = gpu::cache_directory();
    REQUIRE(dir);
    const std::string path = *dir + "/race.bin";
    const gpu::Digest key = gpu::Hasher().add("race").digest();
    const std::string a(300000, 'a'), b(200000, 'b');
    gpu::write_cache_entry(path, "NLTEST01", key, a);
    std::atomic<bool> stop{false};
    std::atomic<int> torn{0}, reads{0};
    std::thread reader([&] {
        while (!stop) {
            auto got = gpu::read_cache_entry(path, "NLTEST01", key);
            if (!got || (*got != a && *got != b)) ++torn;
            ++reads;
        }
    });
    std::thread wa([&] {
        for (int i = 0; i < 20; ++i) write_cache_entry(path, "NLTEST01", key, a);
    });
    std::thread wb([&] {
        for (int i = 0; i < 20; ++i) write_cache_entry(path, "NLTEST01", key, b);
    });
    wa.join();
    wb.join();
    stop = true;
    reader.join();
    CHECK(reads > 0);
    CHECK(torn == 0);
    // No temporary file is left behind.
    std::size_t entries = 0;
    for (const auto& e : fs::directory_iterator(*dir)) entries += e.is_regular_file();
    CHECK(entries == 1);
}

TEST_CASE("two caches saving one file (two processes at once) merge it, silently", "[cache][gpu]") {
    TempCacheHome home;
    const auto dir = gpu::cache_directory();
    REQUIRE(dir);
    std::string path;
    {
        gpu::VulkanContext ctx;  // its own cache is saved last, when it goes
        const auto props = ctx.physical().getProperties();
        path = gpu::pipeline_cache_path(*dir, props);
        {
            // 128 bytes of push constants: the most every device allows, more than copy.comp uses.
            gpu::ComputeKernel k(ctx, "copy.comp", {}, {64, 1}, 2, 128);
        }
        gpu::PipelineCacheStore first(ctx.device(), props, dir), second(ctx.device(), props, dir);
        REQUIRE_FALSE(fs::exists(path));  // both start from no file
        first.save();
        REQUIRE(fs::exists(path));
        second.save();  // finds first's file, merges it into its own data, then writes
        CHECK(ctx.validation_messages() == 0);
        auto data = gpu::read_cache_entry(path, gpu::kPipelineCacheMagic, gpu::pipeline_cache_key(props));
        REQUIRE(data);
        CHECK(gpu::pipeline_cache_header_matches(*data, props));
    }
    run_and_check("after the merges");
}
