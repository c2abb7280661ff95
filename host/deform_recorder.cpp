// deform.comp's dispatches for one range of vertices.
#include "deform_recorder.hpp"

#include <algorithm>
#include <string>

#include "context.hpp"
#include "error.hpp"
#include "memory_barrier.hpp"

namespace sculptflow {
namespace {

// The counters' layout (deform.comp): indirect arguments per slice, the active
// count, the bin counts, the bin cursors.
constexpr uint32_t kCounterWords = 3 * kDeformMaxSlices + 1 + 2 * kDeformBins;

VkDeviceSize listBytes(uint32_t vertexCount) { return std::max<VkDeviceSize>(4 * VkDeviceSize(vertexCount), 16); }

// The variant of one pass: the passes that do not integrate ignore the method,
// and the scan and scatter the tools too, so kernels share them.
DeformVariant passVariant(DeformVariant variant, int pass) {
    variant.pass = pass;
    if (pass == kDeformPassMark || pass == kDeformPassScan || pass == kDeformPassScatter) {
        variant.method = DeformVariant{}.method;
        variant.maxIterations = DeformVariant{}.maxIterations;
    }
    if (pass == kDeformPassScan || pass == kDeformPassScatter) {
        variant.statistics = false;
        variant.toolCount = 1;
        variant.affineTools = 0;
    }
    return variant;
}

constexpr VkAccessFlags kShaderAccesses = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;

} // namespace

DeformVariant deformVariant(const kernel::Kernel& kernel, bool statistics) {
    DeformVariant variant{kernel.solverMethod, kernel.solverMaxIterations, statistics, kernel.toolCount, 0u};
    for (int i = 0; i < kernel.toolCount; ++i)
        if (kernel.toolIsAffine(i)) variant.affineTools |= 1u << i;
    return variant;
}

VkDeviceSize DeformScratch::bytes(uint32_t vertexCount) {
    return 2 * listBytes(vertexCount) + 4 * kCounterWords;
}

DeformScratch::DeformScratch(Context& context, uint32_t vertexCount)
    : vertexCount_(vertexCount),
      bins_(context, listBytes(vertexCount), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "the compaction scratch (bins)",
            BufferMemory::DeviceLocal),
      list_(context, listBytes(vertexCount), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
            "the compaction scratch (active list)", BufferMemory::DeviceLocal),
      counters_(context, 4 * kCounterWords,
                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                "the compaction scratch (counters)", BufferMemory::DeviceLocal) {}

std::array<VkDescriptorBufferInfo, 3> DeformScratch::buffers() const {
    return {{{bins_.handle(), 0, VK_WHOLE_SIZE},
             {list_.handle(), 0, VK_WHOLE_SIZE},
             {counters_.handle(), 0, VK_WHOLE_SIZE}}};
}

void buildDeformPipelines(DeformPipelines& pipelines, const kernel::Kernel& kernel, bool statistics,
                          bool compacted) {
    const DeformVariant variant = deformVariant(kernel, statistics);
    if (!compacted) {
        pipelines.pipeline(passVariant(variant, kDeformPassSolveRange));
        return;
    }
    for (int pass : {kDeformPassMark, kDeformPassScan, kDeformPassScatter, kDeformPassSolveList})
        pipelines.pipeline(passVariant(variant, pass));
}

void recordDeform(VkCommandBuffer commands, const Context& context, DeformPipelines& pipelines,
                  const kernel::Kernel& kernel, bool statistics, const DeformBinding& binding, uint32_t first,
                  uint32_t count, const DeformScratch* scratch) {
    if (count == 0) return;
    const DeformVariant variant = deformVariant(kernel, statistics);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.layout(), 0, 1, &binding.set, 0,
                            nullptr);
    // One dispatch covers at most maxComputeWorkGroupCount[0] workgroups.
    const uint32_t maxGroups = context.properties().limits.maxComputeWorkGroupCount[0];
    const uint64_t perDispatch = uint64_t(maxGroups) * kDeformWorkgroupSize;
    const uint64_t end = uint64_t(first) + count;
    auto overRange = [&](int pass) {
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.pipeline(passVariant(variant, pass)));
        const uint64_t perGroup =
            uint64_t(kDeformWorkgroupSize) * (pass == kDeformPassSolveRange ? 1 : kDeformVerticesPerLane);
        const uint64_t perRangeDispatch = uint64_t(maxGroups) * perGroup;
        for (uint64_t start = first; start < end; start += perRangeDispatch) {
            DeformPushConstants push{kernel.settings, binding.layout};
            push.vertexLayout.firstVertex = uint32_t(start);
            push.vertexLayout.vertexCount = uint32_t(std::min<uint64_t>(perRangeDispatch, end - start));
            vkCmdPushConstants(commands, pipelines.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
            vkCmdDispatch(commands, uint32_t((push.vertexLayout.vertexCount + perGroup - 1) / perGroup), 1, 1);
        }
    };
    if (!scratch) {
        overRange(kDeformPassSolveRange);
        return;
    }
    if (end > scratch->vertexCount())
        throw Error("recordDeform: vertices up to " + std::to_string(end) + " for a compaction scratch of " +
                    std::to_string(scratch->vertexCount()));
    const uint64_t slices = (uint64_t(count) + perDispatch - 1) / perDispatch;
    if (slices > kDeformMaxSlices)
        throw Error("recordDeform: " + std::to_string(count) + " vertices need more than " +
                    std::to_string(kDeformMaxSlices) + " indirect dispatches");

    // Earlier passes (this range's or another's) are done with the scratch.
    memoryBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                  VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_TRANSFER_WRITE_BIT | kShaderAccesses);
    vkCmdFillBuffer(commands, scratch->counters(), 0, VK_WHOLE_SIZE, 0);
    memoryBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, kShaderAccesses);
    overRange(kDeformPassMark);
    memoryBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, kShaderAccesses);

    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                      pipelines.pipeline(passVariant(variant, kDeformPassScan)));
    DeformPushConstants scan{kernel.settings, binding.layout};
    scan.vertexLayout.firstVertex = uint32_t(slices);
    scan.vertexLayout.vertexCount = maxGroups;
    vkCmdPushConstants(commands, pipelines.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(scan), &scan);
    vkCmdDispatch(commands, 1, 1, 1);
    memoryBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, kShaderAccesses);

    overRange(kDeformPassScatter);
    memoryBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                  kShaderAccesses | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);

    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                      pipelines.pipeline(passVariant(variant, kDeformPassSolveList)));
    for (uint64_t slice = 0; slice < slices; ++slice) {
        DeformPushConstants push{kernel.settings, binding.layout};
        push.vertexLayout.firstVertex = uint32_t(slice * perDispatch); // into the list
        push.vertexLayout.vertexCount = 0;                              // the shader reads the active count
        vkCmdPushConstants(commands, pipelines.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        vkCmdDispatchIndirect(commands, scratch->counters(), slice * 3 * sizeof(uint32_t));
    }
}

} // namespace sculptflow
