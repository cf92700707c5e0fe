#include <cassert>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "biot_savart.h"
#include "vorton_sources.h"

namespace vorton {

namespace {
template <bool kStretch>
void DirectRange(const VortonSources& src, const VelocityQuery& q, std::size_t begin, std::size_t end) {
    const std::size_t n = src.position.size();
    for (std::size_t i = begin; i < end; ++i) {
        const glm::vec3 x = q.points[i];
        const glm::vec3 omega = kStretch ? q.omega[i] : glm::vec3(0.0f);
        glm::vec3 v(0.0f), s(0.0f);
        for (std::size_t k = 0; k < n; ++k) {
            AccumulateVorton<kStretch>(x - src.position[k], src.alpha[k], src.sigma2[k], omega, &v, &s);
        }
        q.velocity[i] = v * kOneOverFourPi;
        if constexpr (kStretch) q.stretch[i] = s * kOneOverFourPi;
    }
}
}  // namespace

void DirectVelocity(const VortonSources& sources, const VelocityQuery& query) {
    assert(query.velocity.size() == query.points.size());
    const bool stretch = !query.omega.empty();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, query.points.size(), 16),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                          if (stretch) {
                              DirectRange<true>(sources, query, r.begin(), r.end());
                          } else {
                              DirectRange<false>(sources, query, r.begin(), r.end());
                          }
                      });
}

}  // namespace vorton
