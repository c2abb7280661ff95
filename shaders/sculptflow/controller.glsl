// Step acceptance, the next step size (spec §4) and each vertex's step limit.
// Needs field.glsl and steppers.glsl.
//
// Reads the globals `settings`, `solverMethod`, `tools[]` and `toolCount`.

// What one pass of a vertex works to: the settings' tolerance and step limits, or
// (the checking pass of solverVerify) shares of them.
struct PassControl {
    float tolerance; // accept when err ≤ tolerance·h
    float stepShare; // of hMax and of the step limits
    int attempts;    // the pass's attempt budget
    bool ownError;   // accepts on the bound's error of each step (boundStepError), not the method's estimate
    float startError; // what x0 may be off by (integrateVertex): breakpointStretch's reach
    bool bound;       // carries the error bound (error_growth.glsl): every pass but the checking one
};

// Under solverVerify the default path aims its bound at the share of tol that
// verify trusts a bound with (kVerifyBoundShare), so that the checking pass is
// left the vertices the bound cannot certify, not every one a tol solve ends near tol.
PassControl firstPass() {
    float share = solverVerify ? kVerifyBoundShare : 1.0f;
    bool ownError = acceptsOnOwnError(methodTraits(solverMethod));
    return PassControl(settings.tolerance * share, 1.0f, settings.maxAttempts, ownError, 0.0f, true);
}

// The checking pass works to a share of the tolerance of the default path's last
// pass (`tolerance`: the first's, or a second's aimed at the path's stretch), so
// that its error stays well below the default's however far the flow stretches
// both. Its steps are at most half as long, so it gets twice the attempts.
PassControl checkingPass(float tolerance) {
    return PassControl(tolerance * kVerifyToleranceShare, kVerifyStepShare, 2 * settings.maxAttempts, false, 0.0f, false);
}

// A vertex whose first pass's error bound is over what it may have is solved
// again. The bound is its estimates stretched by the path, about A = bound / sum
// of estimates, and stays so on a second path that ends as near; so the second pass
// holds its estimates' sum, at most its tolerance, to kResolveTarget·allowance/A,
// the allowance being what the requested tolerance leaves after the error carried
// in from earlier segments. (Scaling the first pass's tolerance instead would not
// do where step limits, not the tolerance, set its steps: its estimates were
// already below it.) Its steps are shorter, so it gets twice the attempts.
//
// The second pass holds what the bound adds up (boundStepError), not the estimate
// alone: for bs32, whose bound takes its steps' own errors, a tighter tolerance on
// the estimate left 3–8% of an affine flow's vertices over.
PassControl resolvePass(VertexResult first, float allowance) {
    float stretch = first.errorBound / max(first.estimateSum, 1.0e-30f);
    float tolerance = min(settings.tolerance, kResolveTarget * allowance / stretch);
    return PassControl(tolerance, 1.0f, 2 * settings.maxAttempts, true, 0.0f, true);
}

float passHMax(PassControl pass) {
    return max(settings.hMax * pass.stepShare, settings.hMin);
}

// What a step's error may be: tol·h, and once the pass has accepted a step at h_min
// over that (MIN_STEP_CLAMPED, so the vertex is flagged), also the rounding its
// error carries where that is more: kVelocityRounding·|Δ| times the weights of what
// the pass judges on, the estimate's Σ|b − b̂| or (a pass on its own error) the larger
// of its bound's weighted terms, the Simpson check's weights summing to 2. Below that floor
// the error says nothing of the step's truncation, and a shorter step carries the
// same rounding: held to tol·h alone, the pass stayed at h_min until the attempt cap
// (bs32 and tsit5 at tol 0.003); held to the floor, it finishes the path at the
// steps float resolves. A pass aimed at the stretch divides tol·h by `ahead`, what the path
// ahead may stretch the step's error to (integratePass), but not below the rounding
// measured (kVelocityRoundingMeasured) where tol·h is above it: without it bs32 at
// tol 0.003 flagged 736 of the built-in sphere's vertices (375 at h_min).
float stepAllowance(float h, vec3 increment, PassControl pass, bool clamped, float ahead) {
    MethodTraits method = methodTraits(solverMethod);
    float weights = pass.ownError ? max(method.boundEstimateWeight * method.estimateWeightSum, 2.0f * method.boundCheckWeight)
                                  : method.estimateWeightSum;
    float roundingFloor = clamped ? kVelocityRounding * weights * length(increment)
                                  : min(kVelocityRoundingMeasured * weights * length(increment), pass.tolerance * h);
    return max(pass.tolerance * h / ahead, roundingFloor);
}

bool stepWithinTolerance(float error, float allowed) {
    return error <= allowed; // false for NaN
}

