#version 330 core
in float vHeight;
uniform vec3 uTop;
uniform vec3 uBottom;
out vec4 fragColor;

// A little per-pixel noise hides 8-bit banding in the long, dark gradient.
float Dither(vec2 pixel) {
    return fract(sin(dot(pixel, vec2(12.9898, 78.233))) * 43758.5453) - 0.5;
}

void main() {
    float t = smoothstep(0.0, 1.0, vHeight);
    vec3 color = mix(uBottom, uTop, t) + Dither(gl_FragCoord.xy) / 255.0;
    fragColor = vec4(color, 1.0);
}
