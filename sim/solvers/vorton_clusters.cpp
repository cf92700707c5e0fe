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
    Aabb lowBox, highBox;                       // the halves' boxes
    std::size_t lowPoints = 0, highPoints = 0;  // their grids' points (sum: `points`)
};

Aabb BoxOf(std::span<const glm::vec3> points, const std::vector<std::uint32_t>& members) {
    Aabb box;
    for (std::uint32_t k : members) box.Grow(points[k]);
    return box;
}

// The best cut of `members` (box `box`, whose grid has `whole` points): of the three axes' widest
// runs of empty slabs, the one whose halves' grids have the fewest points together; axis −1 when
// no cut leaves fewer points than `whole`.
Cut BestCut(std::span<const glm::vec3> points, const std::vector<std::uint32_t>& members, const Aabb& box, float cell,
            float margin, std::size_t whole, std::vector<std::uint32_t>& count) {
    Cut best;
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
        const std::size_t lowPoints = GridPointCount(low, cell, margin);
        const std::size_t highPoints = GridPointCount(high, cell, margin);
        const std::size_t split = lowPoints + highPoints;
        if (split < whole && split < best.points) {
            best = Cut{a, slab, runBegin, split, low, high, lowPoints, highPoints};
        }
    }
    return best;
}

// The groups `c` (whose grid has `whole` points) ends in, at most `budget` of them: cut at its
// best cut, each half split in turn (the lower half first, leaving the upper one group at least),
// and kept only if the groups' grids together have at most half the points of c's. So a cut that
// alone does not halve the grid is taken when the cuts below it do: five balls' wakes 10–30 m
// apart along 70 m, where the cut at the widest gap left halves whose grids held 51 % of the
// points (stop 103).
std::vector<VortonCluster> SplitGroup(std::span<const glm::vec3> points, VortonCluster c, std::size_t whole, float cell,
                                      float margin, std::size_t budget, std::vector<std::uint32_t>& count) {
    std::vector<VortonCluster> out;
    const Cut cut =
        budget >= 2 && c.members.size() >= 2 ? BestCut(points, c.members, c.box, cell, margin, whole, count) : Cut{};
    if (cut.axis < 0) {
        out.push_back(std::move(c));
        return out;
    }
    VortonCluster low, high;
    // The same slab index as BestCut computed, so the same halves.
    for (std::uint32_t k : c.members) {
        (cut.slabs.Of(points[k][cut.axis]) < cut.first ? low : high).members.push_back(k);
    }
    low.box = cut.lowBox;
    high.box = cut.highBox;
    out = SplitGroup(points, std::move(low), cut.lowPoints, cell, margin, budget - 1, count);
    std::vector<VortonCluster> upper =
        SplitGroup(points, std::move(high), cut.highPoints, cell, margin, budget - out.size(), count);
    std::size_t total = 0;
    for (const VortonCluster& g : out) total += GridPointCount(g.box, cell, margin);
    for (const VortonCluster& g : upper) total += GridPointCount(g.box, cell, margin);
    if (2 * total > whole) {
        out.clear();
        out.push_back(std::move(c));
        return out;
    }
    for (VortonCluster& g : upper) out.push_back(std::move(g));
    return out;
}

}  // namespace

std::vector<VortonCluster> SplitIntoClusters(std::span<const glm::vec3> points, float cell, float margin,
                                             std::size_t maxClusters) {
    assert(cell > 0.0f && margin >= 0.0f);
    if (points.empty()) return {};
    VortonCluster all;
    all.members.resize(points.size());
    for (std::size_t k = 0; k < points.size(); ++k) all.members[k] = std::uint32_t(k);
    all.box = BoxOf(points, all.members);
    const std::size_t whole = GridPointCount(all.box, cell, margin);
    std::vector<std::uint32_t> count;
    return SplitGroup(points, std::move(all), whole, cell, margin, std::max<std::size_t>(1, maxClusters), count);
}

bool GroupGridsFit(std::span<const VortonCluster> groups, float cell, float margin, std::size_t maxEach,
                   std::size_t maxTotal) {
    if (groups.empty()) return false;
    std::size_t total = 0;
    for (const VortonCluster& g : groups) {
        const std::size_t own = GridPointCount(g.box, cell, margin);
        if (own > maxEach) return false;
        total += own;
    }
    return total <= maxTotal;
}

}  // namespace vorton
