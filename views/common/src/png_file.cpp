#include "normlab/views/png_file.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/core/error.hpp"

#include <stb_image_write.h>

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace normlab::views {
namespace {
void append(void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
}
}  // namespace

RgbaImage crop_image(const RgbaImage& full, std::array<int, 4> crop) {
    if (crop[2] <= 0 || crop[3] <= 0 || full.width <= 0 || full.height <= 0) return full;
    const int cx = std::clamp(crop[0], 0, full.width - 1), cy = std::clamp(crop[1], 0, full.height - 1);
    RgbaImage out{std::min(crop[2], full.width - cx), std::min(crop[3], full.height - cy), {}};
    const auto row_bytes = static_cast<std::size_t>(out.width) * 4;
    out.rgba.resize(row_bytes * static_cast<std::size_t>(out.height));
    for (int y = 0; y < out.height; ++y) {
        const std::size_t from =
            (static_cast<std::size_t>(y + cy) * static_cast<std::size_t>(full.width) + static_cast<std::size_t>(cx)) *
            4;
        std::copy_n(full.rgba.begin() + static_cast<std::ptrdiff_t>(from), row_bytes,
                    out.rgba.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * row_bytes));
    }
    return out;
}

std::string png_bytes(const std::string& path, int width, int height, const std::vector<unsigned char>& rgba) {
    std::string bytes;
    if (!stbi_write_png_to_func(append, &bytes, width, height, 4, rgba.data(), width * 4))
        throw core::InputError("cannot encode the PNG " + path);
    return bytes;
}

void write_png_atomic(const std::string& path, int width, int height, const std::vector<unsigned char>& rgba) {
    io::write_file_atomic(path, png_bytes(path, width, height, rgba));
}

}  // namespace normlab::views
