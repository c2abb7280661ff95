#version 460
// Recomputes vertex normals of a deformed mesh: each vertex sums the area-weighted
// normals of the triangles around it, in a fixed order (no float atomics), so the
// result is deterministic. Positions and normals are float xyz addressed by float
// offsets and strides, and may interleave in the same buffer.

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Positions { float positions[]; };
// Triangles around vertex v: pairs[start[v] .. start[v + 1]), each the other two
// corners in winding order (src/vertex_adjacency.hpp).
layout(std430, set = 0, binding = 1) readonly buffer AdjacencyStart { uint adjacencyStart[]; };
layout(std430, set = 0, binding = 2) readonly buffer AdjacencyPairs { uvec2 adjacencyPairs[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Normals { float normals[]; };

layout(push_constant) uniform Push {
    uint firstVertex;
    uint vertexCount;
    uint positionOffset; // floats before vertex 0's x
    uint positionStride; // floats from one vertex to the next
    uint normalOffset;
    uint normalStride;
};

vec3 position(uint v) {
    uint i = positionOffset + v * positionStride;
    return vec3(positions[i], positions[i + 1], positions[i + 2]);
}

void main() {
    if (gl_GlobalInvocationID.x >= vertexCount) return;
    uint v = firstVertex + gl_GlobalInvocationID.x;
    vec3 p = position(v);
    vec3 sum = vec3(0.0);
    for (uint k = adjacencyStart[v]; k < adjacencyStart[v + 1]; ++k) {
        uvec2 bc = adjacencyPairs[k];
        sum += cross(position(bc.x) - p, position(bc.y) - p);
    }
    // A vertex with no area around it gets a zero normal, never NaN.
    float len = length(sum);
    vec3 n = len > 0.0 ? sum / len : vec3(0.0);
    uint o = normalOffset + v * normalStride;
    normals[o] = n.x;
    normals[o + 1] = n.y;
    normals[o + 2] = n.z;
}
