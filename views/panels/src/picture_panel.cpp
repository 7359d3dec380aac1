#include "normlab/views/picture_panel.hpp"

#include "normlab/views/i18n.hpp"

#include "normlab/io/image_file.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace normlab::views {

bool PicturePanel::wanted(const session::Session& s) {
    const core::Shape4& sh = s.x().shape;
    const bool image = s.state().source.kind == core::TensorSource::Kind::Image || s.style().has_value();
    return image && sh.rank == 4 && sh.n == 1 && (sh.c == 1 || sh.c == 3) && s.result().y.shape == sh;
}

void PicturePanel::refresh(const session::Session& s) {
    pictures_.clear();
    auto add = [&](const char* caption, const core::Tensor& t, io::ImageScale scale) {
        pictures_.push_back({tr(caption), t.shape.w, t.shape.h, io::tensor_to_rgba(t, scale)});
    };
    add("x (content)", s.x(), io::ImageScale::Unit);
    if (s.style()) {
        add("style", *s.style(), io::ImageScale::Unit);
        add("y (AdaIN)", s.result().y, io::ImageScale::Unit);
    } else {
        add("y (0.5 + y/6)", s.result().y, io::ImageScale::Sigma3);
    }
}

void PicturePanel::draw(const session::Session& s) {
    if (!wanted(s)) return;
    if (generation_ != s.generation() || language_ != static_cast<int>(language())) {
        refresh(s);
        generation_ = s.generation();
        language_ = static_cast<int>(language());
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
    const float n = static_cast<float>(pictures_.size());
    const float cap_h = ImGui::GetTextLineHeightWithSpacing();
    const float slot_w = std::max(8.0f, (avail.x - gap * (n - 1)) / n), slot_h = std::max(8.0f, avail.y - cap_h);
    const ImVec2 start = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (std::size_t i = 0; i < pictures_.size(); ++i) {
        const Picture& p = pictures_[i];
        const float scale = std::min(slot_w / static_cast<float>(p.w), slot_h / static_cast<float>(p.h));
        const float pw = std::floor(static_cast<float>(p.w) * scale), ph = std::floor(static_cast<float>(p.h) * scale);
        const float x0 = start.x + static_cast<float>(i) * (slot_w + gap);
        dl->PushClipRect(ImVec2(x0, start.y), ImVec2(x0 + slot_w, start.y + cap_h), true);  // a long caption is cut
        dl->AddText(ImVec2(x0, start.y), ImGui::GetColorU32(ImGuiCol_Text), p.caption.c_str());
        dl->PopClipRect();
        const float y0 = start.y + cap_h;
        // Cells: at most kMaxCells per side and none smaller than a pixel; each samples the
        // image pixel at its centre.
        const int cw = static_cast<int>(std::clamp<float>(std::min<float>(static_cast<float>(p.w), pw), 1, kMaxCells));
        const int ch = static_cast<int>(std::clamp<float>(std::min<float>(static_cast<float>(p.h), ph), 1, kMaxCells));
        for (int cy = 0; cy < ch; ++cy) {
            const auto sy = static_cast<std::int64_t>((cy + 0.5) * static_cast<double>(p.h) / ch);
            const float ya = y0 + std::floor(ph * static_cast<float>(cy) / static_cast<float>(ch));
            const float yb = y0 + std::floor(ph * static_cast<float>(cy + 1) / static_cast<float>(ch));
            for (int cx = 0; cx < cw; ++cx) {
                const auto sx = static_cast<std::int64_t>((cx + 0.5) * static_cast<double>(p.w) / cw);
                const unsigned char* px = &p.rgba[static_cast<std::size_t>((sy * p.w + sx) * 4)];
                const float xa = x0 + std::floor(pw * static_cast<float>(cx) / static_cast<float>(cw));
                const float xb = x0 + std::floor(pw * static_cast<float>(cx + 1) / static_cast<float>(cw));
                dl->AddRectFilled(ImVec2(xa, ya), ImVec2(xb, yb), IM_COL32(px[0], px[1], px[2], 255));
            }
        }
        dl->AddRect(ImVec2(x0 - 1, y0 - 1), ImVec2(x0 + pw + 1, y0 + ph + 1), ImGui::GetColorU32(ImGuiCol_Border));
    }
    ImGui::Dummy(ImVec2(avail.x, avail.y));
}

}  // namespace normlab::views
