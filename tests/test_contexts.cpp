// Any number of Contexts per process, entry points per Context, the renderer's
// hooks, and clear errors for a bad loader or device.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>
#if defined(_WIN32)
#include <malloc.h>
#endif

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include <sculptflow/gpu_solver.hpp>
#include <sculptflow/live_move.hpp>
#include "host/context_impl.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

std::vector<glm::vec3> builtInVoxels(const Stroke& stroke) {
    std::vector<glm::vec3> voxels = defaultMesh(stroke).positions;
    for (glm::vec3& p : voxels) p /= float(stroke.voxelSize);
    return voxels;
}

// Largest distance between two position sets, in voxels.
double maxDistance(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
    double worst = 0.0;
    for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, double(glm::length(a[i] - b[i])));
    return worst;
}

// The built-in move on the GPU agrees with the CPU reference within the solver's
// 0.1-voxel tolerance: each is within it of the exact move, and where the two round a
// decision differently (bs32: a vertex solved again on one only) they part by up to
// about that (docs/solver.md, "GPU against the CPU reference"; the README's check
// is the 99th percentile ≤ 0.01 voxel).
constexpr double kGpuCpuVoxels = 0.1;

// A second Context's view of the same objects, as a renderer would hand them over.
AdoptedDevice adoptedFrom(const Context& owner) {
    return {owner.instance(), owner.physicalDevice(), owner.device(), owner.queueFamily(), owner.queue()};
}

size_t physicalDeviceCount(const Context& context) {
    uint32_t count = 0;
    vkFunctions(context).vkEnumeratePhysicalDevices(context.instance(), &count, nullptr);
    return count;
}

TEST(Contexts, TwoOnTwoThreadsSolveTheBuiltInCase) {
    SF_REQUIRE_VULKAN();
    const Stroke stroke = defaultStroke();
    const Move move = moveToolMotion(stroke);
    const std::vector<glm::vec3> voxels = builtInVoxels(stroke);
    const CpuSolution reference = solveOnCpu(move, voxels, SolverOptions{});
    size_t devices = 0;
    {
        Context probe;
        devices = physicalDeviceCount(probe);
    }
    // Two devices where there are two; the same device twice otherwise.
    const std::string selectors[2] = {"0", devices > 1 ? "1" : "0"};
    double differences[2] = {-1.0, -1.0};
    std::exception_ptr failures[2];
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
        threads.emplace_back([&, t] {
            try {
                Context context(ContextOptions{.validation = test::validate(), .device = selectors[t]});
                GpuSolver solver(context);
                GpuMesh mesh(context, voxels);
                for (int run = 0; run < 3; ++run) { // long enough for the two to overlap
                    solver.run(mesh, move, SolverOptions{}, run % 2 == 0);
                    differences[t] = std::max(differences[t], maxDistance(mesh.readPositions(), reference.positions));
                }
            } catch (...) {
                failures[t] = std::current_exception();
            }
        });
    }
    for (std::thread& thread : threads) thread.join();
    for (int t = 0; t < 2; ++t) {
        if (failures[t]) std::rethrow_exception(failures[t]);
        EXPECT_GE(differences[t], 0.0);
        EXPECT_LE(differences[t], kGpuCpuVoxels) << "thread " << t << " on device " << selectors[t];
    }
}

TEST(Contexts, AdoptsAnotherContextsDeviceWithItsEntryPoint) {
    SF_REQUIRE_VULKAN();
    const Stroke stroke = defaultStroke();
    const Move move = moveToolMotion(stroke);
    const std::vector<glm::vec3> voxels = builtInVoxels(stroke);
    Context owner(ContextOptions{.validation = test::validate()});
    AdoptedDevice adopted = adoptedFrom(owner);
    adopted.loader.getInstanceProcAddr = vkFunctions(owner).vkGetInstanceProcAddr;
    Context guest(adopted);
    EXPECT_TRUE(guest.adopted());
    EXPECT_NE(&vkFunctions(guest), &vkFunctions(owner)); // a table of its own
    EXPECT_EQ(vkFunctions(guest).vkCmdDispatch, vkFunctions(owner).vkCmdDispatch); // the same driver
    {
        GpuSolver solver(guest);
        GpuMesh mesh(guest, voxels);
        solver.run(mesh, move, SolverOptions{}, false);
        EXPECT_LE(maxDistance(mesh.readPositions(), solveOnCpu(move, voxels, SolverOptions{}).positions),
                  kGpuCpuVoxels);
    }
    EXPECT_NO_THROW(owner.throwOnValidationMessages());
}

