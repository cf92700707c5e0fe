#version 330 core
// One rigid sphere: a unit sphere mesh in the body frame, placed by centre, radius and rotation.
layout(location = 0) in vec3 aPosition;  // unit sphere, body frame (also the body-frame normal)

uniform mat4 uViewProjection;
uniform vec3 uCenter;     // m, world
uniform float uRadius;    // m
uniform mat3 uRotation;   // body -> world

out vec3 vBodyNormal;     // body frame: the surface pattern is computed from it
out vec3 vWorldNormal;
out vec3 vWorldPosition;  // m

void main() {
    vec3 normal = uRotation * aPosition;
    vec3 world = uCenter + uRadius * normal;
    vBodyNormal = aPosition;
    vWorldNormal = normal;
    vWorldPosition = world;
    gl_Position = uViewProjection * vec4(world, 1.0);
}
