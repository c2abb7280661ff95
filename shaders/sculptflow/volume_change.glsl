// Each vertex's volume change J = det(∂x/∂x0) of the end map, a debug output
// (computeVolumeChange): the fields' divergence and the truncated affine's phase
// Jacobians, and what integrate.glsl adds up per step (docs/field-shapes.md).
// Needs field.glsl.

// div v at x of every tool but the truncated affine ones (whose volume change
// integrate.glsl takes phase by phase): analytic for each kind (kinds/*.glsl,
// AddDivergence).
float divergence(vec3 x, float s) {
    float div = 0.0f;
    for (int i = 0; i < toolCount; ++i) {
        vec3 R = toolOffset(i, x, s);
        SF_SWITCH_KIND(toolKind(i), AddDivergence, (i, R, div))
    }
    return div;
}

// ∂x/∂x0 over a phase of ds in which the affine tools of `activeMask` act: their
// summed gradient is skew(Σr) + (Σλ)I, constant, so the flow's Jacobian is
// e^{Σλ·ds}·Rot(ds·Σr) (Rodrigues).
mat3 affinePhaseJacobian(uint activeMask, float ds) {
    vec3 r = vec3(0.0f);
    float lambda = 0.0f;
    for (int i = 0; i < toolCount; ++i) {
        if (toolKind(i) == kToolAffine && (activeMask & (1u << uint(i))) != 0u) {
            r += tools[i].rotation;
            lambda += tools[i].logScale;
        }
    }
    float angle = length(r) * ds;
    mat3 rotation = mat3(1.0f);
    if (angle > 0.0f) {
        vec3 a = normalize(r);
        float c = cos(angle);
        float sn = sin(angle);
        float t = 1.0f - c;
        rotation = mat3(t * a.x * a.x + c, t * a.x * a.y + sn * a.z, t * a.x * a.z - sn * a.y,
                        t * a.x * a.y - sn * a.z, t * a.y * a.y + c, t * a.y * a.z + sn * a.x,
                        t * a.x * a.z + sn * a.y, t * a.y * a.z - sn * a.x, t * a.z * a.z + c);
    }
    return exp(lambda * ds) * rotation;
}

// ∇s_end of affine tool i for a vertex starting at x0: how its falloff's end moves with x0.
vec3 falloffEndGradient(int i, vec3 x0) {
    vec3 rel = x0 - tools[i].origin;
    float dist = length(rel);
    return dist > 0.0f ? (falloffWeightSlope(i, dist) / dist) * rel : vec3(0.0f);
}

// Volume change (computeVolumeChange, a debug output): ln J = ∫ div v ds along the
// path, by composite Simpson's rule on two panels of each accepted step, at points of
// the cubic Hermite interpolant of the step's end velocities. Two panels, not one:
// div v of a C¹ falloff has a kink, which one panel left at 2.6% of J on test0's
// affine flow. A truncated affine tool's s_end depends on x0, so there the Jacobian
// matrix itself is carried, phase by phase, with the rank-one jump v_i ⊗ ∇s_end,i of
// each tool that ends (the host refuses a move that mixes them with other kinds,
// whose phases have no closed form).
float stepLogVolumeChange(vec3 x, float s, vec3 k1, vec3 y, float h, vec3 kEnd) {
    vec3 quarter = 0.84375f * x + 0.15625f * y + h * (0.140625f * k1 - 0.046875f * kEnd);
    vec3 middle = 0.5f * (x + y) + (0.125f * h) * (k1 - kEnd);
    vec3 threeQuarters = 0.15625f * x + 0.84375f * y + h * (0.046875f * k1 - 0.140625f * kEnd);
    // Simpson's weights 1 4 2 4 1 at s + kh/4, through one call site of divergence:
    // a driver inlines every call site before specialization removes dead code.
    float sum = 0.0f;
    for (int k = 0; k <= 4; ++k) {
        vec3 at = k == 0 ? x : k == 1 ? quarter : k == 2 ? middle : k == 3 ? threeQuarters : y;
        float weight = k == 0 || k == 4 ? 1.0f : k == 2 ? 2.0f : 4.0f;
        sum += weight * divergence(at, s + 0.25f * float(k) * h);
    }
    return (h / 12.0f) * sum;
}

// The Jacobian through the affine phase from `from` to the breakpoint `to`, where
// the vertex is at x, and the jumps of the tools of activeMask that end there.
mat3 crossAffineBreakpoint(mat3 jacobian, uint activeMask, float from, float to, vec3 x, vec3 x0,
                           float ends[SF_MAX_TOOLS]) {
    mat3 crossed = affinePhaseJacobian(activeMask, to - from) * jacobian;
    for (int i = 0; i < toolCount; ++i) {
        if ((activeMask & (1u << uint(i))) != 0u && ends[i] <= to)
            crossed += outerProduct(affineVelocity(i, toolOffset(i, x, to)), falloffEndGradient(i, x0));
    }
    return crossed;
}
