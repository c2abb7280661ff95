// A minimal renderer for the tests to adopt: its own instance with the Khronos
// layer and synchronization validation on, a graphics + compute queue, host-visible
// buffers, and a draw whose vertex stage captures the positions it reads.
#pragma once

#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <volk.h>

#include <sculptflow/context.hpp>
#include "host/instance_support.hpp"
#include "host/shader_compiler.hpp"

namespace sculptflow::test {

#define SF_TEST_VK(call)                                                                              \
    do {                                                                                             \
        VkResult result_ = (call);                                                                   \
        if (result_ != VK_SUCCESS)                                                                   \
            throw std::runtime_error(std::string(#call) + " failed: " + std::to_string(int(result_))); \
    } while (0)

class TestRenderer {
public:
    struct Buffer {
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        void* mapped = nullptr;
        VkDeviceSize size = 0;
    };

    // Synchronization validation on by default. (Debian's layer, 1.3.239, keeps
    // its submit-time history: ~3 MB more memory a frame, so long runs turn it off;
    // and it leaks inside the layer, which LeakSanitizer would report, so the
    // ASan build runs without it.)
#if defined(__SANITIZE_ADDRESS__)
    static constexpr bool kSynchronizationValidation = false;
#else
    static constexpr bool kSynchronizationValidation = true;
#endif
    // synchronization2: a Vulkan 1.3 instance and device with the feature on.
    explicit TestRenderer(bool synchronizationValidation = kSynchronizationValidation, bool synchronization2 = false)
        : synchronization2_(synchronization2) {
        SF_TEST_VK(volkInitialize());
        const char* layer = kValidationLayer;
        const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        const VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
        VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
        features.enabledValidationFeatureCount = synchronizationValidation ? 1 : 0;
        features.pEnabledValidationFeatures = enables;
        VkDebugUtilsMessengerCreateInfoEXT messengerInfo = validationMessengerInfo(&TestRenderer::onMessage, this);
        messengerInfo.pNext = &features;
        VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
        app.apiVersion = synchronization2 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;
        VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
        info.pApplicationInfo = &app;
        info.enabledLayerCount = 1;
        info.ppEnabledLayerNames = &layer;
        info.enabledExtensionCount = 1;
        info.ppEnabledExtensionNames = &extension;
        info.pNext = &messengerInfo;
        SF_TEST_VK(vkCreateInstance(&info, nullptr, &instance_));
        volkLoadInstance(instance_);
        messengerInfo.pNext = nullptr; // the validation features belong to the instance only
        SF_TEST_VK(vkCreateDebugUtilsMessengerEXT(instance_, &messengerInfo, nullptr, &messenger_));

        uint32_t count = 1;
        VkResult enumerated = vkEnumeratePhysicalDevices(instance_, &count, &physical_);
        if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || count == 0)
            throw std::runtime_error("no Vulkan device");
        vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
        uint32_t familyCount = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(physical_, &familyCount, nullptr);
        std::vector<VkQueueFamilyProperties> families(familyCount);
        vkGetPhysicalDeviceQueueFamilyProperties(physical_, &familyCount, families.data());
        const VkQueueFlags wanted = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        for (family_ = 0; family_ < familyCount && (families[family_].queueFlags & wanted) != wanted; ++family_) {}
        if (family_ == familyCount) throw std::runtime_error("no graphics + compute queue");

        const float priority = 1.0f;
        VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        queueInfo.queueFamilyIndex = family_;
        queueInfo.queueCount = 1;
        queueInfo.pQueuePriorities = &priority;
        VkPhysicalDeviceFeatures enabled{};
        enabled.vertexPipelineStoresAndAtomics = VK_TRUE; // the capture draw
        VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
        features13.synchronization2 = VK_TRUE;
        VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
        if (synchronization2) deviceInfo.pNext = &features13;
        deviceInfo.queueCreateInfoCount = 1;
        deviceInfo.pQueueCreateInfos = &queueInfo;
        deviceInfo.pEnabledFeatures = &enabled;
        SF_TEST_VK(vkCreateDevice(physical_, &deviceInfo, nullptr, &device_));
        vkGetDeviceQueue(device_, family_, 0, &queue_);

        VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        poolInfo.queueFamilyIndex = family_;
        SF_TEST_VK(vkCreateCommandPool(device_, &poolInfo, nullptr, &pool_));
        VkCommandBufferAllocateInfo commandInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        commandInfo.commandPool = pool_;
        commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        commandInfo.commandBufferCount = 1;
        SF_TEST_VK(vkAllocateCommandBuffers(device_, &commandInfo, &commands_));
        VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        SF_TEST_VK(vkCreateFence(device_, &fenceInfo, nullptr, &fence_));
    }

    ~TestRenderer() {
        vkDeviceWaitIdle(device_);
        destroyCapture();
        for (Buffer& b : buffers_) release(b);
        vkDestroyFence(device_, fence_, nullptr);
        vkDestroyCommandPool(device_, pool_, nullptr);
        vkDestroyDevice(device_, nullptr);
        vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
        vkDestroyInstance(instance_, nullptr);
    }

    AdoptedDevice adopted() const {
        AdoptedDevice adopted{instance_, physical_, device_, family_, queue_};
        adopted.apiVersion = synchronization2_ ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;
        adopted.synchronization2 = synchronization2_;
        adopted.loader.getInstanceProcAddr = vkGetInstanceProcAddr; // volk's, as a volk renderer passes it
        return adopted;
    }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queueFamily() const { return family_; }

    // Host-visible, coherent, mapped; freed with the renderer.
    Buffer createBuffer(VkDeviceSize size, VkBufferUsageFlags usage) {
        Buffer b;
        b.size = size;
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.size = size;
        info.usage = usage;
        SF_TEST_VK(vkCreateBuffer(device_, &info, nullptr, &b.buffer));
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device_, b.buffer, &req);
        VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        alloc.allocationSize = req.size;
        const VkMemoryPropertyFlags flags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        for (alloc.memoryTypeIndex = 0; alloc.memoryTypeIndex < memory_.memoryTypeCount; ++alloc.memoryTypeIndex)
            if ((req.memoryTypeBits & (1u << alloc.memoryTypeIndex)) &&
                (memory_.memoryTypes[alloc.memoryTypeIndex].propertyFlags & flags) == flags)
                break;
        SF_TEST_VK(vkAllocateMemory(device_, &alloc, nullptr, &b.memory));
        SF_TEST_VK(vkBindBufferMemory(device_, b.buffer, b.memory, 0));
        SF_TEST_VK(vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
        buffers_.push_back(b);
        return b;
    }

    // The vertex buffer usage LiveMove needs, plus vertex input.
    static constexpr VkBufferUsageFlags kVertexUsage =
        VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
        VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

    VkCommandBuffer begin() {
        SF_TEST_VK(vkResetCommandBuffer(commands_, 0));
        VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        SF_TEST_VK(vkBeginCommandBuffer(commands_, &info));
        return commands_;
    }

    // Ends with a barrier that makes every write visible to the host, submits, waits.
    void submitAndWait() {
        VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        toHost.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
        toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost,
                             0, nullptr, 0, nullptr);
        SF_TEST_VK(vkEndCommandBuffer(commands_));
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &commands_;
        SF_TEST_VK(vkResetFences(device_, 1, &fence_));
        SF_TEST_VK(vkQueueSubmit(queue_, 1, &submit, fence_));
        SF_TEST_VK(vkWaitForFences(device_, 1, &fence_, VK_TRUE, 60ull * 1000 * 1000 * 1000));
    }

    // Records a point draw of `count` vertices whose vertex stage reads location 0
    // (float xyz at offset/stride of `vertices`) and stores it: what a draw sees.
    void recordCapture(VkCommandBuffer commands, VkBuffer vertices, VkDeviceSize offset, uint32_t stride,
                       uint32_t count) {
        createCapture(count);
        VkPipeline pipeline = capturePipeline(stride);
        VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
        pass.renderPass = renderPass_;
        pass.framebuffer = framebuffer_;
        pass.renderArea = {{0, 0}, {1, 1}};
        vkCmdBeginRenderPass(commands, &pass, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, captureLayout_, 0, 1, &captureSet_, 0,
                                nullptr);
        vkCmdBindVertexBuffers(commands, 0, 1, &vertices, &offset);
        vkCmdDraw(commands, count, 1, 0, 0);
        vkCmdEndRenderPass(commands);
    }

    std::vector<glm::vec3> captured(uint32_t count) const {
        std::vector<glm::vec3> out(count);
        std::memcpy(out.data(), capture_.mapped, count * sizeof(glm::vec3));
        return out;
    }

    // Everything the layers said since the last call.
    std::vector<std::string> takeMessages() {
        std::lock_guard lock(mutex_);
        return std::exchange(messages_, {});
    }

private:
    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* self) {
        auto* renderer = static_cast<TestRenderer*>(self);
        std::lock_guard lock(renderer->mutex_);
        renderer->messages_.emplace_back(data && data->pMessage ? data->pMessage : "(no message)");
        return VK_FALSE;
    }

