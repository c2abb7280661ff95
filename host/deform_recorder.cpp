// deform.comp's dispatches for one range of vertices.
#include "deform_recorder.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include <sculptflow/error.hpp>
#include "src/vertex_blocks.hpp"
#include "buffer_transfer.hpp"
#include "context_impl.hpp"
#include "memory_barrier.hpp"

namespace sculptflow {
namespace {

// The counters' layout (deform.comp): indirect arguments per slice, the active
// count, the bin counts, the bin cursors, the indirect arguments of the listed
// vertex blocks and their count; then the list of blocks, one word each.
constexpr uint32_t kCounterWords = 3 * kDeformMaxSlices + 1 + 2 * kDeformBins + 4;
constexpr VkDeviceSize kBlockArgumentsOffset = 4 * (kCounterWords - 4);

uint32_t blockCount(uint32_t vertexCount, uint32_t blockVertices) {
    return (vertexCount + blockVertices - 1) / blockVertices;
}

VkDeviceSize listBytes(uint32_t vertexCount) { return std::max<VkDeviceSize>(4 * VkDeviceSize(vertexCount), 16); }

// The pipeline of one pass: an option the pass does not read (its row's readBy
// column, variant_options.glsl) takes its default, so kernels that differ only
// there share the pass's pipeline; and the list's solve runs the range's
// pipeline, so a new method or set of tools builds one solve.
DeformVariant passVariant(DeformVariant variant, int pass, bool sortedBlocks) {
    variant.pass = pass == kDeformPassSolveList ? kDeformPassSolveRange : pass;
    variant.sortedBlocks = sortedBlocks;
    const DeformVariant defaults;
    const int passBit = 1 << variant.pass;
#define SF_VARIANT_OPTION(type, glslName, hostName, id, value, readBy) \
    if (((readBy) & passBit) == 0) variant.hostName = defaults.hostName;
#include "shaders/sculptflow/variant_options.glsl"
    return variant;
}

// A placeholder for bindings 7 and 8 of a scratch without blocks.
constexpr VkDeviceSize kPlaceholderBytes = 16;

constexpr VkAccessFlags kShaderAccesses = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;

} // namespace

DeformVariant deformVariant(const kernel::Kernel& kernel, bool statistics, bool mask) {
    DeformVariant variant;
    // The options the shared GLSL reads are Kernel members of the shader's names.
#define SF_KERNEL_OPTION(type, glslName, hostName, id, value, readBy) variant.hostName = kernel.glslName;
#include "shaders/sculptflow/variant_options.glsl"
    variant.statistics = statistics;
    variant.toolCount = kernel.toolCount;
    variant.mask = mask;
    for (int i = 0; i < kernel.toolCount; ++i) {
        variant.toolKinds |= uint32_t(kernel.toolKind(i) & 3) << (2 * i);
        variant.toolShapes |= uint32_t(kernel.toolShape(i) & 3) << (2 * i);
    }
    return variant;
}

VkDeviceSize DeformScratch::bytes(uint32_t vertexCount) {
    return 2 * listBytes(vertexCount) + 4 * kCounterWords;
}

DeformScratch::DeformScratch(Context& context, uint32_t vertexCount, std::span<const glm::vec3> blockPositions)
    : vertexCount_(vertexCount),
      blockVertices_(deformSizing(context).blockVertices()),
      sortedBlocks_(!blockPositions.empty()),
      // The blocks' path appends to the list directly: its bins are a placeholder.
      bins_(context, sortedBlocks_ ? kPlaceholderBytes : listBytes(vertexCount), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
            "the compaction scratch (bins)", BufferMemory::DeviceLocal),
      list_(context, listBytes(vertexCount), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
            "the compaction scratch (active list)", BufferMemory::DeviceLocal),
      counters_(context, 4 * (VkDeviceSize(kCounterWords) + (sortedBlocks_ ? blockCount(vertexCount, blockVertices_) : 0)),
                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                "the compaction scratch (counters)", BufferMemory::DeviceLocal) {
    if (!sortedBlocks_) {
        order_ = GpuBuffer(context, kPlaceholderBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "a placeholder",
                           BufferMemory::DeviceLocal);
        spheres_ = GpuBuffer(context, kPlaceholderBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "a placeholder",
                             BufferMemory::DeviceLocal);
        return;
    }
    if (blockPositions.size() != vertexCount_)
        throw Error("DeformScratch: " + std::to_string(blockPositions.size()) + " positions for " +
                    std::to_string(vertexCount) + " vertices");
    // Written here, read by the GPU on every run, placed as the mesh's input.
    blocks_ = buildVertexBlocks(blockPositions, blockVertices_);
    order_ = GpuBuffer(context, std::max<VkDeviceSize>(4 * blocks_.order.size(), kPlaceholderBytes),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "the vertex blocks (order)", BufferMemory::GpuRead);
    spheres_ = GpuBuffer(context, std::max<VkDeviceSize>(16 * blocks_.spheres.size(), kPlaceholderBytes),
                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "the vertex blocks (spheres)", BufferMemory::GpuRead);
    uploadBuffer(order_, 0, blocks_.order.data(), 4 * blocks_.order.size());
    uploadBuffer(spheres_, 0, blocks_.spheres.data(), 16 * blocks_.spheres.size());
    for (const glm::vec4& sphere : blocks_.spheres) radii_.push_back(sphere.w);
}

void DeformScratch::freezeBlocks(std::span<const float> mask) {
    if (!sortedBlocks_) return;
    const std::vector<uint32_t>& order = blocks_.order;
    std::vector<glm::vec4>& spheres = blocks_.spheres;
    for (size_t block = 0; block < radii_.size(); ++block) {
        const size_t begin = block * blockVertices_;
        const size_t end = std::min<size_t>(begin + blockVertices_, vertexCount_);
        bool frozen = !mask.empty();
        for (size_t i = begin; i < end && frozen; ++i) frozen = !(mask[order[i]] > 0.0f);
        spheres[block].w = frozen ? -1.0f : radii_[block];
    }
    uploadBuffer(spheres_, 0, spheres.data(), 16 * spheres.size());
}

std::array<VkDescriptorBufferInfo, 5> DeformScratch::buffers() const {
    return {{{bins_.handle(), 0, VK_WHOLE_SIZE},
             {list_.handle(), 0, VK_WHOLE_SIZE},
             {counters_.handle(), 0, VK_WHOLE_SIZE},
             {order_.handle(), 0, VK_WHOLE_SIZE},
             {spheres_.handle(), 0, VK_WHOLE_SIZE}}};
}

void buildDeformPipelines(DeformPipelines& pipelines, const kernel::Kernel& kernel, bool statistics,
                          const DeformScratch* scratch, bool mask) {
    const DeformVariant variant = deformVariant(kernel, statistics, mask);
    // A caller with a scratch may still solve a range wholly in reach without it.
    pipelines.pipeline(passVariant(variant, kDeformPassSolveRange, false));
    if (!scratch) return;
    const bool sorted = scratch->sortedBlocks();
    for (int pass : {kDeformPassMark, kDeformPassScan, kDeformPassSolveList})
        pipelines.pipeline(passVariant(variant, pass, sorted));
    if (!sorted) {
        pipelines.pipeline(passVariant(variant, kDeformPassScatter, false));
        return;
    }
    for (int pass : {kDeformPassBlocks, kDeformPassRestore}) pipelines.pipeline(passVariant(variant, pass, true));
}

void recordDeform(VkCommandBuffer commands, const Context& context, const DeformPipelines& pipelines,
                  const kernel::Kernel& kernel, bool statistics, const DeformBinding& binding, uint32_t first,
                  uint32_t count, const DeformScratch* scratch, bool restoreList) {
    if (count == 0) return;
    const Context::Impl& ctx = implOf(context);
    const bool sorted = scratch && scratch->sortedBlocks();
    const DeformVariant variant = deformVariant(kernel, statistics, binding.mask);
    ctx.vk.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.layout(), 0, 1, &binding.set, 0,
                                   nullptr);
    // One dispatch covers at most maxComputeWorkGroupCount[0] workgroups.
    const uint32_t maxGroups = ctx.maxWorkgroupsPerDispatch;
    const DeformSizing& sizing = pipelines.sizing();
    const uint64_t perDispatch = uint64_t(maxGroups) * sizing.workgroupSize;
    const uint64_t end = uint64_t(first) + count;
    auto bindPass = [&](int pass) {
        ctx.vk.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                                 pipelines.built(passVariant(variant, pass, sorted)));
    };
    // The settings, and the pass's meaning of VertexLayout's first and count (deform.comp).
    auto pushLayout = [&](uint32_t layoutFirst, uint32_t layoutCount) {
        DeformPushConstants push{kernel.settings, binding.layout};
        push.vertexLayout.firstVertex = layoutFirst;
        push.vertexLayout.vertexCount = layoutCount;
        ctx.vk.vkCmdPushConstants(commands, pipelines.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    };
    // Dispatches of one split pass touch disjoint vertices, but they bind the same
    // buffers whole and count into the same atomics: order them, so that no two
    // overlap (synchronization validation reports the overlap otherwise), nor a
    // slice's writes the next slice's indirect arguments. Only a range past
    // maxGroups workgroups splits.
    auto splitBarrier = [&] {
        memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                      kShaderAccesses | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
    };
    auto overRange = [&](int pass) {
        bindPass(pass);
        const uint64_t perGroup =
            uint64_t(sizing.workgroupSize) * (pass == kDeformPassSolveRange ? 1 : sizing.verticesPerLane);
        const uint64_t perRangeDispatch = uint64_t(maxGroups) * perGroup;
        for (uint64_t start = first; start < end; start += perRangeDispatch) {
            if (start != first) splitBarrier();
            const uint64_t vertices = std::min<uint64_t>(perRangeDispatch, end - start);
            pushLayout(uint32_t(start), uint32_t(vertices));
            ctx.vk.vkCmdDispatch(commands, uint32_t((vertices + perGroup - 1) / perGroup), 1, 1);
        }
    };
    if (!scratch) {
        overRange(kDeformPassSolveRange);
        return;
    }
    if (end > scratch->vertexCount())
        throw Error("recordDeform: vertices up to " + std::to_string(end) + " for a compaction scratch of " +
                    std::to_string(scratch->vertexCount()));
    if (sorted && (first != 0 || count != scratch->vertexCount()))
        throw Error("recordDeform: a scratch with vertex blocks covers its whole mesh, not vertices " +
                    std::to_string(first) + " to " + std::to_string(end));
    const uint64_t slices = (uint64_t(count) + perDispatch - 1) / perDispatch;
    if (slices > kDeformMaxSlices)
        throw Error("recordDeform: " + std::to_string(count) + " vertices need more than " +
                    std::to_string(kDeformMaxSlices) + " indirect dispatches");

    // The mark: over the range, or over the blocks that the blocks pass listed.
    auto overBlocks = [&](int pass) {
        if (!sorted) return overRange(pass);
        bindPass(pass);
        pushLayout(maxGroups, count); // the blocks pass caps the mark's workgroups at maxGroups
        if (pass == kDeformPassBlocks) {
            const uint32_t blocks = blockCount(count, scratch->blockVertices());
            const uint32_t groups = (blocks + sizing.workgroupSize - 1) / sizing.workgroupSize;
            ctx.vk.vkCmdDispatch(commands, std::min(groups, maxGroups), 1, 1);
        } else {
            ctx.vk.vkCmdDispatchIndirect(commands, scratch->counters(), kBlockArgumentsOffset);
        }
    };
    // Earlier passes (this range's or another's) are done with the scratch.
    auto scratchBarrier = [&] {
        memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                      VK_ACCESS_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                          VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                      VK_ACCESS_TRANSFER_WRITE_BIT | kShaderAccesses | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
    };
    // Over the active list: its count and dispatch arguments are the scan's (for the
    // restore, the last run's scan's).
    auto overList = [&](int pass) {
        bindPass(pass);
        for (uint64_t slice = 0; slice < slices; ++slice) {
            if (slice != 0) splitBarrier();
            pushLayout(uint32_t(slice * perDispatch), 0); // into the list; the shader reads the active count
            ctx.vk.vkCmdDispatchIndirect(commands, scratch->counters(), slice * 3 * sizeof(uint32_t));
        }
    };
    scratchBarrier();
    if (restoreList) {
        overList(kDeformPassRestore);
        scratchBarrier();
    }
    ctx.vk.vkCmdFillBuffer(commands, scratch->counters(), 0, VK_WHOLE_SIZE, 0);
    memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, kShaderAccesses);
    if (sorted) {
        overBlocks(kDeformPassBlocks);
        memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                      kShaderAccesses | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
    }
    overBlocks(kDeformPassMark);
    memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, kShaderAccesses);

    bindPass(kDeformPassScan);
    pushLayout(uint32_t(slices), maxGroups); // the slices recorded, workgroups per slice
    ctx.vk.vkCmdDispatch(commands, 1, 1, 1);
    memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, kShaderAccesses);

    if (!sorted) overRange(kDeformPassScatter);
    memoryBarrier(ctx.vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                  kShaderAccesses | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);

    overList(kDeformPassSolveList);
}

} // namespace sculptflow
