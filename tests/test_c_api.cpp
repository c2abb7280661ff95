// The C API (sculptflow.h) from C++: version, the headless solve against the C++
// API's, the per-frame path on a renderer's adopted device (validation and
// synchronization validation on), and bad input: the right code and text, no
// abort, nothing written.
#include <sculptflow/sculptflow.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/version.hpp>
#include "c_api_fixture.hpp"

namespace sculptflow {
namespace {

using test::tipSphere;
using test::triangles;

constexpr float kUntouched = -12345.0f; // what outputs hold before a call that must not write them

using test::cApiPose;

// The stroke's tools and first and last poses, as C structs.
struct CStroke {
    explicit CStroke(const Stroke& stroke) {
        for (const ToolStroke& t : stroke.tools) {
            tools.push_back({SfToolKind(t.kind), SfKelvinletProfile(t.profile), SfFalloff(t.falloff), t.innerRadius,
                             t.outerRadius, t.stiffness, t.compressibility});
            posesA.push_back(cApiPose(t.poses.front()));
            posesB.push_back(cApiPose(t.poses.back()));
        }
        info.toolCount = uint32_t(tools.size());
        info.tools = tools.data();
        info.voxelSize = stroke.voxelSize;
        info.symmetryAxes = stroke.symmetry.axes;
    }
    std::vector<SfTool> tools;
    std::vector<SfPose> posesA, posesB;
    SfTools info{sizeof(SfTools)};
};

SfSolveInfo solveInfo(const CStroke& stroke, const std::vector<glm::vec3>& positions, SfBackend backend) {
    SfSolveInfo info{sizeof(SfSolveInfo)};
    info.backend = backend;
    info.tools = &stroke.info;
    info.posesA = stroke.posesA.data();
    info.posesB = stroke.posesB.data();
    info.vertexCount = uint32_t(positions.size());
    info.positions = &positions[0].x;
    return info;
}

bool untouched(const std::vector<float>& out) {
    for (float v : out)
        if (v != kUntouched) return false;
    return true;
}

TEST(CApi, VersionIsTheProjectsAtCompileAndRunTime) {
    EXPECT_EQ(sfGetVersion(), uint32_t(SCULPTFLOW_VERSION));
    EXPECT_EQ(sfGetVersion(), uint32_t(SCULPTFLOW_MAKE_VERSION(0, 1, 0)));
    const Version v = version();
    EXPECT_EQ(v.major, 0u);
    EXPECT_EQ(v.minor, 1u);
    EXPECT_EQ(v.patch, 0u);
}

// Each SfMethod is its C++ Method: a wrong mapping parts them by far more than
// 1e-4 voxel (their mean errors alone differ by 0.002–0.01 voxel on this move).
TEST(CApi, CpuSolveIsTheCppReferences) {
    const Stroke stroke = defaultStroke();
    const Move move = moveToolMotion(stroke);
    const Mesh sphere = tipSphere(move.tools[0], 2, 1.0f);
    const CStroke c(stroke);
    const std::pair<SfMethod, Method> methods[] = {{SF_METHOD_BS32, Method::Bs32},
                                                   {SF_METHOD_DP45, Method::Dp45},
                                                   {SF_METHOD_RK4_DOUBLING, Method::Rk4Double},
                                                   {SF_METHOD_TSIT5, Method::Tsit5}};
    for (const auto& [cMethod, method] : methods) {
        std::vector<float> moved(sphere.positions.size() * 3, kUntouched);
        SfSolveInfo info = solveInfo(c, sphere.positions, SF_BACKEND_CPU);
        info.method = cMethod;
        ASSERT_EQ(sfSolve(nullptr, &info, moved.data()), SF_SUCCESS) << sfGetLastError(nullptr);
        SolverOptions options;
        options.method = method;
        const CpuSolution expected = solveOnCpu(move, sphere.positions, options);
        double worst = 0.0, travel = 0.0;
        for (size_t i = 0; i < sphere.positions.size(); ++i) {
            const glm::dvec3 got(moved[3 * i], moved[3 * i + 1], moved[3 * i + 2]);
            worst = std::max(worst, glm::length(got - glm::dvec3(expected.positions[i])));
            travel = std::max(travel, glm::length(got - glm::dvec3(sphere.positions[i])));
        }
        EXPECT_LE(worst, 1e-4) << "voxels from the C++ API's CPU solve, " << methodName(method);
        EXPECT_GT(travel, 10.0) << "voxels the move carries the sphere, " << methodName(method);
    }
}

// Each bad input: its code, a message naming the problem, and the output untouched.
TEST(CApi, BadSolveInputIsRefusedWithoutWriting) {
    const Stroke stroke = defaultStroke();
    const std::vector<glm::vec3> positions = tipSphere(moveToolMotion(stroke).tools[0], 1, 1.0f).positions;
    const std::vector<float> nanMask(positions.size(), std::numeric_limits<float>::quiet_NaN());
    const struct Case {
        const char* what;
        void (*spoil)(SfSolveInfo&, CStroke&, const std::vector<float>&);
        SfResult code;
        const char* message;
    } cases[] = {
        {"no info", nullptr, SF_ERROR_INVALID_ARGUMENT, "SfSolveInfo is NULL"},
        {"size 0", [](SfSolveInfo& i, CStroke&, const std::vector<float>&) { i.structSize = 0; },
         SF_ERROR_INVALID_STRUCT_SIZE, "SfSolveInfo.structSize is 0"},
        {"no poses", [](SfSolveInfo& i, CStroke&, const std::vector<float>&) { i.posesB = nullptr; },
         SF_ERROR_INVALID_ARGUMENT, "posesB"},
        {"no vertices", [](SfSolveInfo& i, CStroke&, const std::vector<float>&) { i.vertexCount = 0; },
         SF_ERROR_INVALID_ARGUMENT, "vertexCount is 0"},
        {"NaN voxel size", [](SfSolveInfo&, CStroke& s, const std::vector<float>&) { s.info.voxelSize = std::nan(""); },
         SF_ERROR_INVALID_ARGUMENT, "voxelSize"},
        {"NaN radius",
         [](SfSolveInfo&, CStroke& s, const std::vector<float>&) { s.tools[0].outerRadius = std::nan(""); },
         SF_ERROR_INVALID_ARGUMENT, "outer"},
        {"NaN pose",
         [](SfSolveInfo&, CStroke& s, const std::vector<float>&) { s.posesB[0].position[1] = std::nan(""); },
         SF_ERROR_INVALID_ARGUMENT, "position"},
        {"no tools", [](SfSolveInfo&, CStroke& s, const std::vector<float>&) { s.info.toolCount = 0; },
         SF_ERROR_INVALID_ARGUMENT, "toolCount is 0"},
        {"bad kind", [](SfSolveInfo&, CStroke& s, const std::vector<float>&) { s.tools[0].kind = SfToolKind(7); },
         SF_ERROR_INVALID_ARGUMENT, "SfTool.kind is 7"},
        {"bad method", [](SfSolveInfo& i, CStroke&, const std::vector<float>&) { i.method = SfMethod(-1); },
         SF_ERROR_INVALID_ARGUMENT, "method is"},
        {"negative tolerance", [](SfSolveInfo& i, CStroke&, const std::vector<float>&) { i.tolerance = -0.1; },
         SF_ERROR_INVALID_ARGUMENT, "tol"},
        {"NaN mask", [](SfSolveInfo& i, CStroke&, const std::vector<float>& m) { i.mask = m.data(); },
         SF_ERROR_INVALID_ARGUMENT, "SfSolveInfo.mask"},
        {"inner radius past the outer one",
         [](SfSolveInfo&, CStroke& s, const std::vector<float>&) {
             s.tools[0].innerRadius = 2.0 * s.tools[0].outerRadius;
         },
         SF_ERROR_INVALID_ARGUMENT, "SfTool.innerRadius"},
        {"GPU without a context",
         [](SfSolveInfo& i, CStroke&, const std::vector<float>&) { i.backend = SF_BACKEND_GPU; },
         SF_ERROR_INVALID_ARGUMENT, "needs a context"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        CStroke s(stroke);
        SfSolveInfo info = solveInfo(s, positions, SF_BACKEND_CPU);
        if (c.spoil) c.spoil(info, s, nanMask);
        std::vector<float> moved(positions.size() * 3, kUntouched);
        EXPECT_EQ(sfSolve(nullptr, c.spoil ? &info : nullptr, moved.data()), c.code);
        EXPECT_NE(std::string(sfGetLastError(nullptr)).find(c.message), std::string::npos) << sfGetLastError(nullptr);
        EXPECT_TRUE(untouched(moved));
    }
}

// Every C enum is 32 bits, as Vulkan's: a _MAX_ENUM of 0x7FFFFFFF keeps a
// compiler from picking a smaller type (-fshort-enums) or a larger one later.
TEST(CApi, EnumsHaveA32BitMaxEnum) {
    static_assert(sizeof(SfResult) == 4 && sizeof(SfLogLevel) == 4 && sizeof(SfToolKind) == 4 &&
                  sizeof(SfKelvinletProfile) == 4 && sizeof(SfFalloff) == 4 && sizeof(SfMethod) == 4 &&
                  sizeof(SfBackend) == 4 && sizeof(SfMoveMode) == 4);
    const int64_t maxEnums[] = {
        SF_RESULT_MAX_ENUM,  SF_LOG_LEVEL_MAX_ENUM, SF_TOOL_KIND_MAX_ENUM, SF_KELVINLET_PROFILE_MAX_ENUM,
        SF_FALLOFF_MAX_ENUM, SF_METHOD_MAX_ENUM,    SF_BACKEND_MAX_ENUM,   SF_MOVE_MODE_MAX_ENUM};
    for (int64_t value : maxEnums) EXPECT_EQ(value, 0x7FFFFFFF);
    // A _MAX_ENUM is no value: refused where an enum is read.
    const Stroke stroke = defaultStroke();
    const std::vector<glm::vec3> positions = tipSphere(moveToolMotion(stroke).tools[0], 1, 1.0f).positions;
    CStroke c(stroke);
    SfSolveInfo info = solveInfo(c, positions, SF_BACKEND_CPU);
    std::vector<float> moved(positions.size() * 3, kUntouched);
    info.method = SF_METHOD_MAX_ENUM;
    EXPECT_EQ(sfSolve(nullptr, &info, moved.data()), SF_ERROR_INVALID_ARGUMENT);
    info.method = SF_METHOD_BS32;
    info.backend = SF_BACKEND_MAX_ENUM;
    EXPECT_EQ(sfSolve(nullptr, &info, moved.data()), SF_ERROR_INVALID_ARGUMENT);
    info.backend = SF_BACKEND_CPU;
    c.tools[0].kind = SF_TOOL_KIND_MAX_ENUM;
    EXPECT_EQ(sfSolve(nullptr, &info, moved.data()), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(untouched(moved));
}

// SF_INIT_STRUCT: every byte zero but structSize, which is the struct's size.
template <typename T>
void expectInitialised() {
    T value;
    std::memset(&value, 0xA5, sizeof value);
    SF_INIT_STRUCT(&value);
    EXPECT_EQ(value.structSize, sizeof(T));
    value.structSize = 0;
    const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
    EXPECT_EQ(std::count(bytes, bytes + sizeof(T), 0), std::ptrdiff_t(sizeof(T)));
}

TEST(CApi, InitStructZeroesAndSetsTheSize) {
    expectInitialised<SfContextCreateInfo>();
    expectInitialised<SfTools>();
    expectInitialised<SfSolveInfo>();
    expectInitialised<SfLiveMoveCreateInfo>();
    expectInitialised<SfRecordSync>();
    expectInitialised<SfRecordReport>();
    expectInitialised<SfPrewarmInfo>();
    // What it makes is what a call reads: a refused context (no valid adoption)
    // is refused for its handles, not its size.
    SfContextCreateInfo info;
    SF_INIT_STRUCT(&info);
    info.device = reinterpret_cast<VkDevice>(&info);
    SfContext context = nullptr;
    EXPECT_EQ(sfCreateContext(&info, &context), SF_ERROR_INVALID_ARGUMENT) << sfGetLastError(nullptr);
}

// A struct from newer headers is read when its extra bytes are zero, refused otherwise.
TEST(CApi, LargerStructsNeedTheirUnknownBytesZero) {
    const Stroke stroke = defaultStroke();
    const std::vector<glm::vec3> positions = tipSphere(moveToolMotion(stroke).tools[0], 1, 1.0f).positions;
    const CStroke c(stroke);
    struct Newer {
        SfSolveInfo known;
        uint64_t later;
    } newer{solveInfo(c, positions, SF_BACKEND_CPU), 0};
    newer.known.structSize = sizeof(Newer);
    std::vector<float> moved(positions.size() * 3, kUntouched);
    EXPECT_EQ(sfSolve(nullptr, &newer.known, moved.data()), SF_SUCCESS) << sfGetLastError(nullptr);
    EXPECT_FALSE(untouched(moved));
    newer.later = 1;
    std::fill(moved.begin(), moved.end(), kUntouched);
    EXPECT_EQ(sfSolve(nullptr, &newer.known, moved.data()), SF_ERROR_INVALID_STRUCT_SIZE);
    EXPECT_NE(std::string(sfGetLastError(nullptr)).find("does not know"), std::string::npos);
    EXPECT_TRUE(untouched(moved));
}

TEST(CApi, BadContextInputIsRefusedWithoutWriting) {
    int sentinel = 0;
    SfContext context = reinterpret_cast<SfContext>(&sentinel); // a value the refused calls must leave
    const SfContext before = context;
    EXPECT_EQ(sfCreateContext(nullptr, &context), SF_ERROR_INVALID_ARGUMENT);
    SfContextCreateInfo info{sizeof(SfContextCreateInfo)};
    EXPECT_EQ(sfCreateContext(&info, nullptr), SF_ERROR_INVALID_ARGUMENT);
    info.structSize = 4;
    EXPECT_EQ(sfCreateContext(&info, &context), SF_ERROR_INVALID_STRUCT_SIZE);
    info.structSize = sizeof(info);
    info.device = reinterpret_cast<VkDevice>(&info); // adopting, without the instance
    EXPECT_EQ(sfCreateContext(&info, &context), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(nullptr)).find("instance, physicalDevice, device and queue"),
              std::string::npos);
    EXPECT_EQ(context, before);
    EXPECT_STREQ(sfGetDeviceName(nullptr), "");
    EXPECT_EQ(sfLiveMoveUpdate(nullptr, nullptr), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(nullptr)).find("live is NULL"), std::string::npos);
}

// A context the library creates, with validation: a layer message would fail the
// solve (SF_ERROR_DEVICE) or reach the log callback when it is destroyed.
TEST(CApi, CreatedContextSolvesUnderValidation) {
    SF_REQUIRE_VULKAN();
    std::vector<std::string> logged;
    SfContextCreateInfo info{sizeof(SfContextCreateInfo)};
    info.validation = 1;
    info.logCallback = [](void* user, SfLogLevel, const char* message) {
        static_cast<std::vector<std::string>*>(user)->push_back(message);
    };
    info.logUserData = &logged;
    SfContext context = nullptr;
    ASSERT_EQ(sfCreateContext(&info, &context), SF_SUCCESS) << sfGetLastError(nullptr);
    const Stroke stroke = defaultStroke();
    const Move move = moveToolMotion(stroke);
    const std::vector<glm::vec3> positions = tipSphere(move.tools[0], 1, 1.0f).positions;
    const CStroke c(stroke);
    std::vector<float> moved(positions.size() * 3, kUntouched);
    SfSolveInfo solve = solveInfo(c, positions, SF_BACKEND_GPU);
    EXPECT_EQ(sfSolve(context, &solve, moved.data()), SF_SUCCESS) << sfGetLastError(context);
    const std::vector<glm::vec3> expected = solveOnCpu(move, positions, SolverOptions{}).positions;
    for (size_t i = 0; i < positions.size(); ++i)
        EXPECT_LE(glm::length(glm::vec3(moved[3 * i], moved[3 * i + 1], moved[3 * i + 2]) - expected[i]), 0.05f)
            << "vertex " << i;
    sfDestroyContext(context);
    EXPECT_TRUE(logged.empty()) << logged.front();
}

// The renderer's side: its own instance and device (validation and synchronization
// validation on, any message fails the test), adopted through the C API.
class CApiLive : public test::CApiFixture {
protected:
    // The renderer's device, as a plugin hands it over.
    SfContextCreateInfo adoptInfo() const {
        return test::cApiAdoptInfo(renderer_->adopted());
    }
    SfContext adopt(const char* cacheFile = nullptr) {
        SfContextCreateInfo info = adoptInfo();
        info.pipelineCacheFile = cacheFile;
        info.logCallback = [](void* user, SfLogLevel level, const char* message) {
            static_cast<std::vector<std::string>*>(user)->push_back(std::to_string(level) + " " + message);
        };
        info.logUserData = &logged_;
        SfContext context = nullptr;
        EXPECT_EQ(sfCreateContext(&info, &context), SF_SUCCESS) << sfGetLastError(nullptr);
        return context;
    }
    std::vector<std::string> logged_;
};

TEST_F(CApiLive, GpuSolveMatchesTheCpuReference) {
    SfContext context = adopt();
    ASSERT_TRUE(context);
    EXPECT_STREQ(sfGetDeviceName(context), context_->properties().deviceName);
    const Mesh sphere = tipSphere(motion_.tools[0], 2, 1.0f);
    const CStroke c(stroke_);
    std::vector<float> moved(sphere.positions.size() * 3, kUntouched);
    SfSolveInfo info = solveInfo(c, sphere.positions, SF_BACKEND_GPU);
    ASSERT_EQ(sfSolve(context, &info, moved.data()), SF_SUCCESS) << sfGetLastError(context);
    const CpuSolution expected = solveOnCpu(motion_, sphere.positions, SolverOptions{});
    double worst = 0.0;
    for (size_t i = 0; i < sphere.positions.size(); ++i)
        worst = std::max(worst, glm::length(glm::dvec3(moved[3 * i], moved[3 * i + 1], moved[3 * i + 2]) -
                                            glm::dvec3(expected.positions[i])));
    EXPECT_LE(worst, 0.05) << "voxels from the CPU reference";
    info.tolerance = std::nan("");
    std::fill(moved.begin(), moved.end(), kUntouched);
    EXPECT_EQ(sfSolve(context, &info, moved.data()), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(context)).find("tol"), std::string::npos) << sfGetLastError(context);
    EXPECT_TRUE(untouched(moved));
    sfDestroyContext(context);

