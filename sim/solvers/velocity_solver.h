#pragma once
/// \file
/// Velocity from vorticity behind one seam: direct summation, the treecode
/// and the FFT grid solver answer the same questions, and Simulation picks
/// one by name (MakeVelocitySolver) instead of branching at every use.

#include <cstddef>
#include <limits>
#include <memory>
#include <span>

#include <glm/vec3.hpp>

#include "sim/params.h"
#include "sim/numerics/uniform_grid.h"
#include "sim/solvers/vorton_sources.h"

namespace vorton {

class GridKernelStore;

/// The live settings a solver reads at each Load.
struct SolverSettings {
    float treeTheta = 0.6f;  ///< treecode opening angle, clamped to [0.01, 1]
    int treeLeafSize = 16;   ///< vortons per treecode leaf at most, ≥ 1
    /// Grid solver only. 0: one grid, the `vortonGrid` given to Load. > 0
    /// (m): the vortons are split into groups separated by empty space
    /// (SplitIntoClusters, vorton_clusters.h, with this cell and a margin of
    /// 2.5 cells), each solved on its own grid of this cell; what a group
    /// induces elsewhere comes from a treecode over that group. GridVelocity
    /// is then empty.
    float clusterCell = 0.0f;
    /// Grid solver only: where its kernel transforms are kept and found,
    /// shared with the other solvers given it (grid_solver.h); null: each
    /// grid solver keeps its own.
    std::shared_ptr<GridKernelStore> kernelStore;
    /// Grid solver with clusterCell only: the most points one group's grid
    /// and all the groups' grids together may have (GroupGridsFit). Auto
    /// chose the split for the vortons at the step's start; the vortons a
    /// load gets have moved since (a substep, the remesh), and a split of
    /// them that passes either bound is solved by the treecode instead, for
    /// that load.
    std::size_t clusterGridPoints = std::numeric_limits<std::size_t>::max();
    std::size_t clusterTotalPoints = std::numeric_limits<std::size_t>::max();
};

/// The regularised Biot–Savart sum v(x) = (1/4π) Σ α_k × r/(|r|²+σ_k²)^{3/2}
/// (biot_savart.h) over loaded sources, at the sources (with the stretching
/// term) and at any other points. Gourlay part 3; Cottet & Koumoutsakos (2000).
/// Implementations are deterministic: results do not depend on the thread count.
class VelocitySolver {
public:
    virtual ~VelocitySolver() = default;
    /// Direct, Tree or Grid.
    virtual Solver Kind() const = 0;
    /// Takes N sources for the evaluations that follow (the spans must stay
    /// valid until the next Load). `vortonGrid` is the grid fitted to the
    /// sources (Simulation::FitVortonGrid): the grid solver solves on it, the
    /// others ignore it. `stretching`: EvaluateAtSources will be asked for the
    /// stretching term.
    virtual void Load(const VortonSources& sources, const GridGeometry& vortonGrid, const SolverSettings& settings,
                      bool stretching) = 0;
    /// Velocity (N, m/s) and, when omega is not empty, the stretching
    /// (∇v)ᵀω (N, 1/s²) at the sources themselves, ω the sources' vorticity.
    virtual void EvaluateAtSources(std::span<const glm::vec3> omega, std::span<glm::vec3> velocity,
                                   std::span<glm::vec3> stretch) = 0;
    /// Velocity (m/s) at M points anywhere, near the sources or far from them.
    virtual void Evaluate(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) = 0;
    /// The velocity on every point of the loaded vortonGrid when the solver
    /// computes it anyway (the grid solver), else empty.
    virtual std::span<const glm::vec3> GridVelocity() const { return {}; }
    /// Points of the grids the last Load solved on (Σ over the groups' grids
    /// when split), 0 for a solver with no grid: the work counted in
    /// Simulation::StepWork.
    virtual std::size_t SolvedGridPoints() const { return 0; }
};

/// A new solver of the given kind (Direct, Tree or Grid; Auto is resolved by
/// the caller).
std::unique_ptr<VelocitySolver> MakeVelocitySolver(Solver kind);

/// True for a solver that computes the velocity on every point of the
/// vortons' grid anyway (the grid solver): the tracers' grid level 0 then
/// comes whole, with no mask of needed points.
bool SolvesOnItsGrid(Solver kind);

}  // namespace vorton
