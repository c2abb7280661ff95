// The bindings check: every shader the library builds declares the bindings the
// host writes (kDeformBindings, the vertex passes'); a shader or a host table
// changed on one side is refused, naming the difference, before any Vulkan call;
// a hot reload so refused keeps the running pipelines.
#include <gtest/gtest.h>

#include <sculptflow/hot_reload.hpp>
#include "host/deform_interface.hpp"
#include "host/shader_compiler.hpp"
#include "host/spirv_bindings.hpp"
#include "host/vertex_pass_pipeline.hpp"
#include "generated/deform_comp_spirv.h"
#include "generated/normals_comp_spirv.h"
#include "generated/restore_comp_spirv.h"
#include "gpu_fixture.hpp"
#include "kernel_fixtures.hpp"
#include "live_move_fixture.hpp"
#include "shader_files.hpp"

namespace sculptflow {
namespace {

// The check's message, or "" when it passes.
std::string refusal(std::span<const uint32_t> spirv, std::span<const HostBinding> host = kDeformBindings) {
    try {
        checkShaderBindings(spirv, host, "deform.comp");
        return "";
    } catch (const Error& e) {
        return e.what();
    }
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A shader file written into a scratch directory and compiled at run time, as hot reload does.
std::vector<uint32_t> compiled(const std::string& name, const std::string& text) {
    test::ScratchDir dir;
    test::writeFile(dir / name, text);
    return compileShader(dir.path(), name).spirv;
}

// deform.comp as exported, with one edit, compiled at run time.
std::vector<uint32_t> editedDeform(const std::string& from, const std::string& to) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    test::edit(dir / "deform.comp", from, to);
    return compileShader(dir.path(), "deform.comp").spirv;
}

TEST(ShaderBindings, EveryShaderTheLibraryBuildsDeclaresWhatTheHostWrites) {
    // Read back binding by binding, not only through the check.
    const std::vector<ShaderBinding> deform = reflectBindings(k_deform_comp_spirv);
    ASSERT_EQ(deform.size(), kDeformBindingCount);
    for (uint32_t i = 0; i < kDeformBindingCount; ++i) {
        EXPECT_EQ(deform[i].set, 0u);
        EXPECT_EQ(deform[i].binding, i);
        EXPECT_EQ(deform[i].type, kDeformBindings[i].type) << i;
        EXPECT_EQ(deform[i].count, 1u);
        EXPECT_EQ(deform[i].name, kDeformBindings[i].name);
    }
    EXPECT_EQ(deform[kDeformTools].type, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
    EXPECT_EQ(deform[kDeformMask].name, "MaskValues");

    // Every variant of deform.comp is a specialization of this one module: the
    // constants choose code, not declarations.
    EXPECT_EQ(refusal(k_deform_comp_spirv), "");
    EXPECT_EQ(refusal(compileShader("", "deform.comp", embeddedShaderFiles()).spirv), "");
    EXPECT_EQ(refusal(k_normals_comp_spirv, kNormalsBindings), "");
    EXPECT_EQ(refusal(k_restore_comp_spirv, kRestoreBindings), "");
}

TEST(ShaderBindings, AShaderBindingOfAnotherTypeIsRefused) {
    const std::string message = refusal(editedDeform("layout(std140, set = 0, binding = 0) uniform ToolBlock {",
                                                     "layout(std140, set = 0, binding = 0) readonly buffer ToolBlock {"));
    EXPECT_TRUE(contains(message, "deform.comp's bindings differ from the ones the host writes")) << message;
    EXPECT_TRUE(contains(message,
                         "set 0 binding 0 (ToolBlock): the shader declares a storage buffer, the host writes a uniform buffer"))
        << message;
}

TEST(ShaderBindings, AShaderBindingRenumberedIsRefused) {
    const std::string message = refusal(editedDeform("binding = 10) writeonly buffer VolumeChanges",
                                                     "binding = 12) writeonly buffer VolumeChanges"));
    EXPECT_TRUE(contains(message, "set 0 binding 12 (VolumeChanges): declared by the shader, but the host writes no "
                                  "such binding"))
        << message;
    EXPECT_TRUE(contains(message, "set 0 binding 10 (VolumeChanges): the host writes it, but the shader does not "
                                  "declare it"))
        << message;
}

TEST(ShaderBindings, AShaderBindingInAnotherSetIsRefused) {
    const std::string message =
        refusal(editedDeform("set = 0, binding = 9) readonly buffer", "set = 1, binding = 9) readonly buffer"));
    EXPECT_TRUE(contains(message, "set 1 binding 9 (MaskValues): declared by the shader")) << message;
    EXPECT_TRUE(contains(message, "set 0 binding 9 (MaskValues): the host writes it")) << message;
}

// Two storage buffers swapped: the types agree, the blocks' names do not.
TEST(ShaderBindings, TwoShaderBuffersSwappedAreRefusedByName) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    test::edit(dir / "deform.comp", "binding = 1) readonly buffer InputPositions",
               "binding = 2) readonly buffer InputPositions");
    test::edit(dir / "deform.comp", "binding = 2) writeonly buffer OutputPositions",
               "binding = 1) writeonly buffer OutputPositions");
    const std::string message = refusal(compileShader(dir.path(), "deform.comp").spirv);
    EXPECT_TRUE(contains(message, "set 0 binding 1 (OutputPositions): the host writes InputPositions there")) << message;
    EXPECT_TRUE(contains(message, "set 0 binding 2 (InputPositions): the host writes OutputPositions there")) << message;
}

TEST(ShaderBindings, AHostTableChangedOnItsSideIsRefused) {
    std::vector<HostBinding> host(kDeformBindings.begin(), kDeformBindings.end());
    host[kDeformStatistics].type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    EXPECT_TRUE(contains(refusal(k_deform_comp_spirv, host),
                         "set 0 binding 3 (Statistics): the shader declares a storage buffer, the host writes a "
                         "uniform buffer"));

    host = {kDeformBindings.begin(), kDeformBindings.end()};
    host.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "Extra"});
    EXPECT_TRUE(contains(refusal(k_deform_comp_spirv, host),
                         "set 0 binding 12 (Extra): the host writes it, but the shader does not declare it"));

