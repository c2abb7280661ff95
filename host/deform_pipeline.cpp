// Builds deform.comp's pipelines from the SPIR-V embedded at build time.
#include "deform_pipeline.hpp"

#include <algorithm>
#include <string>
#include <tuple>

#include <sculptflow/error.hpp>
#include "generated/deform_comp_spirv.h"
#include "generated/deform_passes_spirv.h"
#include "context_impl.hpp"
#include "pipeline_objects.hpp"
#include "vulkan_check.hpp"

namespace sculptflow {

DeformPipelines::DeformPipelines(const Context& context) : context_(&context), sizing_(deformSizing(context)) {
    try {
        modules_ = createModules({k_deform_comp_spirv, k_deform_passes_spirv}, "deform.comp");
        const ComputeLayouts layouts = createComputeLayouts(*context_, kDeformBindings, sizeof(DeformPushConstants));
        setLayout_ = layouts.set;
        layout_ = layouts.pipeline;
    } catch (...) {
        release();
        throw;
    }
}

DeformPipelines::~DeformPipelines() { release(); }

void DeformPipelines::release() {
    const Context::Impl& ctx = implOf(*context_);
    for (auto& [variant, pipeline] : pipelines_) ctx.vk.vkDestroyPipeline(ctx.device, pipeline, ctx.allocator);
    pipelines_.clear();
    if (layout_) ctx.vk.vkDestroyPipelineLayout(ctx.device, layout_, ctx.allocator);
    if (setLayout_) ctx.vk.vkDestroyDescriptorSetLayout(ctx.device, setLayout_, ctx.allocator);
    destroyModules(modules_);
    layout_ = VK_NULL_HANDLE;
    setLayout_ = VK_NULL_HANDLE;
    modules_ = {};
}

// Checked, both, before either is created: a pipeline on a layout its shader does
// not match is invalid.
DeformPipelines::Modules DeformPipelines::createModules(const DeformShader& shader, const char* what) const {
    checkDeformShader(shader.solve, what);
    if (!shader.passes.empty()) checkDeformShader(shader.passes, std::string(what) + " without the solve");
    Modules modules;
    modules.solve = createShaderModule(*context_, shader.solve);
    modules.passes = modules.solve;
    if (!shader.passes.empty()) {
        try {
            modules.passes = createShaderModule(*context_, shader.passes);
        } catch (...) {
            destroyModules(modules);
            throw;
        }
    }
    return modules;
}

void DeformPipelines::destroyModules(const Modules& modules) const {
    const Context::Impl& ctx = implOf(*context_);
    if (modules.passes && modules.passes != modules.solve)
        ctx.vk.vkDestroyShaderModule(ctx.device, modules.passes, ctx.allocator);
    if (modules.solve) ctx.vk.vkDestroyShaderModule(ctx.device, modules.solve, ctx.allocator);
}

VkPipeline DeformPipelines::pipeline(const DeformVariant& variant) {
    if (auto found = pipelines_.find(variant); found != pipelines_.end()) return found->second;
    VkPipeline built = build(modules_, variant);
    pipelines_.emplace(variant, built);
    ++builds_;
    return built;
}

VkPipeline DeformPipelines::built(const DeformVariant& variant) const {
    if (auto found = pipelines_.find(variant); found != pipelines_.end()) return found->second;
    throw Error(ErrorCode::InvalidState, "deform pipeline for pass " + std::to_string(variant.pass) +
                                             " was not built before recording (buildDeformPipelines)");
}

void DeformPipelines::replaceShader(const DeformShader& shader, Retired* retired) {
    const Context::Impl& ctx = implOf(*context_);
    // Refused before any pipeline is built from it; the running pipelines stay.
    const Modules modules = createModules(shader, "the new deform.comp");
    std::map<DeformVariant, VkPipeline> rebuilt;
    try {
        for (const auto& [variant, old] : pipelines_) {
            rebuilt.emplace(variant, build(modules, variant));
            ++builds_;
        }
    } catch (...) {
        for (auto& [variant, pipeline] : rebuilt) ctx.vk.vkDestroyPipeline(ctx.device, pipeline, ctx.allocator);
        destroyModules(modules);
        throw;
    }
    if (retired) {
        retired->pipelines.reserve(retired->pipelines.size() + pipelines_.size());
        for (auto& [variant, pipeline] : pipelines_) retired->pipelines.push_back(pipeline);
        retired->modules.push_back(modules_.solve);
        if (modules_.passes != modules_.solve) retired->modules.push_back(modules_.passes);
    } else {
        for (auto& [variant, pipeline] : pipelines_) ctx.vk.vkDestroyPipeline(ctx.device, pipeline, ctx.allocator);
        destroyModules(modules_);
    }
    pipelines_ = std::move(rebuilt);
    modules_ = modules;
}

DeformSizing chooseDeformSizing(uint32_t subgroupSize, const VkPhysicalDeviceLimits& limits,
                                VkPhysicalDeviceType type) {
    DeformSizing sizing;
    sizing.subgroupSize = subgroupSize;
    const uint32_t lanes = std::max(subgroupSize, 1u);
    uint32_t size = std::max(64u, lanes);
    size = (size + lanes - 1) / lanes * lanes;
    const uint32_t limit = std::min(limits.maxComputeWorkGroupSize[0], limits.maxComputeWorkGroupInvocations);
    while (size > limit && size > lanes) size -= lanes;
    sizing.workgroupSize = std::min(size, limit);
    sizing.verticesPerLane = type == VK_PHYSICAL_DEVICE_TYPE_CPU ? 32 : 4;
    return sizing;
}

DeformSizing deformSizing(const Context& context) {
    const Context::Impl& ctx = implOf(context);
    DeformSizing sizing = chooseDeformSizing(ctx.subgroupSize, ctx.properties.limits, ctx.properties.deviceType);
    if (ctx.deformSizingOverride) std::tie(sizing.workgroupSize, sizing.verticesPerLane) = *ctx.deformSizingOverride;
    return sizing;
}

VkPipeline DeformPipelines::build(const Modules& modules, const DeformVariant& variant) const {
    const Context::Impl& ctx = implOf(*context_);
    // A 4-byte word per specialization constant (variant_options.glsl's rows): an
    // int's bit pattern, a bool's VkBool32.
    std::vector<uint32_t> words;
    std::vector<VkSpecializationMapEntry> entries;
    auto add = [&](uint32_t id, auto value) {
        entries.push_back({id, uint32_t(sizeof(uint32_t) * words.size()), sizeof(uint32_t)});
        words.push_back(uint32_t(value));
    };
#define SF_VARIANT_OPTION(type, glslName, hostName, id, value, readBy) add(id, variant.hostName);
#define SF_SIZING_OPTION(type, glslName, hostName, id, value) add(id, sizing_.hostName);
#define SF_WORKGROUP_SIZE(hostName, id, value) add(id, sizing_.hostName);
#include "shaders/sculptflow/variant_options.glsl"
    VkSpecializationInfo specialization{uint32_t(entries.size()), entries.data(),
                                        sizeof(uint32_t) * words.size(), words.data()};
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = modules.of(variant);
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = &specialization;
    info.layout = layout_;
    VkPipeline pipeline = VK_NULL_HANDLE;
    SF_VK_CHECK(ctx.vk.vkCreateComputePipelines(ctx.device, ctx.pipelineCache, 1, &info, ctx.allocator, &pipeline));
    ctx.name(VK_OBJECT_TYPE_PIPELINE, pipeline, ("deform pass " + std::to_string(variant.pass)).c_str());
    return pipeline;
}

} // namespace sculptflow
