// One Runge–Kutta step of each method, with its error estimate (spec §4).
//
// Every stepper takes k1 = v(y, s) from the caller, so that a rejected attempt
// and an FSAL method reuse it. How many evaluations a step makes, and whether its
// last is the next k1 (FSAL), is the method table's (methods.glsl). Needs field.glsl.

struct StepResult {
    vec3 y;         // the advanced state: the higher-order solution (local extrapolation)
    vec3 yLow;      // what y's sum rounded off (stepEnd)
    vec3 increment; // y minus the step's start, without the rounding of |y|
    float error; // |error estimate| in voxels
    vec3 kEnd;   // v(y, s + h), for an FSAL method
    vec3 kMid;   // v at the step's midpoint, where the stepper has one (rk4dbl): the bound's check
};

// x += increment, with what the sum rounds off kept in low and added back with
// the next increment (Knuth's two-sum): x + low carries x to about twice float's
// precision (docs/solver.md, "Compensated sums"). `precise` keeps a shader compiler
// from reassociating the sums (SF_PRECISE). One body for positions and for s.
#define SF_ADD_COMPENSATED(T)                                                    \
    void addCompensated(SF_INOUT(T) x, SF_INOUT(T) low, T increment) {           \
        SF_PRECISE T added = increment + low;                                    \
        SF_PRECISE T sum = x + added;                                            \
        SF_PRECISE T addedPart = sum - x;                                        \
        low = (x - (sum - addedPart)) + (added - addedPart);                     \
        x = sum;                                                                 \
    }
SF_ADD_COMPENSATED(vec3)
SF_ADD_COMPENSATED(float)
#undef SF_ADD_COMPENSATED

// The step's end y + yLow + increment, summed compensated: a vertex that a tool
// carries 250 voxels rounds by up to 1.5e-5 voxel a step, which a flow that
// stretches its start hundreds of times makes visible. An FSAL stage is evaluated
// at this end, so that it is the next step's k1 at its start.
void stepEnd(vec3 y, vec3 yLow, vec3 increment, SF_INOUT(StepResult) r) {
    r.y = y;
    r.yLow = yLow;
    addCompensated(r.y, r.yLow, increment);
    r.increment = increment;
}

// Classic RK4's increment y(s + h) − y(s): three evaluations.
vec3 rk4Increment(vec3 y, float s, float h, vec3 k1, uint mask) {
    vec3 k2 = velocity(y + (0.5f * h) * k1, s + 0.5f * h, mask);
    vec3 k3 = velocity(y + (0.5f * h) * k2, s + 0.5f * h, mask);
    vec3 k4 = velocity(y + h * k3, s + h, mask);
    return (h / 6.0f) * (k1 + 2.0f * (k2 + k3) + k4);
}

// Classic RK4.
StepResult stepRk4(vec3 y, vec3 yLow, float s, float h, vec3 k1, uint mask) {
    StepResult r;
    stepEnd(y, yLow, rk4Increment(y, s, h, k1, mask), r);
    r.error = 0.0f;
    r.kEnd = vec3(0.0f);
    r.kMid = vec3(0.0f);
    return r;
}

// Step doubling: one RK4 step of h against two of h/2, which share k1. The two
// half steps are 16× more accurate than the full one, so the half-step result's
// error is |y_h/2 − y_h|/15, and y_h/2 + (y_h/2 − y_h)/15 is fifth order. The
// difference is taken between increments, not states: states carry the rounding
// of |y| (6e-5 voxel at 1000 voxels), which at continuous mode's small
// per-segment tolerances outgrew tol·h and clamped steps at h_min.
// It ends with v at the step's end (first same as last), which the error bound's
// check needs and the next step's k1 is.
StepResult stepRk4Double(vec3 y, vec3 yLow, float s, float h, vec3 k1, uint mask) {
    vec3 full = rk4Increment(y, s, h, k1, mask);
    vec3 half1 = rk4Increment(y, s, 0.5f * h, k1, mask);
    vec3 yMid = y + half1;
    vec3 kMid = velocity(yMid, s + 0.5f * h, mask);
    vec3 halves = half1 + rk4Increment(yMid, s + 0.5f * h, 0.5f * h, kMid, mask);
    vec3 diff = (halves - full) / 15.0f;
    StepResult r;
    stepEnd(y, yLow, halves + diff, r);
    r.error = length(diff);
    r.kEnd = velocity(r.y, s + h, mask);
    r.kMid = kMid;
    return r;
}

