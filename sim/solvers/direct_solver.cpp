#include <cassert>
#include <cmath>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/solvers/biot_savart.h"
#include "sim/solvers/vorton_sources.h"
#include "sim/numerics/step_helpers.h"
#include "sim/numerics/simd.h"

namespace vorton {

namespace {

// Eight-lane vectors passed between inline helpers of this file only: the
// ABI note about 32-byte vectors without AVX does not concern us.
#pragma GCC diagnostic ignored "-Wpsabi"

/// The sources as one array per component, padded with inert sources (α = 0,
/// σ² = 1) to a multiple of eight, which add exactly zero.
struct SoaSources {
    std::vector<float> x, y, z, ax, ay, az, s2;
    std::size_t padded = 0;

    void Load(const VortonSources& src) {
        const std::size_t n = src.position.size();
        padded = (n + 7) / 8 * 8;
        for (auto* v : {&x, &y, &z, &ax, &ay, &az}) v->assign(padded, 0.0f);
        s2.assign(padded, 1.0f);
        for (std::size_t k = 0; k < n; ++k) {
            x[k] = src.position[k].x;
            y[k] = src.position[k].y;
            z[k] = src.position[k].z;
            ax[k] = src.alpha[k].x;
            ay[k] = src.alpha[k].y;
            az[k] = src.alpha[k].z;
            s2[k] = src.sigma2[k];
        }
    }
};

/// AccumulateVorton over all sources for points [begin, end), eight sources
/// at a time. Built for AVX2 and for the baseline (picked at load time); both
/// do the same operations lane by lane, so they give the same bits.
template <bool kStretch>
[[gnu::always_inline]] inline void DirectRange(const SoaSources& src, const VelocityQuery& q, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        const glm::vec3 x = q.points[i];
        const glm::vec3 omega = kStretch ? q.omega[i] : glm::vec3(0.0f);
        Float8 vx{}, vy{}, vz{}, sx{}, sy{}, sz{};
        for (std::size_t k = 0; k < src.padded; k += 8) {
            const Float8 rx = x.x - Load8(&src.x[k]), ry = x.y - Load8(&src.y[k]), rz = x.z - Load8(&src.z[k]);
            const Float8 ax = Load8(&src.ax[k]), ay = Load8(&src.ay[k]), az = Load8(&src.az[k]);
            const Float8 q2 = rx * rx + ry * ry + rz * rz + Load8(&src.s2[k]);
            Float8 root;
            for (int l = 0; l < 8; ++l) root[l] = std::sqrt(q2[l]);
            const Float8 inv3 = 1.0f / (q2 * root);
            // α × r
            vx += (ay * rz - az * ry) * inv3;
            vy += (az * rx - ax * rz) * inv3;
            vz += (ax * ry - ay * rx) * inv3;
            if constexpr (kStretch) {
                const Float8 inv5 = inv3 / q2;
                // ω × α
                const Float8 ox = omega.y * az - omega.z * ay, oy = omega.z * ax - omega.x * az,
                         oz = omega.x * ay - omega.y * ax;
                const Float8 t = 3.0f * (rx * ox + ry * oy + rz * oz) * inv5;
                sx += ox * inv3 - rx * t;
                sy += oy * inv3 - ry * t;
                sz += oz * inv3 - rz * t;
            }
        }
        q.velocity[i] = glm::vec3(Sum8(vx), Sum8(vy), Sum8(vz)) * kOneOverFourPi;
        if constexpr (kStretch) q.stretch[i] = glm::vec3(Sum8(sx), Sum8(sy), Sum8(sz)) * kOneOverFourPi;
    }
}

VORTON_AVX2_CLONES void DirectRangeVelocity(const SoaSources& src,
                                                                            const VelocityQuery& q,
                                                                            std::size_t begin, std::size_t end) {
    DirectRange<false>(src, q, begin, end);
}

VORTON_AVX2_CLONES void DirectRangeStretch(const SoaSources& src,
                                                                           const VelocityQuery& q,
                                                                           std::size_t begin, std::size_t end) {
    DirectRange<true>(src, q, begin, end);
}

}  // namespace

void DirectVelocity(const VortonSources& sources, const VelocityQuery& query) {
    assert(query.velocity.size() == query.points.size());
    // Kept per calling thread, so repeated calls do not allocate. (Safe as long
    // as no task of a parallel loop calls DirectVelocity itself: a thread
    // waiting in the loop below could otherwise run such a task and refill
    // the buffer under its own feet. Nothing in the project does.)
    thread_local SoaSources buffer;
    SoaSources& soa = buffer;  // the caller's: inside the loop `buffer` would name each worker's own
    soa.Load(sources);
    const bool stretch = !query.omega.empty();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, query.points.size(), 16),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                          if (stretch) {
                              DirectRangeStretch(soa, query, r.begin(), r.end());
                          } else {
                              DirectRangeVelocity(soa, query, r.begin(), r.end());
                          }
                      });
}

}  // namespace vorton
