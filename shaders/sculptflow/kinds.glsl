// The tool kind table: what tells one tool kind from another, held once. A kind
// is a row here and its code, kinds/<name>.glsl (and its name in the public
// enums, in row order). The host (src/kind_table.hpp) reads the rows, and every
// list of kinds — the CLI's --kind, the stroke reader's names, the C API's range,
// the generator's families — is the rows.
//
// Compiles as GLSL and as C++, like layout.glsl; the name exists in C++ only.
// The table is guarded: src/kind_table.hpp includes it alone (for the file
// readers, which the fuzzers build with a clang that cannot compile the rest of
// the kernel), and src/kernel.hpp with the kernel, both in sculptflow::kernel.
// Included again with SF_KIND_CODE defined, it brings in the kinds' code there:
// inside the kernel, after field_common.glsl and before the concerns that call it.
#ifndef SF_KINDS_GLSL
#define SF_KINDS_GLSL

// Rows, in the order of sculptflow::ToolKind and of the C API's SfToolKind: the
// row is the kind's value in both, in Tool.kind and in the pipeline's toolKinds
// (2 bits a tool, deform.comp).
const int kToolKelvinlet = 0;
const int kToolAffine = 1;     // time truncated at the falloff (spec §3.1)
const int kToolAffineFlow = 2; // falloff in the field (spec §3.6)
const int kToolKindCount = 3;

// Each kind's code defines one function per concern, named by its row's prefix
// and marked SF_INLINE (the C++ build keeps it in the concern's loop):
//   <prefix>AddVelocity(i, R, activeMask, inout v)      its velocity at offset R (field.glsl)
//   <prefix>Reach(i, x0, δ, inout reached, inout speedSum) outOfReach (field.glsl)
//   <prefix>SphereReach(i, centre, radius, δ, same)     sphereInReach (field.glsl)
//   <prefix>StepLimit(i, x, s, k1, activeMask, stepShare, inout rate, inout travel, inout turn,
//                     inout atFloor)                   stepLimit (controller.glsl)
//   <prefix>AddDivergence(i, R, inout div)              divergence (volume_change.glsl)
//   <prefix>AddSymmetricGradient(i, R, activeMask, reach, inout S)
//                                                      (J + Jᵀ)/2 for logarithmicNorm (error_growth.glsl)
// and each concern's loop over the tools calls its tool's kind with
// SF_SWITCH_KIND(kind, Concern, (arguments)). Rows: ROW(Kind, prefix, ...), Kind
// naming its kTool* constant, in row order.
#define SF_TOOL_KINDS(ROW, concern, args) \
    ROW(Kelvinlet, kelvinlet, concern, args) \
    ROW(Affine, affine, concern, args) \
    ROW(AffineFlow, affineFlow, concern, args)
#define SF_KIND_CASE(Kind, prefix, concern, args) \
    case kTool##Kind: prefix##concern args; break;
#define SF_SWITCH_KIND(kind, concern, args) \
    switch (kind) { SF_TOOL_KINDS(SF_KIND_CASE, concern, args) }

#ifdef __cplusplus
struct KindTraits {
    const char* name; // --kind, a stroke's "kind"
    bool profiled;    // shaped by a Kelvinlet profile (kProfile*); else by a falloff (kFalloff*)
    bool truncated;   // acts on a vertex until its falloff's s_end, not to s = 1: it splits the move,
                      // sets no step limit, and its volume change is taken phase by phase
    bool compact;     // zero beyond r_out (of its origin or of its tip's path), which bounds its reach;
                      // else its reach is where a bound on its speed falls under the cull distance
    bool needsShell;  // its falloff is in the field, which must be Lipschitz (spec §3.6): r_in < r_out,
                      // since with no shell the field jumps at r_out, which no error bound sees
};

// One row per kind, at its kTool* index.
inline constexpr KindTraits kKindTable[kToolKindCount] = {
    // name         profiled truncated compact needsShell
    {"kelvinlet",   true,    false,    false,  false},
    {"affine",      false,   true,     true,   false},
    {"affine-flow", false,   false,    true,   true},
};

// SF_TOOL_KINDS holds every row, in order.
#define SF_KIND_ROW_IN_ORDER(Kind, prefix, concern, args) inOrder = inOrder && kTool##Kind == row++;
constexpr bool kindRowsInOrder() {
    int row = 0;
    bool inOrder = true;
    SF_TOOL_KINDS(SF_KIND_ROW_IN_ORDER, , )
    return inOrder && row == kToolKindCount;
}
#undef SF_KIND_ROW_IN_ORDER
static_assert(kindRowsInOrder(), "SF_TOOL_KINDS: one row per kind, in kTool* order");
#endif
#endif // SF_KINDS_GLSL

#ifdef SF_KIND_CODE
#undef SF_KIND_CODE
#include "kinds/kelvinlet.glsl"
#include "kinds/affine.glsl"
#include "kinds/affine_flow.glsl"
#endif
