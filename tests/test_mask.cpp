// The per-vertex mask (spec §3.5): frozen vertices bit for bit, a full mask equal
// to none, masked accuracy against the double reference (move and continuous
// modes), frozen vertices skipped by the cull, and bad masks refused by name.
#include <cstdio>

#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include "src/ground_truth.hpp"
#include "src/kernel.hpp"
#include "gpu_fixture.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

struct MaskCase {
    Move move;
    std::vector<glm::vec3> start;
    std::vector<float> mask;
};

// The default mesh under the default stroke, with a painted mask: 0 below a
// plane through the tip, ramping to 1 over half a radius above it, 1 beyond.
MaskCase paintedCase(const Stroke& stroke) {
    MaskCase c;
    c.move = moveToolMotion(stroke);
    const ToolMotion& tool = c.move.tools.front();
    c.start = icosphere(4, glm::vec3(tool.origin), float(0.6 * tool.outerRadius)).positions;
    const glm::vec3 up = glm::normalize(glm::vec3(tool.translation));
    for (const glm::vec3& p : c.start) {
        const float height = glm::dot(p - glm::vec3(tool.origin), up) / float(0.5 * tool.outerRadius);
        c.mask.push_back(glm::clamp(height, 0.0f, 1.0f));
    }
    return c;
}

size_t countZeros(const std::vector<float>& mask) {
    return size_t(std::count(mask.begin(), mask.end(), 0.0f));
}

using Mask = test::GpuTest;

TEST_F(Mask, FrozenVerticesKeepTheirBitsAndAFullMaskIsNoMask) {
    const MaskCase c = paintedCase(defaultStroke());
    ASSERT_GT(countZeros(c.mask), c.start.size() / 4);
    const SolverOptions options;
    const std::vector<float> ones(c.start.size(), 1.0f);
    const CpuSolution unmasked = solveOnCpu(c.move, c.start, options);
    EXPECT_EQ(solveOnCpu(c.move, c.start, ones, options).positions, unmasked.positions);
    EXPECT_EQ(solveOnGpu(solver(), c.move, c.start, options, ones).positions,
              solveOnGpu(solver(), c.move, c.start, options).positions);

    const CpuSolution cpu = solveOnCpu(c.move, c.start, c.mask, options);
    const GpuSolution gpu = solveOnGpu(solver(), c.move, c.start, options, c.mask);
    for (size_t i = 0; i < c.start.size(); ++i) {
        if (c.mask[i] != 0.0f) continue;
        EXPECT_EQ(cpu.positions[i], c.start[i]) << "vertex " << i;
        EXPECT_EQ(gpu.positions[i], c.start[i]) << "vertex " << i;
        EXPECT_EQ(gpu.statistics[i].evaluations, 0u) << "a frozen vertex is not integrated";
        EXPECT_EQ(gpu.statistics[i].flags, kernel::kFlagCulled);
    }
    EXPECT_GE(gpu.report.culled, countZeros(c.mask));
    EXPECT_GE(cpu.report.culled, countZeros(c.mask));
}

// x0 + m·(x(1) − x0) against the double reference, every adaptive method, CPU and GPU.
TEST_F(Mask, MaskedMoveWithinToleranceOfGroundTruth) {
    SF_REQUIRE_RECORDING(path, "test0_righthandstroke.bin");
    for (ToolKind kind : {ToolKind::Kelvinlet, ToolKind::Affine}) {
        const MaskCase c = paintedCase(readStroke(path, {.kindOverride = kind}));
        const GroundTruth truth = groundTruth(c.move, c.start);
        for (Method method : {Method::Bs32, Method::Dp45, Method::Rk4Double}) {
            SolverOptions options;
            options.method = method;
            const CpuSolution cpu = solveOnCpu(c.move, c.start, c.mask, options);
            const GpuSolution gpu = solveOnGpu(solver(), c.move, c.start, options, c.mask);
            double worst = 0.0;
            for (size_t i = 0; i < c.start.size(); ++i) {
                ASSERT_TRUE(truth.converged[i]);
                if ((cpu.statistics[i].flags | gpu.statistics[i].flags) & ~kernel::kFlagCulled) continue;
                const glm::dvec3 x0(c.start[i]);
                const glm::dvec3 expected = x0 + double(c.mask[i]) * (truth.positions[i] - x0);
                worst = std::max({worst, glm::length(glm::dvec3(cpu.positions[i]) - expected),
                                  glm::length(glm::dvec3(gpu.positions[i]) - expected)});
            }
            EXPECT_LE(worst, options.tolerance) << methodName(method);
            std::printf("[ mask ] %s %s: max error %.3g voxel\n", kind == ToolKind::Affine ? "affine" : "kelvinlet",
                        std::string(methodName(method)).c_str(), worst);
        }
    }
}