    host.resize(kDeformBindingCount - 1);
    EXPECT_TRUE(contains(refusal(k_deform_comp_spirv, host),
                         "set 0 binding 11 (CarriedBounds): declared by the shader, but the host writes no such "
                         "binding"));
}

// The reader beyond buffers: images, samplers, texel buffers and arrays of descriptors.
TEST(ShaderBindings, ReflectionReadsEveryKindOfDescriptorAndArrays) {
    const std::vector<ShaderBinding> bindings = reflectBindings(compiled("kinds.comp", R"(#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D storageImage;
layout(set = 0, binding = 1) uniform sampler2D combined;
layout(set = 0, binding = 2) uniform samplerBuffer texels;
layout(set = 0, binding = 3, r32f) uniform imageBuffer storageTexels;
layout(set = 0, binding = 4) uniform texture2D sampledImage;
layout(set = 0, binding = 5) uniform sampler plainSampler;
layout(set = 1, binding = 0) buffer Blocks { float x[]; } blocks[3];
layout(set = 1, binding = 1) uniform Params { vec4 p; };
void main() {
    vec4 v = texture(combined, vec2(0.0)) + texelFetch(texels, 0) + imageLoad(storageTexels, 0) +
             texture(sampler2D(sampledImage, plainSampler), vec2(0.0)) + p;
    imageStore(storageImage, ivec2(0), v);
    blocks[2].x[0] = v.x;
})"));
    const std::vector<std::pair<VkDescriptorType, uint32_t>> expected = {
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
        {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1}, {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1},
        {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1},        {VK_DESCRIPTOR_TYPE_SAMPLER, 1},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3},       {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}};
    ASSERT_EQ(bindings.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(bindings[i].type, expected[i].first) << i;
        EXPECT_EQ(bindings[i].count, expected[i].second) << i;
    }
    EXPECT_EQ(bindings[0].name, "storageImage");
    EXPECT_EQ(bindings[6].set, 1u);
    EXPECT_EQ(bindings[6].name, "Blocks");
    EXPECT_EQ(bindings[7].name, "Params");

    // An array where the host writes one descriptor is refused.
    const std::string message = refusal(compiled("array.comp", R"(#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Values { float x[]; } values[2];
void main() { values[1].x[0] = 1.0; })"),
                                        std::vector<HostBinding>{{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "Values"}});
    EXPECT_TRUE(contains(message, "set 0 binding 0 (Values): the shader declares 2 descriptors, the host writes one"))
        << message;
}