// A step across a kink of an affine flow's falloff: a bound on its error, one on
// what the kink adds to the Simpson check besides (boundStepError), and how far
// into the step (a fraction) it meets its first kink, 1 when it meets none.
struct KinkCrossing {
    float error;
    float checkError;
    float first;
};

// xᵖ for a kink's order p = 1, 2, 3.
float power(float x, int p) {
    return p == 1 ? x : p == 2 ? x * x : x * x * x;
}

// At a kink of order p the p-th derivative of v along the path jumps by
// Δ = [dᵖw/drᵖ]·ṙᵖ·u (u the affine field), and a step that meets it θ into the
// step errs by Δhᵖ⁺¹·E_p(θ), E_p the step's Peano kernel, |E_p(θ)| ≤
// min(kinkError_p, kinkSlope·θᵖ/p!) (methods.glsl), of which the embedded
// estimates and the Simpson check see as little as a hundredth at p = 1 and a
// sixth at p = 2 and 3 (docs/solver.md, "Kinks"). ṙ is the larger of its value at
// the step's start, from k1 = v(x, s), and its mean over the chord from r0 to r1;
// θ is where r crosses the kink's radius on that chord. Simpson's rule errs across
// the kink by Δhᵖ⁺¹·K_p(θ), K_p its Peano kernel, |K_p(θ)| ≤ min(1/24, 1/324,
// 1/1152 for p = 1, 2, 3; min(θ, 1 − θ)ᵖ/(6·p!)), which the check holds beside
// the step's own.
//
// A chord whose ends are both outside the kink's radius may still pass inside
// it, as where a vertex turns with the flow just outside r_in: the stages follow
// the chord, not the path, so it crosses twice, each at the chord's radial
// speed there (seed 21003: 0.2 voxel outside a sharp falloff's r_in, turning
// 0.52 rad a step, dp45 1.37× tol 0.03 unflagged).
void addKinkCrossing(SF_INOUT(KinkCrossing) crossing, MethodTraits method, float jump, float radial, float uh,
                     float theta, int order) {
    float factorial = order == 3 ? 6.0f : float(order);
    float size = jump * power(radial, order) * uh;
    float simpsonMax = order == 1 ? 1.0f / 24.0f : order == 2 ? 1.0f / 324.0f : 1.0f / 1152.0f;
    crossing.error += size * min(method.kinkError[order - 1], method.kinkSlope * power(theta, order) / factorial);
    crossing.checkError += size * min(simpsonMax, power(min(theta, 1.0f - theta), order) / (6.0f * factorial));
    crossing.first = min(crossing.first, theta);
}

KinkCrossing kinkCrossing(vec3 x, float s, vec3 k1, vec3 y, float h) {
    MethodTraits method = methodTraits(solverMethod);
    KinkCrossing crossing = KinkCrossing(0.0f, 0.0f, 1.0f);
    SF_UNROLL for (int i = 0; i < toolCount; ++i) {
        if (toolKind(i) != kToolAffineFlow) continue;
        FalloffKinks kinks = falloffKinks(i);
        if (!(kinks.jump.x > 0.0f) && !(kinks.jump.y > 0.0f)) continue; // a step falloff has none
        vec3 R0 = toolOffset(i, x, s);
        vec3 R1 = toolOffset(i, y, s + h);
        float r0 = length(R0);
        float r1 = length(R1);
        vec3 chord = R1 - R0;
        float chordLength = length(chord);
        float nearest = chordLength > 0.0f ? clamp(-dot(R0, chord) / (chordLength * chordLength), 0.0f, 1.0f) : 0.0f;
        float rNearest = length(R0 + nearest * chord);
        float uh = max(length(affineVelocity(i, R0)), length(affineVelocity(i, R1))) * h;
        for (int k = 0; k < 2; ++k) {
            float radius = kinks.radius[k];
            if (!(kinks.jump[k] > 0.0f) || !(method.kinkError[kinks.order[k] - 1] > 0.0f)) continue;
            if (r0 != r1 && (r0 - radius) * (r1 - radius) <= 0.0f) {
                float startRate = r0 > 0.0f ? abs(dot(R0, k1 - tools[i].translation)) / r0 : 0.0f;
                float radial = max(abs(r1 - r0), startRate * h);
                float theta = clamp((radius - r0) / (r1 - r0), 0.0f, 1.0f);
                addKinkCrossing(crossing, method, kinks.jump[k], radial, uh, theta, kinks.order[k]);
            } else if (r0 > radius && rNearest < radius) {
                // From the nearest point to each crossing; there ṙ·h = |chord|·halfChord/radius.
                float halfChord = sqrt(radius * radius - rNearest * rNearest);
                float radial = halfChord / radius * chordLength;
                for (int side = -1; side <= 1; side += 2) {
                    float theta = clamp(nearest + float(side) * halfChord / chordLength, 0.0f, 1.0f);
                    addKinkCrossing(crossing, method, kinks.jump[k], radial, uh, theta, kinks.order[k]);
                }
            }
        }
    }
    return crossing;
}

