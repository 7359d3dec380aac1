// What a file holds, told by its name's extension (case-insensitive: "X.NPY", "photo.JPG"): the
// one rule the app's command line (`normlab FILE`), its image and .npy lists and the browser
// page's Open… and drop share.
#pragma once
#include <string>

namespace normlab::io {

enum class FileKind {
    Npy,    // .npy: a tensor
    Image,  // .png, .jpg, .jpeg: a picture (1×C×H×W)
    Scene,  // .json (NAME.normlab.json): a scene
    Other,
};

FileKind file_kind(const std::string& name);

}  // namespace normlab::io
