// The C API's result codes by cause: host memory, device memory, a lost device
// and bad arguments each get their own SfResult, with the VkResult behind them,
// whichever call meets them. Faults are injected where a plugin's own would come
// from: its allocation callbacks, and a dispatch (getDeviceProcAddr) whose
// vkAllocateMemory / vkQueueSubmit fail on demand.
#include <sculptflow/sculptflow.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/error.hpp>
#include "host/c_api_impl.hpp"
#include "host/vulkan_check.hpp"
#include "c_api_fixture.hpp"

namespace sculptflow {
namespace {

using test::tipSphere;
using test::triangles;

// Each failed VkResult a plugin can meet becomes its cause, and the C code for it.
TEST(CApiErrors, VkResultsBecomeTheirCauseAndCode) {
    const struct {
        VkResult result;
        ErrorCode code;
        SfResult c;
    } cases[] = {
        {VK_ERROR_OUT_OF_HOST_MEMORY, ErrorCode::OutOfHostMemory, SF_ERROR_OUT_OF_HOST_MEMORY},
        {VK_ERROR_OUT_OF_DEVICE_MEMORY, ErrorCode::OutOfDeviceMemory, SF_ERROR_OUT_OF_DEVICE_MEMORY},
        {VK_ERROR_OUT_OF_POOL_MEMORY, ErrorCode::OutOfDeviceMemory, SF_ERROR_OUT_OF_DEVICE_MEMORY},
        {VK_ERROR_DEVICE_LOST, ErrorCode::DeviceLost, SF_ERROR_DEVICE_LOST},
        {VK_ERROR_INITIALIZATION_FAILED, ErrorCode::InitializationFailed, SF_ERROR_INITIALIZATION_FAILED},
        {VK_ERROR_FEATURE_NOT_PRESENT, ErrorCode::Unsupported, SF_ERROR_INITIALIZATION_FAILED},
        {VK_ERROR_UNKNOWN, ErrorCode::Vulkan, SF_ERROR_DEVICE},
        {VK_TIMEOUT, ErrorCode::Vulkan, SF_ERROR_DEVICE},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(std::string(vkResultName(c.result)));
        try {
            SF_VK_CHECK(c.result);
            ADD_FAILURE() << "no error thrown";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), c.code);
            EXPECT_EQ(e.vkResult(), int32_t(c.result));
            EXPECT_NE(std::string(e.what()).find(vkResultName(c.result)), std::string::npos) << e.what();
            EXPECT_EQ(capi::resultFor(e.code()), c.c);
        }
    }
    EXPECT_NO_THROW(SF_VK_CHECK(VK_SUCCESS));
    // An Error raised without a cause is the caller's input, with no VkResult.
    const Error plain("mesh.vertexCount: must be positive");
    EXPECT_EQ(plain.code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(plain.vkResult(), 0);
    // No cause falls through to SF_ERROR_UNKNOWN, which is kept for bugs.
    for (uint32_t code = 0; code <= uint32_t(ErrorCode::Vulkan); ++code)
        EXPECT_NE(capi::resultFor(ErrorCode(code)), SF_ERROR_UNKNOWN) << "ErrorCode " << code;
}

// A handle-less failure keeps its VkResult with its text, per thread, until the
// next failure replaces both: a bad argument has none.
TEST(CApiErrors, AHandlelessFailureKeepsItsVkResult) {
    if (test::underWine()) GTEST_SKIP() << "under Wine the host's loader does not see this process's environment";
    SfContext context = nullptr;
    {
        test::ScopedEnv icd("VK_ICD_FILENAMES", "/nonexistent/icd.json");
        test::ScopedEnv driver("VK_DRIVER_FILES", "/nonexistent/icd.json");
        SfContextCreateInfo info;
        SF_INIT_STRUCT(&info);
        EXPECT_EQ(sfCreateContext(&info, &context), SF_ERROR_INITIALIZATION_FAILED);
    }
    EXPECT_EQ(context, nullptr);
    EXPECT_NE(std::string(sfGetLastError(nullptr)).find("no Vulkan driver"), std::string::npos)
        << sfGetLastError(nullptr);
    EXPECT_EQ(sfGetLastVkResult(nullptr), VK_ERROR_INCOMPATIBLE_DRIVER);
    EXPECT_EQ(sfLiveMoveGetLastVkResult(nullptr), VK_ERROR_INCOMPATIBLE_DRIVER) << "NULL: the thread's";
    EXPECT_EQ(sfCreateContext(nullptr, &context), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(sfGetLastVkResult(nullptr), VK_SUCCESS);
}

// Host allocations through the plugin's callbacks, failing from the `failAt`th on
// (-1: never), and counted so that every failed call can be shown to return what it took.
struct FaultyHostMemory {
    std::mutex mutex;
    std::vector<std::pair<void*, size_t>> live;
    long calls = 0;
    long failAt = -1;
};

void* faultyAlignedAllocate(size_t size, size_t alignment) {
#if defined(_WIN32)
    return _aligned_malloc(size, alignment);
#else
    void* memory = nullptr;
    return posix_memalign(&memory, std::max(alignment, sizeof(void*)), size) == 0 ? memory : nullptr;
#endif
}

void faultyAlignedFree(void* memory) {
#if defined(_WIN32)
    _aligned_free(memory);
#else
    std::free(memory);
#endif
}

void* VKAPI_CALL faultyAllocate(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
    auto* m = static_cast<FaultyHostMemory*>(user);
    std::lock_guard lock(m->mutex);
    if (m->failAt >= 0 && m->calls++ >= m->failAt) return nullptr;
    void* memory = faultyAlignedAllocate(size, alignment);
    if (memory) m->live.emplace_back(memory, size);
    return memory;
}

void VKAPI_CALL faultyFree(void* user, void* memory) {
    if (!memory) return;
    auto* m = static_cast<FaultyHostMemory*>(user);
    {
        std::lock_guard lock(m->mutex);
        m->live.erase(std::find_if(m->live.begin(), m->live.end(), [&](const auto& e) { return e.first == memory; }));
    }
    faultyAlignedFree(memory);
}

void* VKAPI_CALL faultyReallocate(void* user, void* original, size_t size, size_t alignment,
                                  VkSystemAllocationScope scope) {
    if (!original) return faultyAllocate(user, size, alignment, scope);
    if (size == 0) return faultyFree(user, original), nullptr;
    auto* m = static_cast<FaultyHostMemory*>(user);
    size_t old = 0;
    {
        std::lock_guard lock(m->mutex);
        old = std::find_if(m->live.begin(), m->live.end(), [&](const auto& e) { return e.first == original; })->second;
    }
    void* memory = faultyAllocate(user, size, alignment, scope);
    if (memory) std::memcpy(memory, original, std::min(old, size)), faultyFree(user, original);
    return memory;
}

// The device commands a plugin's dispatch could fail: set a result to fail every
// call of that command with it (VK_SUCCESS: forward to the driver).
PFN_vkGetDeviceProcAddr gFaultyForward = nullptr;
PFN_vkAllocateMemory gFaultyForwardAllocate = nullptr;
PFN_vkQueueSubmit gFaultyForwardSubmit = nullptr;
PFN_vkCreateComputePipelines gFaultyForwardPipelines = nullptr;
VkResult gFaultyAllocateResult = VK_SUCCESS;
VkResult gFaultySubmitResult = VK_SUCCESS;
VkResult gFaultyPipelineResult = VK_SUCCESS;

VKAPI_ATTR VkResult VKAPI_CALL faultyAllocateMemory(VkDevice device, const VkMemoryAllocateInfo* info,
                                                    const VkAllocationCallbacks* allocator, VkDeviceMemory* memory) {
    if (gFaultyAllocateResult != VK_SUCCESS) return gFaultyAllocateResult;
    return gFaultyForwardAllocate(device, info, allocator, memory);
}

VKAPI_ATTR VkResult VKAPI_CALL faultyQueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo* submits,
                                                 VkFence fence) {
    if (gFaultySubmitResult != VK_SUCCESS) return gFaultySubmitResult;
    return gFaultyForwardSubmit(queue, count, submits, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL faultyCreatePipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                     const VkComputePipelineCreateInfo* infos,
                                                     const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
    if (gFaultyPipelineResult != VK_SUCCESS) return gFaultyPipelineResult;
    return gFaultyForwardPipelines(device, cache, count, infos, allocator, pipelines);
}

PFN_vkVoidFunction VKAPI_CALL faultyDeviceProcAddr(VkDevice device, const char* name) {
    PFN_vkVoidFunction forwarded = gFaultyForward(device, name);
    if (forwarded && std::strcmp(name, "vkAllocateMemory") == 0) {
        gFaultyForwardAllocate = reinterpret_cast<PFN_vkAllocateMemory>(forwarded);
        return reinterpret_cast<PFN_vkVoidFunction>(&faultyAllocateMemory);
    }
    if (forwarded && std::strcmp(name, "vkCreateComputePipelines") == 0) {
        gFaultyForwardPipelines = reinterpret_cast<PFN_vkCreateComputePipelines>(forwarded);
        return reinterpret_cast<PFN_vkVoidFunction>(&faultyCreatePipelines);
    }
    if (forwarded && std::strcmp(name, "vkQueueSubmit") == 0) {
        gFaultyForwardSubmit = reinterpret_cast<PFN_vkQueueSubmit>(forwarded);
        return reinterpret_cast<PFN_vkVoidFunction>(&faultyQueueSubmit);
    }
    return forwarded;
}


// The renderer's device (validation and synchronization validation on), adopted
// through the C API with faults to inject; the default stroke's one tool.
class CApiFaults : public test::CApiFixture {
protected:
    void SetUp() override {
        test::CApiFixture::SetUp();
        if (IsSkipped()) return;
        const ToolStroke& t = stroke_.tools[0];
        tool_ = {SfToolKind(t.kind),   SfKelvinletProfile(t.profile),
                 SfFalloff(t.falloff), t.innerRadius,
                 t.outerRadius,        t.stiffness,
                 t.compressibility};
        SF_INIT_STRUCT(&tools_);
        tools_.toolCount = 1;
        tools_.tools = &tool_;
        tools_.voxelSize = stroke_.voxelSize;
        posesA_ = test::cApiPose(t.poses.front());
        posesB_ = test::cApiPose(t.poses.back());
        sphere_ = tipSphere(motion_.tools[0], 2, 1.0f);
        upload(sphere_.positions);
        tris_ = triangles(sphere_);
    }
    void TearDown() override {
        gFaultyAllocateResult = VK_SUCCESS;
        gFaultySubmitResult = VK_SUCCESS;
        gFaultyPipelineResult = VK_SUCCESS;
        test::CApiFixture::TearDown();
    }

    SfContext adopt(const VkAllocationCallbacks* callbacks, bool faultyDispatch) {
        const AdoptedDevice a = renderer_->adopted();
        SfContextCreateInfo info = test::cApiAdoptInfo(a);
        info.allocationCallbacks = callbacks;
        if (faultyDispatch) {
            gFaultyForward = reinterpret_cast<PFN_vkGetDeviceProcAddr>(
                a.loader.getInstanceProcAddr(a.instance, "vkGetDeviceProcAddr"));
            info.getDeviceProcAddr = faultyDeviceProcAddr;
        }
        SfContext context = nullptr;
        EXPECT_EQ(sfCreateContext(&info, &context), SF_SUCCESS) << sfGetLastError(nullptr);
        return context;
    }

    SfLiveMoveCreateInfo createInfo() const {
        return test::cApiLiveInfo(rendererMesh(tris_), tris_);
    }

    SfSolveInfo solveInfo() const {
        SfSolveInfo info;
        SF_INIT_STRUCT(&info);
        info.backend = SF_BACKEND_GPU;
        info.tools = &tools_;
        info.posesA = &posesA_;
        info.posesB = &posesB_;
        info.vertexCount = uint32_t(sphere_.positions.size());
        info.positions = &sphere_.positions[0].x;
        return info;
    }

    SfTool tool_{};
    SfTools tools_{};
    SfPose posesA_{}, posesB_{};
    Mesh sphere_;
    std::vector<uint32_t> tris_;
};

// The plugin's allocator runs dry while sfCreateLiveMove builds. The first live
// move of a context also makes the objects the context's live moves share; then
// every allocation a live move makes is failed in turn: each failure is
// SF_ERROR_OUT_OF_HOST_MEMORY with VK_ERROR_OUT_OF_HOST_MEMORY (never
// INVALID_ARGUMENT, which would blame the mesh), writes no handle, and gives
// back everything it took.
TEST_F(CApiFaults, HostMemoryRunningOutIsOutOfHostMemoryAtEveryAllocation) {
    if (test::underWine()) GTEST_SKIP() << "Wine's Vulkan does not pass allocation callbacks to the host's driver";
    FaultyHostMemory memory;
    const VkAllocationCallbacks callbacks{&memory, faultyAllocate, faultyReallocate, faultyFree, nullptr, nullptr};
    SfContext context = adopt(&callbacks, false);
    ASSERT_TRUE(context);
    const SfLiveMoveCreateInfo info = createInfo();
    SfLiveMove live = nullptr;
    memory.failAt = 0; // the shared objects' first allocation
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_OUT_OF_HOST_MEMORY) << sfGetLastError(context);
    EXPECT_EQ(sfGetLastVkResult(context), VK_ERROR_OUT_OF_HOST_MEMORY);
    EXPECT_EQ(live, nullptr);
    memory.failAt = -1;
    ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);
    sfDestroyLiveMove(live);
    live = nullptr;
    const size_t before = memory.live.size(); // the context's, shared objects included
    long failures = 0;
    for (long failAt = 0; failAt < 1000; ++failAt) {
        {
            std::lock_guard lock(memory.mutex);
            memory.calls = 0;
            memory.failAt = failAt;
        }
        const SfResult result = sfCreateLiveMove(context, &info, &live);
        if (result == SF_SUCCESS) break;
        ++failures;
        SCOPED_TRACE("allocation " + std::to_string(failAt) + " failed");
        ASSERT_EQ(result, SF_ERROR_OUT_OF_HOST_MEMORY) << sfGetLastError(context);
        EXPECT_EQ(sfGetLastVkResult(context), VK_ERROR_OUT_OF_HOST_MEMORY);
        EXPECT_NE(std::string(sfGetLastError(context)).find("VK_ERROR_OUT_OF_HOST_MEMORY"), std::string::npos)
            << sfGetLastError(context);
        EXPECT_EQ(live, nullptr);
        std::lock_guard lock(memory.mutex);
        EXPECT_EQ(memory.live.size(), before) << "allocations a refused sfCreateLiveMove kept";
    }
    ASSERT_NE(live, nullptr) << "sfCreateLiveMove never succeeded";
    EXPECT_GT(failures, 0) << "sfCreateLiveMove allocated nothing through the callbacks: no fault was injected";

