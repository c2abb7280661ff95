// The accuracy sweep (issue 29): generated strokes solved by every method at
// every tolerance, on the CPU reference and optionally the GPU, each against the
// independent double ground truth. Spec §4: no unflagged vertex over tol.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <sculptflow/gpu_solver.hpp>
#include <sculptflow/solver_options.hpp>
#include "stroke_generator.hpp"

namespace sculptflow::cli {

inline constexpr double kConditionProbe = 1e-3; // voxels

struct SweepOptions {
    std::vector<Method> methods = allMethods(true); // the method table's adaptive rows
    std::vector<double> tolerances{0.3, 0.1, 0.03, 0.01};
    GpuSolver* gpu = nullptr; // also solved on the GPU when set
    bool amplification = true; // a second ground truth for SweepRun::amplification
    bool verify = false;       // SolverOptions::verify: each vertex certified by a checking pass
};

// One case, one method and tolerance, on one device.
struct SweepRun {
    uint64_t seed = 0;
    std::string family;
    MoveMode mode = MoveMode::Move;
    Method method = Method::Bs32;
    double tolerance = 0.0;
    bool gpu = false;
    double maxError = 0.0;        // voxels, over unflagged vertices whose truth converged
    size_t compared = 0;
    size_t flagged = 0;           // min-step, iteration cap, non-finite or unverified: left out, as the contract allows
    size_t notConverged = 0;      // the truth's self-check failed: left out
    double meanEvaluations = 0.0; // per vertex, summed over the segments
    double stepLimit = 1.0;       // the smallest segment's toolStepLimit: how hard the move is
    size_t worstVertex = 0;       // where maxError is
    bool worstCulled = false;     // that vertex was culled (not integrated)
    // How much the exact flow amplifies a change of that vertex's start: the truth from
    // a start moved by kConditionProbe over kConditionProbe. A float solver's rounding
    // (~1e-4 voxel over a move) is amplified as much; floatFloor measures what that costs.
    double amplification = 0.0;
    // For a run over tol: how close to the truth float solves of the worst vertex
    // come when the step control is not what limits them (floatFloorSolve, every
    // adaptive method, the closest); -1 where not measured (the run is within tol)
    // or where each of those solves was capped or went non-finite.
    double floatFloor = -1.0;

    double ratio() const { return maxError / tolerance; }
    // Even float solves whose step control is not the limit miss by tol/2 or more:
    // rounding or the float field sets the error there, not the method.
    bool floatLimited() const { return floatFloor >= 0.5 * tolerance; }
};

// A solve that measures SweepRun::floatFloor: plain, at tol/tighter (100 unless
// those solves are all capped) with a quarter of every step limit and room for
// the steps that takes.
SolverOptions floatFloorSolve(const SolverOptions& run, double tighter = 100.0);

// The case's mesh in voxels exactly as `loadMoveInputs` makes them from the written
// files, so that `sculptflow validate` reruns the same case.
std::vector<glm::vec3> sweepVoxels(const GeneratedCase& generated);

// Every method × tolerance of a case; the ground truth is computed once.
std::vector<SweepRun> sweepCase(const GeneratedCase& generated, const SweepOptions& options);

// One line a run, with a header line: for plots and for docs/solver.md's figures.
std::string sweepCsvHeader();
std::string sweepCsvLine(const SweepRun& run);

} // namespace sculptflow::cli
