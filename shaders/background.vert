#version 330 core
// One triangle that covers the whole viewport; no vertex buffer needed.
out float vHeight;  // 0 at the bottom edge, 1 at the top

void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    vHeight = corner.y;
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
