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
static_assert(sizeof(DeformPushConstants) == 84 && offsetof(DeformPushConstants, vertexLayout) == 52);

// Specialization constants fix these when a pipeline is built: the method, the
// debug outputs and the tools' count and kinds, so that the common case (one
// Kelvinlet) compiles without the others' code. The attempt budget is pushed
// (SolverSettings::maxAttempts), so a new budget or tolerance builds nothing.
// One member per row of shaders/sculptflow/variant_options.glsl, in its order;
// interfaceVersion is no member: the source fixes it (kDeformInterfaceVersion).
struct DeformVariant {
    using uint = kernel::uint; // the rows' GLSL type names
#define SF_VARIANT_OPTION(type, glslName, hostName, id, value, readBy) type hostName = value;
#include "shaders/sculptflow/variant_options.glsl"
    auto operator<=>(const DeformVariant&) const = default;
};
static_assert(DeformVariant{}.method == kernel::kMethodBs32);

// deform.comp's workgroup size and each lane's share of the cheap passes (mark
// and scatter), fixed per device by chooseDeformSizing.
// workgroupSize (local_size_x) and verticesPerLane (passes 1 and 3 over a range;
// over sorted blocks, a quarter) are variant_options.glsl's per-device rows.
struct DeformSizing {
    using uint = kernel::uint;
#define SF_WORKGROUP_SIZE(hostName, id, value) uint hostName = value;
#define SF_SIZING_OPTION(type, glslName, hostName, id, value) type hostName = value;
#include "shaders/sculptflow/variant_options.glsl"
    uint32_t subgroupSize = 0; // the device's, which chose the two above (0: unknown)
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