// Bogacki–Shampine 3(2), first same as last: k4 is the next step's k1.
StepResult stepBs32(vec3 y, vec3 yLow, float s, float h, vec3 k1, uint mask) {
    vec3 k2 = velocity(y + (0.5f * h) * k1, s + 0.5f * h, mask);
    vec3 k3 = velocity(y + (0.75f * h) * k2, s + 0.75f * h, mask);
    StepResult r;
    stepEnd(y, yLow, h * ((2.0f / 9.0f) * k1 + (1.0f / 3.0f) * k2 + (4.0f / 9.0f) * k3), r);
    vec3 k4 = velocity(r.y, s + h, mask);
    // y3 − y2 with y2 = y + h(7/24 k1 + 1/4 k2 + 1/3 k3 + 1/8 k4).
    vec3 e = (-5.0f / 72.0f) * k1 + (1.0f / 12.0f) * k2 + (1.0f / 9.0f) * k3 - 0.125f * k4;
    r.error = h * length(e);
    r.kEnd = k4;
    r.kMid = vec3(0.0f);
    return r;
}

// Dormand–Prince 5(4) (Dormand & Prince 1980), first same as last: k7 is the next k1.
StepResult stepDp45(vec3 y, vec3 yLow, float s, float h, vec3 k1, uint mask) {
    vec3 k2 = velocity(y + h * (0.2f * k1), s + 0.2f * h, mask);
    vec3 k3 = velocity(y + h * ((3.0f / 40.0f) * k1 + (9.0f / 40.0f) * k2), s + 0.3f * h, mask);
    vec3 k4 = velocity(y + h * ((44.0f / 45.0f) * k1 - (56.0f / 15.0f) * k2 + (32.0f / 9.0f) * k3),
                       s + 0.8f * h, mask);
    vec3 k5 = velocity(y + h * ((19372.0f / 6561.0f) * k1 - (25360.0f / 2187.0f) * k2
                                + (64448.0f / 6561.0f) * k3 - (212.0f / 729.0f) * k4),
                       s + (8.0f / 9.0f) * h, mask);
    vec3 k6 = velocity(y + h * ((9017.0f / 3168.0f) * k1 - (355.0f / 33.0f) * k2
                                + (46732.0f / 5247.0f) * k3 + (49.0f / 176.0f) * k4
                                - (5103.0f / 18656.0f) * k5),
                       s + h, mask);
    StepResult r;
    stepEnd(y, yLow, h * ((35.0f / 384.0f) * k1 + (500.0f / 1113.0f) * k3 + (125.0f / 192.0f) * k4
                          - (2187.0f / 6784.0f) * k5 + (11.0f / 84.0f) * k6), r);
    vec3 k7 = velocity(r.y, s + h, mask);
    // y5 − y4: the fifth-order weights minus the embedded fourth-order ones.
    vec3 e = (71.0f / 57600.0f) * k1 - (71.0f / 16695.0f) * k3 + (71.0f / 1920.0f) * k4
           - (17253.0f / 339200.0f) * k5 + (22.0f / 525.0f) * k6 - (1.0f / 40.0f) * k7;
    r.error = h * length(e);
    r.kEnd = k7;
    r.kMid = vec3(0.0f);
    return r;
}

// Tsitouras 5(4) (Ch. Tsitouras, "Runge–Kutta pairs of order 5(4) satisfying only
// the first column simplifying assumption", Comput. Math. Appl. 62 (2011), Table 1),
// first same as last: its fifth-order weights are the seventh stage's row, so k7
// is v(y5, s + h) and the next step's k1. Smaller error constants than
// Dormand–Prince at the same six evaluations per step.
//
// Its rows mix the stages with large weights of both signs (|a₆₂| ≈ 13) and its
// estimate's weights sum to 1.2 (dp45's: 0.16), so in float the rounding of
// Σ aᵢⱼkⱼ and of Σ b̃ⱼkⱼ swamped the estimate at small tolerances, and the GPU and
// the CPU accepted different steps. Each row is therefore written in the stage
// differences dⱼ = kⱼ − k₁ (a row's weights sum to cᵢ, the estimate's to 0):
// the terms are then as small as the differences, and so is their rounding.
StepResult stepTsit5(vec3 y, vec3 yLow, float s, float h, vec3 k1, uint mask) {
    vec3 d2 = velocityNear(y, h * (0.161f * k1), s + 0.161f * h, mask) - k1;
    vec3 d3 = velocityNear(y, h * (0.327f * k1 + 0.335480655492357f * d2), s + 0.327f * h, mask) - k1;
    vec3 d4 = velocityNear(y, h * (0.9f * k1 - 6.359448489975075f * d2 + 4.3622954328695815f * d3),
                           s + 0.9f * h, mask) - k1;
    vec3 d5 = velocityNear(y, h * (0.9800255409045097f * k1 - 11.748883564062828f * d2
                                    + 7.4955393428898365f * d3 - 0.09249506636175525f * d4),
                           s + 0.9800255409045097f * h, mask) - k1;
    vec3 d6 = velocityNear(y, h * (k1 - 12.92096931784711f * d2 + 8.159367898576159f * d3
                                    - 0.071584973281401f * d4 - 0.028269050394068383f * d5),
                           s + h, mask) - k1;
    StepResult r;
    stepEnd(y, yLow, h * (k1 + 0.01f * d2 + 0.4798896504144996f * d3 + 1.379008574103742f * d4
                          - 3.290069515436081f * d5 + 2.324710524099774f * d6), r);
    vec3 k7 = velocity(r.y, s + h, mask);
    // y5 − y4: the fifth-order weights minus the embedded fourth-order ones.
    vec3 e = -0.0008164344596567469f * d2 + 0.007880878010261995f * d3 - 0.1447110071732629f * d4
           + 0.5823571654525552f * d5 - 0.45808210592918697f * d6 + (1.0f / 66.0f) * (k7 - k1);
    r.error = h * length(e);
    r.kEnd = k7;
    r.kMid = vec3(0.0f);
    return r;
}

