// The stb code normlab and Dear ImGui use, compiled into the binaries. Both builds: stb_image_write,
// with which views/common's png_file writes PNGs. The desktop also: stb_rect_pack and stb_truetype,
// which Debian's libimgui.a leaves unresolved (its pkg-config file adds -lstb, Debian's libstb.so.0,
// which other distributions lack); the browser's ImGui, built from its sources, has its own.
// stb_image (PNG/JPEG input) is compiled once, in engine/io/src/image_file.cpp.
// Headers from Debian's libstb-dev (/usr/include/stb), the same ones libimgui.a was built
// against, so the structures it shares with this code (stbtt_fontinfo, stbrp_context) agree.
// stb_textedit needs nothing here: imgui_widgets.cpp compiles its own copy.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

#ifndef __EMSCRIPTEN__
#define STB_RECT_PACK_IMPLEMENTATION
#include <stb_rect_pack.h>

#define STB_TRUETYPE_IMPLEMENTATION
#include <stb_truetype.h>
#endif
