// Types and constants shared by the compute shaders and the C++ CPU reference.
//
// This file, like every file under shaders/sculptflow/, compiles both as GLSL and
// as C++ (src/kernel.hpp includes it after `using namespace glm`). So: float
// literals carry an `f`, parameters that are written use SF_OUT/SF_INOUT, a
// function the C++ build must inline is SF_INLINE, and
// structs pair each vec3 with a scalar so that std140, std430 and C++ agree on
// every offset (src/kernel.hpp checks them with static_assert). Constants live
// here, not in the function files, which C++ includes inside a class. A loop over
// the tools that every attempt runs is SF_UNROLL (field.glsl says why).

#ifndef __cplusplus
#define SF_OUT(T) out T
#define SF_INOUT(T) inout T
#define SF_INLINE
#define SF_PRECISE precise
#define SF_UNROLL [[unroll]]
#endif
// A function the host calls too, outside Kernel: double on the host, float in GLSL.
#ifdef __cplusplus
#define SF_HOST_REAL double
#define SF_SHARED_FUNCTION inline
#else
#define SF_HOST_REAL float
#define SF_SHARED_FUNCTION
#endif

// Two hands, each with its seven mirrored copies under xyz symmetry (spec §3.4):
// kMaxTools in stroke.hpp.
#define SF_MAX_TOOLS 16

// Tool.shape: a Kelvinlet's profile (spec §3.7) or an affine kind's falloff (§3.6).
const int kProfileBiScale = 0;
const int kProfileTriScale = 1;
const int kProfileLaplacian = 2;
const int kProfileBiLaplacian = 3;
const int kFalloffSmooth = 0;   // 3u² − 2u³
const int kFalloffSmoother = 1; // u³(6u² − 15u + 10)
const int kFalloffLinear = 2;   // u
const int kFalloffSharp = 3;    // u²
// The steepest slope dw/du of the four falloffs (sharp's, at u = 1).
const float kFalloffMaxSlope = 2.0f;

// Per-vertex flag bits (spec §4).
const uint kFlagMinStepClamped = 1u; // a step at h_min was accepted over tolerance
const uint kFlagIterationCap = 2u;   // the attempt budget ran out; finished with RK4 (or the device's: deform.comp)
const uint kFlagNonFinite = 4u;      // input or state not finite; output = input
const uint kFlagCulled = 8u;         // outside every tool's reach, or mask 0; not integrated
const uint kFlagFolded = 16u;        // volume change J ≤ 0: the end map folds here (only when J is computed)
const uint kFlagUnverified = 32u;    // not certified within tol: the error bound is over it after the re-solve (with solverVerify also: it and the checking pass differ by over tol/2, or their shared rounding may)

// The checking pass (solverVerify, integrate.glsl): an eighth of the tolerance the
// default path's last pass worked to, and half of every step limit, so that its final error is well below the default
// path's; that must agree with it within half the tolerance, which certifies the
// checking pass's position wherever its error is at most 2/3 of the default's
// (docs/accuracy-sweep.md, "The checking pass"). Verify's default path aims the
// bound at kVerifyBoundShare of the tolerance (firstPass), and it checks the
// vertices whose bound is still over that: every miss of the long sweeps
// had its bound there (0.51–0.98 tol), and on their seeds no vertex whose bound
// was within tol/2 ended over 0.85 tol ("The checking pass on the error bound").
const float kVerifyToleranceShare = 0.125f;
const float kVerifyStepShare = 0.5f;
const float kVerifyAgreementShare = 0.5f;
const float kVerifyBoundShare = 0.5f;
// What a pass's rounding moves a vertex by, relative to its start's largest
// coordinate, before the flow stretches it: 4–8 float roundings a coordinate (seed
// 24445's float floor at tol 0.01 was 2^-20.3 of it, stretched 284×).
const float kStartRounding = 4.7683716e-7f; // 2^-21
// A vertex's passes (integrateVertex): the first, a second where its bound is
// over tol (solverVerify: tol/2), and (solverVerify) the checking one.
const int kCheckingPass = 2;
const int kPassesAtMost = 3;

