// normlab-cli train: trains the mlp on generated data on the Vulkan device (engine/train's program,
// engine/ops' TrainRunner) and writes its log, data and parameters (train_command.cpp).
#pragma once

namespace normlab {

// argv[0] is "train". Returns the exit status; throws InputError/DeviceError as the CLI's run does.
int run_train_command(int argc, char** argv);

}  // namespace normlab
