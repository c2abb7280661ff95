// Hostile fields on the CPU reference and the GPU: bounded cost, output finite or flagged.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>

#include <sculptflow/cpu_solver.hpp>
#include <sculptflow/default_case.hpp>
#include "src/finite.hpp"
#include "src/kernel.hpp"
#include "src/kernel_tools.hpp"
#include "gpu_fixture.hpp"
#include "kernel_fixtures.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

const double kAlmostPi = std::numbers::pi - 1e-6;

struct Solved {
    std::vector<glm::vec3> positions;
    std::vector<VertexStatistics> statistics;
};

// Around each tool: log-uniform distances of 0.01 to 4 radii from the tip, a quarter
// of them about a random point of the tip's path, plus the tip at both ends.
std::vector<glm::vec3> pointsAround(const Move& move, size_t perTool, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> gauss;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<glm::vec3> points;
    for (const ToolMotion& tool : move.tools) {
        for (size_t i = 0; i < perTool; ++i) {
            glm::dvec3 dir = glm::normalize(glm::dvec3(gauss(rng), gauss(rng), gauss(rng)) + 1e-9);
            double radius = tool.outerRadius * std::pow(10.0, -2.0 + 2.6 * unit(rng));
            double s = i % 4 == 0 ? unit(rng) : 0.0;
            points.push_back(glm::vec3(tool.tipAt(s) + radius * dir));
        }
        points.push_back(glm::vec3(tool.tipAt(0.0)));
        points.push_back(glm::vec3(tool.tipAt(1.0)));
    }
    return points;
}

glm::dvec3 axis() { return glm::normalize(glm::dvec3(0.3, 0.8, -0.5)); }

// A loose bound on how far any of the explicit RK methods can carry x0, to catch
// blow-ups rather than error: a Kelvinlet's speed is at most about |d| plus its twist
// and scale speeds at one radius, and an affine flow grows at most as e^{(|r|+|λ|)s}.
double displacementBound(const Move& move, const glm::vec3& x0) {
    double speed = 0.0, growth = 0.0;
    for (const ToolMotion& m : move.tools) {
        double spin = glm::length(m.rotation) + std::abs(m.logScale);
        double reach = m.kind == ToolKind::Kelvinlet
                           ? m.outerRadius
                           : glm::length(glm::dvec3(x0) - m.origin) + glm::length(m.translation);
        speed += glm::length(m.translation) + spin * reach;
        if (m.kind == ToolKind::Affine) growth += spin;
    }
    return 4.0 * speed * std::exp(growth) + 1.0;
}

// Every vertex within the evaluation bound; a NON_FINITE or CULLED vertex's output
// is its input, bit for bit; every other output is finite and within displacementBound
// (skipped when `move` is null: raw parameters void it).
void expectSound(const std::string& label, const Move* move, const std::vector<glm::vec3>& start,
                 const Solved& out, long bound) {
    ASSERT_EQ(out.positions.size(), start.size()) << label;
    ASSERT_EQ(out.statistics.size(), start.size()) << label;
    size_t failures = 0;
    for (size_t i = 0; i < start.size(); ++i) {
        const VertexStatistics& st = out.statistics[i];
        const glm::vec3& x = out.positions[i];
        std::string problem;
        if (long(st.evaluations) > bound) {
            problem = std::to_string(st.evaluations) + " evaluations";
        } else if (st.flags & (kernel::kFlagNonFinite | kernel::kFlagCulled)) {
            if (!test::sameBits(x, start[i])) problem = "flagged NON_FINITE or CULLED but the output is not the input";
        } else if (!isFinite(x)) {
            problem = "non-finite output without NON_FINITE";
        } else if (move && glm::length(glm::dvec3(x) - glm::dvec3(start[i])) > displacementBound(*move, start[i])) {
            problem = "moved beyond any RK method's reach";
        }
        if (!problem.empty() && ++failures <= 3)
            ADD_FAILURE() << label << ": vertex " << i << " (" << start[i].x << ", " << start[i].y << ", "
                          << start[i].z << ") → (" << x.x << ", " << x.y << ", " << x.z << "), flags "
                          << st.flags << ": " << problem << " (bound " << bound << ")";
    }
    EXPECT_EQ(failures, 0u) << label << ": " << failures << " vertices";
}

void printHeader() {
    std::printf("  backend | case                                   | method | verts | worst evals | bound | "
                "clamped/cap/non-finite/culled | GPU ms (bound)\n");
}

