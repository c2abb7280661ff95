// The bounded per-vertex driver (spec §4): breakpoints, adaptive attempts, and
// the guarantees that make a dispatch's cost known in advance.
//
// Reads the globals `settings` (its maxAttempts bounds the loop), `solverMethod` and
// `computeVolumeChange` (fixed per pipeline). Needs field.glsl, steppers.glsl,
// controller.glsl and volume_change.glsl.

bool allFinite(vec3 v) {
    return !any(isnan(v)) && !any(isinf(v));
}

// The first tool end after s, and the tools that act until then. False when every
// tool has ended. The right-hand side jumps at each end (spec §3.3), so no step
// may cross one.
bool nextSegment(float s, float ends[SF_MAX_TOOLS], SF_OUT(float) segmentEnd, SF_OUT(uint) mask) {
    segmentEnd = 2.0f;
    mask = 0u;
    for (int i = 0; i < toolCount; ++i) {
        if (ends[i] > s) {
            segmentEnd = min(segmentEnd, ends[i]);
            mask |= 1u << uint(i);
        }
    }
    return mask != 0u;
}

// A step this close to the rest of a segment finishes it, rather than leaving a sliver.
bool stepReachesEnd(float h, float remaining) {
    return h >= remaining * 0.9999f;
}

// One pass of dx/ds = v(x, s) for the vertex that starts at x0. The loop makes at
// most pass.attempts attempts; whatever remains is then finished with one RK4
// step per segment, so a pass costs at most
// pass.attempts × (evaluations per attempt) + 4 × segments evaluations.
VertexResult integratePass(vec3 x0, PassControl pass) {
    VertexResult result;
    result.position = x0;
    result.flags = 0u;
    result.acceptedSteps = 0u;
    result.rejectedSteps = 0u;
    result.evaluations = 0u;
    result.volumeChange = 1.0f;
    result.errorBound = 0.0f;
    result.estimateSum = 0.0f;
    result.growth = 1.0f;
    if (!allFinite(x0)) {
        result.flags = kFlagNonFinite;
        return result;
    }
    if (outOfReach(x0, settings.tolerance)) {
        result.flags = kFlagCulled;
        return result;
    }

    float ends[SF_MAX_TOOLS];
    for (int i = 0; i < SF_MAX_TOOLS; ++i) ends[i] = i < toolCount ? toolEnd(i, x0) : 0.0f;
    float s = 0.0f;
    // Summed compensated, as the position is (stepEnd): in steps of one length the
    // rounding of s drifts one way, and the tool's position o(s) with it, which a
    // vertex that rides with the tool sees as an error in its own position.
    float sLow = 0.0f;
    float segmentEnd;
    uint mask;
    bool running = nextSegment(s, ends, segmentEnd, mask);
    // Without breakpoints the move is one segment: every k1 after the first then
    // comes from an FSAL step, and the evaluations below fold away on the GPU.
    bool breakpoints = hasBreakpoints();
    float logVolume = 0.0f;     // without breakpoints
    mat3 jacobian = mat3(1.0f); // with them
    float phaseStart = 0.0f;
    vec3 x = x0;
    vec3 xLow = vec3(0.0f); // what x's sums rounded off (stepEnd)
    vec3 k1 = vec3(0.0f);
    uint kinkCrossings = 0u;
    if (running) {
        k1 = velocity(x, s, mask);
        result.evaluations += 1u;
    }
    MethodTraits method = methodTraits(solverMethod);
    bool fixedStepMethod = !method.adaptive;
    // The error bound (error_growth.glsl): what the accepted steps' errors grow to
    // by s, each step's own added once μ at its end is known (the next attempt's
    // top), the growth over a step taken at the larger μ of its two ends.
    bool bounds = method.errorBound && pass.bound;
    bool growthStale = bounds;
    float growthRate = 0.0f;
    float pendingError = 0.0f;
    float pendingOwnCheck = 0.0f; // pendingError's own-error check, before ownErrorOfCheck
    float pendingStep = 0.0f;
    float pendingStretch = 0.0f; // the accepted step's breakpointStretch, added after its growth
    float h = fixedStepMethod ? segmentEnd / float(max(settings.fixedSteps, 1))
                         : clamp(settings.h0, settings.hMin, passHMax(pass));
    if (usesVertexStepLimit() && running) h = min(h, stepLimit(x, s, k1, mask, pass, method.firstStepOfVertexLimit));

    // k1 = v(x, s) holds at the top of every attempt; a rejected attempt keeps it.
    for (int attempt = 0; attempt < pass.attempts && running; ++attempt) {
        if (growthStale) {
            float reach = result.growth * pass.startError + result.errorBound + pendingError;
            float rate = logarithmicNorm(x, s, mask, reach);
            float stepRate = max(growthRate, rate);
            float stepGrowth = exp(pendingStep * stepRate);
            pendingError += ownErrorOfCheck(pendingOwnCheck, pendingStep, stepRate) - pendingOwnCheck;
            result.errorBound = result.errorBound * stepGrowth + pendingError;
            result.growth = result.growth * stepGrowth + pendingStretch;
            growthRate = rate;
            growthStale = false;
            pendingError = 0.0f;
            pendingOwnCheck = 0.0f;
            pendingStep = 0.0f;
            pendingStretch = 0.0f;
        }
        if (usesVertexStepLimit()) h = min(h, stepLimit(x, s, k1, mask, pass, 1.0f));
        // The bound's step term bounds a step's error on y' = μy only up to hμ =
        // growthInterval (methods.glsl); past it rk4dbl's Richardson estimate falls
        // short of a growing flow's error, 1.22× at hμ = 1.81. μ is the start's.
        if (bounds && growthRate > 0.0f) h = min(h, max(method.growthInterval / growthRate, settings.hMin));
        float remaining = segmentEnd - s;
        bool reachesEnd = stepReachesEnd(h, remaining);
        float hStep = reachesEnd ? remaining : h;
        StepResult step = attemptStep(solverMethod, x, xLow, s, hStep, k1, mask);
        result.evaluations += uint(method.evaluations);
        bool finiteStep = allFinite(step.y);
        // Across a kink the estimate holds the kink's part too, which kink.error bounds
        // and kinkAllowance judges: the rest is held to stepAllowance as everywhere else.
        KinkCrossing kink = method.adaptive && finiteStep ? kinkCrossing(x, s, k1, step.y, hStep) : KinkCrossing(0.0f, 0.0f, 1.0f);
        // The bound's error of the step, its kink's part aside (boundStepError): after
        // acceptance, or (pass.ownError) before, to accept on.
        bool checked = bounds && finiteStep;
        float boundError = 0.0f;
        if (checked && pass.ownError) {
            boundError = boundStepError(method, x, s, hStep, k1, step, kink.error, kink.checkError, mask);
            result.evaluations += uint(method.boundEvaluations);
        }
        // A bound of the check alone (an estimate weight of 0: bs32's) is the step's
        // own error (ownErrorOfCheck): accepted on at the start's μ, added to the
        // bound at the larger of its ends' (above).
        bool ownCheck = method.boundEstimateWeight == 0.0f;
        float ownError = ownCheck ? ownErrorOfCheck(boundError, hStep, growthRate) : boundError;
        float error = !finiteStep ? kHugeError : pass.ownError ? ownError : max(step.error - kink.error, 0.0f);
        float allowance = kinkAllowance(hStep, kinkCrossings, pass);
        // The bound stretches this step's error by exp(∫μ) to the path's end: a first
        // pass that held each step to tol·h left a vertex near a stretching tip over
        // its bound, to be solved again (rk4dbl: 18% of test0's sphere). It aims the
        // step at that stretch instead, taking μ as it is now, at most stretchAhead.
        // A method that accepts on its own error does so in its second pass too, whose
        // aim (resolvePass) is the stretch its first measured over steps so weighted.
        bool aims = !pass.ownError || acceptsOnOwnError(method);
        float ahead = bounds && aims && method.stretchAhead > 1.0f ? min(exp(max(growthRate, 0.0f) * (1.0f - s)), method.stretchAhead) : 1.0f;
        float allowedError = stepAllowance(hStep, step.increment, pass, (result.flags & kFlagMinStepClamped) != 0u, ahead);
        bool withinTolerance = stepWithinTolerance(error, allowedError) && kink.error <= allowance;
        // At h_min a step that reaches the segment's end is its rest, which the
        // rounding of s can leave a hair over h_min: it is at the minimum all the same.
        bool atMinimum = hStep <= settings.hMin || h <= settings.hMin;
        if (withinTolerance || (atMinimum && finiteStep)) {
            // A sliver before a breakpoint is shorter than h_min by construction and its
            // estimate is float rounding: only a step clamped at h_min is flagged.
            if (!withinTolerance && hStep >= settings.hMin) result.flags |= kFlagMinStepClamped;
            result.acceptedSteps += 1u;
            if (kink.error > 0.0f) kinkCrossings += 1u;
            if (checked && !pass.ownError) {
                boundError = boundStepError(method, x, s, hStep, k1, step, kink.error, kink.checkError, mask);
                result.evaluations += uint(method.boundEvaluations);
            }
            pendingError = (checked ? boundError : error) + kink.error;
            pendingOwnCheck = checked && ownCheck ? boundError : 0.0f;
            pendingStep = hStep;
            result.estimateSum += pendingError;
            growthStale = bounds;
            if (bounds && breakpoints && reachesEnd)
                pendingStretch = breakpointStretch(mask, segmentEnd, step.y, x0, pass.startError, ends);
            if (computeVolumeChange && breakpoints && reachesEnd) {
                jacobian = crossAffineBreakpoint(jacobian, mask, phaseStart, segmentEnd, step.y, x0, ends);
                phaseStart = segmentEnd;
            } else if (computeVolumeChange && !breakpoints) {
                vec3 kEnd = step.kEnd;
                if (!method.fsal) {
                    kEnd = velocity(step.y, s + hStep, mask);
                    result.evaluations += 1u;
                }
                logVolume += stepLogVolumeChange(x, s, k1, step.y, hStep, kEnd);
            }
            x = step.y;
            xLow = step.yLow;
            if (reachesEnd) {
                s = segmentEnd;
                sLow = 0.0f;
                running = nextSegment(s, ends, segmentEnd, mask);
                if (fixedStepMethod) h = (segmentEnd - s) / float(max(settings.fixedSteps, 1));
            } else {
                addCompensated(s, sLow, hStep);
            }
            // The field jumps at a breakpoint, so k1 is evaluated afresh there.
            if (running && (!method.fsal || (breakpoints && reachesEnd))) {
                k1 = velocity(x, s, mask);
                result.evaluations += 1u;
            } else {
                k1 = step.kEnd;
            }
        } else if (atMinimum || (fixedStepMethod && !finiteStep)) {
            // Not finite even at the smallest step, or at a fixed step that will not shrink.
            result.flags |= kFlagNonFinite;
            return result;
        } else {
            result.rejectedSteps += 1u;
        }
        if (!fixedStepMethod) h = nextStepSize(hStep, error, allowedError, withinTolerance, pass);
        // Land just short of the kink: the next step meets it at θ ≈ 0, where its error
        // (kinkSlope·θᵖ/p!·|Δ|hᵖ⁺¹) vanishes, rather than shrinking every step about it. A kink
        // nearer than h_min is landed on by a sliver (a step of h_min would meet it anywhere
        // up to θ = 1, and be flagged), at least a hundredth of h_min, which leaves the next
        // step that share of the way; a sliver is always followed by h_min, so the pass
        // still advances h_min every two attempts.
        if (kink.error > allowance) {
            float shortest = hStep < settings.hMin ? settings.hMin : (1.0f - kKinkLanding) * settings.hMin;
            h = max(min(h, kKinkLanding * kink.first * hStep), shortest);
        }
    }

    // The last step grows at its start's μ (its end's would cost a Jacobian more).
    float lastGrowth = exp(pendingStep * growthRate);
    pendingError += ownErrorOfCheck(pendingOwnCheck, pendingStep, growthRate) - pendingOwnCheck;
    result.errorBound = result.errorBound * lastGrowth + pendingError;
    result.growth = result.growth * lastGrowth + pendingStretch;

    // Budget spent: one classic RK4 step over each remaining segment (at most
    // one a tool end).
    for (int segment = 0; segment < toolCount && running; ++segment) {
        result.flags |= kFlagIterationCap;
        StepResult step = stepRk4(x, xLow, s, segmentEnd - s, k1, mask);
        result.evaluations += uint(methodTraits(kMethodRk4).evaluations);
        if (computeVolumeChange && breakpoints) {
            jacobian = crossAffineBreakpoint(jacobian, mask, phaseStart, segmentEnd, step.y, x0, ends);
            phaseStart = segmentEnd;
        } else if (computeVolumeChange) {
            logVolume += stepLogVolumeChange(x, s, k1, step.y, segmentEnd - s, velocity(step.y, segmentEnd, mask));
            result.evaluations += 1u;
        }
        x = step.y;
        xLow = step.yLow;
        s = segmentEnd;
        running = nextSegment(s, ends, segmentEnd, mask);
        if (breakpoints && running) {
            k1 = velocity(x, s, mask);
            result.evaluations += 1u;
        }
    }

    x += xLow;
    if (!allFinite(x)) {
        result.flags |= kFlagNonFinite;
        return result;
    }
    result.position = x;
    if (computeVolumeChange) {
        result.volumeChange = breakpoints ? determinant(jacobian) : exp(logVolume);
        if (!(result.volumeChange > 0.0f)) result.flags |= kFlagFolded;
    }
    return result;
}

