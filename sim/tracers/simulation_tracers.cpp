#include "sim/simulation.h"
#include "sim/simulation_internals.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "sim/numerics/step_helpers.h"
#include "sim/tracers/tracer_simd.h"

// The tracers' half of Simulation: their nested velocity grid (fitting,
// which points to evaluate, interpolation) and the two Heun passes that move
// them.

namespace vorton {

using namespace step;

void Simulation::TracerGridVelocity(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) const {
    if (!m_cacheValid || m_gridPacked0.empty()) {
        std::fill(velocity.begin(), velocity.end(), m_setup.params.freeStream);
        return;
    }
    const NestedGridSampler sampler(m_velocityGrid);
    for (std::size_t i = 0; i < points.size(); ++i) {
        velocity[i] = sampler.Sample(m_gridPacked0.data(), points[i]) + m_setup.params.freeStream;
    }
}

NestedGrid Simulation::TracerGrid(const Aabb& vortonBox, const Aabb& tracerBox) const {
    NestedGrid grid;
    grid.base = FitVortonGrid(vortonBox);
    grid.levels = grid.LevelsToCover(tracerBox);
    return grid;
}

std::size_t Simulation::WholeLevelPoints(const NestedGrid& grid) const {
    // Split into groups, the grid solver has no velocity on the whole level.
    return SolvesOnItsGrid(m_activeSolver) && m_clusterCell == 0.0f ? grid.LevelPointCount() : 0;
}

void Simulation::SetExternalTracers(const Aabb& box, int stepsBehind, const NestedGrid* cellsGrid,
                                    std::span<const std::uint8_t> cells) {
    // The first time, the cached grid covers only the own tracers: build it anew.
    if (!m_externalTracers) m_cacheValid = false;
    m_externalTracers = true;
    m_externalBox = box;
    m_externalStepsBehind = std::clamp(stepsBehind, 0, 1 << 20);
    m_externalCells.clear();
    // Cells name where tracers are only within the grid: one beyond its coarsest level (it
    // outran the reach) is known by its box alone, and then every point is evaluated.
    const bool covered = cellsGrid != nullptr && (box.Empty() || cellsGrid->LevelsToCover(box) <= cellsGrid->levels);
    if (covered && cells.size() == cellsGrid->PointCount()) {
        m_externalCellsGrid = *cellsGrid;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (cells[c]) m_externalCells.push_back(c);
        }
    }
}

void Simulation::MarkExternalCells(const NestedGrid& grid, float grow, std::span<std::uint8_t> cells) const {
    // A point belongs to the finest level whose box holds it, so the cells a box of points
    // can fall in are those it overlaps on each level, from level 0 out to the first level
    // whose next finer one holds the whole box. Beyond the coarsest level, points take its
    // boundary cells (clamped, as the sampler clamps).
    const NestedGrid& source = m_externalCellsGrid;
    const glm::ivec3 n = grid.base.points;
    const std::size_t sy = std::size_t(n.x), sz = sy * std::size_t(n.y), perLevel = grid.LevelPointCount();
    std::vector<GridGeometry> levels;
    for (int l = 0; l < grid.levels; ++l) levels.push_back(grid.Level(l));
    ParallelFor(m_externalCells.size(), [&](std::size_t e) {
        const std::size_t index = m_externalCells[e];
        const int sourceLevel = int(index / source.LevelPointCount());
        const glm::vec3 lower = source.Position(index);
        const glm::vec3 size = source.base.spacing * std::ldexp(1.0f, sourceLevel);
        const glm::vec3 lo = lower - glm::vec3(grow), hi = lower + size + glm::vec3(grow);
        for (int l = 0; l < grid.levels; ++l) {
            if (l > 0) {
                const GridGeometry& finer = levels[std::size_t(l - 1)];
                if (glm::all(glm::greaterThanEqual(lo, finer.origin)) && glm::all(glm::lessThanEqual(hi, finer.Max()))) break;
            }
            const GridGeometry& g = levels[std::size_t(l)];
            const glm::ivec3 top = n - 2;
            const glm::ivec3 first = glm::clamp(glm::ivec3(glm::floor((lo - g.origin) / g.spacing)), glm::ivec3(0), top);
            const glm::ivec3 last = glm::clamp(glm::ivec3(glm::floor((hi - g.origin) / g.spacing)), glm::ivec3(0), top);
            for (int k = first.z; k <= last.z; ++k) {
                for (int j = first.y; j <= last.y; ++j) {
                    for (int i = first.x; i <= last.x; ++i) {
                        MarkByte(cells[std::size_t(l) * perLevel + std::size_t(i) + std::size_t(j) * sy + std::size_t(k) * sz]);
                    }
                }
            }
        }
    });
}

