// Presets and experiments as data: what the JSON files in assets/presets and
// assets/experiments give is, bit for bit, what the C++ tables they replaced gave
// (content_golden.json: every preset's texts, tensor values, spec and γ/β; every
// experiment's texts, kind, states and view, dumped from those tables before they went).
#include <catch2/catch.hpp>

#include "content_dump.hpp"

#include "normlab/io/atomic_file.hpp"

#include <bit>
#include <cstdint>
#include <string>

using namespace normlab;
using nlohmann::json;

namespace {

json golden() {
    return json::parse(
        io::read_file(std::string(NORMLAB_SOURCE_DIR) + "/tests/classroom/content_golden.json", 1u << 24));
}

// Every key but "values" compared as JSON; the values compared as float32 bit patterns.
void compare_item(const json& want, const json& got) {
    for (const auto& [key, value] : want.items()) {
        INFO("key " << key);
        REQUIRE(got.contains(key));
        if (key != "values") {
            CHECK(got.at(key) == value);
            continue;
        }
        REQUIRE(got.at(key).size() == value.size());
        std::size_t differ = 0;
        for (std::size_t i = 0; i < value.size(); ++i) {
            const auto w = std::bit_cast<std::uint32_t>(static_cast<float>(value[i].get<double>()));
            const auto g = std::bit_cast<std::uint32_t>(static_cast<float>(got.at(key)[i].get<double>()));
            if (w != g) ++differ;
        }
        CHECK(differ == 0);
    }
    CHECK(got.size() == want.size());
}

void compare_list(const json& want, const json& got, const char* id_key) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        INFO(want[i].at(id_key).get<std::string>());
        compare_item(want[i], got[i]);
    }
}

}  // namespace

TEST_CASE("every preset's tensor, texts, spec and parameters equal the C++ tables'", "[content][presets]") {
    compare_list(golden().at("presets"), test::preset_dump(), "name");
}

TEST_CASE("every experiment's texts, states and view equal the C++ tables'", "[content][experiments]") {
    compare_list(golden().at("experiments"), test::experiment_dump(), "id");
}
