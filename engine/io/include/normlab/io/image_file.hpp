// Images as tensors: an 8-bit PNG or JPEG (gray, gray+alpha, RGB or RGBA; alpha dropped) read
// with stb_image into a 1×C×H×W float32 tensor of value/255 (C = 1 or 3, planar NCHW), and a
// 1×C×H×W tensor (C = 1 or 3) turned into 8-bit RGBA pixels for a PNG. No Vulkan here.
#pragma once
#include "normlab/core/tensor.hpp"

#include <string>
#include <vector>

namespace normlab::io {

// Largest image accepted: this many pixels per side.
inline constexpr int kMaxImageSide = 4096;

// Reads PNG/JPEG bytes (`name` for messages). Throws InputError("<name>: ...") for anything
// else: not a PNG or JPEG, 16-bit, corrupt, or larger than kMaxImageSide on a side.
core::Tensor decode_image(const std::string& bytes, const std::string& name);
// decode_image of a file's bytes (read_file's errors for a missing or unreadable file). A
// relative path that is not in the working directory is looked up in the image search folder
// (set_image_search_dir), so scenes and lessons name the shipped images "images/NAME.png".
core::Tensor load_image(const std::string& path);
// The app and normlab-cli set it to the assets folder (options/assets_dir.hpp), the browser edition
// to the assets it embeds; empty: none. The Controls panel lists its images/ folder.
void set_image_search_dir(const std::string& dir);
const std::string& image_search_dir();

// AdaIN's style image: throws InputError unless it has one sample and the content's channel
// count, naming both ("--style-image has 1 channel but the content image has 3"). `content_what`:
// "the content image" or "the input".
void check_style_channels(const core::Shape4& content, const core::Shape4& style, const std::string& content_what);

// How y's values map to [0, 1] for an image: Sigma3 = clamp(0.5 + y/6) (±3σ from black to
// white, for a normalized tensor), Unit = clamp(y) (an image-valued tensor such as AdaIN's).
enum class ImageScale { Sigma3, Unit };

// Throws InputError (naming `what`) unless `shape` is 1×C×H×W with C = 1 or 3.
void check_image_shape(const core::Shape4& shape, const std::string& what);
// width·height·4 bytes, top row first: gray is replicated to R, G and B; alpha is 255.
std::vector<unsigned char> tensor_to_rgba(const core::Tensor& t, ImageScale scale);

}  // namespace normlab::io
