#version 330 core
// Lays the particles' weighted blended transparency (particle_accumulate.frag) over the scene:
// the weighted mean radiance covers 1 - revealage of each pixel. The output is premultiplied
// for glBlendFunc(ONE, ONE_MINUS_SRC_ALPHA): scene' = mean·(1 - r) + r·scene, and the coverage
// grows alike, so the backdrop added later shows through as much as the sprites let it.
uniform sampler2D uAccumulation;  // rgb: sum of radiance·α·w; a: revealage, product of (1 - α)
uniform sampler2D uWeight;        // r: sum of α·w

out vec4 fragColor;

void main() {
    ivec2 texel = ivec2(gl_FragCoord.xy);
    vec4 accumulation = texelFetch(uAccumulation, texel, 0);
    float revealage = clamp(accumulation.a, 0.0, 1.0);
    if (revealage >= 1.0) discard;  // no sprite here: the scene stays as it is
    float weight = texelFetch(uWeight, texel, 0).r;
    vec3 mean = accumulation.rgb / max(weight, 1e-7);
    fragColor = vec4(mean * (1.0 - revealage), 1.0 - revealage);
}
