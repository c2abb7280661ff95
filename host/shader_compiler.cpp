// Runtime shader compilation with glslang: an includer over disk or embedded
// sources, and glslang's info log turned into file:line diagnostics.
#include "shader_compiler.hpp"

#include <fstream>
#include <memory>
#include <mutex>
#include <regex>
#include <sstream>

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include "generated/shader_sources.h"

namespace sculptflow {
namespace {

std::string describe(const std::vector<ShaderDiagnostic>& diagnostics) {
    std::string text = "shader compilation failed:";
    for (const ShaderDiagnostic& d : diagnostics)
        text += "\n  " + d.file.string() + ":" + std::to_string(d.line) + ": " + d.message;
    return text;
}

EShLanguage stageOf(const std::filesystem::path& entry) {
    const std::string ext = entry.extension().string();
    if (ext == ".comp") return EShLangCompute;
    if (ext == ".vert") return EShLangVertex;
    if (ext == ".frag") return EShLangFragment;
    throw Error(entry.string() + ": unknown shader stage (expected .comp, .vert or .frag)");
}

// Resolves `#include "x"` relative to the including file, then to the root, and
// records every file it opened (the pipeline depends on all of them).
class Includer : public glslang::TShader::Includer {
public:
    Includer(std::filesystem::path root, const ShaderFileReader& read) : root_(std::move(root)), read_(read) {}

    IncludeResult* includeLocal(const char* name, const char* includer, size_t) override {
        std::filesystem::path beside = std::filesystem::path(includer).parent_path() / name;
        for (const std::filesystem::path& candidate : {beside, std::filesystem::path(name)}) {
            std::filesystem::path relative = candidate.lexically_normal();
            if (auto text = read_(root_ / relative)) return keep(relative, std::move(*text));
        }
        return nullptr;
    }
    IncludeResult* includeSystem(const char* name, const char*, size_t) override {
        if (auto text = read_(root_ / name)) return keep(std::filesystem::path(name).lexically_normal(), std::move(*text));
        return nullptr;
    }
    void releaseInclude(IncludeResult*) override {} // contents live as long as the includer

    std::vector<std::filesystem::path> opened;

private:
    IncludeResult* keep(const std::filesystem::path& relative, std::string text) {
        opened.push_back(root_ / relative);
        texts_.push_back(std::make_unique<std::string>(std::move(text)));
        const std::string& stored = *texts_.back();
        results_.push_back(std::make_unique<IncludeResult>(relative.string(), stored.data(), stored.size(), nullptr));
        return results_.back().get();
    }

    std::filesystem::path root_;
    const ShaderFileReader& read_;
    std::vector<std::unique_ptr<std::string>> texts_;
    std::vector<std::unique_ptr<IncludeResult>> results_;
};

// glslang reports "ERROR: <file>:<line>: <message>"; files are relative to the root.
std::vector<ShaderDiagnostic> parseLog(const std::string& log, const std::filesystem::path& root) {
    static const std::regex located(R"(^(?:ERROR|WARNING): (.+):(\d+): (.*)$)");
    static const std::regex plain(R"(^ERROR: (.*)$)");
    std::vector<ShaderDiagnostic> out;
    std::istringstream lines(log);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (line.rfind("ERROR:", 0) != 0) continue;
        if (line.find("compilation terminated") != std::string::npos) continue; // follows a real error
        if (std::regex_match(line, m, located)) {
            out.push_back({root / m[1].str(), std::stoi(m[2].str()), m[3].str()});
        } else if (std::regex_match(line, m, plain) && m[1].str().find("compilation errors") == std::string::npos) {
            out.push_back({root, 0, m[1].str()});
        }
    }
    if (out.empty()) out.push_back({root, 0, log.empty() ? "unknown glslang error" : log});
    return out;
}

void initializeGlslang() {
    static std::once_flag once;
    std::call_once(once, [] { glslang::InitializeProcess(); });
}

} // namespace

ShaderCompileError::ShaderCompileError(std::vector<ShaderDiagnostic> diagnostics)
    : Error(ErrorCode::ShaderCompile, describe(diagnostics)), diagnostics_(std::move(diagnostics)) {}

ShaderFileReader shaderFilesOnDisk() {
    return [](const std::filesystem::path& path) -> std::optional<std::string> {
        std::ifstream in(path, std::ios::binary);
        if (!in) return std::nullopt;
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    };
}

const std::map<std::string, std::string>& embeddedShaderSources() {
    static const std::map<std::string, std::string> sources = [] {
        std::map<std::string, std::string> map;
        for (const EmbeddedShaderSource& s : kEmbeddedShaderSources) map.emplace(s.path, s.text);
        return map;
    }();
    return sources;
}

ShaderFileReader embeddedShaderFiles() {
    return [](const std::filesystem::path& path) -> std::optional<std::string> {
        const auto& sources = embeddedShaderSources();
        auto found = sources.find(path.relative_path().lexically_normal().string());
        if (found == sources.end()) found = sources.find(path.lexically_normal().string());
        if (found == sources.end()) return std::nullopt;
        return found->second;
    };
}

CompiledShader compileShader(const std::filesystem::path& root, const std::filesystem::path& entry,
                             const ShaderFileReader& read, const std::string& define) {
    initializeGlslang();
    const EShLanguage stage = stageOf(entry);
    std::optional<std::string> source = read(root / entry);
    if (!source) throw Error((root / entry).string() + ": cannot read shader");

    glslang::TShader shader(stage);
    const char* text = source->c_str();
    const std::string name = entry.lexically_normal().string();
    const char* names[] = {name.c_str()};
    shader.setStringsWithLengthsAndNames(&text, nullptr, names, 1);
    const std::string preamble = define.empty() ? "" : "#define " + define + "\n";
    shader.setPreamble(preamble.c_str());
    shader.setEnvInput(glslang::EShSourceGlsl, stage, glslang::EShClientVulkan, 100);
    shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2);
    shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_5);
    Includer includer(root, read);
    const auto messages = EShMessages(EShMsgSpvRules | EShMsgVulkanRules);
    if (!shader.parse(GetDefaultResources(), 460, false, messages, includer))
        throw ShaderCompileError(parseLog(shader.getInfoLog(), root));

    glslang::TProgram program;
    program.addShader(&shader);
    if (!program.link(messages)) throw ShaderCompileError(parseLog(program.getInfoLog(), root));

    CompiledShader compiled;
    glslang::GlslangToSpv(*program.getIntermediate(stage), compiled.spirv);
    compiled.sources.push_back(root / entry);
    compiled.sources.insert(compiled.sources.end(), includer.opened.begin(), includer.opened.end());
    return compiled;
}

} // namespace sculptflow