// A vertex whose error bound (integrate.glsl) is over its tolerance is solved again
// at a tolerance that aims the bound at this share of it (resolvePass).
const float kResolveTarget = 0.5f;
// That pass (every pass, of a method that acceptsOnOwnError) accepts on the bound's
// error of each step, whose Simpson check is off by O(h⁵) (simpsonCheck), so
// err/h ∝ h^min(order, 4) sets its step rule (stepRuleOrder).
const float kSimpsonCheckOrder = 4.0f;
// A velocity's rounding in float, relative to its size: a step's estimate and its
// check are weighted sums of stage velocities, so they carry up to this times their
// weights' absolute sum times |v| of rounding, which no shorter step lowers
// (stepAllowance). A bi-scale Kelvinlet's X_ε − X_ε₁ cancels, which raises it: up
// to kVelocityRoundingMeasured, a third of this (docs/solver.md, "The rounding floor").
const float kVelocityRounding = 7.6293945e-6f; // 2^-17
// The most that rounding was measured at: the floor under a first pass's aim at the
// stretch ahead (stepAllowance). There the bound above, 3× it, loosened steps whose
// check still resolved them, and bs32 at tol 0.01 solved most of the built-in
// sphere twice (233.9 evaluations a vertex against 142.9).
const float kVelocityRoundingMeasured = 2.5e-6f;
// A vertex's carried error bound (continuous mode: from one segment to the next)
// once a segment could not certify it: later segments neither carry nor act on it.
const float kBoundLost = -1.0f;

// The length over which a bi-Laplacian Kelvinlet's field changes, in ε: its core is
// half as wide as the other profiles' (fieldLength in kernel_tools.cpp, stepLimit).
const float kBiLaplacianFieldLength = 0.5f;
// maxToolMotionPerStep's default: the step limits below are given at it, and scale with it.
const float kDefaultToolMotionPerStep = 1.5f;
// A vertex's own step limit is this over its field's rate of change at the vertex,
// |∂v/∂x| + kKelvinletTravelRate·|v − d|/√(|R|² + ℓ²) (stepLimit), at the default
// maxToolMotionPerStep.
const float kVertexStepLimit = 2.4f;
// A step carries a vertex against a Kelvinlet at most this share of stepLimitTravel
// field lengths, widened away from the tool (stepLimit): half of √(|R|² + ℓ²) at the
// default 1.5. The field's Taylor series about the step's start converges within
// √(|R|² + ε²) along any line (the roots of |R|² + ε² = 0 lie that far), and an
// estimate of its leading terms holds only well inside it.
const float kKelvinletTravelShare = 1.0f / 3.0f;
// The travel's weight in the vertex's own rate: alone it gives the travel bound
// above, so that the two rates, the field's shear and the vertex's travel, add each
// at its own limit (4.8).
const float kKelvinletTravelRate = kVertexStepLimit / (kKelvinletTravelShare * kDefaultToolMotionPerStep);
// The move's step limit may carry a vertex past its own by at most this factor
// (stepLimit): the recordings' floors are within 1.65× of their tip vertices' own,
// while seed 11352's, 3.2×, missed by 1.3 tol (docs/solver.md, item 4); and by
// no more than the method's stability interval allows.
const float kFloorOverVertexLimit = 2.0f;
// An affine flow's field length is its shell over this many, more for the kinked
// falloffs, whose steps across a kink err most (shellFieldLength, kinds.glsl).
const float kSmoothShellFieldLengths = 4.0f;
const float kKinkedShellFieldLengths = 6.0f;

// The length over which an affine tool's falloff changes, for the step limits: a
// share of its shell, smaller for the kinked falloffs. The host's toolStepLimit
// takes it in double, an affine flow's stepLimit in float.
SF_SHARED_FUNCTION SF_HOST_REAL shellFieldLength(SF_HOST_REAL rIn, SF_HOST_REAL rOut, int falloff) {
    SF_HOST_REAL shell = max(rOut - min(rIn, rOut), SF_HOST_REAL(1.0e-3) * rOut);
    bool kinked = falloff == kFalloffLinear || falloff == kFalloffSharp;
    return shell / SF_HOST_REAL(kinked ? kKinkedShellFieldLengths : kSmoothShellFieldLengths);
}


// The share of its distance from an affine flow's shell that a step past the
// move's limit may carry a vertex against the tool (affineFlowStepLimit).
const float kShellClearance = 0.5f;

// The share of the tolerance that all of a vertex's kink crossings may spend
// together (kinkAllowance in controller.glsl).
const float kKinkBudget = 0.5f;
// How far short of a kink a step retried there ends, as a share of the way; a
// little short, so that the chord's estimate of where the kink is may be off.
const float kKinkLanding = 0.99f;

