// `sculptflow sweep`: the accuracy sweep over generated strokes (issue 29). Prints
// the worst max error / tol per family and method, the worst runs, and writes
// each case that breaks the contract as files `sculptflow validate` reruns.
#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <sculptflow/error.hpp>
#include "accuracy_sweep.hpp"
#include "commands.hpp"
#include "number_checks.hpp"
#include "output_paths.hpp"

namespace sculptflow::cli {
namespace {

// The method table's adaptive rows: the sweep's default, tsit5 and any later one included.
std::vector<std::string> adaptiveMethodNames() {
    std::vector<std::string> names;
    for (Method m : allMethods(true)) names.emplace_back(methodName(m));
    return names;
}

struct SweepArgs {
    uint64_t first = 0;
    uint64_t count = 48;
    std::vector<std::string> methods = adaptiveMethodNames();
    std::vector<double> tolerances{0.3, 0.1, 0.03, 0.01};
    bool gpu = false;
    bool verify = false;
    std::string family; // empty: every family
    std::string failuresDir;
    std::string csvPath;
    size_t worst = 12;
};

struct SweepCell {
    double worstRatio = 0.0;
    double evaluations = 0.0; // summed, for the mean
    size_t runs = 0;
    size_t flagged = 0;       // vertices
};

void addRun(SweepCell& cell, const SweepRun& r) {
    cell.worstRatio = std::max(cell.worstRatio, r.ratio());
    cell.evaluations += r.meanEvaluations;
    cell.runs += 1;
    cell.flagged += r.flagged;
}

// Rows × methods: "worst ratio (mean evaluations)".
void printSweepTable(const char* title, const std::vector<std::string>& rows, const std::vector<Method>& methods,
                const std::map<std::pair<std::string, Method>, SweepCell>& cells) {
    std::printf("\n%s: worst max error / tol (mean evaluations per vertex; vertices flagged)\n", title);
    std::printf("  %-24s", "");
    for (Method m : methods) std::printf("%-26s", std::string(methodName(m)).c_str());
    std::printf("\n");
    for (const std::string& row : rows) {
        std::printf("  %-24s", row.c_str());
        for (Method m : methods) {
            auto it = cells.find({row, m});
            char text[64] = "-";
            if (it != cells.end())
                std::snprintf(text, sizeof text, "%.3f (%.1f; %zu)", it->second.worstRatio,
                              it->second.evaluations / double(it->second.runs), it->second.flagged);
            std::printf("%-26s", text);
        }
        std::printf("\n");
    }
}

void printSweepSummary(const std::vector<SweepRun>& runs, const std::vector<Method>& methods, bool gpu) {
    std::map<std::pair<std::string, Method>, SweepCell> byFamily, byTolerance, byMode;
    std::vector<std::string> families, tolerances, modes;
    auto note = [](std::vector<std::string>& list, const std::string& name) {
        if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
    };
    for (const SweepRun& r : runs) {
        if (r.gpu != gpu) continue;
        char tol[32];
        std::snprintf(tol, sizeof tol, "tol %g", r.tolerance);
        note(families, r.family);
        note(tolerances, tol);
        note(modes, std::string(moveModeName(r.mode)));
        addRun(byFamily[{r.family, r.method}], r);
        addRun(byTolerance[{tol, r.method}], r);
        addRun(byMode[{std::string(moveModeName(r.mode)), r.method}], r);
    }
    if (families.empty()) return;
    std::sort(families.begin(), families.end());
    const std::string device = gpu ? "GPU" : "CPU reference";
    printSweepTable((device + ", by family").c_str(), families, methods, byFamily);
    printSweepTable((device + ", by tolerance").c_str(), tolerances, methods, byTolerance);
    printSweepTable((device + ", by mode").c_str(), modes, methods, byMode);
}

std::vector<Method> parseMethods(const std::vector<std::string>& names) {
    std::vector<Method> methods;
    for (const std::string& name : names) {
        std::optional<Method> m = parseMethod(name);
        if (!m) throw Error("--methods: unknown method '" + name + "'");
        methods.push_back(*m);
    }
    return methods;
}

// --family: a name, or a number below kStrokeFamilies (a seed's family is seed % 12).
std::string parseFamily(const std::string& family) {
    if (family.empty()) return family;
    std::string names;
    for (int f = 0; f < kStrokeFamilies; ++f) {
        if (family == strokeFamily(uint64_t(f)) || family == std::to_string(f)) return strokeFamily(uint64_t(f));
        names += (f ? ", " : "") + strokeFamily(uint64_t(f));
    }
    throw Error("--family: no family '" + family + "' (0-" + std::to_string(kStrokeFamilies - 1) + " or " + names +
                ")");
}

void runSweep(const SweepArgs& args) {
    const std::string family = parseFamily(args.family);
    // The seeds first..first+count-1 must exist: a wrapped range would run none, or the wrong ones.
    if (args.count > std::numeric_limits<uint64_t>::max() - args.first)
        throw Error("--first " + std::to_string(args.first) + " --count " + std::to_string(args.count) +
                    ": the last seed would be past " + std::to_string(std::numeric_limits<uint64_t>::max()));
    checkOutputPath("--csv", args.csvPath);
    checkOutputFolder("--failures", args.failuresDir);
    SweepOptions options;
    options.methods = parseMethods(args.methods);
    options.tolerances = args.tolerances;
    options.verify = args.verify;
    std::unique_ptr<Context> context;
    std::unique_ptr<GpuSolver> solver;
    if (args.gpu) {
        context = std::make_unique<Context>(ContextOptions{});
        solver = std::make_unique<GpuSolver>(*context);
        options.gpu = solver.get();
    }

    std::unique_ptr<std::FILE, int (*)(std::FILE*)> csv(nullptr, &std::fclose);
    if (!args.csvPath.empty()) {
        csv.reset(std::fopen(args.csvPath.c_str(), "w"));
        if (!csv) throw Error("--csv " + args.csvPath + ": cannot write");
        std::fprintf(csv.get(), "%s\n", sweepCsvHeader().c_str());
    }
    std::vector<SweepRun> runs;
    std::set<uint64_t> written;
    size_t cases = 0, failing = 0, floatLimited = 0;
    for (uint64_t seed = args.first; seed < args.first + args.count; ++seed) {
        if (!family.empty() && strokeFamily(seed) != family) continue;
        const GeneratedCase c = generateCase(seed);
        std::vector<SweepRun> caseRuns = sweepCase(c, options);
        ++cases;
        for (const SweepRun& r : caseRuns) {
            if (r.maxError <= r.tolerance) continue;
            ++failing;
            floatLimited += r.floatLimited();
            std::fprintf(stderr, "seed %llu %s %s tol %g: max error %.4f voxel (%.2f x tol)%s\n",
                         (unsigned long long)r.seed, r.gpu ? "GPU" : "CPU", std::string(methodName(r.method)).c_str(),
                         r.tolerance, r.maxError, r.ratio(), r.floatLimited() ? ", float-limited" : "");
            if (!args.failuresDir.empty()) {
                if (written.insert(seed).second) writeCase(c, args.failuresDir);
                std::fprintf(stderr, "  %s\n",
                             validateCommand(c, args.failuresDir, methodName(r.method), r.tolerance, args.verify).c_str());
            }
        }
        if (cases % 25 == 0) std::fprintf(stderr, "%zu cases, %zu runs over tol\n", cases, failing);
        if (csv) {
            for (const SweepRun& r : caseRuns) std::fprintf(csv.get(), "%s\n", sweepCsvLine(r).c_str());
            std::fflush(csv.get());
        }
        runs.insert(runs.end(), caseRuns.begin(), caseRuns.end());
    }
    if (cases == 0) // only when --family filtered out every seed: nothing was checked
        throw Error("--family " + family + ": no seed in " + std::to_string(args.first) + "-" +
                    std::to_string(args.first + args.count - 1) + " is of that family (a seed's family is seed % " +
                    std::to_string(kStrokeFamilies) + ")");

    std::printf("sculptflow sweep: %zu generated cases (seeds %llu–%llu%s), %zu runs, %zu over tol (%zu of them "
                "float-limited: no method's float solve at tol/100 (or tol/10) and a quarter of the step limits gets within tol/2)\n",
                cases, (unsigned long long)args.first, (unsigned long long)(args.first + args.count - 1),
                family.empty() ? "" : (", family " + family).c_str(), runs.size(), failing, floatLimited);
    printSweepSummary(runs, options.methods, false);
    printSweepSummary(runs, options.methods, true);

    std::vector<SweepRun> worst = runs;
    std::sort(worst.begin(), worst.end(), [](const SweepRun& a, const SweepRun& b) { return a.ratio() > b.ratio(); });
    worst.resize(std::min(worst.size(), args.worst));
    std::printf("\nWorst runs (max error / tol)\n");
    for (const SweepRun& r : worst) {
        char floor[64] = "";
        if (r.floatFloor >= 0.0) std::snprintf(floor, sizeof floor, ", a tight float solve %.4f off", r.floatFloor);
        std::printf("  %.3f  seed %llu %s %s tol %g: %.4f voxel at vertex %zu%s (flow amplifies its start %.0fx%s), "
                    "%.1f evaluations, %zu flagged\n",
                    r.ratio(), (unsigned long long)r.seed, r.gpu ? "GPU" : "CPU",
                    std::string(methodName(r.method)).c_str(), r.tolerance, r.maxError, r.worstVertex,
                    r.worstCulled ? " (culled)" : "", r.amplification, floor, r.meanEvaluations, r.flagged);
        std::printf("         %s\n", generateCase(r.seed).description.c_str());
    }
    std::fflush(stdout);
    if (failing > 0) throw CLI::RuntimeError(1);
}

} // namespace

void addSweepCommand(CLI::App& app) {
    auto args = std::make_shared<SweepArgs>();
    CLI::App* cmd = app.add_subcommand(
        "sweep",
        "Solve generated strokes (seeded, deterministic) with each method and tolerance against the double ground "
        "truth; report the worst max error / tol; exits 1 when an unflagged vertex is over tol");
    cmd->add_option("--first", args->first, "First seed")->capture_default_str();
    cmd->add_option("--count", args->count, "Seeds to run (each seed's family is seed % 12)")
        ->check(positiveNumber())
        ->capture_default_str();
    cmd->add_option("--methods", args->methods, "Methods, comma-separated")->delimiter(',')->capture_default_str();
    cmd->add_option("--tols", args->tolerances, "Tolerances in voxels, comma-separated")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_flag("--verify", args->verify,
                  "Solve with the bound's check (deform --verify): unverified vertices count as flagged");
    cmd->add_option("--family", args->family,
                    "Only seeds of this family: its name (kelvinlet/tri-scale, affine-flow/sharp, ...) or number (0-11)");
    cmd->add_flag("--gpu", args->gpu, "Solve each case on the GPU too (SCULPTFLOW_DEVICE picks the device)");
    cmd->add_option("--failures", args->failuresDir,
                    "Write each case over tol here as seed-N.json and seed-N.ply, with its validate command");
    cmd->add_option("--csv", args->csvPath, "Write every run as a CSV line here");
    cmd->add_option("--worst", args->worst, "Worst runs to list")->capture_default_str();
    cmd->callback([args] { runSweep(*args); });
}

} // namespace sculptflow::cli
