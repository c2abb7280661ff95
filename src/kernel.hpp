// The shared solver, compiled as C++: the exact GLSL that the compute shader runs.
//
// The files under shaders/sculptflow/ are written in the common subset of GLSL
// and C++ with GLM. Their globals (tools, settings, the pipeline's method and
// attempt budget) become members of Kernel, and their functions its member
// functions, so the CPU reference runs the same code as the GPU.
#pragma once

#include <cstddef>

#include <glm/glm.hpp>

#include <sculptflow/stroke.hpp>

namespace sculptflow::kernel {

using namespace glm; // GLSL's built-in types and functions
using uint = glm::uint;

#define SF_OUT(T) T&
#define SF_INOUT(T) T&
// Each kind's part in a concern (kinds/*.glsl), so that the loop over the tools
// keeps it inline, as when it was written there: GCC left it out of line, and the
// CPU reference ran slower (docs/performance.md). The GPU's compilers inline every call.
#define SF_INLINE __attribute__((always_inline)) inline
// GLSL's `precise` keeps a compiler from reassociating a compensated sum (steppers.glsl);
// C++ without -ffast-math does not.
#define SF_PRECISE
#define SF_UNROLL
#include "shaders/sculptflow/layout.glsl"
#include "shaders/sculptflow/methods.glsl"
#include "shaders/sculptflow/kinds.glsl"

// std140 / std430 and C++ must agree on every offset of the shared structs.
static_assert(sizeof(Tool) == 96);
static_assert(offsetof(Tool, logScale) == 12 && offsetof(Tool, translation) == 16);
static_assert(offsetof(Tool, rotation) == 32 && offsetof(Tool, grabLoad) == 48);
static_assert(offsetof(Tool, twistLoad) == 64 && offsetof(Tool, kind) == 76);
static_assert(offsetof(Tool, kelvinA) == 80 && offsetof(Tool, shape) == 92);
static_assert(sizeof(SolverSettings) == 52 && offsetof(SolverSettings, maxAttempts) == 48);
static_assert(sizeof(VertexLayout) == 32);

// The shaders hold every tool a move may have, and the pipeline's specialization
// constants pack a tool's kind into two bits and its shape into two (deform.comp).
static_assert(SF_MAX_TOOLS == sculptflow::kMaxTools);
static_assert(2 * SF_MAX_TOOLS <= 32, "toolKinds, toolShapes: 2 bits a tool in 32");
static_assert(kToolKindCount <= 4, "a kind fits 2 bits");
static_assert(kProfileBiLaplacian < 4 && kFalloffSharp < 4, "a shape fits 2 bits");

// One dispatch's state: what a shader reads from its uniforms and specialization
// constants. Copy it per thread; the member functions are the shared GLSL.
struct Kernel {
    Tool tools[SF_MAX_TOOLS]{};
    int toolCount = 0; // a specialization constant in the shader, counted at run time here
    SolverSettings settings{};
    // The pipeline's specialization constants that the shared GLSL reads
    // (variant_options.glsl's SF_KERNEL_OPTION rows), named as there.
#define SF_KERNEL_OPTION(type, glslName, hostName, id, value, readBy) type glslName = value;
#include "shaders/sculptflow/variant_options.glsl"

    // The shader reads the kinds and shapes from specialization constants instead (deform.comp).
    int toolKind(int i) const { return tools[i].kind; }
    int toolShape(int i) const { return tools[i].shape; }

#include "shaders/sculptflow/field_common.glsl"
#define SF_KIND_CODE
#include "shaders/sculptflow/kinds.glsl"
#include "shaders/sculptflow/field.glsl"
#include "shaders/sculptflow/steppers.glsl"
#include "shaders/sculptflow/controller.glsl"
#include "shaders/sculptflow/volume_change.glsl"
#include "shaders/sculptflow/error_growth.glsl"
#include "shaders/sculptflow/integrate.glsl"
};

#undef SF_OUT
#undef SF_INOUT
#undef SF_INLINE
#undef SF_PRECISE
#undef SF_UNROLL

} // namespace sculptflow::kernel
