#version 330 core
// The backdrop behind the scene, then the display transform: exposure, the filmic tone curve
// (Narkowicz's ACES fit, as render/tone_map.cpp), sRGB encoding and a little dither against
// banding.
in vec2 vUv;

uniform sampler2D uScene;  // premultiplied linear radiance, resolved; a: coverage
uniform vec3 uBackdropTop;     // radiance at the top and bottom of the frame
uniform vec3 uBackdropBottom;
uniform float uExposure;

out vec4 fragColor;

float Curve(float x) {
    return clamp(x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

const float kPathToWhite = 0.5;  // share of the per-channel curve, as render/tone_map.cpp

// Half the curve on the largest channel with all three scaled alike (hue and saturation kept),
// half on each channel alone (bright colours turn paler, dark ones stay saturated).
vec3 ToneMap(vec3 x) {
    x = max(x, vec3(0.0));
    float peak = max(x.r, max(x.g, x.b));
    vec3 huePreserving = peak > 1e-8 ? x * (Curve(peak) / peak) : vec3(0.0);
    vec3 perChannel = vec3(Curve(x.r), Curve(x.g), Curve(x.b));
    return mix(huePreserving, perChannel, kPathToWhite);
}

vec3 Encode(vec3 c) {
    return mix(12.92 * c, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

float Dither(vec2 pixel) {
    return fract(sin(dot(pixel, vec2(12.9898, 78.233))) * 43758.5453) - 0.5;
}

void main() {
    vec4 scene = texture(uScene, vUv);
    vec3 backdrop = mix(uBackdropBottom, uBackdropTop, smoothstep(0.0, 1.0, vUv.y));
    vec3 radiance = (scene.rgb + (1.0 - clamp(scene.a, 0.0, 1.0)) * backdrop) * uExposure;
    vec3 display = Encode(ToneMap(radiance)) + Dither(gl_FragCoord.xy) / 255.0;
    fragColor = vec4(display, 1.0);
}
