// Records deform.comp over a range of vertices into a command buffer.
#pragma once

#include <cstdint>

#include <volk.h>

#include "deform_pipeline.hpp"

namespace sculptflow {

class Context;

// The pipeline variant that runs `kernel`: method, attempt budget, statistics,
// and the tools' count and kinds. A move with another count or mix of kinds needs
// another pipeline, built on first use; build it ahead with
// pipelines.pipeline(deformVariant(...)) to keep that off the frame.
DeformVariant deformVariant(const kernel::Kernel& kernel, bool statistics);

// Where the vertices of one mesh are: the descriptor set binds deform.comp's
// buffers (tools, input, output, statistics) and `layout` gives the float
// offsets and strides within them (its firstVertex/vertexCount are ignored).
struct DeformBinding {
    VkDescriptorSet set = VK_NULL_HANDLE;
    kernel::VertexLayout layout{};
};

// Records the dispatches that integrate vertices [first, first + count) of
// `binding`: binds the pipeline and the set, pushes the settings, splits the
// range past the device's workgroup-count limit. Records no barrier: the caller
// orders the tool block's and the input's writes before it and the output's
// readers after it. Allocates nothing once the variant's pipeline exists.
void recordDeform(VkCommandBuffer commands, const Context& context, DeformPipelines& pipelines,
                  const kernel::Kernel& kernel, bool statistics, const DeformBinding& binding, uint32_t first,
                  uint32_t count);

} // namespace sculptflow
