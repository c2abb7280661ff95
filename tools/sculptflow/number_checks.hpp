// Number checks for options whose messages a person can read: CLI11's
// PositiveNumber prints its range as two 300-digit doubles.
#pragma once

#include <CLI/CLI.hpp>

namespace sculptflow::cli {

// "must be a number > 0, not -0.1" (NaN and infinity refused too).
CLI::Validator positiveNumber();
// "must be a number >= 0, not -1".
CLI::Validator nonNegativeNumber();

} // namespace sculptflow::cli
