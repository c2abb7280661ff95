#!/usr/bin/env python3
"""The method table's growthInterval: how far h·μ may go before a step's bound term
stops bounding its local error on the growth test equation y' = μy, μ > 0; and the
turn an affine flow's step may take clear of its shell, on y' = (μ + iω)y.

On y' = μy every stage is a polynomial in z = hμ, so a step's local error
(e^z − 1 − increment) and its bound term (steppers.glsl, boundStepError) are exact
functions of z, complex z included. This prints the first z at which the error
exceeds the term (docs/solver.md, item 4), and the first hω at which it does for
z = hω(c + i), c = μ/ω (docs/error-bound.md, "Steps clear of an affine flow's
shell"). Run: python3 tools/growth_interval.py
"""
import cmath


def simpson_check(h, increment, k1, k_end, k_mid=None):
    """steppers.glsl simpsonCheck on y' = y from y = 1 (Hermite midpoint unless given)."""
    if k_mid is None:
        k_mid = 1.0 + 0.5 * increment + 0.125 * h * (k1 - k_end)
    return abs(increment - h / 6.0 * (k1 + 4.0 * k_mid + k_end))


def rk4_increment(y, h):
    k1 = y
    k2 = y + 0.5 * h * k1
    k3 = y + 0.5 * h * k2
    k4 = y + h * k3
    return h / 6.0 * (k1 + 2.0 * (k2 + k3) + k4)


def rk4dbl(h):
    full = rk4_increment(1.0, h)
    half = rk4_increment(1.0, 0.5 * h)
    k_mid = 1.0 + half
    halves = half + rk4_increment(k_mid, 0.5 * h)
    diff = (halves - full) / 15.0
    increment = halves + diff
    term = max(abs(diff), 0.5 * simpson_check(h, increment, 1.0, 1.0 + increment, k_mid))
    return increment, term


def bs32(h):
    k1 = 1.0
    k2 = 1.0 + 0.5 * h * k1
    k3 = 1.0 + 0.75 * h * k2
    increment = h * (2.0 / 9.0 * k1 + 1.0 / 3.0 * k2 + 4.0 / 9.0 * k3)
    check = simpson_check(h, increment, k1, 1.0 + increment)
    return increment, check / max(1.0 - 8.0 / 15.0 * complex(h).real, 0.25)  # ownErrorOfCheck at μ = Re z


def dp45(h):
    k1 = 1.0
    k2 = 1.0 + h * 0.2 * k1
    k3 = 1.0 + h * (3 / 40 * k1 + 9 / 40 * k2)
    k4 = 1.0 + h * (44 / 45 * k1 - 56 / 15 * k2 + 32 / 9 * k3)
    k5 = 1.0 + h * (19372 / 6561 * k1 - 25360 / 2187 * k2 + 64448 / 6561 * k3 - 212 / 729 * k4)
    k6 = 1.0 + h * (9017 / 3168 * k1 - 355 / 33 * k2 + 46732 / 5247 * k3 + 49 / 176 * k4 - 5103 / 18656 * k5)
    increment = h * (35 / 384 * k1 + 500 / 1113 * k3 + 125 / 192 * k4 - 2187 / 6784 * k5 + 11 / 84 * k6)
    k7 = 1.0 + increment
    estimate = abs(h * (71 / 57600 * k1 - 71 / 16695 * k3 + 71 / 1920 * k4 - 17253 / 339200 * k5
                        + 22 / 525 * k6 - 1 / 40 * k7))
    return increment, max(estimate, 0.5 * simpson_check(h, increment, k1, k7))


def tsit5(h):
    k1 = 1.0
    d2 = h * 0.161 * k1
    d3 = h * (0.327 * k1 + 0.335480655492357 * d2)
    d4 = h * (0.9 * k1 - 6.359448489975075 * d2 + 4.3622954328695815 * d3)
    d5 = h * (0.9800255409045097 * k1 - 11.748883564062828 * d2 + 7.4955393428898365 * d3
              - 0.09249506636175525 * d4)
    d6 = h * (k1 - 12.92096931784711 * d2 + 8.159367898576159 * d3 - 0.071584973281401 * d4
              - 0.028269050394068383 * d5)
    increment = h * (k1 + 0.01 * d2 + 0.4798896504144996 * d3 + 1.379008574103742 * d4
                     - 3.290069515436081 * d5 + 2.324710524099774 * d6)
    k7 = 1.0 + increment
    estimate = abs(h * (-0.0008164344596567469 * d2 + 0.007880878010261995 * d3 - 0.1447110071732629 * d4
                        + 0.5823571654525552 * d5 - 0.45808210592918697 * d6 + (k7 - k1) / 66))
    return increment, max(estimate, 0.5 * simpson_check(h, increment, k1, k7))


def first_shortfall(step, direction, t_max=8.0, dt=1e-3):
    """The first t ≥ 0.1 where a step of z = t·direction errs more than its bound term
    (below 0.1 the error is at double rounding); t_max if none. direction 1 gives the
    growth interval (t = hμ), c + i a turning flow's (t = hω, c = μ/ω)."""
    t = 0.1
    while t < t_max:
        z = t * direction
        increment, term = step(z)
        if abs(cmath.exp(z) - 1.0 - increment) > term:
            return t
        t += dt
    return t_max


if __name__ == "__main__":
    print("method  growth  turn at μ/ω = 0, 0.1, 0.3")
    for name, step in [("rk4dbl", rk4dbl), ("bs32", bs32), ("dp45", dp45), ("tsit5", tsit5)]:
        turns = (first_shortfall(step, complex(c, 1.0)) for c in (0.0, 0.1, 0.3))
        text = "  ".join(f"{t:.3f}" if t < 8.0 else "none<8" for t in turns)
        print(f"{name:7s} {first_shortfall(step, 1.0):.3f}   {text}")
