// Hot reload of deform.comp while someone tunes the solver: watch, recompile, swap.
#pragma once

#include <filesystem>
#include <functional>
#include <vector>

#include "file_watcher.hpp"
#include "gpu_solver.hpp"
#include "shader_compiler.hpp"

namespace sculptflow {

struct ReloadReport {
    enum class Status { Unchanged, Reloaded, Failed };
    Status status = Status::Unchanged;
    std::vector<ShaderDiagnostic> diagnostics; // when Failed
    std::string message;                       // when Failed
    double compileMilliseconds = 0.0;
};

// Opt-in: a shipped program uses the SPIR-V embedded at build time. This one
// compiles `entry` under `directory` at construction and puts it into `solver`;
// if that fails, the solver keeps the shader it had (see lastReport()). poll(),
// called between dispatches, recompiles when the entry or any file it includes
// changed and swaps the new pipelines in; if the new source fails, the running
// pipelines stay, the error goes to stderr and to the callback, and the next good
// save recovers. Nothing here throws for a bad shader: a typo never ends a session.
class ShaderReloader {
public:
    ShaderReloader(GpuSolver& solver, std::filesystem::path directory,
                   std::filesystem::path entry = "deform.comp", bool useInotify = true);

    ReloadReport poll();
    // Compiles and swaps now, whether or not anything changed.
    ReloadReport reload();

    void onReport(std::function<void(const ReloadReport&)> callback) { callback_ = std::move(callback); }
    // How many builds have been swapped in (1 after a good construction).
    int generation() const { return generation_; }
    const ReloadReport& lastReport() const { return last_; }
    const std::vector<std::filesystem::path>& sources() const { return sources_; }
    bool usesInotify() const { return watcher_.usesInotify(); }

private:
    GpuSolver& solver_;
    std::filesystem::path directory_;
    std::filesystem::path entry_;
    FileWatcher watcher_;
    std::vector<std::filesystem::path> sources_;
    std::function<void(const ReloadReport&)> callback_;
    ReloadReport last_;
    int generation_ = 0;
};

} // namespace sculptflow
