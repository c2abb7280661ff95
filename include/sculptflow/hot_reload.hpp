// Hot reload of deform.comp while someone tunes the solver: swap in a build,
// or watch, recompile and swap. The swaps are in sculptflow::sculptflow, for a
// caller that compiles SPIR-V itself; ShaderReloader needs sculptflow::hot_reload
// (it brings glslang). A shipped renderer uses the SPIR-V embedded at build time
// and needs none of this.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gpu_solver.hpp"
#include "live_move.hpp"

namespace sculptflow {

// Runs another build of deform.comp in `solver` from now on, every pass from it
// (ShaderReloader also builds the passes other than the solve from a second
// compile without the solver, which builds far faster). Takes effect between
// runs. A shader whose bindings differ from the library's (number, set, type,
// count or block name) is refused like one that fails to build: the old one
// stays and this throws sculptflow::Error.
SCULPTFLOW_API void useShader(GpuSolver& solver, std::span<const uint32_t> spirv);

// The same into the renderer: every LiveMove of `context` solves with this build
// from its next record() on; each pipeline built so far is rebuilt first. The
// ones replaced are kept, as frames in flight may use them, until
// releaseRetiredLiveMovePipelines() or the Context goes. Throws
// sculptflow::Error, changing nothing, when a build fails.
SCULPTFLOW_API void useLiveMoveShader(Context& context, std::span<const uint32_t> spirv);
// Destroys the pipelines hot reloads replaced; call it once every frame recorded
// before the last reload is complete (after its fence). Returns how many.
SCULPTFLOW_API size_t releaseRetiredLiveMovePipelines(Context& context);

struct ShaderDiagnostic {
    std::filesystem::path file; // the file the message is about (an included one, too)
    int line = 0;               // 1-based; 0 when glslang gave none
    std::string message;
};

struct ReloadReport {
    enum class Status { Unchanged, Reloaded, Failed };
    Status status = Status::Unchanged;
    std::vector<ShaderDiagnostic> diagnostics; // when Failed
    std::string message;                       // when Failed
    double compileMilliseconds = 0.0;
};

// Compiles `entry` under `directory` (with the build's #include rules) at
// construction and puts it into `solver` (or a Context's LiveMoves); if that fails, the solver keeps the
// shader it had (see lastReport()). poll(), called between dispatches,
// recompiles when the entry or any file it includes changed and swaps the new
// pipelines in; if the new source fails, the running pipelines stay, the error
// goes to the Context's log (ContextHooks::log; stderr by default) and to the
// callback, and the next good save recovers. Nothing here throws for a bad
// shader: a typo never ends a session. Watches with the platform's change
// notifications (inotify on Linux, FindFirstChangeNotification on Windows), or
// by polling modification times elsewhere or when useInotify is false;
// usesInotify() says whether notifications are in use.
class SCULPTFLOW_API ShaderReloader {
public:
    ShaderReloader(GpuSolver& solver, std::filesystem::path directory,
                   std::filesystem::path entry = "deform.comp", bool useInotify = true);
    // The same for every LiveMove of `context` (useLiveMoveShader): a swap takes
    // effect at each one's next record(), between frames; the pipelines it
    // replaces stay until releaseRetiredLiveMovePipelines(context), as frames in
    // flight may use them. A failed compile keeps the running ones and the drag goes on.
    ShaderReloader(Context& context, std::filesystem::path directory, std::filesystem::path entry = "deform.comp",
                   bool useInotify = true);
    ~ShaderReloader();
    ShaderReloader(const ShaderReloader&) = delete;
    ShaderReloader& operator=(const ShaderReloader&) = delete;

    ReloadReport poll();
    // Compiles and swaps now, whether or not anything changed.
    ReloadReport reload();
    void onReport(std::function<void(const ReloadReport&)> callback);

    // How many builds have been swapped in (1 after a good construction).
    int generation() const;
    const ReloadReport& lastReport() const;
    // The entry and every file it included, as of the last good build.
    const std::vector<std::filesystem::path>& sources() const;
    bool usesInotify() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace sculptflow