void printLine(const char* backend, const std::string& name, Method method, size_t vertices,
               const SolveReport& r, long bound, const std::string& extra) {
    std::printf("  %-7s | %-38s | %-6s | %5zu | %11u | %5ld | %7zu/%3zu/%10zu/%6zu | %s\n", backend, name.c_str(),
                std::string(methodName(method)).c_str(), vertices, r.maxEvaluations, bound, r.minStepClamped,
                r.iterationCap, r.nonFinite, r.culled, extra.c_str());
}

class Hostile : public test::GpuTest {
protected:
    // Also times the dispatch: the bound predicts at most `bound` evaluations a vertex,
    // each costing about what one of the built-in move's costs. Timing is noisy on a
    // shared machine, so the fastest of three hostile runs meets the slowest of three
    // ordinary ones, and only a 4× breach fails (as GpuSolverTest's hostile test does).
    Solved runGpu(const std::string& name, const Move& move, const std::vector<glm::vec3>& start,
                  const SolverOptions& options) {
        const long bound = worstCaseEvaluations(options, int(move.tools.size()));
        GpuMesh mesh(context(), start);
        GpuRun run = solver().run(mesh, move, options, true);
        Solved out{mesh.readPositions(), mesh.readStatistics()};
        expectSound("gpu " + name + " " + std::string(methodName(options.method)), &move, start, out, bound);

        const Move ordinary = moveToolMotion(defaultStroke());
        if (!ordinaryMesh_) ordinaryMesh_ = std::make_unique<GpuMesh>(context(), pointsAround(ordinary, 1022, 1));
        SolverOptions ordinaryOptions;
        ordinaryOptions.method = options.method;
        ordinaryOptions.maxIterations = options.maxIterations;
        double hostileMs = run.gpuMilliseconds;
        double perEvaluation = 0.0;
        for (int repeat = 0; repeat < 3; ++repeat) {
            if (repeat > 0) hostileMs = std::min(hostileMs, solver().run(mesh, move, options, true).gpuMilliseconds);
            GpuRun reference = solver().run(*ordinaryMesh_, ordinary, ordinaryOptions, true);
            perEvaluation = std::max(perEvaluation, reference.gpuMilliseconds / double(reference.report.evaluations));
        }
        const double predicted = 4.0 * perEvaluation * double(bound) * double(start.size());
        char timing[64];
        std::snprintf(timing, sizeof timing, "%.2f (%.1f)", hostileMs, predicted);
        printLine("gpu", name, options.method, start.size(), run.report, bound, timing);
        if (std::isfinite(hostileMs)) {
            EXPECT_LE(hostileMs, predicted) << name << " " << methodName(options.method);
        }
        return out;
    }

    // Both backends for each method; returns {cpu, gpu} per method, in order.
    std::vector<std::pair<Solved, Solved>> runCase(const std::string& name, const Move& move,
                                                   const std::vector<glm::vec3>& start, SolverOptions options,
                                                   const std::vector<Method>& methods) {
        std::vector<std::pair<Solved, Solved>> results;
        for (Method method : methods) {
            options.method = method;
            const long bound = worstCaseEvaluations(options, int(move.tools.size()));
            CpuSolution cpu = solveOnCpu(move, start, options);
            Solved cpuOut{cpu.positions, cpu.statistics};
            expectSound("cpu " + name + " " + std::string(methodName(method)), &move, start, cpuOut, bound);
            printLine("cpu", name, method, start.size(), cpu.report, bound, "-");
            results.emplace_back(std::move(cpuOut), runGpu(name, move, start, options));
        }
        return results;
    }

    std::unique_ptr<GpuMesh> ordinaryMesh_;
};

// Unflagged vertices of a one-tool affine move against its closed form (spec §3.1).
double maxClosedFormError(const ToolMotion& tool, const std::vector<glm::vec3>& start, const Solved& out) {
    double worst = 0.0;
    for (size_t i = 0; i < start.size(); ++i) {
        if (out.statistics[i].flags & ~kernel::kFlagCulled) continue;
        double dist = glm::length(glm::dvec3(start[i]) - tool.origin);
        double u = 1.0 - std::clamp((dist - tool.innerRadius) / (tool.outerRadius - tool.innerRadius), 0.0, 1.0);
        glm::dvec3 expected = test::affineClosedForm(tool, glm::dvec3(start[i]), u * u * (3.0 - 2.0 * u));
        worst = std::max(worst, glm::length(glm::dvec3(out.positions[i]) - expected));
    }
    return worst;
}

