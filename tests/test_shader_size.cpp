// deform.comp's inlined size. A driver inlines every call site of a function
// before specialization removes the passes and methods a pipeline does not run,
// so a heavy function called from two sites doubles every pipeline's build, and
// so a hot reload's (docs/architecture.md, "Pipeline build time"): verify's
// passes loop around the one call of integratePass, and pass 0 (a range or the
// active list) makes the one call of solveVertex. Read from the SPIR-V's words.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <span>
#include <string>
#include <vector>

#include "generated/deform_comp_spirv.h"
#include "generated/deform_passes_spirv.h"
#include "host/deform_pipeline.hpp"
#include "host/shader_compiler.hpp"
#include "shader_files.hpp"

namespace sculptflow {
namespace {

constexpr uint32_t kOpName = 5, kOpEntryPoint = 15, kOpFunction = 54, kOpFunctionEnd = 56, kOpFunctionCall = 57;

struct Function {
    std::string name;
    uint64_t instructions = 0;
    std::vector<uint32_t> calls; // callee ids, one a call site
};

struct Module {
    uint32_t entry = 0;
    std::map<uint32_t, Function> functions;
};

Module readModule(std::span<const uint32_t> words) {
    Module module;
    std::map<uint32_t, std::string> names;
    uint32_t current = 0;
    for (size_t at = 5; at < words.size();) {
        const uint32_t opcode = words[at] & 0xffffu, count = words[at] >> 16;
        if (count == 0 || at + count > words.size()) throw std::runtime_error("malformed SPIR-V");
        const std::span<const uint32_t> op = words.subspan(at, count);
        if (opcode == kOpName) names[op[1]] = reinterpret_cast<const char*>(&op[2]);
        if (opcode == kOpEntryPoint) module.entry = op[2];
        if (opcode == kOpFunction) current = op[2];
        if (current) module.functions[current].instructions += 1;
        if (current && opcode == kOpFunctionCall) module.functions[current].calls.push_back(op[3]);
        if (opcode == kOpFunctionEnd) current = 0;
        at += count;
    }
    for (auto& [id, function] : module.functions) function.name = names[id];
    return module;
}

// Instructions once every call is inlined (SPIR-V forbids recursion).
uint64_t inlinedSize(const Module& module, uint32_t id, std::map<uint32_t, uint64_t>& memo) {
    if (auto found = memo.find(id); found != memo.end()) return found->second;
    const Function& function = module.functions.at(id);
    uint64_t size = function.instructions;
    for (uint32_t callee : function.calls) size += inlinedSize(module, callee, memo);
    return memo[id] = size;
}

// "name (N sites, M instructions inlined)" for every function of over a tenth of
// the entry point's inlined size that more than one site calls.
std::vector<std::string> heavyFunctionsCalledTwice(std::span<const uint32_t> words) {
    const Module module = readModule(words);
    std::map<uint32_t, uint64_t> memo;
    const uint64_t total = inlinedSize(module, module.entry, memo);
    std::map<uint32_t, int> sites;
    for (const auto& [id, function] : module.functions)
        for (uint32_t callee : function.calls) sites[callee] += 1;
    std::vector<std::string> heavy;
    for (const auto& [id, count] : sites) {
        const uint64_t size = inlinedSize(module, id, memo);
        if (count > 1 && size * 10 > total)
            heavy.push_back(module.functions.at(id).name + " (" + std::to_string(count) + " sites, " +
                            std::to_string(size) + " instructions inlined)");
    }
    return heavy;
}

TEST(ShaderSize, EveryHeavyFunctionOfDeformHasOneCallSite) {
    const std::span<const uint32_t> words(k_deform_comp_spirv);
    const Module module = readModule(words);
    std::map<uint32_t, uint64_t> memo;
    ASSERT_GT(module.functions.size(), 20u); // the solver's functions, read
    EXPECT_GT(inlinedSize(module, module.entry, memo), 10 * module.functions.at(module.entry).instructions);
    EXPECT_EQ(heavyFunctionsCalledTwice(words), std::vector<std::string>{});
}

bool definesFunction(std::span<const uint32_t> words, const std::string& prefix) {
    for (const auto& [id, function] : readModule(words).functions)
        if (function.name.rfind(prefix, 0) == 0) return true;
    return false;
}

uint64_t entryInlinedSize(std::span<const uint32_t> words) {
    const Module module = readModule(words);
    std::map<uint32_t, uint64_t> memo;
    return inlinedSize(module, module.entry, memo);
}

// The passes other than the solve are built from deform.comp without the solve's
// call site (SF_WITHOUT_SOLVE), embedded and at a hot reload alike: no solver in
// them, so their pipelines build in a fraction of the time.
TEST(ShaderSize, TheOtherPassesAreBuiltWithoutTheSolver) {
    const std::span<const uint32_t> whole(k_deform_comp_spirv), passes(k_deform_passes_spirv);
    ASSERT_TRUE(definesFunction(whole, "solveVertex("));
    EXPECT_FALSE(definesFunction(passes, "solveVertex("));
    EXPECT_FALSE(definesFunction(passes, "integratePass("));
    EXPECT_LT(entryInlinedSize(passes) * 5, entryInlinedSize(whole));
    const std::vector<uint32_t> reloaded =
        compileShader("", "deform.comp", embeddedShaderFiles(), kDeformWithoutSolve).spirv;
    EXPECT_FALSE(definesFunction(reloaded, "solveVertex("));
    EXPECT_EQ(entryInlinedSize(reloaded), entryInlinedSize(passes));
}

TEST(ShaderSize, ASecondCallOfSolveVertexIsCaught) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    test::edit(dir / "deform.comp", "        solveVertex(vertex);\n",
               "        if (pass == 4) solveVertex(vertex);\n        else solveVertex(vertex);\n");
    const std::vector<std::string> heavy = heavyFunctionsCalledTwice(compileShader(dir.path(), "deform.comp").spirv);
    ASSERT_EQ(heavy.size(), 1u);
    EXPECT_EQ(heavy[0].rfind("solveVertex(u1; (2 sites", 0), 0u) << heavy[0];
}

} // namespace
} // namespace sculptflow