// ε₁ = 1.1·ε for the bi-scale Kelvinlet (spec §3.2); tri-scale adds ε₂ = 1.21·ε, with
// the weights w₁ = −(ε₂² − ε₀²)/(ε₂² − ε₁²) = −2.21/1.21 and w₂ = (ε₁² − ε₀²)/(ε₂² − ε₁²) = 1/1.21
// (spec §3.7), which cancel the 1/r and 1/r³ far fields.
const float kKelvinletSecondRadius = 1.1f;
const float kKelvinletThirdRadius = 1.21f;
const float kTriScaleSecondWeight = -2.21f / 1.21f;
const float kTriScaleThirdWeight = 1.0f / 1.21f;
// Tri-scale as a divided difference over t = ε² (kinds/kelvinlet.glsl): t₁/t₀, t₂/t₀ and
// its factor (t₁ − t₀)(t₂ − t₀) in units of t₀².
const float kScaleSecondT = 1.21f;
const float kScaleThirdT = 1.4641f;
const float kTriScaleDifferenceWeight = 0.21f * 0.4641f;

// Stands for an error estimate that is not finite: the controller then shrinks.
const float kHugeError = 3.0e38f;

// Culled vertices move less than tolerance × this (spec §4, item 5).
const float kCullFraction = 0.1f;

// One tool's move, in voxels and per unit of normalised time s. Built on the host
// in double (src/kernel_tools.cpp) and rounded once to float.
struct Tool {
    vec3 origin;      float logScale;    // p_A; λ
    vec3 translation; float innerRadius; // d; r_in (affine falloff), clamped to ≤ r_out
    vec3 rotation;    float outerRadius; // r (axis·angle); r_out, which is ε for a Kelvinlet
    vec3 grabLoad;    float scaleLoad;   // Kelvinlet f; Kelvinlet G/I (λ·calibration)
    vec3 twistLoad;   int kind;          // Kelvinlet F as the vector of its skew matrix; kTool* (kinds.glsl)
    float kelvinA;                       // a = 1/(4πμ)
    float kelvinB;                       // b = a/(4(1−ν))
    float kelvinScale;                   // 2b₀ − a
    int shape;                           // kProfile* (Kelvinlet) or kFalloff* (affine kinds)
};

// Tunables of one dispatch (spec §4). The method is not here: it is fixed per
// pipeline (solverMethod).
struct SolverSettings {
    float tolerance; // voxels over s ∈ [0, 1]: accept when err ≤ tolerance·h
    float h0;        // first step
    float hMin;      // smallest step; accepted whatever its error
    float hMax;      // largest step
    float safety;    // controller safety factor
    float shrinkMin; // lower limit of h_new/h
    float growMax;   // upper limit of h_new/h
    int fixedSteps;  // kMethodRk4: steps per segment
    float stepLimitFloor;    // every vertex may step this far: the tools' whole motion / maxToolMotionPerStep
    float stepLimitScale;    // a vertex's own limit: scale / (|∂v/∂x| + kKelvinletTravelRate·|v − d|/√(|R|² + ℓ²)) (stepLimit)
    float requestedTolerance; // voxels, before the method's calibration: what the error bound and solverVerify hold a vertex to
    float stepLimitTravel;   // field lengths a tool moves a step (and kKelvinletTravelShare of it a vertex against one)
    int maxAttempts;         // a first pass's attempt budget (SolverOptions::maxIterations, at most 65536)
};

// Where one dispatch reads and writes positions: float offsets and strides, so
// that xyz can sit inside an interleaved vertex (no vec3 std430 padding).
struct VertexLayout {
    uint firstVertex;  // dispatches of more than 65535 workgroups are split
    uint vertexCount;  // vertices in this dispatch
    uint inputOffset;  // floats before vertex 0's x in the input buffer
    uint inputStride;  // floats from one vertex's x to the next
    uint outputOffset;
    uint outputStride;
    uint maskOffset;   // floats before vertex 0's mask value (with a mask bound)
    uint maskStride;   // floats from one vertex's mask value to the next
};

// What one vertex's integration produced.
struct VertexResult {
    vec3 position;
    uint flags;
    uint acceptedSteps;
    uint rejectedSteps;
    uint evaluations; // right-hand-side evaluations
    float volumeChange; // J = det(∂x/∂x0) of the end map, when computeVolumeChange; else 1
    float errorBound;   // voxels: the pass's error estimates, each carried to the end by exp(∫μ)
    float estimateSum;  // voxels: the same estimates, summed as they are
    float growth;       // what an error at the pass's start grows to by its end: exp(∫μ), and breakpointStretch
};
