// Matrix exponential of a small dense matrix in double, by scaling and squaring
// (Moler & Van Loan, "Nineteen dubious ways...", 2003) with a Taylor series.
#pragma once

#include <array>

namespace sculptflow {

// 5×5 is what an affine flow needs: state (x, s, 1) turns dx/ds = A·x + b0 + b1·s
// into the linear autonomous system dz/ds = M·z.
using Matrix5 = std::array<std::array<double, 5>, 5>; // [row][column]

// e^m to about full double accuracy for the moderate norms used here.
Matrix5 matrixExp(const Matrix5& m);

Matrix5 multiply(const Matrix5& lhs, const Matrix5& rhs);

} // namespace sculptflow
