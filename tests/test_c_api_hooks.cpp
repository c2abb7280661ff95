// The C API's context hooks and GPU timings against the C++ ones: object names
// (the same names for the same solve), the memory budget (the same refusal and
// code), the buffer placement, the pipeline cache written on demand, and a live
// move's GPU milliseconds with and without timestamps.
#include <sculptflow/sculptflow.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include "host/c_api_impl.hpp"
#include "host/context_impl.hpp"
#include "c_api_fixture.hpp"

namespace sculptflow {
namespace {

// The names given through vkSetDebugUtilsObjectNameEXT, through either face.
PFN_vkGetInstanceProcAddr gHooksForward = nullptr;
PFN_vkSetDebugUtilsObjectNameEXT gHooksForwardSetName = nullptr;
std::vector<std::string> gHooksNames;

VKAPI_ATTR VkResult VKAPI_CALL hooksRecordName(VkDevice device, const VkDebugUtilsObjectNameInfoEXT* info) {
    gHooksNames.emplace_back(info->pObjectName);
    return gHooksForwardSetName(device, info);
}

PFN_vkVoidFunction VKAPI_CALL hooksRecordingProcAddr(VkInstance instance, const char* name) {
    PFN_vkVoidFunction forwarded = gHooksForward(instance, name);
    if (std::strcmp(name, "vkSetDebugUtilsObjectNameEXT") == 0 && forwarded) {
        gHooksForwardSetName = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(forwarded);
        return reinterpret_cast<PFN_vkVoidFunction>(&hooksRecordName);
    }
    return forwarded;
}

// A headless GPU solve through each face on a created context with validation
// (which enables VK_EXT_debug_utils) and the prefix "sf/": the same names in the
// same order, and the same positions bit for bit.
TEST(CApiHooksCreated, ObjectNamesAreTheCppOnes) {
    SF_REQUIRE_VULKAN();
    Context loader; // opens the system loader: its entry point is the one to forward to
    gHooksForward = vkFunctions(loader).vkGetInstanceProcAddr;
    const Stroke stroke = defaultStroke();
    const Move move = moveToolMotion(stroke);
    const std::vector<glm::vec3> start = test::tipSphere(move.tools[0], 2, 1.0f).positions;

    gHooksNames.clear();
    std::vector<glm::vec3> cppMoved;
    {
        ContextOptions options{.validation = true};
        options.loader.getInstanceProcAddr = hooksRecordingProcAddr;
        options.hooks.objectNamePrefix = "sf/";
        Context context(options);
        GpuSolver solver(context);
        SolverOptions solve;
        solve.maxIterations = plannedAttempts(solve.method, solve.tolerance);
        solve.maxIterations = plannedAttempts(solve, {&move, 1}); // as sfSolve plans it
        cppMoved = solveOnGpu(solver, move, start, solve).positions;
        context.throwOnValidationMessages();
    }
    const std::vector<std::string> cppNames = gHooksNames;

    gHooksNames.clear();
    SfContextCreateInfo info;
    SF_INIT_STRUCT(&info);
    info.validation = 1;
    info.getInstanceProcAddr = hooksRecordingProcAddr;
    info.objectNamePrefix = "sf/";
    SfContext context = nullptr;
    ASSERT_EQ(sfCreateContext(&info, &context), SF_SUCCESS) << sfGetLastError(nullptr);
    const test::CApiTools tools(stroke);
    const SfPose posesA = test::cApiPose(stroke.tools[0].poses.front());
    const SfPose posesB = test::cApiPose(stroke.tools[0].poses.back());
    SfSolveInfo solve;
    SF_INIT_STRUCT(&solve);
    solve.backend = SF_BACKEND_GPU;
    solve.tools = &tools.info;
    solve.posesA = &posesA;
    solve.posesB = &posesB;
    solve.vertexCount = uint32_t(start.size());
    solve.positions = &start[0].x;
    std::vector<glm::vec3> cMoved(start.size());
    EXPECT_EQ(sfSolve(context, &solve, &cMoved[0].x), SF_SUCCESS) << sfGetLastError(context);
    sfDestroyContext(context);

    EXPECT_EQ(gHooksNames, cppNames);
    EXPECT_FALSE(cppNames.empty());
    EXPECT_EQ(std::memcmp(cMoved.data(), cppMoved.data(), cppMoved.size() * sizeof(glm::vec3)), 0);
}

class CApiHooks : public test::CApiFixture {
protected:
    // Not adoptC: a refusal is what some tests want.
    SfContext adoptHooks(uint64_t memoryBudget, uint32_t placement, const char* cacheFile = nullptr) {
        SfContextCreateInfo info = test::cApiAdoptInfo(renderer_->adopted());
        info.memoryBudget = memoryBudget;
        std::memcpy(&info.bufferPlacement, &placement, sizeof placement); // any value, as C may pass
        info.pipelineCacheFile = cacheFile;
        SfContext context = nullptr;
        lastResult_ = sfCreateContext(&info, &context);
        return context;
    }
    SfResult lastResult_ = SF_SUCCESS;
};

// A budget too small for the live move: the same refusal, by code and text.
TEST_F(CApiHooks, MemoryBudgetRefusesAsCppDoes) {
    const Mesh sphere = test::tipSphere(motion_.tools[0], 2, 1.0f);
    upload(sphere.positions);
    const std::vector<uint32_t> tris = test::triangles(sphere);
    const uint64_t budget = 1000; // bytes: less than the tool block and the snapshot
    AdoptedDevice adopted = renderer_->adopted();
    adopted.hooks.memoryBudget = budget;
    std::string cppText;
    ErrorCode cppCode = ErrorCode::Vulkan;
    try {
        Context context(adopted);
        LiveMove live(context, rendererMesh(tris));
        ADD_FAILURE() << "C++ created a live move past the budget";
    } catch (const Error& e) {
        cppText = e.what();
        cppCode = e.code();
    }
    EXPECT_EQ(cppCode, ErrorCode::OutOfDeviceMemory);

    SfContext context = adoptHooks(budget, SF_BUFFER_PLACEMENT_AUTO);
    ASSERT_EQ(lastResult_, SF_SUCCESS) << sfGetLastError(nullptr);
    const SfLiveMoveCreateInfo info = test::cApiLiveInfo(rendererMesh(tris), tris);
    SfLiveMove live = nullptr;
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_OUT_OF_DEVICE_MEMORY);
    EXPECT_EQ(capi::resultFor(cppCode), SF_ERROR_OUT_OF_DEVICE_MEMORY) << "codes one to one";
    EXPECT_EQ(std::string(sfGetLastError(context)), cppText);
    EXPECT_EQ(live, nullptr);
    sfDestroyContext(context);
}

// Each placement reaches the Context as C++ resolves it; an undefined one is refused.
TEST_F(CApiHooks, BufferPlacementIsTheCppOne) {
    const BufferPlacement placements[] = {BufferPlacement::Auto, BufferPlacement::Mapped, BufferPlacement::Staged};
    for (uint32_t p = 0; p < 3; ++p) {
        AdoptedDevice adopted = renderer_->adopted();
        adopted.hooks.bufferPlacement = placements[p];
        const Context cpp(adopted);
        SfContext context = adoptHooks(0, p);
        ASSERT_EQ(lastResult_, SF_SUCCESS) << sfGetLastError(nullptr);
        EXPECT_EQ(context->context->bufferPlacement(), cpp.bufferPlacement()) << "placement " << p;
        sfDestroyContext(context);
    }
    EXPECT_EQ(adoptHooks(0, 3), nullptr);
    EXPECT_EQ(lastResult_, SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(nullptr)).find("bufferPlacement"), std::string::npos)
        << sfGetLastError(nullptr);
}