// Under solverVerify: an unflagged vertex whose bound leaves less than
// kVerifyBoundShare of the tolerance unused, or that has none. A flagged one stays
// flagged: where the bound is over tol after the second pass the flow stretches
// even the passes' rounding past it (seed 24445's vertex 5, 284×: every pass, at
// any tolerance and step, ends 0.7–1.1 tol off), and two passes can agree there.
bool needsChecking(VertexResult r) {
    bool sure = r.errorBound >= 0.0f && r.errorBound <= kVerifyBoundShare * settings.requestedTolerance;
    return solverVerify && r.flags == 0u && !sure;
}

// Whether a checking pass's agreement with the default path can tell: the
// rounding both share, a few roundings of x0 (kStartRounding of its largest
// coordinate) stretched by the default path's growth, must stay within what
// agreement tells apart (kVerifyAgreementShare of tol). Beyond it two passes that
// agree may both be off (seed 24445's vertex 84: growth 686, checked, agreed, 0.92
// tol off at tol 0.01). Growth is a bound (exp ∫μ), often far over the stretch, so
// what the bound certifies is not held to it: on seed 194 that flagged 26 more of
// 552 vertices at tol 0.1 (dp45).
bool agreementTells(vec3 x0, float growth) {
    float size = max(max(abs(x0.x), abs(x0.y)), max(abs(x0.z), 1.0f));
    return growth * kStartRounding * size <= kVerifyAgreementShare * settings.requestedTolerance; // false for NaN
}

