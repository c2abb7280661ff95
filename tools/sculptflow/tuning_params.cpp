// Parsing the tune command's parameter file.
#include "tuning_params.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include <sculptflow/error.hpp>
#include <sculptflow/stroke.hpp>
#include "src/text_scan.hpp"

namespace sculptflow::cli {

SolverOptions readTuningParams(const std::filesystem::path& path, SolverOptions options, bool stepsRequired) {
    const Method before = options.method;
    bool stepsGiven = false, iterationsGiven = false;
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
            if (!method) throw Error(path.string() + ": method: expected " + methodNameList());
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
            iterationsGiven = true;
        } else if (key == "fixed_steps") {
            if (!value.is_number_integer() || value.get<long long>() < 1 || value.get<long long>() > 4096)
                throw Error(path.string() + ": fixed_steps: expected an integer in [1, 4096]");
            options.fixedSteps = value.get<int>();
            stepsGiven = true;
        } else {
            const std::string near = detail::nearestName(
                key, {"method", "tol", "fixed_steps", "h0", "h_min", "h_max", "safety", "shrink_min", "grow_max",
                      "max_iterations", "max_tool_motion_per_step"});
            throw Error(path.string() + ": unknown tunable '" + key + "'" +
                        (near.empty() ? "" : " (did you mean '" + near + "'?)"));
        }
    }
    const std::string file = path.string() + ": ";
    if (options.method == Method::Rk4 && !stepsGiven && (stepsRequired || before != Method::Rk4))
        throw Error(file + "method rk4 takes fixed steps without error control: give fixed_steps (or --steps), "
                           "or an adaptive method held to tol: " + methodNameList(true));
    if (options.method != Method::Rk4 && stepsGiven)
        throw Error(file + "fixed_steps is for method rk4; " + std::string(methodName(options.method)) +
                    " chooses its own steps to meet tol");
    if (stepsGiven && !iterationsGiven)
        options.maxIterations =
            std::max(options.maxIterations, std::min(1 << 16, options.fixedSteps * int(kMaxTools)));
    try {
        validateSolverOptions(options);
    } catch (const Error& e) {
        throw Error(path.string() + ": " + e.what());
    }
    return options;
}

} // namespace sculptflow::cli
