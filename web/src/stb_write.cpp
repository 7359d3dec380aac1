// stb_image_write for the browser edition's PNG downloads (views/png_file.cpp: screenshots and
// figures). The desktop compiles it in views/stb_impl.cpp beside the stb code Debian's libimgui.a
// lacks; here ImGui is built from its sources with its own stb_truetype and stb_rect_pack.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
