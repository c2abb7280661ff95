// Matrix exponential by scaling and squaring: e^M = (e^{M/2^j})^{2^j}, with the
// inner exponential summed as a Taylor series once ‖M/2^j‖ ≤ 1/2, where it
// converges fast (Moler & Van Loan 2003, method 3 with Taylor instead of Padé).
#include "matrix_exp.hpp"

#include <algorithm>
#include <cmath>

namespace sculptflow {
namespace {

constexpr size_t kN = 5;
constexpr double kScaledNorm = 0.5;
constexpr int kMaxTerms = 40; // 0.5^30/30! is far below double rounding already

// Maximum absolute column sum, a norm that bounds the Taylor terms.
double norm1(const Matrix5& m) {
    double result = 0.0;
    for (size_t c = 0; c < kN; ++c) {
        double sum = 0.0;
        for (size_t r = 0; r < kN; ++r) sum += std::abs(m[r][c]);
        result = std::max(result, sum);
    }
    return result;
}

Matrix5 identity() {
    Matrix5 m{};
    for (size_t i = 0; i < kN; ++i) m[i][i] = 1.0;
    return m;
}

} // namespace

Matrix5 multiply(const Matrix5& lhs, const Matrix5& rhs) {
    Matrix5 out{};
    for (size_t r = 0; r < kN; ++r)
        for (size_t k = 0; k < kN; ++k)
            for (size_t c = 0; c < kN; ++c) out[r][c] += lhs[r][k] * rhs[k][c];
    return out;
}

Matrix5 matrixExp(const Matrix5& m) {
    const double norm = norm1(m);
    int squarings = 0;
    if (norm > kScaledNorm) squarings = static_cast<int>(std::ceil(std::log2(norm / kScaledNorm)));
    const double scale = std::ldexp(1.0, -squarings); // exact power of two

    Matrix5 x = m;
    for (auto& row : x)
        for (double& v : row) v *= scale;

    // Taylor series: term_k = x^k / k!, summed until it no longer changes the sum.
    Matrix5 sum = identity();
    Matrix5 term = identity();
    for (int k = 1; k <= kMaxTerms; ++k) {
        term = multiply(term, x);
        for (auto& row : term)
            for (double& v : row) v /= k;
        for (size_t r = 0; r < kN; ++r)
            for (size_t c = 0; c < kN; ++c) sum[r][c] += term[r][c];
        if (norm1(term) <= 1e-18 * norm1(sum)) break;
    }

    for (int i = 0; i < squarings; ++i) sum = multiply(sum, sum);
    return sum;
}

} // namespace sculptflow