    void release(Buffer& b) {
        vkDestroyBuffer(device_, b.buffer, nullptr);
        vkFreeMemory(device_, b.memory, nullptr);
    }

    void createCapture(uint32_t count) {
        if (capture_.buffer && capture_.size >= VkDeviceSize(count) * 12) return;
        if (capture_.buffer) {
            vkDeviceWaitIdle(device_);
            destroyCapture();
        }
        capture_ = createBuffer(std::max<VkDeviceSize>(VkDeviceSize(count) * 12, 16),
                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        buffers_.pop_back(); // owned by the capture objects
        VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT,
                                             nullptr};
        VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        setInfo.bindingCount = 1;
        setInfo.pBindings = &binding;
        SF_TEST_VK(vkCreateDescriptorSetLayout(device_, &setInfo, nullptr, &setLayout_));
        VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        layoutInfo.setLayoutCount = 1;
        layoutInfo.pSetLayouts = &setLayout_;
        SF_TEST_VK(vkCreatePipelineLayout(device_, &layoutInfo, nullptr, &captureLayout_));
        VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
        VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        poolInfo.maxSets = 1;
        poolInfo.poolSizeCount = 1;
        poolInfo.pPoolSizes = &size;
        SF_TEST_VK(vkCreateDescriptorPool(device_, &poolInfo, nullptr, &descriptorPool_));
        VkDescriptorSetAllocateInfo allocInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        allocInfo.descriptorPool = descriptorPool_;
        allocInfo.descriptorSetCount = 1;
        allocInfo.pSetLayouts = &setLayout_;
        SF_TEST_VK(vkAllocateDescriptorSets(device_, &allocInfo, &captureSet_));
        VkDescriptorBufferInfo bufferInfo{capture_.buffer, 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstSet = captureSet_;
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        write.pBufferInfo = &bufferInfo;
        vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);

        VkSubpassDescription subpass{};
        subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        VkRenderPassCreateInfo passInfo{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
        passInfo.subpassCount = 1;
        passInfo.pSubpasses = &subpass;
        SF_TEST_VK(vkCreateRenderPass(device_, &passInfo, nullptr, &renderPass_));
        VkFramebufferCreateInfo framebufferInfo{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        framebufferInfo.renderPass = renderPass_;
        framebufferInfo.width = 1;
        framebufferInfo.height = 1;
        framebufferInfo.layers = 1;
        SF_TEST_VK(vkCreateFramebuffer(device_, &framebufferInfo, nullptr, &framebuffer_));

        const std::string source = R"(#version 460
layout(location = 0) in vec3 position;
layout(std430, binding = 0) writeonly buffer Capture { float captured[]; };
void main() {
    uint i = 3u * uint(gl_VertexIndex);
    captured[i] = position.x;
    captured[i + 1u] = position.y;
    captured[i + 2u] = position.z;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}
)";
        CompiledShader shader = compileShader(".", "capture.vert", [&](const std::filesystem::path&) {
            return std::optional<std::string>(source);
        });
        VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        moduleInfo.codeSize = shader.spirv.size() * 4;
        moduleInfo.pCode = shader.spirv.data();
        SF_TEST_VK(vkCreateShaderModule(device_, &moduleInfo, nullptr, &module_));
    }

    VkPipeline capturePipeline(uint32_t stride) {
        if (auto found = pipelines_.find(stride); found != pipelines_.end()) return found->second;
        VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
        stage.stage = VK_SHADER_STAGE_VERTEX_BIT;
        stage.module = module_;
        stage.pName = "main";
        VkVertexInputBindingDescription binding{0, stride, VK_VERTEX_INPUT_RATE_VERTEX};
        VkVertexInputAttributeDescription attribute{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0};
        VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
        input.vertexBindingDescriptionCount = 1;
        input.pVertexBindingDescriptions = &binding;
        input.vertexAttributeDescriptionCount = 1;
        input.pVertexAttributeDescriptions = &attribute;
        VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
        assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
        VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
        raster.rasterizerDiscardEnable = VK_TRUE; // the vertex stage is all we need
        raster.lineWidth = 1.0f;
        VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
        info.stageCount = 1;
        info.pStages = &stage;
        info.pVertexInputState = &input;
        info.pInputAssemblyState = &assembly;
        info.pRasterizationState = &raster;
        info.layout = captureLayout_;
        info.renderPass = renderPass_;
        VkPipeline pipeline = VK_NULL_HANDLE;
        SF_TEST_VK(vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
        pipelines_[stride] = pipeline;
        return pipeline;
    }

    void destroyCapture() {
        for (auto& [stride, pipeline] : pipelines_) vkDestroyPipeline(device_, pipeline, nullptr);
        pipelines_.clear();
        if (module_) vkDestroyShaderModule(device_, module_, nullptr);
        if (framebuffer_) vkDestroyFramebuffer(device_, framebuffer_, nullptr);
        if (renderPass_) vkDestroyRenderPass(device_, renderPass_, nullptr);
        if (descriptorPool_) vkDestroyDescriptorPool(device_, descriptorPool_, nullptr);
        if (captureLayout_) vkDestroyPipelineLayout(device_, captureLayout_, nullptr);
        if (setLayout_) vkDestroyDescriptorSetLayout(device_, setLayout_, nullptr);
        if (capture_.buffer) release(capture_);
        module_ = VK_NULL_HANDLE;
        framebuffer_ = VK_NULL_HANDLE;
        renderPass_ = VK_NULL_HANDLE;
        descriptorPool_ = VK_NULL_HANDLE;
        captureLayout_ = VK_NULL_HANDLE;
        setLayout_ = VK_NULL_HANDLE;
        capture_ = {};
    }

    bool synchronization2_ = false;
    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkPhysicalDeviceMemoryProperties memory_{};
    uint32_t family_ = 0;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer commands_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
    std::vector<Buffer> buffers_;

    Buffer capture_;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout captureLayout_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    VkDescriptorSet captureSet_ = VK_NULL_HANDLE;
    VkRenderPass renderPass_ = VK_NULL_HANDLE;
    VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
    VkShaderModule module_ = VK_NULL_HANDLE;
    std::map<uint32_t, VkPipeline> pipelines_;

    std::mutex mutex_;
    std::vector<std::string> messages_;
};

} // namespace sculptflow::test
