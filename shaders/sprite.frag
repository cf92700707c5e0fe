#version 330 core
// A round point sprite: a Gaussian blob (uEdge < 0) or a disc fading from radius uEdge to its
// rim. vColor is premultiplied; so is the output.
in vec4 vColor;
uniform float uEdge;
out vec4 fragColor;

const float kSigma = 0.4;  // Gaussian width in sprite radii: exp(-r^2/(2 kSigma^2)) is 0.04 at the rim

void main() {
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(d, d);
    if (r2 > 1.0) discard;
    float falloff = uEdge < 0.0 ? exp(-0.5 * r2 / (kSigma * kSigma)) : 1.0 - smoothstep(uEdge, 1.0, sqrt(r2));
    fragColor = vColor * falloff;
}
