// The move tool's velocity fields (spec §3) and each tool's reach (spec §4, item 5).
//
// Reads the globals `tools[]`, `toolCount` and `toolIsAffine(i)`: members of the
// C++ Kernel, or in a shader a uniform block, a specialization constant and a
// function of one. Loops run to `toolCount` with no early exit, so that on the GPU
// they unroll, every `tools[i]` is a constant offset and each kind folds away.
// Needs layout.glsl.

// R = x − o(s), computed relative to p_A so that large coordinates lose nothing.
vec3 toolOffset(int i, vec3 x, float s) {
    return (x - tools[i].origin) - s * tools[i].translation;
}

// Affine deformer: v = d + (W + λI)·R, with W·y = r × y.
vec3 affineVelocity(int i, vec3 offset) {
    return tools[i].translation + cross(tools[i].rotation, offset) + tools[i].logScale * offset;
}

// One regularized Kelvinlet of radius eps (de Goes & James 2017): grab, twist and scale.
vec3 kelvinletTerm(int i, vec3 offset, float eps) {
    float eps2 = eps * eps;
    float rInv = inversesqrt(dot(offset, offset) + eps2);
    float r3Inv = rInv * rInv * rInv;
    float a = tools[i].kelvinA;
    float b = tools[i].kelvinB;
    vec3 grab = ((a - b) * rInv + 0.5f * a * eps2 * r3Inv) * tools[i].grabLoad
              + (b * r3Inv * dot(offset, tools[i].grabLoad)) * offset;
    float radial = r3Inv + 1.5f * eps2 * r3Inv * rInv * rInv;
    vec3 twist = (-a * radial) * cross(tools[i].twistLoad, offset);
    vec3 scale = (tools[i].kelvinScale * radial * tools[i].scaleLoad) * offset;
    return grab + twist + scale;
}

// Bi-scale Kelvinlet: X_ε − X_ε₁ decays as 1/r³ far from the tip.
vec3 kelvinletVelocity(int i, vec3 offset) {
    float eps = tools[i].outerRadius;
    return kelvinletTerm(i, offset, eps) - kelvinletTerm(i, offset, kKelvinletSecondRadius * eps);
}

// Sum of the tools whose bit is set in activeMask (spec §3.3). A Kelvinlet acts
// until s = 1, so its bit is set in every segment and need not be read.
vec3 velocity(vec3 x, float s, uint activeMask) {
    vec3 v = vec3(0.0f);
    for (int i = 0; i < toolCount; ++i) {
        vec3 offset = toolOffset(i, x, s);
        if (!toolIsAffine(i)) {
            v += kelvinletVelocity(i, offset);
        } else if ((activeMask & (1u << uint(i))) != 0u) {
            v += affineVelocity(i, offset);
        }
    }
    return v;
}

// The radial coefficients of one Kelvinlet term's Jacobian at |R|² = rr (see kelvinletTerm):
// grab v = A(r)·f + B(r)(R·f)R, twist and scale v ∝ φ(r)·R, with r² = |R|² + eps².
// x = A'/r, y = B, z = B'/r, w = φ; phiSlope = φ'/r.
vec4 kelvinletJacobianTerms(int i, float rr, float eps, SF_OUT(float) phiSlope) {
    float eps2 = eps * eps;
    float r2Inv = 1.0f / (rr + eps2);
    float r3Inv = sqrt(r2Inv) * r2Inv;
    float r5Inv = r3Inv * r2Inv;
    float a = tools[i].kelvinA;
    float b = tools[i].kelvinB;
    phiSlope = -3.0f * r5Inv - 7.5f * eps2 * r5Inv * r2Inv;
    return vec4(-(a - b) * r3Inv - 1.5f * a * eps2 * r5Inv, b * r3Inv, -3.0f * b * r5Inv,
                r3Inv + 1.5f * eps2 * r5Inv);
}

// How fast Kelvinlet i's field changes in space at offset R: the triangle-inequality
// bound of |∂v/∂x| from the bi-scale differences of the coefficients above. It is
// |r| + |λ|·(scale calibration) at the tip, peaks near |R| ≈ 0.5 ε and falls as 1/|R|⁴.
float kelvinletGradient(int i, vec3 R) {
    float eps = tools[i].outerRadius;
    float rr = dot(R, R);
    float slope0;
    float slope1;
    vec4 c = kelvinletJacobianTerms(i, rr, eps, slope0)
           - kelvinletJacobianTerms(i, rr, kKelvinletSecondRadius * eps, slope1);
    float grab = length(tools[i].grabLoad) * sqrt(rr) * (abs(c.x) + 2.0f * abs(c.y) + rr * abs(c.z));
    float radial = abs(c.w) + abs(slope0 - slope1) * rr;
    return grab + radial * (abs(tools[i].kelvinA) * length(tools[i].twistLoad)
                            + abs(tools[i].kelvinScale * tools[i].scaleLoad));
}

// True when an affine tool may end before s = 1 and so split the move into segments.
bool hasBreakpoints() {
    bool any = false;
    for (int i = 0; i < toolCount; ++i) any = any || toolIsAffine(i);
    return any;
}

// Affine falloff w(|x0 − p_A|) = smoothstep(u): the end of tool i's action for a
// vertex starting at x0 (spec §3.1).
float affineFalloff(int i, vec3 x0) {
    float dist = length(x0 - tools[i].origin);
    float rIn = tools[i].innerRadius;
    float width = tools[i].outerRadius - rIn;
    if (!(width > 0.0f)) return dist <= rIn ? 1.0f : 0.0f;
    float u = 1.0f - clamp((dist - rIn) / width, 0.0f, 1.0f);
    return u * u * (3.0f - 2.0f * u);
}

