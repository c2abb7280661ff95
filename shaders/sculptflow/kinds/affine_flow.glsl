// The fold-free affine flow (spec §3.6): the affine field weighted by the falloff
// about the moving tip, acting until s = 1 and zero beyond r_out of the tip. Its
// part in each concern (kinds.glsl). Needs field_common.glsl.

vec3 affineFlowVelocity(int i, vec3 offset) {
    return falloffWeight(i, length(offset)) * affineVelocity(i, offset);
}

SF_INLINE void affineFlowAddVelocity(int i, vec3 offset, uint, SF_INOUT(vec3) v) {
    v += affineFlowVelocity(i, offset);
}

// Within the δ-ball about x0 it adds nothing when the distance to the tip's path,
// less δ, is at least r_out.
SF_INLINE void affineFlowReach(int i, vec3 x0, float delta, SF_INOUT(bool) reached, SF_INOUT(float)) {
    reached = reached || distanceToToolPath(i, x0) - delta < tools[i].outerRadius;
}

SF_INLINE void affineFlowSphereReach(int i, vec3 centre, float radius, float delta, SF_INOUT(bool) reached,
                                     SF_INOUT(float)) {
    float dist = distanceToToolPath(i, centre);
    reached = reached || dist * 0.9999f - radius * 1.0001f - 1.0e-4f - delta <= tools[i].outerRadius;
}

// Its field changes as the falloff shell passes, which the move's step limit
// resolves for the tool's own travel (toolStepLimit): a vertex in the shell, or
// near enough to reach it within that floor, steps no further. A vertex that
// another tool carries through the shell crosses it faster (seed 11398: a
// 0.5-voxel shell crossed in one step), so no step carries the vertex radially
// further than its distance from the shell plus stepLimitTravel of the shell's
// field length (times stepShare). The field does not vary outside the shell, so
// the distance adds, not widens as against a Kelvinlet: widened, a vertex 20
// voxels out crossed a 6-voxel shell in one step (seed 20960, 4.1× tol). What the
// other tools carry it by counts whole, since it may turn radial within the step;
// the tool's own rotation does not.
//
// Clear of the shell (inside r_in the field is the affine one exactly, beyond
// r_out it is 0) a step whose stages stay on the vertex's side may be longer than
// the floor (seed 29937: a 233-voxel pull of a 1.7-voxel shell held every vertex
// to 375 steps). Its stages move against the tool at most |k1 − d| plus the
// affine field's change over r_out, and may cover kShellClearance of the
// distance to the shell; the turn and scale a step are held to stepLimitTravel
// (radians and log-scale; on y' = (μ + iω)y with μ ≤ 0.3ω every method's bound
// holds to hω ≈ 1.8, tools/growth_interval.py). The host refuses a falloff with no
// shell (kinds.glsl, needsShell): its field would jump at r_out.
SF_INLINE void affineFlowStepLimit(int i, vec3 x, float s, vec3 k1, uint, float stepShare, SF_INOUT(float),
                                   SF_INOUT(float) travel, SF_INOUT(float), SF_INOUT(bool) atFloor) {
    vec3 R = toolOffset(i, x, s);
    float dist = length(R);
    vec3 relative = k1 - tools[i].translation;
    float radial = dist > 0.0f ? abs(dot(R, relative)) / dist : length(relative);
    float speed = max(radial, length(relative - affineFlowVelocity(i, R)));
    float outside = max(max(tools[i].innerRadius - dist, dist - tools[i].outerRadius), 0.0f);
    float shellLength = shellFieldLength(tools[i].innerRadius, tools[i].outerRadius, toolShape(i));
    float reach = outside + settings.stepLimitTravel * shellLength;
    if (speed > 0.0f) travel = min(travel, stepShare * reach / speed);

    float turnAndScale = length(tools[i].rotation) + abs(tools[i].logScale);
    float clearSpeed = length(relative) + turnAndScale * tools[i].outerRadius;
    float clear = clearSpeed > 0.0f ? stepShare * kShellClearance * outside / clearSpeed : settings.hMax;
    if (clear > settings.stepLimitFloor * stepShare) {
        travel = min(travel, clear);
        if (turnAndScale > 0.0f) travel = min(travel, stepShare * settings.stepLimitTravel / turnAndScale);
    } else {
        atFloor = true;
    }
}

// div v = w·3λ + w'(|R|)·(R·v)/|R|, v its affine field.
SF_INLINE void affineFlowAddDivergence(int i, vec3 R, SF_INOUT(float) div) {
    float dist = length(R);
    float radial = dist > 0.0f ? falloffWeightSlope(i, dist) * dot(R, affineVelocity(i, R)) / dist : 0.0f;
    div += 3.0f * tools[i].logScale * falloffWeight(i, dist) + radial;
}

// (J + Jᵀ)/2 = w·λI + sym(v ∇wᵀ), v its affine field (its skew(r) drops out), with
// the steepest slope within `reach` (falloffSlopeWithin; w falls outward, so the
// slope is −that) and, where the tool grows (λ > 0), the largest w there: a path
// that passes outside a thin shell has neighbours that pass through it (seed 13510).
SF_INLINE void affineFlowAddSymmetricGradient(int i, vec3 R, uint, float reach, SF_INOUT(mat3) S) {
    float dist = length(R);
    float lambda = tools[i].logScale;
    S += (lambda * falloffWeight(i, lambda > 0.0f ? max(dist - reach, 0.0f) : dist + reach)) * mat3(1.0f);
    if (dist > 0.0f) S += symmetricOuter(affineVelocity(i, R), (-falloffSlopeWithin(i, dist, reach) / dist) * R);
}