Aabb Simulation::ExternalTracerBox(float reach, int extraSteps) const {
    if (!m_externalTracers || m_externalBox.Empty()) return Aabb{};
    const float grow = float(m_externalStepsBehind + extraSteps) * reach;
    return Aabb{m_externalBox.min - glm::vec3(grow), m_externalBox.max + glm::vec3(grow)};
}

void Simulation::MarkNeeded(const NestedGrid& grid, std::span<const glm::vec3> points, float externalGrow) {
    // Only the corners of cells that hold a tracer are ever interpolated from;
    // much of every level is empty (two separated drops, a ring and its wake).
    // Every writer stores the same 1, so the mask does not depend on the order.
    m_gridMissing.assign(grid.PointCount(), 0);
    const NestedGridSampler sampler(grid);
    ParallelFor(points.size(), [&](std::size_t i) {
        GridSampler::Float4 f;
        const std::size_t o = sampler.Cell(points[i], &f);
        MarkByte(m_gridMissing[o]);
    });
    if (m_externalTracers) {
        if (m_externalCells.empty()) {
            m_gridNeeded.assign(grid.PointCount(), 1);
            return;
        }
        MarkExternalCells(grid, externalGrow, m_gridMissing);
    }
    ExpandCellMask(grid, m_gridMissing, m_gridNeeded, WholeLevelPoints(grid));
}

namespace {
/// Indices in [begin, end) whose mask byte is set, in increasing order
/// (parallel: counts per block, then each block writes its own range; a task
/// per block of kBlock bytes, which ParallelFor's element grain would have run
/// all on one thread).
void MaskedIndices(std::span<const std::uint8_t> mask, std::size_t begin, std::size_t end,
                   std::vector<std::size_t>& out) {
    constexpr std::size_t kBlock = 1 << 14;
    const std::size_t blocks = end > begin ? (end - begin + kBlock - 1) / kBlock : 0;
    std::vector<std::size_t> offset(blocks + 1, 0);
    ParallelFor(blocks, [&](std::size_t b) {
        std::size_t n = 0;
        for (std::size_t i = begin + b * kBlock; i < std::min(end, begin + (b + 1) * kBlock); ++i) n += mask[i] != 0;
        offset[b + 1] = n;
    }, 1);
    for (std::size_t b = 0; b < blocks; ++b) offset[b + 1] += offset[b];
    out.resize(offset[blocks]);
    ParallelFor(blocks, [&](std::size_t b) {
        std::size_t n = offset[b];
        for (std::size_t i = begin + b * kBlock; i < std::min(end, begin + (b + 1) * kBlock); ++i) {
            if (mask[i]) out[n++] = i;
        }
    }, 1);
}
}  // namespace

void Simulation::EvaluateGridPoints(const NestedGrid& grid, std::span<const std::uint8_t> mask,
                                    std::vector<GridSampler::Float4>& packed, bool wholeLevels) {
    // The solver must hold the sources of the state the grid belongs to.
    // Level 0 comes whole from the grid solver's own grid (it is that grid)
    // when it has one; masked points of the others are asked of the solver
    // (its far field for points off the vortons' grid).
    packed.resize(grid.PointCount());
    VelocitySolver& solver = SolverFor(false);
    const std::size_t whole = WholeLevelPoints(grid);
    if (whole > 0 && wholeLevels) {
        const std::span<const glm::vec3> solved = solver.GridVelocity();
        const bool have = solved.size() == whole;
        ParallelFor(whole, [&](std::size_t idx) {
            const glm::vec3 v = have ? solved[idx] : glm::vec3(0.0f);
            packed[idx] = GridSampler::Float4{v.x, v.y, v.z, 0.0f};
        });
        if (!m_bodies.empty()) {
            m_gridPoints.resize(whole);
            m_gridPointVelocity.assign(whole, glm::vec3(0.0f));
            ParallelFor(whole, [&](std::size_t idx) { m_gridPoints[idx] = grid.Position(idx); });
            AddBodyVelocity(m_gridPoints, m_gridPointVelocity, {}, {});
            ParallelFor(whole, [&](std::size_t idx) {
                const glm::vec3 v = m_gridPointVelocity[idx];
                packed[idx] += GridSampler::Float4{v.x, v.y, v.z, 0.0f};
            });
        }
    }
    MaskedIndices(mask, whole, grid.PointCount(), m_gridIndices);
    const std::size_t asked = m_gridIndices.size();
    m_work.solverPoints += asked;
    m_gridPoints.resize(asked);
    m_gridPointVelocity.resize(asked);
    ParallelFor(asked, [&](std::size_t n) { m_gridPoints[n] = grid.Position(m_gridIndices[n]); });
    if (m_vortons.Size() > 0 && asked > 0) {
        solver.Evaluate(m_gridPoints, m_gridPointVelocity);
    } else {
        std::fill(m_gridPointVelocity.begin(), m_gridPointVelocity.end(), glm::vec3(0.0f));
    }
    AddBodyVelocity(m_gridPoints, m_gridPointVelocity, {}, {});
    ParallelFor(asked, [&](std::size_t n) {
        const glm::vec3 v = m_gridPointVelocity[n];
        packed[m_gridIndices[n]] = GridSampler::Float4{v.x, v.y, v.z, 0.0f};
    });
}

