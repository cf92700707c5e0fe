#version 430 core
// One Heun step of the dye tracers on the GPU (render/gpu_tracers.h): the CPU
// passes' scheme (docs/METHOD.md §5, Simulation::PredictTracers and
// CorrectTracers) on the same nested velocity grids,
//   u0 = grid0(x) + U,  p = x + dt·u0,  u = ½((u0 + grid1(p)) + U),  x ← x + dt·u,
// with the same operations in the same order as NestedGridSampler::Cell and
// GridSampler::SampleCell; then, as Simulation::CollideTracers, a tracer
// inside a rigid sphere goes back onto its surface (spheres in order). `precise` forbids fusing a multiply and an add, so
// where the GPU rounds float arithmetic as IEEE 754 does, a tracer gets the
// CPU's bits. The values are read from buffers, not filtered textures: most
// GPUs' trilinear filtering keeps only 8 bits of the fractions.
//
// Besides moving the tracers, each workgroup folds its tracers' bounds, the
// largest |u|² and the count of non-finite ones into `stats` (in registers
// over an invocation's tracers, then atomics on shared memory, then one atomic
// per workgroup and value), and, when
// uMarkCells is set, sets the bit of each new position's cell of grid 1 in
// `cells` (what the CPU needs to know to evaluate the next grid only where
// tracers are).
layout(local_size_x = 128) in;

layout(std430, binding = 0) buffer Positions { float position[]; };  // x, y, z per tracer
layout(std430, binding = 1) readonly buffer Values0 { vec4 values0[]; };
layout(std430, binding = 2) readonly buffer Values1 { vec4 values1[]; };
// [0..2] smallest x, y, z and [3..5] largest, as order-preserving ints; [6] the
// largest |u|² (float bits); [7] tracers whose u or new position is not finite.
layout(std430, binding = 3) buffer Stats { int stats[8]; };
layout(std430, binding = 4) buffer Cells { uint cells[]; };

uniform uint uCount;
uniform uint uPerInvocation;  // tracers per invocation
uniform float uDt;
uniform vec3 uFreeStream;
uniform bool uMarkCells;
// Rigid spheres at the step's end: centre (m) and radius (m) in w.
const int kMaxSpheres = 64;
uniform int uSphereCount;
uniform vec4 uSpheres[kMaxSpheres];
// The two nested grids' constants, as NestedGridSampler holds them.
uniform vec3 uCenter[2];
uniform vec3 uInverse[2];      // 1 / level-0 cell, 1/m
uniform vec3 uInverseHalf[2];  // 1 / level-0 half width, 1/m
uniform vec3 uHalf[2];         // (points − 1) / 2
uniform vec3 uTop[2];          // points − 1
uniform ivec3 uLastCell[2];    // points − 2
uniform int uLastLevel[2];
uniform uint uLevelPoints[2];
uniform uint uStrideY[2];
uniform uint uStrideZ[2];

shared int sharedStats[8];

// Flat index of the lower corner of x's cell in grid g and the fractions f.
uint Cell(int g, vec3 x, out vec3 f) {
    precise vec3 d = x - uCenter[g];
    precise vec3 ad = abs(d) * uInverseHalf[g];
    float q = ad.x > ad.y ? ad.x : ad.y;
    q = q > ad.z ? q : ad.z;
    q = q > 0.0 ? q : 0.0;
    // ⌈log₂ q⌉ from the float's bits, as NestedGridSampler::LevelOf.
    int level = ((floatBitsToInt(q) - 1) >> 23) - 126;
    level = clamp(level, 0, uLastLevel[g]);
    float scale = intBitsToFloat((127 - level) << 23);
    precise vec3 inverse = uInverse[g] * scale;
    precise vec3 u = d * inverse + uHalf[g];
    u = mix(vec3(0.0), u, greaterThan(u, vec3(0.0)));  // NaN goes to 0
    u = mix(uTop[g], u, lessThan(u, uTop[g]));
    ivec3 c = min(ivec3(u), uLastCell[g]);
    f = u - vec3(c);
    return uint(level) * uLevelPoints[g] + uint(c.x) + uint(c.y) * uStrideY[g] + uint(c.z) * uStrideZ[g];
}

