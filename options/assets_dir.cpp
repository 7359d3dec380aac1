#include "assets_dir.hpp"

#include "normlab/core/error.hpp"
#include "normlab/io/image_file.hpp"

#include <cstdlib>
#include <string>
#include <system_error>

namespace normlab {
namespace {

namespace fs = std::filesystem;

bool holds_lessons(const fs::path& dir) {
    std::error_code ec;
    return fs::is_directory(dir / "lessons", ec);
}

// The running binary's folder (symbolic links resolved: /usr/bin/normlab may be one).
fs::path executable_dir() {
    std::error_code ec;
    fs::path exe = fs::canonical("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

// True when `dir` is the build tree's bin/ (CMAKE_RUNTIME_OUTPUT_DIRECTORY), where the
// binaries run before they are installed.
bool is_build_bin_dir(const fs::path& dir) {
    std::error_code ec;
    return !dir.empty() && fs::equivalent(dir, NORMLAB_BUILD_BIN_DIR, ec) && !ec;
}

}  // namespace

fs::path assets_dir() {
    if (const char* env = std::getenv("NORMLAB_ASSETS"); env != nullptr && *env != '\0') {
        if (!holds_lessons(env))
            throw core::InputError(std::string("NORMLAB_ASSETS=") + env +
                                   " is not a normlab assets folder (no lessons/ in it)");
        return fs::path(env).lexically_normal();
    }
    const fs::path bin = executable_dir();
    const fs::path installed = (bin / ".." / "share" / "normlab").lexically_normal();
    if (!bin.empty() && holds_lessons(installed)) return installed;
    if (is_build_bin_dir(bin) && holds_lessons(NORMLAB_SOURCE_ASSETS)) return NORMLAB_SOURCE_ASSETS;
    throw core::InputError(
        "normlab's assets are not in " + installed.string() +
        " (no lessons/ there): reinstall normlab, or set NORMLAB_ASSETS to its share/normlab folder");
}

void find_images_in_assets() {
    try {
        io::set_image_search_dir(assets_dir().string());
    } catch (const core::InputError&) {
        // no assets folder: relative image paths are read from the working directory only
    }
}

}  // namespace normlab
