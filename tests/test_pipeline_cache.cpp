// A pipeline cache kept in a file: read when its header is this device's,
// ignored with a warning when corrupt, truncated or foreign, written back
// atomically, and never a reason for a run to fail or to differ.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <sculptflow/context.hpp>
#include <sculptflow/default_case.hpp>
#include <sculptflow/gpu_solver.hpp>
#include "host/pipeline_cache_file.hpp"
#include "cli_runner.hpp"
#include "commands.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

constexpr size_t kHeaderBytes = 16 + VK_UUID_SIZE;

struct CachedRun {
    std::vector<glm::vec3> positions;
    std::string stderrText;
    VkPhysicalDeviceProperties device{};
};

// The built-in move on the GPU, with the cache in `file` (none when empty).
CachedRun solveWithCache(const std::filesystem::path& file) {
    const Stroke stroke = defaultStroke();
    std::vector<glm::vec3> voxels = defaultMesh(stroke).positions;
    for (glm::vec3& p : voxels) p /= float(stroke.voxelSize);
    CachedRun run;
    testing::internal::CaptureStderr();
    {
        ContextOptions options{.validation = test::validate()};
        options.hooks.pipelineCacheFile = file;
        Context context(options);
        run.device = context.properties();
        GpuSolver solver(context);
        GpuMesh mesh(context, voxels);
        solver.run(mesh, moveToolMotion(stroke), SolverOptions{}, false);
        run.positions = mesh.readPositions();
        context.throwOnValidationMessages();
    }
    run.stderrText = testing::internal::GetCapturedStderr();
    return run;
}

bool samePositions(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec3)) == 0;
}

uint32_t headerWord(const std::string& bytes, size_t offset) {
    uint32_t word = 0;
    std::memcpy(&word, bytes.data() + offset, 4);
    return word;
}

TEST(PipelineCacheFile, FirstRunWritesItAndTheNextReadsIt) {
    SF_REQUIRE_VULKAN();
    test::ScratchDir dir;
    const auto file = dir / "pipelines.cache";
    const CachedRun uncached = solveWithCache({});
    const CachedRun first = solveWithCache(file);
    EXPECT_EQ(first.stderrText, "");
    const std::string bytes = test::readFile(file);
    ASSERT_GE(bytes.size(), kHeaderBytes);
    EXPECT_EQ(headerWord(bytes, 4), uint32_t(VK_PIPELINE_CACHE_HEADER_VERSION_ONE));
    EXPECT_EQ(headerWord(bytes, 8), first.device.vendorID);
    EXPECT_EQ(headerWord(bytes, 12), first.device.deviceID);
    const CachedRun second = solveWithCache(file);
    EXPECT_EQ(second.stderrText, ""); // read, not ignored
    EXPECT_TRUE(samePositions(first.positions, uncached.positions));
    EXPECT_TRUE(samePositions(second.positions, uncached.positions));
    std::vector<std::filesystem::path> left;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) left.push_back(entry.path().filename());
    EXPECT_EQ(left, std::vector<std::filesystem::path>{"pipelines.cache"}); // no temporary left behind
}

TEST(PipelineCacheFile, CorruptTruncatedAndForeignFilesAreIgnoredWithAWarning) {
    SF_REQUIRE_VULKAN();
    test::ScratchDir dir;
    const auto file = dir / "pipelines.cache";
    const CachedRun good = solveWithCache(file);
    const std::string goodBytes = test::readFile(file);
    ASSERT_GE(goodBytes.size(), kHeaderBytes);

    std::string random(1000, '\0');
    for (size_t i = 0; i < random.size(); ++i) random[i] = char((i * 2654435761u) >> 13);
    std::string foreign = goodBytes;
    foreign[8] ^= 0x5a; // another vendor
    const struct {
        const char* what;
        std::string bytes;
        const char* reason;
    } cases[] = {{"random", random, "not a pipeline cache"},
                 {"truncated", goodBytes.substr(0, 20), "truncated"},
                 {"foreign", foreign, "another device"}};
    for (const auto& c : cases) {
        SCOPED_TRACE(c.what);
        test::writeFile(file, c.bytes);
        const CachedRun run = solveWithCache(file);
        EXPECT_NE(run.stderrText.find("warning"), std::string::npos) << run.stderrText;
        EXPECT_NE(run.stderrText.find(c.reason), std::string::npos) << run.stderrText;
        EXPECT_TRUE(samePositions(run.positions, good.positions));
        const std::string rewritten = test::readFile(file); // replaced by this device's cache
        ASSERT_GE(rewritten.size(), kHeaderBytes);
        EXPECT_EQ(headerWord(rewritten, 8), good.device.vendorID);
    }
}

