// The C API (sculptflow.h): version, contexts, errors, and the headless solve.
// Every entry point is noexcept: capi::guarded turns exceptions into codes.
#include "c_api_impl.hpp"

#include <cmath>
#include <cstddef>
#include <iterator>
#include <span>
#include <vector>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/mesh.hpp>
#include <sculptflow/motion.hpp>
#include <sculptflow/version.hpp>

namespace sculptflow::capi {
namespace {

LogCallback logHook(SfLogCallback callback, void* userData) {
    if (!callback) return {};
    return [callback, userData](LogLevel level, std::string_view message) {
        const std::string text(message); // the C side needs a terminated string
        callback(userData, level == LogLevel::Validation ? SF_LOG_LEVEL_VALIDATION : SF_LOG_LEVEL_WARNING,
                 text.c_str());
    };
}

template <typename Enum>
Enum enumIn(uint32_t value, uint32_t count, const char* name) {
    require(value < count, std::string(name) + " is " + std::to_string(value) + "; 0 to " +
                               std::to_string(count - 1) + " are defined");
    return Enum(value);
}

std::unique_ptr<Context> createContext(const SfContextCreateInfo& in) {
    ContextHooks hooks;
    hooks.allocationCallbacks = in.allocationCallbacks;
    hooks.pipelineCache = in.pipelineCache;
    if (in.pipelineCacheFile) hooks.pipelineCacheFile = in.pipelineCacheFile;
    hooks.log = logHook(in.logCallback, in.logUserData);
    if (in.objectNamePrefix) hooks.objectNamePrefix = in.objectNamePrefix;
    hooks.memoryBudget = in.memoryBudget;
    hooks.bufferPlacement = enumIn<BufferPlacement>(rawValue(in.bufferPlacement), 3, "SfContextCreateInfo.bufferPlacement");
    VulkanLoader loader;
    loader.getInstanceProcAddr = in.getInstanceProcAddr;
    loader.getDeviceProcAddr = in.getDeviceProcAddr;
    if (!in.instance && !in.physicalDevice && !in.device && !in.queue) {
        ContextOptions options;
        options.validation = in.validation != 0;
        options.device = in.deviceSelector ? in.deviceSelector : "";
        options.loader = loader;
        options.hooks = std::move(hooks);
        return std::make_unique<Context>(options);
    }
    require(in.instance && in.physicalDevice && in.device && in.queue,
            "SfContextCreateInfo: adopting a device takes instance, physicalDevice, device and queue; one is "
            "VK_NULL_HANDLE (all four null: the library creates its own)");
    require(!in.validation && !in.deviceSelector,
            "SfContextCreateInfo: validation and deviceSelector are for a context the library creates; an "
            "adopted device's validation is the renderer's");
    AdoptedDevice adopted{in.instance, in.physicalDevice, in.device, in.queueFamily, in.queue};
    adopted.apiVersion = in.apiVersion ? in.apiVersion : VK_API_VERSION_1_2;
    adopted.synchronization2 = in.synchronization2 != 0;
    adopted.loader = loader;
    adopted.hooks = std::move(hooks);
    return std::make_unique<Context>(adopted);
}

} // namespace

LastError& threadError() noexcept {
    thread_local LastError error; // constant-initialised: taking it cannot throw
    return error;
}

SfResult resultFor(ErrorCode code) noexcept {
    switch (code) {
    case ErrorCode::InvalidArgument: return SF_ERROR_INVALID_ARGUMENT;
    case ErrorCode::InvalidState: return SF_ERROR_INVALID_STATE;
    case ErrorCode::OutOfHostMemory: return SF_ERROR_OUT_OF_HOST_MEMORY;
    case ErrorCode::OutOfDeviceMemory: return SF_ERROR_OUT_OF_DEVICE_MEMORY;
    case ErrorCode::DeviceLost: return SF_ERROR_DEVICE_LOST;
    case ErrorCode::InitializationFailed:
    case ErrorCode::Unsupported: return SF_ERROR_INITIALIZATION_FAILED; // the device cannot serve the library
    case ErrorCode::ShaderCompile: // the library's own shaders: its pipelines could not be built
    case ErrorCode::Validation:
    case ErrorCode::Vulkan: return SF_ERROR_DEVICE;
    }
    return SF_ERROR_UNKNOWN;
}

Stroke toolsStroke(const SfTools& tools) {
    require(tools.toolCount >= 1 && tools.toolCount <= kMaxTools,
            "SfTools.toolCount is " + std::to_string(tools.toolCount) + "; 1 to " + std::to_string(kMaxTools));
    require(tools.tools != nullptr, "SfTools.tools is NULL");
    Stroke stroke;
    stroke.voxelSize = tools.voxelSize;
    require(std::isfinite(tools.voxelSize) && tools.voxelSize > 0.0,
            "SfTools.voxelSize must be a finite number > 0, not " + std::to_string(tools.voxelSize));
    require(tools.symmetryAxes <= (SF_SYMMETRY_X | SF_SYMMETRY_Y | SF_SYMMETRY_Z),
            "SfTools.symmetryAxes has bits outside SF_SYMMETRY_X | Y | Z");
    stroke.symmetry.axes = tools.symmetryAxes;
    stroke.symmetry.origin = {tools.symmetryOrigin[0], tools.symmetryOrigin[1], tools.symmetryOrigin[2]};
    for (uint32_t i = 0; i < tools.toolCount; ++i) {
        const SfTool& in = tools.tools[i];
        ToolStroke tool;
        tool.kind = enumIn<ToolKind>(rawValue(in.kind), uint32_t(allToolKinds().size()), "SfTool.kind");
        tool.profile = enumIn<KelvinletProfile>(rawValue(in.profile), 4, "SfTool.profile");
        tool.falloff = enumIn<Falloff>(rawValue(in.falloff), 4, "SfTool.falloff");
        // The C++ API lets a stroke built in code have it (the solver clamps it,
        // validateStroke); here, as in a stroke file, it is a mistake (swapped
        // fields, other units), not a request.
        require(!(in.innerRadius > in.outerRadius),
                "SfTool.innerRadius (" + std::to_string(in.innerRadius) + ") is larger than outerRadius (" +
                    std::to_string(in.outerRadius) + ") in tool " + std::to_string(i));
        tool.innerRadius = in.innerRadius;
        tool.outerRadius = in.outerRadius;
        tool.stiffness = in.stiffness;
        tool.compressibility = in.compressibility;
        stroke.tools.push_back(tool);
    }
    return stroke;
}

Pose pose(const SfPose& in) {
    Pose out;
    out.position = {in.position[0], in.position[1], in.position[2]};
    out.orientation = glm::dquat(in.orientation[0], in.orientation[1], in.orientation[2], in.orientation[3]);
    out.scale = in.scale;
    out.time = in.time;
    return out;
}

SolverOptions solverOptions(const SfMethod& method, double tolerance) {
    static constexpr Method kMethods[] = {Method::Bs32, Method::Dp45, Method::Rk4Double, Method::Tsit5};
    SolverOptions options;
    options.method = kMethods[enumIn<uint32_t>(rawValue(method), std::size(kMethods), "method")];
    if (tolerance != 0.0) options.tolerance = tolerance;
    options.maxIterations = plannedAttempts(options.method, options.tolerance); // sfSolve adds its move's
    validateSolverOptions(options);
    return options;
}

} // namespace sculptflow::capi

