#version 330 core
layout(location = 0) in vec3 aPosition;  // m, world
layout(location = 1) in uint aGroup;     // index into uPalette

uniform mat4 uViewProjection;
uniform float uPointScale;  // viewport height * projection[1][1] / 2, pixels per (m / clip.w)
uniform float uSize;        // sprite diameter, m
uniform float uOpacity;
uniform vec4 uPalette[64];
uniform int uPaletteCount;

out vec4 vColor;  // rgb + alpha before the radial falloff

const float kMinPixels = 2.5;  // below ~2.5 px, sprites read as TV static (issue 13)

void main() {
    vec4 clip = uViewProjection * vec4(aPosition, 1.0);
    gl_Position = clip;
    float pixels = uSize * uPointScale / max(clip.w, 1e-6);
    vec4 dye = uPalette[min(int(aGroup), uPaletteCount - 1)];
    // Sprites smaller than a pixel or two would flicker; draw them at the minimum size but
    // fainter so their total brightness still matches their true area.
    float coverage = pixels < kMinPixels ? (pixels * pixels) / (kMinPixels * kMinPixels) : 1.0;
    gl_PointSize = max(pixels, kMinPixels);
    vColor = vec4(dye.rgb, dye.a * uOpacity * coverage);
}
