#include "normlab/core/error.hpp"

#include <cstdio>
#include <new>
#include <string_view>
#include <system_error>

namespace normlab::core {

namespace {

int fail(int status, const std::string& message) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    std::fflush(stderr);
    return status;
}

// vulkan.hpp reports a failed call as vk::SystemError, a std::system_error of its own
// category, named "vk::Result"; the core library recognizes it without including Vulkan.
bool is_vulkan(const std::system_error& e) { return std::string_view(e.code().category().name()) == "vk::Result"; }

}  // namespace

std::string internal_error_line(const std::string& what) { return "internal error: " + what + ", please report"; }

std::string error_line(const std::exception& e) {
    if (dynamic_cast<const InternalError*>(&e)) return internal_error_line(e.what());
    return e.what();
}

int report_exception(std::exception_ptr e) {
    if (!e) return kExitOk;
    try {
        std::rethrow_exception(e);
    } catch (const InputError& x) {
        return fail(kExitInput, x.what());
    } catch (const InternalError& x) {
        return fail(kExitFailure, internal_error_line(x.what()));
    } catch (const DeviceError& x) {
        return fail(kExitDevice, x.what());
    } catch (const std::system_error& x) {
        if (is_vulkan(x)) return fail(kExitDevice, std::string("Vulkan: ") + x.what());
        return fail(kExitFailure, x.what());
    } catch (const std::bad_alloc&) {
        return fail(kExitInput, "out of memory");
    } catch (const std::exception& x) {
        return fail(kExitFailure, x.what());
    } catch (...) {
        return fail(kExitFailure, "unknown exception");
    }
}

int run_main(const std::function<int()>& body) {
    try {
        return body();
    } catch (...) {
        return report_exception(std::current_exception());
    }
}

int validation_status(std::uint64_t validation_messages, int status) {
    if (status != kExitOk || validation_messages == 0) return status;
    return fail(kExitValidation, std::to_string(validation_messages) + " Vulkan validation messages");
}

}  // namespace normlab::core
