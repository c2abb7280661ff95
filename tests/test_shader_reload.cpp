// Runtime shader compilation and hot reload: the same sources as the build, real
// edits take effect, broken edits change nothing and are reported by file:line.
#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include <gtest/gtest.h>

#include <sculptflow/default_case.hpp>
#include <sculptflow/hot_reload.hpp>
#include "host/shader_compiler.hpp"
#include "gpu_fixture.hpp"
#include "kernel_fixtures.hpp"
#include "long_ride.hpp"
#include "shader_files.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

class ShaderReload : public test::GpuTest {};

// A translation-only affine move: every vertex inside r_in moves by exactly d.
Move translation() {
    return Move{{test::affineMotion({0.0, 0.0, 0.0}, {30.0, -10.0, 5.0}, {}, 0.0, 50.0, 60.0)}};
}

std::vector<glm::vec3> displacements(GpuSolver& solver, const std::vector<glm::vec3>& start) {
    GpuSolution out = solveOnGpu(solver, translation(), start, SolverOptions{});
    std::vector<glm::vec3> d;
    for (size_t i = 0; i < start.size(); ++i) d.push_back(out.positions[i] - start[i]);
    return d;
}

TEST_F(ShaderReload, EmbeddedSourcesCompileAtRuntime) {
    CompiledShader shader = compileShader("", "deform.comp", embeddedShaderFiles());
    ASSERT_GT(shader.spirv.size(), 100u);
    EXPECT_EQ(shader.spirv[0], 0x07230203u); // SPIR-V magic
    EXPECT_GE(shader.sources.size(), 6u);    // deform.comp and the five shared files
}

TEST_F(ShaderReload, RealEditTakesEffectAndBrokenEditChangesNothing) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    const std::vector<glm::vec3> start = {{1.0f, 2.0f, 3.0f}, {-10.0f, 5.0f, 0.0f}, {20.0f, 0.0f, -7.0f}};
    ShaderReloader reloader(solver(), dir.path());
    EXPECT_EQ(reloader.generation(), 1);
    for (const glm::vec3& d : displacements(solver(), start)) EXPECT_NEAR(d.x, 30.0f, 1e-3f);

    // An edit in an included file: the affine velocity doubles, so does the move.
    const auto common = dir / "sculptflow/field_common.glsl";
    test::edit(common, "return tools[i].translation + cross", "return 2.0f * tools[i].translation + cross");
    ReloadReport report = reloader.poll();
    ASSERT_EQ(report.status, ReloadReport::Status::Reloaded) << report.message;
    EXPECT_EQ(reloader.generation(), 2);
    for (const glm::vec3& d : displacements(solver(), start)) {
        EXPECT_NEAR(d.x, 60.0f, 1e-3f);
        EXPECT_NEAR(d.y, -20.0f, 1e-3f);
    }

    // A syntax error: reported with its file and line; the running pipeline stays.
    std::string text = test::readFile(common);
    int line = 1 + int(std::count(text.begin(), text.begin() + text.find("vec3 affineVelocity"), '\n'));
    test::edit(common, "vec3 affineVelocity(int i, vec3 offset) {", "vec3 affineVelocity(int i, vec3 offset) { oops");
    report = reloader.poll();
    ASSERT_EQ(report.status, ReloadReport::Status::Failed);
    ASSERT_FALSE(report.diagnostics.empty());
    EXPECT_EQ(report.diagnostics[0].file.filename(), "field_common.glsl");
    EXPECT_EQ(report.diagnostics[0].line, line);
    EXPECT_EQ(reloader.generation(), 2);
    for (const glm::vec3& d : displacements(solver(), start)) EXPECT_NEAR(d.x, 60.0f, 1e-3f);

    // The next good save recovers, with the original source.
    test::edit(common, "vec3 affineVelocity(int i, vec3 offset) { oops", "vec3 affineVelocity(int i, vec3 offset) {");
    test::edit(common, "return 2.0f * tools[i].translation + cross", "return tools[i].translation + cross");
    report = reloader.poll();
    ASSERT_EQ(report.status, ReloadReport::Status::Reloaded) << report.message;
    for (const glm::vec3& d : displacements(solver(), start)) EXPECT_NEAR(d.x, 30.0f, 1e-3f);
    EXPECT_EQ(reloader.poll().status, ReloadReport::Status::Unchanged);
}

