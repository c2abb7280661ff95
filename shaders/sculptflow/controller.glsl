// Step acceptance and the next step size (spec §4). Needs steppers.glsl.
//
// Reads the globals `settings` and `solverMethod`.

// Accept when the error per unit step is within tolerance: err ≤ tol·h.
bool stepWithinTolerance(float error, float h, float tolerance) {
    return error <= tolerance * h; // false for NaN
}

// h_new = h·clamp(safety·(tol·h/err)^(1/q), shrinkMin, growMax), kept in [hMin, hMax].
// A rejected step never grows; a non-finite error shrinks as far as allowed.
float nextStepSize(float h, float error, bool accepted) {
    float factor = settings.growMax;
    if (!(error < kHugeError)) {
        factor = settings.shrinkMin;
    } else if (error > 0.0f) {
        factor = settings.safety * pow(settings.tolerance * h / error, 1.0f / errorOrder(solverMethod));
    }
    float growLimit = accepted ? settings.growMax : 1.0f;
    factor = clamp(factor, settings.shrinkMin, growLimit);
    return clamp(h * factor, settings.hMin, settings.hMax);
}
