// The method table (spec §4): everything that tells one Runge–Kutta method from
// another, held once. The kernel reads the step control's columns; the host
// (src/method_table.hpp) reads the rest, and every list of methods — the CLI's
// choices, the bench, the charts — is this table's rows. A method is a stepper in
// steppers.glsl plus a row here (and its name in the public enum, in row order).
//
// Compiles as GLSL and as C++, like layout.glsl. The host's columns are double in
// C++, so that a calibration written 0.68 is exactly the double 0.68 it always
// was; the name exists in C++ only (GLSL has no strings).

#ifdef __cplusplus
#define SF_HOST_NAME(name) name,
#define SF_HOST_REAL double
#define SF_SHARED_FUNCTION inline
#else
#define SF_HOST_NAME(name)
#define SF_HOST_REAL float
#define SF_SHARED_FUNCTION
#endif

// Rows, in the order of sculptflow::Method.
const int kMethodRk4 = 0;       // classic RK4, fixed steps
const int kMethodRk4Double = 1; // step doubling with RK4, Richardson-extrapolated
const int kMethodBs32 = 2;      // Bogacki–Shampine 3(2), FSAL
const int kMethodDp45 = 3;      // Dormand–Prince 5(4), FSAL
const int kMethodTsit5 = 4;     // Tsitouras 5(4), FSAL
const int kMethodCount = 5;

struct MethodTraits {
#ifdef __cplusplus
    const char* name;             // --method, JSON "method"
#endif
    int order;                    // of the solution a step advances with
    int evaluations;              // per attempt, k1 not included
    bool fsal;                    // the last stage is v at the step's end: the next k1
    bool adaptive;                // false: settings.fixedSteps equal steps per segment
    float estimateOrder;          // q, with err/h ∝ h^q: the step-size rule's exponent is 1/q
    bool vertexStepLimit;         // steps within each vertex's own limit (controller.glsl)
    float firstStepOfVertexLimit; // with it, the first step's share of that limit
    SF_HOST_REAL firstStepOfMoveLimit; // without it, at most this share of the move's limit (0: h0 alone)
    SF_HOST_REAL safetyFactor;    // the controller's safety is the requested one × this
    SF_HOST_REAL toleranceFactor; // the kernel's tolerance is the requested one × this
    SF_HOST_REAL biLaplacianFactor; // and × this when a Kelvinlet is bi-Laplacian
    float kinkError;              // max |E(θ)|, the error of a step across a kink (controller.glsl)
    float kinkSlope;              // b₁, with |E(θ)| ≤ b₁θ
    bool errorBound;              // carries the error bound and solves again where it is over (integrate.glsl)
    float boundEstimateWeight;    // the bound adds max(this × the estimate,
    float boundCheckWeight;       //   this × the Simpson check) a step (steppers.glsl, boundStepError)
    int boundEvaluations;         // the check's, per step: 0 where the stepper has its midpoint
};

