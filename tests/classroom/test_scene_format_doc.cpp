// docs/scene-format.md: every ```json block in it is a complete file that loads with the real
// parser its marker names (scene, with its view; lesson, experiment or preset), and there is at least
// one example of each.
#include <catch2/catch.hpp>

#include "normlab/io/atomic_file.hpp"
#include "normlab/core/error.hpp"
#include "normlab/classroom/experiments.hpp"
#include "normlab/classroom/lesson.hpp"
#include "normlab/classroom/view_settings.hpp"
#include "normlab/io/presets.hpp"
#include "normlab/core/state.hpp"
#include "normlab/io/scene_file.hpp"

#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace normlab;

namespace {

struct Block {
    int line = 0;  // where its fence opens
    std::string text;
};

std::vector<Block> json_blocks(const std::string& doc) {
    std::vector<Block> out;
    std::istringstream in(doc);
    std::string line;
    int n = 0;
    Block* open = nullptr;
    while (std::getline(in, line)) {
        ++n;
        if (!open && line == "```json") {
            out.push_back({n, ""});
            open = &out.back();
        } else if (open && line == "```") {
            open = nullptr;
        } else if (open) {
            open->text += line + "\n";
        }
    }
    REQUIRE(open == nullptr);  // every fence closed
    return out;
}

// Parses the block with the parser its marker names; returns the kind.
std::string load(const Block& b) {
    const std::string name = "docs/scene-format.md:" + std::to_string(b.line);
    auto has = [&](const char* marker) {
        return b.text.find(std::string("\"") + marker + "\": 1") != std::string::npos;
    };
    if (has("normlab_scene")) {
        // Its view as the apps read it too (the Train view's runs and sweep).
        classroom::parse_view(io::scene_from_json(b.text, name).view_json, name);
        return "scene";
    }
    if (has("normlab_lesson")) {
        classroom::lesson_from_json(b.text, name);
        return "lesson";
    }
    if (has("normlab_experiment")) {
        classroom::experiment_from_json(b.text, name);
        return "experiment";
    }
    if (has("normlab_preset")) {
        io::preset_from_json(b.text, name);
        return "preset";
    }
    FAIL(name + ": a json block without a normlab_* marker");
    return "";
}

}  // namespace

TEST_CASE("every JSON example in docs/scene-format.md loads with the real parser", "[scene][docs]") {
    const std::string doc = io::read_file(std::string(NORMLAB_SOURCE_DIR) + "/docs/scene-format.md", 1u << 20);
    std::map<std::string, int> kinds;
    for (const Block& b : json_blocks(doc)) {
        INFO("the block at line " << b.line);
        try {
            ++kinds[load(b)];
        } catch (const core::InputError& e) {
            FAIL(e.what());
        }
    }
    for (const char* kind : {"scene", "lesson", "experiment", "preset"}) {
        INFO(kind);
        CHECK(kinds[kind] >= 1);
    }
}
