#version 330 core
// A lit, opaque rigid sphere with a body-fixed pattern (8 longitudinal stripes and an equator
// band) so that its rotation shows. Lighting is done on linearised colours and encoded back,
// so a face lit head-on shows uColor as given, like every other colour the renderer writes.
in vec3 vBodyNormal;
in vec3 vViewPosition;

uniform mat3 uBodyToView;  // body -> view rotation
uniform vec3 uColor;       // RGB 0..1 of a fully lit base stripe
uniform float uHighlight;  // 0 or 1: hovered or grabbed

out vec4 fragColor;

const float kStripePairs = 4.0;      // 8 stripes: 4 base-colour, 4 darker
const float kStripeShade = 0.55;     // darker stripes, fraction of the base colour
const float kBandHalfWidth = 0.08;   // equator band where |body z| is below this
const float kBandWhiten = 0.65;      // the band is the colour mixed this far towards white
// Key light from the upper left, in front of the sphere; fixed in view space so the lit side
// always faces the viewer whatever the camera does.
const vec3 kKeyLight = vec3(-0.45, 0.6, 0.66);
const float kAmbient = 0.07;         // linear; shadow side is about 0.3 of the colour shown
const float kSkyAmbient = 0.05;      // extra ambient on upward-facing parts
const float kDiffuse = 1.0 - kAmbient - kSkyAmbient;  // full light sums to 1: uColor itself
const float kSpecular = 0.22;
const float kShininess = 40.0;
const float kRim = 0.05;             // faint rim that separates the sphere from the dark backdrop
const float kHighlightGain = 0.45;   // hovered/grabbed: this much brighter...
const float kHighlightRim = 0.8;     // ...with a strong fresnel rim
const float kGamma = 2.2;

// 0 -> 1 across the zero crossing of `signedValue`, about one pixel wide (screen-space AA).
float Step(float signedValue) {
    float w = max(fwidth(signedValue), 1e-6);
    return smoothstep(-w, w, signedValue);
}

void main() {
    vec3 body = normalize(vBodyNormal);
    vec3 n = normalize(uBodyToView * body);
    vec3 v = normalize(-vViewPosition);
    vec3 l = normalize(kKeyLight);

    // cos(4 longitude) changes sign 8 times around the body z axis and has no seam at +-pi.
    float baseStripe = Step(cos(kStripePairs * atan(body.y, body.x)));
    float band = Step(kBandHalfWidth - abs(body.z));
    vec3 albedo = uColor * mix(kStripeShade, 1.0, baseStripe);
    albedo = mix(albedo, mix(uColor, vec3(1.0), kBandWhiten), band);

    vec3 albedoLinear = pow(max(albedo, vec3(0.0)), vec3(kGamma));
    float diffuse = max(dot(n, l), 0.0);
    float ambient = kAmbient + kSkyAmbient * (0.5 + 0.5 * n.y);
    vec3 h = normalize(l + v);
    float specular = diffuse > 0.0 ? kSpecular * pow(max(dot(n, h), 0.0), kShininess) : 0.0;
    float light = (ambient + kDiffuse * diffuse) * (1.0 + kHighlightGain * uHighlight);
    vec3 color = albedoLinear * light + specular;

    float fresnel = pow(1.0 - clamp(dot(n, v), 0.0, 1.0), 3.0);
    vec3 rimColor = mix(pow(max(uColor, vec3(0.0)), vec3(kGamma)), vec3(1.0), 0.5);
    color += rimColor * fresnel * (kRim + kHighlightRim * uHighlight);

    fragColor = vec4(pow(clamp(color, 0.0, 1.0), vec3(1.0 / kGamma)), 1.0);
}
