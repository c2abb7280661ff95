// The descriptor bindings a SPIR-V module declares, read from its words, and the
// check that they are the ones the host writes: a shader and the host's binding
// table cannot drift apart unnoticed (a hot-reloaded shader included).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "vulkan_functions.hpp"

namespace sculptflow {

// One descriptor binding of a module: a variable decorated with DescriptorSet and Binding.
struct ShaderBinding {
    uint32_t set = 0;
    uint32_t binding = 0;
    // VK_DESCRIPTOR_TYPE_MAX_ENUM: a resource this reader does not map to a type.
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_MAX_ENUM;
    uint32_t count = 1;  // descriptors: an array's length, 0 for an unsized array
    std::string name;    // the block's name (its variable's if not a block); "" if stripped
};

// The module's bindings, by set then binding. Throws sculptflow::Error when the
// words are not a SPIR-V module.
std::vector<ShaderBinding> reflectBindings(std::span<const uint32_t> spirv);

// What the host writes at binding i of set 0: its type, and the block it expects
// there (checked when the module keeps names; null: any), which catches two
// buffers of one type swapped.
struct HostBinding {
    VkDescriptorType type;
    const char* name = nullptr;
};

// Throws sculptflow::Error, naming `shader` and every difference, unless the module
// declares exactly `host`: set 0 only, bindings 0 to host.size() - 1, one
// descriptor each, of those types (and names).
void checkShaderBindings(std::span<const uint32_t> spirv, std::span<const HostBinding> host,
                         const std::string& shader);

// The default of the integer specialization constant decorated SpecId `specId`:
// its low word; nullopt where the module declares none. Throws sculptflow::Error
// when the words are not a SPIR-V module.
std::optional<uint32_t> specializationDefault(std::span<const uint32_t> spirv, uint32_t specId);

// "a storage buffer", "a uniform buffer", …: for messages.
std::string describeDescriptorType(VkDescriptorType type);

} // namespace sculptflow
