#include "conv_gpu_support.hpp"

#include "../support.hpp"
#include "normlab/ops/train_runner.hpp"

namespace normlab::test {

std::vector<std::vector<float>> run_train_program(TrainProgram p,
                                                  const std::vector<std::pair<int, std::vector<float>>>& inputs) {
    for (const char* log : {"log", "val_log"})
        if (p.find(log) < 0) p.add_buffer(log, 2, TrainBufferRole::Log);
    std::vector<std::string> names;
    for (const auto& b : p.buffers) names.push_back(b.name);
    TrainRunner runner(context(), std::move(p), 1);
    for (const auto& [index, values] : inputs)
        runner.upload(names[index], values.data(), values.size() * sizeof(float));
    runner.submit(1);
    runner.finish();
    std::vector<std::vector<float>> out;
    for (const auto& name : names) out.push_back(runner.download(name));
    return out;
}

}  // namespace normlab::test
