#version 330 core
layout(location = 0) in vec3 aPosition;  // m, world
uniform mat4 uViewProjection;

void main() { gl_Position = uViewProjection * vec4(aPosition, 1.0); }