TEST_F(ShaderReload, BrokenAtStartKeepsTheBuiltInShaderUntilFixed) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    const auto common = dir / "sculptflow/field_common.glsl";
    test::edit(common, "vec3 toolOffset(", "vec3 toolOffset(oops ");
    ShaderReloader reloader(solver(), dir.path());
    EXPECT_EQ(reloader.lastReport().status, ReloadReport::Status::Failed);
    EXPECT_EQ(reloader.generation(), 0);
    const std::vector<glm::vec3> start = {{1.0f, 2.0f, 3.0f}};
    EXPECT_NEAR(displacements(solver(), start)[0].x, 30.0f, 1e-3f); // still the built-in shader
    test::edit(common, "vec3 toolOffset(oops ", "vec3 toolOffset(");
    EXPECT_EQ(reloader.poll().status, ReloadReport::Status::Reloaded);
    EXPECT_EQ(reloader.generation(), 1);
}

// A reload builds deform.comp twice, the second time with SF_WITHOUT_SOLVE for the
// passes other than the solve (host/deform_pipeline.hpp): an error in that build
// alone is a failed reload too.
TEST_F(ShaderReload, TheOtherPassesAreBuiltWithoutTheSolve) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    std::ofstream(dir / "deform.comp", std::ios::app)
        << "#ifdef SF_WITHOUT_SOLVE\n#error built without the solve\n#endif\n";
    ShaderReloader reloader(solver(), dir.path());
    EXPECT_EQ(reloader.lastReport().status, ReloadReport::Status::Failed);
    EXPECT_NE(reloader.lastReport().message.find("built without the solve"), std::string::npos)
        << reloader.lastReport().message;
    EXPECT_EQ(reloader.generation(), 0);
    EXPECT_NEAR(displacements(solver(), {{1.0f, 2.0f, 3.0f}})[0].x, 30.0f, 1e-3f); // still the built-in shader
}

TEST_F(ShaderReload, PollingWorksWithoutInotify) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    ShaderReloader reloader(solver(), dir.path(), "deform.comp", /*useInotify=*/false);
    EXPECT_FALSE(reloader.usesInotify());
    EXPECT_EQ(reloader.poll().status, ReloadReport::Status::Unchanged);
    test::edit(dir / "sculptflow/controller.glsl", "bool stepWithinTolerance", "bool  stepWithinTolerance");
    EXPECT_EQ(reloader.poll().status, ReloadReport::Status::Reloaded);
}

// deform.comp with the tools' loops rolled (SF_UNROLL empty), as llvmpipe compiled
// them before: on test::longRide its loops run out llvmpipe's budget, and the
// vertex must be flagged (deform.comp, loopBudgetLasted), not left off.
TEST_F(ShaderReload, AVertexPastLlvmpipesLoopBudgetIsFlagged) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    test::edit(dir / "sculptflow/layout.glsl", "#define SF_UNROLL [[unroll]]", "#define SF_UNROLL");
    GpuSolver rolledSolver(context());
    useShader(rolledSolver, compileShader(dir.path(), "deform.comp").spirv);
    const test::LongRide ride = test::longRide();
    const GpuSolution gpu = solveOnGpu(rolledSolver, ride.move, ride.start, ride.options);
    if (gpu.statistics[0].flags == 0u) {
        EXPECT_LE(glm::distance(glm::dvec3(gpu.positions[0]), ride.exact), ride.options.tolerance);
    }
    if (test::onLlvmpipe(context())) {
        EXPECT_EQ(gpu.statistics[0].flags, kVertexIterationCap);
    }
}

TEST_F(ShaderReload, MissingIncludeIsReportedAtTheIncludingLine) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    std::filesystem::remove(dir / "sculptflow/steppers.glsl");
    try {
        compileShader(dir.path(), "deform.comp");
        FAIL() << "compiled without steppers.glsl";
    } catch (const ShaderCompileError& e) {
        ASSERT_FALSE(e.diagnostics().empty());
        EXPECT_EQ(e.diagnostics()[0].file.filename(), "deform.comp");
        EXPECT_GT(e.diagnostics()[0].line, 0);
        EXPECT_NE(std::string(e.what()).find("steppers.glsl"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace sculptflow
