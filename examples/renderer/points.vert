#version 450
// Draws each vertex of the sculpt as a point, fitted into the view.
layout(location = 0) in vec3 position; // voxels
layout(push_constant) uniform Fit {
    vec4 centerAndInverseExtent;
} fit;

void main() {
    gl_Position = vec4((position - fit.centerAndInverseExtent.xyz) * fit.centerAndInverseExtent.w, 1.0);
    gl_Position.z = 0.5;
    gl_PointSize = 1.0;
}
