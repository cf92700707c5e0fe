#version 330 core
// Lays the marched dye over the scene: colour = radiance + transmittance · scene, per channel,
// through dual-source blending (GL_ONE, GL_SRC1_COLOR); coverage (alpha) grows likewise, so
// the backdrop added later shows through the dye as much as the dye lets it. At half resolution each pixel blends
// the four nearest march texels, weighting down those whose marched distance differs from its
// own (a sphere's edge), so the dye does not bleed over silhouettes.
in vec2 vUv;

uniform sampler2D uRadiance;
uniform sampler2D uTransmittance;  // a: the distance each march texel stopped at, m
uniform sampler2D uDepth;          // full resolution
uniform mat4 uInverseViewProjection;
uniform vec3 uEye;
uniform vec2 uMarchSize;           // texels
uniform int uHalfResolution;

layout(location = 0, index = 0) out vec4 outColor;
layout(location = 0, index = 1) out vec4 outFactor;

void main() {
    vec3 radiance;
    vec3 transmittance;
    if (uHalfResolution == 0) {
        ivec2 texel = ivec2(gl_FragCoord.xy);
        radiance = texelFetch(uRadiance, texel, 0).rgb;
        transmittance = texelFetch(uTransmittance, texel, 0).rgb;
    } else {
        float depth = texture(uDepth, vUv).r;
        vec4 end = uInverseViewProjection * vec4(vUv * 2.0 - 1.0, depth * 2.0 - 1.0, 1.0);
        float distance = length(end.xyz / end.w - uEye);
        vec2 position = vUv * uMarchSize - 0.5;
        ivec2 base = ivec2(floor(position));
        vec2 f = position - vec2(base);
        ivec2 last = ivec2(uMarchSize) - 1;
        radiance = vec3(0.0);
        transmittance = vec3(0.0);
        float total = 0.0;
        for (int j = 0; j < 2; ++j) {
            for (int i = 0; i < 2; ++i) {
                ivec2 texel = clamp(base + ivec2(i, j), ivec2(0), last);
                vec4 t = texelFetch(uTransmittance, texel, 0);
                float bilinear = (i == 0 ? 1.0 - f.x : f.x) * (j == 0 ? 1.0 - f.y : f.y);
                float mismatch = abs(t.a - distance) / max(distance, 1e-3);
                float w = bilinear / (1e-3 + mismatch * mismatch * 400.0) + 1e-6;
                radiance += w * texelFetch(uRadiance, texel, 0).rgb;
                transmittance += w * t.rgb;
                total += w;
            }
        }
        radiance /= total;
        transmittance /= total;
    }
    float passed = dot(transmittance, vec3(1.0 / 3.0));
    outColor = vec4(radiance, 1.0 - passed);
    outFactor = vec4(transmittance, passed);
}
