// Watching deform.comp and its includes, recompiling, and swapping pipelines safely.
#include "shader_reloader.hpp"

#include <chrono>
#include <cstdio>

namespace sculptflow {

ShaderReloader::ShaderReloader(GpuSolver& solver, std::filesystem::path directory, std::filesystem::path entry,
                               bool useInotify)
    : solver_(solver), directory_(std::move(directory)), entry_(std::move(entry)), watcher_(useInotify) {
    reload();
}

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

ReloadReport ShaderReloader::poll() {
    if (!watcher_.changed()) return {};
    return reload();
}

ReloadReport ShaderReloader::reload() {
    ReloadReport report;
    auto begin = std::chrono::steady_clock::now();
    try {
        CompiledShader shader = compileShader(directory_, entry_);
        solver_.useShader(shader.spirv); // rebuilds every variant in use, or keeps the old ones
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
        std::fprintf(stderr, "sculptflow: shader reload failed, keeping the running pipelines:\n%s\n",
                     report.message.c_str());
    if (callback_) callback_(report);
    last_ = report;
    return report;
}

} // namespace sculptflow