// Simpson's rule of v along the step, (h/6)(k1 + 4v(mid) + kEnd), against the
// step's increment: the error bound's check on an accepted step (methods.glsl,
// boundCheckWeight). The midpoint is the stepper's own where it has one (rk4dbl's
// half step), else the cubic Hermite interpolant u of (y, k1) and (y + increment,
// kEnd) at ½, one evaluation. From stages accurate to O(h⁴) the rule is one
// fixed-point sweep of three-stage Lobatto IIIA (order 4), off the exact
// increment by O(h⁵): for bs32 (third order) the difference is the step's own
// error to leading order; for the fifth-order methods it is of their estimate's
// order, O(h⁵), but from a point the estimate never sampled, so it still sees a
// step that passed over a change of the field when the estimate does not.
float simpsonCheck(vec3 y, float s, float h, vec3 k1, StepResult step, bool stepperMidpoint, uint mask) {
    vec3 kMid = step.kMid;
    if (!stepperMidpoint) {
        vec3 midOffset = 0.5f * step.increment + (0.125f * h) * (k1 - step.kEnd);
        kMid = velocityNear(y, midOffset, s + 0.5f * h, mask);
    }
    return length(step.increment - (h / 6.0f) * (k1 + 4.0f * kMid + step.kEnd));
}

// The step's own error from a Simpson check of it (bs32's bound). The rule takes
// kEnd and its midpoint from the step's end y + e, so to leading order it is off by
// (h/6)(2J_mid + J_end)e, J the field's Jacobian: −(hJ/2)e. The rule's own
// quadrature error adds −(hJ/30)e on a linear field: the Hermite midpoint's
// h⁴y⁽⁴⁾/384 weighted 4h/6, less Simpson's h⁵y⁽⁵⁾/2880, against e = h⁴y⁽⁴⁾/24.
// So the check sees (I − 8hJ/15)e, and |(I − 8hJ/15)e| ≥ (1 − 8hμ/15)|e| with μ
// the logarithmic norm: |e| ≤ check/(1 − 8hμ/15) where μ ≥ 0 (a contraction is
// not credited); past hμ = 1.4 the leading order is no guide, and the factor
// stops at 4. (With 1/2 alone the bound was up to 0.5% short on linear fields at
// hμ = 0.02–0.3, as on seed 21892's mirrored affine tools: docs/error-bound.md.)
float ownErrorOfCheck(float check, float h, float rate) {
    return check / max(1.0f - (8.0f / 15.0f) * h * max(rate, 0.0f), 0.25f);
}

// What the error bound adds up for an accepted step, but for a kink's part: the
// larger of the method's estimate and its Simpson check, each by its weight in
// the method table, less what a kink crossed puts in each (kinkError bounds the
// step's, checkKinkError Simpson's rule's on top).
float boundStepError(MethodTraits method, vec3 y, float s, float h, vec3 k1, StepResult step,
                     float kinkError, float checkKinkError, uint mask) {
    float check = simpsonCheck(y, s, h, k1, step, method.boundEvaluations == 0, mask);
    return max(method.boundEstimateWeight * max(step.error - kinkError, 0.0f),
               method.boundCheckWeight * max(check - kinkError - checkKinkError, 0.0f));
}

// One step from y + yLow (stepEnd).
StepResult attemptStep(int method, vec3 y, vec3 yLow, float s, float h, vec3 k1, uint mask) {
    if (method == kMethodRk4Double) return stepRk4Double(y, yLow, s, h, k1, mask);
    if (method == kMethodDp45) return stepDp45(y, yLow, s, h, k1, mask);
    if (method == kMethodBs32) return stepBs32(y, yLow, s, h, k1, mask);
    if (method == kMethodTsit5) return stepTsit5(y, yLow, s, h, k1, mask);
    return stepRk4(y, yLow, s, h, k1, mask);
}

// One step from y itself.
StepResult attemptStep(int method, vec3 y, float s, float h, vec3 k1, uint mask) {
    return attemptStep(method, y, vec3(0.0f), s, h, k1, mask);
}
