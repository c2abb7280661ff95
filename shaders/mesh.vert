#version 460
// The mesh renderer's vertex stage: world-space position, normal and colour passed through.

layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec3 inColor; // linear RGB

// Shared with mesh.frag and MeshPushConstants in host/mesh_renderer.cpp.
layout(push_constant) uniform Push {
    mat4 viewProjection;
    vec4 eye;  // xyz: camera position; w: ambient light
    vec4 key;  // xyz: direction towards the key light; w: its intensity
    vec4 fill; // the same for the fill light
} push;

layout(location = 0) out vec3 worldPosition;
layout(location = 1) out vec3 worldNormal;
layout(location = 2) out vec3 color;

void main() {
    worldPosition = inPosition;
    worldNormal = inNormal;
    color = inColor;
    gl_Position = push.viewProjection * vec4(inPosition, 1.0);
}
