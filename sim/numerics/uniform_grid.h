#pragma once
/// \file
/// Uniform grids of points over a box: geometry, trilinear interpolation,
/// cloud-in-cell spreading and central-difference gradients (Gourlay parts 6
/// and 8; Hockney & Eastwood, *Computer Simulation Using Particles*, ch. 5).

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/numerics/aabb.h"
#include "sim/numerics/simd.h"

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

/// Points of the grid of cells `cell` (m) grown by `margin` (m) around `box`,
/// as FitGridWithCell with no cap builds it: the measure of a grid solve's
/// cost used by the solver choice, vorton clusters and the remesh grid cap.
std::size_t GridPointCount(const Aabb& box, float cell, float margin);

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

/// Trilinear lookups on one grid with the divisions and strides hoisted out
/// of the loop: the hot path of tracer advection (Gourlay part 3's velocity
/// grid). Same clamping as Locate/Interpolate: points outside take the
/// boundary values; NaN coordinates map to the lower face.
class GridSampler {
public:
    /// Four floats in one SIMD register (GCC/Clang vector extension; scalar
    /// code on targets without SIMD). Grid values are stored padded to four.
    using Float4 = vorton::Float4;
    using Int4 = vorton::Int4;

    explicit GridSampler(const GridGeometry& grid)
        : m_origin{grid.origin.x, grid.origin.y, grid.origin.z, 0.0f},
          m_inverse{1.0f / grid.spacing.x, 1.0f / grid.spacing.y, 1.0f / grid.spacing.z, 0.0f},
          m_topF{float(grid.points.x - 1), float(grid.points.y - 1), float(grid.points.z - 1), 0.0f},
          m_lastCell{grid.points.x - 2, grid.points.y - 2, grid.points.z - 2, 0},
          m_sy(std::size_t(grid.points.x)),
          m_sz(std::size_t(grid.points.x) * std::size_t(grid.points.y)) {
        for (int c = 0; c < 8; ++c) m_corner[c] = (c & 1 ? 1 : 0) + (c & 2 ? m_sy : 0) + (c & 4 ? m_sz : 0);
    }

    /// Index of the lower corner of x's cell and the fractions f in [0, 1]
    /// (lane 3 unused).
    std::size_t Cell(glm::vec3 x, Float4* f) const {
        const Float4 p{x.x, x.y, x.z, 0.0f};
        Float4 u = (p - m_origin) * m_inverse;
        const Float4 zero{0.0f, 0.0f, 0.0f, 0.0f};
        u = u > zero ? u : zero;  // NaN goes to 0
        u = u < m_topF ? u : m_topF;
        Int4 c = __builtin_convertvector(u, Int4);
        c = c < m_lastCell ? c : m_lastCell;
        *f = u - __builtin_convertvector(c, Float4);
        return std::size_t(c[0]) + std::size_t(c[1]) * m_sy + std::size_t(c[2]) * m_sz;
    }
    /// Offset of corner c (bit 0: +x, bit 1: +y, bit 2: +z) of a cell from its lower corner.
    std::size_t CornerOffset(int c) const { return m_corner[c]; }

    /// Trilinear interpolation of padded values (grid.PointCount() entries) in the cell at o.
    static glm::vec3 SampleCell(const Float4* values, std::size_t o, Float4 f, std::size_t sy, std::size_t sz) {
        const Float4* v = values + o;
        const Float4 fx = {f[0], f[0], f[0], f[0]}, fy = {f[1], f[1], f[1], f[1]}, fz = {f[2], f[2], f[2], f[2]};
        const Float4 c00 = v[0] + fx * (v[1] - v[0]);
        const Float4 c10 = v[sy] + fx * (v[sy + 1] - v[sy]);
        const Float4 c01 = v[sz] + fx * (v[sz + 1] - v[sz]);
        const Float4 c11 = v[sz + sy] + fx * (v[sz + sy + 1] - v[sz + sy]);
        const Float4 c0 = c00 + fy * (c10 - c00);
        const Float4 c1 = c01 + fy * (c11 - c01);
        const Float4 c = c0 + fz * (c1 - c0);
        return glm::vec3(c[0], c[1], c[2]);
    }
    glm::vec3 SampleCell(const Float4* values, std::size_t o, Float4 f) const { return SampleCell(values, o, f, m_sy, m_sz); }
    glm::vec3 Sample(const Float4* values, glm::vec3 x) const {
        Float4 f;
        const std::size_t o = Cell(x, &f);
        return SampleCell(values, o, f);
    }

    // The constants, for SIMD kernels that repeat Cell's arithmetic lane by lane.
    const Float4& Origin() const { return m_origin; }
    const Float4& Inverse() const { return m_inverse; }
    const Float4& TopF() const { return m_topF; }
    const Int4& LastCell() const { return m_lastCell; }
    std::size_t StrideY() const { return m_sy; }
    std::size_t StrideZ() const { return m_sz; }

private:
    Float4 m_origin;
    Float4 m_inverse;
    Float4 m_topF;    // points − 1 per axis
    Int4 m_lastCell;  // points − 2 per axis
    std::size_t m_sy, m_sz;
    std::size_t m_corner[8];
};

/// Copies vector values into the padded layout GridSampler reads.
void PackGridValues(std::span<const glm::vec3> values, std::vector<GridSampler::Float4>& packed);

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