// The context's queries through C: C++'s driver name, placement, memory held (a
// C and a C++ live move on the same mesh hold the same bytes) and heap room.
TEST_F(CApiHooks, QueriesAreTheCppOnes) {
    const Mesh sphere = test::tipSphere(motion_.tools[0], 2, 1.0f);
    upload(sphere.positions);
    const std::vector<uint32_t> tris = test::triangles(sphere);
    SfContext context = adoptHooks(0, SF_BUFFER_PLACEMENT_STAGED);
    ASSERT_EQ(lastResult_, SF_SUCCESS) << sfGetLastError(nullptr);
    AdoptedDevice adopted = renderer_->adopted();
    adopted.hooks.bufferPlacement = BufferPlacement::Staged;
    Context cpp(adopted);
    EXPECT_EQ(std::string(sfGetDriverName(context)), cpp.driverName());
    EXPECT_FALSE(cpp.driverName().empty());
    EXPECT_EQ(sfGetBufferPlacement(context), SF_BUFFER_PLACEMENT_STAGED);
    const SfLiveMoveCreateInfo info = test::cApiLiveInfo(rendererMesh(tris), tris);
    SfLiveMove live = nullptr;
    ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);
    const LiveMove cppLive(cpp, rendererMesh(tris));
    EXPECT_GT(sfGetAllocatedMemory(context), 0u);
    EXPECT_EQ(sfGetAllocatedMemory(context), cpp.allocatedMemory());
    EXPECT_EQ(sfGetDeviceHeapAvailable(context), context->context->deviceHeapAvailable());
    EXPECT_GT(sfGetDeviceHeapAvailable(context), 0u);
    EXPECT_STREQ(sfGetDriverName(nullptr), "");
    EXPECT_EQ(sfGetAllocatedMemory(nullptr), 0u);
    EXPECT_EQ(sfGetDeviceHeapAvailable(nullptr), 0u);
    EXPECT_EQ(sfGetBufferPlacement(nullptr), SF_BUFFER_PLACEMENT_AUTO);
    sfDestroyLiveMove(live);
    sfDestroyContext(context);
}

