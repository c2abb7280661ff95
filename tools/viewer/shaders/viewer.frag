#version 460
// The viewer's fragment stage: two-sided Lambert lighting (key, fill, ambient) of
// a clay colour, each chunk slightly lighter or darker so that the blocks show,
// masked (frozen) parts in a dark slate, as sculpting apps show them. With the
// heat map (push.color.w < 0) the albedo is the displacement's or the evaluations'
// colour instead.

layout(push_constant) uniform Push {
    mat4 viewProjection;
    vec4 eye;
    vec4 key;
    vec4 fill;
    vec4 color;
} push;

layout(location = 0) in vec3 worldPosition;
layout(location = 1) in vec3 worldNormal;
layout(location = 2) flat in uint chunk;
layout(location = 3) in float mask; // 1 free, 0 frozen
layout(location = 4) in float heat; // displacement or evaluations over the heat map's full scale

layout(location = 0) out vec4 outColor;

const vec3 kFrozen = vec3(0.03, 0.05, 0.14); // linear

// The heat map (linear): dark blue for no displacement, then blue, green, yellow,
// red at the full scale and beyond.
const vec3 kHeat[5] = vec3[5](vec3(0.01, 0.02, 0.25), vec3(0.0, 0.45, 0.75), vec3(0.05, 0.65, 0.10),
                              vec3(0.95, 0.80, 0.02), vec3(0.80, 0.03, 0.02));

vec3 heatColor(float t) {
    float x = clamp(t, 0.0, 1.0) * 4.0;
    int i = min(int(x), 3);
    return mix(kHeat[i], kHeat[i + 1], x - float(i));
}

// A shade in [-1, 1] per chunk (an integer hash), the same every frame.
float chunkShade(uint c) {
    c ^= c >> 16;
    c *= 0x7feb352du;
    c ^= c >> 15;
    c *= 0x846ca68bu;
    c ^= c >> 16;
    return float(c & 0xffffu) / 32767.5 - 1.0;
}

void main() {
    // The side we see, from screen-space derivatives: independent of the winding.
    vec3 toEye = push.eye.xyz - worldPosition;
    vec3 face = cross(dFdx(worldPosition), dFdy(worldPosition));
    if (dot(face, toEye) < 0.0) face = -face;
    float len = length(worldNormal);
    vec3 n = len > 0.0 ? worldNormal / len : normalize(face);
    if (dot(n, face) < 0.0) n = -n; // an open mesh seen from behind, or a fold
    float light = push.eye.w + push.key.w * max(dot(n, push.key.xyz), 0.0) +
                  push.fill.w * max(dot(n, push.fill.xyz), 0.0);
    vec3 albedo = push.color.w < 0.0 ? heatColor(heat) : push.color.rgb * (1.0 + push.color.w * chunkShade(chunk));
    albedo = mix(kFrozen, albedo, mask);
    outColor = vec4(albedo * min(light, 1.0), 1.0);
}
