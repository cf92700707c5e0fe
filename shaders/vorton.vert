#version 330 core
layout(location = 0) in vec3 aPosition;  // m, world
layout(location = 1) in float aStrength; // |vorticity|, 1/s

uniform mat4 uViewProjection;
uniform float uPointScale;  // viewport height * projection[1][1] / 2
uniform float uSize;        // sprite diameter, m
uniform float uStrengthScale;  // 1 / largest |vorticity| this frame

out vec4 vColor;

// Warm colormap: dark red -> orange -> yellow -> near white.
vec3 Warm(float t) {
    const vec3 c0 = vec3(0.40, 0.04, 0.06);
    const vec3 c1 = vec3(0.90, 0.25, 0.06);
    const vec3 c2 = vec3(1.00, 0.65, 0.12);
    const vec3 c3 = vec3(1.00, 0.96, 0.75);
    t = clamp(t, 0.0, 1.0);
    if (t < 0.35) return mix(c0, c1, t / 0.35);
    if (t < 0.70) return mix(c1, c2, (t - 0.35) / 0.35);
    return mix(c2, c3, (t - 0.70) / 0.30);
}

void main() {
    vec4 clip = uViewProjection * vec4(aPosition, 1.0);
    gl_Position = clip;
    gl_PointSize = max(uSize * uPointScale / max(clip.w, 1e-6), 2.0);
    // Premultiplied linear radiance, bright enough to read over lit dye.
    vColor = vec4(2.0 * pow(Warm(aStrength * uStrengthScale), vec3(2.2)), 1.0) * 0.85;
}
