#version 460
// Moves each vertex through the move tool's velocity field: one invocation per
// vertex, running the same driver as the CPU reference (sculptflow/integrate.glsl).
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 64) in;

// Fixed at pipeline creation: the loop bound, the method and the debug output (spec §4),
// and the tools' count and kinds, so that the common case (one Kelvinlet) carries no
// dead code: llvmpipe runs both sides of every divergent branch.
layout(constant_id = 0) const int solverMethod = 2;
layout(constant_id = 1) const int solverMaxIterations = 64;
layout(constant_id = 2) const bool writeStatistics = false;
layout(constant_id = 3) const int toolCount = 1;
layout(constant_id = 4) const uint affineTools = 0u; // bit i: tools[i] is affine

#include "sculptflow/layout.glsl"

bool toolIsAffine(int i) {
    return (affineTools & (1u << uint(i))) != 0u;
}

layout(std140, set = 0, binding = 0) uniform ToolBlock {
    Tool tools[SF_MAX_TOOLS];
};

layout(std430, set = 0, binding = 1) readonly buffer InputPositions { float inputPositions[]; };
layout(std430, set = 0, binding = 2) writeonly buffer OutputPositions { float outputPositions[]; };
// flags, accepted steps, rejected steps, evaluations per vertex; bound only with writeStatistics.
layout(std430, set = 0, binding = 3) writeonly buffer Statistics { uvec4 statistics[]; };

layout(push_constant) uniform Push {
    SolverSettings settings;
    VertexLayout vertexLayout;
};

#include "sculptflow/field.glsl"
#include "sculptflow/steppers.glsl"
#include "sculptflow/controller.glsl"
#include "sculptflow/integrate.glsl"

void main() {
    uint local = gl_GlobalInvocationID.x;
    if (local >= vertexLayout.vertexCount) return;
    uint v = vertexLayout.firstVertex + local;
    uint in0 = vertexLayout.inputOffset + v * vertexLayout.inputStride;
    vec3 x0 = vec3(inputPositions[in0], inputPositions[in0 + 1], inputPositions[in0 + 2]);
    VertexResult r = integrateVertex(x0);
    uint out0 = vertexLayout.outputOffset + v * vertexLayout.outputStride;
    outputPositions[out0] = r.position.x;
    outputPositions[out0 + 1] = r.position.y;
    outputPositions[out0 + 2] = r.position.z;
    if (writeStatistics) {
        statistics[v] = uvec4(r.flags, r.acceptedSteps, r.rejectedSteps, r.evaluations);
    }
}