// A renderer's own device dispatch: forwards to the driver but records the
// pipeline cache each compute pipeline is created with.
PFN_vkGetDeviceProcAddr gForwardDevice = nullptr;
PFN_vkCreateComputePipelines gForwardCreate = nullptr;
std::vector<VkPipelineCache> gCachesUsed;

VKAPI_ATTR VkResult VKAPI_CALL recordCache(VkDevice device, VkPipelineCache cache, uint32_t count,
                                           const VkComputePipelineCreateInfo* infos,
                                           const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
    gCachesUsed.push_back(cache);
    return gForwardCreate(device, cache, count, infos, allocator, pipelines);
}

PFN_vkVoidFunction VKAPI_CALL recordingDeviceProcAddr(VkDevice device, const char* name) {
    PFN_vkVoidFunction forwarded = gForwardDevice(device, name);
    if (std::strcmp(name, "vkCreateComputePipelines") == 0 && forwarded) {
        gForwardCreate = reinterpret_cast<PFN_vkCreateComputePipelines>(forwarded);
        return reinterpret_cast<PFN_vkVoidFunction>(&recordCache);
    }
    return forwarded;
}

TEST(Contexts, PipelinesGoThroughTheRenderersCache) {
    SF_REQUIRE_VULKAN();
    const Stroke stroke = defaultStroke();
    const Move move = moveToolMotion(stroke);
    const std::vector<glm::vec3> voxels = builtInVoxels(stroke);
    Context owner(ContextOptions{.validation = test::validate()});
    const VulkanFunctions& vk = vkFunctions(owner);
    gForwardDevice = vk.vkGetDeviceProcAddr;
    auto createCache = reinterpret_cast<PFN_vkCreatePipelineCache>(
        vk.vkGetDeviceProcAddr(owner.device(), "vkCreatePipelineCache"));
    auto destroyCache = reinterpret_cast<PFN_vkDestroyPipelineCache>(
        vk.vkGetDeviceProcAddr(owner.device(), "vkDestroyPipelineCache"));
    VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    VkPipelineCache cache = VK_NULL_HANDLE;
    ASSERT_EQ(createCache(owner.device(), &info, nullptr, &cache), VK_SUCCESS);

    std::vector<glm::vec3> cached, uncached;
    for (VkPipelineCache hook : {cache, VkPipelineCache(VK_NULL_HANDLE)}) {
        gCachesUsed.clear();
        AdoptedDevice adopted = adoptedFrom(owner);
        adopted.loader.getDeviceProcAddr = recordingDeviceProcAddr;
        adopted.hooks.pipelineCache = hook;
        Context context(adopted);
        GpuSolver solver(context);
        GpuMesh mesh(context, voxels);
        solver.run(mesh, move, SolverOptions{}, false);
        (hook ? cached : uncached) = mesh.readPositions();
        EXPECT_FALSE(gCachesUsed.empty());
        EXPECT_TRUE(std::all_of(gCachesUsed.begin(), gCachesUsed.end(), [&](VkPipelineCache c) { return c == hook; }));
    }
    destroyCache(owner.device(), cache, nullptr);
    ASSERT_EQ(cached.size(), uncached.size());
    EXPECT_EQ(0, std::memcmp(cached.data(), uncached.data(), cached.size() * sizeof(glm::vec3)));
    EXPECT_NO_THROW(owner.throwOnValidationMessages());
}

