// GlTexture: an RGBA8 image (one packed value per pixel, R in the low byte, as the heatmap fill
// writes it) as a WebGL2 texture that ImGui draws (ImGui::Image). The pixels are uploaded only
// when they differ from the last upload; sampled nearest, so a scaled cell keeps its exact colour.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <vector>

namespace normlab::web {

class GlTexture {
public:
    GlTexture() = default;
    ~GlTexture();
    GlTexture(const GlTexture&) = delete;
    GlTexture& operator=(const GlTexture&) = delete;

    // width × height pixels, row by row. Uploads (and returns true) only when the size or a
    // pixel changed since the last call.
    bool set(int width, int height, const std::vector<std::uint32_t>& pixels);
    ImTextureID id() const;
    int width() const { return width_; }
    int height() const { return height_; }
    int uploads() const { return uploads_; }

private:
    unsigned int texture_ = 0;
    int width_ = 0, height_ = 0, uploads_ = 0;
    std::vector<std::uint32_t> shown_;  // what the texture holds
};

}  // namespace normlab::web
