// The move tool's velocity fields (spec §3) and each tool's reach (spec §4, item 5).
//
// Reads the globals `tools[]`, `toolCount`, `toolKind(i)` and `toolShape(i)`:
// members of the C++ Kernel, or in a shader a uniform block, a specialization
// constant and functions of them. Loops run to `toolCount` with no early exit, so
// that on the GPU they unroll, every `tools[i]` is a constant offset and each kind
// folds away. Each concern switches on the kind once (kinds.glsl) and calls that
// kind's code. Needs layout.glsl and kinds.glsl.

// R = x − o(s), computed relative to p_A so that large coordinates lose nothing.
vec3 toolOffset(int i, vec3 x, float s) {
    return (x - tools[i].origin) - s * tools[i].translation;
}

// Affine deformer: v = d + (W + λI)·R, with W·y = r × y.
vec3 affineVelocity(int i, vec3 offset) {
    return tools[i].translation + cross(tools[i].rotation, offset) + tools[i].logScale * offset;
}

// A Kelvinlet's field from its radial coefficients c = (A, B, φ) at R:
// grab A·f + B·(R·f)·R, twist φ·(−a F×R), scale φ·(2b₀ − a)·G·R.
vec3 kelvinletFromCoefficients(int i, vec3 offset, vec3 c) {
    return c.x * tools[i].grabLoad + (c.y * dot(offset, tools[i].grabLoad)) * offset
         + c.z * (tools[i].kelvinScale * tools[i].scaleLoad * offset - tools[i].kelvinA * cross(tools[i].twistLoad, offset));
}

// The radial coefficients (A, B, φ) of one regularized Kelvinlet of radius eps at
// |R|² = rr (de Goes & James 2017, spec §3.2), and in `slope` their derivatives
// over |R| divided by |R| (A'/ρ, B'/ρ, φ'/ρ), for the Jacobian. With u = rr + ε²:
// A = (a − b)/√u + aε²/(2u^{3/2}), B = b/u^{3/2}, φ = 1/u^{3/2} + 3ε²/(2u^{5/2}).
vec3 regularizedCoefficients(int i, float rr, float eps, SF_OUT(vec3) slope) {
    float eps2 = eps * eps;
    float rInv = inversesqrt(rr + eps2);
    float r2Inv = rInv * rInv;
    float r3Inv = rInv * r2Inv;
    float r5Inv = r3Inv * r2Inv;
    float a = tools[i].kelvinA;
    float b = tools[i].kelvinB;
    slope = vec3(-(a - b) * r3Inv - 1.5f * a * eps2 * r5Inv, -3.0f * b * r5Inv,
                 -3.0f * r5Inv - 7.5f * eps2 * r5Inv * r2Inv);
    return vec3((a - b) * rInv + 0.5f * a * eps2 * r3Inv, b * r3Inv, r3Inv + 1.5f * eps2 * r5Inv);
}

// The Laplacian and bi-Laplacian of the regularized kernels (sharp Kelvinlets, de Goes
// & James 2019; docs/field-shapes.md derives them). With q = ε²/u ≤ 1:
//   Δ:  A = (2b + 3bq − 7.5aq²)/u^{3/2}, B = −(6b + 15bq)/u^{5/2}, φ = −52.5q²/u^{5/2}
//   Δ²: A = q²(472.5aq − 105b − 315a)/u^{5/2}, B = 945bq²/u^{7/2}, φ = q²(5197.5q − 2835)/u^{7/2}
vec3 sharpCoefficients(int i, float rr, bool twice, SF_OUT(vec3) slope) {
    float eps2 = tools[i].outerRadius * tools[i].outerRadius;
    float uInv = 1.0f / (rr + eps2);
    float q = eps2 * uInv;
    float q2 = q * q;
    float r3Inv = sqrt(uInv) * uInv;
    float r5Inv = r3Inv * uInv;
    float r7Inv = r5Inv * uInv;
    float a = tools[i].kelvinA;
    float b = tools[i].kelvinB;
    if (twice) {
        slope = vec3(q2 * (945.0f * b + 2835.0f * a - 5197.5f * a * q) * r7Inv,
                     -10395.0f * b * q2 * r7Inv * uInv,
                     q2 * (31185.0f - 67567.5f * q) * r7Inv * uInv);
        return vec3(q2 * (472.5f * a * q - 105.0f * b - 315.0f * a) * r5Inv, 945.0f * b * q2 * r7Inv,
                    q2 * (5197.5f * q - 2835.0f) * r7Inv);
    }
    slope = vec3((-6.0f * b - 15.0f * b * q + 52.5f * a * q2) * r5Inv, (30.0f * b + 105.0f * b * q) * r7Inv,
                 472.5f * q2 * r7Inv);
    return vec3((2.0f * b + 3.0f * b * q - 7.5f * a * q2) * r3Inv, -(6.0f * b + 15.0f * b * q) * r5Inv,
                -52.5f * q2 * r5Inv);
}