TEST_F(Hostile, NearSingularKelvinletsAgainstHugeMoves) {
    printHeader();
    for (double eps : {1e-3, 1e-6}) {
        for (double distance : {1e4, 1e7}) {
            Move move{{test::kelvinletMotion(eps, distance * glm::normalize(glm::dvec3(1.0, -0.4, 0.3)))}};
            char name[64];
            std::snprintf(name, sizeof name, "kelvinlet eps %g |d| %g", eps, distance);
            runCase(name, move, pointsAround(move, 400, 11), SolverOptions{}, allMethods());
        }
    }
}

TEST_F(Hostile, RotationsOfAlmostPi) {
    // From quaternions through moveToolMotion: q_B, its double cover −q_B, and a turn of
    // π + 1e-6, which the short arc takes as π − 1e-6 about the opposite axis.
    const glm::dquat qA = glm::normalize(glm::dquat(0.28, 0.46, -0.47, 0.70));
    const glm::dquat qB = glm::angleAxis(kAlmostPi, axis()) * qA;
    struct Variant { const char* name; glm::dquat q; double direction; };
    const Variant variants[] = {{"q_B", qB, 1.0}, {"-q_B", -qB, 1.0},
                                {"pi+1e-6", glm::angleAxis(std::numbers::pi + 1e-6, axis()) * qA, -1.0}};
    std::vector<Move> fromQuaternions;
    for (const Variant& v : variants) {
        Stroke stroke;
        stroke.tools.push_back({ToolKind::Affine, 4.0, 16.0, 1.0, 0.5,
                                {{{2.0, 1.0, -3.0}, qA, 1.0, 10.0}, {{5.0, 1.0, -3.0}, v.q, 1.0, 11.0}}});
        Move move = moveToolMotion(stroke);
        const glm::dvec3 r = move.tools[0].rotation;
        EXPECT_NEAR(glm::length(r), kAlmostPi, 1e-9) << v.name;
        EXPECT_NEAR(glm::dot(glm::normalize(r), axis()), v.direction, 1e-12) << v.name;
        fromQuaternions.push_back(move);
    }
    EXPECT_EQ(fromQuaternions[0].tools[0].rotation, fromQuaternions[1].tools[0].rotation);

    Move kelvinletQ = fromQuaternions[1];
    kelvinletQ.tools[0].kind = ToolKind::Kelvinlet;
    const std::pair<const char*, Move> cases[] = {
        {"kelvinlet r = (pi-1e-6) axis", Move{{test::kelvinletMotion(20.0, {5.0, 0.0, 0.0}, kAlmostPi * axis())}}},
        {"affine r = (pi-1e-6) axis", Move{{test::affineMotion({2, 1, -3}, {3, 0, 0}, kAlmostPi * axis(), 0, 4, 16)}}},
        {"kelvinlet from -q_B", kelvinletQ},
        {"affine from pi+1e-6 (short arc)", fromQuaternions[2]}};
    printHeader();
    for (const auto& [name, move] : cases) {
        std::vector<glm::vec3> start = pointsAround(move, 300, 12);
        auto results = runCase(name, move, start, SolverOptions{}, allMethods());
        if (move.tools[0].kind != ToolKind::Affine) continue;
        // The affine flow is smooth, so the adaptive methods must also be right (tol 0.1 voxel).
        for (size_t m = 1; m < results.size(); ++m) {
            EXPECT_LE(maxClosedFormError(move.tools[0], start, results[m].first), 0.1) << name << " cpu";
            EXPECT_LE(maxClosedFormError(move.tools[0], start, results[m].second), 0.1) << name << " gpu";
        }
    }
}

TEST_F(Hostile, ScaleRatiosOfAMillion) {
    printHeader();
    for (double ratio : {1e-6, 1e6}) {
        const double lambda = std::log(ratio);
        char kelvinlet[64], affine[64];
        std::snprintf(kelvinlet, sizeof kelvinlet, "kelvinlet scale ratio %g", ratio);
        std::snprintf(affine, sizeof affine, "affine scale ratio %g", ratio);
        Move k{{test::kelvinletMotion(20.0, {5.0, -2.0, 1.0}, {}, lambda)}};
        Move a{{test::affineMotion({2, 1, -3}, {3, 0, 0}, {}, lambda, 4, 16)}};
        runCase(kelvinlet, k, pointsAround(k, 300, 13), SolverOptions{}, allMethods());
        runCase(affine, a, pointsAround(a, 300, 14), SolverOptions{}, allMethods());
    }
}