    {
        std::lock_guard lock(memory.mutex);
        memory.failAt = -1;
    }
    sfDestroyLiveMove(live);
    sfDestroyContext(context);
    EXPECT_TRUE(memory.live.empty()) << memory.live.size() << " allocations not returned";
    // The layer reports each failed creation with its result; any other message fails the test.
    for (const std::string& message : renderer_->takeMessages())
        EXPECT_NE(message.find("VK_ERROR_OUT_OF_HOST_MEMORY"), std::string::npos) << message;
}

// Device memory, device loss and a driver out of host memory while building
// pipelines, from the plugin's dispatch: each its own code, at the headless
// solve, sfCreateLiveMove and sfLiveMoveBegin, and the context works on after.
TEST_F(CApiFaults, DeviceMemoryAndDeviceLossHaveTheirOwnCodes) {
    SfContext context = adopt(nullptr, true);
    ASSERT_TRUE(context);
    const SfSolveInfo solve = solveInfo();
    std::vector<float> moved(sphere_.positions.size() * 3, -1.0f);
    const std::vector<float> untouched = moved;

    gFaultyAllocateResult = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    EXPECT_EQ(sfSolve(context, &solve, moved.data()), SF_ERROR_OUT_OF_DEVICE_MEMORY) << sfGetLastError(context);
    EXPECT_EQ(sfGetLastVkResult(context), VK_ERROR_OUT_OF_DEVICE_MEMORY);
    const SfLiveMoveCreateInfo info = createInfo();
    SfLiveMove live = nullptr;
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_OUT_OF_DEVICE_MEMORY) << sfGetLastError(context);
    EXPECT_EQ(sfGetLastVkResult(context), VK_ERROR_OUT_OF_DEVICE_MEMORY);
    EXPECT_EQ(live, nullptr);
    gFaultyAllocateResult = VK_SUCCESS;

    gFaultySubmitResult = VK_ERROR_DEVICE_LOST;
    EXPECT_EQ(sfSolve(context, &solve, moved.data()), SF_ERROR_DEVICE_LOST) << sfGetLastError(context);
    EXPECT_EQ(sfGetLastVkResult(context), VK_ERROR_DEVICE_LOST);
    EXPECT_NE(std::string(sfGetLastError(context)).find("vkQueueSubmit"), std::string::npos) << sfGetLastError(context);
    EXPECT_EQ(moved, untouched) << "a failed solve wrote its output";
    gFaultySubmitResult = VK_SUCCESS;

    // A bad argument after them: its own code, and no VkResult.
    SfSolveInfo bad = solve;
    bad.vertexCount = 0;
    EXPECT_EQ(sfSolve(context, &bad, moved.data()), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(sfGetLastVkResult(context), VK_SUCCESS);

    // The faults injected nothing lasting: the same calls succeed.
    EXPECT_EQ(sfSolve(context, &solve, moved.data()), SF_SUCCESS) << sfGetLastError(context);
    EXPECT_NE(moved, untouched);
    ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);

    // begin builds the drag's pipelines: the same cause, on the live move's handle.
    gFaultyPipelineResult = VK_ERROR_OUT_OF_HOST_MEMORY;
    EXPECT_EQ(sfLiveMoveBegin(live, &tools_, &posesA_, SF_MOVE_MODE_MOVE), SF_ERROR_OUT_OF_HOST_MEMORY)
        << sfLiveMoveGetLastError(live);
    EXPECT_EQ(sfLiveMoveGetLastVkResult(live), VK_ERROR_OUT_OF_HOST_MEMORY);
    EXPECT_EQ(sfLiveMoveIsMoving(live), 0u);
    gFaultyPipelineResult = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    EXPECT_EQ(sfLiveMoveBegin(live, &tools_, &posesA_, SF_MOVE_MODE_MOVE), SF_ERROR_OUT_OF_DEVICE_MEMORY);
    EXPECT_EQ(sfLiveMoveGetLastVkResult(live), VK_ERROR_OUT_OF_DEVICE_MEMORY);
    gFaultyPipelineResult = VK_SUCCESS;
    EXPECT_EQ(sfLiveMoveBegin(live, &tools_, &posesA_, SF_MOVE_MODE_MOVE), SF_SUCCESS) << sfLiveMoveGetLastError(live);
    // The next failure replaces the VkResult: a call out of order had none.
    EXPECT_EQ(sfLiveMoveBegin(live, &tools_, &posesA_, SF_MOVE_MODE_MOVE), SF_ERROR_INVALID_STATE);
    EXPECT_EQ(sfLiveMoveGetLastVkResult(live), VK_SUCCESS);
    EXPECT_EQ(sfLiveMoveCancel(live), SF_SUCCESS);
    VkCommandBuffer commands = renderer_->begin(); // the cancel's frame, so that the move is over
    SfRecordReport report;
    SF_INIT_STRUCT(&report);
    EXPECT_EQ(sfLiveMoveRecord(live, commands, nullptr, &report), SF_SUCCESS);
    renderer_->submitAndWait();
    EXPECT_EQ(sfLiveMoveSubmitted(live, report.ticket), SF_SUCCESS);
    sfDestroyLiveMove(live);
    sfDestroyContext(context);
}

} // namespace
} // namespace sculptflow
