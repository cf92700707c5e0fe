#include "sim/tracers/tracer_simd.h"

#include <atomic>
#include <cmath>
#include <limits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define VORTON_TRACER_AVX2 1
#include <immintrin.h>
#endif

namespace vorton {

#if VORTON_TRACER_AVX2

namespace {

#define VORTON_AVX2 __attribute__((target("avx2")))

/// GridSampler::Cell on eight points: lower-corner indices and fractions.
struct Cells8 {
    __m256i o;
    __m256 fx, fy, fz;
};

VORTON_AVX2 inline __m256 ClampAxis(__m256 u, float top) {
    u = _mm256_max_ps(u, _mm256_setzero_ps());  // NaN and −0 go to +0, as `u > 0 ? u : 0`
    return _mm256_min_ps(u, _mm256_set1_ps(top));
}

VORTON_AVX2 inline __m256 Abs(__m256 v) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v); }

/// NestedGridSampler::Cell on eight points, lane by lane the same operations.
VORTON_AVX2 inline Cells8 Cell8(const NestedGridSampler& s, __m256 x, __m256 y, __m256 z) {
    const NestedGridSampler::Float4& center = s.Center();
    const NestedGridSampler::Float4& inverse = s.Inverse();
    const NestedGridSampler::Float4& inverseHalf = s.InverseHalf();
    const NestedGridSampler::Float4& half = s.Half();
    const NestedGridSampler::Float4& top = s.TopF();
    const NestedGridSampler::Int4& last = s.LastCell();
    const __m256 dx = _mm256_sub_ps(x, _mm256_set1_ps(center[0]));
    const __m256 dy = _mm256_sub_ps(y, _mm256_set1_ps(center[1]));
    const __m256 dz = _mm256_sub_ps(z, _mm256_set1_ps(center[2]));
    // The level: ⌈log₂ q⌉ of q = max |d|/half width, from the float's bits.
    __m256 q = _mm256_max_ps(_mm256_mul_ps(Abs(dx), _mm256_set1_ps(inverseHalf[0])),
                             _mm256_mul_ps(Abs(dy), _mm256_set1_ps(inverseHalf[1])));
    q = _mm256_max_ps(q, _mm256_mul_ps(Abs(dz), _mm256_set1_ps(inverseHalf[2])));
    q = _mm256_max_ps(q, _mm256_setzero_ps());
    __m256i level = _mm256_sub_epi32(_mm256_srai_epi32(_mm256_sub_epi32(_mm256_castps_si256(q), _mm256_set1_epi32(1)), 23),
                                     _mm256_set1_epi32(126));
    level = _mm256_max_epi32(level, _mm256_setzero_si256());
    level = _mm256_min_epi32(level, _mm256_set1_epi32(s.LastLevel()));
    const __m256 scale = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_sub_epi32(_mm256_set1_epi32(127), level), 23));
    auto axis = [&](__m256 d, int a) VORTON_AVX2 {
        return ClampAxis(_mm256_add_ps(_mm256_mul_ps(d, _mm256_mul_ps(_mm256_set1_ps(inverse[a]), scale)),
                                       _mm256_set1_ps(half[a])),
                         top[a]);
    };
    const __m256 ux = axis(dx, 0), uy = axis(dy, 1), uz = axis(dz, 2);
    const __m256i cx = _mm256_min_epi32(_mm256_cvttps_epi32(ux), _mm256_set1_epi32(last[0]));
    const __m256i cy = _mm256_min_epi32(_mm256_cvttps_epi32(uy), _mm256_set1_epi32(last[1]));
    const __m256i cz = _mm256_min_epi32(_mm256_cvttps_epi32(uz), _mm256_set1_epi32(last[2]));
    Cells8 c;
    c.fx = _mm256_sub_ps(ux, _mm256_cvtepi32_ps(cx));
    c.fy = _mm256_sub_ps(uy, _mm256_cvtepi32_ps(cy));
    c.fz = _mm256_sub_ps(uz, _mm256_cvtepi32_ps(cz));
    c.o = _mm256_add_epi32(_mm256_add_epi32(cx, _mm256_mullo_epi32(cy, _mm256_set1_epi32(int(s.StrideY())))),
                           _mm256_mullo_epi32(cz, _mm256_set1_epi32(int(s.StrideZ()))));
    c.o = _mm256_add_epi32(c.o, _mm256_mullo_epi32(level, _mm256_set1_epi32(int(s.LevelPoints()))));
    return c;
}

