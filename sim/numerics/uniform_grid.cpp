#include "sim/numerics/uniform_grid.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace vorton {

namespace {
GridGeometry Cover(const Aabb& box, float margin, float cell) {
    GridGeometry g;
    const glm::vec3 lo = box.min - glm::vec3(margin), hi = box.max + glm::vec3(margin);
    const glm::vec3 extent = hi - lo;
    for (int a = 0; a < 3; ++a) {
        const int cells = std::max(1, int(std::ceil(extent[a] / cell)));
        g.points[a] = cells + 1;
        // Centre the grid on the box so the margin is the same on both sides.
        g.origin[a] = 0.5f * (lo[a] + hi[a]) - 0.5f * float(cells) * cell;
    }
    g.spacing = glm::vec3(cell);
    return g;
}
}  // namespace

GridGeometry FitGrid(const Aabb& box, float margin, std::size_t targetCells) {
    assert(!box.Empty() && targetCells > 0);
    const glm::vec3 extent = glm::max(box.Extent() + glm::vec3(2.0f * margin), glm::vec3(1.0e-6f));
    const float longest = std::max({extent.x, extent.y, extent.z});
    // Thin boxes would give a huge count for the cube root; floor each axis at 1/64 of the longest.
    const glm::vec3 e = glm::max(extent, glm::vec3(longest / 64.0f));
    const float cell = std::cbrt(e.x * e.y * e.z / float(targetCells));
    return Cover(box, margin, cell);
}

GridGeometry FitGridWithCell(const Aabb& box, float margin, float cellSize, std::size_t maxCells) {
    assert(!box.Empty() && cellSize > 0.0f);
    GridGeometry g = Cover(box, margin, cellSize);
    while (g.PointCount() > maxCells) g = Cover(box, margin, g.spacing.x * 1.25f);
    return g;
}

std::size_t GridPointCount(const Aabb& box, float cell, float margin) {
    return FitGridWithCell(box, margin, cell, std::numeric_limits<std::size_t>::max()).PointCount();
}

CellWeights Locate(const GridGeometry& grid, glm::vec3 x) {
    CellWeights c;
    const glm::vec3 u = (x - grid.origin) / grid.spacing;
    int* idx[3] = {&c.i, &c.j, &c.k};
    for (int a = 0; a < 3; ++a) {
        const float maxCell = float(grid.points[a] - 2);
        float cell = std::floor(u[a]);
        if (!(cell >= 0.0f)) cell = 0.0f;  // also catches NaN
        if (cell > maxCell) cell = maxCell;
        *idx[a] = int(cell);
        c.f[a] = std::clamp(u[a] - cell, 0.0f, 1.0f);
    }
    return c;
}

void PackGridValues(std::span<const glm::vec3> values, std::vector<GridSampler::Float4>& packed) {
    packed.resize(values.size());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, values.size(), 8192), [&](const auto& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) packed[i] = GridSampler::Float4{values[i].x, values[i].y, values[i].z, 0.0f};
    });
}

void SpreadCloudInCell(const GridGeometry& grid, std::span<const glm::vec3> positions,
                       std::span<const float> amounts, std::span<float> density) {
    assert(density.size() == grid.PointCount());
    const float invCell = 1.0f / grid.CellVolume();
    const std::size_t sy = std::size_t(grid.points.x), sz = sy * std::size_t(grid.points.y);
    for (std::size_t p = 0; p < positions.size(); ++p) {
        if (amounts[p] == 0.0f) continue;
        const CellWeights c = Locate(grid, positions[p]);
        const float m = amounts[p] * invCell;
        const glm::vec3 f = c.f, g = glm::vec3(1.0f) - c.f;
        const std::size_t o = grid.Index(c.i, c.j, c.k);
        density[o] += m * g.x * g.y * g.z;
        density[o + 1] += m * f.x * g.y * g.z;
        density[o + sy] += m * g.x * f.y * g.z;
        density[o + sy + 1] += m * f.x * f.y * g.z;
        density[o + sz] += m * g.x * g.y * f.z;
        density[o + sz + 1] += m * f.x * g.y * f.z;
        density[o + sz + sy] += m * g.x * f.y * f.z;
        density[o + sz + sy + 1] += m * f.x * f.y * f.z;
    }
}

void Gradient(const GridGeometry& grid, std::span<const float> f, std::span<glm::vec3> gradient) {
    assert(f.size() == grid.PointCount() && gradient.size() == grid.PointCount());
    const glm::ivec3 n = grid.points;
    const std::size_t stride[3] = {1, std::size_t(n.x), std::size_t(n.x) * n.y};
    tbb::parallel_for(tbb::blocked_range<int>(0, n.z), [&](const tbb::blocked_range<int>& r) {
        for (int k = r.begin(); k != r.end(); ++k) {
            for (int j = 0; j < n.y; ++j) {
                for (int i = 0; i < n.x; ++i) {
                    const int ijk[3] = {i, j, k};
                    const std::size_t o = grid.Index(i, j, k);
                    glm::vec3 grad;
                    for (int a = 0; a < 3; ++a) {
                        const std::size_t s = stride[a];
                        if (ijk[a] == 0) {
                            grad[a] = (f[o + s] - f[o]) / grid.spacing[a];
                        } else if (ijk[a] == n[a] - 1) {
                            grad[a] = (f[o] - f[o - s]) / grid.spacing[a];
                        } else {
                            grad[a] = (f[o + s] - f[o - s]) / (2.0f * grid.spacing[a]);
                        }
                    }
                    gradient[o] = grad;
                }
            }
        }
    });
}

}  // namespace vorton