    // A Vulkan 1.1 instance cannot be adopted: the thread's error says why.
    SfContextCreateInfo old = adoptInfo();
    old.apiVersion = VK_API_VERSION_1_1;
    SfContext none = nullptr;
    EXPECT_EQ(sfCreateContext(&old, &none), SF_ERROR_INITIALIZATION_FAILED);
    EXPECT_NE(std::string(sfGetLastError(nullptr)).find("needs Vulkan 1.2"), std::string::npos)
        << sfGetLastError(nullptr);
    EXPECT_EQ(none, nullptr);
}

// Frames through the C API: begin, updates, record / submitted, commit; the
// drawn positions are the CPU reference's, and each out-of-order call or bad
// value gets its code without changing the frame.
TEST_F(CApiLive, FramesMoveTheRenderersVerticesAndBadCallsChangeNothing) {
    test::ScratchDir dir;
    SfContext context = adopt((dir / "no-such-dir" / "pipelines.cache").c_str());
    ASSERT_TRUE(context);
    const Mesh sphere = tipSphere(motion_.tools[0], 3, 1.0f);
    upload(sphere.positions);
    const std::vector<uint32_t> tris = triangles(sphere);
    const RendererMesh mesh = rendererMesh(tris);
    SfLiveMoveCreateInfo info{sizeof(SfLiveMoveCreateInfo)};
    info.vertexCount = mesh.vertexCount;
    info.positions = {mesh.positions.buffer, mesh.positions.offset, mesh.positions.stride};
    info.normals = {mesh.normals.buffer, mesh.normals.offset, mesh.normals.stride};
    info.triangles = tris.data();
    info.triangleCount = uint32_t(tris.size() / 3);
    SfLiveMove live = nullptr;
    // The buffers' sizes, where given, hold every vertex: one byte short is refused.
    const VkDeviceSize positionsEnd =
        info.positions.offset + VkDeviceSize(info.vertexCount - 1) * info.positions.stride + 12;
    const VkDeviceSize normalsEnd = info.normals.offset + VkDeviceSize(info.vertexCount - 1) * info.normals.stride + 12;
    info.positionsBufferSize = positionsEnd - 1;
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(context)).find("positionsBufferSize"), std::string::npos)
        << sfGetLastError(context);
    info.positionsBufferSize = positionsEnd;
    info.normalsBufferSize = normalsEnd - 4;
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(context)).find("normalsBufferSize"), std::string::npos)
        << sfGetLastError(context);
    info.normalsBufferSize = 8; // before the offset
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(live, nullptr);
    // Older headers' struct ends at `tolerance`: accepted, the sizes past it unread.
    info.structSize = uint32_t(offsetof(SfLiveMoveCreateInfo, positionsBufferSize));
    ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);
    sfDestroyLiveMove(live);
    live = nullptr;
    info.structSize = uint32_t(offsetof(SfLiveMoveCreateInfo, positionsBufferSize)) - 8;
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_INVALID_STRUCT_SIZE);
    info.structSize = sizeof(info);
    info.normalsBufferSize = normalsEnd;
    info.positions.stride = 6;
    EXPECT_EQ(sfCreateLiveMove(context, &info, &live), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfGetLastError(context)).find("stride"), std::string::npos) << sfGetLastError(context);
    EXPECT_EQ(live, nullptr);
    info.positions.stride = mesh.positions.stride;
    ASSERT_EQ(sfCreateLiveMove(context, &info, &live), SF_SUCCESS) << sfGetLastError(context);

    const CStroke c(stroke_);
    CStroke inverted(stroke_);
    inverted.tools[0].innerRadius = inverted.tools[0].outerRadius * 1.5;
    EXPECT_EQ(sfLiveMoveBegin(live, &inverted.info, c.posesA.data(), SF_MOVE_MODE_MOVE), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfLiveMoveGetLastError(live)).find("larger than outerRadius"), std::string::npos)
        << sfLiveMoveGetLastError(live);
    EXPECT_EQ(sfLiveMoveIsMoving(live), 0u);
    EXPECT_EQ(sfLiveMoveUpdate(live, c.posesB.data()), SF_ERROR_INVALID_STATE);
    EXPECT_NE(std::string(sfLiveMoveGetLastError(live)).find("begin"), std::string::npos);
    ASSERT_EQ(sfLiveMoveBegin(live, &c.info, c.posesA.data(), SF_MOVE_MODE_MOVE), SF_SUCCESS)
        << sfLiveMoveGetLastError(live);
    EXPECT_EQ(sfLiveMoveIsMoving(live), 1u);
    EXPECT_EQ(sfLiveMoveBegin(live, &c.info, c.posesA.data(), SF_MOVE_MODE_MOVE), SF_ERROR_INVALID_STATE);

    const std::string unmoved = bytes();
    SfPose nanPose = c.posesB[0];
    nanPose.orientation[2] = std::nan("");
    EXPECT_EQ(sfLiveMoveUpdate(live, &nanPose), SF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(sfLiveMoveGetLastError(live)).find("finite"), std::string::npos)
        << sfLiveMoveGetLastError(live);

    SfRecordReport report{sizeof(SfRecordReport)};
    SfRecordReport tooSmall{4};
    VkCommandBuffer commands = renderer_->begin();
    EXPECT_EQ(sfLiveMoveRecord(live, commands, nullptr, &tooSmall), SF_ERROR_INVALID_STRUCT_SIZE);
    EXPECT_EQ(tooSmall.ticket, 0u);
    EXPECT_EQ(sfLiveMoveRecord(live, VK_NULL_HANDLE, nullptr, &report), SF_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(sfLiveMoveRecord(live, commands, nullptr, &report), SF_SUCCESS);
    EXPECT_FALSE(report.recorded) << "nothing to solve before an accepted update";
    renderer_->submitAndWait();
    EXPECT_EQ(sfLiveMoveSubmitted(live, report.ticket), SF_SUCCESS);
    EXPECT_EQ(bytes(), unmoved) << "a refused update moved nothing";

    // Three frames along the stroke (one hand), the last at its end.
    const std::vector<Pose>& poses = stroke_.tools[0].poses;
    for (size_t index : {poses.size() / 3, 2 * poses.size() / 3, poses.size() - 1}) {
        const SfPose now = cApiPose(poses[index]);
        ASSERT_EQ(sfLiveMoveUpdate(live, &now), SF_SUCCESS) << sfLiveMoveGetLastError(live);
        commands = renderer_->begin();
        ASSERT_EQ(sfLiveMoveRecord(live, commands, nullptr, &report), SF_SUCCESS);
        EXPECT_TRUE(report.recorded);
        EXPECT_EQ(report.chunksSolved, 1u);
        renderer_->submitAndWait();
        ASSERT_EQ(sfLiveMoveSubmitted(live, report.ticket), SF_SUCCESS) << sfLiveMoveGetLastError(live);
    }
    EXPECT_EQ(sfLiveMoveSubmitted(live, report.ticket), SF_ERROR_INVALID_STATE) << "acknowledged already";
    EXPECT_NE(std::string(sfLiveMoveGetLastError(live)).find("acknowledged already"), std::string::npos);
    EXPECT_EQ(sfLiveMoveCommit(live), SF_SUCCESS);
    EXPECT_EQ(sfLiveMoveCommit(live), SF_ERROR_INVALID_STATE);
    EXPECT_NE(std::string(sfLiveMoveGetLastError(live)).find("no move is open"), std::string::npos);

    const std::vector<glm::vec3> expected = solveOnCpu(motion_, sphere.positions, SolverOptions{}).positions;
    EXPECT_LE(maxDistance(positions(), expected), 0.05) << "voxels between the C frames and the CPU reference";
    EXPECT_GT(maxDistance(positions(), sphere.positions), 10.0);
    sfDestroyLiveMove(live);
    sfDestroyContext(context);
    ASSERT_EQ(logged_.size(), 1u) << "the cache file's warning, to the callback instead of stderr";
    EXPECT_NE(logged_[0].find("0 "), std::string::npos);
    EXPECT_NE(logged_[0].find("cannot be written"), std::string::npos) << logged_[0];
}

} // namespace
} // namespace sculptflow