TEST(Contexts, NoPipelineIsBuiltDuringADrag) {
    SF_REQUIRE_VULKAN();
    const Stroke stroke = defaultStroke();
    const std::vector<glm::vec3> voxels = builtInVoxels(stroke);
    Context owner(ContextOptions{.validation = test::validate()});
    const VulkanFunctions& vk = vkFunctions(owner);
    gForwardDevice = vk.vkGetDeviceProcAddr;
    AdoptedDevice adopted = adoptedFrom(owner);
    adopted.loader.getDeviceProcAddr = recordingDeviceProcAddr;
    Context context(adopted);
    GpuMesh buffers(context, voxels); // its input buffer stands in for the renderer's vertex buffer
    RendererMesh mesh;
    mesh.vertexCount = uint32_t(voxels.size());
    mesh.positions = {buffers.inputBuffer(), 0, 12};
    LiveMove live(context, mesh);

    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = owner.queueFamily();
    VkCommandPool pool = VK_NULL_HANDLE;
    ASSERT_EQ(vk.vkCreateCommandPool(owner.device(), &poolInfo, nullptr, &pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocateInfo.commandPool = pool;
    allocateInfo.commandBufferCount = 1;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    ASSERT_EQ(vk.vkAllocateCommandBuffers(owner.device(), &allocateInfo, &commands), VK_SUCCESS);

    auto waitIdle = reinterpret_cast<PFN_vkQueueWaitIdle>(vk.vkGetDeviceProcAddr(owner.device(), "vkQueueWaitIdle"));
    const std::vector<Pose>& poses = stroke.tools[0].poses;
    live.begin(stroke, {&poses.front(), 1});
    gCachesUsed.clear(); // from here on, every compute pipeline built is counted
    for (size_t frame = 1; frame < poses.size(); frame += std::max<size_t>(1, poses.size() / 8)) {
        ASSERT_TRUE(live.update({&poses[frame], 1})) << live.lastError();
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        ASSERT_EQ(vk.vkBeginCommandBuffer(commands, &begin), VK_SUCCESS);
        const RecordReport report = live.record(commands);
        EXPECT_TRUE(report.recorded);
        ASSERT_EQ(vk.vkEndCommandBuffer(commands), VK_SUCCESS);
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &commands;
        ASSERT_EQ(vk.vkQueueSubmit(owner.queue(), 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
        ASSERT_TRUE(live.submitted(report.ticket)) << live.lastError();
        ASSERT_EQ(waitIdle(owner.queue()), VK_SUCCESS);
    }
    EXPECT_TRUE(gCachesUsed.empty()) << gCachesUsed.size() << " pipelines built after the grab";
    live.commit();
    vk.vkDestroyCommandPool(owner.device(), pool, nullptr);
    EXPECT_NO_THROW(owner.throwOnValidationMessages());
}

// A vkGetInstanceProcAddr that knows no command.
PFN_vkVoidFunction VKAPI_CALL knowsNothing(VkInstance, const char*) { return nullptr; }

TEST(Contexts, BadLoadersAreNamed) {
    SF_REQUIRE_VULKAN();
    EXPECT_TRUE(test::failsWith([] { Context c(ContextOptions{.loader = {.library = "libvulkan-nowhere.so.1"}}); },
                                {"cannot open the Vulkan loader", "libvulkan-nowhere.so.1"}));
    EXPECT_TRUE(test::failsWith([] { Context c(ContextOptions{.loader = {.getInstanceProcAddr = knowsNothing}}); },
                                {"did not return", "vkCreateInstance"}));
    Context working(ContextOptions{.validation = test::validate()});
    AdoptedDevice adopted = adoptedFrom(working);
    adopted.loader.getInstanceProcAddr = knowsNothing;
    EXPECT_TRUE(test::failsWith([&] { Context c(adopted); }, {"did not return", "vk"}));
    // A failed Context leaves the others working.
    GpuSolver solver(working);
    GpuMesh mesh(working, builtInVoxels(defaultStroke()));
    EXPECT_NO_THROW(solver.run(mesh, moveToolMotion(defaultStroke()), SolverOptions{}, true));
}

TEST(Contexts, BadAdoptedDevicesAreNamed) {
    SF_REQUIRE_VULKAN();
    Context owner(ContextOptions{.validation = test::validate()});
    const AdoptedDevice good = adoptedFrom(owner);
    AdoptedDevice noQueue = good;
    noQueue.queue = VK_NULL_HANDLE;
    EXPECT_TRUE(test::failsWith([&] { Context c(noQueue); }, {"queue must all be given"}));
    AdoptedDevice oldInstance = good;
    oldInstance.apiVersion = VK_API_VERSION_1_0;
    EXPECT_TRUE(test::failsWith([&] { Context c(oldInstance); }, {"1.0", "needs Vulkan 1.2"}));
    AdoptedDevice missingFamily = good;
    missingFamily.queueFamily = 99;
    EXPECT_TRUE(test::failsWith([&] { Context c(missingFamily); }, {"queue family 99 does not exist"}));
    EXPECT_NO_THROW(owner.throwOnValidationMessages());
}

// The renderer's allocation callbacks: every allocation the library makes goes
// through them, and all are returned. Drivers and layers call them from their
// own threads too, hence the lock.
struct Allocations {
    std::mutex mutex;
    std::vector<std::pair<void*, size_t>> live;
    long total = 0;
};

// Aligned memory: Windows' C runtime has no std::aligned_alloc.
void* alignedAllocate(size_t size, size_t alignment) {
#if defined(_WIN32)
    return _aligned_malloc(size, alignment);
#else
    return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
#endif
}

void alignedFree(void* memory) {
#if defined(_WIN32)
    _aligned_free(memory);
#else
    std::free(memory);
#endif
}

void* VKAPI_CALL countedAllocate(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
    auto* a = static_cast<Allocations*>(user);
    void* memory = alignedAllocate(size, alignment);
    std::lock_guard lock(a->mutex);
    if (memory) a->live.emplace_back(memory, size), ++a->total;
    return memory;
}

void VKAPI_CALL countedFree(void* user, void* memory) {
    if (!memory) return;
    auto* a = static_cast<Allocations*>(user);
    {
        std::lock_guard lock(a->mutex);
        a->live.erase(std::find_if(a->live.begin(), a->live.end(), [&](const auto& e) { return e.first == memory; }));
    }
    alignedFree(memory);
}

void* VKAPI_CALL countedReallocate(void* user, void* original, size_t size, size_t alignment,
                                   VkSystemAllocationScope scope) {
    if (!original) return countedAllocate(user, size, alignment, scope);
    if (size == 0) return countedFree(user, original), nullptr;
    auto* a = static_cast<Allocations*>(user);
    size_t old = 0;
    {
        std::lock_guard lock(a->mutex);
        old = std::find_if(a->live.begin(), a->live.end(), [&](const auto& e) { return e.first == original; })->second;
    }
    void* memory = countedAllocate(user, size, alignment, scope);
    if (memory) std::memcpy(memory, original, std::min(old, size)), countedFree(user, original);
    return memory;
}

TEST(Contexts, AllocationCallbacksSeeEveryObject) {
    SF_REQUIRE_VULKAN();
    if (test::underWine()) GTEST_SKIP() << "Wine's Vulkan does not pass allocation callbacks to the host's driver";
    Allocations allocations;
    const VkAllocationCallbacks callbacks{&allocations, countedAllocate, countedReallocate, countedFree, nullptr,
                                          nullptr};
    {
        ContextOptions options{.validation = test::validate()};
        options.hooks.allocationCallbacks = &callbacks;
        Context context(options);
        const long afterContext = allocations.total;
        GpuSolver solver(context);
        GpuMesh mesh(context, builtInVoxels(defaultStroke()));
        solver.run(mesh, moveToolMotion(defaultStroke()), SolverOptions{}, true);
        std::lock_guard lock(allocations.mutex);
        EXPECT_GT(allocations.total, afterContext); // pipelines, buffers and pools went through them
    }
    EXPECT_GT(allocations.total, 0);
    EXPECT_TRUE(allocations.live.empty()) << allocations.live.size() << " allocations not returned";
}

// A renderer's own dispatch: forwards every command to the loader but records
// the debug names the library gives its objects.
PFN_vkGetInstanceProcAddr gForward = nullptr;
PFN_vkSetDebugUtilsObjectNameEXT gForwardSetName = nullptr;
std::vector<std::string> gNames;

VKAPI_ATTR VkResult VKAPI_CALL recordName(VkDevice device, const VkDebugUtilsObjectNameInfoEXT* info) {
    gNames.emplace_back(info->pObjectName);
    return gForwardSetName(device, info);
}

PFN_vkVoidFunction VKAPI_CALL recordingProcAddr(VkInstance instance, const char* name) {
    PFN_vkVoidFunction forwarded = gForward(instance, name);
    if (std::strcmp(name, "vkSetDebugUtilsObjectNameEXT") == 0 && forwarded) {
        gForwardSetName = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(forwarded);
        return reinterpret_cast<PFN_vkVoidFunction>(&recordName);
    }
    return forwarded;
}

TEST(Contexts, ObjectsGetTheRenderersNamePrefix) {
    SF_REQUIRE_VULKAN();
    Context loader; // opens the system loader: its entry point is the one to forward to
    gForward = vkFunctions(loader).vkGetInstanceProcAddr;
    gNames.clear();
    ContextOptions options{.validation = test::validate()}; // validation enables VK_EXT_debug_utils
    options.loader.getInstanceProcAddr = recordingProcAddr;
    options.hooks.objectNamePrefix = "sf/";
    {
        Context context(options);
        GpuSolver solver(context);
        GpuMesh mesh(context, builtInVoxels(defaultStroke()));
        solver.run(mesh, moveToolMotion(defaultStroke()), SolverOptions{}, false);
        context.throwOnValidationMessages();
    }
    auto named = [](const std::string& name) { return std::find(gNames.begin(), gNames.end(), name) != gNames.end(); };
    EXPECT_TRUE(named("sf/mesh input positions"));
    EXPECT_TRUE(named("sf/mesh output positions"));
    EXPECT_TRUE(std::any_of(gNames.begin(), gNames.end(),
                            [](const std::string& n) { return n.starts_with("sf/deform"); }))
        << "no deform pipeline was named";
    EXPECT_TRUE(std::all_of(gNames.begin(), gNames.end(), [](const std::string& n) { return n.starts_with("sf/"); }));
}

} // namespace
} // namespace sculptflow
