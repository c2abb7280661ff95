#include "flag_warning.hpp"

#include <cstdio>
#include <string>

#include <sculptflow/error.hpp>

namespace sculptflow::cli {

void reportFlaggedShare(const SolveReport& report, size_t flagged, size_t inReach, const SolverOptions& options,
                        const std::string& device, bool strict) {
    if (inReach == 0 || double(flagged) <= kFlaggedShareWarning * double(inReach)) return;
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", 100.0 * double(flagged) / double(inReach));
    std::string what;
    auto add = [&](size_t count, const std::string& flag, const std::string& change) {
        if (count == 0) return;
        what += (what.empty() ? "" : "; ") + std::to_string(count) + " " + flag + " (" + change + ")";
    };
    const bool llvmpipe = device.find("llvmpipe") != std::string::npos;
    add(report.iterationCap, "at the attempt cap",
        "raise --max-attempts, now " + std::to_string(options.maxIterations) + ", or loosen --tol" +
            (llvmpipe ? "; llvmpipe also stops a group of vertices' loops after 65,535 iterations, which neither lifts"
                      : ""));
    add(report.minStepClamped, "clamped at h_min", "loosen --tol: steps this short meet float rounding");
    add(report.unverified, "not certified within tol",
        "the flow stretches their errors past tol" + std::string(options.verify ? ", or the check disagrees" : "") +
            "; loosen --tol, or try --method dp45");
    add(report.nonFinite, "not finite", "the input or the field is not finite there");
    const std::string message = std::to_string(flagged) + " of " + std::to_string(inReach) + " vertices in reach (" +
                                share + ") are flagged, so not held to --tol: " + what;
    if (strict) throw Error(message + " (an error under --strict)");
    std::fprintf(stderr, "sculptflow: warning: %s\n", message.c_str());
}

} // namespace sculptflow::cli
