// deform.comp's interface to the host, written once for GpuSolver and LiveMove:
// its bindings with their descriptor types, the descriptor writes, the tool
// upload and the choice to compact. DeformPipelines checks every build of the
// shader against kDeformBindings (spirv_bindings.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include <sculptflow/context.hpp>
#include <sculptflow/mesh.hpp>
#include "src/kernel.hpp"
#include "gpu_buffer.hpp"
#include "spirv_bindings.hpp"

namespace sculptflow {

// Binding 0 of deform.comp (std140): the tools of one move. Their count and
// kinds are specialization constants of the pipeline (DeformVariant).
struct ToolBlock {
    kernel::Tool tools[SF_MAX_TOOLS];
};
static_assert(sizeof(ToolBlock) == 96 * SF_MAX_TOOLS);

// What the host and deform.comp mean by their pushes and passes: the shader's
// interfaceVersion and its constant id (SF_INTERFACE_VERSION in
// shaders/sculptflow/variant_options.glsl, with its history).
#define SF_INTERFACE_VERSION(glslName, id, version) \
    constexpr uint32_t kDeformInterfaceVersion = version; \
    constexpr uint32_t kDeformInterfaceVersionId = id;
#include "shaders/sculptflow/variant_options.glsl"

// Throws sculptflow::Error, naming `shader`, unless the module declares the bindings
// the host writes (kDeformBindings) and kDeformInterfaceVersion: a hot-reloaded
// copy exported from another version of the library is refused, not run.
void checkDeformShader(std::span<const uint32_t> spirv, const std::string& shader);

// deform.comp's bindings (set 0) in its order, each with its block's name there.
// 4-8 are DeformScratch's (DeformScratch::buffers(), bound for every pass).
enum DeformBindingIndex : uint32_t {
    kDeformTools,        // the tool block
    kDeformInput,        // positions read
    kDeformOutput,       // positions written
    kDeformStatistics,   // per-vertex statistics (a placeholder unless a run writes them)
    kDeformScratchFirst, // bins, active list, counters, vertex order, block spheres
    kDeformMask = kDeformScratchFirst + 5, // a value per vertex (a placeholder without a mask)
    kDeformVolumeChanges,                  // per-vertex volume changes (a placeholder unless computed)
    kDeformCarriedBounds,                  // per-vertex error bounds (continuous mode; else a placeholder)
    kDeformBindingCount
};
constexpr std::array<HostBinding, kDeformBindingCount> kDeformBindings{{
    {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, "ToolBlock"},
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "InputPositions"},
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "OutputPositions"},
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "Statistics"},
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "VertexBins"},
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "ActiveList"},
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "Counters"},
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "VertexOrder"},
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "BlockSpheres"},
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "MaskValues"},
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "VolumeChanges"},
    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "CarriedBounds"},
}};

// A descriptor pool's sizes for `sets` deform sets and `otherStorage` more storage
// buffers (a LiveMove's normals and restore sets).
std::array<VkDescriptorPoolSize, 2> deformPoolSizes(uint32_t sets, uint32_t otherStorage = 0);

// The buffers one deform set binds, by name. A null buffer gets the placeholder:
// the shader reads or writes it only when the run's variant says so.
struct DeformBuffers {
    VkDescriptorBufferInfo input{};
    VkDescriptorBufferInfo output{};
    VkDescriptorBufferInfo statistics{};
    std::array<VkDescriptorBufferInfo, 5> scratch{}; // DeformScratch::buffers(): required
    VkDescriptorBufferInfo mask{};
    VkDescriptorBufferInfo volumeChanges{};
    VkDescriptorBufferInfo carriedBounds{};
};

// What each front end of deform.comp owns once: the tool block, and the
// placeholder for the bindings a run leaves unused.
class DeformInterface {
public:
    DeformInterface() = default;
    explicit DeformInterface(Context& context);

    // Writes every binding of `set` (allocated from DeformPipelines::setLayout()).
    void write(const Context& context, VkDescriptorSet set, const DeformBuffers& buffers) const;

    // Records the kernel's tools into the tool block, then one barrier that orders
    // it, and the caller's earlier compute and transfer writes, before the
    // dispatches' reads and writes. Outside a render pass.
    void recordToolUpload(VkCommandBuffer commands, const Context& context, const kernel::Kernel& kernel) const;

private:
    GpuBuffer tools_;
    GpuBuffer placeholder_;
};

// Whether a run over vertices within `bounds` should cull and compact them first:
// only where some may be out of the tools' reach, or masked (a mask may freeze
// vertices anywhere). Otherwise every vertex is solved and compaction only costs.
// (The kernel is not changed: the shared GLSL's members are not const.)
bool compactionPays(kernel::Kernel& kernel, const Bounds& bounds, bool masked);

} // namespace sculptflow
