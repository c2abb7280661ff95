// Watching deform.comp and its includes, recompiling, and swapping pipelines safely.
#include <sculptflow/hot_reload.hpp>

#include "context_impl.hpp"
#include "deform_pipeline.hpp"
#include "file_watcher.hpp"
#include "gpu_solver_impl.hpp"
#include "impl_access.hpp"
#include "live_pipelines.hpp"
#include "shader_compiler.hpp"

#include <chrono>

namespace sculptflow {

struct ShaderReloader::Impl {
    using Use = std::function<void(const DeformShader&)>; // swaps a build in, or throws keeping the old
    Impl(const Context& context, Use use, std::filesystem::path directory, std::filesystem::path entry,
         bool useInotify)
        : context_(context), use_(std::move(use)), directory_(std::move(directory)), entry_(std::move(entry)),
          watcher_(useInotify) {}
    ReloadReport reload();

    const Context& context_; // its log callback gets the failures
    Use use_;
    std::filesystem::path directory_;
    std::filesystem::path entry_;
    FileWatcher watcher_;
    std::vector<std::filesystem::path> sources_;
    std::function<void(const ReloadReport&)> callback_;
    ReloadReport last_;
    int generation_ = 0;
};

namespace {

// Until a build succeeds its includes are unknown: watch every shader file there.
std::vector<std::filesystem::path> shaderFilesUnder(const std::filesystem::path& directory) {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(directory, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        const std::string ext = it->path().extension().string();
        if (ext == ".comp" || ext == ".glsl" || ext == ".vert" || ext == ".frag") files.push_back(it->path());
    }
    return files;
}

} // namespace

ReloadReport ShaderReloader::Impl::reload() {
    ReloadReport report;
    auto begin = std::chrono::steady_clock::now();
    try {
        CompiledShader shader = compileShader(directory_, entry_);
        CompiledShader passes = compileShader(directory_, entry_, shaderFilesOnDisk(), kDeformWithoutSolve);
        use_({shader.spirv, passes.spirv}); // rebuilds every variant in use, or keeps the old ones
        sources_ = shader.sources;
        ++generation_;
        report.status = ReloadReport::Status::Reloaded;
    } catch (const ShaderCompileError& e) {
        report.status = ReloadReport::Status::Failed;
        report.diagnostics = e.diagnostics();
        report.message = e.what();
    } catch (const Error& e) {
        report.status = ReloadReport::Status::Failed;
        report.message = e.what();
    }
    report.compileMilliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    watcher_.watch(sources_.empty() ? shaderFilesUnder(directory_) : sources_); // includes may change
    if (report.status == ReloadReport::Status::Failed)
        implOf(context_).log(LogLevel::Warning,
                             "shader reload failed, keeping the running pipelines:\n" + report.message);
    if (callback_) callback_(report);
    last_ = report;
    return report;
}

ShaderReloader::ShaderReloader(GpuSolver& solver, std::filesystem::path directory, std::filesystem::path entry,
                               bool useInotify)
    : impl_(std::make_unique<Impl>(
          solver.context(), [&solver](const DeformShader& shader) { implOf(solver).pipelines.replaceShader(shader); },
          std::move(directory), std::move(entry), useInotify)) {
    impl_->reload();
}

ShaderReloader::ShaderReloader(Context& context, std::filesystem::path directory, std::filesystem::path entry,
                               bool useInotify)
    : impl_(std::make_unique<Impl>(
          context, [&context](const DeformShader& shader) { livePipelines(context).replaceDeformShader(shader); },
          std::move(directory), std::move(entry), useInotify)) {
    impl_->reload();
}
ShaderReloader::~ShaderReloader() = default;

ReloadReport ShaderReloader::poll() {
    if (!impl_->watcher_.changed()) return {};
    return impl_->reload();
}

ReloadReport ShaderReloader::reload() { return impl_->reload(); }
void ShaderReloader::onReport(std::function<void(const ReloadReport&)> callback) {
    impl_->callback_ = std::move(callback);
}
int ShaderReloader::generation() const { return impl_->generation_; }
const ReloadReport& ShaderReloader::lastReport() const { return impl_->last_; }
const std::vector<std::filesystem::path>& ShaderReloader::sources() const { return impl_->sources_; }
bool ShaderReloader::usesInotify() const { return impl_->watcher_.usesNotifications(); }

} // namespace sculptflow
