// deform.comp's passes: the values of its `pass` specialization constant
// (variant_options.glsl), which host/deform_recorder.cpp records (recordDeform,
// compacting: restore, blocks, mark, scan, scatter, then the list's solve).
// Compiles as GLSL and as C++ (host/deform_recorder.hpp includes it).

// Integrate every vertex of the range, culling per vertex (as the CPU reference);
// or, where the recorder pushes no vertex count, the active list.
const int kDeformPassSolveRange = 0;
// Culled vertices get their input (and CULLED), the others a distance bin, counted
// per bin (with sortedBlocks: appended to the active list at once).
const int kDeformPassMark = 1;
// Scan the bin counts into cursors and write the indirect dispatch arguments.
const int kDeformPassScan = 2;
// Scatter the active vertices into the active list, bin by bin (not with sortedBlocks).
const int kDeformPassScatter = 3;
// Integrate the list (vkCmdDispatchIndirect): the host's name for pass 0 over the
// list, which runs pass 0's pipeline (no pipeline of its own).
const int kDeformPassSolveList = 4;
// Copy the input over the output at the vertices of the last run's list that this run culls.
const int kDeformPassRestore = 5;
// List the vertex blocks that the mark visits, with their dispatch arguments.
const int kDeformPassBlocks = 6;

// A set of passes, a bit each: variant_options.glsl's readBy column. The list's
// solve runs the range's pipeline, so its bit is never asked for.
#define SF_PASS_BIT(name) (1 << kDeformPass##name)
const int kEveryPass = 0x7f;
// The passes that read the tools: all but the scan and the scatter, which move counts and indices.
const int kPassesWithTools = SF_PASS_BIT(SolveRange) | SF_PASS_BIT(Mark) | SF_PASS_BIT(Restore) | SF_PASS_BIT(Blocks);