// Tri-scale as a divided difference over t = ε². Summed term by term, Σ wₖ X(tₖ)
// cancels all but 1/44 of its first term at the tip, 1/800 at |R| = ε and 1/7000
// at 5ε (the weights cancel g(t) and t, spec §3.7), so float rounding of the
// terms, and of the radii and weights themselves, made a field error of 1e-5 of
// the tip speed: the same in every pass, so no error estimate or checking pass
// could see it, and a flow that stretches its start 300× left vertices 0.05 voxel
// off at any tolerance. With its weights, Σ wₖ X(tₖ) = (t₁ − t₀)(t₂ − t₀)·X[t₀, t₁, t₂],
// and every X is a sum of u^{-n/2} and t·u^{-n/2} (u = |R|² + t, n = 1, 3, 5, 7),
// whose divided differences have closed forms that add terms of one sign only.
// With g = u^{-1/2} and s = √u:
//   g[a,b] = −g_a g_b/(s_a + s_b)
//   g[a,b,c] = g_a g_b g_c (s_a + s_b + s_c)/((s_a + s_b)(s_b + s_c)(s_a + s_c))
//   (gⁿ)[a,b] = g[a,b]·H_{n−1}(g_a, g_b)
//   (gⁿ)[a,b,c] = g[a,b,c]·H_{n−1}(g_b, g_c) + g[a,b]·g[a,c]·H_{n−2}(g_a, g_b, g_c)
//   (t·h)[a,b,c] = t_a·h[a,b,c] + h[b,c]
// where H_k is the sum of all products of degree k (complete homogeneous symmetric
// polynomial). What is left is a cancellation of at most 5× in (t·h)'s terms.
// Bi-scale's two terms cancel far less (2.8e-6 of the tip speed); the same form
// for it cost the renderer's default profile 10–15% of its throughput.
struct ScaleDifferences {
    vec4 h;  // the second divided difference of u^{-n/2}, n = 1, 3, 5, 7
    vec4 th; // of t·u^{-n/2} (component 0 unused)
};

// H_k(x, y) and H_k(x, y, z) for k = 0..6, by H_k(x, y, z) = H_k(x, y) + z·H_{k−1}(x, y, z).
struct CompleteHomogeneous {
    float xy[7];
    float xyz[7];
};

CompleteHomogeneous completeHomogeneous(float x, float y, float z) {
    CompleteHomogeneous h;
    float xk = 1.0f;
    h.xy[0] = 1.0f;
    h.xyz[0] = 1.0f;
    for (int k = 1; k < 7; ++k) {
        xk *= x;
        h.xy[k] = xk + y * h.xy[k - 1];
        h.xyz[k] = h.xy[k] + z * h.xyz[k - 1];
    }
    return h;
}

ScaleDifferences scaleDifferences(float rr, float t0, float t1, float t2) {
    float s0 = sqrt(rr + t0), s1 = sqrt(rr + t1), s2 = sqrt(rr + t2);
    float g0 = 1.0f / s0, g1 = 1.0f / s1, g2 = 1.0f / s2;
    float d01 = -g0 * g1 / (s0 + s1);
    float d12 = -g1 * g2 / (s1 + s2);
    float d02 = -g0 * g2 / (s0 + s2);
    float d012 = g0 * g1 * g2 * (s0 + s1 + s2) / ((s0 + s1) * (s1 + s2) * (s0 + s2));
    CompleteHomogeneous h = completeHomogeneous(g1, g2, g0); // H(g₁, g₂) and H(g₁, g₂, g₀)
    ScaleDifferences d;
    for (int j = 0; j < 4; ++j) {
        int n = 2 * j + 1;
        d.h[j] = d012 * h.xy[n - 1] + (n >= 3 ? d01 * d02 * h.xyz[n - 2] : 0.0f);
        d.th[j] = t0 * d.h[j] + d12 * h.xy[n - 1];
    }
    return d;
}