TEST(ShaderBindings, WordsThatAreNotSpirvAreRefusedNotRead) {
    const std::vector<uint32_t> empty;
    EXPECT_THROW(reflectBindings(empty), Error);
    std::vector<uint32_t> words(k_deform_comp_spirv, k_deform_comp_spirv + std::size(k_deform_comp_spirv));
    words[0] = 0x03022307; // the magic number byte-swapped
    EXPECT_THROW(reflectBindings(words), Error);
    // An instruction that claims more words than the module has left.
    words = {k_deform_comp_spirv, k_deform_comp_spirv + 5};
    words.push_back((100u << 16) | 71u); // OpDecorate, 100 words
    EXPECT_THROW(reflectBindings(words), Error);
    words.back() = 71u; // a word count of 0
    EXPECT_THROW(reflectBindings(words), Error);
}

// Hot reload: a build whose bindings changed is reported as failed, and the
// pipelines from the last good build keep running (validation stays silent).
class ShaderBindingsReload : public test::GpuTest {};

std::vector<glm::vec3> translated(GpuSolver& solver, const std::vector<glm::vec3>& start) {
    const Move move{{test::affineMotion({0.0, 0.0, 0.0}, {30.0, -10.0, 5.0}, {}, 0.0, 50.0, 60.0)}};
    return solveOnGpu(solver, move, start, SolverOptions{}).positions;
}

TEST_F(ShaderBindingsReload, TheSolverRefusesAChangedBindingAndKeepsItsPipelines) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    GpuSolver solver(context());
    ShaderReloader reloader(solver, dir.path());
    ASSERT_EQ(reloader.generation(), 1) << reloader.lastReport().message;
    // A real edit first (twice the affine velocity), so that keeping it shows.
    test::edit(dir / "sculptflow/field_common.glsl", "return tools[i].translation + cross",
               "return 2.0f * tools[i].translation + cross");
    ASSERT_EQ(reloader.poll().status, ReloadReport::Status::Reloaded) << reloader.lastReport().message;
    const std::vector<glm::vec3> start = {{1.0f, 2.0f, 3.0f}, {-10.0f, 5.0f, 0.0f}, {20.0f, 0.0f, -7.0f}};
    const std::vector<glm::vec3> doubled = translated(solver, start);
    EXPECT_NEAR(doubled[0].x - start[0].x, 60.0f, 1e-3f);

    test::edit(dir / "deform.comp", "layout(std430, set = 0, binding = 3) writeonly buffer Statistics",
               "layout(std430, set = 0, binding = 12) writeonly buffer Statistics");
    const ReloadReport refused = reloader.poll();
    ASSERT_EQ(refused.status, ReloadReport::Status::Failed);
    EXPECT_TRUE(contains(refused.message, "set 0 binding 12 (Statistics): declared by the shader")) << refused.message;
    EXPECT_EQ(reloader.generation(), 2);
    EXPECT_EQ(translated(solver, start), doubled);
}

// A caller's own build (useShader, no ShaderReloader): it runs from the next run,
// and words that are not SPIR-V are refused with the last build running on.
TEST_F(ShaderBindingsReload, UseShaderRunsACallersBuildAndRefusesABadOne) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    test::edit(dir / "sculptflow/field_common.glsl", "return tools[i].translation + cross",
               "return 2.0f * tools[i].translation + cross");
    const CompiledShader doubling = compileShader(dir.path(), "deform.comp");
    GpuSolver solver(context());
    solver.setCompaction(false); // one pipeline to rebuild
    const std::vector<glm::vec3> start = {{1.0f, 2.0f, 3.0f}, {-10.0f, 5.0f, 0.0f}};
    EXPECT_NEAR(translated(solver, start)[0].x - start[0].x, 30.0f, 1e-3f);
    useShader(solver, doubling.spirv);
    const std::vector<glm::vec3> doubled = translated(solver, start);
    EXPECT_NEAR(doubled[0].x - start[0].x, 60.0f, 1e-3f);

    const std::vector<uint32_t> notSpirv(k_deform_comp_spirv, k_deform_comp_spirv + 5);
    EXPECT_THROW(useShader(solver, notSpirv), Error);
    EXPECT_EQ(translated(solver, start), doubled);
}

