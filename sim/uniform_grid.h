#pragma once
/// \file
/// Uniform grids of points over a box: geometry, trilinear interpolation,
/// cloud-in-cell spreading and central-difference gradients (Gourlay parts 6
/// and 8; Hockney & Eastwood, *Computer Simulation Using Particles*, ch. 5).

#include <cstddef>
#include <span>

#include <glm/vec3.hpp>

#include "aabb.h"

namespace vorton {

/// Points (i, j, k), 0 ≤ i < points.x …, at origin + (i, j, k)·spacing; value
/// arrays are x-fastest, length points.x·points.y·points.z.
struct GridGeometry {
    glm::vec3 origin{0.0f};     ///< m
    glm::vec3 spacing{1.0f};    ///< m, > 0 on every axis
    glm::ivec3 points{2, 2, 2};  ///< ≥ 2 on every axis

    std::size_t PointCount() const { return std::size_t(points.x) * points.y * points.z; }
    std::size_t Index(int i, int j, int k) const {
        return (std::size_t(k) * points.y + j) * points.x + i;
    }
    glm::vec3 Position(int i, int j, int k) const { return origin + glm::vec3(i, j, k) * spacing; }
    float CellVolume() const { return spacing.x * spacing.y * spacing.z; }
    glm::vec3 Max() const { return origin + glm::vec3(points - 1) * spacing; }
};

/// A grid of cubic cells covering `box` grown by `margin` (m) on each side,
/// with about `targetCells` cells (at least one per axis).
GridGeometry FitGrid(const Aabb& box, float margin, std::size_t targetCells);

/// A grid of cubic cells of the given size covering `box` grown by `margin`;
/// the cell grows if more than `maxCells` cells would be needed.
GridGeometry FitGridWithCell(const Aabb& box, float margin, float cellSize, std::size_t maxCells);

/// Cell and weights of a point for trilinear interpolation / cloud-in-cell:
/// the lower corner (clamped into the grid) and fractions in [0, 1].
struct CellWeights {
    int i, j, k;
    glm::vec3 f;
};
CellWeights Locate(const GridGeometry& grid, glm::vec3 x);

/// Trilinear interpolation; points outside the grid take the nearest boundary value.
template <typename T>
T Interpolate(const GridGeometry& grid, std::span<const T> values, glm::vec3 x) {
    const CellWeights c = Locate(grid, x);
    const std::size_t sx = 1, sy = std::size_t(grid.points.x), sz = sy * std::size_t(grid.points.y);
    const std::size_t o = grid.Index(c.i, c.j, c.k);
    const glm::vec3 f = c.f, g = glm::vec3(1.0f) - c.f;
    return g.z * (g.y * (g.x * values[o] + f.x * values[o + sx]) + f.y * (g.x * values[o + sy] + f.x * values[o + sy + sx])) +
           f.z * (g.y * (g.x * values[o + sz] + f.x * values[o + sz + sx]) +
                  f.y * (g.x * values[o + sz + sy] + f.x * values[o + sz + sy + sx]));
}

/// Cloud-in-cell: adds amount_k·w / cellVolume to the 8 points around each
/// position, w the trilinear weights, so Σ grid·cellVolume = Σ amount exactly
/// up to round-off. Serial (a fixed order, so deterministic). `density` must
/// have grid.PointCount() entries; it is not cleared.
void SpreadCloudInCell(const GridGeometry& grid, std::span<const glm::vec3> positions,
                       std::span<const float> amounts, std::span<float> density);

/// ∇f by central differences inside, one-sided at the faces: exact for a
/// linear f. Parallel over z-slices.
void Gradient(const GridGeometry& grid, std::span<const float> f, std::span<glm::vec3> gradient);

}  // namespace vorton