// Integrates the vertex that starts at x0 (spec §4). It is solved once, and again
// where the first pass's error bound (its estimates carried to the end by the
// flow's stretch) is over the requested tolerance: the second pass is aimed at the
// stretch the first measured (resolvePass), and where its own bound is still over,
// the vertex is flagged UNVERIFIED. A flagged first pass (the attempt cap, h_min)
// is not solved again, nor is a vertex of a method without a bound (rk4: methods.glsl).
//
// With solverVerify the default path aims its bound at kVerifyBoundShare of the
// tolerance (firstPass, `aim`), the share it trusts a bound to, and a vertex whose
// bound is still over it after the second pass, or that has no bound, is checked
// (needsChecking): a checking pass from x0 at an eighth of the default path's last
// tolerance and half the steps, whose position is the result. Where its final
// error is at most 2/3 of the default path's it is within 2·|default − checking|
// of the exact end, so the vertex is flagged UNVERIFIED where the two end more
// than kVerifyAgreementShare of the tolerance (tol/2) apart, or where the rounding
// they share is as large (agreementTells; docs/accuracy-sweep.md, "The checking
// pass on the error bound"). The passes are a loop around one call:
// more calls would inline integratePass into every pipeline as often, and drivers
// would compile each (lavapipe took twice as long to build each pipeline with two).
//
// `carried` is the bound on the error x0 already has (continuous mode: the earlier
// segments'; 0 for a move), which the path stretches as it does its own. The
// result's errorBound is the bound on its position's error, kBoundLost where the
// vertex is not certified by it (a flag, a checked vertex) or `carried` was.
VertexResult integrateVertex(vec3 x0, float carried) {
    VertexResult first;  // the default path's result: its first pass, or its second
    VertexResult result;
    bool bounds = methodTraits(solverMethod).errorBound && carried >= 0.0f;
    // What the default path's bound is aimed at: tol, or under verify the share of
    // it that needsChecking trusts; the second pass solves what the first leaves over.
    float aim = solverVerify ? kVerifyBoundShare * settings.requestedTolerance : settings.requestedTolerance;
    float allowance = aim; // for this path's own error
    float defaultTolerance = settings.tolerance;   // what the default path's last pass worked to
    for (int pass = 0; pass < kPassesAtMost; ++pass) {
        bool checking = pass == kCheckingPass;
        PassControl control = checking ? checkingPass(defaultTolerance) : pass == 1 ? resolvePass(first, allowance) : firstPass();
        control.startError = max(carried, 0.0f);
        if (!checking) defaultTolerance = control.tolerance;
        result = integratePass(x0, control);
        // The error x0 brings, as this path stretches it (0·∞ would be NaN).
        float carriedIn = carried > 0.0f ? result.growth * carried : 0.0f;
        if (pass == 0) {
            first = result;
            if ((first.flags & (kFlagCulled | kFlagNonFinite)) != 0u) {
                first.position = x0; // not moved, or (non-finite) the input
                // A culled vertex keeps its bound: its own neglected motion is the
                // cull's (spec §4 item 5), and a compacted dispatch never reaches it here.
                first.errorBound = (first.flags & kFlagNonFinite) == 0u ? carried : kBoundLost;
                return first;
            }
            if (!bounds || first.flags != 0u) {
                if (carried < 0.0f || first.flags != 0u) first.errorBound = kBoundLost;
                if (!solverVerify || first.flags != 0u) return first;
                pass = kCheckingPass - 1;
            } else if (first.errorBound + carriedIn <= aim) {
                first.errorBound += carriedIn;
                if (!needsChecking(first)) return first;
                pass = kCheckingPass - 1;
            } else {
                allowance = aim - carriedIn;
                if (!(allowance > 0.0f)) { // the carried error alone is over: no path can certify it
                    if (solverVerify && first.errorBound + carriedIn <= settings.requestedTolerance) {
                        first.errorBound += carriedIn; // but a checking pass may
                        pass = kCheckingPass - 1;
                        continue;
                    }
                    first.flags |= kFlagUnverified;
                    first.errorBound = kBoundLost;
                    return first;
                }
            }
        } else if (!checking) {
            result.acceptedSteps += first.acceptedSteps;
            result.rejectedSteps += first.rejectedSteps;
            result.evaluations += first.evaluations;
            result.errorBound += carriedIn;
            if ((result.flags & kFlagNonFinite) == 0u && !(result.errorBound <= settings.requestedTolerance))
                result.flags |= kFlagUnverified;
            if (result.flags != 0u) result.errorBound = kBoundLost;
            if (!needsChecking(result)) return result;
            first = result;
        }
    }
    result.flags |= first.flags;
    result.acceptedSteps += first.acceptedSteps;
    result.rejectedSteps += first.rejectedSteps;
    result.evaluations += first.evaluations;
    result.errorBound = kBoundLost;
    bool agree = distance(first.position, result.position) <= kVerifyAgreementShare * settings.requestedTolerance
              && agreementTells(x0, first.growth);
    if ((result.flags & kFlagNonFinite) == 0u && !agree) result.flags |= kFlagUnverified; // !agree for NaN too
    return result;
}

// A vertex with mask value m (spec §3.5): x0 + m·(x(1) − x0). m = 0 (or NaN) is
// not integrated and keeps x0 exactly, flagged CULLED; m ≥ 1 is the unmasked
// result bit for bit. A masked error is m times the unmasked one, plus (1 − m)
// times x0's own; the volume change reported is the unmasked move's.
VertexResult integrateMaskedVertex(vec3 x0, float m, float carried) {
    if (!(m > 0.0f)) {
        VertexResult frozen;
        frozen.position = x0;
        frozen.flags = kFlagCulled;
        frozen.acceptedSteps = 0u;
        frozen.rejectedSteps = 0u;
        frozen.evaluations = 0u;
        frozen.volumeChange = 1.0f;
        frozen.errorBound = carried;
        frozen.estimateSum = 0.0f;
        frozen.growth = 1.0f;
        return frozen;
    }
    VertexResult result = integrateVertex(x0, carried);
    if (m < 1.0f && (result.flags & kFlagNonFinite) == 0u) {
        result.position = x0 + m * (result.position - x0);
        if (result.errorBound >= 0.0f) result.errorBound = m * result.errorBound + (1.0f - m) * carried;
    }
    return result;
}
