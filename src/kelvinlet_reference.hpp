// Kelvinlet kernels in double for the ground truth and the tests, built from
// spec §3.2's regularized kernel by applying the Laplacian term by term (spec
// §3.7), independently of the closed forms that the shared GLSL uses.
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include <sculptflow/stroke.hpp>

namespace sculptflow {

// One radial coefficient as Σ c·u^(−n/2), u = |R|² + ε².
struct RadialSeries {
    struct Term {
        double c = 0.0;
        int n = 0;
    };
    std::vector<Term> terms;
    double operator()(double u) const;
};

// A kernel of one radius ε: grab A·f + B·(R·f)·R, twist φ·(−a F×R), scale φ·(2b₀ − a)·G·R.
struct KelvinletKernel {
    double eps = 0.0;
    RadialSeries A, B, phi;
};

// Spec §3.2's regularized kernel at radius eps, with a = 1/(4πμ) and b = a/(4(1 − ν)).
KelvinletKernel regularizedKernel(double a, double b, double eps);

// Δ applied to the kernel: A ← ΔA + 2B, B ← B'' + 6B'/ρ, φ ← φ'' + 4φ'/ρ (the
// Laplacian of A·f, B·(R·f)·R and φ·M·R), each in u as 4(u − ε²)X_uu + (2 + 2k)X_u.
KelvinletKernel laplacian(const KelvinletKernel& kernel);

// The loads of one Kelvinlet: f, F as the vector of its skew matrix, and the
// scale load G·(2b₀ − a) with a the twist's factor.
struct KelvinletLoads {
    glm::dvec3 force{0.0};
    glm::dvec3 twist{0.0};
    double a = 0.0;          // the twist's −a factor
    double scaleFactor = 0.0; // (2b₀ − a)·G
};

glm::dvec3 kernelVelocity(const KelvinletKernel& kernel, const KelvinletLoads& loads, const glm::dvec3& R);

// A profile's kernels (spec §3.7) with their weights: bi-scale (1, −1) at ε, 1.1ε;
// tri-scale (1, w₁, w₂) at ε, 1.1ε, 1.21ε; the (bi-)Laplacian once at ε.
struct WeightedKernel {
    double weight = 1.0;
    KelvinletKernel kernel;
};
std::vector<WeightedKernel> profileKernels(KelvinletProfile profile, double a, double b, double eps);

} // namespace sculptflow
