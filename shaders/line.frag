#version 330 core
uniform vec4 uColor;  // straight alpha; premultiplied here to match the blend function
out vec4 fragColor;

void main() { fragColor = vec4(uColor.rgb * uColor.a, uColor.a); }
