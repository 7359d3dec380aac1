// HeatmapImage: the device's part of a heatmap — filling its picture with the fill kernel and putting
// it on screen. HeatmapPanel (heatmap_panel.hpp: the controls, hover, click, legend) asks for a picture
// every frame; the desktop's twin (VulkanHeatmapImage, heatmap_view.hpp) fills it with heatmap.comp and
// draws it in ImGui's render pass, the browser's (web/src/web_heatmap_image.hpp) fills it with
// heatmap.wgsl and draws it as a WebGL texture. Both read x and y where the Session left them, on the
// device, and fill again only when the picture asked for changed.
#pragma once
#include "normlab/views/colormap.hpp"
#include "normlab/views/heatmap_fill.hpp"
#include "normlab/session/shown_tensors.hpp"

#include <imgui.h>

#include <cstdint>
#include <functional>
#include <memory>

namespace normlab::views {

// What one heatmap shows: the tensors, the colours and the fill's parameters (geometry, mode,
// value range, selected statistic).
struct HeatmapPicture {
    const session::ShownTensors* shown = nullptr;
    std::uint64_t generation = ~0ull, buffer_epoch = ~0ull;  // of `shown`: its data and device buffers
    Colormap colormap = Colormap::Diverging;
    GroupPalette palette = GroupPalette::OkabeIto;
    plan::HeatmapFillParams push{};
    bool operator==(const HeatmapPicture&) const = default;
};

class HeatmapImage {
public:
    virtual ~HeatmapImage() = default;
    // Puts `picture` (push.img_w × push.img_h pixels) into the current ImGui window at `origin`, `size`
    // ImGui units large; fills it first when it differs from the one filled last.
    virtual void draw(const HeatmapPicture& picture, ImVec2 origin, ImVec2 size) = 0;
};

// Makes one more image for a view that holds several heatmaps (the compare and gradient views).
using MakeHeatmapImage = std::function<std::unique_ptr<HeatmapImage>()>;

}  // namespace normlab::views
