// deform.comp's specialization constants, declared once: one row each, read by
// deform.comp (its `layout(constant_id = …)` lines), by the host (DeformVariant's
// members, the specialization data of DeformPipelines::build, the interface
// version) and by the CPU reference (Kernel's members, src/kernel.hpp).
//
// An includer defines the row kinds it reads and leaves the others empty; this
// file undefines them all at its end, so it can be included again.
//   SF_VARIANT_OPTION(type, glslName, hostName, constantId, defaultValue, readBy):
//     fixed per pipeline: deform.comp's glslName, DeformVariant::hostName. readBy:
//     the passes that read it (SF_PASS_BIT, deform_passes.glsl); every other
//     pass's pipeline gets defaultValue, so one pipeline serves all its runs.
//   SF_KERNEL_OPTION(same): a variant option that the shared GLSL reads, so also
//     a member glslName of Kernel; an includer without it reads it as SF_VARIANT_OPTION.
//   SF_SIZING_OPTION(same): fixed per device: DeformSizing::hostName.
//   SF_WORKGROUP_SIZE(hostName, constantId, defaultValue): deform.comp's local_size_x_id.
//   SF_INTERFACE_VERSION(glslName, constantId, version): fixed in the source.
// Types are GLSL's (int, uint, bool); a bool is a VkBool32 on the host. Ids are
// free from 16 on, and 8 (the kinds' bitmasks freed it).

#ifndef SF_VARIANT_OPTION
#define SF_VARIANT_OPTION(type, glslName, hostName, constantId, defaultValue, readBy)
#endif
#ifndef SF_KERNEL_OPTION
#define SF_KERNEL_OPTION(type, name, hostName, id, value, readBy) SF_VARIANT_OPTION(type, name, hostName, id, value, readBy)
#endif
#ifndef SF_SIZING_OPTION
#define SF_SIZING_OPTION(type, glslName, hostName, constantId, defaultValue)
#endif
#ifndef SF_WORKGROUP_SIZE
#define SF_WORKGROUP_SIZE(hostName, constantId, defaultValue)
#endif
#ifndef SF_INTERFACE_VERSION
#define SF_INTERFACE_VERSION(glslName, constantId, version)
#endif

// Fixed per device (host/deform_pipeline.hpp DeformSizing): the workgroup size,
// and the vertices each lane of passes 1 and 3 takes over a range.
SF_WORKGROUP_SIZE(workgroupSize, 11, 64)
SF_SIZING_OPTION(uint, rangeVerticesPerLane, verticesPerLane, 12, 32u)

// Fixed at pipeline creation: the method and the debug output (spec §4),
// and the tools' count and kinds, so that the common case (one Kelvinlet) carries no
// dead code: llvmpipe runs both sides of every divergent branch.
SF_KERNEL_OPTION(int, solverMethod, method, 0, 2, SF_PASS_BIT(SolveRange)) // kMethodBs32
SF_VARIANT_OPTION(bool, writeStatistics, statistics, 2, false,
                  SF_PASS_BIT(SolveRange) | SF_PASS_BIT(Mark) | SF_PASS_BIT(Blocks))
// The CPU reference counts its tools at run time (Kernel::toolCount).
SF_VARIANT_OPTION(int, toolCount, toolCount, 3, 1, kPassesWithTools)
// Bits 2i, 2i+1: tools[i].kind (kTool*, kinds.glsl), so that each kind's code folds away.
SF_VARIANT_OPTION(uint, toolKinds, toolKinds, 4, 0u, kPassesWithTools)
// Bits 2i, 2i+1: tools[i].shape, the Kelvinlet profile or the falloff, so that each
// tool's shape folds away too.
SF_VARIANT_OPTION(uint, toolShapes, toolShapes, 9, 0u, kPassesWithTools)
// Which pass this pipeline runs: kDeformPass* (deform_passes.glsl), recorded by
// host/deform_recorder.cpp.
SF_VARIANT_OPTION(int, pass, pass, 5, 0, kEveryPass)
// Pass 1 walks the blocks that pass 6 listed, a workgroup a block: the mesh's
// vertices in the order of binding 7 (blocks of kBlockVertices, Morton order), each
// block with a bounding sphere in binding 8. Pass 6 lists only the blocks in reach,
// unless statistics are written: culled vertices are written only then (the
// caller keeps the output equal to the input elsewhere, with pass 5).
SF_VARIANT_OPTION(bool, sortedBlocks, sortedBlocks, 6, false, SF_PASS_BIT(Mark) | SF_PASS_BIT(Blocks))
// Binding 9 holds a mask value per vertex (spec §3.5): passes 0, 1, 4 and 5 read it.
SF_VARIANT_OPTION(bool, hasMask, mask, 7, false, SF_PASS_BIT(SolveRange) | SF_PASS_BIT(Mark) | SF_PASS_BIT(Restore))
// Binding 10 gets each vertex's volume change J (a debug output, with writeStatistics;
// VertexResult::volumeChange).
SF_KERNEL_OPTION(bool, computeVolumeChange, volumeChange, 10, false,
                 SF_PASS_BIT(SolveRange) | SF_PASS_BIT(Mark) | SF_PASS_BIT(Blocks))
// A checking pass per vertex (integrate.glsl).
SF_KERNEL_OPTION(bool, solverVerify, verify, 13, false, SF_PASS_BIT(SolveRange))
// Binding 11 holds each vertex's error bound, read and replaced (continuous mode:
// integrateVertex's `carried`, from one segment's dispatch to the next; makeSegmentKernel).
SF_KERNEL_OPTION(bool, carryBound, carryBound, 15, false, SF_PASS_BIT(SolveRange))

// What the host and deform.comp mean by their pushes and passes (kDeformInterfaceVersion,
// host/deform_interface.hpp; 2: the list's solve is pass 0 with no vertex count
// pushed; 3: binding 11 and carryBound; 4: the kinds packed in toolKinds; 5: the
// attempt budget pushed, SolverSettings::maxAttempts, not constant 1). A
// hot-reloaded copy exported from another version is refused by it: raise it with
// any change to that meaning.
SF_INTERFACE_VERSION(interfaceVersion, 14, 5)

#undef SF_VARIANT_OPTION
#undef SF_KERNEL_OPTION
#undef SF_SIZING_OPTION
#undef SF_WORKGROUP_SIZE
#undef SF_INTERFACE_VERSION
