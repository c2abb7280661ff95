// The pipelines a Context's LiveMoves share, built once, under a mutex.
#include "live_pipelines.hpp"

#include "context_impl.hpp"

namespace sculptflow {

Context::Impl::Impl() = default;
Context::Impl::~Impl() = default; // LivePipelines is complete here

LivePipelines::LivePipelines(const Context& context)
    : deform_(context), normals_(context, VertexPass::Normals), restore_(context, VertexPass::Restore),
      context_(context) {
    created_ = 2;
}

LivePipelines::~LivePipelines() { releaseRetired(); }

void LivePipelines::replaceDeformShader(const DeformShader& shader) {
    std::lock_guard lock(mutex_);
    const size_t before = deform_.builtCount();
    deform_.replaceShader(shader, &retired_);
    created_ += before;
}

size_t LivePipelines::releaseRetired() {
    const Context::Impl& ctx = implOf(context_);
    std::lock_guard lock(mutex_);
    const size_t count = retired_.pipelines.size();
    for (VkPipeline pipeline : retired_.pipelines) ctx.vk.vkDestroyPipeline(ctx.device, pipeline, ctx.allocator);
    for (VkShaderModule module : retired_.modules) ctx.vk.vkDestroyShaderModule(ctx.device, module, ctx.allocator);
    retired_ = {};
    return count;
}

uint32_t LivePipelines::buildDeform(const kernel::Kernel& kernel, bool statistics, bool mask) {
    const size_t before = deform_.builtCount();
    buildDeformPipelines(deform_, kernel, statistics, &unsortedScratch_, mask);
    const uint32_t built = uint32_t(deform_.builtCount() - before);
    created_ += built;
    return built;
}

LivePipelines& livePipelines(const Context& context) {
    Context::Impl& ctx = implOf(context);
    std::lock_guard lock(ctx.livePipelinesMutex);
    if (!ctx.livePipelines) ctx.livePipelines = std::make_unique<LivePipelines>(context);
    return *ctx.livePipelines;
}

} // namespace sculptflow
