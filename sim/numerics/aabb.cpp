#include "sim/numerics/aabb.h"

#include <cmath>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

namespace vorton {

namespace {
struct Partial {
    Aabb box;
    std::size_t nonFinite = 0;
};
}  // namespace

Aabb BoundsOf(std::span<const glm::vec3> points, std::size_t* nonFinite) {
    const Partial total = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, points.size(), 4096), Partial{},
        [&](const tbb::blocked_range<std::size_t>& r, Partial acc) {
            for (std::size_t i = r.begin(); i != r.end(); ++i) {
                const glm::vec3 p = points[i];
                if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) {
                    acc.box.Grow(p);
                } else {
                    ++acc.nonFinite;
                }
            }
            return acc;
        },
        [](Partial a, const Partial& b) {
            a.box.Grow(b.box);
            a.nonFinite += b.nonFinite;
            return a;
        });
    if (nonFinite) *nonFinite = total.nonFinite;
    return total.box;
}

}  // namespace vorton
