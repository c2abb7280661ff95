#version 460
// The mesh renderer's fragment stage: two-sided Lambert lighting (key, fill, ambient).

layout(push_constant) uniform Push {
    mat4 viewProjection;
    vec4 eye;
    vec4 key;
    vec4 fill;
} push;

layout(location = 0) in vec3 worldPosition;
layout(location = 1) in vec3 worldNormal;
layout(location = 2) in vec3 color;

layout(location = 0) out vec4 outColor;

void main() {
    // The side of the triangle we see, from screen-space derivatives: independent
    // of the mesh's winding and of the projection's y flip.
    vec3 toEye = push.eye.xyz - worldPosition;
    vec3 face = cross(dFdx(worldPosition), dFdy(worldPosition));
    if (dot(face, toEye) < 0.0) face = -face;
    float len = length(worldNormal);
    vec3 n = len > 0.0 ? worldNormal / len : normalize(face);
    if (dot(n, face) < 0.0) n = -n; // an open mesh seen from behind, or a fold
    float light = push.eye.w + push.key.w * max(dot(n, push.key.xyz), 0.0) +
                  push.fill.w * max(dot(n, push.fill.xyz), 0.0);
    outColor = vec4(color * min(light, 1.0), 1.0);
}