TEST_F(Hostile, StrokeOfOneNanosecond) {
    // The built-in stroke squeezed into τB − τA = 1e-9 s. The library accepts it: the
    // move is defined in normalised time and the duration never reaches the kernel, so
    // the kernel's state, and so the result, is the same as for the 0.72 s original.
    const Stroke original = defaultStroke();
    Stroke squeezed = original;
    const double t0 = original.tools[0].poses.front().time;
    const double span = original.tools[0].poses.back().time - t0;
    for (Pose& pose : squeezed.tools[0].poses) pose.time = t0 + (pose.time - t0) * (1e-9 / span);
    printHeader();
    for (ToolKind kind : {ToolKind::Kelvinlet, ToolKind::Affine}) {
        Stroke a = original, b = squeezed;
        a.tools[0].kind = b.tools[0].kind = kind;
        const Move reference = moveToolMotion(a), move = moveToolMotion(b);
        EXPECT_NEAR(move.tools[0].duration, 1e-9, 1e-12);
        const std::vector<glm::vec3> start = pointsAround(move, 300, 15);
        auto results = runCase(kind == ToolKind::Affine ? "affine, 1e-9 s" : "kelvinlet, 1e-9 s", move, start,
                               SolverOptions{}, allMethods());
        for (size_t m = 0; m < allMethods().size(); ++m) {
            SolverOptions options;
            options.method = allMethods()[m];
            const kernel::Kernel k1 = makeKernel(reference, options), k2 = makeKernel(move, options);
            EXPECT_EQ(std::memcmp(k1.tools, k2.tools, sizeof k1.tools), 0) << methodName(options.method);
            EXPECT_EQ(std::memcmp(&k1.settings, &k2.settings, sizeof k1.settings), 0) << methodName(options.method);
            EXPECT_EQ(results[m].first.positions, solveOnCpu(reference, start, options).positions);
        }
    }
    // Where the timestamps cannot resolve 1e-9 s (at τ = 1e9 s a double's spacing is
    // 1.2e-7 s), the poses fall on one time and the move is refused by name.
    for (Pose& pose : squeezed.tools[0].poses) pose.time = 1e9 + (pose.time - t0);
    EXPECT_TRUE(test::failsWith([&] { moveToolMotion(squeezed); }, {"time must increase"}));
}

TEST_F(Hostile, ToleranceFarBelowFloatPrecision) {
    // rk4's fixed steps have no error estimate for a tolerance to act on: adaptive methods only.
    SolverOptions options;
    options.tolerance = 1e-12;
    Stroke affine = defaultStroke();
    affine.tools[0].kind = ToolKind::Affine;
    const std::pair<const char*, Move> cases[] = {
        {"built-in kelvinlet, tol 1e-12", moveToolMotion(defaultStroke())},
        {"built-in as affine, tol 1e-12", moveToolMotion(affine)},
        {"kelvinlet eps 1e-3 |d| 1e4, tol 1e-12", Move{{test::kelvinletMotion(1e-3, {1e4, 0.0, 0.0})}}}};
    printHeader();
    for (const auto& [name, move] : cases) runCase(name, move, pointsAround(move, 200, 16), options, allMethods(true));
}

TEST_F(Hostile, EveryHostileToolAtOnce) {
    // Four tools, so four segments: the breakpoints of two affine tools' falloffs.
    Move move{{test::kelvinletMotion(1e-6, {1e7, -4e6, 3e6}),
               test::affineMotion({3, 1, -2}, {2, 0, 0}, kAlmostPi * axis(), 0.0, 4, 16),
               test::affineMotion({-5, 2, 1}, {0, 1, 0}, {}, std::log(1e6), 2, 12),
               test::kelvinletMotion(8.0, {1, 2, 3}, {0.0, 0.0, kAlmostPi}, std::log(1e-6))}};
    move.tools[3].origin = {4.0, -3.0, 2.0};
    printHeader();
    runCase("4 tools at once", move, pointsAround(move, 150, 17), SolverOptions{}, allMethods());
}

// One float of the raw kernel state, named as written.
#define SF_RAW_FIELD(member) RawField{#member, [](kernel::Kernel& k) -> float& { return k.member; }}
using RawField = std::pair<const char*, float& (*)(kernel::Kernel&)>;

