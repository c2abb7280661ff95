// The affine deformer truncated in time (spec §3.1): v = d + (W + λI)·R about the
// tool's origin, acting on a vertex until s reaches the falloff of where it
// started, so it splits the move into segments (its bit in activeMask) and its
// volume change is taken phase by phase (volume_change.glsl). Its part in each
// concern (kinds.glsl). Needs field_common.glsl.

// Affine falloff w(|x0 − p_A|): the end of tool i's action for a vertex starting
// at x0 (spec §3.1).
float affineFalloff(int i, vec3 x0) {
    return falloffWeight(i, length(x0 - tools[i].origin));
}

SF_INLINE void affineAddVelocity(int i, vec3 offset, uint activeMask, SF_INOUT(vec3) v) {
    if ((activeMask & (1u << uint(i))) != 0u) v += affineVelocity(i, offset);
}

// It reaches x0 when its falloff there is above 0.
SF_INLINE void affineReach(int i, vec3 x0, float, SF_INOUT(bool) reached, SF_INOUT(float)) {
    reached = reached || affineFalloff(i, x0) > 0.0f;
}

SF_INLINE void affineSphereReach(int i, vec3 centre, float radius, float, SF_INOUT(bool) reached, SF_INOUT(float)) {
    float dist = length(centre - tools[i].origin);
    reached = reached || dist * 0.9999f - radius * 1.0001f - 1.0e-4f <= tools[i].outerRadius;
}

// Smooth in s, but about its moving tip its field is y' = (W + λI)y, on which each
// method's bound holds to a turn hω ≈ 1.8 a step (tools/growth_interval.py); where
// tools overlap their turns and scales add (seed 29284: two mirrored copies of a
// 167° turn, rk4dbl 1.02× tol 0.1). So while it acts it adds to `turn`, which
// stepLimit holds to stepLimitTravel a step.
SF_INLINE void affineStepLimit(int i, vec3, float, vec3, uint activeMask, float, SF_INOUT(float), SF_INOUT(float),
                               SF_INOUT(float) turn, SF_INOUT(bool)) {
    if ((activeMask & (1u << uint(i))) != 0u) turn += length(tools[i].rotation) + abs(tools[i].logScale);
}

// None here: its volume change is taken phase by phase (affinePhaseJacobian).
SF_INLINE void affineAddDivergence(int, vec3, SF_INOUT(float)) {}

// Its J is skew(r) + λI, whose symmetric part is λI, while it acts.
SF_INLINE void affineAddSymmetricGradient(int i, vec3, uint activeMask, float, SF_INOUT(mat3) S) {
    if ((activeMask & (1u << uint(i))) != 0u) S += tools[i].logScale * mat3(1.0f);
}
