// The move tool's velocity field (spec §3.3), the sum of its tools, and its reach
// (spec §4, item 5).
//
// Reads the globals `tools[]`, `toolCount` and `toolKind(i)`: members of the C++
// Kernel, or in a shader a uniform block, a specialization constant and a function
// of one. Loops run to `toolCount` with no early exit, so that on the GPU they
// unroll, every `tools[i]` is a constant offset and each kind's switch folds away.
// The loops every attempt runs say so (SF_UNROLL): llvmpipe left them rolled, and
// with eight tools they ran out its loop budget (deform.comp, loopBudgetLasted).
// Each loop calls its tool's kind (SF_SWITCH_KIND, kinds.glsl). Needs
// field_common.glsl and the kinds' code.

// The summed velocity at x, s, with the truncated affine tools of activeMask.
vec3 velocity(vec3 x, float s, uint activeMask) {
    vec3 v = vec3(0.0f);
    SF_UNROLL for (int i = 0; i < toolCount; ++i) {
        vec3 offset = toolOffset(i, x, s);
        SF_SWITCH_KIND(toolKind(i), AddVelocity, (i, offset, activeMask, v))
    }
    return v;
}

// velocity(x + dx, s) without rounding x + dx: the offset dx is added to each
// tool's R, which is as small as the tool, so a stage point keeps the low bits
// that a sum at |x| (6e-5 voxel at 1000 voxels) would lose.
vec3 velocityNear(vec3 x, vec3 dx, float s, uint activeMask) {
    vec3 v = vec3(0.0f);
    SF_UNROLL for (int i = 0; i < toolCount; ++i) {
        vec3 offset = toolOffset(i, x, s) + dx;
        SF_SWITCH_KIND(toolKind(i), AddVelocity, (i, offset, activeMask, v))
    }
    return v;
}

// True when an affine tool may end before s = 1 and so split the move into segments.
bool hasBreakpoints() {
    bool any = false;
    for (int i = 0; i < toolCount; ++i) any = any || toolKind(i) == kToolAffine;
    return any;
}

// End of tool i's action for a vertex starting at x0: the falloff for an affine
// tool, the whole move for a Kelvinlet or an affine flow.
float toolEnd(int i, vec3 x0) {
    return toolKind(i) == kToolAffine ? affineFalloff(i, x0) : 1.0f;
}

// True when no tool moves x0 by kCullFraction·tolerance or more: each kind either
// reaches x0 or adds a bound on the displacement it can give a vertex that stays
// within δ of x0 (kinds/*.glsl); when no kind reaches it and the bounds sum to at
// most δ, the vertex cannot leave the δ-ball, and the bounds hold throughout.
bool outOfReach(vec3 x0, float tolerance) {
    float delta = kCullFraction * tolerance;
    float speedSum = 0.0f;
    bool reached = false;
    for (int i = 0; i < toolCount; ++i) SF_SWITCH_KIND(toolKind(i), Reach, (i, x0, delta, reached, speedSum))
    return !reached && speedSum <= delta;
}

// False only when outOfReach holds at every point within `radius` of `centre`:
// its form for a block of vertices or a chunk. Each point of the sphere is at
// least the centre's distance minus the radius from a tool's path and from an
// affine tool's origin, and the Kelvinlet speed bound falls with distance; the
// distances get a slack for the float rounding between the centre's and a
// vertex's. A non-finite sphere is in reach.
bool sphereInReach(vec3 centre, float radius, float tolerance) {
    float delta = kCullFraction * tolerance;
    float speedSum = 0.0f;
    bool reached = !all(lessThan(abs(vec4(centre, radius)), vec4(3.0e38f)));
    for (int i = 0; i < toolCount; ++i)
        SF_SWITCH_KIND(toolKind(i), SphereReach, (i, centre, radius, delta, reached, speedSum))
    return reached || !(speedSum <= delta);
}