// The raw API skips validation: a kernel made from a valid move, then one float of a
// tool or of the settings set to NaN or ±∞ in turn. The kernel's own guards must hold:
// the attempt budget, and output either finite or the input with NON_FINITE.
TEST_F(Hostile, NonFiniteRawKernelParametersOnCpu) {
    const RawField fields[] = {
        SF_RAW_FIELD(tools[0].origin.x), SF_RAW_FIELD(tools[0].origin.y), SF_RAW_FIELD(tools[0].origin.z),
        SF_RAW_FIELD(tools[0].translation.x), SF_RAW_FIELD(tools[0].translation.y),
        SF_RAW_FIELD(tools[0].translation.z), SF_RAW_FIELD(tools[0].rotation.x), SF_RAW_FIELD(tools[0].rotation.y),
        SF_RAW_FIELD(tools[0].rotation.z), SF_RAW_FIELD(tools[0].logScale), SF_RAW_FIELD(tools[0].innerRadius),
        SF_RAW_FIELD(tools[0].outerRadius), SF_RAW_FIELD(tools[0].grabLoad.x), SF_RAW_FIELD(tools[0].grabLoad.y),
        SF_RAW_FIELD(tools[0].grabLoad.z), SF_RAW_FIELD(tools[0].scaleLoad), SF_RAW_FIELD(tools[0].twistLoad.x),
        SF_RAW_FIELD(tools[0].twistLoad.y), SF_RAW_FIELD(tools[0].twistLoad.z), SF_RAW_FIELD(tools[0].kelvinA),
        SF_RAW_FIELD(tools[0].kelvinB), SF_RAW_FIELD(tools[0].kelvinScale), SF_RAW_FIELD(settings.tolerance),
        SF_RAW_FIELD(settings.h0), SF_RAW_FIELD(settings.hMin), SF_RAW_FIELD(settings.hMax),
        SF_RAW_FIELD(settings.safety), SF_RAW_FIELD(settings.shrinkMin), SF_RAW_FIELD(settings.growMax),
        SF_RAW_FIELD(settings.stepLimitFloor), SF_RAW_FIELD(settings.stepLimitScale),
        SF_RAW_FIELD(settings.requestedTolerance), SF_RAW_FIELD(settings.stepLimitTravel)};
    const float inf = std::numeric_limits<float>::infinity();
    const float values[] = {std::numeric_limits<float>::quiet_NaN(), inf, -inf};
    const std::pair<const char*, Move> moves[] = {
        {"raw kelvinlet, each field NaN/+inf/-inf",
         Move{{test::kelvinletMotion(20.0, {30, -10, 5}, {0.3, 1.0, 0.2}, 0.4)}}},
        {"raw affine, each field NaN/+inf/-inf",
         Move{{test::affineMotion({2, 1, 0}, {5, 0, 0}, {0, 0.8, 0.3}, -0.3, 4, 16)}}}};
    printHeader();
    for (const auto& [name, move] : moves) {
        const std::vector<glm::vec3> points = pointsAround(move, 10, 18);
        for (Method method : allMethods()) {
            SolverOptions options;
            options.method = method;
            const kernel::Kernel base = makeKernel(move, options);
            const long bound = worstCaseEvaluations(options, base.toolCount);
            std::vector<VertexStatistics> all;
            for (float value : values) {
                for (const auto& [field, at] : fields) {
                    kernel::Kernel k = base;
                    at(k) = value;
                    Solved out;
                    for (const glm::vec3& p : points) {
                        kernel::VertexResult r = k.integrateVertex(p, 0.0f);
                        out.positions.push_back(r.position);
                        out.statistics.push_back({r.flags, r.acceptedSteps, r.rejectedSteps, r.evaluations});
                    }
                    expectSound(std::string(name) + " " + std::string(methodName(method)) + " " + field + " = " +
                                    std::to_string(value), nullptr, points, out, bound);
                    all.insert(all.end(), out.statistics.begin(), out.statistics.end());
                }
            }
            printLine("cpu raw", name, method, all.size(), summarize(all), bound, "-");
        }
    }
}

#undef SF_RAW_FIELD

