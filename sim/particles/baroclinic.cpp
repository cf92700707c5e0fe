#include "sim/particles/baroclinic.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <glm/geometric.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/numerics/aabb.h"
#include "sim/numerics/counting_sort.h"

namespace vorton {

namespace {

/// Points within two cells of x on each axis (offsets −1..2 from the lower
/// corner) and the tent weight Π max(0, 1 − |d|/2h) of each, through `visit(index, weight)`.
template <typename Visit>
void ForEachReceivingPoint(const GridGeometry& grid, glm::vec3 x, Visit&& visit) {
    const glm::vec3 u = (x - grid.origin) / grid.spacing;
    const glm::ivec3 base = glm::ivec3(glm::floor(u));
    float w[3][4];
    int idx[3][4];
    for (int a = 0; a < 3; ++a) {
        for (int o = 0; o < 4; ++o) {
            const int i = base[a] - 1 + o;
            idx[a][o] = i;
            const bool inside = i >= 0 && i < grid.points[a];
            w[a][o] = inside ? std::max(0.0f, 1.0f - 0.5f * std::abs(u[a] - float(i))) : 0.0f;
        }
    }
    for (int k = 0; k < 4; ++k) {
        if (w[2][k] == 0.0f) continue;
        for (int j = 0; j < 4; ++j) {
            if (w[1][j] == 0.0f) continue;
            const float wzy = w[2][k] * w[1][j];
            for (int i = 0; i < 4; ++i) {
                if (w[0][i] == 0.0f) continue;
                visit(grid.Index(idx[0][i], idx[1][j], idx[2][k]), wzy * w[0][i]);
            }
        }
    }
}

}  // namespace

void BaroclinicGenerator::ComputeRates(std::span<const glm::vec3> position, std::span<const float> excessMass,
                                       float cellSize, glm::vec3 gravity, float ambientDensity,
                                       std::span<glm::vec3> rate) {
    const std::size_t n = position.size();
    assert(excessMass.size() == n && rate.size() == n);
    std::fill(rate.begin(), rate.end(), glm::vec3(0.0f));
    if (n == 0) return;

    // The grid covers the vortons that carry excess mass with a margin of
    // three cells: the density (one cell of CIC support) and its gradient
    // (one more) stay inside. Vortons without excess mass only receive; those
    // farther away than two cells from the grid receive nothing, so a wake
    // far from the dye (a body's, or a sinking drop's) does not size it.
    Aabb dense;
    for (std::size_t k = 0; k < n; ++k) {
        if (excessMass[k] != 0.0f) dense.Grow(position[k]);
    }
    if (dense.Empty()) return;
    m_grid = FitGridWithCell(dense, 3.0f * cellSize, cellSize, std::size_t(1) << 22);
    const std::size_t points = m_grid.PointCount();
    m_density.assign(points, 0.0f);
    SpreadCloudInCell(m_grid, position, excessMass, m_density);
    m_gradient.resize(points);
    Gradient(m_grid, m_density, m_gradient);

    const glm::vec3 gOverRho = gravity / ambientDensity;
    const float cellVolume = m_grid.CellVolume();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points, 4096), [&](const auto& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) m_gradient[i] = glm::cross(m_gradient[i], gOverRho) * cellVolume;
    });

    // Σ of receiving weights at each point. A vorton whose cell is in z-layer
    // b writes layers b − 1 … b + 2, so layers four apart run at once, each in
    // vorton order: every point sums its terms in one fixed order, whatever
    // the threads.
    m_weight.assign(points, 0.0f);
    const int layers = m_grid.points.z;
    m_layerOf.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const float u = (position[k].z - m_grid.origin.z) / m_grid.spacing.z;
        m_layerOf[k] = std::uint32_t(std::clamp(int(std::floor(u)), 0, layers - 1));
    }
    CountingSort(m_layerOf, std::size_t(layers), m_layerStart, m_byLayer);
    for (int phase = 0; phase < 4; ++phase) {
        const int tasks = std::max(0, (layers - phase + 3) / 4);
        tbb::parallel_for(tbb::blocked_range<int>(0, tasks, 1), [&](const tbb::blocked_range<int>& r) {
            for (int t = r.begin(); t != r.end(); ++t) {
                const int b = phase + 4 * t;
                for (std::uint32_t s = m_layerStart[std::size_t(b)]; s < m_layerStart[std::size_t(b) + 1]; ++s) {
                    ForEachReceivingPoint(m_grid, position[m_byLayer[s]], [&](std::size_t i, float w) { m_weight[i] += w; });
                }
            }
        });
    }
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 256), [&](const auto& r) {
        for (std::size_t k = r.begin(); k != r.end(); ++k) {
            glm::vec3 sum(0.0f);
            ForEachReceivingPoint(m_grid, position[k], [&](std::size_t i, float w) {
                sum += m_gradient[i] * (w / m_weight[i]);  // m_weight[i] ≥ w > 0
            });
            rate[k] = sum;
        }
    });
}

}  // namespace vorton
