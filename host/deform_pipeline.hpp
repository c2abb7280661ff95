// The deform compute pipelines: one layout, one pipeline per (method, budget, statistics).
#pragma once

#include <cstdint>
#include <map>
#include <vector>
#include <span>
#include <tuple>

#include <sculptflow/context.hpp>
#include "src/kernel.hpp"
#include "deform_interface.hpp"

namespace sculptflow {


// deform.comp's push constants.
struct DeformPushConstants {
    kernel::SolverSettings settings;
    kernel::VertexLayout vertexLayout;
};
static_assert(sizeof(DeformPushConstants) == 80 && offsetof(DeformPushConstants, vertexLayout) == 48);

// Specialization constants fix these when a pipeline is built (spec §4: the
// attempt budget is known before any dispatch), and the tools' count and kinds,
// so that the common case (one Kelvinlet) compiles without the others' code.
struct DeformVariant {
    int method = kernel::kMethodBs32;
    int maxIterations = 64;
    bool statistics = false;
    int toolCount = 1;
    uint32_t toolKinds = 0;   // bits 2i, 2i+1: tool i's kind (kTool*)
    uint32_t toolShapes = 0;  // bits 2i, 2i+1: tool i's profile or falloff
    int pass = 0;             // deform.comp's `pass`: kDeformPass* in deform_recorder.hpp
    bool sortedBlocks = false; // passes 1 and 3 walk DeformScratch's blocks (deform.comp)
    bool mask = false;         // binding 9 holds a mask value per vertex
    bool volumeChange = false; // binding 10 gets each vertex's volume change
    bool verify = false;       // a checking pass per vertex (solverVerify)
    bool carryBound = false;   // binding 11 carries each vertex's error bound (continuous mode)
    auto operator<=>(const DeformVariant&) const = default;
};

// deform.comp's workgroup size and each lane's share of the cheap passes (mark
// and scatter), fixed per device by chooseDeformSizing.
struct DeformSizing {
    uint32_t workgroupSize = 64;   // local_size_x: specialization constant 11
    uint32_t verticesPerLane = 32; // passes 1 and 3 over a range: 12; over sorted blocks, a quarter
    uint32_t subgroupSize = 0;     // the device's, which chose the two above (0: unknown)
    // Vertices in a block of DeformScratch (a workgroup of the mark over sorted blocks).
    uint32_t blockVertices() const { return workgroupSize * (verticesPerLane >= 4 ? verticesPerLane / 4 : 1); }
};

// Workgroups are whole subgroups, at least two 32-lane warps' worth (64), within
// the device's limits. A CPU device (lavapipe) pays per workgroup, so its lanes
// each take 32 vertices of the cheap passes; a GPU keeps more lanes busy with 4.
DeformSizing chooseDeformSizing(uint32_t subgroupSize, const VkPhysicalDeviceLimits& limits,
                                VkPhysicalDeviceType type);
// The context's device's sizing.
DeformSizing deformSizing(const Context& context);

// deform.comp built twice: as it is, for the solve (pass 0), and with
// SF_WITHOUT_SOLVE for every other pass. A driver inlines every call before
// specialization drops the passes a pipeline does not run, so without the solve's
// call site those passes build in a fiftieth of the time (18 against 750 ms on
// lavapipe). An empty `passes`: `solve` serves every pass (a caller's one build).
struct DeformShader {
    std::span<const uint32_t> solve;
    std::span<const uint32_t> passes;
};
inline constexpr const char* kDeformWithoutSolve = "SF_WITHOUT_SOLVE";

// Owns the shader modules, layouts and every pipeline built so far. Every module
// it takes (the embedded ones, a hot reload's) must declare kDeformBindings:
// checked before anything is built from it.
class DeformPipelines {
public:
    explicit DeformPipelines(const Context& context);
    ~DeformPipelines();
    DeformPipelines(const DeformPipelines&) = delete;
    DeformPipelines& operator=(const DeformPipelines&) = delete;

    VkDescriptorSetLayout setLayout() const { return setLayout_; }
    VkPipelineLayout layout() const { return layout_; }
    // This device's sizing, which every pipeline is built with.
    const DeformSizing& sizing() const { return sizing_; }
    // Builds the variant on first use.
    VkPipeline pipeline(const DeformVariant& variant);
    // A variant built before; throws sculptflow::Error if it was not, so that
    // recording never compiles a pipeline (buildDeformPipelines builds ahead).
    VkPipeline built(const DeformVariant& variant) const;
    size_t builtCount() const { return pipelines_.size(); }
    // Pipelines compiled since construction, rebuilds by replaceShader included:
    // what a caller reusing the solver counts to see that nothing is built twice.
    size_t buildCount() const { return builds_; }

    // Swaps in another build of deform.comp (hot reload). Its bindings are checked
    // and every variant built so far is rebuilt from it first; if either fails,
    // the old shader stays and this throws sculptflow::Error. Without `retired`,
    // call only while no dispatch of these pipelines is in flight; with it, the
    // old pipelines and modules go there instead of being destroyed, for the
    // caller to destroy once its frames are complete.
    struct Retired {
        std::vector<VkPipeline> pipelines;
        std::vector<VkShaderModule> modules;
    };
    void replaceShader(const DeformShader& shader, Retired* retired = nullptr);

private:
    struct Modules {
        VkShaderModule solve = VK_NULL_HANDLE;
        VkShaderModule passes = VK_NULL_HANDLE; // may be solve itself
        // Pass 0 is the solve, over a range or the list (passVariant).
        VkShaderModule of(const DeformVariant& variant) const { return variant.pass == 0 ? solve : passes; }
    };
    Modules createModules(const DeformShader& shader, const char* what) const;
    void destroyModules(const Modules& modules) const;
    VkPipeline build(const Modules& modules, const DeformVariant& variant) const;
    void release();

    const Context* context_ = nullptr;
    DeformSizing sizing_;
    Modules modules_;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    std::map<DeformVariant, VkPipeline> pipelines_;
    size_t builds_ = 0;
};

} // namespace sculptflow
