// deform.comp's dispatches for one range of vertices.
#include "deform_recorder.hpp"

#include <algorithm>

#include "context.hpp"

namespace sculptflow {

DeformVariant deformVariant(const kernel::Kernel& kernel, bool statistics) {
    DeformVariant variant{kernel.solverMethod, kernel.solverMaxIterations, statistics, kernel.toolCount, 0u};
    for (int i = 0; i < kernel.toolCount; ++i)
        if (kernel.toolIsAffine(i)) variant.affineTools |= 1u << i;
    return variant;
}

void recordDeform(VkCommandBuffer commands, const Context& context, DeformPipelines& pipelines,
                  const kernel::Kernel& kernel, bool statistics, const DeformBinding& binding, uint32_t first,
                  uint32_t count) {
    if (count == 0) return;
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.pipeline(deformVariant(kernel, statistics)));
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.layout(), 0, 1, &binding.set, 0,
                            nullptr);
    // One dispatch covers at most maxComputeWorkGroupCount[0] workgroups.
    const uint64_t perDispatch =
        uint64_t(context.properties().limits.maxComputeWorkGroupCount[0]) * kDeformWorkgroupSize;
    const uint64_t end = uint64_t(first) + count;
    for (uint64_t start = first; start < end; start += perDispatch) {
        DeformPushConstants push{kernel.settings, binding.layout};
        push.vertexLayout.firstVertex = uint32_t(start);
        push.vertexLayout.vertexCount = uint32_t(std::min<uint64_t>(perDispatch, end - start));
        vkCmdPushConstants(commands, pipelines.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        vkCmdDispatch(commands, (push.vertexLayout.vertexCount + kDeformWorkgroupSize - 1) / kDeformWorkgroupSize, 1,
                      1);
    }
}

} // namespace sculptflow
