#version 330 core
// Ray-marches the dye for one pixel of the march target (full or half resolution) through the
// lit medium (DyeLighting::Medium): per step, the light the dye scatters (the key light through
// the dye's and the spheres' shadows, the sky dimmed by dye above) and Beer–Lambert extinction.
// The march stops at the scene's depth, so spheres and the floor hide the dye behind them.
// Outputs the radiance the dye sends to the eye and the share of what is behind that it lets
// through.
#include "lighting.glsl"

in vec2 vUv;

uniform sampler3D uMedium;  // rgb: scattered radiance per m; a: extinction, 1/m
uniform sampler2D uDepth;   // the scene's depth, full resolution
uniform mat4 uInverseViewProjection;
uniform vec3 uEye;          // m
uniform float uStep;        // m between samples

layout(location = 0) out vec4 outRadiance;       // rgb: radiance towards the eye
layout(location = 1) out vec4 outTransmittance;  // rgb: share of what is behind; a: distance marched to, m

const int kMaxSteps = 1024;
const float kOpaque = 0.005;  // stop once less than this passes

// Interleaved gradient noise (Jimenez 2014): a per-pixel start offset that turns banding into
// fine grain.
float Jitter(vec2 pixel) {
    return fract(52.9829189 * fract(dot(pixel, vec2(0.06711056, 0.00583715))));
}

void main() {
    float depth = texture(uDepth, vUv).r;
    vec4 end = uInverseViewProjection * vec4(vUv * 2.0 - 1.0, depth * 2.0 - 1.0, 1.0);
    vec3 toEnd = end.xyz / end.w - uEye;
    float tEnd = length(toEnd);
    vec3 dir = toEnd / tEnd;
    vec2 box = RayBox(uEye, dir, uGridMin, uGridMax);
    float t0 = max(box.x, 0.0);
    float t1 = min(box.y, tEnd);
    vec3 radiance = vec3(0.0);
    float transmittance = 1.0;
    if (t1 > t0) {
        vec3 toGrid = 1.0 / (uGridMax - uGridMin);
        vec3 backdrop = Backdrop(vUv.y);
        vec3 start = (uEye + t0 * dir - uGridMin) * toGrid;
        vec3 stride = dir * uStep * toGrid;
        float offset = Jitter(gl_FragCoord.xy);
        int steps = int(ceil((t1 - t0) / uStep - offset));
        for (int i = 0; i < min(steps, kMaxSteps); ++i) {
            float s = float(i) + offset;
            vec4 medium = texture(uMedium, start + s * stride);
            if (medium.a < 1e-3) continue;
            // Fog: dye far away fades towards the backdrop, as opaque surfaces do.
            float clear = FogClear(t0 + s * uStep);
            vec3 source = clear * medium.rgb + (1.0 - clear) * medium.a * backdrop;
            float passed = exp(-medium.a * uStep);
            radiance += transmittance * source * ((1.0 - passed) / medium.a);
            transmittance *= passed;
            if (transmittance < kOpaque) {
                transmittance = 0.0;
                break;
            }
        }
    }
    outRadiance = vec4(radiance, 1.0);
    outTransmittance = vec4(vec3(transmittance), tEnd);
}