/// cells[o_l] = 1 for the eight lanes of o. Many tracers share a cell, and
/// where the tracers' order is not spatial (an emitter's recycled tracers) the
/// threads' chunks mark the same cache lines: unconditional stores bounced
/// those lines between the cores (flow_past_ball's predictor at 4 times its
/// corrector's cost on 2 vCPUs). So the eight bytes are read first and written
/// only when one of them is not set yet: one branch per eight lanes, not one
/// per lane (that cost 0.1–0.2 ms per 150k tracers where nothing bounced).
VORTON_AVX2 inline void MarkCells8(std::uint8_t* cells, __m256i o) {
    const __m128i lo = _mm256_castsi256_si128(o), hi = _mm256_extracti128_si256(o, 1);
    const int index[8] = {_mm_cvtsi128_si32(lo), _mm_extract_epi32(lo, 1), _mm_extract_epi32(lo, 2),
                          _mm_extract_epi32(lo, 3), _mm_cvtsi128_si32(hi), _mm_extract_epi32(hi, 1),
                          _mm_extract_epi32(hi, 2), _mm_extract_epi32(hi, 3)};
    std::uint8_t all = 1;
    for (int l = 0; l < 8; ++l) all &= std::atomic_ref<std::uint8_t>(cells[index[l]]).load(std::memory_order_relaxed);
    if (all) return;
    for (int l = 0; l < 8; ++l) std::atomic_ref<std::uint8_t>(cells[index[l]]).store(1, std::memory_order_relaxed);
}

VORTON_AVX2 inline __m256 Lerp(__m256 a, __m256 b, __m256 f) { return _mm256_add_ps(a, _mm256_mul_ps(f, _mm256_sub_ps(b, a))); }

struct Vec8 {
    __m256 x, y, z;
};

/// Eight packed vec3 (24 floats) to x, y, z registers: two 128-bit halves per
/// register and three shuffles (the AoS-to-SoA transpose of Intel's AVX notes).
VORTON_AVX2 inline Vec8 Load8(const glm::vec3* p) {
    const float* a = &p->x;
    __m256 m03 = _mm256_castps128_ps256(_mm_loadu_ps(a));
    __m256 m14 = _mm256_castps128_ps256(_mm_loadu_ps(a + 4));
    __m256 m25 = _mm256_castps128_ps256(_mm_loadu_ps(a + 8));
    m03 = _mm256_insertf128_ps(m03, _mm_loadu_ps(a + 12), 1);
    m14 = _mm256_insertf128_ps(m14, _mm_loadu_ps(a + 16), 1);
    m25 = _mm256_insertf128_ps(m25, _mm_loadu_ps(a + 20), 1);
    const __m256 xy = _mm256_shuffle_ps(m14, m25, _MM_SHUFFLE(2, 1, 3, 2));
    const __m256 yz = _mm256_shuffle_ps(m03, m14, _MM_SHUFFLE(1, 0, 2, 1));
    return {_mm256_shuffle_ps(m03, xy, _MM_SHUFFLE(2, 0, 3, 0)), _mm256_shuffle_ps(yz, xy, _MM_SHUFFLE(3, 1, 2, 0)),
            _mm256_shuffle_ps(yz, m25, _MM_SHUFFLE(3, 0, 3, 1))};
}

