#version 330 core
// A round point sprite that fades towards its rim. Output is premultiplied alpha.
in vec4 vColor;
uniform float uEdge;  // radius (0..1) where the fade starts: 0 = soft blob, 0.7 = crisp disc
out vec4 fragColor;

void main() {
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    float r = length(d);
    if (r > 1.0) discard;
    float alpha = vColor.a * (1.0 - smoothstep(uEdge, 1.0, r));
    // A faint hot core makes dense clusters read as glowing rather than flat.
    vec3 color = mix(vColor.rgb, vec3(1.0), 0.25 * (1.0 - smoothstep(0.0, 0.5, r)));
    fragColor = vec4(color * alpha, alpha);
}
