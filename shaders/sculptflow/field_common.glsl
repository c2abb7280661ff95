// What the tool kinds' code shares (kinds/*.glsl): a tool's offset R and the
// distance to its tip's path, the affine field and the falloffs of both affine
// kinds, and the symmetric outer product of their Jacobians.
//
// Reads the globals `tools[]` and `toolShape(i)`: members of the C++ Kernel, or in
// a shader a uniform block and a function of a specialization constant. Needs
// layout.glsl; the kinds' code (kinds.glsl, SF_KIND_CODE) follows it.

// R = x − o(s), computed relative to p_A so that large coordinates lose nothing.
vec3 toolOffset(int i, vec3 x, float s) {
    return (x - tools[i].origin) - s * tools[i].translation;
}

// Distance from x0 to the tool tip's path {o(s) : s ∈ [0, 1]}.
float distanceToToolPath(int i, vec3 x0) {
    vec3 d = tools[i].translation;
    vec3 rel = x0 - tools[i].origin;
    float dd = dot(d, d);
    float s = dd > 0.0f ? clamp(dot(rel, d) / dd, 0.0f, 1.0f) : 0.0f;
    return length(rel - s * d);
}

// Affine deformer: v = d + (W + λI)·R, with W·y = r × y.
vec3 affineVelocity(int i, vec3 offset) {
    return tools[i].translation + cross(tools[i].rotation, offset) + tools[i].logScale * offset;
}

// The smooth and smoother profiles' polynomials, for u ≤ ½.
float smoothProfileNearZero(int falloff, float u) {
    return falloff == kFalloffSmoother ? u * u * u * (u * (6.0f * u - 15.0f) + 10.0f) : u * u * (3.0f - 2.0f * u);
}

// Falloff profile w(u) of an affine kind (spec §3.6), u ∈ [0, 1]. The smooth and
// smoother ones are symmetric, w(u) = 1 − w(1 − u), and are evaluated from the
// nearer end: near u = 1 their sums cancel (10 − 15 + 6 for the smoother one),
// which in float left w, an affine tool's s_end, 1e-6 off, as far as a 300-voxel
// pull carries a vertex in 3e-4 voxel (seed 29945). 1 − u is exact for u ≥ ½.
float falloffProfile(int falloff, float u) {
    if (falloff == kFalloffLinear) return u;
    if (falloff == kFalloffSharp) return u * u;
    return u <= 0.5f ? smoothProfileNearZero(falloff, u) : 1.0f - smoothProfileNearZero(falloff, 1.0f - u);
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

// The kinks of tool i's falloff: at each of r_in and r_out the lowest order p
// whose derivative dᵖw/d(dist)ᵖ jumps there, and by how much. A linear falloff's
// slope jumps by 1/width at both radii, a sharp one's (u²) by 2/width at r_in and
// its second derivative by 2/width² at r_out; the smooth one's (3u² − 2u³) second
// derivative by 6/width² at both, the smoother one's third by 60/width³. A
// falloff without a shell (width 0) is a step, with no kinks (jumps of 0).
struct FalloffKinks {
    vec2 radius; // r_in, r_out
    vec2 jump;   // |[dᵖw/d(dist)ᵖ]| at each
    ivec2 order; // p at each
};

FalloffKinks falloffKinks(int i) {
    int falloff = toolShape(i);
    vec2 radius = vec2(tools[i].innerRadius, tools[i].outerRadius);
    float width = radius.y - radius.x;
    if (!(width > 0.0f)) return FalloffKinks(radius, vec2(0.0f), ivec2(1));
    if (falloff == kFalloffLinear) return FalloffKinks(radius, vec2(1.0f / width), ivec2(1));
    if (falloff == kFalloffSharp) return FalloffKinks(radius, vec2(2.0f / width, 2.0f / (width * width)), ivec2(1, 2));
    if (falloff == kFalloffSmoother) return FalloffKinks(radius, vec2(60.0f / (width * width * width)), ivec2(3));
    return FalloffKinks(radius, vec2(6.0f / (width * width)), ivec2(2));
}

// The steepest tool i's falloff is within `reach` of dist, |dw/d(dist)|: |w'(u)| is
// unimodal for every profile (smooth and smoother peak at u = ½, linear and sharp
// are monotone), so over an interval it peaks at an end or at ½.
float falloffSlopeWithin(int i, float dist, float reach) {
    float rIn = tools[i].innerRadius;
    float width = tools[i].outerRadius - rIn;
    if (!(width > 0.0f)) return 0.0f;
    float uLow = clamp(1.0f - (dist + reach - rIn) / width, 0.0f, 1.0f);
    float uHigh = clamp(1.0f - (dist - reach - rIn) / width, 0.0f, 1.0f);
    if (!(uHigh > uLow)) return dist > rIn && dist < tools[i].outerRadius ? abs(falloffWeightSlope(i, dist)) : 0.0f;
    int falloff = toolShape(i);
    float steepest = max(abs(falloffProfileSlope(falloff, uLow)), abs(falloffProfileSlope(falloff, uHigh)));
    if (uLow < 0.5f && 0.5f < uHigh) steepest = max(steepest, abs(falloffProfileSlope(falloff, 0.5f)));
    return steepest / width;
}

// The falloff of affine tool i at distance dist from its centre: 1 inside r_in, 0
// outside r_out (spec §3.1); a step at r_out when r_in = r_out.
float falloffWeight(int i, float dist) {
    float rIn = tools[i].innerRadius;
    float width = tools[i].outerRadius - rIn;
    if (!(width > 0.0f)) return dist <= rIn ? 1.0f : 0.0f;
    return falloffProfile(toolShape(i), 1.0f - clamp((dist - rIn) / width, 0.0f, 1.0f));
}

// (a bᵀ + b aᵀ)/2.
mat3 symmetricOuter(vec3 a, vec3 b) {
    return 0.5f * (outerProduct(a, b) + outerProduct(b, a));
}
