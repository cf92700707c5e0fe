// The grid solver's particle–grid transfers: strengths assigned to the grid
// (M4′ or cloud-in-cell stencils, in a fixed vorton order per plane) and
// velocity and stretching interpolated back at any point (docs/METHOD.md §4).
#include "sim/solvers/grid_solver.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <glm/geometric.hpp>

#include "sim/numerics/counting_sort.h"

namespace vorton {

namespace {

// ---- Stencils -----------------------------------------------------------------------------

/// Weights of the stencil points base … base+width−1 along one axis for a
/// point at u (grid units).
template <GridStencil S>
struct Stencil;

template <>
struct Stencil<GridStencil::kM4Prime> {
    static constexpr int kWidth = 4;
    /// M4′(x) = 1 − 5x²/2 + 3|x|³/2 for |x| ≤ 1, (2 − |x|)²(1 − |x|)/2 for
    /// 1 ≤ |x| ≤ 2, written for the four distances 1+t, t, 1−t, 2−t.
    static int Weights(float u, float* w) {
        const float floor = std::floor(u);
        const float t = u - floor, s = 1.0f - t;
        w[0] = -0.5f * t * s * s;
        w[1] = 1.0f - t * t * (2.5f - 1.5f * t);
        w[2] = 1.0f - s * s * (2.5f - 1.5f * s);
        w[3] = -0.5f * t * t * s;
        return int(floor) - 1;
    }
};

template <>
struct Stencil<GridStencil::kCloudInCell> {
    static constexpr int kWidth = 2;
    static int Weights(float u, float* w) {
        const float floor = std::floor(u);
        const float t = u - floor;
        w[0] = 1.0f - t;
        w[1] = t;
        return int(floor);
    }
};

/// Grid units of x along each axis, clamped far outside the grid so the
/// floor fits an int (and NaN goes to the low side); such points carry no weight.
glm::vec3 GridUnits(const GridGeometry& grid, glm::vec3 x) {
    glm::vec3 u = (x - grid.origin) / grid.spacing;
    for (int a = 0; a < 3; ++a) {
        const float hi = float(grid.points[a] + 4);
        if (!(u[a] >= -4.0f)) u[a] = -4.0f;
        if (u[a] > hi) u[a] = hi;
    }
    return u;
}

}  // namespace

namespace {

/// Adds the strengths of the vortons listed in `order` to the grid planes
/// [k0, k1), each with its stencil's weights.
template <int W, typename VortonStencil>
void AssignPlanes(const GridGeometry& grid, std::span<const VortonStencil> stencils,
                  std::span<const glm::vec3> strength, std::span<const std::uint32_t> order, int k0,
                  int k1, std::span<glm::vec3> alpha) {
    const glm::ivec3 n = grid.points;
    for (const std::uint32_t p : order) {
        const VortonStencil& st = stencils[p];
        const glm::vec3 a = strength[p];
        for (int oz = 0; oz < W; ++oz) {
            const int k = st.base[2] + oz;
            if (k < k0 || k >= k1) continue;
            for (int oy = 0; oy < W; ++oy) {
                const int j = st.base[1] + oy;
                if (j < 0 || j >= n.y) continue;
                const float wzy = st.w[2][oz] * st.w[1][oy];
                const std::size_t row = grid.Index(0, j, k);
                for (int ox = 0; ox < W; ++ox) {
                    const int i = st.base[0] + ox;
                    if (i < 0 || i >= n.x) continue;
                    alpha[row + i] += (wzy * st.w[0][ox]) * a;
                }
            }
        }
    }
}

/// Each vorton's stencil and its sort key, the stencil's highest plane
/// clamped to [0, keys − 1]. Parallel over vortons.
template <GridStencil S, typename VortonStencil>
void LocateVortons(const GridGeometry& grid, std::span<const glm::vec3> position, int keys,
                   std::span<VortonStencil> stencils, std::span<std::uint32_t> key) {
    constexpr int W = Stencil<S>::kWidth;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, position.size(), 256), [&](const auto& r) {
        for (std::size_t p = r.begin(); p != r.end(); ++p) {
            const glm::vec3 u = GridUnits(grid, position[p]);
            VortonStencil& st = stencils[p];
            for (int a = 0; a < 3; ++a) st.base[a] = Stencil<S>::Weights(u[a], st.w[a]);
            assert(st.base[0] >= 0 && st.base[1] >= 0 && st.base[2] >= 0 &&
                   st.base[0] + W <= grid.points.x && st.base[1] + W <= grid.points.y &&
                   st.base[2] + W <= grid.points.z &&
                   "vorton within the stencil's margin of the grid's faces");
            key[p] = std::uint32_t(std::clamp(st.base[2] + W - 1, 0, keys - 1));
        }
    });
}

}  // namespace

