#version 330 core
// Particle mode: one sprite per tracer, coloured by its group's dye and lit where it is by the
// key light (through the dye's shadow, from the light volume, and the spheres') and the sky.
#include "lighting.glsl"

layout(location = 0) in vec3 aPosition;  // m, world
layout(location = 1) in uint aGroup;     // index into uPalette

uniform mat4 uViewProjection;
uniform float uPointScale;  // viewport height * projection[1][1] / 2, pixels per (m / clip.w)
uniform float uSize;        // sprite diameter, m
uniform float uOpacity;
uniform vec4 uPalette[64];  // linear RGB + amount
uniform int uPaletteCount;
uniform vec3 uEye;
uniform sampler3D uMedium;      // a: extinction of the dye shown, 1/m
uniform float uExtinction;      // 1/m at concentration 1 (0: sprites keep uSize)
uniform float uTracerVolume;    // m^3 of fluid one tracer stands for
uniform vec2 uDepthRange;       // distance along the view axis of the dye box's near and far sides, m

out vec4 vColor;   // premultiplied radiance + alpha at the sprite's centre
out float vDepth;  // 0 at uDepthRange.x, 1 at uDepthRange.y (the weight of particle_accumulate.frag)

const float kMinPixels = 2.5;  // below ~2.5 px, sprites read as TV static (issue 13)
const float kSpacings = 1.5;   // sprite diameter in local tracer spacings
const float kMaxGrowth = 6.0;  // at most this many times uSize

void main() {
    vec4 clip = uViewProjection * vec4(aPosition, 1.0);
    gl_Position = clip;
    vDepth = (clip.w - uDepthRange.x) / max(uDepthRange.y - uDepthRange.x, 1e-6);  // clip.w: view depth
    // Sprites as wide as the local tracer spacing, (tracer volume / concentration)^(1/3), from
    // the dye grid: sparse tracers grow and fade (coverage kept), so wakes read as haze, not
    // as specks. Never smaller than uSize.
    float size = uSize;
    if (uHasVolume != 0 && uExtinction > 0.0) {
        float concentration = texture(uMedium, (aPosition - uGridMin) / (uGridMax - uGridMin)).a / uExtinction;
        float spacing = concentration > 1e-6 ? pow(uTracerVolume / concentration, 1.0 / 3.0) : kMaxGrowth * uSize;
        size = clamp(kSpacings * spacing, uSize, kMaxGrowth * uSize);
    }
    float growth = uSize / size;
    float pixels = size * uPointScale / max(clip.w, 1e-6);
    vec4 dye = uPalette[min(int(aGroup), uPaletteCount - 1)];
    // Sprites smaller than a pixel or two would flicker; draw them at the minimum size but
    // fainter so their total brightness still matches their true area.
    float coverage = pixels < kMinPixels ? (pixels * pixels) / (kMinPixels * kMinPixels) : 1.0;
    gl_PointSize = max(pixels, kMinPixels);
    vec4 light = LightVolumeToward(aPosition, uToLight);
    vec3 key = uKeyRadiance * light.rgb * SphereShadow(aPosition);
    vec3 sky = uSkyRadiance * LightVolumeToward(aPosition, vec3(0.0, 0.0, 1.0)).a;
    vec3 radiance = Fogged(dye.rgb * (key + sky), length(aPosition - uEye), 0.5 + 0.5 * clip.y / clip.w);
    float alpha = clamp(dye.a * uOpacity * coverage * growth * growth, 0.0, 1.0);
    vColor = vec4(radiance * alpha, alpha);
}