/// The inverse of Load8.
VORTON_AVX2 inline void Store8(glm::vec3* p, const Vec8& v) {
    float* a = &p->x;
    const __m256 rxy = _mm256_shuffle_ps(v.x, v.y, _MM_SHUFFLE(2, 0, 2, 0));
    const __m256 ryz = _mm256_shuffle_ps(v.y, v.z, _MM_SHUFFLE(3, 1, 3, 1));
    const __m256 rzx = _mm256_shuffle_ps(v.z, v.x, _MM_SHUFFLE(3, 1, 2, 0));
    const __m256 r03 = _mm256_shuffle_ps(rxy, rzx, _MM_SHUFFLE(2, 0, 2, 0));
    const __m256 r14 = _mm256_shuffle_ps(ryz, rxy, _MM_SHUFFLE(3, 1, 2, 0));
    const __m256 r25 = _mm256_shuffle_ps(rzx, ryz, _MM_SHUFFLE(3, 1, 3, 1));
    _mm_storeu_ps(a, _mm256_castps256_ps128(r03));
    _mm_storeu_ps(a + 4, _mm256_castps256_ps128(r14));
    _mm_storeu_ps(a + 8, _mm256_castps256_ps128(r25));
    _mm_storeu_ps(a + 12, _mm256_extractf128_ps(r03, 1));
    _mm_storeu_ps(a + 16, _mm256_extractf128_ps(r14, 1));
    _mm_storeu_ps(a + 20, _mm256_extractf128_ps(r25, 1));
}

/// The x-neighbour pair [v(o + off) | v(o + off + 1)] of eight cells (32
/// contiguous bytes each) turned into x, y, z of both corners, eight lanes
/// each: an 8×8 transpose without its w rows. Plain loads and shuffles cost a
/// third of the 24 gathers of the same corners on the machines we measured.
struct CornerPair8 {
    __m256 x0, y0, z0, x1, y1, z1;
};

VORTON_AVX2 inline CornerPair8 LoadCornerPair8(const float* g, const int* o4, int off4) {
    __m256 r[8];
    for (int l = 0; l < 8; ++l) r[l] = _mm256_loadu_ps(g + o4[l] + off4);
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    // [lanes 0–3 of corner 0 | lanes 0–3 of corner 1] for x, y, z; then lanes 4–7.
    const __m256 x03 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 y03 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 z03 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 x47 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 y47 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 z47 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
    return {_mm256_permute2f128_ps(x03, x47, 0x20), _mm256_permute2f128_ps(y03, y47, 0x20),
            _mm256_permute2f128_ps(z03, z47, 0x20), _mm256_permute2f128_ps(x03, x47, 0x31),
            _mm256_permute2f128_ps(y03, y47, 0x31), _mm256_permute2f128_ps(z03, z47, 0x31)};
}

/// GridSampler::SampleCell on eight cells, the same lerps in the same order
/// on each component.
VORTON_AVX2 inline Vec8 Sample8(const NestedGridSampler& s, const GridSampler::Float4* grid, const Cells8& c) {
    const float* g = reinterpret_cast<const float*>(grid);
    alignas(32) int o4[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(o4), _mm256_slli_epi32(c.o, 2));
    const int sy4 = int(s.StrideY()) * 4, sz4 = int(s.StrideZ()) * 4;
    const CornerPair8 p00 = LoadCornerPair8(g, o4, 0), p10 = LoadCornerPair8(g, o4, sy4);
    const CornerPair8 p01 = LoadCornerPair8(g, o4, sz4), p11 = LoadCornerPair8(g, o4, sz4 + sy4);
    auto component = [&](__m256 CornerPair8::*a0, __m256 CornerPair8::*a1) VORTON_AVX2 {
        const __m256 c00 = Lerp(p00.*a0, p00.*a1, c.fx);
        const __m256 c10 = Lerp(p10.*a0, p10.*a1, c.fx);
        const __m256 c01 = Lerp(p01.*a0, p01.*a1, c.fx);
        const __m256 c11 = Lerp(p11.*a0, p11.*a1, c.fx);
        const __m256 c0 = Lerp(c00, c10, c.fy);
        const __m256 c1 = Lerp(c01, c11, c.fy);
        return Lerp(c0, c1, c.fz);
    };
    return {component(&CornerPair8::x0, &CornerPair8::x1), component(&CornerPair8::y0, &CornerPair8::y1),
            component(&CornerPair8::z0, &CornerPair8::z1)};
}

VORTON_AVX2 inline __m256 Madd(__m256 a, float dt, __m256 b) { return _mm256_add_ps(a, _mm256_mul_ps(_mm256_set1_ps(dt), b)); }