// What the step that makes a vertex's (crossings + 1)-th kink crossing may err by.
// A crossing is one event, not a rate, so its error is held to an absolute share
// of the tolerance, tol·B/((n + 1)(n + 2)) for the n-th: however many a vertex
// makes, they add up to at most tol·B, beside the tol·h of every step.
float kinkAllowance(float h, uint crossings, PassControl pass) {
    float n = float(crossings);
    return pass.tolerance * max(h, kKinkBudget / ((n + 1.0f) * (n + 2.0f)));
}

// h_new = h·clamp(safety·(allowed/err)^(1/q), shrinkMin, growMax), kept in [hMin,
// hMax], allowed the step's stepAllowance. A rejected step never grows; a
// non-finite error shrinks as far as allowed.
float nextStepSize(float h, float error, float allowed, bool accepted, PassControl pass) {
    float factor = settings.growMax;
    if (!(error < kHugeError)) {
        factor = settings.shrinkMin;
    } else if (error > 0.0f) {
        factor = settings.safety * pow(allowed / error, 1.0f / stepRuleOrder(methodTraits(solverMethod), pass.ownError));
    }
    float growLimit = accepted ? settings.growMax : 1.0f;
    factor = clamp(factor, settings.shrinkMin, growLimit);
    return clamp(h * factor, settings.hMin, passHMax(pass));
}

// The method table's choice (every adaptive method's now: bs32 took it when it
// came to accept on its own error, whose steps are longer). Fixed per pipeline.
bool usesVertexStepLimit() {
    return methodTraits(solverMethod).vertexStepLimit;
}

// The longest step this vertex may take from x at s, where k1 = v(x, s). Embedded
// estimates only hold for steps short against the time in which the field at the
// vertex changes, which for each Kelvinlet is set by how fast the field varies in
// space, |∂v/∂x|, and by how fast the vertex moves against the tool, |v − d|, in
// radii sqrt(|R|² + ε²) (the second anticipates a tip that is about to pass). That
// limit, a bound and so short, gives way to stepLimitFloor, the whole move's limit,
// but to at most kFloorOverVertexLimit times itself: a move short against its
// tool's field length has a long floor, which a vertex by the tip cannot take.
// Nor past h·rate = the method's stability interval (rate bounds |∂v/∂x|): beyond
// it the step amplifies what it should damp, and its estimate (dp45's 4–55× below
// its error on the long sweep's misses) no longer describes the step.
// Truncated affine tools are smooth in s and set no rate, but the tools acting in
// activeMask hold their summed turn and scale to stepLimitTravel a step, at the
// first step too (`share`, the first step's share of the rest, leaves it whole).
// docs/solver.md (item 4) and docs/error-bound.md have the measurements. An
// affine flow's field changes as its falloff shell passes, which the floor already
// resolves (toolStepLimit), so a vertex within reach of a shell steps no further
// than the floor (affineFlowStepLimit).
//
// The floor bounds each tool's own travel, stepLimitTravel field lengths a step; a
// vertex that another tool carries past a Kelvinlet travels against it faster than
// the Kelvinlet moves. So no step, floor or not, carries a vertex further against
// a Kelvinlet than kKelvinletTravelShare of stepLimitTravel field lengths (half its
// reach at the default), widened to sqrt(|R|² + ℓ²) away from the tool, where the
// field varies over |R|.
float stepLimit(vec3 x, float s, vec3 k1, uint activeMask, PassControl pass, float share) {
    float rate = 0.0f;
    float travel = passHMax(pass);
    float turn = 0.0f;
    bool atFloor = false;
    SF_UNROLL for (int i = 0; i < toolCount; ++i)
        SF_SWITCH_KIND(toolKind(i), StepLimit, (i, x, s, k1, activeMask, pass.stepShare, rate, travel, turn, atFloor))
    float floor = settings.stepLimitFloor * pass.stepShare;
    float own = rate > 0.0f ? pass.stepShare * settings.stepLimitScale / rate : passHMax(pass);
    float stable = methodTraits(solverMethod).stabilityInterval / kVertexStepLimit;
    float limit = max(min(floor, min(kFloorOverVertexLimit, stable) * own), own);
    if (atFloor) limit = floor;
    float turnLimit = turn > 0.0f ? pass.stepShare * settings.stepLimitTravel / turn : passHMax(pass);
    // The travel bound may ask for less than h_min, the step every attempt is
    // guaranteed (spec §4); a step at h_min that misses is flagged as any other.
    return min(max(min(share * min(limit, travel), turnLimit), settings.hMin), passHMax(pass));
}
