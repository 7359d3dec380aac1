// The one stb_image implementation in normlab (the app's views and the CLI link it from here).
#include "normlab/io/image_file.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_FAILURE_USERMSG
#include <stb_image.h>

namespace normlab::io {

namespace {

bool starts_with(const std::string& bytes, std::string_view magic) {
    return bytes.size() >= magic.size() && std::string_view(bytes).substr(0, magic.size()) == magic;
}

}  // namespace

core::Tensor decode_image(const std::string& bytes, const std::string& name) {
    if (!starts_with(bytes, "\x89PNG\r\n\x1a\n") && !starts_with(bytes, "\xff\xd8\xff"))
        throw core::InputError(name + ": not a PNG or JPEG image");
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw core::InputError(name + ": the file is too large");
    const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
    const int len = static_cast<int>(bytes.size());
    int w = 0, h = 0, comp = 0;
    if (!stbi_info_from_memory(data, len, &w, &h, &comp))
        throw core::InputError(name + ": cannot read the image (" + stbi_failure_reason() + ")");
    if (stbi_is_16_bit_from_memory(data, len))
        throw core::InputError(name + ": 16-bit images are not supported (save it with 8 bits per channel)");
    if (w > kMaxImageSide || h > kMaxImageSide)
        throw core::InputError(name + ": the image is " + std::to_string(w) + "×" + std::to_string(h) +
                               ", larger than " + std::to_string(kMaxImageSide) + " pixels on a side");
    const int c = comp <= 2 ? 1 : 3;  // gray+alpha -> gray, RGBA -> RGB: alpha is dropped
    std::unique_ptr<stbi_uc, void (*)(void*)> pixels(stbi_load_from_memory(data, len, &w, &h, &comp, c),
                                                     stbi_image_free);
    if (!pixels) throw core::InputError(name + ": cannot decode the image (" + stbi_failure_reason() + ")");
    core::Tensor t(core::Shape4{1, c, h, w});
    const std::int64_t hw = t.shape.hw();
    for (std::int64_t p = 0; p < hw; ++p)
        for (int k = 0; k < c; ++k) t.data[static_cast<std::size_t>(k * hw + p)] = pixels.get()[p * c + k] / 255.0f;
    return t;
}

namespace {
std::string& search_dir() {
    static std::string dir;
    return dir;
}
}  // namespace

void set_image_search_dir(const std::string& dir) { search_dir() = dir; }
const std::string& image_search_dir() { return search_dir(); }

core::Tensor load_image(const std::string& path) {
    const std::filesystem::path p(path);
    std::error_code ec;
    if (p.is_relative() && !search_dir().empty() && !std::filesystem::exists(p, ec)) {
        const std::filesystem::path in_assets = std::filesystem::path(search_dir()) / p;
        if (std::filesystem::exists(in_assets, ec))
            return decode_image(read_file(in_assets.string(), 256u << 20), path);
    }
    return decode_image(read_file(path, 256u << 20), path);
}

void check_style_channels(const core::Shape4& content, const core::Shape4& style, const std::string& content_what) {
    if (style.n != 1) throw core::InputError("--style-image must be one image, got shape " + style.str());
    // InstanceNorm1d reads a 2-D input as one unbatched (C, L): its γ/β are per row, not per channel.
    if (content.rank == 2)
        throw core::InputError("--style-image (AdaIN) needs per-channel statistics, which a 2-D input has not, got " +
                               content.str());
    if (style.c != content.c) {
        auto channels = [](std::int64_t c) { return std::to_string(c) + (c == 1 ? " channel" : " channels"); };
        throw core::InputError("--style-image has " + channels(style.c) + " but " + content_what + " has " +
                               std::to_string(content.c));
    }
}

void check_image_shape(const core::Shape4& s, const std::string& what) {
    if (s.rank != 4) throw core::InputError(what + " needs a 4-D 1×C×H×W tensor, got " + s.str());
    if (s.n != 1) throw core::InputError(what + " writes one image: N must be 1, got " + s.str());
    if (s.c != 1 && s.c != 3) throw core::InputError(what + " needs 1 (gray) or 3 (RGB) channels, got " + s.str());
    if (s.h > kMaxImageSide || s.w > kMaxImageSide)
        throw core::InputError(what + ": " + s.str() + " is larger than " + std::to_string(kMaxImageSide) +
                               " pixels on a side");
}

std::vector<unsigned char> tensor_to_rgba(const core::Tensor& t, ImageScale scale) {
    const std::int64_t hw = t.shape.hw();
    std::vector<unsigned char> rgba(static_cast<std::size_t>(hw * 4), 255);
    auto byte = [scale](float v) {
        double u = scale == ImageScale::Sigma3 ? 0.5 + v / 6.0 : v;
        if (std::isnan(u)) u = 0.0;
        u = std::clamp(u, 0.0, 1.0);
        return static_cast<unsigned char>(std::lround(u * 255.0));
    };
    for (std::int64_t p = 0; p < hw; ++p)
        for (int k = 0; k < 3; ++k) {
            const std::int64_t ch = t.shape.c == 1 ? 0 : k;
            rgba[static_cast<std::size_t>(p * 4 + k)] = byte(t.data[static_cast<std::size_t>(ch * hw + p)]);
        }
    return rgba;
}

}  // namespace normlab::io
