#pragma once
/// \file
/// The vorton fluid simulation: one Step() advances vortons and tracers by dt.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aabb.h"
#include "baroclinic.h"
#include "grid_solver.h"
#include "params.h"
#include "particles.h"
#include "pse.h"
#include "rigid_body.h"
#include "seeding.h"
#include "stratification.h"
#include "treecode.h"
#include "uniform_grid.h"

namespace vorton {

/// Timed stages of a step, in order.
enum class Stage : int { Remesh, Bounds, Tree, Velocity, VelocityGrid, Baroclinic, Diffusion, Advection, Bodies, Count };
inline constexpr int kStageCount = int(Stage::Count);
/// Lower-case stage name as used in `ms_<stage>` columns: bounds, tree, velocity, ...
std::string_view StageName(Stage stage);

/// Wall-clock milliseconds of each stage of the last step.
using StageTimes = std::array<double, kStageCount>;

/// Outcome of a step. On a blow-up (a non-finite value, or a vorton faster
/// than params.maxSpeed) `ok` is false and `stage`/`message` say where.
struct StepReport {
    bool ok = true;
    std::int64_t step = 0;  ///< index of the step that was attempted
    std::string stage;      ///< StageName of the failing stage
    std::string message;
};

/// Conserved and monitored quantities of the vortons (Cottet & Koumoutsakos §1.4).
struct Diagnostics {
    glm::dvec3 impulse{0.0};      ///< linear impulse I = ½ Σ x_k × α_k, m⁴/s
    glm::dvec3 circulation{0.0};  ///< total strength Σ α_k, m³/s
    double excessMass = 0.0;      ///< Σ δρ_k V_k, kg
    double maxSpeed = 0.0;        ///< largest vorton or tracer speed of the last step, m/s
};

/// Vortex particle method after Gourlay, *Fluid Simulation for Video Games*
/// parts 3, 4, 8 and 9, with the Boussinesq baroclinic term (METHOD.md):
///
///     Dω/Dt = (ω·∇)v + ν∇²ω + (∇ρ′ × g)/ρ₀
///
/// Each Step(): remeshing every remeshEvery steps → bounds → velocity and stretching at the vortons (treecode or
/// direct) and on a velocity grid for tracers → baroclinic generation from a
/// cloud-in-cell density grid → PSE diffusion → Heun (RK2) advection of
/// vortons, their vorticity and tracers, which re-evaluates the velocity at
/// the predicted positions. Every stage is a oneTBB loop run in the caller's
/// task arena; results are bitwise identical for any thread count.
class Simulation {
public:
    /// Seeds vortons and tracers from the setup.
    explicit Simulation(SceneSetup setup);

    /// Re-seeds from the current setup (counts and seed apply here) and zeroes time.
    void Reset();
    /// Advances by params.dt. Parameters and groups may be edited between steps.
    StepReport Step();

    SceneSetup& Setup() { return m_setup; }
    const SceneSetup& Setup() const { return m_setup; }
    SimParams& Params() { return m_setup.params; }
    const SimParams& Params() const { return m_setup.params; }
    const Vortons& GetVortons() const { return m_vortons; }
    /// For tests and tools; editing invalidates the velocities cached from the last step.
    Vortons& MutableVortons() {
        m_cacheValid = false;
        return m_vortons;
    }
    const Tracers& GetTracers() const { return m_tracers; }
    Tracers& MutableTracers() {
        m_cacheValid = false;
        m_tracerBoundsValid = false;
        return m_tracers;
    }

    double Time() const { return m_time; }             ///< simulated time, s
    std::int64_t StepCount() const { return m_steps; }  ///< steps taken since reset
    Aabb Bounds() const { return m_bounds; }           ///< vortons ∪ tracers at the start of the last step
    const StageTimes& LastStageTimes() const { return m_stageMs; }
    double LastStepMs() const { return m_stepMs; }
    const GridGeometry& VelocityGrid() const { return m_velocityGrid; }