void GridSolver::Assign(const VortonSources& sources) {
    const std::size_t count = sources.position.size();
    const int nz = m_grid.points.z;
    const int width = m_stencil == GridStencil::kM4Prime ? 4 : 2;
    // Plane k receives from the vortons whose key (highest stencil plane) is
    // k … k + width − 1; keys run to nz + width − 2.
    const int keys = nz + width - 1;
    m_stencils.resize(count);
    m_planeOf.resize(count);
    if (m_stencil == GridStencil::kM4Prime) {
        LocateVortons<GridStencil::kM4Prime>(m_grid, sources.position, keys, std::span(m_stencils),
                                             m_planeOf);
    } else {
        LocateVortons<GridStencil::kCloudInCell>(m_grid, sources.position, keys,
                                                 std::span(m_stencils), m_planeOf);
    }
    CountingSort(m_planeOf, std::size_t(keys), m_planeStart, m_order);

    // Each task owns a slab of planes and adds every vorton that reaches it,
    // in the sorted order: a point's sum has the same order for any split.
    const std::size_t plane = std::size_t(m_grid.points.x) * m_grid.points.y;
    tbb::parallel_for(tbb::blocked_range<int>(0, nz, 2), [&](const tbb::blocked_range<int>& r) {
        const int k0 = r.begin(), k1 = r.end();
        std::fill(m_alpha.begin() + std::ptrdiff_t(k0 * plane),
                  m_alpha.begin() + std::ptrdiff_t(k1 * plane), glm::vec3(0.0f));
        const std::span<const std::uint32_t> order(
            m_order.data() + m_planeStart[k0],
            m_order.data() + m_planeStart[std::min(k1 + width - 1, keys)]);
        if (m_stencil == GridStencil::kM4Prime) {
            AssignPlanes<4>(m_grid, std::span(std::as_const(m_stencils)), sources.alpha, order, k0,
                            k1, m_alpha);
        } else {
            AssignPlanes<2>(m_grid, std::span(std::as_const(m_stencils)), sources.alpha, order, k0,
                            k1, m_alpha);
        }
    });
}


// ---- Interpolation back to points ---------------------------------------------------------

