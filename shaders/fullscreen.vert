#version 330 core
// One triangle that covers the whole viewport; no vertex buffer needed.
out vec2 vUv;  // 0..1 across the viewport, (0, 0) at the bottom left

void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    vUv = corner;
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
