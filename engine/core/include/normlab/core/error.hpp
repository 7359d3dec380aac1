// Errors normlab reports to users, and the one mapping from an error to an exit status that
// normlab, normlab-cli and normlab-bench share (README, "normlab-cli"):
//   0 ok;
//   1 anything else: InternalError (a broken invariant: "internal error: …, please report"), an
//     unexpected exception (a bug), the app's --soak when memory grew;
//   2 invalid input: InputError (the user's input, bad options), or host memory exhausted;
//   3 no usable Vulkan device or a device fault: DeviceError, or vulkan.hpp's vk::SystemError;
//   4 the validation layer (NORMLAB_VALIDATION=1) counted messages in a run that otherwise
//     succeeded.
#pragma once
#include <cstdint>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>

namespace normlab::core {

// The user's input is invalid; its message is one line, worded as PyTorch words it where
// PyTorch has a message.
class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

// No usable Vulkan device, or a device fault.
class DeviceError : public std::runtime_error {
public:
    explicit DeviceError(const std::string& what) : std::runtime_error(what) {}
};

// A broken invariant of normlab itself (a bug, never the user's input): reported as
// "internal error: WHAT, please report" with exit status 1.
class InternalError : public std::logic_error {
public:
    explicit InternalError(const std::string& what) : std::logic_error(what) {}
};

// The one line an InternalError is reported with (stderr, a status bar).
std::string internal_error_line(const std::string& what);
// What a status bar says for `e`: its message, an InternalError's as internal_error_line.
std::string error_line(const std::exception& e);

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitInput = 2;
inline constexpr int kExitDevice = 3;
inline constexpr int kExitValidation = 4;

// Prints the one `error: …` line for `e` on stderr and returns its exit status (above).
int report_exception(std::exception_ptr e);

// A program's main: body's return value, or report_exception's status for what it throws.
int run_main(const std::function<int()>& body);

// The status at the end of a run: `status` when it is not 0; kExitValidation, with an
// `error: N Vulkan validation messages` line, when the validation layer counted messages.
int validation_status(std::uint64_t validation_messages, int status = kExitOk);

}  // namespace normlab::core
