// The tool kind table: what tells one tool kind from another, held once. The
// kernel switches on a tool's kind (toolKind(i)) once per concern and calls the
// kind's own code there (its field, its gradient, its reach, its volume change);
// the host (src/kind_table.hpp) reads these rows, and every list of kinds — the
// CLI's --kind, the stroke reader's names, the C API's range, the generator's
// families — is the rows. A kind is its field code plus a row here (and its name
// in the public enums, in row order).
//
// Compiles as GLSL and as C++, like layout.glsl; the name exists in C++ only.
// Guarded: src/kind_table.hpp includes it alone (for the file readers, which
// the fuzzers build with a clang that cannot compile the rest of the kernel),
// and src/kernel.hpp with the kernel, both in sculptflow::kernel.
#ifndef SF_KINDS_GLSL
#define SF_KINDS_GLSL

// Rows, in the order of sculptflow::ToolKind and of the C API's SfToolKind: the
// row is the kind's value in both, in Tool.kind and in the pipeline's toolKinds
// (2 bits a tool, deform.comp).
const int kToolKelvinlet = 0;
const int kToolAffine = 1;     // time truncated at the falloff (spec §3.1)
const int kToolAffineFlow = 2; // falloff in the field (spec §3.6)
const int kToolKindCount = 3;

#ifdef __cplusplus
struct KindTraits {
    const char* name; // --kind, a stroke's "kind"
    bool profiled;    // shaped by a Kelvinlet profile (kProfile*); else by a falloff (kFalloff*)
    bool truncated;   // acts on a vertex until its falloff's s_end, not to s = 1: it splits the move,
                      // sets no step limit, and its volume change is taken phase by phase
    bool compact;     // zero beyond r_out (of its origin or of its tip's path), which bounds its reach;
                      // else its reach is where a bound on its speed falls under the cull distance
};

// One row per kind, at its kTool* index.
inline constexpr KindTraits kKindTable[kToolKindCount] = {
    // name         profiled truncated compact
    {"kelvinlet",   true,    false,    false},
    {"affine",      false,   true,     true},
    {"affine-flow", false,   false,    true},
};
#endif
#endif // SF_KINDS_GLSL
