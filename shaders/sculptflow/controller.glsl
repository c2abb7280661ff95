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
};

PassControl firstPass() {
    return PassControl(settings.tolerance, 1.0f, solverMaxIterations);
}

// Its steps are at most half as long, so it gets twice the attempts.
PassControl checkingPass() {
    return PassControl(settings.tolerance * kVerifyToleranceShare, kVerifyStepShare, 2 * solverMaxIterations);
}

float passHMax(PassControl pass) {
    return max(settings.hMax * pass.stepShare, settings.hMin);
}

// Accept when the error per unit step is within tolerance: err ≤ tol·h.
bool stepWithinTolerance(float error, float h, float tolerance) {
    return error <= tolerance * h; // false for NaN
}

// h_new = h·clamp(safety·(tol·h/err)^(1/q), shrinkMin, growMax), kept in [hMin, hMax].
// A rejected step never grows; a non-finite error shrinks as far as allowed.
float nextStepSize(float h, float error, bool accepted, PassControl pass) {
    float factor = settings.growMax;
    if (!(error < kHugeError)) {
        factor = settings.shrinkMin;
    } else if (error > 0.0f) {
        factor = settings.safety * pow(pass.tolerance * h / error, 1.0f / methodTraits(solverMethod).estimateOrder);
    }
    float growLimit = accepted ? settings.growMax : 1.0f;
    factor = clamp(factor, settings.shrinkMin, growLimit);
    return clamp(h * factor, settings.hMin, passHMax(pass));
}

// The method table's choice (BS32's work is set by its tolerance, not by a step
// limit: the per-vertex limit left its evaluations unchanged, docs/solver.md, so
// it keeps the whole move's limit, hMax, and pays nothing per attempt). Fixed per pipeline.
bool usesVertexStepLimit() {
    return methodTraits(solverMethod).vertexStepLimit;
}

// The longest step this vertex may take from x at s, where k1 = v(x, s). Embedded
// estimates only hold for steps short against the time in which the field at the
// vertex changes, which for each Kelvinlet is set by how fast the field varies in
// space, |∂v/∂x|, and by how fast the vertex moves against the tool, |v − d|, in
// radii sqrt(|R|² + ε²) (the second anticipates a tip that is about to pass). The
// limit is never below stepLimitFloor, the whole move's limit that holds for every
// vertex; truncated affine tools are smooth in s and set none (a Kelvinlet acts in every
// segment, so no mask is read). docs/solver.md has the measurements. An affine
// flow's field changes as its falloff shell passes, which the floor already
// resolves (toolStepLimit), so with one no vertex steps past the floor.
float stepLimit(vec3 x, float s, vec3 k1, PassControl pass) {
    float rate = 0.0f;
    bool flows = false;
    for (int i = 0; i < toolCount; ++i) {
        if (toolIsAffineFlow(i)) {
            flows = true;
        } else if (!toolIsAffine(i)) {
            vec3 R = toolOffset(i, x, s);
            float eps = tools[i].outerRadius;
            float approach = length(k1 - tools[i].translation) * inversesqrt(dot(R, R) + eps * eps);
            rate += kelvinletGradient(i, R) + 3.0f * approach;
        }
    }
    float floor = settings.stepLimitFloor * pass.stepShare;
    float limit = rate > 0.0f ? max(floor, pass.stepShare * settings.stepLimitScale / rate) : passHMax(pass);
    if (flows) limit = floor;
    return min(limit, passHMax(pass));
}
