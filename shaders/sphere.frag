#version 330 core
// A lit, opaque rigid sphere with a body-fixed pattern (8 longitudinal stripes and an equator
// band) so that its rotation shows. Lit by the world's key light, which the dye and the other
// spheres shadow, and by the sky, which dye above dims. Output: linear radiance.
#include "lighting.glsl"

in vec3 vBodyNormal;
in vec3 vWorldNormal;
in vec3 vWorldPosition;

uniform vec3 uEye;         // m, world
uniform vec3 uColor;       // sRGB 0..1 of a base stripe
uniform float uHighlight;  // 0 or 1: hovered or grabbed

out vec4 fragColor;

const float kStripePairs = 4.0;      // 8 stripes: 4 base-colour, 4 darker
const float kStripeShade = 0.55;     // darker stripes, fraction of the base colour
const float kBandHalfWidth = 0.08;   // equator band where |body z| is below this
const float kBandWhiten = 0.65;      // the band is the colour mixed this far towards white
const float kGroundBounce = 0.25;    // light from below, share of the sky's
const float kSpecular = 0.25;
const float kShininess = 40.0;
const float kRim = 0.04;             // faint rim that separates the sphere from a dark backdrop
const float kHighlightGlow = 0.3;    // hovered/grabbed: a glow of the colour mixed with white...
const float kHighlightRim = 0.8;     // ...with a strong fresnel rim
const float kNormalOffset = 0.01;    // m: shadow lookups start this far off the surface

// 0 -> 1 across the zero crossing of `signedValue`, about one pixel wide (screen-space AA).
float Step(float signedValue) {
    float w = max(fwidth(signedValue), 1e-6);
    return smoothstep(-w, w, signedValue);
}

vec3 Linear(vec3 c) { return pow(max(c, vec3(0.0)), vec3(2.2)); }

void main() {
    vec3 body = normalize(vBodyNormal);
    vec3 n = normalize(vWorldNormal);
    vec3 v = normalize(uEye - vWorldPosition);
    vec3 l = uToLight;

    // cos(4 longitude) changes sign 8 times around the body z axis and has no seam at +-pi.
    float baseStripe = Step(cos(kStripePairs * atan(body.y, body.x)));
    float band = Step(kBandHalfWidth - abs(body.z));
    vec3 albedo = uColor * mix(kStripeShade, 1.0, baseStripe);
    albedo = Linear(mix(albedo, mix(uColor, vec3(1.0), kBandWhiten), band));

    vec3 lookup = vWorldPosition + kNormalOffset * n;
    float diffuse = max(dot(n, l), 0.0);
    vec3 shadow = diffuse > 0.0 ? DyeTransmittance(lookup) * SphereShadow(lookup) : vec3(0.0);
    vec3 key = uKeyRadiance * shadow;
    float skyShare = 0.5 + 0.5 * n.z;
    vec3 ambient = uSkyRadiance * SkyVisibility(lookup) * (skyShare + kGroundBounce * (1.0 - skyShare));
    vec3 h = normalize(l + v);
    float specular = diffuse > 0.0 ? kSpecular * pow(max(dot(n, h), 0.0), kShininess) : 0.0;
    vec3 color = albedo * (key * diffuse + ambient) + key * specular;
    color += kHighlightGlow * uHighlight * mix(albedo, vec3(1.0), 0.5) * (uKeyRadiance + uSkyRadiance) * 0.5;

    float fresnel = pow(1.0 - clamp(dot(n, v), 0.0, 1.0), 3.0);
    vec3 rimColor = mix(Linear(uColor), vec3(1.0), 0.5) * (uKeyRadiance + uSkyRadiance) * 0.5;
    color += rimColor * fresnel * (kRim + kHighlightRim * uHighlight);

    fragColor = vec4(Fogged(color, length(uEye - vWorldPosition), gl_FragCoord.y / uViewportHeight), 1.0);
}