// sfSavePipelineCache writes the file now, as savePipelineCache(); without a file
// it reports 0, as C++'s false.
TEST_F(CApiHooks, PipelineCacheIsSavedOnDemand) {
    const test::ScratchDir scratch;
    const std::filesystem::path file = scratch / "pipelines.bin";
    const std::string name = file.string();
    SfContext context = adoptHooks(0, SF_BUFFER_PLACEMENT_AUTO, name.c_str());
    ASSERT_EQ(lastResult_, SF_SUCCESS) << sfGetLastError(nullptr);
    SfBool32 saved = 7;
    EXPECT_EQ(sfSavePipelineCache(context, &saved), SF_SUCCESS) << sfGetLastError(context);
    EXPECT_EQ(saved, 1u);
    EXPECT_TRUE(std::filesystem::exists(file)) << "written before sfDestroyContext";
    sfDestroyContext(context);

    context = adoptHooks(0, SF_BUFFER_PLACEMENT_AUTO);
    EXPECT_EQ(sfSavePipelineCache(context, &saved), SF_SUCCESS);
    EXPECT_EQ(saved, 0u) << "no file: C++'s false";
    EXPECT_FALSE(Context(renderer_->adopted()).savePipelineCache());
    EXPECT_EQ(sfSavePipelineCache(context, nullptr), SF_SUCCESS) << "saved is optional";
    EXPECT_EQ(sfSavePipelineCache(nullptr, &saved), SF_ERROR_INVALID_ARGUMENT);
    sfDestroyContext(context);
}

// GPU milliseconds after a few frames: a number with timestamps, NaN without, as
// C++'s gpuMilliseconds() with LiveMoveOptions::timestamps on and off.
TEST_F(CApiHooks, GpuMillisecondsAreTheCppOnes) {
    const Mesh sphere = test::tipSphere(motion_.tools[0], 2, 1.0f);
    const std::vector<uint32_t> tris = test::triangles(sphere);
    const Stroke& stroke = stroke_;
    for (bool timestamps : {true, false}) {
        SCOPED_TRACE(timestamps ? "timestamps" : "no timestamps");
        upload(sphere.positions);
        LiveMoveOptions options;
        options.timestamps = timestamps;
        live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris), options);
        live_->begin(stroke, firstPoses());
        for (size_t k = 1; k <= 4; ++k) {
            ASSERT_TRUE(live_->update(posesAt(k)));
            frame();
        }
        const double cpp = live_->gpuMilliseconds();
        live_->cancel();
        while (frame().recorded) {}
        live_.reset();

        upload(sphere.positions);
        SfContext context = adoptHooks(0, SF_BUFFER_PLACEMENT_AUTO);
        ASSERT_EQ(lastResult_, SF_SUCCESS);
        SfLiveMoveCreateInfo info = test::cApiLiveInfo(rendererMesh(tris), tris);
        info.noTimestamps = timestamps ? 0 : 1;
        SfLiveMove live = nullptr;
        ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);
        EXPECT_TRUE(std::isnan(sfLiveMoveGetGpuMilliseconds(live))) << "before any frame";
        const test::CApiTools tools(stroke);
        const SfPose posesA = test::cApiPose(firstPoses()[0]);
        ASSERT_EQ(sfLiveMoveBegin(live, &tools.info, &posesA, SF_MOVE_MODE_MOVE), SF_SUCCESS);
        for (size_t k = 1; k <= 4; ++k) {
            const SfPose posesB = test::cApiPose(posesAt(k)[0]);
            ASSERT_EQ(sfLiveMoveUpdate(live, &posesB), SF_SUCCESS) << sfLiveMoveGetLastError(live);
            cFrame(live);
        }
        const double c = sfLiveMoveGetGpuMilliseconds(live);
        EXPECT_EQ(std::isnan(c), std::isnan(cpp)) << "C " << c << " ms, C++ " << cpp << " ms";
        EXPECT_EQ(std::isnan(c), !timestamps) << c;
        EXPECT_EQ(sfLiveMoveCancel(live), SF_SUCCESS);
        cFramesUntilOver(live);
        sfDestroyLiveMove(live);
        sfDestroyContext(context);
    }
    EXPECT_TRUE(std::isnan(sfLiveMoveGetGpuMilliseconds(nullptr)));
}

} // namespace
} // namespace sculptflow
