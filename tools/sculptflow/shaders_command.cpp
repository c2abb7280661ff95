// `sculptflow shaders export DIR`: writes the built-in shader sources out for editing.
#include <cstdio>
#include <fstream>
#include <memory>

#include <sculptflow/error.hpp>
#include "host/shader_compiler.hpp"
#include "commands.hpp"
#include "output_paths.hpp"

namespace sculptflow::cli {
namespace {

void exportShaders(const std::filesystem::path& dir, bool overwrite) {
    // Every file checked before the first is written: a refusal leaves the folder as it was.
    checkOutputFolder("DIR", dir.string());
    for (const auto& [path, text] : embeddedShaderSources())
        if (std::filesystem::exists(dir / path) && !overwrite)
            throw Error((dir / path).string() + ": exists (use --force to overwrite)");
    for (const auto& [path, text] : embeddedShaderSources()) {
        const std::filesystem::path target = dir / path;
        std::error_code ec;
        std::filesystem::create_directories(target.parent_path(), ec);
        std::ofstream out(target, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out) throw Error(target.string() + ": could not write");
        std::printf("wrote %s\n", target.string().c_str());
    }
}

} // namespace

void addShadersCommand(CLI::App& app) {
    CLI::App* shaders = app.add_subcommand("shaders", "The built-in shader sources");
    shaders->require_subcommand(1);
    CLI::App* exportCmd = shaders->add_subcommand(
        "export", "Write the shader sources into DIR, to edit and hot-reload with `tune --shaders DIR`");
    auto dir = std::make_shared<std::string>();
    auto force = std::make_shared<bool>(false);
    exportCmd->add_option("DIR", *dir, "Directory to write into (created if needed)")->required();
    exportCmd->add_flag("--force", *force, "Overwrite existing files");
    exportCmd->callback([dir, force] { exportShaders(*dir, *force); });
}

} // namespace sculptflow::cli
