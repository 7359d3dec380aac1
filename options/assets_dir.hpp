// Where normlab's data files (lessons, the example presets and experiments, the font license)
// are at run time, for the app and normlab-cli alike: the folder NORMLAB_ASSETS names; else
// <executable>/../share/normlab (an installed tree: cmake --install, the .deb); else, for a
// binary still in the build tree's bin/, the source tree's assets/. Any working directory.
#pragma once
#include <filesystem>

namespace normlab {

// The assets folder (it holds lessons/). Throws InputError with one line naming where it
// looked when NORMLAB_ASSETS names no such folder or an installed tree lacks share/normlab.
std::filesystem::path assets_dir();

// Lets load_image find "images/NAME.png" in assets_dir() (image_file.hpp) when there is one.
void find_images_in_assets();

}  // namespace normlab
