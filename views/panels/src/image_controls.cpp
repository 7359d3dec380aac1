// The Controls panel's image parts: an image file as the tensor (the source "image file") and
// AdaIN's style image (method instance). The shipped images (assets/images/) are offered by
// name as "images/NAME.png", which load_image finds in the assets folder from any directory.
#include "normlab/views/controls_panel.hpp"

#include "normlab/views/i18n.hpp"

#include "normlab/io/file_kind.hpp"
#include "normlab/io/image_file.hpp"

#include <imgui.h>

#include <algorithm>
#include <filesystem>

namespace normlab::views {
namespace {

// "images/NAME.png" for each shipped image, then the PNG/JPEG files of the working directory.
std::vector<std::string> image_choices() {
    std::vector<std::string> out;
    std::error_code ec;
    auto is_image = [](const std::filesystem::path& p) { return io::file_kind(p.string()) == io::FileKind::Image; };
    if (!io::image_search_dir().empty())  // the shipped images (image_file.hpp's search folder)
        for (const auto& e :
             std::filesystem::directory_iterator(std::filesystem::path(io::image_search_dir()) / "images", ec))
            if (is_image(e.path())) out.push_back("images/" + e.path().filename().string());
    std::sort(out.begin(), out.end());
    const std::size_t shipped = out.size();
    for (const auto& e : std::filesystem::directory_iterator(".", ec))
        if (is_image(e.path()) && out.size() < shipped + 12) out.push_back(e.path().filename().string());
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(shipped), out.end());
    return out;
}

// image_choices(), listed once.
const std::vector<std::string>& images() {
    static const std::vector<std::string> choices = image_choices();
    return choices;
}

// A path field (`field`: where the app has no file chooser of its own) with the image list under it;
// returns true when `path` should be loaded.
bool image_picker(const char* id, std::string& path, const char* button, bool field) {
    char buf[512];
    std::snprintf(buf, sizeof(buf), "%s", path.c_str());
    ImGui::PushID(id);
    if (field && ImGui::InputText(tr("path"), buf, sizeof(buf))) path = buf;
    bool load = ImGui::Button(button);
    for (const auto& c : images())
        if (ImGui::Selectable(c.c_str(), c == path, ImGuiSelectableFlags_AllowDoubleClick)) {
            path = c;
            load = load || ImGui::IsMouseDoubleClicked(0);
        }
    ImGui::PopID();
    return load && !path.empty();
}

}  // namespace

void ControlsPanel::image_controls(session::Session& s) {
    // With a file chooser: the opened file's name and the chooser's button, then the shipped images.
    const bool chooser = chooser_controls(s, core::TensorSource::Kind::Image);
    if (s.state().source.kind == core::TensorSource::Kind::Image && image_edit_.empty())
        image_edit_ = s.state().source.path;
    if (image_picker("image", image_edit_, tr("load image"), !chooser)) {
        pending_image_ = false;
        apply(s, session::with_source_image(s.state(), image_edit_), session::TensorChange::from_source());
    }
}

void ControlsPanel::style_controls(session::Session& s) {
    const core::State& st = s.state();
    ImGui::Separator();
    ImGui::TextUnformatted(tr("AdaIN: style image"));
    if (st.style_image.empty()) {
        ImGui::TextDisabled("%s", tr("(none: plain InstanceNorm)"));
    } else {
        // With a file chooser the file's name (the page's copy lives in a folder of its own).
        const std::string shown =
            pick_style_file ? std::filesystem::path(st.style_image).filename().string() : st.style_image;
        ImGui::TextDisabled("%s", shown.c_str());
        if (ImGui::Button(tr("remove the style")))
            return apply(s, session::with_style_image(st, ""), session::TensorChange::keep());
    }
    if (pick_style_file && ImGui::Button(tr("Open a style image…"))) return pick_style_file();
    if (image_picker("style", style_edit_, tr("use as style"), !pick_style_file))
        apply(s, session::with_style_image(st, style_edit_), session::TensorChange::keep());
}

}  // namespace normlab::views
