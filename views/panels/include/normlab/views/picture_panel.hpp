// PicturePanel: a tensor that came from an image drawn as pictures — x, and y mapped to
// [0, 1] as --output-image maps it (0.5 + y/6, ±3σ from black to white); with AdaIN the
// content, the style and the result (clamp(y)) side by side. RGB composite (gray: R = G = B),
// aspect kept, drawn as ImDrawList cells (at most kMaxCells per side; a larger image is
// sampled), since ImGui 1.86's Vulkan backend ignores texture ids.
#pragma once
#include "normlab/session/session.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace normlab::views {

class PicturePanel {
public:
    static constexpr int kMaxCells = 160;
    // Whether the session's tensor is a picture: an image source (or an AdaIN style), 1×C×H×W, C = 1 or 3.
    static bool wanted(const session::Session& s);
    // Inside the current window: the pictures in a row, each with its caption.
    void draw(const session::Session& s);
    // How many pictures the last draw showed.
    int count() const { return static_cast<int>(pictures_.size()); }

private:
    struct Picture {
        std::string caption;
        std::int64_t w = 0, h = 0;
        std::vector<unsigned char> rgba;
    };
    void refresh(const session::Session& s);
    std::uint64_t generation_ = ~0ull;
    int language_ = -1;
    std::vector<Picture> pictures_;
};

}  // namespace normlab::views
