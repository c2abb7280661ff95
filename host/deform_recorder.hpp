// Records deform.comp over a range of vertices into a command buffer.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "vulkan_functions.hpp"

#include "deform_pipeline.hpp"
#include "gpu_buffer.hpp"
#include "src/vertex_blocks.hpp"

namespace sculptflow {

class Context;

// The pipeline variant that runs `kernel`: method, attempt budget, statistics,
// and the tools' count and kinds. A move with another count or mix of kinds needs
// another pipeline, built on first use; build it ahead with
// pipelines.pipeline(deformVariant(...)) to keep that off the frame.
DeformVariant deformVariant(const kernel::Kernel& kernel, bool statistics, bool mask = false);

// Where the vertices of one mesh are: the descriptor set binds deform.comp's
// buffers (tools, input, output, statistics, mask) and `layout` gives the float
// offsets and strides within them (its firstVertex/vertexCount are ignored).
struct DeformBinding {
    VkDescriptorSet set = VK_NULL_HANDLE;
    kernel::VertexLayout layout{};
    bool mask = false; // binding 9 holds a mask at layout.maskOffset/maskStride
};

// deform.comp's passes (its `pass` specialization constant), as recorded.
#include "shaders/sculptflow/deform_passes.glsl"
constexpr uint32_t kDeformBins = 16;     // kBinCount in deform.comp
constexpr uint32_t kDeformMaxSlices = 64; // kMaxSlices: indirect dispatches over one list
// A vertex block: the mark over sorted blocks takes one a workgroup, in one
// indirect dispatch of at most maxWorkgroupsPerDispatch workgroups that loop over
// the listed blocks. Small blocks fit the reach closely; its cost is per listed block.

// The compaction passes' scratch for one mesh: a bin per vertex, the active list
// (a vertex index each) and the counters (bins, cursors, indirect arguments).
// Allocate once per mesh, sized to its vertex count; bind buffers() at
// deform.comp's bindings 4 to 8. Device-local: only the GPU touches them.
//
// Given the mesh's positions (which must not change after), it also holds the vertices in spatially tight
// blocks (buildVertexBlocks, blockVertices() each, 4 bytes a vertex), so
// that culling skips a block out of reach with one test; recordDeform then
// covers the whole mesh at once. Otherwise bindings 7 and 8 get placeholders.
class DeformScratch {
public:
    DeformScratch() = default;
    DeformScratch(Context& context, uint32_t vertexCount, std::span<const glm::vec3> blockPositions = {});

    uint32_t vertexCount() const { return vertexCount_; }
    uint32_t blockVertices() const { return blockVertices_; } // DeformSizing::blockVertices of its context
    bool sortedBlocks() const { return sortedBlocks_; }
    VkBuffer counters() const { return counters_.handle(); }
    // Bindings 4 to 8.
    std::array<VkDescriptorBufferInfo, 5> buffers() const;
    // What the constructor allocates for `vertexCount` vertices (without blocks).
    static VkDeviceSize bytes(uint32_t vertexCount);

    // With blocks: marks the blocks whose vertices `mask` freezes (all 0) so that
    // runs skip them like blocks out of reach; an empty mask unmarks them. Call
    // between runs (every run reads the blocks).
    void freezeBlocks(std::span<const float> mask);

private:
    uint32_t vertexCount_ = 0;
    uint32_t blockVertices_ = 0;
    bool sortedBlocks_ = false;
    GpuBuffer bins_;
    GpuBuffer list_;
    GpuBuffer counters_;
    GpuBuffer order_;
    GpuBuffer spheres_;
    VertexBlocks blocks_;      // the host's copy, which freezeBlocks edits and uploads
    std::vector<float> radii_; // the blocks' own radii, which freezeBlocks replaces by −1
};

// Records the dispatches that integrate vertices [first, first + count) of
// `binding`: binds the pipelines and the set, pushes the settings, splits the
// range past the device's workgroup-count limit. Allocates nothing, and never
// builds a pipeline: buildDeformPipelines must have built them (throws if not).
//
// With `scratch` (the default path): a cheap pass culls the range (culled
// vertices get their input, and CULLED in the statistics), compacts the others
// into a list ordered by bins of distance to the tools' paths, and the solver
// runs over the list only, with vkCmdDispatchIndirect. The barriers between the
// passes are recorded here, and one before them from earlier compute work and
// indirect reads of the scratch (so runs may share it). Vertices in the range
// must be < scratch->vertexCount(). Without `scratch`: one pass over the range,
// culling per vertex in the solver.
//
// With a scratch that has blocks, the range must be the whole mesh: a pass lists
// the blocks in reach and the cull visits only those, appending the active
// vertices to the list in block order (spatially coherent, so no bins). Culled
// vertices are then written only with statistics: the caller keeps the output
// equal to the input outside the vertices a run solves. `restoreList` first
// copies the input over the output at the vertices of the last run's list (the
// last run through this scratch) that this run culls: the others it solves.
//
// Records no barrier for the caller's buffers: the caller orders the tool
// block's and the input's writes before it and the output's readers after it.
void recordDeform(VkCommandBuffer commands, const Context& context, const DeformPipelines& pipelines,
                  const kernel::Kernel& kernel, bool statistics, const DeformBinding& binding, uint32_t first,
                  uint32_t count, const DeformScratch* scratch = nullptr, bool restoreList = false);

// Builds every pipeline recordDeform needs for `kernel`, with this scratch or
// without one (with a scratch, both).
void buildDeformPipelines(DeformPipelines& pipelines, const kernel::Kernel& kernel, bool statistics,
                          const DeformScratch* scratch, bool mask = false);

} // namespace sculptflow
