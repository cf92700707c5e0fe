#version 330 core
// The ground: the plane z = uHeight under a 0.25 m grid (1 m lines stronger), fixed in the
// world, lit by the key light with the dye's and the spheres' shadows, fading into the
// backdrop with distance. Drawn as a full-screen triangle: each pixel intersects its ray with
// the plane and writes that depth. Output: premultiplied linear radiance.
#include "lighting.glsl"

in vec2 vUv;

uniform mat4 uInverseViewProjection;
uniform mat4 uViewProjection;
uniform vec3 uEye;           // m
uniform float uHeight;       // m, z of the plane
uniform vec2 uFadeCenter;    // m, xy where the floor is fully opaque
uniform float uFadeRadius;   // m: gone at this distance from uFadeCenter
uniform vec3 uAlbedo;        // linear
uniform vec3 uLineAlbedo;    // linear, the grid's lines

out vec4 fragColor;

const float kCell = 0.25;       // m between minor lines
const float kMajorEvery = 4.0;  // a major line every 4 cells (1 m)

// 1 on a grid line of `cell` spacing (about `width` cells wide), antialiased, fading out where
// the lines get too dense on screen to be told apart.
float GridLine(vec2 p, float cell, float width) {
    vec2 g = p / cell;
    vec2 w = fwidth(g);
    vec2 d = abs(fract(g + 0.5) - 0.5);
    vec2 line = 1.0 - smoothstep(vec2(width * 0.5), vec2(width * 0.5) + w * 1.5, d);
    vec2 visible = 1.0 - smoothstep(vec2(0.15), vec2(0.5), w);
    return max(line.x * visible.x, line.y * visible.y);
}

void main() {
    if (uEye.z <= uHeight) discard;  // from below the floor: no floor
    vec4 far = uInverseViewProjection * vec4(vUv * 2.0 - 1.0, 1.0, 1.0);
    vec3 dir = normalize(far.xyz / far.w - uEye);
    if (dir.z >= -1e-5) discard;
    float t = (uHeight - uEye.z) / dir.z;
    vec3 p = uEye + t * dir;
    float fade = 1.0 - smoothstep(0.4 * uFadeRadius, uFadeRadius, length(p.xy - uFadeCenter));
    if (fade <= 0.0) discard;
    vec4 clip = uViewProjection * vec4(p, 1.0);
    float depth = clip.z / clip.w * 0.5 + 0.5;
    if (depth >= 1.0) discard;
    gl_FragDepth = depth;

    float minor = GridLine(p.xy, kCell, 0.03);
    float major = GridLine(p.xy, kCell * kMajorEvery, 0.012);
    vec3 albedo = mix(uAlbedo, uLineAlbedo, max(0.5 * minor, major));
    vec3 lookup = p + vec3(0.0, 0.0, 1e-3);
    vec3 key = uKeyRadiance * max(uToLight.z, 0.0) * DyeTransmittance(lookup) * SphereShadow(lookup);
    vec3 sky = uSkyRadiance * SkyVisibility(lookup) * SphereSkyOcclusion(lookup, vec3(0.0, 0.0, 1.0));
    vec3 color = albedo * (key + sky);
    color = Fogged(color, t, gl_FragCoord.y / uViewportHeight);
    fragColor = vec4(color * fade, fade);
}