// Kelvinlet i's radial coefficients and their slopes for its profile (spec §3.7):
// bi-scale X_ε − X_ε₁, tri-scale Σ wₖ X_εₖ (as a divided difference, above), or
// the (bi-)Laplacian at ε. In terms of t = ε² and u = |R|² + t (as in
// regularizedCoefficients): A = (a − b)·u^{-1/2} + (a/2)·t·u^{-3/2}, B = b·u^{-3/2},
// φ = u^{-3/2} + (3/2)·t·u^{-5/2}, and A'/ρ = −(a − b)·u^{-3/2} − (3/2)a·t·u^{-5/2},
// B'/ρ = −3b·u^{-5/2}, φ'/ρ = −3u^{-5/2} − (15/2)·t·u^{-7/2}.
vec3 kelvinletCoefficients(int i, float rr, SF_OUT(vec3) slope) {
    int profile = toolShape(i);
    if (profile == kProfileLaplacian || profile == kProfileBiLaplacian)
        return sharpCoefficients(i, rr, profile == kProfileBiLaplacian, slope);
    float eps = tools[i].outerRadius;
    if (profile == kProfileTriScale) {
        float eps2 = eps * eps;
        ScaleDifferences d = scaleDifferences(rr, eps2, kScaleSecondT * eps2, kScaleThirdT * eps2);
        float weight = kTriScaleDifferenceWeight * eps2 * eps2;
        float a = tools[i].kelvinA;
        float b = tools[i].kelvinB;
        slope = weight * vec3(-(a - b) * d.h[1] - 1.5f * a * d.th[2], -3.0f * b * d.h[2], -3.0f * d.h[2] - 7.5f * d.th[3]);
        return weight * vec3((a - b) * d.h[0] + 0.5f * a * d.th[1], b * d.h[1], d.h[1] + 1.5f * d.th[2]);
    }
    vec3 slope1;
    vec3 c = regularizedCoefficients(i, rr, eps, slope);
    vec3 c1 = regularizedCoefficients(i, rr, kKelvinletSecondRadius * eps, slope1);
    slope -= slope1;
    return c - c1;
}

vec3 kelvinletVelocity(int i, vec3 offset) {
    vec3 slope;
    return kelvinletFromCoefficients(i, offset, kelvinletCoefficients(i, dot(offset, offset), slope));
}

// Falloff profile w(u) of an affine kind (spec §3.6), u ∈ [0, 1].
float falloffProfile(int falloff, float u) {
    if (falloff == kFalloffSmoother) return u * u * u * (u * (6.0f * u - 15.0f) + 10.0f);
    if (falloff == kFalloffLinear) return u;
    if (falloff == kFalloffSharp) return u * u;
    return u * u * (3.0f - 2.0f * u);
}

// dw/du of falloffProfile.
float falloffProfileSlope(int falloff, float u) {
    if (falloff == kFalloffSmoother) return 30.0f * u * u * (u - 1.0f) * (u - 1.0f);
    if (falloff == kFalloffLinear) return 1.0f;
    if (falloff == kFalloffSharp) return 2.0f * u;
    return 6.0f * u * (1.0f - u);
}

// dw/d(dist) of falloffWeight: 0 outside the shell (r_in, r_out).
float falloffWeightSlope(int i, float dist) {
    float rIn = tools[i].innerRadius;
    float width = tools[i].outerRadius - rIn;
    if (!(width > 0.0f) || !(dist > rIn) || !(dist < tools[i].outerRadius)) return 0.0f;
    return -falloffProfileSlope(toolShape(i), 1.0f - (dist - rIn) / width) / width;
}

