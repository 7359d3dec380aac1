#include "gl_texture.hpp"

#include "normlab/core/error.hpp"

#include <GLES3/gl3.h>

#include <cstdint>
#include <string>

namespace normlab::web {

GlTexture::~GlTexture() {
    if (texture_) glDeleteTextures(1, &texture_);
}

bool GlTexture::set(int width, int height, const std::vector<std::uint32_t>& pixels) {
    if (width <= 0 || height <= 0 ||
        pixels.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height))
        throw core::InputError("a texture of " + std::to_string(width) + "x" + std::to_string(height) +
                               " pixels was given " + std::to_string(pixels.size()));
    if (texture_ && width == width_ && height == height_ && pixels == shown_) return false;
    if (!texture_) {
        glGenTextures(1, &texture_);
        glBindTexture(GL_TEXTURE_2D, texture_);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
    glBindTexture(GL_TEXTURE_2D, texture_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    // Little-endian packed RGBA8 is the bytes R, G, B, A in memory: GL_RGBA / GL_UNSIGNED_BYTE.
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    width_ = width;
    height_ = height;
    shown_ = pixels;
    ++uploads_;
    return true;
}

ImTextureID GlTexture::id() const { return reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(texture_)); }

}  // namespace normlab::web
