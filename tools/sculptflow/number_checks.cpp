// Number checks for options, with readable messages.
#include "number_checks.hpp"

#include <cmath>
#include <string>

#include "src/text_scan.hpp"

namespace sculptflow::cli {
namespace {

CLI::Validator numberAtLeast(bool strict, const char* description) {
    return CLI::Validator(
        [strict](std::string& text) -> std::string {
            const std::optional<double> value = detail::parseDouble(text);
            const std::string rule = strict ? "> 0" : ">= 0";
            if (!value || !std::isfinite(*value) || (strict ? !(*value > 0.0) : !(*value >= 0.0)))
                return "must be a finite number " + rule + ", not " + text;
            return {};
        },
        description);
}

} // namespace

CLI::Validator positiveNumber() { return numberAtLeast(true, "POSITIVE"); }
CLI::Validator nonNegativeNumber() { return numberAtLeast(false, "NONNEGATIVE"); }

} // namespace sculptflow::cli
