// Kelvinlet kernels as radial series, with the Laplacian applied to the series.
#include "kelvinlet_reference.hpp"

#include <cmath>

namespace sculptflow {
namespace {

// Adds c·u^(−n/2) to x, merged with a term of the same power.
void addTerm(RadialSeries& x, double c, int n) {
    for (RadialSeries::Term& t : x.terms) {
        if (t.n == n) {
            t.c += c;
            return;
        }
    }
    x.terms.push_back({c, n});
}

// X'' + k·X'/ρ in u = ρ² + ε²: X' = 2ρX_u and X'' = 2X_u + 4ρ²X_uu, so it is
// 4(u − ε²)X_uu + (2 + 2k)X_u. For X = u^(−m), m = n/2:
// m(4m + 4 − (2 + 2k))·u^(−m−1) − 4ε²m(m + 1)·u^(−m−2).
RadialSeries radialOperator(const RadialSeries& x, double k, double eps) {
    RadialSeries out;
    for (const RadialSeries::Term& t : x.terms) {
        const double m = 0.5 * t.n;
        addTerm(out, t.c * m * (4.0 * m + 4.0 - (2.0 + 2.0 * k)), t.n + 2);
        addTerm(out, -t.c * 4.0 * eps * eps * m * (m + 1.0), t.n + 4);
    }
    return out;
}

RadialSeries sum(RadialSeries x, const RadialSeries& y, double scale) {
    for (const RadialSeries::Term& t : y.terms) addTerm(x, scale * t.c, t.n);
    return x;
}

} // namespace

double RadialSeries::operator()(double u) const {
    const double rInv = 1.0 / std::sqrt(u);
    double value = 0.0;
    for (const Term& t : terms) {
        double power = 1.0;
        for (int k = 0; k < t.n; ++k) power *= rInv;
        value += t.c * power;
    }
    return value;
}

KelvinletKernel regularizedKernel(double a, double b, double eps) {
    const double e2 = eps * eps;
    KelvinletKernel k;
    k.eps = eps;
    k.A.terms = {{a - b, 1}, {0.5 * a * e2, 3}};
    k.B.terms = {{b, 3}};
    k.phi.terms = {{1.0, 3}, {1.5 * e2, 5}};
    return k;
}

KelvinletKernel laplacian(const KelvinletKernel& kernel) {
    KelvinletKernel out;
    out.eps = kernel.eps;
    out.A = sum(radialOperator(kernel.A, 2.0, kernel.eps), kernel.B, 2.0);
    out.B = radialOperator(kernel.B, 6.0, kernel.eps);
    out.phi = radialOperator(kernel.phi, 4.0, kernel.eps);
    return out;
}

glm::dvec3 kernelVelocity(const KelvinletKernel& kernel, const KelvinletLoads& loads, const glm::dvec3& R) {
    const double u = glm::dot(R, R) + kernel.eps * kernel.eps;
    const glm::dvec3 grab = kernel.A(u) * loads.force + (kernel.B(u) * glm::dot(R, loads.force)) * R;
    const glm::dvec3 radial = -loads.a * glm::cross(loads.twist, R) + loads.scaleFactor * R;
    return grab + kernel.phi(u) * radial;
}

std::vector<WeightedKernel> profileKernels(KelvinletProfile profile, double a, double b, double eps) {
    const KelvinletKernel base = regularizedKernel(a, b, eps);
    switch (profile) {
    case KelvinletProfile::BiScale: return {{1.0, base}, {-1.0, regularizedKernel(a, b, 1.1 * eps)}};
    case KelvinletProfile::TriScale: {
        // wᵢ from spec §3.7 with εᵢ² = ε²·1.21^i.
        const double t0 = 1.0, t1 = 1.21, t2 = 1.21 * 1.21;
        return {{1.0, base},
                {-(t2 - t0) / (t2 - t1), regularizedKernel(a, b, 1.1 * eps)},
                {(t1 - t0) / (t2 - t1), regularizedKernel(a, b, 1.21 * eps)}};
    }
    case KelvinletProfile::Laplacian: return {{1.0, laplacian(base)}};
    case KelvinletProfile::BiLaplacian: return {{1.0, laplacian(laplacian(base))}};
    }
    return {};
}

} // namespace sculptflow