// Continuous mode applies the mask per segment: x ← x + m·(segment(x) − x).
TEST_F(Mask, MaskedContinuousStrokeWithinToleranceOfTheChainedReference) {
    MaskCase c = paintedCase(defaultStroke());
    const std::vector<Move> segments = continuousMotions(defaultStroke());
    std::vector<glm::dvec3> reference(c.start.begin(), c.start.end());
    for (const Move& segment : segments) {
        const GroundTruth truth = groundTruth(segment, reference);
        for (size_t i = 0; i < reference.size(); ++i)
            reference[i] += double(c.mask[i]) * (truth.positions[i] - reference[i]);
    }
    SolverOptions options;
    const CpuSolution cpu = solveContinuousOnCpu(segments, c.start, c.mask, options);
    const GpuSolution gpu = solveContinuousOnGpu(solver(), segments, c.start, options, c.mask);
    double worst = 0.0;
    for (size_t i = 0; i < reference.size(); ++i) {
        if (c.mask[i] == 0.0f) {
            EXPECT_EQ(cpu.positions[i], c.start[i]);
            EXPECT_EQ(gpu.positions[i], c.start[i]);
        }
        if ((cpu.statistics[i].flags | gpu.statistics[i].flags) & ~kernel::kFlagCulled) continue;
        worst = std::max({worst, glm::length(glm::dvec3(cpu.positions[i]) - reference[i]),
                          glm::length(glm::dvec3(gpu.positions[i]) - reference[i])});
    }
    EXPECT_LE(worst, options.tolerance);
    std::printf("[ mask ] continuous, %zu segments: max error %.3g voxel\n", segments.size(), worst);
}

// A mesh keeps its mask between runs, and a new mask takes effect at the next run:
// vertices the last run moved and the new mask freezes get their input back.
TEST_F(Mask, ANewMaskRestoresWhatItFreezes) {
    const MaskCase c = paintedCase(defaultStroke());
    const SolverOptions options;
    GpuMesh mesh(context(), c.start);
    solver().run(mesh, c.move, options, false);
    mesh.setMask(c.mask);
    solver().run(mesh, c.move, options, false);
    EXPECT_EQ(mesh.readPositions(), solveOnGpu(solver(), c.move, c.start, options, c.mask).positions);
    mesh.setMask({});
    solver().run(mesh, c.move, options, false);
    EXPECT_EQ(mesh.readPositions(), solveOnGpu(solver(), c.move, c.start, options).positions);
}

TEST_F(Mask, BadMasksAreRefusedByName) {
    const MaskCase c = paintedCase(defaultStroke());
    const SolverOptions options;
    std::vector<float> shortMask(c.start.size() - 1, 1.0f);
    EXPECT_TRUE(test::failsWith([&] { solveOnCpu(c.move, c.start, shortMask, options); },
                                {std::to_string(c.start.size() - 1), std::to_string(c.start.size()) + " vertices"}));
    for (float bad : {-0.25f, 1.5f, NAN, INFINITY}) {
        std::vector<float> mask = c.mask;
        mask[7] = bad;
        EXPECT_TRUE(test::failsWith([&] { solveOnCpu(c.move, c.start, mask, options); }, {"vertex 7", "[0, 1]"}));
        EXPECT_TRUE(test::failsWith([&] { GpuMesh(context(), c.start, mask); }, {"vertex 7", "[0, 1]"}));
    }

    const std::filesystem::path name = "paint.mask";
    EXPECT_EQ(parseMask("0\n0.5\n 1 \n\n", 3, name), (std::vector<float>{0.0f, 0.5f, 1.0f}));
    EXPECT_TRUE(test::failsWith([&] { parseMask("0\n0.5\n", 3, name); }, {"paint.mask", "2 mask values", "3 vertices"}));
    EXPECT_TRUE(test::failsWith([&] { parseMask("0\n1.01\n1\n", 3, name); }, {"paint.mask", "line 2", "1.01"}));
    EXPECT_TRUE(test::failsWith([&] { parseMask("0\nnan\n1\n", 3, name); }, {"line 2", "nan"}));
    EXPECT_TRUE(test::failsWith([&] { parseMask("0\n0.5 0.5\n1\n", 3, name); }, {"line 2", "one number"}));
    EXPECT_TRUE(test::failsWith([&] { readMask("/nonexistent/paint.mask", 3); }, {"paint.mask"}));
}

} // namespace
} // namespace sculptflow
