// normlab-content-dump: prints today's presets and experiments in the form of
// content_golden.json, to extend it when presets or experiments are added or changed on purpose:
//   build/bin/normlab-content-dump > tests/classroom/content_golden.json
#include "content_dump.hpp"

#include <iostream>

int main() {
    nlohmann::json j;
    j["presets"] = normlab::test::preset_dump();
    j["experiments"] = normlab::test::experiment_dump();
    std::cout << j.dump(1) << "\n";
}
