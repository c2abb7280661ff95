#version 460
// Copies float xyz attributes of a vertex range from the snapshot back into the
// renderer's stream, and nothing else: interleaved bytes between the attributes
// (colours, UVs the renderer rewrites) keep what the renderer wrote. Both sides
// are addressed by float offsets and strides.

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Source { float source[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Destination { float destination[]; };

layout(push_constant) uniform Push {
    uint firstVertex;
    uint vertexCount;
    uint sourceOffset; // floats before vertex 0's x
    uint sourceStride; // floats from one vertex to the next
    uint destinationOffset;
    uint destinationStride;
};

void main() {
    if (gl_GlobalInvocationID.x >= vertexCount) return;
    uint v = firstVertex + gl_GlobalInvocationID.x;
    uint i = sourceOffset + v * sourceStride;
    uint o = destinationOffset + v * destinationStride;
    destination[o] = source[i];
    destination[o + 1] = source[i + 1];
    destination[o + 2] = source[i + 2];
}
