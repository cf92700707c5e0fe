#include "sim/solvers/vorton_clusters.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "sim/numerics/uniform_grid.h"

namespace vorton {

namespace {

// Slabs per axis at most: a wider gap is found with wider slabs.
constexpr std::size_t kMaxSlabs = std::size_t(1) << 20;

// Slabs of equal thickness along one axis of a group's box, from its low face.
struct Slabs {
    float lo = 0.0f;        // m: the box's low face along the axis
    float width = 0.0f;     // m: slab thickness
    std::size_t count = 1;  // slabs; the last one also holds the box's high face
    std::size_t Of(float x) const { return std::min(count - 1, std::size_t((x - lo) / width)); }
};

struct Cut {
    int axis = -1;
    Slabs slabs;
    std::size_t first = 0;   // first empty slab: points in slabs below go to the first half
    std::size_t points = std::numeric_limits<std::size_t>::max();
};

Aabb BoxOf(std::span<const glm::vec3> points, const std::vector<std::uint32_t>& members) {
    Aabb box;
    for (std::uint32_t k : members) box.Grow(points[k]);
    return box;
}

// The best cut of `members` (box `box`), or axis −1 when none halves the grid.
Cut BestCut(std::span<const glm::vec3> points, const std::vector<std::uint32_t>& members, const Aabb& box, float cell,
            float margin, std::vector<std::uint32_t>& count) {
    Cut best;
    const std::size_t whole = GridPointCount(box, cell, margin);
    for (int a = 0; a < 3; ++a) {
        const float extent = box.max[a] - box.min[a];
        float width = cell;
        while (extent / width >= float(kMaxSlabs)) width *= 2.0f;
        const Slabs slab{box.min[a], width, std::size_t(extent / width) + 1};
        const std::size_t slabs = slab.count;
        count.assign(slabs, 0);
        for (std::uint32_t k : members) ++count[slab.Of(points[k][a])];
        // The widest run of empty slabs (the first of equal ones).
        std::size_t runBegin = 0, runLength = 0;
        for (std::size_t s = 0; s < slabs;) {
            if (count[s] != 0) {
                ++s;
                continue;
            }
            std::size_t e = s;
            while (e < slabs && count[e] == 0) ++e;
            if (e - s > runLength) runBegin = s, runLength = e - s;
            s = e;
        }
        if (runLength == 0) continue;
        // Slab 0 holds the lowest point and the last the highest, so the
        // run has points on both sides. Its first slab's lower face splits
        // the points exactly as the slab indices do.
        Aabb low, high;
        for (std::uint32_t k : members) (slab.Of(points[k][a]) < runBegin ? low : high).Grow(points[k]);
        if (low.Empty() || high.Empty()) continue;
        const std::size_t split = GridPointCount(low, cell, margin) + GridPointCount(high, cell, margin);
        if (2 * split <= whole && split < best.points) best = Cut{a, slab, runBegin, split};
    }
    return best;
}

}  // namespace

std::vector<VortonCluster> SplitIntoClusters(std::span<const glm::vec3> points, float cell, float margin,
                                             std::size_t maxClusters) {
    assert(cell > 0.0f && margin >= 0.0f);
    std::vector<VortonCluster> done;
    if (points.empty()) return done;
    VortonCluster all;
    all.members.resize(points.size());
    for (std::size_t k = 0; k < points.size(); ++k) all.members[k] = std::uint32_t(k);
    all.box = BoxOf(points, all.members);
    // Depth first, lower half first; a stack of groups still to look at.
    std::vector<VortonCluster> pending;
    pending.push_back(std::move(all));
    std::vector<std::uint32_t> count;
    while (!pending.empty()) {
        VortonCluster c = std::move(pending.back());
        pending.pop_back();
        const bool room = done.size() + pending.size() + 2 <= std::max<std::size_t>(1, maxClusters);
        const Cut cut = room && c.members.size() >= 2 ? BestCut(points, c.members, c.box, cell, margin, count) : Cut{};
        if (cut.axis < 0) {
            done.push_back(std::move(c));
            continue;
        }
        VortonCluster low, high;
        // The same slab index as BestCut computed, so the same halves.
        for (std::uint32_t k : c.members) {
            (cut.slabs.Of(points[k][cut.axis]) < cut.first ? low : high).members.push_back(k);
        }
        low.box = BoxOf(points, low.members);
        high.box = BoxOf(points, high.members);
        // The higher half waits under the lower one.
        pending.push_back(std::move(high));
        pending.push_back(std::move(low));
    }
    return done;
}

}  // namespace vorton