    /// Rigid spheres, in the order of Setup().bodies (Gourlay parts 4 and 9).
    std::span<const BodyState> Bodies() const { return m_bodies; }
    /// The state of body i, to edit between steps (the panel, tests).
    BodyState& MutableBody(std::size_t i);
    /// Holds body i at `target` (m) from the next step on: it moves there in
    /// one step as a kinematic body, and the fluid feels it.
    void GrabBody(std::size_t i, glm::vec3 target);
    /// Lets body i go; it keeps the velocity it was last moved with (a throw).
    void ReleaseBody(std::size_t i);
    /// Momentum the fluid received from the bodies in the last step, N·s: Σ
    /// m_k(v_s − u_k) over the vortons that entered a body (parcel mass
    /// m_k = ρ₀V_k, u_k its velocity, v_s the body's surface velocity at the
    /// contact point). The bodies received the opposite.
    glm::dvec3 LastCollisionImpulse() const { return m_collisionImpulse; }

    /// Ambient density ρ̄(z) = ρ₀ + Δ(z), kg/m³: ρ₀ plus the stratified
    /// profile of the layer groups (METHOD.md "Stratified ambient").
    float AmbientDensity(glm::vec3 x) const;

    /// Density deviation δρ (kg/m³) from the ambient profile of vorton k (its
    /// group's times its mass fraction, 0 for the halo; for layer groups, the
    /// profile at its birth height minus the profile where it is) and of tracer
    /// i (its group's; a layer's own deviation for its tracers).
    float VortonDensityDeviation(std::size_t k) const;
    float TracerDensityDeviation(std::size_t i) const;

    Diagnostics ComputeDiagnostics() const;

    /// The solver in use: params.solver, with Auto resolved by the vorton count.
    Solver ActiveSolver() const { return ResolveSolver(m_setup.params.solver, m_vortons.Size()); }

    /// Vorton spacing h (m): the seeding lattice's, which sets the density
    /// grid and the subgrid length scale.
    float Spacing() const;

    /// Velocity (m/s) at arbitrary points from the current vortons with the
    /// current solver; fills velocity (same length as points).
    void VelocityAt(std::span<const glm::vec3> points, std::span<glm::vec3> velocity);
    /// Velocity (m/s) the tracers at `points` would be moved with next: the
    /// cached velocity grid of the current state, trilinearly interpolated
    /// (plus the free stream). Only valid at the current tracer positions and
    /// after a step (elsewhere the grid may be unevaluated); for measuring the
    /// grid's interpolation error.
    void TracerGridVelocity(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) const;
    /// The same by direct summation (the reference).
    void DirectVelocityAt(std::span<const glm::vec3> points, std::span<glm::vec3> velocity);

private:
    void LoadSources(std::span<const glm::vec3> position, std::span<const glm::vec3> vorticity);
    /// Velocity and stretching at the vortons. With the grid solver the
    /// solve runs on `solverGrid` if given (it then also gives the tracer grid),
    /// else on a grid fitted to the vortons.
    void EvaluateVortons(std::span<const glm::vec3> position, std::span<const glm::vec3> vorticity,
                         std::span<glm::vec3> velocity, std::span<glm::vec3> stretch, double* treeMs,
                         double* velocityMs, const GridGeometry* solverGrid = nullptr);
    /// The tracer velocity grid over `box`: cells of velocityGridSpacing·h, at most velocityGridCells.
    GridGeometry FitVelocityGrid(const Aabb& box) const;
    /// Marks in m_gridNeeded the corners of the cells holding `points` (cleared first).
    void MarkNeeded(const GridGeometry& grid, std::span<const glm::vec3> points);
    /// Velocity at the grid points whose `mask` byte is set; the others are left as they are.
    void EvaluateGridPoints(const GridGeometry& grid, std::span<const std::uint8_t> mask,
                            std::span<glm::vec3> velocity);
    /// After tracers moved: evaluates the corners of their cells that the
    /// mask of the last grid evaluation missed, so the next step's
    /// interpolation reads no unevaluated point.
    void FillMissingCorners(std::span<const std::uint8_t> missing, bool any);
    // The tracers' Heun passes (simulation_tracers.cpp).
    /// Bodies or a free stream move tracers after the corrector (collisions, emitters).
    bool TracersMoveAfterCorrector() const;
    /// Predictor: fixes m_nextGrid, parks u0 in tracers.velocity, marks the cells the next grid needs.
    void PredictTracers(float dt);
    /// What the corrector gathers: largest |u|², non-finite count, bounds, missed corners.
    struct TracerPass {
        float maxNorm2 = 0.0f;
        std::size_t nonFinite = 0;
        Aabb box;
        bool missing = false;
    };
    /// Corrector: moves the tracers to t + dt (trapezoid) on m_nextGrid.
    TracerPass CorrectTracers(float dt);
    /// After collisions and emitters moved tracers: marks the corners their cells miss; true if any.
    bool MarkMovedTracersCorners();

