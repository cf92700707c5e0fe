// The treecode's eight-lane kernels (tree_far_field.h): the velocity's and the
// stretching's Taylor series about eight clusters' centres at once, the
// leaves' direct sums eight sources at a time, and their AVX2 and baseline
// entry points.

#include "sim/solvers/tree_far_field.h"

#include <algorithm>
#include <cmath>

#include "sim/numerics/simd.h"
#include "sim/numerics/step_helpers.h"

namespace vorton::tree {

namespace {

// Eight-lane vectors pass only between the always-inlined helpers of this
// file: the ABI note about 32-byte vectors without AVX does not concern us.
#pragma GCC diagnostic ignored "-Wpsabi"

/// Moments of eight clusters, one lane each, rows in FarRecord's order.
struct FarBatch {
    alignas(32) float row[FarRecord::kFloats][kFarLanes];
    const float* operator[](int k) const { return row[k]; }
};

/// Eight records as eight lanes: 8×8 transposes of each block of eight
/// floats (unpack, shuffle, swap halves; only moves, so the same bits as
/// copying lane by lane).
[[gnu::always_inline]] inline void Transpose(const FarRecord* const* records, FarBatch* b) {
    static_assert(FarRecord::kFloats % 8 == 0);
    for (int block = 0; block < FarRecord::kFloats / 8; ++block) {
        Float8 r[8];
        for (int l = 0; l < 8; ++l) r[l] = Load8(records[l]->m + 8 * block);
        Float8 t[8], u[8];
        for (int p = 0; p < 4; ++p) {
            t[2 * p] = __builtin_shufflevector(r[2 * p], r[2 * p + 1], 0, 8, 1, 9, 4, 12, 5, 13);
            t[2 * p + 1] = __builtin_shufflevector(r[2 * p], r[2 * p + 1], 2, 10, 3, 11, 6, 14, 7, 15);
        }
        for (int h = 0; h < 2; ++h) {
            const Float8 *a = t + 4 * h, *c = t + 4 * h + 2;
            u[4 * h] = __builtin_shufflevector(a[0], c[0], 0, 1, 8, 9, 4, 5, 12, 13);
            u[4 * h + 1] = __builtin_shufflevector(a[0], c[0], 2, 3, 10, 11, 6, 7, 14, 15);
            u[4 * h + 2] = __builtin_shufflevector(a[1], c[1], 0, 1, 8, 9, 4, 5, 12, 13);
            u[4 * h + 3] = __builtin_shufflevector(a[1], c[1], 2, 3, 10, 11, 6, 7, 14, 15);
        }
        for (int j = 0; j < 4; ++j) {
            Store8(b->row[8 * block + j], __builtin_shufflevector(u[j], u[4 + j], 0, 1, 2, 3, 8, 9, 10, 11));
            Store8(b->row[8 * block + 4 + j], __builtin_shufflevector(u[j], u[4 + j], 4, 5, 6, 7, 12, 13, 14, 15));
        }
    }
}

/// What each lane's cluster induces at the target: velocity and stretching
/// (before the 1/4π), components x, y, z.
struct FarOut {
    alignas(32) float v[3][kFarLanes];
    alignas(32) float s[3][kFarLanes];
};

namespace detail {

struct V8 {
    Float8 x, y, z;
};

[[gnu::always_inline]] inline V8 operator+(V8 a, V8 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
[[gnu::always_inline]] inline V8 operator-(V8 a, V8 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
[[gnu::always_inline]] inline V8 operator*(V8 a, Float8 f) { return {a.x * f, a.y * f, a.z * f}; }
[[gnu::always_inline]] inline V8 operator*(V8 a, float f) { return {a.x * f, a.y * f, a.z * f}; }
[[gnu::always_inline]] inline Float8 Dot(V8 a, V8 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
[[gnu::always_inline]] inline V8 Cross(V8 a, V8 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }

}  // namespace detail

/// The far field of the clusters in `b` at x (ω: the target's vorticity, for
/// the stretching), as the series of the regularised kernel about each
/// cluster's centre c, r = x − c, q = |r|² + σ_c²:
///   velocity   monopole   A × r q^{-3/2}
///              dipole    −(Σα×d) q^{-3/2} + 3 (D r) × r q^{-5/2}
///              quadrupole −3 Σ(r·d)(α×d) q^{-5/2} − 3/2 (Σ|d|²α) × r q^{-5/2}
///                         + 15/2 (Σ(r·d)²α) × r q^{-7/2}
///   stretching (∇v)ᵀω, the same series of one source's G(r; b) = b q^{-3/2}
///              − 3 r (r·b) q^{-5/2} with b = ω × α, G − (d·∇)G + ½(d·∇)²G:
///              monopole   G(r; ω × A)
///              dipole     3 q^{-5/2} (B r + Bᵀr + r tr B) − 15 q^{-7/2} r (r·B r),
///                         B_ma = Σ b_m d_a
///              quadrupole −3/2 q^{-5/2} (t + 2u) + 15/2 q^{-7/2} (w + 2 P r + r (r·t)
///                         + 2 r (r·u)) − 105/2 q^{-9/2} r (r·w), with T_mac = Σ b_m d_a d_c,
///                         t_m = T_maa, u_a = T_cac, P_ac = r_m T_mac, w_m = r_a r_c T_mac.
/// With ρ = r × ω each stretching term is a product of ω or ρ with moments the
/// velocity already forms: B r = ω × D r, Bᵀr = Σ_i ρ_i D_i, tr B = ω·Σα×d,
/// t = ω × tr S, w = ω × (r·S r), P r = Σ_i ρ_i S_i r. Both errors fall as θ³
/// (treecode_test.cpp).
template <bool kStretch>
[[gnu::always_inline]] inline void FarFieldLanes(const FarBatch& b, glm::vec3 x, glm::vec3 omegaTarget, FarOut* out) {
    using detail::Cross;
    using detail::Dot;
    using detail::V8;
    constexpr int kC = FarRecord::kCenter, kA = FarRecord::kAlpha, kD = FarRecord::kDipole,
                  kS = FarRecord::kQuadrupole;
    const V8 r{x.x - Load8(b[kC]), x.y - Load8(b[kC + 1]), x.z - Load8(b[kC + 2])};
    const Float8 q = Dot(r, r) + Load8(b[FarRecord::kSigma2]);
    Float8 root;
    for (int l = 0; l < kFarLanes; ++l) root[l] = std::sqrt(q[l]);
    const Float8 inv3 = 1.0f / (q * root);
    const Float8 inv5 = inv3 / q;
    const Float8 inv7 = inv5 / q;
    const V8 A{Load8(b[kA]), Load8(b[kA + 1]), Load8(b[kA + 2])};
    const V8 D[3] = {{Load8(b[kD + 0]), Load8(b[kD + 1]), Load8(b[kD + 2])},
                     {Load8(b[kD + 3]), Load8(b[kD + 4]), Load8(b[kD + 5])},
                     {Load8(b[kD + 6]), Load8(b[kD + 7]), Load8(b[kD + 8])}};
    const V8 dCross{D[1].z - D[2].y, D[2].x - D[0].z, D[0].y - D[1].x};  // Σ α × d
    const V8 dR{Dot(D[0], r), Dot(D[1], r), Dot(D[2], r)};
    V8 sR[3];  // row i: S_i r
    Float8 trace[3], rSr[3];
    for (int i = 0; i < 3; ++i) {
        const Float8 s0 = Load8(b[kS + 6 * i]), s1 = Load8(b[kS + 6 * i + 1]), s2 = Load8(b[kS + 6 * i + 2]),
                     s3 = Load8(b[kS + 6 * i + 3]), s4 = Load8(b[kS + 6 * i + 4]), s5 = Load8(b[kS + 6 * i + 5]);
        sR[i] = V8{s0 * r.x + s1 * r.y + s2 * r.z, s1 * r.x + s3 * r.y + s4 * r.z, s2 * r.x + s4 * r.y + s5 * r.z};
        trace[i] = s0 + s3 + s5;
        rSr[i] = Dot(sR[i], r);
    }
    const V8 traceV{trace[0], trace[1], trace[2]}, rSrV{rSr[0], rSr[1], rSr[2]};
    const V8 w{sR[1].z - sR[2].y, sR[2].x - sR[0].z, sR[0].y - sR[1].x};  // Σ (r·d)(α×d)
    const V8 v = Cross(A, r) * inv3 - dCross * inv3 + Cross(dR, r) * (3.0f * inv5) - w * (3.0f * inv5) -
                 Cross(traceV, r) * (1.5f * inv5) + Cross(rSrV, r) * (7.5f * inv7);
    Store8(out->v[0], v.x);
    Store8(out->v[1], v.y);
    Store8(out->v[2], v.z);
    if constexpr (kStretch) {
        const Float8 inv9 = inv7 / q;
        const V8 omega{Float8{} + omegaTarget.x, Float8{} + omegaTarget.y, Float8{} + omegaTarget.z};
        const V8 rho = Cross(r, omega);
        const V8 oa = Cross(omega, A);
        const V8 bR = Cross(omega, dR);
        const V8 bTR = D[0] * rho.x + D[1] * rho.y + D[2] * rho.z;
        const Float8 traceB = Dot(omega, dCross);
        const V8 t = Cross(omega, traceV);
        const V8 wT = Cross(omega, rSrV);
        const V8 pR = sR[0] * rho.x + sR[1] * rho.y + sR[2] * rho.z;
        auto S = [&](int i, int p) { return Load8(b[kS + 6 * i + p]); };
        // u_a = Σ_c (ω × S_·ac)_c for a = x, y, z (pairs xx xy xz yy yz zz = 0..5).
        const Float8 ox = omega.x, oy = omega.y, oz = omega.z;
        const V8 u{oy * S(2, 0) - oz * S(1, 0) + oz * S(0, 1) - ox * S(2, 1) + ox * S(1, 2) - oy * S(0, 2),
                   oy * S(2, 1) - oz * S(1, 1) + oz * S(0, 3) - ox * S(2, 3) + ox * S(1, 4) - oy * S(0, 4),
                   oy * S(2, 2) - oz * S(1, 2) + oz * S(0, 4) - ox * S(2, 4) + ox * S(1, 5) - oy * S(0, 5)};
        const Float8 rU = oy * sR[2].x - oz * sR[1].x + oz * sR[0].y - ox * sR[2].y + ox * sR[1].z - oy * sR[0].z;
        const V8 s = oa * inv3 - r * (3.0f * Dot(r, oa) * inv5) + (bR + bTR + r * traceB) * (3.0f * inv5) -
                     r * (15.0f * Dot(dR, rho) * inv7) - (t + u * 2.0f) * (1.5f * inv5) +
                     (wT + pR * 2.0f + r * (Dot(traceV, rho) + 2.0f * rU)) * (7.5f * inv7) -
                     r * (52.5f * Dot(rSrV, rho) * inv9);
        Store8(out->s[0], s.x);
        Store8(out->s[1], s.y);
        Store8(out->s[2], s.z);
    }
}

/// AddFarVelocity and AddFarStretch: the lanes' sums added in lane order.
template <bool kStretch>
[[gnu::always_inline]] inline void AddFar(const FarRecord* const* records, int lanes, glm::vec3 x, glm::vec3 omega,
                                          glm::vec3* v, glm::vec3* s) {
    FarBatch b;
    Transpose(records, &b);
    FarOut out;
    FarFieldLanes<kStretch>(b, x, omega, &out);
    for (int l = 0; l < lanes; ++l) {
        *v += glm::vec3(out.v[0][l], out.v[1][l], out.v[2][l]);
        if constexpr (kStretch) *s += glm::vec3(out.s[0][l], out.s[1][l], out.s[2][l]);
    }
}

/// AddLeafVelocity and AddLeafStretch: AccumulateVorton (biot_savart.h) on
/// eight sources at a time, written with the same operations in the same
/// order (glm's dot as (x + y) + z, its cross as a.y b.z − b.y a.z, ...), and
/// the contributions added one source at a time in order.
template <bool kStretch>
[[gnu::always_inline]] inline void AddLeaf(const LeafSources& src, std::uint32_t begin, std::uint32_t end,
                                           glm::vec3 x, glm::vec3 omega, glm::vec3* v, glm::vec3* s) {
    for (std::uint32_t k = begin; k < end; k += kFarLanes) {
        const Float8 rx = x.x - Load8(src.x + k), ry = x.y - Load8(src.y + k), rz = x.z - Load8(src.z + k);
        const Float8 ax = Load8(src.alphaX + k), ay = Load8(src.alphaY + k), az = Load8(src.alphaZ + k);
        const Float8 q = rx * rx + ry * ry + rz * rz + Load8(src.sigma2 + k);
        Float8 root;
        for (int l = 0; l < kFarLanes; ++l) root[l] = std::sqrt(q[l]);
        const Float8 inv3 = 1.0f / (q * root);
        FarOut out;
        Store8(out.v[0], (ay * rz - ry * az) * inv3);
        Store8(out.v[1], (az * rx - rz * ax) * inv3);
        Store8(out.v[2], (ax * ry - rx * ay) * inv3);
        if constexpr (kStretch) {
            const Float8 inv5 = inv3 / q;
            const Float8 oax = omega.y * az - ay * omega.z, oay = omega.z * ax - az * omega.x,
                         oaz = omega.x * ay - ax * omega.y;
            const Float8 f = 3.0f * (rx * oax + ry * oay + rz * oaz) * inv5;
            Store8(out.s[0], oax * inv3 - rx * f);
            Store8(out.s[1], oay * inv3 - ry * f);
            Store8(out.s[2], oaz * inv3 - rz * f);
        }
        const int lanes = int(std::min<std::uint32_t>(kFarLanes, end - k));
        for (int l = 0; l < lanes; ++l) {
            *v += glm::vec3(out.v[0][l], out.v[1][l], out.v[2][l]);
            if constexpr (kStretch) *s += glm::vec3(out.s[0][l], out.s[1][l], out.s[2][l]);
        }
    }
}

}  // namespace

VORTON_AVX2_CLONES void AddLeafVelocity(const LeafSources& sources, std::uint32_t begin, std::uint32_t end,
                                        glm::vec3 x, glm::vec3* v) {
    AddLeaf<false>(sources, begin, end, x, glm::vec3(0.0f), v, nullptr);
}

VORTON_AVX2_CLONES void AddLeafStretch(const LeafSources& sources, std::uint32_t begin, std::uint32_t end,
                                       glm::vec3 x, glm::vec3 omega, glm::vec3* v, glm::vec3* s) {
    AddLeaf<true>(sources, begin, end, x, omega, v, s);
}

VORTON_AVX2_CLONES void AddFarVelocity(const FarRecord* const* records, int lanes, glm::vec3 x, glm::vec3* v) {
    AddFar<false>(records, lanes, x, glm::vec3(0.0f), v, nullptr);
}

VORTON_AVX2_CLONES void AddFarStretch(const FarRecord* const* records, int lanes, glm::vec3 x, glm::vec3 omega,
                                      glm::vec3* v, glm::vec3* s) {
    AddFar<true>(records, lanes, x, omega, v, s);
}

}  // namespace vorton::tree
