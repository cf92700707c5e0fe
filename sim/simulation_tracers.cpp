#include "simulation.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "step_helpers.h"
#include "tracer_simd.h"

// The tracers' half of Simulation: their velocity grid (fitting, which points
// to evaluate, interpolation) and the two Heun passes that move them.

namespace vorton {

using namespace step;

void Simulation::TracerGridVelocity(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) const {
    if (!m_cacheValid || m_gridPacked0.empty()) {
        std::fill(velocity.begin(), velocity.end(), m_setup.params.freeStream);
        return;
    }
    const GridSampler sampler(m_velocityGrid);
    for (std::size_t i = 0; i < points.size(); ++i) {
        velocity[i] = sampler.Sample(m_gridPacked0.data(), points[i]) + m_setup.params.freeStream;
    }
}


GridGeometry Simulation::FitVelocityGrid(const Aabb& box) const {
    const SimParams& p = m_setup.params;
    // The box holds every vorton and tracer; the margin of 2.5 cells keeps
    // the grid solver's four-point stencils around every vorton inside (the
    // tracers interpolate within the box anyway).
    const float sigma = m_vortons.Size() ? m_vortons.radius[0] : 0.0f;
    const std::size_t maxPoints = std::size_t(std::max(512, p.velocityGridCells));
    const float h = Spacing();
    if (!(h > 0.0f)) return FitGrid(box, sigma, maxPoints);
    float cell = std::max(0.05f, p.velocityGridSpacing) * h;
    for (;;) {
        const GridGeometry g = FitGridWithCell(box, 2.5f * cell, cell, std::numeric_limits<std::size_t>::max());
        if (g.PointCount() <= maxPoints) return g;
        cell *= 1.1f;
    }
}

namespace {
/// Point mask from a cell mask (cells[o] set for the cell whose lower corner
/// is point o): a point is needed if one of the up to 8 cells around it is.
void ExpandCellMask(const GridGeometry& grid, std::span<const std::uint8_t> cells, std::vector<std::uint8_t>& points) {
    const glm::ivec3 n = grid.points;
    points.resize(grid.PointCount());
    const std::size_t sy = std::size_t(n.x), sz = sy * std::size_t(n.y);
    tbb::parallel_for(tbb::blocked_range<int>(0, n.z), [&](const tbb::blocked_range<int>& r) {
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
}  // namespace

void Simulation::MarkNeeded(const GridGeometry& grid, std::span<const glm::vec3> points) {
    // Only the corners of cells that hold a tracer are ever interpolated from;
    // much of the box is empty (two separated drops, a ring and its wake).
    // Every writer stores the same 1, so the mask does not depend on the order.
    m_gridMissing.assign(grid.PointCount(), 0);
    const GridSampler sampler(grid);
    ParallelFor(points.size(), [&](std::size_t i) {
        GridSampler::Float4 f;
        const std::size_t o = sampler.Cell(points[i], &f);
        std::atomic_ref<std::uint8_t>(m_gridMissing[o]).store(1, std::memory_order_relaxed);
    });
    ExpandCellMask(grid, m_gridMissing, m_gridNeeded);
}

void Simulation::EvaluateGridPoints(const GridGeometry& grid, std::span<const std::uint8_t> mask,
                                    std::span<glm::vec3> velocity) {
    // Sources must be loaded (LoadSources) for the current vortons.
    if (ActiveSolver() == Solver::Grid) {
        // The last solve was on this grid: every point has its velocity.
        const std::span<const glm::vec3> solved = m_gridSolver.GridVelocity();
        if (m_vortons.Size() && solved.size() == velocity.size()) {
            std::copy(solved.begin(), solved.end(), velocity.begin());
        } else {
            std::fill(velocity.begin(), velocity.end(), glm::vec3(0.0f));
        }
    } else if (ActiveSolver() == Solver::Tree) {
        m_tree.EvaluateGrid(grid, velocity, std::clamp(m_setup.params.treeTheta, 0.01f, 1.0f), mask);
    } else {
        const std::size_t sy = std::size_t(grid.points.x), sz = sy * std::size_t(grid.points.y);
        m_gridPoints.clear();
        m_gridIndices.clear();
        for (std::size_t idx = 0; idx < grid.PointCount(); ++idx) {
            if (!mask[idx]) continue;
            const int i = int(idx % sy), j = int((idx / sy) % std::size_t(grid.points.y)), k = int(idx / sz);
            m_gridPoints.push_back(grid.Position(i, j, k));
            m_gridIndices.push_back(idx);
        }
        m_gridPointVelocity.resize(m_gridPoints.size());
        DirectVelocity(VortonSources{m_vortons.position, m_alpha, m_sigma2},
                       VelocityQuery{m_gridPoints, m_gridPointVelocity, {}, {}});
        for (std::size_t n = 0; n < m_gridIndices.size(); ++n) velocity[m_gridIndices[n]] = m_gridPointVelocity[n];
    }
    AddBodyVelocityOnGrid(grid, mask, velocity);
}

void Simulation::FillMissingCorners(std::span<const std::uint8_t> missing, bool any) {
    if (!any) return;
    EvaluateGridPoints(m_nextGrid, missing, m_gridVelocity1);
    for (std::size_t idx = 0; idx < missing.size(); ++idx) {
        if (!missing[idx]) continue;
        m_gridNeeded[idx] = 1;
        const glm::vec3 v = m_gridVelocity1[idx];
        m_gridPacked1[idx] = GridSampler::Float4{v.x, v.y, v.z, 0.0f};
    }
}

bool Simulation::TracersMoveAfterCorrector() const {
    return !m_bodies.empty() || glm::dot(m_setup.params.freeStream, m_setup.params.freeStream) > 0.0f;
}

void Simulation::PredictTracers(float dt) {
    const SimParams& p = m_setup.params;
    const std::size_t nt = m_tracers.Size();
    // Tracer predictor, one pass: Euler to t + dt with the velocity of the
    // cached grid (parked in tracers.velocity), marking the corners of the
    // predicted cells in the next grid. That grid must be fixed before the
    // pass: it covers the tracers grown by how far any can move, dt·max|u|,
    // since trilinear interpolation never exceeds the largest grid value.
    const std::span<const glm::vec3> grid0(m_gridVelocity0);
    Aabb nextBounds = BoundsOf(m_vortons.position);
    if (nt > 0) {
        float maxGrid2 = 0.0f;
        for (std::size_t idx = 0; idx < grid0.size(); ++idx) {
            if (m_gridNeeded.empty() || m_gridNeeded[idx]) maxGrid2 = std::max(maxGrid2, glm::dot(grid0[idx], grid0[idx]));
        }
        const float reach = dt * (std::sqrt(maxGrid2) + glm::length(p.freeStream));
        Aabb grown = m_tracerBounds;
        if (!grown.Empty()) grown = Aabb{grown.min - glm::vec3(reach), grown.max + glm::vec3(reach)};
        nextBounds.Grow(grown);
        m_nextGrid = FitVelocityGrid(nextBounds);
    }
    // The grid solver gives every grid point; the others evaluate only the
    // corners of cells that hold a predicted tracer.
    const bool masked = ActiveSolver() != Solver::Grid;
    {
        const GridSampler sample0(m_velocityGrid), sample1(m_nextGrid);
        const std::size_t points = nt > 0 ? m_nextGrid.PointCount() : 0;
        m_gridMissing.assign(points, 0);  // first the cells holding a predicted tracer
        const glm::vec3 u8 = p.freeStream;
        glm::vec3* position = m_tracers.position.data();
        glm::vec3* velocity = m_tracers.velocity.data();
        std::uint8_t* cells = m_gridMissing.data();
        const GridSampler::Float4* packed0 = m_gridPacked0.data();
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, nt, 4096), [&](const tbb::blocked_range<std::size_t>& r) {
            // Eight at a time where the CPU allows, the rest here: the same bits either way.
            std::size_t i = PredictTracersSimd(sample0, packed0, sample1, masked ? cells : nullptr, u8, dt, position,
                                               velocity, r.begin(), r.end());
            for (; i != r.end(); ++i) {
                const glm::vec3 u0 = sample0.Sample(packed0, position[i]) + u8;
                velocity[i] = u0;
                if (!masked) continue;
                GridSampler::Float4 f;
                const std::size_t o = sample1.Cell(position[i] + dt * u0, &f);
                std::atomic_ref<std::uint8_t>(cells[o]).store(1, std::memory_order_relaxed);
            }
        });
        if (points == 0) {
            m_gridNeeded.clear();
        } else if (masked) {
            ExpandCellMask(m_nextGrid, m_gridMissing, m_gridNeeded);
        } else {
            m_gridNeeded.assign(points, 1);
        }
    }
}

Simulation::TracerPass Simulation::CorrectTracers(float dt) {
    const SimParams& p = m_setup.params;
    const std::size_t nt = m_tracers.Size();
    const bool masked = ActiveSolver() != Solver::Grid;
    // Tracer corrector, one pass: trapezoid from the predicted point (the
    // same arithmetic as the predictor's, so the same point), bounds of the
    // new positions, and the corners of their cells the mask missed.
    struct TracerScan {
        Scan scan;
        Aabb box;
        bool missing = false;
    };
    m_gridMissing.assign(nt > 0 ? m_nextGrid.PointCount() : 0, 0);
    const bool checkMissing = masked && !TracersMoveAfterCorrector();
    TracerScan tracerScan;
    {
        const GridSampler sample1(m_nextGrid);
        const glm::vec3 u8 = p.freeStream;
        const GridSampler::Float4* packed1 = m_gridPacked1.data();
        glm::vec3* position = m_tracers.position.data();
        glm::vec3* velocity = m_tracers.velocity.data();
        const std::uint8_t* needed = m_gridNeeded.data();
        std::uint8_t* missing = m_gridMissing.data();
        tracerScan = tbb::parallel_reduce(
            tbb::blocked_range<std::size_t>(0, nt, 4096), TracerScan{},
            [&](const tbb::blocked_range<std::size_t>& r, TracerScan acc) {
                TracerPassScan simd;
                bool simdMissing = false;
                std::size_t i = CorrectTracersSimd(sample1, packed1, u8, dt, position, velocity, r.begin(), r.end(),
                                                   &simd, checkMissing ? needed : nullptr, missing, &simdMissing);
                acc.scan.maxNorm2 = std::max(acc.scan.maxNorm2, simd.maxNorm2);
                acc.scan.nonFinite += simd.nonFinite;
                acc.box.Grow(simd.box);
                acc.missing = acc.missing || simdMissing;
                for (; i != r.end(); ++i) {
                    const glm::vec3 u0 = velocity[i];
                    GridSampler::Float4 f;
                    const std::size_t o = sample1.Cell(position[i] + dt * u0, &f);
                    const glm::vec3 u = 0.5f * (u0 + sample1.SampleCell(packed1, o, f) + u8);
                    const glm::vec3 x = position[i] + dt * u;
                    velocity[i] = u;
                    position[i] = x;
                    acc.scan.Add(u);
                    if (!Finite(x)) {
                        ++acc.scan.nonFinite;
                        continue;
                    }
                    acc.box.Grow(x);
                    if (!checkMissing) continue;  // none, or checked after the bodies and emitters moved them
                    const std::size_t o1 = sample1.Cell(x, &f);
                    if (o1 == o) continue;
                    for (int c = 0; c < 8; ++c) {
                        const std::size_t idx = o1 + sample1.CornerOffset(c);
                        if (needed[idx]) continue;
                        std::atomic_ref<std::uint8_t>(missing[idx]).store(1, std::memory_order_relaxed);
                        acc.missing = true;
                    }
                }
                return acc;
            },
            [](TracerScan a, const TracerScan& b) {
                a.scan.maxNorm2 = std::max(a.scan.maxNorm2, b.scan.maxNorm2);
                a.scan.nonFinite += b.scan.nonFinite;
                a.box.Grow(b.box);
                a.missing = a.missing || b.missing;
                return a;
            });
    }
    return TracerPass{tracerScan.scan.maxNorm2, tracerScan.scan.nonFinite, tracerScan.box, tracerScan.missing};
}

bool Simulation::MarkMovedTracersCorners() {
    const std::size_t nt = m_tracers.Size();
    const bool masked = ActiveSolver() != Solver::Grid;
    const GridSampler sample1(m_nextGrid);
    const std::uint8_t* needed = m_gridNeeded.data();
    std::uint8_t* missing = m_gridMissing.data();
    std::atomic<bool> anyMissing{false};
    if (masked) ParallelFor(nt, [&](std::size_t i) {
        GridSampler::Float4 f;
        const std::size_t o = sample1.Cell(m_tracers.position[i], &f);
        for (int c = 0; c < 8; ++c) {
            const std::size_t idx = o + sample1.CornerOffset(c);
            if (needed[idx]) continue;
            std::atomic_ref<std::uint8_t>(missing[idx]).store(1, std::memory_order_relaxed);
            anyMissing.store(true, std::memory_order_relaxed);
        }
    });
    return anyMissing.load();
}

}  // namespace vorton
