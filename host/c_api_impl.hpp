// The C API's side (sculptflow.h): what its handles hold, and the one place
// where exceptions become result codes. Internal.
#pragma once

#include <array>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <sculptflow/context.hpp>
#include <sculptflow/error.hpp>
#include <sculptflow/gpu_solver.hpp>
#include <sculptflow/live_move.hpp>
#include <sculptflow/sculptflow.h>
#include <sculptflow/stroke.hpp>

namespace sculptflow::capi {

// A handle's (or thread's) last failure: its text, and the VkResult that caused
// it (VK_SUCCESS when no Vulkan call did).
struct LastError {
    std::string text;
    VkResult vkResult = VK_SUCCESS;
};

} // namespace sculptflow::capi

struct SfContext_T {
    std::unique_ptr<sculptflow::Context> context;
    std::unique_ptr<sculptflow::GpuSolver> solver; // made by the first GPU sfSolve
    std::string driverName; // sfGetDriverName's, kept for the context's life
    SfLogCallback logCallback = nullptr;
    void* logUserData = nullptr;
    sculptflow::capi::LastError lastError;
};

struct SfLiveMove_T {
    SfContext context = nullptr;
    std::unique_ptr<sculptflow::LiveMove> live;
    size_t hands = 0;                                   // set by begin
    double segmentTolerance = sculptflow::kDefaultSegmentTolerance; // continuous mode's, every update
    std::array<sculptflow::Pose, sculptflow::kMaxTools> poses{}; // update's, converted without allocating
    sculptflow::capi::LastError lastError; // text's capacity reserved: per-frame refusals allocate nothing
};

namespace sculptflow::capi {

// A failure the wrapper found itself, with its code.
class CallError : public std::runtime_error {
public:
    CallError(SfResult result, const std::string& message) : std::runtime_error(message), code(result) {}
    SfResult code;
};

// Stores `text` (and the VkResult behind it) as the handle's (or thread's) last
// error; never throws.
inline SfResult fail(LastError& error, SfResult code, const char* text, VkResult vkResult = VK_SUCCESS) noexcept {
    error.vkResult = vkResult;
    try {
        error.text = text;
    } catch (...) {
        error.text.clear(); // no room for the text: the code still says what failed
    }
    return code;
}

// The calling thread's last error, for calls made without a valid handle.
LastError& threadError() noexcept;

// The C code for a library error's cause: the one mapping, so that the same cause
// gets the same code at every entry point.
SfResult resultFor(ErrorCode code) noexcept;

// Runs `body` (returning SfResult) with every exception turned into a code:
// CallError's own, a sculptflow::Error's by its cause, OUT_OF_HOST_MEMORY, UNKNOWN.
template <typename Body>
SfResult guarded(LastError& error, Body&& body) noexcept {
    try {
        return body();
    } catch (const CallError& e) {
        return fail(error, e.code, e.what());
    } catch (const Error& e) {
        return fail(error, resultFor(e.code()), e.what(), VkResult(e.vkResult()));
    } catch (const std::bad_alloc&) {
        return fail(error, SF_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    } catch (const std::exception& e) {
        return fail(error, SF_ERROR_UNKNOWN, e.what());
    } catch (...) {
        return fail(error, SF_ERROR_UNKNOWN, "unknown exception");
    }
}

// A C caller may put any integer in an enum member, and reading it as the enum
// type is undefined in C++ (UBSan's enum check), so its bytes are read instead.
template <typename Enum>
uint32_t rawValue(const Enum& value) {
    static_assert(std::is_enum_v<Enum> && sizeof(Enum) == sizeof(uint32_t));
    uint32_t raw;
    std::memcpy(&raw, &value, sizeof raw);
    return raw;
}

inline void require(bool condition, const std::string& message, SfResult code = SF_ERROR_INVALID_ARGUMENT) {
    if (!condition) throw CallError(code, message);
}

// A create-info struct as this library knows it: `in` may come from older headers
// (smaller, down to `minimumSize`, the struct's first version's size: the fields
// it lacks keep their defaults) or newer ones (larger: the bytes past ours must be
// zero, so nothing asked for is ignored). `name` for errors.
template <typename T>
T readStruct(const T* in, size_t minimumSize, const char* name) {
    static_assert(std::is_trivially_copyable_v<T>);
    require(in != nullptr, std::string(name) + " is NULL");
    const size_t size = in->structSize;
    require(size >= minimumSize,
            std::string(name) + ".structSize is " + std::to_string(size) + "; at least " + std::to_string(minimumSize) +
                (minimumSize == sizeof(T) ? std::string(" (sizeof(") + name + "))"
                                          : std::string(" (its first version's size; sizeof(") + name + ") is " +
                                                std::to_string(sizeof(T)) + ")"),
            SF_ERROR_INVALID_STRUCT_SIZE);
    const auto* bytes = reinterpret_cast<const unsigned char*>(in);
    for (size_t i = sizeof(T); i < size; ++i)
        require(bytes[i] == 0,
                std::string(name) + ".structSize is " + std::to_string(size) + " and byte " + std::to_string(i) +
                    " is set: fields this library (" + std::to_string(sizeof(T)) + " bytes) does not know",
                SF_ERROR_INVALID_STRUCT_SIZE);
    T out{};
    std::memcpy(&out, in, size < sizeof(T) ? size : sizeof(T));
    return out;
}

// The tools as the C++ API takes them (poses left empty); CallError for bad values.
Stroke toolsStroke(const SfTools& tools);
Pose pose(const SfPose& pose);
SolverOptions solverOptions(const SfMethod& method, double tolerance);

} // namespace sculptflow::capi