void Simulation::FillMissingCorners(std::span<const std::uint8_t> missing, bool any) {
    if (!any) return;
    // Only the missing points are written: the others keep their values.
    EvaluateGridPoints(m_nextGrid, missing, m_gridPacked1, false);
    for (std::size_t idx = 0; idx < missing.size(); ++idx) m_gridNeeded[idx] |= missing[idx];
}

bool Simulation::TracersMoveAfterCorrector() const {
    return !m_bodies.empty() || glm::dot(m_setup.params.freeStream, m_setup.params.freeStream) > 0.0f;
}

void Simulation::PredictTracers(float dt, float stepDt) {
    const SimParams& p = m_setup.params;
    const std::size_t nt = m_tracers.Size();
    if (nt == 0 && !m_externalTracers) return;
    // Tracer predictor, one pass: Euler to t + dt with the velocity of the
    // cached grid (parked in tracers.velocity), marking the cells of the
    // predicted positions in the next grid. That grid must be fixed before the
    // pass: its levels cover the tracers grown by how far any can move,
    // dt·max|u|, since trilinear interpolation never exceeds the largest grid
    // value; its level 0 is the grid of the vortons as they are now.
    const float maxGrid2 = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, m_gridPacked0.size(), 1 << 14), 0.0f,
        [&](const tbb::blocked_range<std::size_t>& r, float m) {
            for (std::size_t idx = r.begin(); idx != r.end(); ++idx) {
                if (!m_gridNeeded[idx]) continue;
                const GridSampler::Float4 v = m_gridPacked0[idx];
                m = std::max(m, v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            }
            return m;
        },
        [](float a, float b) { return std::max(a, b); });
    const float speed = std::sqrt(maxGrid2) + glm::length(p.freeStream);
    const float reach = dt * speed;
    // Outside tracers: a whole step's reach per step behind, and for this one (in
    // substeps, they have also taken the substeps before this one).
    const float externalReach = std::max(dt, stepDt) * speed;
    Aabb grown = m_tracerBounds;
    if (!grown.Empty()) grown = Aabb{grown.min - glm::vec3(reach), grown.max + glm::vec3(reach)};
    grown.Grow(ExternalTracerBox(externalReach, 1));
    m_nextGrid = TracerGrid(BoundsOf(m_vortons.position), grown);
    m_gridCells.assign(m_nextGrid.PointCount(), 0);
    if (nt > 0) {
        const NestedGridSampler sample0(m_velocityGrid), sample1(m_nextGrid);
        const glm::vec3 freeStream = p.freeStream;
        glm::vec3* position = m_tracers.position.data();
        glm::vec3* velocity = m_tracers.velocity.data();
        std::uint8_t* cells = m_gridCells.data();
        const GridSampler::Float4* packed0 = m_gridPacked0.data();
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, nt, 4096), [&](const tbb::blocked_range<std::size_t>& r) {
            // Eight at a time where the CPU allows, the rest here: the same bits either way.
            std::size_t i = m_tracerSimd ? PredictTracersSimd(sample0, packed0, sample1, cells, freeStream, dt, position,
                                                              velocity, r.begin(), r.end())
                                         : r.begin();
            for (; i != r.end(); ++i) {
                const glm::vec3 u0 = sample0.Sample(packed0, position[i]) + freeStream;
                velocity[i] = u0;
                GridSampler::Float4 f;
                const std::size_t o = sample1.Cell(position[i] + dt * u0, &f);
                MarkByte(cells[o]);
            }
        });
    }
    if (m_externalTracers) {
        // Where the outside tracers are is known by their cells at the box's time, or not at
        // all (every point). Twice the reach: their corrector also samples this grid's
        // values, which may be faster than the last grid's, and the next step starts from it.
        if (m_externalCells.empty()) {
            m_gridNeeded.assign(m_nextGrid.PointCount(), 1);
            return;
        }
        MarkExternalCells(m_nextGrid, 2.0f * float(m_externalStepsBehind + 1) * externalReach, m_gridCells);
    }
    ExpandCellMask(m_nextGrid, m_gridCells, m_gridNeeded, WholeLevelPoints(m_nextGrid));
}