    /// What the cached first-stage velocities depend on besides the state.
    struct CacheKey {
        Solver solver;
        float theta;
        int leafSize;
        int gridCells;
        float gridSpacing;
        std::size_t vortons, tracers;
        bool operator==(const CacheKey&) const = default;
    };
    CacheKey CurrentCacheKey() const;
    void BaroclinicRates();
    // Bodies, stratification and emitters (simulation_bodies.cpp).
    void SyncBodies();
    void AddBodyVelocity(std::span<const glm::vec3> points, std::span<glm::vec3> velocity,
                         std::span<const glm::vec3> vorticity, std::span<glm::vec3> stretch) const;
    void AddBodyVelocityOnGrid(const GridGeometry& grid, std::span<const std::uint8_t> mask,
                               std::span<glm::vec3> velocity) const;
    float FluidDensityAround(std::size_t body) const;
    void MoveBodies(float dt);
    void CollideVortons(float dt);
    void CollideTracers();
    void EmitVortons();
    void EmitTracers();
    double Elapsed(std::int64_t& tick);

    SceneSetup m_setup;
    std::vector<BodyState> m_bodies;
    glm::dvec3 m_collisionImpulse{0.0};
    Vortons m_vortons;
    Tracers m_tracers;
    double m_time = 0.0;
    std::int64_t m_steps = 0;
    Aabb m_bounds;
    StageTimes m_stageMs{};
    double m_stepMs = 0.0;
    double m_lastMaxSpeed = 0.0;

    Lattice m_lattice;  // the seeding lattice, reused by remeshing
    Treecode m_tree;
    GridSolver m_gridSolver;           // the tracer grid's solves (and VelocityAt)
    GridSolver m_predictorGridSolver;  // the predictor stage's, on the vortons' own grid: each keeps its FFT
                                       // plans and kernel transform, which alternating sizes would rebuild
    ParticleStrengthExchange m_pse;
    GridGeometry m_velocityGrid;  // geometry of m_gridVelocity0
    GridGeometry m_nextGrid;      // geometry of m_gridVelocity1
    bool m_cacheValid = false;    // m_velocity0, m_stretch0, m_gridVelocity0 belong to the current state
    CacheKey m_cacheKey{};
    BaroclinicGenerator m_baroclinicGenerator;
    bool m_densityGridValid = false;  // m_baroclinicGenerator's grid is this step's
    StratifiedProfile m_profile;
    std::vector<int> m_contactBody;  // per vorton: the body it touched this step, or −1
    std::vector<glm::vec3> m_contactImpulse, m_contactAngular;

    // Per-step scratch, kept between steps so the step does not allocate once sizes settle.
    std::vector<glm::vec3> m_alpha;
    std::vector<float> m_sigma2;
    std::vector<glm::vec3> m_velocity0, m_velocity1, m_stretch0, m_stretch1, m_nextVelocity, m_nextStretch;
    std::vector<glm::vec3> m_baroclinic, m_diffusion;  // dω/dt and dα/dt
    std::vector<glm::vec3> m_predictedPosition, m_predictedVorticity;
    std::vector<float> m_deviationMass;
    std::vector<float> m_eddyViscosity;
    std::vector<glm::vec3> m_gridPoints, m_gridVelocity0, m_gridVelocity1;
    std::vector<GridSampler::Float4> m_gridPacked0, m_gridPacked1;  // the same, padded for GridSampler
    Aabb m_tracerBounds;              // of the tracers now (finite ones)
    bool m_tracerBoundsValid = false;
    std::vector<std::uint8_t> m_gridNeeded;   // grid points some tracer interpolates from
    std::vector<std::uint8_t> m_gridMissing;  // corners of final tracer cells the mask missed
    std::vector<std::size_t> m_gridIndices;  // direct solver: the needed points' indices
    std::vector<glm::vec3> m_gridPointVelocity;
};

}  // namespace vorton
