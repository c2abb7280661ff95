// Runtime GLSL → SPIR-V with the glslang library, for hot reload. Same sources and
// #include rules as the build (glslangValidator -I<shader dir>).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <sculptflow/error.hpp>
#include <sculptflow/hot_reload.hpp> // ShaderDiagnostic

namespace sculptflow {

// A shader that did not compile: what() lists every diagnostic as file:line: message.
class SCULPTFLOW_API ShaderCompileError : public Error {
public:
    explicit ShaderCompileError(std::vector<ShaderDiagnostic> diagnostics);
    const std::vector<ShaderDiagnostic>& diagnostics() const { return diagnostics_; }

private:
    std::vector<ShaderDiagnostic> diagnostics_;
};

struct CompiledShader {
    std::vector<uint32_t> spirv;
    std::vector<std::filesystem::path> sources; // the entry file and every file it included
};

// Where shader text comes from: a directory on disk, or the sources embedded in the
// library (`sculptflow shaders export` writes those out for editing).
using ShaderFileReader = std::function<std::optional<std::string>(const std::filesystem::path&)>;
ShaderFileReader shaderFilesOnDisk();
ShaderFileReader embeddedShaderFiles();

// The shader sources compiled into the library, by path relative to shaders/.
const std::map<std::string, std::string>& embeddedShaderSources();

// Compiles `entry` (a path relative to `root`, stage from its extension), with
// `define` defined first when it is not empty. Includes resolve relative to the
// including file, then to `root`. Throws ShaderCompileError with file and line
// for GLSL errors, sculptflow::Error for missing files.
CompiledShader compileShader(const std::filesystem::path& root, const std::filesystem::path& entry,
                             const ShaderFileReader& read = shaderFilesOnDisk(), const std::string& define = {});

} // namespace sculptflow