// A copy of deform.comp exported from another version of the library may mean
// something else by its passes (before version 2 the list's solve was pass 4):
// a reload of it is refused by its interfaceVersion, and the last build runs on.
TEST_F(ShaderBindingsReload, AShaderFromAnotherInterfaceVersionIsRefused) {
    EXPECT_EQ(specializationDefault(k_deform_comp_spirv, kDeformInterfaceVersionId), kDeformInterfaceVersion);
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    GpuSolver solver(context());
    ShaderReloader reloader(solver, dir.path());
    ASSERT_EQ(reloader.generation(), 1) << reloader.lastReport().message;
    const std::vector<glm::vec3> start = {{1.0f, 2.0f, 3.0f}, {-10.0f, 5.0f, 0.0f}};
    const std::vector<glm::vec3> before = translated(solver, start);

    const std::filesystem::path options = dir / "sculptflow/variant_options.glsl";
    auto versionRow = [](uint32_t version) {
        return "SF_INTERFACE_VERSION(interfaceVersion, " + std::to_string(kDeformInterfaceVersionId) + ", " +
               std::to_string(version) + ")";
    };
    test::edit(options, versionRow(kDeformInterfaceVersion), versionRow(1));
    const ReloadReport older = reloader.poll();
    ASSERT_EQ(older.status, ReloadReport::Status::Failed);
    EXPECT_TRUE(contains(older.message, "declares interface version 1, and this library needs " +
                                            std::to_string(kDeformInterfaceVersion)))
        << older.message;
    EXPECT_TRUE(contains(older.message, "sculptflow shaders export")) << older.message;

    test::edit(options, versionRow(1), "");
    const ReloadReport unversioned = reloader.poll();
    ASSERT_EQ(unversioned.status, ReloadReport::Status::Failed);
    EXPECT_TRUE(contains(unversioned.message, "declares no interfaceVersion")) << unversioned.message;
    EXPECT_EQ(reloader.generation(), 1);
    EXPECT_EQ(translated(solver, start), before);
}

class ShaderBindingsLiveReload : public test::LiveMoveFixture {};

TEST_F(ShaderBindingsLiveReload, ALiveMoveKeepsDraggingWhenAReloadChangesABinding) {
    test::ScratchDir dir;
    test::exportShaders(dir.path());
    ShaderReloader reloader(*context_, dir.path());
    ASSERT_EQ(reloader.generation(), 1) << reloader.lastReport().message;
    const Mesh sphere = test::tipSphere(motion_.tools[0], 2, 1.0f);
    const std::vector<uint32_t> tris = test::triangles(sphere);
    upload(sphere.positions);
    live_ = std::make_unique<LiveMove>(*context_, rendererMesh(tris));
    live_->begin(stroke_, firstPoses());
    ASSERT_TRUE(live_->update(posesAt(10))) << live_->lastError();
    ASSERT_TRUE(frame().recorded) << live_->lastError();
    const std::string dragged = bytes();
    ASSERT_GT(maxDistance(positions(), sphere.positions), 10.0);

    test::edit(dir / "deform.comp", "layout(std140, set = 0, binding = 0) uniform ToolBlock {",
               "layout(std140, set = 0, binding = 0) readonly buffer ToolBlock {");
    const ReloadReport refused = reloader.poll();
    ASSERT_EQ(refused.status, ReloadReport::Status::Failed) << "the edit still compiles: only the check refuses it";
    EXPECT_TRUE(refused.diagnostics.empty());
    EXPECT_TRUE(contains(refused.message, "set 0 binding 0 (ToolBlock): the shader declares a storage buffer, the "
                                          "host writes a uniform buffer"))
        << refused.message;

    // The same pose again: the same solve from the snapshot, by the same pipelines.
    ASSERT_TRUE(live_->update(posesAt(10))) << live_->lastError();
    ASSERT_TRUE(frame().recorded) << live_->lastError();
    EXPECT_EQ(differenceFrom(dragged), "");
    live_->cancel();
    frame();
}

} // namespace
} // namespace sculptflow
