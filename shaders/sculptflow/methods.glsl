// The method table (spec §4): everything that tells one Runge–Kutta method from
// another, held once. The kernel reads the step control's columns; the host
// (src/method_table.hpp) reads the rest, and every list of methods — the CLI's
// choices, the bench, the charts — is this table's rows. A method is a stepper in
// steppers.glsl plus a row here (and its name in the public enum, in row order).
//
// Compiles as GLSL and as C++, like layout.glsl. The host's columns are double in
// C++ (SF_HOST_REAL, layout.glsl), so that a calibration written 0.68 is exactly the double 0.68 it always
// was; the name exists in C++ only (GLSL has no strings).

#ifdef __cplusplus
#define SF_HOST_NAME(name) name,
#else
#define SF_HOST_NAME(name)
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
    float firstStepOfVertexLimit; // with it, the first step's share of that limit (without it: h0)
    SF_HOST_REAL safetyFactor;    // the controller's safety is the requested one × this
    SF_HOST_REAL toleranceFactor; // the kernel's tolerance is the requested one × this
    SF_HOST_REAL biLaplacianFactor; // and × this when a Kelvinlet is bi-Laplacian
    vec3 kinkError;               // max |E_p(θ)|, the error of a step across a kink of order p = 1, 2, 3 (controller.glsl)
    float kinkSlope;              // b₁, with |E_p(θ)| ≤ b₁θᵖ/p!
    bool errorBound;              // carries the error bound and solves again where it is over (integrate.glsl)
    float boundEstimateWeight;    // the bound adds max(this × the estimate,
    float boundCheckWeight;       //   this × the Simpson check) a step (steppers.glsl, boundStepError)
    int boundEvaluations;         // the check's, per step: 0 where the stepper has its midpoint
    float estimateWeightSum;      // Σ|b − b̂|: how strongly the stages' rounding reaches the estimate (stepAllowance)
    float stabilityInterval;      // |R(−x)| ≤ 1 up to this x, R its stability polynomial: caps h·rate (stepLimit)
    float growthInterval;         // the bound's step term bounds the step's error on y' = μy up to hμ = this: caps h·μ (integratePass)
    float stretchAhead;           // a first pass (every pass of a method that accepts on its own error) aims a step at tol·h / min(exp(μ(1 − s)), this); 1: at tol·h (stepAllowance)
};

// Why each calibration has its value, and what measured it: docs/solver.md,
// "Why the method table's calibrations".
SF_SHARED_FUNCTION MethodTraits methodTraits(int method) {
    //                                     name              order evals fsal   adaptive q     vertex limit, first  safety      tolerance biLaplacian kink    b1      bound  estimate check +evals rounding  stability growth ahead
    if (method == kMethodRk4Double) return MethodTraits(SF_HOST_NAME("rk4dbl") 5, 11, true,  true,  4.0f, true,  0.5f, 1.0,        1.0,  0.8,  vec3(0.0119f, 6.18e-4f, 5.8e-5f), 0.0778f, true,  1.0f, 0.5f,  0,  0.1333f, 6.459f, 1.56f, 2.0f);
    if (method == kMethodBs32)      return MethodTraits(SF_HOST_NAME("bs32")   3, 3,  true,  true,  2.0f, true,  0.15f, 0.85 / 0.9, 1.0,  0.8,  vec3(0.0348f, 7.32e-3f, 0.0f), 0.2223f, true,  0.0f, 1.0f,  1,  0.3889f, 2.513f, 1.85f, 4.0f);
    if (method == kMethodDp45)      return MethodTraits(SF_HOST_NAME("dp45")   5, 6,  true,  true,  4.0f, true,  0.5f, 1.0,        0.3,  0.8,  vec3(0.0225f, 1.14e-3f, 1.16e-4f), 0.0912f, true,  1.0f, 0.5f,  1,  0.1603f, 3.306f, 5.09f, 1.0f);
    if (method == kMethodTsit5)     return MethodTraits(SF_HOST_NAME("tsit5")  5, 6,  true,  true,  4.0f, true,  0.5f, 0.8,        0.1,  0.8,  vec3(0.0463f, 1.54e-3f, 1.61e-4f), 0.0965f, true,  1.0f, 0.5f,  1,  1.211f,  3.506f, 4.09f, 1.0f);
    return MethodTraits(SF_HOST_NAME("rk4") 4, 3, false, false, 4.0f, false, 0.0f, 1.0, 1.0, 0.8, vec3(0.0417f, 3.09e-3f, 8.69e-4f), 0.1667f, false, 0.0f, 0.0f, 0, 0.0f, 2.785f, 0.0f, 1.0f);
}

// A method whose bound is its steps' own errors (an estimate weight of 0: bs32's)
// accepts on them from its first pass: its embedded estimate is its second-order
// companion's error, O(h³), which held its steps far shorter than its own O(h⁴)
// error needs (docs/error-bound.md, "bs32 accepts on its own error").
SF_SHARED_FUNCTION bool acceptsOnOwnError(MethodTraits method) {
    return method.errorBound && method.boundEstimateWeight == 0.0f;
}

// q of the error a pass accepts on, err/h ∝ h^q: the step rule's exponent is 1/q.
// The bound's own error is a Simpson check, off by O(h⁵) (simpsonCheck), so its q is
// the method's order, at most 4.
SF_SHARED_FUNCTION float stepRuleOrder(MethodTraits method, bool ownError) {
    return ownError ? min(float(method.order), kSimpsonCheckOrder) : method.estimateOrder;
}
