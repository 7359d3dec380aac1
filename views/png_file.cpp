#include "png_file.hpp"

#include "normlab/atomic_file.hpp"
#include "normlab/error.hpp"

#include <stb_image_write.h>

#include <string_view>

namespace normlab::app {
namespace {
void append(void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
}
}  // namespace

std::string png_bytes(const std::string& path, int width, int height, const std::vector<unsigned char>& rgba) {
    std::string bytes;
    if (!stbi_write_png_to_func(append, &bytes, width, height, 4, rgba.data(), width * 4))
        throw InputError("cannot encode the PNG " + path);
    return bytes;
}

void write_png_atomic(const std::string& path, int width, int height, const std::vector<unsigned char>& rgba) {
    write_file_atomic(path, png_bytes(path, width, height, rgba));
}

}  // namespace normlab::app