TEST(PipelineCacheFile, AnUnwritablePathIsAWarningNotAFailure) {
    SF_REQUIRE_VULKAN();
    const CachedRun uncached = solveWithCache({});
    const CachedRun run = solveWithCache("/nonexistent-sculptflow-directory/pipelines.cache");
    EXPECT_NE(run.stderrText.find("cannot be written"), std::string::npos) << run.stderrText;
    EXPECT_TRUE(samePositions(run.positions, uncached.positions));
}

// ContextHooks::log takes the warnings stderr would get: a corrupt file read,
// an unwritable one at the end.
TEST(PipelineCacheFile, WarningsGoToTheLogCallbackInsteadOfStderr) {
    SF_REQUIRE_VULKAN();
    test::ScratchDir dir;
    const auto file = dir / "pipelines.cache";
    test::writeFile(file, std::string(100, 'x'));
    std::vector<std::pair<LogLevel, std::string>> logged;
    testing::internal::CaptureStderr();
    {
        ContextOptions options{.validation = test::validate()};
        options.hooks.pipelineCacheFile = file;
        options.hooks.log = [&](LogLevel level, std::string_view message) { logged.emplace_back(level, message); };
        Context context(options);
        std::filesystem::remove_all(dir.path()); // the destructor's write-back fails
        context.throwOnValidationMessages();
    }
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    ASSERT_EQ(logged.size(), 2u);
    EXPECT_EQ(logged[0].first, LogLevel::Warning);
    EXPECT_NE(logged[0].second.find("not a pipeline cache"), std::string::npos) << logged[0].second;
    EXPECT_NE(logged[1].second.find("cannot be written"), std::string::npos) << logged[1].second;
}

TEST(PipelineCacheFile, DeformWritesItReadsItAndIgnoresACorruptOne) {
    SF_REQUIRE_VULKAN();
    test::ScratchDir dir;
    const std::string cache = (dir / "pipelines.cache").string();
    auto deform = [&](const std::string& out) {
        testing::internal::CaptureStderr();
        test::runCli(cli::addDeformCommand,
                     {"deform", "--built-in", "sphere", "--pipeline-cache", cache, "--out", (dir / out).string()});
        return testing::internal::GetCapturedStderr();
    };
    EXPECT_EQ(deform("first.obj"), "");
    EXPECT_GE(test::readFile(cache).size(), kHeaderBytes); // written
    EXPECT_EQ(deform("second.obj"), "");                   // read
    test::writeFile(cache, "not a cache");
    EXPECT_NE(deform("third.obj").find("warning"), std::string::npos);
    const std::string first = test::readFile(dir / "first.obj");
    EXPECT_FALSE(first.empty());
    EXPECT_EQ(test::readFile(dir / "second.obj"), first);
    EXPECT_EQ(test::readFile(dir / "third.obj"), first);
}

TEST(PipelineCacheFile, HeaderMustNameThisDevice) {
    VkPhysicalDeviceProperties device{};
    device.vendorID = 0x10de;
    device.deviceID = 0x2330;
    for (uint8_t i = 0; i < VK_UUID_SIZE; ++i) device.pipelineCacheUUID[i] = i;
    std::string header(kHeaderBytes + 8, '\0');
    const uint32_t words[4] = {uint32_t(kHeaderBytes), VK_PIPELINE_CACHE_HEADER_VERSION_ONE, 0x10de, 0x2330};
    std::memcpy(header.data(), words, 16);
    std::memcpy(header.data() + 16, device.pipelineCacheUUID, VK_UUID_SIZE);
    test::ScratchDir dir;
    const auto file = dir / "c";
    test::writeFile(file, header);
    EXPECT_EQ(readPipelineCacheFile(file, device).data.size(), header.size());
    EXPECT_EQ(readPipelineCacheFile(dir / "absent", device).warning, ""); // a first run
    device.pipelineCacheUUID[3] ^= 1; // another driver build
    const PipelineCacheFile other = readPipelineCacheFile(file, device);
    EXPECT_TRUE(other.data.empty());
    EXPECT_NE(other.warning.find("another device"), std::string::npos);
}

} // namespace
} // namespace sculptflow