// Why the calibrations (docs/solver.md has the measurements):
// - toleranceFactor: local errors below tol·h do not bound the final error, since
//   the flow near a Kelvinlet's tip stretches earlier ones; measured on the recorded
//   strokes and the built-in one (tests/test_accuracy.cpp) so that the worst
//   vertex stays within the request with a margin.
// - biLaplacianFactor: that field is steeper about the tip and stretches more: on
//   test1's left hand bs32 reached 0.100 voxel at tol 0.1, and 0.077 at 0.8.
// - bs32: its first step of h0 = 0.1 passed on an estimate not yet asymptotic;
//   0.15 of the move's limit cut test0's worst error from 0.085 to 0.062 voxel at the
//   same work. Its safety 0.85 (at the requested 0.9) cut rejections more than it
//   added steps; those margins bought ×0.68 (was ×0.6). Its work is set by its
//   tolerance, so it pays nothing for a per-vertex limit.
// - dp45 and rk4dbl start at half of the vertex's limit: starting at the whole
//   limit gave dp45 0.128 voxel on test0.
// - tsit5: ×0.1 is set by GPU–CPU agreement, not by accuracy. Its estimate's
//   weights sum to 1.21 in absolute value (dp45's 0.16), so the float rounding of
//   the stages reaches it 7.6× as strongly and the GPU and CPU accept different
//   steps more often; at ×0.2 99.19% of test0's spheres agreed within 0.01 voxel
//   on lavapipe (the test asks 99.5%), at ×0.1 99.75%. ×0.2 already held the
//   accuracy set within 0.075 voxel (dp45's ×0.3: 0.120 on test0).
//   Its safety 0.8 (0.72 at the requested 0.9): near the tip a vertex steps at the
//   move's limit, past its own, where Tsit5's estimate stops growing with h (at the
//   bench ball's worst vertex it is the same at h 0.21 and 0.24, 5e-3, while the
//   error there triples, to 5e-2); a step grown from the last estimate lands there
//   and passes. ×0.2 alone left that ball at 0.107 voxel (×0.15: 0.103).
// - kinkError is the step's weights' Peano kernel for a jump Δ in dv/ds at θh into
//   the step: the step errs by Δh²·E(θ), E(θ) = (1 − θ)²/2 − Σ bᵢ(cᵢ − θ)₊, and this
//   column is max over θ of |E| (rk4dbl's of its extrapolated two half steps),
//   or of the estimate's own kernel, Σ(bᵢ − b̂ᵢ)(cᵢ − θ)₊, where that is larger
//   (bs32: 0.0347 against 0.0313), since the kink's part of the estimate is
//   credited against it.
//   Near θ = 0, E(θ) = θ²/2 − b₁θ (Σbᵢ = 1, Σbᵢcᵢ = 1/2), and |E(θ)| ≤ b₁θ holds
//   for every θ: kinkSlope. Both follow from each tableau alone (docs/solver.md, "Kinks").
// - The bound's weights: each adaptive step is checked by Simpson's rule along it
//   (simpsonCheck, steppers.glsl), which samples v where the estimate did not.
//   bs32's estimate is its second-order companion's error, far above the third-order
//   solution's near a Kelvinlet's tip (a bound of estimates solved most of test0's
//   sphere again, 2.7× the evaluations): its bound takes the check alone, which is
//   its step's own error. For the others the check is of the estimate's order, and
//   its weight is the largest power of two that keeps it within the estimate on the
//   test equation y' = λy (λ = 1, −1, i; h 0.05–0.4), where the check is 1.4–2.1×
//   dp45's estimate, 2.7–3.9× tsit5's and 0.5–0.8× rk4dbl's: where the estimate is
//   asymptotic the check leaves the bound as it was, and it takes over where a step
//   passed over a change of the field that the estimate's stages missed. rk4dbl
//   takes ½, not the rule's 1: near a Kelvinlet's tip its check is far above its
//   estimate, and 1 solved test0's sphere again at 1.70× the evaluations (½: 1.16×).
SF_SHARED_FUNCTION MethodTraits methodTraits(int method) {
    //                                     name              order evals fsal   adaptive q     vertex limit, first  move limit safety      tolerance biLaplacian kink    b1      bound  estimate check +evals
    if (method == kMethodRk4Double) return MethodTraits(SF_HOST_NAME("rk4dbl") 5, 11, true,  true,  4.0f, true,  0.5f, 0.0,  1.0,        1.0,  0.8,  0.0119f, 0.0778f, true,  1.0f, 0.5f,  0);
    if (method == kMethodBs32)      return MethodTraits(SF_HOST_NAME("bs32")   3, 3,  true,  true,  2.0f, false, 0.0f, 0.15, 0.85 / 0.9, 0.68, 0.8,  0.0348f, 0.2223f, true,  0.0f, 1.0f,  1);
    if (method == kMethodDp45)      return MethodTraits(SF_HOST_NAME("dp45")   5, 6,  true,  true,  4.0f, true,  0.5f, 0.0,  1.0,        0.3,  0.8,  0.0225f, 0.0912f, true,  1.0f, 0.5f,  1);
    if (method == kMethodTsit5)     return MethodTraits(SF_HOST_NAME("tsit5")  5, 6,  true,  true,  4.0f, true,  0.5f, 0.0,  0.8,        0.1,  0.8,  0.0463f, 0.0965f, true,  1.0f, 0.25f, 1);
    return MethodTraits(SF_HOST_NAME("rk4") 4, 3, false, false, 4.0f, false, 0.0f, 0.0, 1.0, 1.0, 0.8, 0.0417f, 0.1667f, false, 0.0f, 0.0f, 0);
}