// The kinks of tool i's falloff, where dw/d(dist) jumps: (r_in, its jump, r_out,
// its jump). A linear falloff's slope jumps by 1/width at both radii, a sharp one's
// (u²) by 2/width at r_in; the smooth falloffs have none (jumps of 0).
vec4 falloffKinks(int i) {
    int falloff = toolShape(i);
    float rIn = tools[i].innerRadius;
    float rOut = tools[i].outerRadius;
    float width = rOut - rIn;
    if ((falloff != kFalloffLinear && falloff != kFalloffSharp) || !(width > 0.0f)) return vec4(rIn, 0.0f, rOut, 0.0f);
    return vec4(rIn, (falloff == kFalloffSharp ? 2.0f : 1.0f) / width, rOut, falloff == kFalloffLinear ? 1.0f / width : 0.0f);
}

// The falloff of affine tool i at distance dist from its centre: 1 inside r_in, 0
// outside r_out (spec §3.1); a step at r_out when r_in = r_out.
float falloffWeight(int i, float dist) {
    float rIn = tools[i].innerRadius;
    float width = tools[i].outerRadius - rIn;
    if (!(width > 0.0f)) return dist <= rIn ? 1.0f : 0.0f;
    return falloffProfile(toolShape(i), 1.0f - clamp((dist - rIn) / width, 0.0f, 1.0f));
}

// The fold-free affine flow (spec §3.6): the affine field weighted by the falloff
// about the moving tip, w(|R|)·(d + (W + λI)·R).
vec3 affineFlowVelocity(int i, vec3 offset) {
    return falloffWeight(i, length(offset)) * affineVelocity(i, offset);
}

// Tool i's velocity at offset R from its tip; an affine tool only while its bit
// is set in activeMask. Kelvinlets and affine flows act until s = 1, so their
// bits are set in every segment and need not be read.
vec3 toolVelocity(int i, vec3 offset, uint activeMask) {
    switch (toolKind(i)) {
    case kToolAffine: return (activeMask & (1u << uint(i))) != 0u ? affineVelocity(i, offset) : vec3(0.0f);
    case kToolAffineFlow: return affineFlowVelocity(i, offset);
    default: return kelvinletVelocity(i, offset); // kToolKelvinlet
    }
}

// Sum of the tools (spec §3.3). The loop spells out toolVelocity: the C++ build
// does not inline that call here, which cost the CPU reference 6% (issue 28).
vec3 velocity(vec3 x, float s, uint activeMask) {
    vec3 v = vec3(0.0f);
    for (int i = 0; i < toolCount; ++i) {
        vec3 offset = toolOffset(i, x, s);
        switch (toolKind(i)) {
        case kToolAffine:
            if ((activeMask & (1u << uint(i))) != 0u) v += affineVelocity(i, offset);
            break;
        case kToolAffineFlow: v += affineFlowVelocity(i, offset); break;
        default: v += kelvinletVelocity(i, offset); break; // kToolKelvinlet
        }
    }
    return v;
}

// velocity(x + dx, s) without rounding x + dx: the offset dx is added to each
// tool's R, which is as small as the tool, so a stage point keeps the low bits
// that a sum at |x| (6e-5 voxel at 1000 voxels) would lose.
vec3 velocityNear(vec3 x, vec3 dx, float s, uint activeMask) {
    vec3 v = vec3(0.0f);
    for (int i = 0; i < toolCount; ++i) v += toolVelocity(i, toolOffset(i, x, s) + dx, activeMask);
    return v;
}

// How fast Kelvinlet i's field changes in space at offset R: the triangle-inequality
// bound of |∂v/∂x| from the radial coefficients and their slopes. For bi-scale it is
// |r| + |λ|·(scale calibration) at the tip, peaks near |R| ≈ 0.5 ε and falls as 1/|R|⁴.
float kelvinletGradient(int i, vec3 R) {
    float rr = dot(R, R);
    vec3 slope;
    vec3 c = kelvinletCoefficients(i, rr, slope);
    float grab = length(tools[i].grabLoad) * sqrt(rr) * (abs(slope.x) + 2.0f * abs(c.y) + rr * abs(slope.y));
    float radial = abs(c.z) + abs(slope.z) * rr;
    return grab + radial * (abs(tools[i].kelvinA) * length(tools[i].twistLoad)
                            + abs(tools[i].kelvinScale * tools[i].scaleLoad));
}

