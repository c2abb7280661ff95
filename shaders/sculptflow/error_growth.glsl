// How fast the flow stretches an error: the logarithmic norm of the field's
// Jacobian, μ = λmax((J + Jᵀ)/2). Two solutions of dx/ds = v separated by e grow
// apart no faster than d|e|/ds ≤ μ·|e| (Dahlquist), so an error committed at s
// reaches the end at most exp(∫ μ) as large; a rotation, however fast, stretches
// nothing (its J is skew). integratePass carries that bound along each vertex's
// path (docs/error-bound.md). Needs field.glsl.

// The largest eigenvalue of the symmetric S (the trigonometric closed form).
float largestEigenvalue(mat3 S) {
    float offDiagonal = S[0][1] * S[0][1] + S[0][2] * S[0][2] + S[1][2] * S[1][2];
    float mean = (S[0][0] + S[1][1] + S[2][2]) / 3.0f;
    float spread = (S[0][0] - mean) * (S[0][0] - mean) + (S[1][1] - mean) * (S[1][1] - mean)
                 + (S[2][2] - mean) * (S[2][2] - mean) + 2.0f * offDiagonal;
    if (!(spread > 0.0f)) return mean;
    float p = sqrt(spread / 6.0f);
    float cosine = determinant((S - mean * mat3(1.0f)) / p) * 0.5f;
    return mean + 2.0f * p * cos(acos(clamp(cosine, -1.0f, 1.0f)) / 3.0f);
}

// μ of the summed field at x, s, with the truncated affine tools of activeMask:
// λmax of the sum of each tool's (J + Jᵀ)/2, which its kind gives in closed form
// (kinds/*.glsl, AddSymmetricGradient). The paths the bound speaks for start within
// `reach` of this one (the error it may carry), and where a field has a shell they
// see its slope before this path does: a kind takes the largest within reach.
float logarithmicNorm(vec3 x, float s, uint activeMask, float reach) {
    mat3 S = mat3(0.0f);
    SF_UNROLL for (int i = 0; i < toolCount; ++i) {
        vec3 R = toolOffset(i, x, s);
        SF_SWITCH_KIND(toolKind(i), AddSymmetricGradient, (i, R, activeMask, reach, S))
    }
    return largestEigenvalue(S);
}

// What the truncated affine tools that end at `end` add to the stretch of an
// error the vertex's start x0 brings: s_end depends on x0, so the end map jumps by
// v_i ⊗ ∇s_end,i there (crossAffineBreakpoint), and ‖Φ + Σ v_i ⊗ ∇s_end,i‖ ≤
// ‖Φ‖ + Σ|v_i||∇s_end,i| for the flow's Φ = ∂x/∂x0 so far. An error made along the
// path does not move s_end. |∇s_end| is taken as the steepest within startError of
// x0, not at x0: a falloff shell a voxel thin changes its slope within the error
// carried in, and the mean value theorem needs the largest (docs/error-bound.md,
// "Continuous mode").
float breakpointStretch(uint activeMask, float end, vec3 x, vec3 x0, float startError, float ends[SF_MAX_TOOLS]) {
    float stretch = 0.0f;
    for (int i = 0; i < toolCount; ++i) {
        if (toolKind(i) == kToolAffine && (activeMask & (1u << uint(i))) != 0u && ends[i] <= end)
            stretch += length(affineVelocity(i, toolOffset(i, x, end)))
                     * falloffSlopeWithin(i, length(x0 - tools[i].origin), startError);
    }
    return stretch;
}