Simulation::TracerPass Simulation::CorrectTracers(float dt) {
    const SimParams& p = m_setup.params;
    const std::size_t nt = m_tracers.Size();
    // Tracer corrector, one pass: trapezoid from the predicted point (the
    // same arithmetic as the predictor's, so the same point), bounds of the
    // new positions, and the corners of their cells the mask missed.
    struct TracerScan {
        Scan scan;
        Aabb box;
        bool missing = false;
    };
    m_gridMissing.assign(nt > 0 ? m_nextGrid.PointCount() : 0, 0);
    const bool checkMissing = !TracersMoveAfterCorrector();
    TracerScan tracerScan;
    {
        const NestedGridSampler sample1(m_nextGrid);
        const glm::vec3 freeStream = p.freeStream;
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
                std::size_t i = m_tracerSimd ? CorrectTracersSimd(sample1, packed1, freeStream, dt, position, velocity,
                                                                  r.begin(), r.end(), &simd,
                                                                  checkMissing ? needed : nullptr, missing, &simdMissing)
                                             : r.begin();
                acc.scan.maxNorm2 = std::max(acc.scan.maxNorm2, simd.maxNorm2);
                acc.scan.nonFinite += simd.nonFinite;
                acc.box.Grow(simd.box);
                acc.missing = acc.missing || simdMissing;
                for (; i != r.end(); ++i) {
                    const glm::vec3 u0 = velocity[i];
                    GridSampler::Float4 f;
                    const std::size_t o = sample1.Cell(position[i] + dt * u0, &f);
                    const glm::vec3 u = 0.5f * (u0 + sample1.SampleCell(packed1, o, f) + freeStream);
                    const glm::vec3 x = position[i] + dt * u;
                    velocity[i] = u;
                    position[i] = x;
                    acc.scan.Add(u);
                    if (!Finite(x)) {
                        ++acc.scan.nonFinite;
                        continue;
                    }
                    acc.box.Grow(x);
                    if (!checkMissing) continue;  // checked after the bodies and emitters moved them
                    const std::size_t o1 = sample1.Cell(x, &f);
                    if (o1 == o) continue;
                    for (int c = 0; c < 8; ++c) {
                        const std::size_t idx = o1 + sample1.CornerOffset(c);
                        if (needed[idx]) continue;
                        MarkByte(missing[idx]);
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

Simulation::MovedTracers Simulation::ScanMovedTracers() {
    // Most tracers end in the cell they were predicted in, whose corners the
    // mask holds: one byte says so. The others check their corners.
    struct Partial {
        Aabb box;
        bool missing = false;
    };
    const NestedGridSampler sample1(m_nextGrid);
    const std::uint8_t* cells = m_gridCells.data();
    const std::uint8_t* needed = m_gridNeeded.data();
    std::uint8_t* missing = m_gridMissing.data();
    const glm::vec3* position = m_tracers.position.data();
    const Partial total = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, m_tracers.Size(), 4096), Partial{},
        [&](const tbb::blocked_range<std::size_t>& r, Partial acc) {
            std::size_t i = m_tracerSimd ? ScanMovedTracersSimd(sample1, cells, needed, missing, position, r.begin(),
                                                                r.end(), &acc.box, &acc.missing)
                                         : r.begin();
            for (; i != r.end(); ++i) {
                const glm::vec3 x = position[i];
                if (Finite(x)) acc.box.Grow(x);
                GridSampler::Float4 f;
                const std::size_t o = sample1.Cell(x, &f);
                if (cells[o]) continue;
                for (int c = 0; c < 8; ++c) {
                    const std::size_t idx = o + sample1.CornerOffset(c);
                    if (needed[idx]) continue;
                    MarkByte(missing[idx]);
                    acc.missing = true;
                }
            }
            return acc;
        },
        [](Partial a, const Partial& b) {
            a.box.Grow(b.box);
            a.missing = a.missing || b.missing;
            return a;
        });
    return MovedTracers{total.box, total.missing};
}

}  // namespace vorton