// True when an affine tool may end before s = 1 and so split the move into segments.
bool hasBreakpoints() {
    bool any = false;
    for (int i = 0; i < toolCount; ++i) any = any || toolKind(i) == kToolAffine;
    return any;
}

// Affine falloff w(|x0 − p_A|): the end of tool i's action for a vertex starting
// at x0 (spec §3.1).
float affineFalloff(int i, vec3 x0) {
    return falloffWeight(i, length(x0 - tools[i].origin));
}

// End of tool i's action for a vertex starting at x0: the falloff for an affine
// tool, the whole move for a Kelvinlet or an affine flow.
float toolEnd(int i, vec3 x0) {
    return toolKind(i) == kToolAffine ? affineFalloff(i, x0) : 1.0f;
}

// Upper bound on |v| of a bi-scale Kelvinlet over all points with |R| ≥ rho > 0.
// Each bi-scale difference g(ε²) − g(ε₁²) is bounded by the mean value theorem,
// |g(ε²) − g(ε₁²)| ≤ (ε₁² − ε²)·max|g'|, with the max taken at |R| = rho:
//   1/r_ε − 1/r_ε₁                   ≤ Δ/(2ρ³)
//   1/r_ε³ − 1/r_ε₁³                 ≤ 3Δ/(2ρ⁵)
//   ε²/r_ε³ − ε₁²/r_ε₁³             ≤ Δ(1/ρ³ + 3ε₁²/(2ρ⁵))
//   φ(ε²) − φ(ε₁²), φ(t) = 1/r³ + 3t/(2r⁵) with r² = |R|² + t   ≤ 15Δε₁²/(4ρ⁷)
// with Δ = ε₁² − ε². Every bound falls with ρ, so it holds for all |R| ≥ ρ.
vec2 biScaleSpeedBound(int i, float rho) {
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
    return vec2(grab, radial);
}

// The same for tri-scale. Its weights cancel g(t) and t exactly (Σwₖ = Σwₖtₖ = 0,
// tₖ = εₖ²), so Σwₖ g(tₖ) = Σwₖ ∫(tₖ − τ)g''(τ)dτ from t₀, at most
// C·max|g''| with C = Σ|wₖ|(tₖ − t₀)²/2 = 0.12927ε⁴. With u = ρ² + t ≥ ρ²:
//   g = u^{-1/2}: |g''| ≤ 0.75/ρ⁵          g = t·u^{-3/2}: |g''| ≤ 3/ρ⁵ + 3.75t₂/ρ⁷
//   g = u^{-3/2}: |g''| ≤ 3.75/ρ⁷          g = t·u^{-5/2}: |g''| ≤ 5/ρ⁷ + 8.75t₂/ρ⁹
// so the far field falls as 1/ρ⁵ (spec §3.7). Returns (grab, radial) as above.
vec2 triScaleSpeedBound(int i, float rho) {
    float eps2 = tools[i].outerRadius * tools[i].outerRadius;
    float t2 = kKelvinletThirdRadius * kKelvinletThirdRadius * eps2;
    float c = 0.12927f * eps2 * eps2;
    float rho2Inv = 1.0f / (rho * rho);
    float rho5Inv = rho2Inv * rho2Inv / rho;
    float rho7Inv = rho5Inv * rho2Inv;
    float a = tools[i].kelvinA;
    float b = tools[i].kelvinB;
    float coefA = abs(a - b) * 0.75f * rho5Inv + 0.5f * a * (3.0f * rho5Inv + 3.75f * t2 * rho7Inv);
    float coefB = abs(b) * 3.75f * rho7Inv;
    float phi = 3.75f * rho7Inv + 1.5f * (5.0f * rho7Inv + 8.75f * t2 * rho7Inv * rho2Inv);
    return c * vec2(coefA + coefB * rho * rho, phi * rho);
}