VORTON_AVX2 std::size_t Predict(const NestedGridSampler& sample0, const GridSampler::Float4* grid0, const NestedGridSampler& sample1,
                               std::uint8_t* cells, glm::vec3 freeStream, float dt, const glm::vec3* position,
                               glm::vec3* velocity, std::size_t begin, std::size_t end) {
    std::size_t i = begin;
    for (; i + 8 <= end; i += 8) {
        const Vec8 x = Load8(position + i);
        const Vec8 s = Sample8(sample0, grid0, Cell8(sample0, x.x, x.y, x.z));
        const Vec8 u0{_mm256_add_ps(s.x, _mm256_set1_ps(freeStream.x)), _mm256_add_ps(s.y, _mm256_set1_ps(freeStream.y)),
                      _mm256_add_ps(s.z, _mm256_set1_ps(freeStream.z))};
        Store8(velocity + i, u0);
        if (!cells) continue;
        const Cells8 c1 = Cell8(sample1, Madd(x.x, dt, u0.x), Madd(x.y, dt, u0.y), Madd(x.z, dt, u0.z));
        MarkCells8(cells, c1.o);
    }
    return i;
}

VORTON_AVX2 std::size_t Correct(const NestedGridSampler& sample1, const GridSampler::Float4* grid1, glm::vec3 freeStream, float dt,
                               glm::vec3* position, glm::vec3* velocity, std::size_t begin, std::size_t end,
                               TracerPassScan* scan, const std::uint8_t* needed, std::uint8_t* missing,
                               bool* anyMissing) {
    std::size_t i = begin;
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256 big = _mm256_set1_ps(std::numeric_limits<float>::max());
    const __m256 small = _mm256_set1_ps(-std::numeric_limits<float>::max());
    __m256 maxNorm2 = _mm256_setzero_ps();
    __m256 boxMinX = big, boxMinY = big, boxMinZ = big, boxMaxX = small, boxMaxY = small, boxMaxZ = small;
    for (; i + 8 <= end; i += 8) {
        const Vec8 u0 = Load8(velocity + i);
        const Vec8 x = Load8(position + i);
        const Cells8 c = Cell8(sample1, Madd(x.x, dt, u0.x), Madd(x.y, dt, u0.y), Madd(x.z, dt, u0.z));
        const Vec8 s = Sample8(sample1, grid1, c);
        const Vec8 u{_mm256_mul_ps(half, _mm256_add_ps(_mm256_add_ps(u0.x, s.x), _mm256_set1_ps(freeStream.x))),
                     _mm256_mul_ps(half, _mm256_add_ps(_mm256_add_ps(u0.y, s.y), _mm256_set1_ps(freeStream.y))),
                     _mm256_mul_ps(half, _mm256_add_ps(_mm256_add_ps(u0.z, s.z), _mm256_set1_ps(freeStream.z)))};
        const Vec8 xn{Madd(x.x, dt, u.x), Madd(x.y, dt, u.y), Madd(x.z, dt, u.z)};
        Store8(velocity + i, u);
        Store8(position + i, xn);
        // The scalar scan on all lanes at once (max, min and counts are exact in any order).
        const __m256 zero = _mm256_setzero_ps();
        auto finite = [&](__m256 v) VORTON_AVX2 { return _mm256_cmp_ps(_mm256_sub_ps(v, v), zero, _CMP_EQ_OQ); };
        const __m256 finiteU = _mm256_and_ps(_mm256_and_ps(finite(u.x), finite(u.y)), finite(u.z));
        const __m256 finiteX = _mm256_and_ps(_mm256_and_ps(finite(xn.x), finite(xn.y)), finite(xn.z));
        const __m256 norm2 = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(u.x, u.x), _mm256_mul_ps(u.y, u.y)),
                                           _mm256_mul_ps(u.z, u.z));
        maxNorm2 = _mm256_max_ps(maxNorm2, _mm256_blendv_ps(zero, norm2, finiteU));
        const int finiteUBits = _mm256_movemask_ps(finiteU), finiteXBits = _mm256_movemask_ps(finiteX);
        scan->nonFinite += std::size_t(8 - __builtin_popcount(finiteUBits)) + std::size_t(8 - __builtin_popcount(finiteXBits));
        boxMinX = _mm256_min_ps(boxMinX, _mm256_blendv_ps(big, xn.x, finiteX));
        boxMinY = _mm256_min_ps(boxMinY, _mm256_blendv_ps(big, xn.y, finiteX));
        boxMinZ = _mm256_min_ps(boxMinZ, _mm256_blendv_ps(big, xn.z, finiteX));
        boxMaxX = _mm256_max_ps(boxMaxX, _mm256_blendv_ps(small, xn.x, finiteX));
        boxMaxY = _mm256_max_ps(boxMaxY, _mm256_blendv_ps(small, xn.y, finiteX));
        boxMaxZ = _mm256_max_ps(boxMaxZ, _mm256_blendv_ps(small, xn.z, finiteX));
        if (!needed) continue;
        const Cells8 c1 = Cell8(sample1, xn.x, xn.y, xn.z);
        int moved = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(c1.o, c.o))) ^ 0xff;
        moved &= finiteXBits;
        if (!moved) continue;
        alignas(32) int o1[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(o1), c1.o);
        for (int l = 0; l < 8; ++l) {
            if (!(moved >> l & 1)) continue;
            for (int k = 0; k < 8; ++k) {
                const std::size_t idx = std::size_t(o1[l]) + sample1.CornerOffset(k);
                if (needed[idx]) continue;
                MarkByte(missing[idx]);
                *anyMissing = true;
            }
        }
    }
    alignas(32) float m[8], lx[8], ly[8], lz[8], hx[8], hy[8], hz[8];
    _mm256_store_ps(m, maxNorm2);
    _mm256_store_ps(lx, boxMinX);
    _mm256_store_ps(ly, boxMinY);
    _mm256_store_ps(lz, boxMinZ);
    _mm256_store_ps(hx, boxMaxX);
    _mm256_store_ps(hy, boxMaxY);
    _mm256_store_ps(hz, boxMaxZ);
    for (int l = 0; l < 8; ++l) {
        scan->maxNorm2 = std::max(scan->maxNorm2, m[l]);
        Aabb lane;
        lane.min = glm::vec3(lx[l], ly[l], lz[l]);
        lane.max = glm::vec3(hx[l], hy[l], hz[l]);
        scan->box.Grow(lane);
    }
    return i;
}

