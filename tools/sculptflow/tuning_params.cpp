// Parsing the tune command's parameter file.
#include "tuning_params.hpp"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "error.hpp"

namespace sculptflow::cli {

SolverOptions readTuningParams(const std::filesystem::path& path, SolverOptions options) {
    std::ifstream in(path);
    if (!in) throw Error(path.string() + ": cannot read the parameter file");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
        throw Error(path.string() + ": invalid JSON: " + e.what());
    }
    if (!json.is_object()) throw Error(path.string() + ": expected an object of tunables");
    for (const auto& [key, value] : json.items()) {
        auto number = [&] {
            if (!value.is_number()) throw Error(path.string() + ": " + key + ": expected a number");
            return value.get<double>();
        };
        if (key == "method") {
            auto method = value.is_string() ? parseMethod(value.get<std::string>()) : std::nullopt;
            if (!method) throw Error(path.string() + ": method: expected rk4, rk4dbl, bs32 or dp45");
            options.method = *method;
        } else if (key == "tol") options.tolerance = number();
        else if (key == "h0") options.h0 = number();
        else if (key == "h_min") options.hMin = number();
        else if (key == "h_max") options.hMax = number();
        else if (key == "safety") options.safety = number();
        else if (key == "shrink_min") options.shrinkMin = number();
        else if (key == "grow_max") options.growMax = number();
        else if (key == "max_tool_motion_per_step") options.maxToolMotionPerStep = number();
        else if (key == "max_iterations") {
            if (!value.is_number_integer()) throw Error(path.string() + ": max_iterations: expected an integer");
            options.maxIterations = value.get<int>();
        } else {
            throw Error(path.string() + ": unknown tunable '" + key + "'");
        }
    }
    try {
        validateSolverOptions(options);
    } catch (const Error& e) {
        throw Error(path.string() + ": " + e.what());
    }
    return options;
}

} // namespace sculptflow::cli
