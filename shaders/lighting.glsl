// Shared by the shaders that light things (included by ShaderProgram::Load): the key light
// fixed in the world, the sky, the dye's shadow from the light volume, the spheres' soft
// shadows and the depth fog. World space, metres; radiance is linear RGB.
uniform vec3 uToLight;      // unit vector towards the key light
uniform vec3 uKeyRadiance;  // key light
uniform vec3 uSkyRadiance;  // ambient light from the sky (above)
// Light volume over the dye's grid: rgb = sqrt(transmittance to the key light), a = sqrt(sky
// visibility). Outside the grid the light passes freely.
uniform sampler3D uLightVolume;
uniform int uHasVolume;
uniform vec3 uGridMin;
uniform vec3 uGridMax;
uniform int uShadowSphereCount;
uniform vec4 uShadowSpheres[16];  // centre xyz, radius w
uniform float uFog;               // 1/m beyond uFogStart; 0: no fog
uniform float uFogStart;          // m from the eye
uniform vec3 uBackdropTop;        // backdrop radiance at the top and bottom of the frame
uniform vec3 uBackdropBottom;
uniform float uViewportHeight;    // pixels of the target drawn into

const float kPenumbra = 0.04;     // sphere shadows widen by this many m per m from the sphere

// Entry and exit distances of the line origin + t·dir through the box (entry > exit: a miss).
vec2 RayBox(vec3 origin, vec3 dir, vec3 lo, vec3 hi) {
    vec3 inv = 1.0 / (dir + vec3(equal(dir, vec3(0.0))) * 1e-12);
    vec3 t0 = (lo - origin) * inv;
    vec3 t1 = (hi - origin) * inv;
    vec3 near = min(t0, t1);
    vec3 far = max(t0, t1);
    return vec2(max(max(near.x, near.y), near.z), min(min(far.x, far.y), far.z));
}

// The light volume where the ray from p towards `dir` enters the grid (at p when inside).
vec4 LightVolumeToward(vec3 p, vec3 dir) {
    if (uHasVolume == 0) return vec4(1.0);
    vec2 t = RayBox(p, dir, uGridMin, uGridMax);
    float start = max(t.x, 0.0);
    if (t.y <= start) return vec4(1.0);
    vec3 q = p + dir * start;
    vec4 v = texture(uLightVolume, (q - uGridMin) / (uGridMax - uGridMin));
    return v * v;
}

vec3 DyeTransmittance(vec3 p) { return LightVolumeToward(p, uToLight).rgb; }
float SkyVisibility(vec3 p) { return LightVolumeToward(p, vec3(0.0, 0.0, 1.0)).a; }

// Share of the key light that the spheres let reach p, with soft edges.
float SphereShadow(vec3 p) {
    float visible = 1.0;
    for (int i = 0; i < uShadowSphereCount; ++i) {
        vec3 c = uShadowSpheres[i].xyz - p;
        float along = dot(c, uToLight);
        if (along <= 0.0) continue;  // behind p as seen from the light: no shadow
        float miss = length(c - along * uToLight);
        float r = uShadowSpheres[i].w;
        float w = kPenumbra * along + 0.002;
        visible *= smoothstep(r - w, r + w, miss);
    }
    return visible;
}

// Share of the sky a surface at p with normal n sees past the spheres (Quilez's analytic
// sphere occlusion: cos θ · r²/d² each).
float SphereSkyOcclusion(vec3 p, vec3 n) {
    float visible = 1.0;
    for (int i = 0; i < uShadowSphereCount; ++i) {
        vec3 c = uShadowSpheres[i].xyz - p;
        float d2 = dot(c, c);
        float r = uShadowSpheres[i].w;
        if (d2 <= r * r) continue;  // p on or in this sphere: its own shading says it
        visible *= 1.0 - clamp(dot(n, c) * inversesqrt(d2) * r * r / d2, 0.0, 1.0);
    }
    return visible;
}

// The backdrop's radiance at height y01 of the frame (0 bottom, 1 top).
vec3 Backdrop(float y01) {
    return mix(uBackdropBottom, uBackdropTop, smoothstep(0.0, 1.0, y01));
}

// Share of what lies `distance` m from the eye that the fog lets through.
float FogClear(float distance) {
    return exp(-uFog * max(distance - uFogStart, 0.0));
}

// Radiance seen through the fog from `distance` m, towards the backdrop at height y01 of the
// frame (0 bottom, 1 top).
vec3 Fogged(vec3 radiance, float distance, float y01) {
    return mix(Backdrop(y01), radiance, FogClear(distance));
}
