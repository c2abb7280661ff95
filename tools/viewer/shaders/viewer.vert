#version 460
// The viewer's vertex stage: positions and normals in voxels, straight from the
// buffer the solver writes; a per-chunk shade and the mask from static streams;
// with a heat map, the displacement from the undeformed position or the solver's
// evaluations per vertex.

layout(location = 0) in vec3 inPosition; // voxels
layout(location = 1) in vec3 inNormal;   // recomputed by the solver's normals pass
layout(location = 2) in uint inChunk;    // the chunk (voxel block) of the vertex
layout(location = 3) in float inMask;    // spec §3.5: 1 free, 0 frozen
layout(location = 4) in vec3 inRest;     // the undeformed position (voxels)
layout(location = 5) in uint inEvaluations; // the solver's, RendererMesh::statistics

// Shared with viewer.frag and ViewerPushConstants in mesh_pipeline.cpp.
layout(push_constant) uniform Push {
    mat4 viewProjection;
    vec4 eye;   // xyz: camera position; w: ambient light
    vec4 key;   // xyz: direction towards the key light; w: its intensity
    vec4 fill;  // the same for the fill light
    vec4 color; // rgb: the clay's linear colour; w ≥ 0: how much the chunks' shades vary,
                // w < 0: a heat map, −w at the top of its scale: r = 0 displacement
                // (voxels), r = 1 evaluations
} push;

layout(location = 0) out vec3 worldPosition;
layout(location = 1) out vec3 worldNormal;
layout(location = 2) flat out uint chunk;
layout(location = 3) out float mask;
layout(location = 4) out float heat; // displacement or evaluations / full scale (heat map only)

void main() {
    worldPosition = inPosition;
    worldNormal = inNormal;
    chunk = inChunk;
    // As the solver reads it: clamped to [0, 1], NaN frozen.
    mask = isnan(inMask) ? 0.0 : clamp(inMask, 0.0, 1.0);
    float quantity = push.color.r > 0.5 ? float(inEvaluations) : length(inPosition - inRest);
    heat = push.color.w < 0.0 ? quantity / -push.color.w : 0.0;
    gl_Position = push.viewProjection * vec4(inPosition, 1.0);
}
