// Errors normlab reports to users.
// InputError: the user's input is invalid (CLI exit status 2); its message is one line,
// worded as PyTorch words it where PyTorch has a message.
// DeviceError: no usable Vulkan device or a device fault (CLI exit status 3).
#pragma once
#include <stdexcept>
#include <string>

namespace normlab {

class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

class DeviceError : public std::runtime_error {
public:
    explicit DeviceError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace normlab
