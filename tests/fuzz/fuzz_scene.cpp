// libFuzzer target: scene_from_json and scene_from_line (the pasted one-line form) on
// arbitrary text. Only InputError may escape; a scene that loads must survive a save/load
// round trip, and one through the one-line form, unchanged, and so must its view (classroom's parse_view:
// the Train view's runs and sweep). Built by scripts/fuzz.sh.
#include "normlab/classroom/view_settings.hpp"
#include "normlab/core/error.hpp"
#include "normlab/core/state.hpp"
#include "normlab/io/scene_file.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    normlab::core::State s;
    try {
        normlab::io::scene_from_line(text, "pasted");
    } catch (const normlab::core::InputError&) {}
    try {
        s = normlab::io::scene_from_json(text, "fuzz.json");
    } catch (const normlab::core::InputError&) {
        return 0;  // the expected way to refuse a file
    }
    // A loaded scene saves and loads back to the same scene.
    std::string saved = normlab::io::scene_to_json(s);
    try {
        normlab::core::State back = normlab::io::scene_from_json(saved, "saved.json");
        const normlab::core::State line = normlab::io::scene_from_line(normlab::io::scene_to_line(s), "line");
        if (normlab::io::scene_to_json(back) != saved || normlab::io::scene_to_json(line) != saved) {
            std::fprintf(stderr, "round trip changed the scene:\n%s\n", saved.c_str());
            std::abort();
        }
    } catch (const normlab::core::InputError& e) {
        std::fprintf(stderr, "a saved scene does not load: %s\n%s\n", e.what(), saved.c_str());
        std::abort();
    }
    normlab::classroom::ViewSettings v;
    try {
        v = normlab::classroom::parse_view(s.view_json, "fuzz.json");
    } catch (const normlab::core::InputError&) {
        return 0;  // a view the app refuses
    }
    const std::string view = normlab::classroom::view_to_json(v);
    try {
        if (!(normlab::classroom::parse_view(view, "saved.json") == v)) {
            std::fprintf(stderr, "round trip changed the view:\n%s\n", view.c_str());
            std::abort();
        }
    } catch (const normlab::core::InputError& e) {
        std::fprintf(stderr, "a saved view does not load: %s\n%s\n", e.what(), view.c_str());
        std::abort();
    }
    return 0;
}
