#include "normlab/io/file_kind.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace normlab::io {

FileKind file_kind(const std::string& name) {
    std::string ext = std::filesystem::path(name).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == ".npy") return FileKind::Npy;
    if (ext == ".png" || ext == ".jpg" || ext == ".jpeg") return FileKind::Image;
    if (ext == ".json") return FileKind::Scene;
    return FileKind::Other;
}

}  // namespace normlab::io
