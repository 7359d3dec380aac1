// Small helpers of the Controls panel's two files (controls_panel.cpp, controls_tensor.cpp).
#pragma once
#include <imgui.h>

#include <cstdio>
#include <string>

namespace normlab::views {

// The item width for the widgets of one scope: popped on every way out, early returns included.
class ItemWidth {
public:
    explicit ItemWidth(float w) { ImGui::PushItemWidth(w); }
    ~ItemWidth() { ImGui::PopItemWidth(); }
    ItemWidth(const ItemWidth&) = delete;
    ItemWidth& operator=(const ItemWidth&) = delete;
};

// `bytes` as "12.3 MiB".
inline std::string mib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f MiB", bytes / (1024.0 * 1024.0));
    return buf;
}

}  // namespace normlab::views