// End of tool i's action for a vertex starting at x0: the falloff for an affine
// tool, the whole move for a Kelvinlet.
float toolEnd(int i, vec3 x0) {
    return toolIsAffine(i) ? affineFalloff(i, x0) : 1.0f;
}

// Upper bound on |v| of Kelvinlet i over all points with |R| ≥ rho > 0.
// Each bi-scale difference g(ε²) − g(ε₁²) is bounded by the mean value theorem,
// |g(ε²) − g(ε₁²)| ≤ (ε₁² − ε²)·max|g'|, with the max taken at |R| = rho:
//   1/r_ε − 1/r_ε₁                   ≤ Δ/(2ρ³)
//   1/r_ε³ − 1/r_ε₁³                 ≤ 3Δ/(2ρ⁵)
//   ε²/r_ε³ − ε₁²/r_ε₁³             ≤ Δ(1/ρ³ + 3ε₁²/(2ρ⁵))
//   φ(ε²) − φ(ε₁²), φ(t) = 1/r³ + 3t/(2r⁵) with r² = |R|² + t   ≤ 15Δε₁²/(4ρ⁷)
// with Δ = ε₁² − ε². Every bound falls with ρ, so it holds for all |R| ≥ ρ.
float kelvinletSpeedBound(int i, float rho) {
    float eps = tools[i].outerRadius;
    float eps1Sq = kKelvinletSecondRadius * kKelvinletSecondRadius * eps * eps;
    float delta = eps1Sq - eps * eps;
    float rho3Inv = 1.0f / (rho * rho * rho);
    float rho2Inv = 1.0f / (rho * rho);
    float a = tools[i].kelvinA;
    float b = tools[i].kelvinB;
    float grab = abs(a - b) * 0.5f * delta * rho3Inv
               + 0.5f * a * delta * (rho3Inv + 1.5f * eps1Sq * rho3Inv * rho2Inv)
               + abs(b) * 1.5f * delta * rho3Inv;
    float radial = 3.75f * delta * eps1Sq * rho3Inv * rho3Inv; // × |R| ≤ ρ·(bound/ρ)
    return grab * length(tools[i].grabLoad)
         + radial * (abs(a) * length(tools[i].twistLoad) + abs(tools[i].kelvinScale * tools[i].scaleLoad));
}

// Distance from x0 to the tool tip's path {o(s) : s ∈ [0, 1]}.
float distanceToToolPath(int i, vec3 x0) {
    vec3 d = tools[i].translation;
    vec3 rel = x0 - tools[i].origin;
    float dd = dot(d, d);
    float s = dd > 0.0f ? clamp(dot(rel, d) / dd, 0.0f, 1.0f) : 0.0f;
    return length(rel - s * d);
}

// True when no tool moves x0 by kCullFraction·tolerance or more. An affine tool
// reaches x0 when its falloff is above 0. For Kelvinlets: if x0 stays within δ of
// where it started, every |R| ≥ ρ − δ, with ρ the distance to the tip's path, so
// the total displacement over s ∈ [0, 1] is at most Σ bound(ρ − δ); when that
// is ≤ δ the vertex cannot leave the δ-ball, and the bound holds throughout.
bool outOfReach(vec3 x0, float tolerance) {
    float delta = kCullFraction * tolerance;
    float speedSum = 0.0f;
    bool reached = false;
    for (int i = 0; i < toolCount; ++i) {
        if (toolIsAffine(i)) {
            reached = reached || affineFalloff(i, x0) > 0.0f;
        } else {
            float rho = distanceToToolPath(i, x0) - delta;
            if (rho > 0.0f) {
                speedSum += kelvinletSpeedBound(i, rho);
            } else {
                reached = true;
            }
        }
    }
    return !reached && speedSum <= delta;
}

// False only when outOfReach holds at every point within `radius` of `centre`:
// its form for a block of vertices or a chunk. Each point of the sphere is at
// least the centre's distance minus the radius from a tool's path and from an
// affine tool's origin, and the Kelvinlet speed bound falls with distance; the
// distances get a slack for the float rounding between the centre's and a
// vertex's. A non-finite sphere is in reach; a still Kelvinlet reaches nothing.
bool sphereInReach(vec3 centre, float radius, float tolerance) {
    float delta = kCullFraction * tolerance;
    float speedSum = 0.0f;
    bool reached = !all(lessThan(abs(vec4(centre, radius)), vec4(3.0e38f)));
    for (int i = 0; i < toolCount; ++i) {
        if (toolIsAffine(i)) {
            float dist = length(centre - tools[i].origin);
            reached = reached || dist * 0.9999f - radius * 1.0001f - 1.0e-4f <= tools[i].outerRadius;
        } else if (tools[i].grabLoad != vec3(0.0f) || tools[i].twistLoad != vec3(0.0f) || tools[i].scaleLoad != 0.0f) {
            float rho = distanceToToolPath(i, centre) * 0.9999f - radius * 1.0001f - 1.0e-4f - delta;
            if (rho > 0.0f) {
                speedSum += kelvinletSpeedBound(i, rho);
            } else {
                reached = true;
            }
        }
    }
    return reached || !(speedSum <= delta);
}