// The same for the sharp profiles. The grab A·f + B·(R·f)·R is f through a matrix
// with eigenvalues A (across R) and A + B|R|² (along it), so |grab| ≤ max(|A|, |A + B|R|²|)·|f|;
// with |R|² = u(1 − q), A + B|R|² is (−4b − 6bq + (15b − 7.5a)q²)/u^{3/2} for Δ and
// q²(840b − 315a + (472.5a − 945b)q)/u^{5/2} for Δ². Each term is then bounded on its
// own with u = |R|² + ε² ≥ U = ρ² + ε², q ≤ ε²/U and |R| ≤ √u, so every bound falls
// with ρ, and also holds at ρ = 0, where it bounds the whole field.
vec2 sharpSpeedBound(int i, float rho) {
    float eps2 = tools[i].outerRadius * tools[i].outerRadius;
    float uInv = 1.0f / (rho * rho + eps2);
    float q = eps2 * uInv;
    float q2 = q * q;
    float rInv = sqrt(uInv);
    float a = abs(tools[i].kelvinA);
    float b = abs(tools[i].kelvinB);
    if (toolShape(i) == kProfileBiLaplacian) {
        float across = 472.5f * a * q + 105.0f * b + 315.0f * a;
        float along = abs(840.0f * b - 315.0f * a) + abs(472.5f * a - 945.0f * b) * q;
        return vec2(q2 * max(across, along) * uInv * uInv * rInv, q2 * (5197.5f * q + 2835.0f) * uInv * uInv * uInv);
    }
    float across = 2.0f * b + 3.0f * b * q + 7.5f * a * q2;
    float along = 4.0f * b + 6.0f * b * q + abs(15.0f * b - 7.5f * a) * q2;
    return vec2(max(across, along) * uInv * rInv, 52.5f * q2 * uInv * uInv);
}

// Upper bound on |v| of Kelvinlet i over all points with |R| ≥ rho > 0, for its profile.
float kelvinletSpeedBound(int i, float rho) {
    int profile = toolShape(i);
    vec2 bound = profile == kProfileBiScale ? biScaleSpeedBound(i, rho)
               : profile == kProfileTriScale ? triScaleSpeedBound(i, rho)
               : sharpSpeedBound(i, rho);
    return bound.x * length(tools[i].grabLoad)
         + bound.y * (abs(tools[i].kelvinA) * length(tools[i].twistLoad) + abs(tools[i].kelvinScale * tools[i].scaleLoad));
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
// is ≤ δ the vertex cannot leave the δ-ball, and the bound holds throughout. An
// affine flow is 0 beyond r_out of the tip, so within the δ-ball it adds nothing
// when ρ − δ ≥ r_out.
bool outOfReach(vec3 x0, float tolerance) {
    float delta = kCullFraction * tolerance;
    float speedSum = 0.0f;
    bool reached = false;
    for (int i = 0; i < toolCount; ++i) {
        switch (toolKind(i)) {
        case kToolAffine: reached = reached || affineFalloff(i, x0) > 0.0f; break;
        case kToolAffineFlow: reached = reached || distanceToToolPath(i, x0) - delta < tools[i].outerRadius; break;
        default: { // kToolKelvinlet
            float rho = distanceToToolPath(i, x0) - delta;
            if (rho > 0.0f) {
                speedSum += kelvinletSpeedBound(i, rho);
            } else {
                reached = true;
            }
            break;
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
        switch (toolKind(i)) {
        case kToolAffine: {
            float dist = length(centre - tools[i].origin);
            reached = reached || dist * 0.9999f - radius * 1.0001f - 1.0e-4f <= tools[i].outerRadius;
            break;
        }
        case kToolAffineFlow: {
            float dist = distanceToToolPath(i, centre);
            reached = reached || dist * 0.9999f - radius * 1.0001f - 1.0e-4f - delta <= tools[i].outerRadius;
            break;
        }
        default: // kToolKelvinlet
            if (tools[i].grabLoad != vec3(0.0f) || tools[i].twistLoad != vec3(0.0f) || tools[i].scaleLoad != 0.0f) {
                float rho = distanceToToolPath(i, centre) * 0.9999f - radius * 1.0001f - 1.0e-4f - delta;
                if (rho > 0.0f) {
                    speedSum += kelvinletSpeedBound(i, rho);
                } else {
                    reached = true;
                }
            }
            break;
        }
    }
    return reached || !(speedSum <= delta);
}
