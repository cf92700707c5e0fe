#version 330 core
// Particle mode, weighted blended order-independent transparency (McGuire and Bavoil, "Weighted
// Blended Order-Independent Transparency", JCGT 2(2), 2013): each sprite fragment adds its
// premultiplied radiance times a depth weight, and its coverage times that weight, and
// multiplies the revealage (the share of the scene behind still seen) by 1 - coverage.
// GL 3.3 has one blend function for all draw buffers, so the renderer uses
// glBlendFuncSeparate(ONE, ONE, ZERO, ONE_MINUS_SRC_ALPHA) and the data are arranged to suit it:
//   buffer 0 (RGBA16F): rgb += radiance·α·w (additive), a *= 1 - α (the revealage);
//   buffer 1 (R16F):    r += α·w (additive).
// particle_resolve.frag lays the result over the scene.
in vec4 vColor;   // premultiplied radiance + alpha at the sprite's centre (tracer.vert)
in float vDepth;  // 0 at the near side of the dye's box, 1 at its far side

layout(location = 0) out vec4 outAccumulation;
layout(location = 1) out vec4 outWeight;

const float kSigma = 0.4;        // Gaussian width in sprite radii, as sprite.frag
const float kMinWeight = 1e-3;   // far dye still counts a little (and stays above half floats' subnormals)

void main() {
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(d, d);
    if (r2 > 1.0) discard;
    vec4 colour = vColor * exp(-0.5 * r2 / (kSigma * kSigma));
    float alpha = clamp(colour.a, 0.0, 1.0);
    // The paper's depth weight (its eq. 10, a cubic falloff of normalised depth), on the dye's
    // own depth range so that near dye outweighs far dye whatever the camera's distance; the
    // coverage factor lets faint sprites count less. The largest weight is 1, so the sums stay
    // far from half floats' limit (65504) for thousands of sprites per pixel.
    float near = 1.0 - clamp(vDepth, 0.0, 1.0);
    float weight = alpha * max(kMinWeight, near * near * near);
    outAccumulation = vec4(colour.rgb * weight, alpha);
    outWeight = vec4(alpha * weight, 0.0, 0.0, 0.0);
}