namespace {


/// Velocity at one point: the W-wide stencil at base with weights w.
template <int W>
glm::vec3 GatherVelocity(const GridGeometry& grid, const glm::vec3* velocity, const int* base,
                         const float (*w)[W]) {
    glm::vec3 sum(0.0f);
    for (int oz = 0; oz < W; ++oz) {
        for (int oy = 0; oy < W; ++oy) {
            const glm::vec3* row = velocity + grid.Index(base[0], base[1] + oy, base[2] + oz);
            const float wzy = w[2][oz] * w[1][oy];
            for (int ox = 0; ox < W; ++ox) sum += (wzy * w[0][ox]) * row[ox];
        }
    }
    return sum;
}

/// Velocity and (∇v)ᵀω at one point from the packed velocity and gradient
/// (four 4-float vectors per point: v, ∂_x v, ∂_y v, ∂_z v): each stencil row
/// is summed along x first, 4 floats at a time.
template <int W>
void GatherPacked(const GridGeometry& grid, const Float4* packed, const int* base,
                  const float (*w)[W], glm::vec3 omega, glm::vec3* v, glm::vec3* s) {
    Float4 acc[4] = {};
    for (int oz = 0; oz < W; ++oz) {
        for (int oy = 0; oy < W; ++oy) {
            const Float4* row = packed + 4 * grid.Index(base[0], base[1] + oy, base[2] + oz);
            Float4 line[4] = {};
            for (int ox = 0; ox < W; ++ox) {
                for (int q = 0; q < 4; ++q) line[q] += w[0][ox] * row[4 * ox + q];
            }
            const float wzy = w[2][oz] * w[1][oy];
            for (int q = 0; q < 4; ++q) acc[q] += wzy * line[q];
        }
    }
    *v = glm::vec3(acc[0][0], acc[0][1], acc[0][2]);
    for (int a = 0; a < 3; ++a)
        (*s)[a] = omega.x * acc[1 + a][0] + omega.y * acc[1 + a][1] + omega.z * acc[1 + a][2];
}

template <GridStencil S, bool kStretch>
void EvaluateRange(const GridGeometry& grid, const glm::vec3* velocity, const Float4* packed,
                   const VelocityQuery& q, std::size_t begin, std::size_t end) {
    constexpr int W = Stencil<S>::kWidth;
    for (std::size_t p = begin; p < end; ++p) {
        const glm::vec3 u = GridUnits(grid, q.points[p]);
        float w[3][W];
        int base[3];
        bool inside = true;
        for (int a = 0; a < 3; ++a) {
            base[a] = Stencil<S>::Weights(u[a], w[a]);
            inside = inside && base[a] >= 0 && base[a] + W <= grid.points[a];
        }
        if (inside) {
            if constexpr (kStretch) {
                GatherPacked<W>(grid, packed, base, w, q.omega[p], &q.velocity[p], &q.stretch[p]);
            } else {
                q.velocity[p] = GatherVelocity<W>(grid, velocity, base, w);
            }
            continue;
        }
        // Near a face: trilinear, clamped into the grid (like Interpolate).
        const CellWeights c = Locate(grid, q.points[p]);
        const int cell[3] = {c.i, c.j, c.k};
        float w2[3][2];
        for (int a = 0; a < 3; ++a) {
            w2[a][0] = 1.0f - c.f[a];
            w2[a][1] = c.f[a];
        }
        if constexpr (kStretch) {
            GatherPacked<2>(grid, packed, cell, w2, q.omega[p], &q.velocity[p], &q.stretch[p]);
        } else {
            q.velocity[p] = GatherVelocity<2>(grid, velocity, cell, w2);
        }
    }
}

}  // namespace

bool GridSolver::Holds(glm::vec3 x) const {
    const glm::vec3 u = GridUnits(m_grid, x);
    const int width = m_stencil == GridStencil::kM4Prime ? Stencil<GridStencil::kM4Prime>::kWidth
                                                          : Stencil<GridStencil::kCloudInCell>::kWidth;
    for (int a = 0; a < 3; ++a) {
        float w[4];
        const int base = m_stencil == GridStencil::kM4Prime ? Stencil<GridStencil::kM4Prime>::Weights(u[a], w)
                                                             : Stencil<GridStencil::kCloudInCell>::Weights(u[a], w);
        if (!(base >= 0 && base + width <= m_grid.points[a])) return false;
    }
    return true;
}

void GridSolver::Evaluate(const VelocityQuery& query) const {
    assert(query.velocity.size() == query.points.size());
    assert(m_velocity.size() == m_grid.PointCount());
    const bool stretch = !query.omega.empty();
    assert(!stretch || (query.omega.size() == query.points.size() &&
                        query.stretch.size() == query.points.size()));
    assert(!stretch || m_packed.size() == 4 * m_grid.PointCount());
    const glm::vec3* v = m_velocity.data();
    const Float4* d = m_packed.data();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, query.points.size(), 64),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                          if (m_stencil == GridStencil::kM4Prime) {
                              if (stretch) {
                                  EvaluateRange<GridStencil::kM4Prime, true>(m_grid, v, d, query,
                                                                             r.begin(), r.end());
                              } else {
                                  EvaluateRange<GridStencil::kM4Prime, false>(m_grid, v, d, query,
                                                                              r.begin(), r.end());
                              }
                          } else if (stretch) {
                              EvaluateRange<GridStencil::kCloudInCell, true>(m_grid, v, d, query,
                                                                             r.begin(), r.end());
                          } else {
                              EvaluateRange<GridStencil::kCloudInCell, false>(m_grid, v, d, query,
                                                                              r.begin(), r.end());
                          }
                      });
}


}  // namespace vorton
