// The regularized Kelvinlet (spec §3.2, §3.7): its field for each profile, how
// fast that changes, a bound on its speed far from the tip, and its part in each
// concern (kinds.glsl). Needs field_common.glsl.

// A Kelvinlet's field from its radial coefficients c = (A, B, φ) at R:
// grab A·f + B·(R·f)·R, twist φ·(−a F×R), scale φ·(2b₀ − a)·G·R.
vec3 kelvinletFromCoefficients(int i, vec3 offset, vec3 c) {
    return c.x * tools[i].grabLoad + (c.y * dot(offset, tools[i].grabLoad)) * offset
         + c.z * (tools[i].kelvinScale * tools[i].scaleLoad * offset - tools[i].kelvinA * cross(tools[i].twistLoad, offset));
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

// Bi-scale and tri-scale as divided differences over t = ε². Summed term by term,
// tri-scale's Σ wₖ X(tₖ) cancels all but 1/44 of its first term at the tip, 1/800
// at |R| = ε and 1/7000 at 5ε (the weights cancel g(t) and t, spec §3.7), so float
// rounding of the terms, and of the radii and weights themselves, made a field
// error of 1e-5 of the tip speed: the same in every pass, so no error estimate or
// checking pass could see it, and a flow that stretches its start 300× left
// vertices 0.05 voxel off at any tolerance. Bi-scale's X(t₀) − X(t₁) cancels less
// (2.8e-6 of the tip speed), enough for a 230-voxel pull that stretches its start
// 58× to end 1.45× tol 0.01 off unflagged (seed 28620), and for rounding in the
// error estimates to reject steps at tight tolerances. As divided differences,
// X(t₀) − X(t₁) = (t₀ − t₁)·X[t₀, t₁] and Σ wₖ X(tₖ) = (t₁ − t₀)(t₂ − t₀)·X[t₀, t₁, t₂],
// and every X is a sum of u^{-n/2} and t·u^{-n/2} (u = |R|² + t, n = 1, 3, 5, 7),
// whose divided differences have closed forms that add terms of one sign only.
// With g = u^{-1/2} and s = √u:
//   g[a,b] = −g_a g_b/(s_a + s_b)
//   g[a,b,c] = g_a g_b g_c (s_a + s_b + s_c)/((s_a + s_b)(s_b + s_c)(s_a + s_c))
//   (gⁿ)[a,b] = g[a,b]·H_{n−1}(g_a, g_b)
//   (gⁿ)[a,b,c] = g[a,b,c]·H_{n−1}(g_b, g_c) + g[a,b]·g[a,c]·H_{n−2}(g_a, g_b, g_c)
//   (t·h)[a,b] = t_a·h[a,b] + h(b),   (t·h)[a,b,c] = t_a·h[a,b,c] + h[b,c]
// where H_k is the sum of all products of degree k (complete homogeneous symmetric
// polynomial). What is left is a cancellation of at most 5× in (t·h)'s terms.
struct ScaleDifferences {
    vec4 h;  // the first (bi-scale) or second (tri-scale) divided difference of u^{-n/2}, n = 1, 3, 5, 7
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

// The first divided differences over t₀, t₁, with x = g₀, y = g₁ and
// H_{k+2}(x, y) = x^{k+1}·(x + y) + y²·H_k(x, y); s = u·g saves two square roots.
ScaleDifferences biScaleDifferences(float rr, float t0, float t1) {
    float u0 = rr + t0, u1 = rr + t1;
    float x = inversesqrt(u0), y = inversesqrt(u1);
    float d = -x * y / (u0 * x + u1 * y);
    float xx = x * x, yy = y * y, xPlusY = x + y;
    float x3 = x * xx, y3 = y * yy;
    float h2 = x * xPlusY + yy;
    float h4 = x3 * xPlusY + yy * h2;
    float h6 = x3 * xx * xPlusY + yy * h4;
    ScaleDifferences differences;
    differences.h = d * vec4(1.0f, h2, h4, h6);
    differences.th = t0 * differences.h + vec4(0.0f, y3, y3 * yy, y3 * yy * yy);
    return differences;
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
// bi-scale X_ε − X_ε₁, tri-scale Σ wₖ X_εₖ (as divided differences, above), or
// the (bi-)Laplacian at ε; in `slope` their derivatives over |R| divided by |R|,
// for the Jacobian. One regularized Kelvinlet (de Goes & James 2017, spec §3.2)
// has, in terms of t = ε² and u = |R|² + t: A = (a − b)·u^{-1/2} + (a/2)·t·u^{-3/2}, B = b·u^{-3/2},
// φ = u^{-3/2} + (3/2)·t·u^{-5/2}, and A'/ρ = −(a − b)·u^{-3/2} − (3/2)a·t·u^{-5/2},
// B'/ρ = −3b·u^{-5/2}, φ'/ρ = −3u^{-5/2} − (15/2)·t·u^{-7/2}.
vec3 kelvinletCoefficients(int i, float rr, SF_OUT(vec3) slope) {
    int profile = toolShape(i);
    if (profile == kProfileLaplacian || profile == kProfileBiLaplacian)
        return sharpCoefficients(i, rr, profile == kProfileBiLaplacian, slope);
    float eps2 = tools[i].outerRadius * tools[i].outerRadius;
    ScaleDifferences d;
    float weight;
    if (profile == kProfileTriScale) {
        d = scaleDifferences(rr, eps2, kScaleSecondT * eps2, kScaleThirdT * eps2);
        weight = kTriScaleDifferenceWeight * eps2 * eps2;
    } else {
        float t1 = kScaleSecondT * eps2;
        d = biScaleDifferences(rr, eps2, t1);
        weight = eps2 - t1; // exact (t₁ < 2t₀), so it matches the t₁ the differences used
    }
    float a = tools[i].kelvinA;
    float b = tools[i].kelvinB;
    slope = weight * vec3(-(a - b) * d.h[1] - 1.5f * a * d.th[2], -3.0f * b * d.h[2], -3.0f * d.h[2] - 7.5f * d.th[3]);
    return weight * vec3((a - b) * d.h[0] + 0.5f * a * d.th[1], b * d.h[1], d.h[1] + 1.5f * d.th[2]);
}

vec3 kelvinletVelocity(int i, vec3 offset) {
    vec3 slope;
    return kelvinletFromCoefficients(i, offset, kelvinletCoefficients(i, dot(offset, offset), slope));
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

// Its part in each concern. A Kelvinlet acts in every segment: it reads no mask.
SF_INLINE void kelvinletAddVelocity(int i, vec3 offset, uint, SF_INOUT(vec3) v) {
    v += kelvinletVelocity(i, offset);
}

// outOfReach: if x0 stays within δ of where it started, every |R| ≥ ρ − δ, with ρ
// the distance to the tip's path, so its displacement over s ∈ [0, 1] is at most
// bound(ρ − δ), added to speedSum.
SF_INLINE void kelvinletReach(int i, vec3 x0, float delta, SF_INOUT(bool) reached, SF_INOUT(float) speedSum) {
    float rho = distanceToToolPath(i, x0) - delta;
    if (rho > 0.0f) {
        speedSum += kelvinletSpeedBound(i, rho);
    } else {
        reached = true;
    }
}

// sphereInReach: the same bound at the sphere's nearest point; a still Kelvinlet reaches nothing.
SF_INLINE void kelvinletSphereReach(int i, vec3 centre, float radius, float delta, SF_INOUT(bool) reached,
                                    SF_INOUT(float) speedSum) {
    if (tools[i].grabLoad != vec3(0.0f) || tools[i].twistLoad != vec3(0.0f) || tools[i].scaleLoad != 0.0f) {
        float rho = distanceToToolPath(i, centre) * 0.9999f - radius * 1.0001f - 1.0e-4f - delta;
        if (rho > 0.0f) {
            speedSum += kelvinletSpeedBound(i, rho);
        } else {
            reached = true;
        }
    }
}

// stepLimit (controller.glsl says why): no step carries the vertex further against
// the tool than stepShare·kKelvinletTravelShare·stepLimitTravel field lengths,
// widened to √(|R|² + ℓ²) away from it (ℓ its field length), and its field's rate
// of change at the vertex adds to `rate`: |∂v/∂x|, plus the travel against the
// tool weighted so that alone it gives that travel bound (kKelvinletTravelRate), so
// that the two add each at its own limit. Weighted at 3, the sum let a vertex that
// both sheared and travelled step as far as its travel alone allows (seeds 26426 and
// 26496: dp45 1.62× tol 0.3 and 1.09× tol 0.1, unflagged).
SF_INLINE void kelvinletStepLimit(int i, vec3 x, float s, vec3 k1, uint, float stepShare, SF_INOUT(float) rate,
                                  SF_INOUT(float) travel, SF_INOUT(float), SF_INOUT(bool)) {
    vec3 R = toolOffset(i, x, s);
    float eps = tools[i].outerRadius;
    float relative = length(k1 - tools[i].translation);
    float fieldLength = toolShape(i) == kProfileBiLaplacian ? kBiLaplacianFieldLength * eps : eps;
    float reach = sqrt(dot(R, R) + fieldLength * fieldLength);
    float share = stepShare * kKelvinletTravelShare * settings.stepLimitTravel;
    rate += kelvinletGradient(i, R) + kKelvinletTravelRate * relative / reach;
    if (relative > 0.0f) travel = min(travel, share * reach / relative);
}

// div v = (A'/ρ)(R·f) + (R·f)(ρ²B'/ρ + 4B) + (2b₀ − a)G(ρ²φ'/ρ + 3φ); the twist is
// divergence-free.
SF_INLINE void kelvinletAddDivergence(int i, vec3 R, SF_INOUT(float) div) {
    float rr = dot(R, R);
    vec3 slope;
    vec3 c = kelvinletCoefficients(i, rr, slope);
    float rf = dot(R, tools[i].grabLoad);
    div += slope.x * rf + rf * (rr * slope.y + 4.0f * c.y)
         + tools[i].kelvinScale * tools[i].scaleLoad * (rr * slope.z + 3.0f * c.z);
}

// (J + Jᵀ)/2 from the radial coefficients c = (A, B, φ) and their slopes:
// (A'/ρ + B)·sym(f Rᵀ) − aφ'/ρ·sym((F×R) Rᵀ) + ((R·f)B'/ρ + Gφ'/ρ)·R Rᵀ
// + ((R·f)B + Gφ)·I (the twist's aφF is skew).
SF_INLINE void kelvinletAddSymmetricGradient(int i, vec3 R, uint, float, SF_INOUT(mat3) S) {
    vec3 slope;
    vec3 c = kelvinletCoefficients(i, dot(R, R), slope);
    vec3 f = tools[i].grabLoad;
    float rf = dot(R, f);
    float scale = tools[i].kelvinScale * tools[i].scaleLoad;
    S += (slope.x + c.y) * symmetricOuter(f, R)
       - (tools[i].kelvinA * slope.z) * symmetricOuter(cross(tools[i].twistLoad, R), R)
       + (rf * slope.y + scale * slope.z) * outerProduct(R, R)
       + (rf * c.y + scale * c.z) * mat3(1.0f);
}
