// PNG files for screenshots, slides and figures, written atomically (readers never see a
// half-written image): stb_image_write encodes into memory, write_file_atomic stores it.
#pragma once
#include <array>
#include <string>
#include <vector>

namespace normlab::views {

// An image's pixels: width × height × 4 bytes (RGBA), top row first.
struct RgbaImage {
    int width = 0, height = 0;
    std::vector<unsigned char> rgba;
};

// The part of `full` inside `crop` (x, y, w, h, clamped to the image; w or h zero: all of it).
RgbaImage crop_image(const RgbaImage& full, std::array<int, 4> crop);

// The PNG file's bytes of rgba (width × height × 4 bytes, top row first). Throws InputError
// (naming `path`) when it cannot be encoded.
std::string png_bytes(const std::string& path, int width, int height, const std::vector<unsigned char>& rgba);

// rgba: width × height × 4 bytes, top row first. Throws InputError when it cannot be written.
void write_png_atomic(const std::string& path, int width, int height, const std::vector<unsigned char>& rgba);

}  // namespace normlab::views
