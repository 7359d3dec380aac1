// The presets and experiments as one JSON document: every preset's texts, tensor (shape and
// every value), spec and γ/β, every experiment's texts, kind, states (as scene JSON) and view.
// content_golden.json is this dump made from the C++ tables the JSON files replaced;
// test_content_golden.cpp compares today's dump with it.
#pragma once
#include <nlohmann/json.hpp>

namespace normlab::test {

nlohmann::json preset_dump();
nlohmann::json experiment_dump();

}  // namespace normlab::test
