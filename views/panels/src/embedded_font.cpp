// DejaVu Sans (Latin, Greek, punctuation, arrows, math, geometric shapes) compiled into the
// binary, so μ, σ and friends render on machines without fonts-dejavu-core. The file is
// assets/fonts/DejaVuSans-subset.ttf (scripts/subset-font.py; license in
// assets/fonts/LICENSE-DejaVu.txt), whose path CMake passes as NORMLAB_FONT_FILE and lists
// in this object's OBJECT_DEPENDS, so a new font rebuilds it. The assembler's .incbin copies
// the bytes: no generated source, no measurable compile time.
#include "embedded_font.hpp"

#ifndef NORMLAB_FONT_FILE
#error "NORMLAB_FONT_FILE must name the TTF file to embed (views/panels/CMakeLists.txt sets it)"
#endif

#if defined(__wasm__)
// WebAssembly's assembler (the browser build): data sections are named without
// flags, every data symbol needs a .size, and the end is a local label.
__asm__(
    ".section .rodata.normlab_font,\"\",@\n"
    ".globl normlab_font_ttf\n"
    ".hidden normlab_font_ttf\n"
    ".type normlab_font_ttf,@object\n"
    ".p2align 4\n"
    "normlab_font_ttf:\n"
    ".incbin \"" NORMLAB_FONT_FILE
    "\"\n"
    ".Lnormlab_font_ttf_end:\n"
    ".size normlab_font_ttf, .Lnormlab_font_ttf_end - normlab_font_ttf\n"
    ".section .rodata.normlab_font_size,\"\",@\n"
    ".globl normlab_font_ttf_size\n"
    ".hidden normlab_font_ttf_size\n"
    ".type normlab_font_ttf_size,@object\n"
    ".p2align 2\n"
    "normlab_font_ttf_size:\n"
    ".int32 .Lnormlab_font_ttf_end - normlab_font_ttf\n"
    ".size normlab_font_ttf_size, 4\n");
#else
// %progbits, not @progbits: '@' starts a comment in the ARM assemblers.
__asm__(
    ".pushsection .rodata.normlab_font, \"a\", %progbits\n"
    ".balign 16\n"
    ".globl normlab_font_ttf\n"
    ".hidden normlab_font_ttf\n"
    ".type normlab_font_ttf, %object\n"
    "normlab_font_ttf:\n"
    ".incbin \"" NORMLAB_FONT_FILE
    "\"\n"
    "normlab_font_ttf_end:\n"
    ".size normlab_font_ttf, normlab_font_ttf_end - normlab_font_ttf\n"
    ".balign 4\n"
    ".globl normlab_font_ttf_size\n"
    ".hidden normlab_font_ttf_size\n"
    ".type normlab_font_ttf_size, %object\n"
    "normlab_font_ttf_size:\n"
    ".4byte normlab_font_ttf_end - normlab_font_ttf\n"
    ".size normlab_font_ttf_size, 4\n"
    ".popsection\n");
#endif

extern "C" {
__attribute__((visibility("hidden"))) extern const unsigned char normlab_font_ttf[];
__attribute__((visibility("hidden"))) extern const unsigned int normlab_font_ttf_size;
}

namespace normlab::views {

std::span<const unsigned char> embedded_latin_font() { return {normlab_font_ttf, normlab_font_ttf_size}; }

}  // namespace normlab::views
