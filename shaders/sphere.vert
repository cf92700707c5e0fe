#version 330 core
// One rigid sphere: a unit sphere mesh in the body frame, placed by centre, radius and rotation.
layout(location = 0) in vec3 aPosition;  // unit sphere, body frame (also the body-frame normal)

uniform mat4 uViewProjection;
uniform mat4 uView;       // world -> view (rigid, so its 3x3 part also turns normals)
uniform vec3 uCenter;     // m, world
uniform float uRadius;    // m
uniform mat3 uRotation;   // body -> world

out vec3 vBodyNormal;  // body frame: the surface pattern is computed from it
out vec3 vViewPosition;  // m, view space

void main() {
    vec3 world = uCenter + uRadius * (uRotation * aPosition);
    vBodyNormal = aPosition;
    vViewPosition = (uView * vec4(world, 1.0)).xyz;
    gl_Position = uViewProjection * vec4(world, 1.0);
}