VORTON_AVX2 std::size_t ScanMoved(const NestedGridSampler& sample1, const std::uint8_t* cells, const std::uint8_t* needed,
                                 std::uint8_t* missing, const glm::vec3* position, std::size_t begin, std::size_t end,
                                 Aabb* box, bool* anyMissing) {
    std::size_t i = begin;
    const __m256 big = _mm256_set1_ps(std::numeric_limits<float>::max());
    const __m256 small = _mm256_set1_ps(-std::numeric_limits<float>::max());
    const __m256 zero = _mm256_setzero_ps();
    __m256 boxMinX = big, boxMinY = big, boxMinZ = big, boxMaxX = small, boxMaxY = small, boxMaxZ = small;
    for (; i + 8 <= end; i += 8) {
        const Vec8 x = Load8(position + i);
        auto finite = [&](__m256 v) VORTON_AVX2 { return _mm256_cmp_ps(_mm256_sub_ps(v, v), zero, _CMP_EQ_OQ); };
        const __m256 finiteX = _mm256_and_ps(_mm256_and_ps(finite(x.x), finite(x.y)), finite(x.z));
        boxMinX = _mm256_min_ps(boxMinX, _mm256_blendv_ps(big, x.x, finiteX));
        boxMinY = _mm256_min_ps(boxMinY, _mm256_blendv_ps(big, x.y, finiteX));
        boxMinZ = _mm256_min_ps(boxMinZ, _mm256_blendv_ps(big, x.z, finiteX));
        boxMaxX = _mm256_max_ps(boxMaxX, _mm256_blendv_ps(small, x.x, finiteX));
        boxMaxY = _mm256_max_ps(boxMaxY, _mm256_blendv_ps(small, x.y, finiteX));
        boxMaxZ = _mm256_max_ps(boxMaxZ, _mm256_blendv_ps(small, x.z, finiteX));
        alignas(32) int o[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(o), Cell8(sample1, x.x, x.y, x.z).o);
        for (int l = 0; l < 8; ++l) {
            if (cells[o[l]]) continue;  // a predicted tracer's cell: every corner is needed
            for (int k = 0; k < 8; ++k) {
                const std::size_t idx = std::size_t(o[l]) + sample1.CornerOffset(k);
                if (needed[idx]) continue;
                MarkByte(missing[idx]);
                *anyMissing = true;
            }
        }
    }
    alignas(32) float lx[8], ly[8], lz[8], hx[8], hy[8], hz[8];
    _mm256_store_ps(lx, boxMinX);
    _mm256_store_ps(ly, boxMinY);
    _mm256_store_ps(lz, boxMinZ);
    _mm256_store_ps(hx, boxMaxX);
    _mm256_store_ps(hy, boxMaxY);
    _mm256_store_ps(hz, boxMaxZ);
    for (int l = 0; l < 8; ++l) {
        Aabb lane;
        lane.min = glm::vec3(lx[l], ly[l], lz[l]);
        lane.max = glm::vec3(hx[l], hy[l], hz[l]);
        box->Grow(lane);
    }
    return i;
}

}  // namespace

