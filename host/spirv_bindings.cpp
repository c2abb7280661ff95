// Reads descriptor bindings from SPIR-V words (SPIR-V spec §2.3: a 5-word header,
// then instructions whose first word holds word count << 16 | opcode).
#include "spirv_bindings.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <sculptflow/error.hpp>

namespace sculptflow {
namespace {

constexpr uint32_t kMagic = 0x07230203;

// The few opcodes, storage classes and decorations the bindings depend on.
enum Op : uint32_t {
    OpName = 5,
    OpTypeImage = 25,
    OpTypeSampler = 26,
    OpTypeSampledImage = 27,
    OpTypeArray = 28,
    OpTypeRuntimeArray = 29,
    OpTypeStruct = 30,
    OpTypePointer = 32,
    OpConstant = 43,
    OpSpecConstant = 50,
    OpVariable = 59,
    OpDecorate = 71,
};
enum StorageClass : uint32_t { UniformConstant = 0, Uniform = 2, StorageBuffer = 12 };
enum Decoration : uint32_t { SpecId = 1, Block = 2, BufferBlock = 3, Binding = 33, DescriptorSet = 34 };
constexpr uint32_t kDimBuffer = 5; // OpTypeImage's Dim for texel buffers

// What the module says about one id.
struct Id {
    uint32_t opcode = 0;
    std::vector<uint32_t> operands; // after the opcode word
    std::string name;
    bool block = false, bufferBlock = false;
    int64_t set = -1, binding = -1;
};

// A literal string: UTF-8 bytes packed four to a word, low byte first, NUL-ended.
std::string literalString(std::span<const uint32_t> words) {
    std::string text;
    for (uint32_t word : words)
        for (int shift = 0; shift < 32; shift += 8) {
            const char c = char((word >> shift) & 0xff);
            if (c == '\0') return text;
            text += c;
        }
    return text;
}

// The descriptor type of a variable in `storage` whose pointee (arrays peeled) is `type`.
VkDescriptorType descriptorType(uint32_t storage, const Id& type) {
    if (storage == StorageBuffer) return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    if (storage == Uniform) // before SPIR-V 1.3, storage buffers were Uniform + BufferBlock
        return type.bufferBlock ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
               : type.block     ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                : VK_DESCRIPTOR_TYPE_MAX_ENUM;
    if (storage != UniformConstant) return VK_DESCRIPTOR_TYPE_MAX_ENUM;
    if (type.opcode == OpTypeSampler) return VK_DESCRIPTOR_TYPE_SAMPLER;
    if (type.opcode == OpTypeSampledImage) return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    // After the result id: sampled type, Dim, Depth, Arrayed, MS, Sampled, format.
    if (type.opcode == OpTypeImage && type.operands.size() >= 6) {
        const bool buffer = type.operands[1] == kDimBuffer;
        const bool storageImage = type.operands[5] == 2; // Sampled: 1 with a sampler, 2 read/write
        if (buffer) return storageImage ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        return storageImage ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    }
    return VK_DESCRIPTOR_TYPE_MAX_ENUM;
}

// Calls visit(opcode, operands) for each instruction after the header. Throws
// sculptflow::Error when the words are not a SPIR-V module.
template <typename Visit>
void forEachInstruction(std::span<const uint32_t> spirv, Visit visit) {
    if (spirv.size() < 5 || spirv[0] != kMagic) throw Error("not a SPIR-V module (no SPIR-V magic number)");
    for (size_t i = 5; i < spirv.size();) {
        const uint32_t count = spirv[i] >> 16, opcode = spirv[i] & 0xffff;
        if (count == 0 || i + count > spirv.size())
            throw Error("not a valid SPIR-V module: an instruction runs past the end at word " + std::to_string(i));
        visit(opcode, spirv.subspan(i + 1, count - 1));
        i += count;
    }
}

} // namespace

std::optional<uint32_t> specializationDefault(std::span<const uint32_t> spirv, uint32_t specId) {
    std::optional<uint32_t> target; // the id decorated with specId (decorations come first)
    std::optional<uint32_t> value;
    forEachInstruction(spirv, [&](uint32_t opcode, std::span<const uint32_t> operands) {
        if (opcode == OpDecorate && operands.size() >= 3 && operands[1] == SpecId && operands[2] == specId)
            target = operands[0];
        else if (opcode == OpSpecConstant && operands.size() >= 3 && target && operands[1] == *target)
            value = operands[2]; // result type, id, value (low word)
    });
    return value;
}

std::vector<ShaderBinding> reflectBindings(std::span<const uint32_t> spirv) {
    const uint32_t bound = spirv.size() > 3 ? spirv[3] : 0;
    std::map<uint32_t, Id> ids; // sparse: only the ids the bindings need are kept
    auto at = [&](uint32_t id) -> Id& {
        if (id >= bound) throw Error("not a valid SPIR-V module: id " + std::to_string(id) + " past its bound");
        return ids[id];
    };
    std::vector<uint32_t> variables;
    forEachInstruction(spirv, [&](uint32_t opcode, std::span<const uint32_t> operands) {
        if (opcode == OpName && !operands.empty()) {
            at(operands[0]).name = literalString(operands.subspan(1));
        } else if (opcode == OpDecorate && operands.size() >= 2) {
            Id& target = at(operands[0]);
            const uint32_t decoration = operands[1];
            if (decoration == Block) target.block = true;
            if (decoration == BufferBlock) target.bufferBlock = true;
            if (decoration == Binding && operands.size() >= 3) target.binding = operands[2];
            if (decoration == DescriptorSet && operands.size() >= 3) target.set = operands[2];
        } else if (opcode == OpTypeImage || opcode == OpTypeSampler || opcode == OpTypeSampledImage ||
                   opcode == OpTypeArray || opcode == OpTypeRuntimeArray || opcode == OpTypeStruct ||
                   opcode == OpTypePointer) {
            if (operands.empty()) return;
            Id& type = at(operands[0]);
            type.opcode = opcode;
            type.operands.assign(operands.begin() + 1, operands.end());
        } else if (opcode == OpConstant && operands.size() >= 3) { // result type, id, value (low word)
            Id& constant = at(operands[1]);
            constant.opcode = opcode;
            constant.operands = {operands[2]};
        } else if (opcode == OpVariable && operands.size() >= 3) { // type, id, storage class
            Id& variable = at(operands[1]);
            variable.opcode = opcode;
            variable.operands = {operands[0], operands[2]};
            variables.push_back(operands[1]);
        }
    });

    std::vector<ShaderBinding> bindings;
    for (uint32_t id : variables) {
        const Id& variable = ids[id];
        if (variable.set < 0 || variable.binding < 0) continue; // not a descriptor (push constants, built-ins)
        ShaderBinding binding;
        binding.set = uint32_t(variable.set);
        binding.binding = uint32_t(variable.binding);
        const Id* type = &at(variable.operands[0]);
        const uint32_t storage = variable.operands[1];
        if (type->opcode == OpTypePointer && type->operands.size() >= 2) type = &at(type->operands[1]);
        // An array of descriptors: its length (a constant) or, unsized, 0.
        if (type->opcode == OpTypeArray && type->operands.size() >= 2) {
            const Id& length = at(type->operands[1]);
            binding.count = length.opcode == OpConstant ? length.operands[0] : 0;
            type = &at(type->operands[0]);
        } else if (type->opcode == OpTypeRuntimeArray && !type->operands.empty()) {
            binding.count = 0;
            type = &at(type->operands[0]);
        }
        // A sampler of a texel buffer (samplerBuffer) is a uniform texel buffer: its image says so.
        if (type->opcode == OpTypeSampledImage && !type->operands.empty()) {
            const Id& image = at(type->operands[0]);
            if (image.opcode == OpTypeImage && image.operands.size() >= 2 && image.operands[1] == kDimBuffer)
                type = &image;
        }
        binding.type = descriptorType(storage, *type);
        binding.name = type->opcode == OpTypeStruct && !type->name.empty() ? type->name : variable.name;
        bindings.push_back(std::move(binding));
    }
    std::sort(bindings.begin(), bindings.end(), [](const ShaderBinding& a, const ShaderBinding& b) {
        return std::tie(a.set, a.binding) < std::tie(b.set, b.binding);
    });
    return bindings;
}

std::string describeDescriptorType(VkDescriptorType type) {
    switch (type) {
    case VK_DESCRIPTOR_TYPE_SAMPLER: return "a sampler";
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: return "a combined image sampler";
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return "a sampled image";
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return "a storage image";
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return "a uniform texel buffer";
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return "a storage texel buffer";
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return "a uniform buffer";
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: return "a storage buffer";
    default: return "a resource the host never binds";
    }
}

void checkShaderBindings(std::span<const uint32_t> spirv, std::span<const HostBinding> host,
                         const std::string& shader) {
    std::vector<std::string> differences;
    std::vector<bool> declared(host.size(), false);
    for (const ShaderBinding& b : reflectBindings(spirv)) {
        const std::string where = "set " + std::to_string(b.set) + " binding " + std::to_string(b.binding) +
                                  (b.name.empty() ? "" : " (" + b.name + ")");
        if (b.set != 0 || b.binding >= host.size()) {
            differences.push_back(where + ": declared by the shader, but the host writes no such binding");
            continue;
        }
        if (declared[b.binding]) differences.push_back(where + ": declared twice");
        declared[b.binding] = true;
        const HostBinding& expected = host[b.binding];
        if (b.type != expected.type)
            differences.push_back(where + ": the shader declares " + describeDescriptorType(b.type) +
                                  ", the host writes " + describeDescriptorType(expected.type));
        if (b.count != 1)
            differences.push_back(where + ": the shader declares " +
                                  (b.count ? std::to_string(b.count) : std::string("an unsized array of")) +
                                  " descriptors, the host writes one");
        if (expected.name && !b.name.empty() && b.name != expected.name)
            differences.push_back(where + ": the host writes " + expected.name + " there");
    }
    for (size_t i = 0; i < host.size(); ++i)
        if (!declared[i])
            differences.push_back("set 0 binding " + std::to_string(i) +
                                  (host[i].name ? " (" + std::string(host[i].name) + ")" : "") +
                                  ": the host writes it, but the shader does not declare it");
    if (differences.empty()) return;
    std::string message = shader + "'s bindings differ from the ones the host writes:";
    for (const std::string& d : differences) message += "\n  " + d;
    throw Error(message);
}

} // namespace sculptflow
