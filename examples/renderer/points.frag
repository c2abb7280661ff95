#version 450
layout(location = 0) out vec4 color;

void main() { color = vec4(1.0, 0.6, 0.2, 1.0); }