bool TracerSimdAvailable() {
    static const bool available = __builtin_cpu_supports("avx2");
    return available;
}

std::size_t PredictTracersSimd(const NestedGridSampler& sample0, const GridSampler::Float4* grid0,
                               const NestedGridSampler& sample1, std::uint8_t* cells, glm::vec3 freeStream, float dt,
                               const glm::vec3* position, glm::vec3* velocity, std::size_t begin, std::size_t end) {
    if (!TracerSimdAvailable()) return begin;
    return Predict(sample0, grid0, sample1, cells, freeStream, dt, position, velocity, begin, end);
}

std::size_t CorrectTracersSimd(const NestedGridSampler& sample1, const GridSampler::Float4* grid1, glm::vec3 freeStream,
                               float dt, glm::vec3* position, glm::vec3* velocity, std::size_t begin,
                               std::size_t end, TracerPassScan* scan, const std::uint8_t* needed,
                               std::uint8_t* missing, bool* anyMissing) {
    if (!TracerSimdAvailable()) return begin;
    return Correct(sample1, grid1, freeStream, dt, position, velocity, begin, end, scan, needed, missing, anyMissing);
}

std::size_t ScanMovedTracersSimd(const NestedGridSampler& sample1, const std::uint8_t* cells,
                                 const std::uint8_t* needed, std::uint8_t* missing, const glm::vec3* position,
                                 std::size_t begin, std::size_t end, Aabb* box, bool* anyMissing) {
    if (!TracerSimdAvailable()) return begin;
    return ScanMoved(sample1, cells, needed, missing, position, begin, end, box, anyMissing);
}

#else  // no AVX2 path on this target: everything goes through the scalar loops

bool TracerSimdAvailable() { return false; }

std::size_t PredictTracersSimd(const NestedGridSampler&, const GridSampler::Float4*, const NestedGridSampler&, std::uint8_t*,
                               glm::vec3, float, const glm::vec3*, glm::vec3*, std::size_t begin, std::size_t) {
    return begin;
}

std::size_t CorrectTracersSimd(const NestedGridSampler&, const GridSampler::Float4*, glm::vec3, float, glm::vec3*,
                               glm::vec3*, std::size_t begin, std::size_t, TracerPassScan*, const std::uint8_t*,
                               std::uint8_t*, bool*) {
    return begin;
}

std::size_t ScanMovedTracersSimd(const NestedGridSampler&, const std::uint8_t*, const std::uint8_t*, std::uint8_t*,
                                 const glm::vec3*, std::size_t begin, std::size_t, Aabb*, bool*) {
    return begin;
}

#endif

}  // namespace vorton