using namespace sculptflow;
using namespace sculptflow::capi;

extern "C" {

uint32_t sfGetVersion(void) {
    const Version v = version();
    return uint32_t(SCULPTFLOW_MAKE_VERSION(v.major, v.minor, v.patch));
}

SfResult sfCreateContext(const SfContextCreateInfo* info, SfContext* context) {
    return guarded(threadError(), [&] {
        require(context != nullptr, "sfCreateContext: context (the output) is NULL");
        // 0.1.0's SfContextCreateInfo ended at logUserData; the hooks after it came later.
        const SfContextCreateInfo in =
            readStruct(info, offsetof(SfContextCreateInfo, objectNamePrefix), "SfContextCreateInfo");
        auto handle = std::make_unique<SfContext_T>();
        handle->context = createContext(in);
        handle->driverName = handle->context->driverName();
        *context = handle.release();
        return SF_SUCCESS;
    });
}

void sfDestroyContext(SfContext context) { delete context; }

const char* sfGetLastError(SfContext context) {
    return context ? context->lastError.text.c_str() : threadError().text.c_str();
}

VkResult sfGetLastVkResult(SfContext context) { return context ? context->lastError.vkResult : threadError().vkResult; }

const char* sfGetDeviceName(SfContext context) {
    return context ? context->context->properties().deviceName : "";
}

SfResult sfSolve(SfContext context, const SfSolveInfo* info, float* moved) {
    return guarded(context ? context->lastError : threadError(), [&] {
        // 0.1.0's SfSolveInfo ended at `tolerance`; cpuThreads came after.
        const SfSolveInfo in = readStruct(info, offsetof(SfSolveInfo, cpuThreads), "SfSolveInfo");
        const uint32_t backend = rawValue(in.backend);
        require(backend == SF_BACKEND_GPU || backend == SF_BACKEND_CPU,
                "SfSolveInfo.backend is " + std::to_string(backend) + "; SF_BACKEND_GPU or SF_BACKEND_CPU");
        require(backend == SF_BACKEND_CPU || context, "sfSolve: SF_BACKEND_GPU needs a context");
        const SfTools tools = readStruct(in.tools, sizeof(SfTools), "SfSolveInfo.tools");
        require(in.posesA && in.posesB, "SfSolveInfo.posesA and posesB must both be given");
        require(in.vertexCount > 0, "SfSolveInfo.vertexCount is 0");
        require(in.positions != nullptr, "SfSolveInfo.positions is NULL");
        require(moved != nullptr, "sfSolve: moved (the output) is NULL");

        Stroke stroke = toolsStroke(tools);
        for (size_t i = 0; i < stroke.tools.size(); ++i)
            stroke.tools[i].poses = {pose(in.posesA[i]), pose(in.posesB[i])};
        validateStroke(stroke, "sfSolve");
        const Move move = moveToolMotion(stroke);
        SolverOptions options = solverOptions(in.method, in.tolerance);
        options.maxIterations = plannedAttempts(options, {&move, 1}); // as the CLI's
        const std::span<const glm::vec3> start(reinterpret_cast<const glm::vec3*>(in.positions), in.vertexCount);
        std::span<const float> mask;
        if (in.mask) {
            mask = {in.mask, in.vertexCount};
            validateMask(mask, in.vertexCount, "SfSolveInfo.mask");
        }
        std::vector<glm::vec3> positions;
        if (backend == SF_BACKEND_CPU) {
            positions = solveOnCpu(move, start, mask, options, in.cpuThreads).positions;
        } else {
            if (!context->solver) context->solver = std::make_unique<GpuSolver>(*context->context);
            positions = solveOnGpu(*context->solver, move, start, options, mask).positions;
        }
        std::memcpy(moved, positions.data(), positions.size() * sizeof(glm::vec3));
        return SF_SUCCESS;
    });
}

} // extern "C"