#define SAMPLE_CELL(NAME, VALUES)                                             \
    vec3 NAME(int g, uint o, vec3 f) {                                        \
        uint sy = uStrideY[g], sz = uStrideZ[g];                              \
        precise vec3 v000 = VALUES[o].xyz, v100 = VALUES[o + 1u].xyz;         \
        precise vec3 v010 = VALUES[o + sy].xyz, v110 = VALUES[o + sy + 1u].xyz; \
        precise vec3 v001 = VALUES[o + sz].xyz, v101 = VALUES[o + sz + 1u].xyz; \
        precise vec3 v011 = VALUES[o + sz + sy].xyz;                          \
        precise vec3 v111 = VALUES[o + sz + sy + 1u].xyz;                     \
        precise vec3 c00 = v000 + f.x * (v100 - v000);                        \
        precise vec3 c10 = v010 + f.x * (v110 - v010);                        \
        precise vec3 c01 = v001 + f.x * (v101 - v001);                        \
        precise vec3 c11 = v011 + f.x * (v111 - v011);                        \
        precise vec3 c0 = c00 + f.y * (c10 - c00);                            \
        precise vec3 c1 = c01 + f.y * (c11 - c01);                            \
        precise vec3 c = c0 + f.z * (c1 - c0);                                \
        return c;                                                             \
    }
SAMPLE_CELL(Sample0, values0)
SAMPLE_CELL(Sample1, values1)

// Float to an int whose order is the float's (for atomicMin / atomicMax).
int OrderedKey(float value) {
    int bits = floatBitsToInt(value);
    return bits >= 0 ? bits : bits ^ 0x7fffffff;
}

bool Finite(vec3 v) {
    return !any(isnan(v)) && !any(isinf(v));
}

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        for (int k = 0; k < 3; ++k) sharedStats[k] = 0x7fffffff;
        for (int k = 3; k < 6; ++k) sharedStats[k] = int(0x80000000);
        sharedStats[6] = 0;
        sharedStats[7] = 0;
    }
    barrier();

    // Each invocation moves uPerInvocation tracers, a whole dispatch's width
    // apart, and folds their statistics in registers first.
    const float kHuge = 3.402823e38;
    vec3 lo = vec3(kHuge), hi = vec3(-kHuge);
    float norm2 = 0.0;
    int bad = 0;
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint k = 0u; k < uPerInvocation; ++k) {
        uint i = gl_GlobalInvocationID.x + k * stride;
        if (i >= uCount) break;
        vec3 x = vec3(position[3u * i], position[3u * i + 1u], position[3u * i + 2u]);
        vec3 f;
        uint o = Cell(0, x, f);
        precise vec3 u0 = Sample0(0, o, f) + uFreeStream;
        precise vec3 step0 = uDt * u0;
        precise vec3 p = x + step0;
        o = Cell(1, p, f);
        precise vec3 sum = (u0 + Sample1(1, o, f)) + uFreeStream;
        precise vec3 u = 0.5 * sum;
        precise vec3 step1 = uDt * u;
        precise vec3 xn = x + step1;
        for (int b = 0; b < uSphereCount; ++b) {
            vec3 c = uSpheres[b].xyz;
            float radius = uSpheres[b].w;
            precise vec3 d = xn - c;
            precise float dist2 = (d.x * d.x + d.y * d.y) + d.z * d.z;
            precise float radius2 = radius * radius;
            if (dist2 >= radius2) continue;
            float dist = sqrt(dist2);
            vec3 n = dist > 0.0 ? d / dist : vec3(0.0, 0.0, 1.0);
            precise float lift = radius * 1.0001;
            precise vec3 onto = lift * n;
            xn = c + onto;
        }
        position[3u * i] = xn.x;
        position[3u * i + 1u] = xn.y;
        position[3u * i + 2u] = xn.z;

        if (Finite(u)) norm2 = max(norm2, dot(u, u));
        if (!Finite(u) || !Finite(xn)) {
            ++bad;
        } else {
            lo = min(lo, xn);
            hi = max(hi, xn);
            if (uMarkCells) {
                uint cell = Cell(1, xn, f);
                atomicOr(cells[cell >> 5u], 1u << (cell & 31u));
            }
        }
    }
    if (lo.x <= hi.x) {
        atomicMin(sharedStats[0], OrderedKey(lo.x));
        atomicMin(sharedStats[1], OrderedKey(lo.y));
        atomicMin(sharedStats[2], OrderedKey(lo.z));
        atomicMax(sharedStats[3], OrderedKey(hi.x));
        atomicMax(sharedStats[4], OrderedKey(hi.y));
        atomicMax(sharedStats[5], OrderedKey(hi.z));
    }
    atomicMax(sharedStats[6], floatBitsToInt(norm2));
    if (bad > 0) atomicAdd(sharedStats[7], bad);
    barrier();

    if (gl_LocalInvocationIndex == 0u) {
        for (int k = 0; k < 3; ++k) atomicMin(stats[k], sharedStats[k]);
        for (int k = 3; k < 7; ++k) atomicMax(stats[k], sharedStats[k]);
        atomicAdd(stats[7], sharedStats[7]);
    }
}
