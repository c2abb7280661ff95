// A command-line value of three numbers, "X,Y,Z".
#include "vector_option.hpp"

#include <cmath>
#include <optional>
#include <string_view>

#include <sculptflow/error.hpp>
#include "src/text_scan.hpp"

namespace sculptflow::cli {

glm::dvec3 parseVector3(const std::string& option, const std::string& text) {
    auto bad = [&](const std::string& why) {
        return Error(option + " '" + text + "': " + why + "; expected three finite numbers X,Y,Z");
    };
    glm::dvec3 value(0.0);
    std::string_view rest = text;
    for (int axis = 0; axis < 3; ++axis) {
        const size_t comma = rest.find(',');
        if ((comma == std::string_view::npos) != (axis == 2))
            throw bad(axis == 2 ? "more than three values" : "fewer than three values");
        std::string_view token = rest.substr(0, comma);
        while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
        while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
        const std::optional<double> number = detail::parseDouble(token);
        if (!number) throw bad("'" + std::string(token) + "' is not a number");
        if (!std::isfinite(*number)) throw bad("'" + std::string(token) + "' is not finite");
        value[axis] = *number;
        if (comma != std::string_view::npos) rest.remove_prefix(comma + 1);
    }
    return value;
}

} // namespace sculptflow::cli
