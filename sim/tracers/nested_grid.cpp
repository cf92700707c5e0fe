#include "sim/tracers/nested_grid.h"

#include <algorithm>
#include <cmath>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace vorton {

GridGeometry NestedGrid::Level(int level) const {
    GridGeometry g = base;
    const float scale = std::ldexp(1.0f, level);
    const glm::vec3 c = Center();
    g.spacing = base.spacing * scale;
    g.origin = c - 0.5f * glm::vec3(base.points - 1) * g.spacing;
    return g;
}

glm::vec3 NestedGrid::Position(std::size_t index) const {
    const std::size_t per = LevelPointCount();
    const int level = int(index / per);
    std::size_t local = index % per;
    const std::size_t sy = std::size_t(base.points.x), sz = sy * std::size_t(base.points.y);
    const glm::vec3 ijk(float(local % sy), float((local / sy) % std::size_t(base.points.y)), float(local / sz));
    const glm::vec3 half = 0.5f * glm::vec3(base.points - 1);
    return Center() + (ijk - half) * (base.spacing * std::ldexp(1.0f, level));
}

int NestedGrid::LevelsToCover(const Aabb& box) const {
    if (box.Empty()) return 1;
    const glm::vec3 c = Center();
    const glm::vec3 halfWidth = 0.5f * glm::vec3(base.points - 1) * base.spacing;
    const glm::vec3 reach = glm::max(glm::abs(box.min - c), glm::abs(box.max - c)) / halfWidth;
    const float q = std::max({reach.x, reach.y, reach.z});
    if (!std::isfinite(q)) return kMaxGridLevels;
    return std::min(kMaxGridLevels, NestedGridSampler::LevelOf(q, kMaxGridLevels) + 1);
}

NestedGridSampler::NestedGridSampler(const NestedGrid& grid) {
    const GridGeometry& b = grid.base;
    const glm::vec3 c = grid.Center();
    const glm::vec3 half = 0.5f * glm::vec3(b.points - 1);
    m_center = Float4{c.x, c.y, c.z, 0.0f};
    m_inverse = Float4{1.0f / b.spacing.x, 1.0f / b.spacing.y, 1.0f / b.spacing.z, 0.0f};
    m_inverseHalf = Float4{1.0f / (half.x * b.spacing.x), 1.0f / (half.y * b.spacing.y),
                           1.0f / (half.z * b.spacing.z), 0.0f};
    m_half = Float4{half.x, half.y, half.z, 0.0f};
    m_topF = Float4{float(b.points.x - 1), float(b.points.y - 1), float(b.points.z - 1), 0.0f};
    m_lastCell = Int4{b.points.x - 2, b.points.y - 2, b.points.z - 2, 0};
    m_lastLevel = std::max(0, grid.levels - 1);
    m_levelPoints = b.PointCount();
    m_sy = std::size_t(b.points.x);
    m_sz = std::size_t(b.points.x) * std::size_t(b.points.y);
    for (int k = 0; k < 8; ++k) m_corner[k] = (k & 1 ? 1 : 0) + (k & 2 ? m_sy : 0) + (k & 4 ? m_sz : 0);
}

void ExpandCellMask(const NestedGrid& grid, std::span<const std::uint8_t> cells, std::vector<std::uint8_t>& points,
                    std::size_t whole) {
    const glm::ivec3 n = grid.base.points;
    const int planes = n.z * grid.levels;  // levels stacked along z
    points.resize(grid.PointCount());
    const std::size_t sy = std::size_t(n.x), sz = sy * std::size_t(n.y);
    const int firstPlane = int(whole / sz);
    std::fill(points.begin(), points.begin() + std::ptrdiff_t(std::size_t(firstPlane) * sz), std::uint8_t(1));
    tbb::parallel_for(tbb::blocked_range<int>(firstPlane, planes), [&](const tbb::blocked_range<int>& r) {
        for (int k = r.begin(); k != r.end(); ++k) {
            for (int j = 0; j < n.y; ++j) {
                for (int i = 0; i < n.x; ++i) {
                    std::uint8_t any = 0;
                    for (int dk = std::max(0, k - 1); dk <= k; ++dk) {
                        for (int dj = std::max(0, j - 1); dj <= j; ++dj) {
                            const std::size_t row = std::size_t(dk) * sz + std::size_t(dj) * sy;
                            any |= cells[row + std::size_t(i)] | (i > 0 ? cells[row + std::size_t(i - 1)] : 0);
                        }
                    }
                    points[std::size_t(k) * sz + std::size_t(j) * sy + std::size_t(i)] = any;
                }
            }
        }
    });
}

}  // namespace vorton