// Through the public API a NaN never reaches the kernel: GpuSolver::run (and
// solveOnCpu) refuse it by name before anything is dispatched.
TEST_F(Hostile, NanToolsAndOptionsAreRefusedBeforeDispatch) {
    const Move move{{test::kelvinletMotion(20.0, {30, -10, 5}, {0.3, 1.0, 0.2}, 0.4)}};
    const std::vector<glm::vec3> start = pointsAround(move, 62, 19);
    GpuMesh mesh(context(), start);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto refused = [&](const Move& m, const SolverOptions& o, const std::string& parameter) {
        EXPECT_TRUE(test::failsWith([&] { solver().run(mesh, m, o); }, {parameter})) << parameter;
        EXPECT_TRUE(test::failsWith([&] { solveOnCpu(m, start, o); }, {parameter})) << parameter;
        EXPECT_EQ(mesh.readPositions(), start) << parameter << ": something was dispatched";
    };
    using ToolVector = glm::dvec3 ToolMotion::*;
    using ToolScalar = double ToolMotion::*;
    using Option = double SolverOptions::*;
    for (int c = 0; c < 3; ++c) {
        for (auto [field, member] : {std::pair<const char*, ToolVector>{"origin", &ToolMotion::origin},
                                     {"translation", &ToolMotion::translation}, {"rotation", &ToolMotion::rotation}}) {
            Move bad = move;
            (bad.tools[0].*member)[c] = nan;
            refused(bad, SolverOptions{}, std::string("tools[0].") + field);
        }
    }
    for (auto [field, member] : {std::pair<const char*, ToolScalar>{"logScale", &ToolMotion::logScale},
                                 {"innerRadius", &ToolMotion::innerRadius}, {"outerRadius", &ToolMotion::outerRadius},
                                 {"stiffness", &ToolMotion::stiffness},
                                 {"compressibility", &ToolMotion::compressibility}}) {
        Move bad = move;
        bad.tools[0].*member = nan;
        refused(bad, SolverOptions{}, std::string("tools[0].") + field);
    }
    for (auto [option, member] : {std::pair<const char*, Option>{"tolerance", &SolverOptions::tolerance},
                                  {"h0", &SolverOptions::h0}, {"hMin", &SolverOptions::hMin},
                                  {"hMax", &SolverOptions::hMax}, {"safety", &SolverOptions::safety},
                                  {"shrinkMin", &SolverOptions::shrinkMin}, {"growMax", &SolverOptions::growMax},
                                  {"maxToolMotionPerStep", &SolverOptions::maxToolMotionPerStep}}) {
        SolverOptions bad;
        bad.*member = nan;
        refused(move, bad, std::string("solver option ") + option);
    }
    // τB − τA never reaches the kernel (time is normalised), so it is not validated
    // and a NaN there changes nothing.
    solver().run(mesh, move, SolverOptions{});
    const std::vector<glm::vec3> expected = mesh.readPositions();
    Move undated = move;
    undated.tools[0].duration = nan;
    EXPECT_NO_THROW(solver().run(mesh, undated, SolverOptions{}));
    EXPECT_EQ(mesh.readPositions(), expected);
}

// An affine flow's falloff is in its field, which must be Lipschitz (spec §3.6):
// with r_in at or over r_out (clamped to it) the field jumps at r_out, so such a
// tool is refused by name before dispatch. An affine tool takes the same radii.
TEST_F(Hostile, AnAffineFlowWithNoFalloffShellIsRefusedBeforeDispatch) {
    const ToolMotion affine = test::affineMotion({0, 0, 0}, {30, -10, 5}, {0.3, 1.0, 0.2}, 0.2, 20.0, 20.0);
    const std::vector<glm::vec3> start = pointsAround(Move{{affine}}, 62, 19);
    GpuMesh mesh(context(), start);
    for (double rIn : {20.0, 25.0, 20.0 * (1.0 + 1e-9)}) {
        ToolMotion flow = affine;
        flow.kind = ToolKind::AffineFlow;
        flow.innerRadius = rIn;
        const Move refused{{flow}};
        EXPECT_TRUE(test::failsWith([&] { solver().run(mesh, refused, SolverOptions{}); },
                                    {"tools[0].innerRadius", "affine-flow", "Lipschitz"}))
            << rIn;
        EXPECT_TRUE(test::failsWith([&] { solveOnCpu(refused, start, SolverOptions{}); }, {"tools[0].innerRadius"}))
            << rIn;
        EXPECT_EQ(mesh.readPositions(), start) << rIn << ": something was dispatched";
    }
    ToolMotion shelled = affine;
    shelled.kind = ToolKind::AffineFlow;
    shelled.innerRadius = 19.0;
    EXPECT_NO_THROW(solveOnCpu(Move{{shelled}}, start, SolverOptions{}));
    EXPECT_NO_THROW(solver().run(mesh, Move{{affine}}, SolverOptions{}));
    EXPECT_NE(mesh.readPositions(), start);
}

} // namespace
} // namespace sculptflow
