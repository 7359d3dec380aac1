// The stb code normlab and Dear ImGui use, compiled into the binaries: Debian's libimgui.a
// leaves stb_truetype and stb_rect_pack unresolved (its pkg-config file adds -lstb, Debian's
// libstb.so.0, which other distributions lack), png_file.cpp writes PNGs with stb_image_write.
// stb_image (PNG/JPEG input) is compiled once, in engine/core/src/image_file.cpp. The browser
// edition compiles stb_image_write alone (web/src/stb_write.cpp): its ImGui has its own stb_truetype.
// Headers from Debian's libstb-dev (/usr/include/stb), the same ones libimgui.a was built
// against, so the structures it shares with this code (stbtt_fontinfo, stbrp_context) agree.
// stb_textedit needs nothing here: imgui_widgets.cpp compiles its own copy.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

#define STB_RECT_PACK_IMPLEMENTATION
#include <stb_rect_pack.h>

#define STB_TRUETYPE_IMPLEMENTATION
#include <stb_truetype.h>
