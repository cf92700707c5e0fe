#pragma once
/// \file
/// The vorton fluid simulation: one Step() advances vortons and tracers by dt.

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <memory>

// The public surface of the simulation library: this header and what it
// includes (docs/METHOD.md §1). The solvers, PSE, baroclinic generation and
// the stratified profile are internals (sim/simulation_internals.h); a test
// (Layering) checks that no code outside sim/ and tests/ includes them.
#include "sim/bodies/rigid_body.h"
#include "sim/numerics/aabb.h"
#include "sim/numerics/uniform_grid.h"
#include "sim/params.h"
#include "sim/result.h"
#include "sim/particles/particles.h"
#include "sim/particles/remesh.h"
#include "sim/particles/seeding.h"
#include "sim/tracers/nested_grid.h"

namespace vorton {

class VelocitySolver;
struct SolverSettings;
struct VortonSources;

/// The stages of a step, in the order Step() runs and times them
/// (docs/METHOD.md §5):
/// - Bounds: the ambient profile, the bodies' specs, the boxes the grids fit;
/// - Velocity: velocity and stretching at the vortons and on the tracers'
///   grid at t (reused from the last step's VelocityNext unless the state or
///   the solver's settings changed), and the blow-up checks on them;
/// - Baroclinic: ∇ρ′ × g / ρ₀ at the vortons;
/// - Diffusion: PSE (plus the subgrid eddy viscosity);
/// - Predictor: Heun's Euler stage of the vortons, and velocity and
///   stretching at the predicted state;
/// - Corrector: the vortons to t + dt (trapezoid), the layers' sponge;
/// - Bodies: the spheres move, vortons they hit are pushed out; emitters;
/// - Remesh: every remeshEvery steps, and the emitters refilled; off the
///   cadence, away from the bodies, after a step that strained the flow too
///   far (kRemeshStretchCourant);
/// - TracerPredictor: the tracers' Euler stage on the grid at t;
/// - VelocityNext: velocity and stretching of the new state, at the vortons
///   and on the tracers' grid (the tracers' second stage, the next step's first);
/// - Tracers: the tracers' trapezoid stage, then bodies and emitters on them.
enum class Stage : int {
    Bounds,
    Velocity,
    Baroclinic,
    Diffusion,
    Predictor,
    Corrector,
    Bodies,
    Remesh,
    TracerPredictor,
    VelocityNext,
    Tracers,
    Count
};
inline constexpr int kStageCount = int(Stage::Count);
/// Lower-case stage name as used in `ms_<stage>` columns: bounds, velocity, ..., tracer_predictor, ...
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
    /// With `ok` false: the step was not taken and the state is as it was
    /// (Simulation::BodyTooFast), so once the cause is edited away it can go on.
    bool stateKept = false;
};

/// What a step computed, in counts that do not depend on the machine: for
/// checking that the cost of a step stays flat as the flow develops.
struct StepWork {
    std::size_t vortons = 0;           ///< at the end of the step
    std::size_t solverGridPoints = 0;  ///< points of the grids the grid solver solved on (Σ over its solves)
    std::size_t solverPoints = 0;      ///< tracer-grid points whose velocity was asked of the solver
    std::size_t tracerGridPoints = 0;  ///< points of the tracers' nested grid (all levels)
    int substeps = 1;                  ///< substeps the step took (Simulation::Substeps: a fast body)
    /// The fastest stretching rate max_k |(ω_k·∇)u|/|ω_k| over the step's substeps of
    /// the vortons away from the bodies (1/s); times dt, the step's Lagrangian CFL
    /// number (Simulation::kRemeshStretchCourant).
    double stretchRate = 0.0;
    /// stretchRate times the step's dt: the Lagrangian CFL number the step compared with
    /// Simulation::kRemeshStretchCourant (frames.csv's lagrangian_cfl, the panel's line).
    double lagrangianCfl = 0.0;
    bool distortionRemesh = false;  ///< remeshed off the cadence: the step strained the flow too far
};

/// Where one step changed the vortons' linear impulse I = ½Σx_k×α_k (m⁴/s, about the
/// world origin), one term per process, in double precision; the terms sum to I after
/// the step less I before it, up to the float round-off of the corrector's update (its
/// terms are computed in double from its inputs; ImpulseBudget tests: within 1e-6 of
/// Σ|x_k||α_k|). In the continuum, away from walls, advection and stretching together
/// and viscous diffusion each leave I unchanged (Saffman, *Vortex Dynamics*, 1992,
/// ch. 3), and baroclinic generation changes it at (g/ρ₀)Σδρ_kV_k; at a no-slip wall
/// the fluid's force on a body is −ρ dI/dt (Wu 1981, AIAA J. 19). So a term that moves
/// I where it should not is a discretisation error, and this says which (issue 12's
/// drag, docs/BODIES.md).
/// The corrector's change splits exactly as x₁×α₁ − x₀×α₀ = (x₁ − x₀)×α₀ + x₁×(α₁ − α₀).
struct ImpulseBudget {
    glm::dvec3 advection{0.0};   ///< the vortons' motion (free stream and bodies' image flow included): ½Σ(x₁ − x₀)×α₀
    glm::dvec3 stretching{0.0};  ///< stretching and tilting (the image flow's included): ½Σx₁×Δα
    glm::dvec3 diffusion{0.0};   ///< viscous diffusion (PSE, with the subgrid viscosity)
    glm::dvec3 baroclinic{0.0};  ///< baroclinic generation
    glm::dvec3 layers{0.0};      ///< the layers' sponge at their sides (AbsorbAtLayerSides)
    glm::dvec3 bodies{0.0};      ///< the bodies: the push out of them (also the one after a remesh), the wall layer's normal part, the sheet
    glm::dvec3 emitters{0.0};    ///< emitters' new vortons
    glm::dvec3 remesh{0.0};      ///< remeshing: the interpolation, its culls and cap
    glm::dvec3 projection{0.0};  ///< the remeshed field made solenoidal (solenoidal_remesh)
    glm::dvec3 farWake{0.0};     ///< the far wake let go (wake_length)
    /// Sum of the terms: I after the step less I before it.
    glm::dvec3 Total() const {
        return advection + stretching + diffusion + baroclinic + layers + bodies + emitters + remesh + projection +
               farWake;
    }
};

/// Conserved and monitored quantities of the vortons (Cottet & Koumoutsakos §1.4).
struct Diagnostics {
    glm::dvec3 impulse{0.0};      ///< linear impulse I = ½ Σ x_k × α_k, m⁴/s
    glm::dvec3 circulation{0.0};  ///< total strength Σ α_k, m³/s
    double excessMass = 0.0;      ///< Σ δρ_k V_k, kg
    double maxSpeed = 0.0;        ///< largest vorton or tracer speed of the last step, m/s
    double maxVorticity = 0.0;    ///< largest vorton |ω| (over a lattice cell: CellVorticity), 1/s
    /// 99th percentile of the vortons' |ω| (the same), 1/s: a smooth, resolved field has
    /// its largest |ω| within a small factor of it; a single vorton far above
    /// it is being stretched without bound (issue 10's rogue vorton).
    double p99Vorticity = 0.0;
};

/// Vortex particle method after Gourlay, *Fluid Simulation for Video Games*
/// parts 3, 4, 8 and 9, with the Boussinesq baroclinic term (docs/METHOD.md §3, the step in §5):
///
///     Dω/Dt = (ω·∇)v + ν∇²ω + (∇ρ′ × g)/ρ₀
///
/// Each Step() runs the stages of `Stage` in order, one function each,
/// timed by the loop that runs them (LastStageTimes()): bounds → velocity
/// and stretching at the vortons (solver direct, tree, grid or auto) and on
/// the tracers' nested grids → baroclinic generation from a cloud-in-cell
/// density grid → PSE diffusion → Heun (RK2) predictor and corrector of the
/// vortons and their vorticity → bodies (move, then the skin and collisions)
/// and emitters → remeshing every remeshEvery steps → the tracers' predictor,
/// the velocity of the new state, the tracers' corrector (docs/METHOD.md §5).
/// Every stage is a oneTBB loop run in the caller's task arena; results are
/// bitwise identical for any thread count.
class Simulation {
public:
    /// Seeds vortons and tracers from the setup.
    explicit Simulation(SceneSetup setup);
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

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
    const StepWork& LastStepWork() const { return m_work; }
    /// Whether Step() measures its ImpulseBudget (off by default: it adds a few
    /// serial passes over the vortons per step; `--stats` turns it on).
    void SetImpulseBudget(bool on) { m_budgetOn = on; }
    /// The last step's ImpulseBudget (zeros when off).
    const ImpulseBudget& LastImpulseBudget() const { return m_budget; }
    /// ½Σx_k×α_k of the vortons, m⁴/s, summed serially in vorton order in double.
    glm::dvec3 VortonImpulse() const;
    /// The tracers' nested velocity grid of the current state.
    const NestedGrid& VelocityGrid() const { return m_velocityGrid; }
    /// Velocity on VelocityGrid() (m/s, without the free stream): (x, y, z, unused) per point,
    /// VelocityGrid().PointCount() of them, level after level, each x-fastest. Only the
    /// corners of the cells that hold a tracer are evaluated (the others hold stale values);
    /// empty without tracers.
    std::span<const GridSampler::Float4> VelocityGridValues() const { return m_gridPacked0; }
    /// The tracers' grids of the last step, for moving tracers elsewhere by the same Heun
    /// step (render/gpu_tracers.h, docs/METHOD.md §5): the grid at the step's start (its
    /// first stage) and the one at its end (VelocityGrid, VelocityGridValues: its second
    /// stage, and the next step's first unless something invalidates the cache, as a new
    /// serial then says). The start grid's values are valid until the next step; its serial
    /// is 0 before the first step and after RestoreState.
    TracerGridView LastStepStartGrid() const { return {m_startGrid, m_gridPacked1, m_startGridSerial}; }
    TracerGridView CurrentTracerGrid() const { return {m_velocityGrid, m_gridPacked0, m_gridSerial}; }
    /// One earlier substep of a step taken in k > 1 substeps (Substeps), for moving tracers
    /// elsewhere by the same k Heun substeps of dt/k: its start grid, and the bodies' centres
    /// (m, in the order of Bodies()) at its end, where the tracers are pushed out of them.
    struct SubstepGrid {
        NestedGrid grid;
        std::vector<GridSampler::Float4> values;  ///< as VelocityGridValues()
        std::uint64_t serial = 0;                 ///< as TracerGridView::serial
        std::vector<glm::vec3> bodyCentres;
    };
    /// The last step's substeps 0 … k−2 (substep k−1 runs from LastStepStartGrid to
    /// CurrentTracerGrid, its bodies at Bodies()): k − 1 of them after a step of k substeps
    /// taken with external tracers (SetExternalTracers), empty otherwise and after
    /// RestoreState. Valid until the next step.
    std::span<const SubstepGrid> EarlierSubstepGrids() const { return m_substepGrids; }

    /// Rigid spheres, in the order of Setup().bodies (Gourlay parts 4 and 9).
    std::span<const BodyState> Bodies() const { return m_bodies; }
    /// The state of body i, to edit between steps (the panel, tests).
    BodyState& MutableBody(std::size_t i);
    /// Brings the bodies' states in line with Setup().bodies after an edit added,
    /// removed or reordered bodies (the panel's "Add a ball" and "Remove", an undo):
    /// a body keeps its state by name (MatchBodies), a new one starts at its spec
    /// (position, velocity, spin), a removed one goes with the vorticity of its own
    /// spin (with body sheets, Kelvin's sum loses its 2ΩV). Each step calls it first;
    /// call it after such an edit to read Bodies() in the new order before the step.
    /// Returns, when the bodies changed, for each body of Setup().bodies the index it
    /// had before (−1 for a new one; MatchBodies), so that a caller can carry its own
    /// per-body data over; nothing when they did not.
    std::optional<std::vector<int>> SyncBodies();
    /// Holds body i at `target` (m) from the next step on: it moves there in
    /// one step as a kinematic body, and the fluid feels it.
    void GrabBody(std::size_t i, glm::vec3 target);
    /// Lets body i go; it keeps the velocity it was last moved with (a throw). A fixed
    /// body is not thrown: from the next step it is back at the velocity it had before it
    /// was held (BodyState::velocityBeforeGrab; an oscillating one at its oscillation),
    /// where it was let go.
    void ReleaseBody(std::size_t i);
    /// The fastest a held body is moved (m/s), hence the fastest throw: half
    /// of max_speed, and with body sheets kThrowCourant lattice spacings per
    /// step (8 m/s in falling_ball), which substeps resolve (Substeps).
    float GrabSpeedLimit() const;
    /// The fastest body i is moved when held (m/s): GrabSpeedLimit() for a free
    /// body; for a fixed one, with body sheets, at most kFixedDragCourant
    /// lattice spacings per step (4.8 m/s in flow_past_ball). Errors: i must
    /// be a body's index.
    float GrabSpeedLimit(std::size_t i) const;
    /// With body sheets, a step in which the fastest body (relative to the
    /// free stream) or vorton would cross more than kSubstepTrigger lattice
    /// spacings is taken in as many equal substeps as keep it within
    /// kSubstepCourant, up to kMaxSubsteps; the remesh and the emitters'
    /// refill run once, at the step's end, and the substeps' sheets at a
    /// surface point merge while they lie within h/4 (kSheetMergeSpacings).
    /// The scenes stay below the trigger (at most 1.64, ball_through_smoke's
    /// start); a ball thrown by the mouse need not (issue 12: at 8 m/s,
    /// falling_ball blew up). Substeps of 1.5 spacings stop a ball thrown at
    /// 8 m/s short even with the merge (0.35 of the drag law's speed at 0.5 s;
    /// docs/BODIES.md, stop 102).
    static constexpr float kSubstepTrigger = 2.0f;
    static constexpr float kSubstepCourant = 1.0f;
    static constexpr int kMaxSubsteps = 16;
    /// With body sheets, the fastest throw in lattice spacings per step
    /// (GrabSpeedLimit). Thrown from rest in falling_ball's water, 8 m/s held
    /// in six directions for 8 s; at 15.6 m/s it blew up even in substeps of
    /// half a spacing. Below kMaxSubsteps: the wake moves up to 1.5 times as fast.
    static constexpr float kThrowCourant = 8.0f;
    /// With body sheets, the fastest a body not held by the mouse may move through
    /// the fluid (relative to the free stream) when a step begins, in lattice
    /// spacings per step: past it Step() takes no step and says why (StepReport
    /// `ok` false, stage "bodies"), the state left as it was. A free ball that its
    /// weight drives past the throw's limit blew up within 2 s: falling_ball with
    /// the ambient density at 30 and at 10 kg/m³ (the panel slider's end) fell at
    /// 9.5 and 11.8 m/s (the limit: 8 m/s), and its wake reached 185–197 m/s; at
    /// 100 kg/m³ it settled at 4.3–5.3 m/s and held (docs/BODIES.md, stop 106).
    /// 10 % above kThrowCourant, so a ball thrown at the limit is not stopped.
    static constexpr float kBodySpeedCourant = 8.8f;
    /// With body sheets, the fastest a fixed body is dragged, in lattice
    /// spacings per step (GrabSpeedLimit(i)). A dragged fixed body is not
    /// thrown: let go, it stops at once (ReleaseBody), and the wake it made
    /// runs into it. Dragged at kThrowCourant for 3 steps and let go at 1, 2
    /// or 5 s, flow_past_ball's ball (no subgrid model) blew up 0.2 s later,
    /// a wake vorton 10-15 spacings behind it stretched to 135-190 m/s, and so
    /// did falling_ball's ball made fixed; at 4 and 5 spacings neither did
    /// (docs/BODIES.md, stop 104).
    static constexpr float kFixedDragCourant = 4.0f;
    /// The Lagrangian CFL number dt·max_k |(ω_k·∇)u|/|ω_k| (StepWork::stretchRate)
    /// above which a step remeshes at once, off the remesh_every cadence. A vortex
    /// method's particles must be remeshed before the flow map distorts them by
    /// O(1), ‖∇u‖·t ≲ 1 (Koumoutsakos 1997, J. Comput. Phys. 138; Cottet &
    /// Koumoutsakos, *Vortex Methods*, 2000, ch. 7); between remeshes one
    /// vorton can otherwise stretch without bound. The shipped scenes stay
    /// under it; a ball dragged by the mouse in a scene's first steps does not
    /// (docs/BODIES.md, stop 105).
    static constexpr float kRemeshStretchCourant = 1.0f;
    /// Lattice spacings from a body's surface within which the vortons (its
    /// wall layer and near wake) neither count towards kRemeshStretchCourant
    /// nor are remeshed off the cadence: its sheets strain them at about
    /// U/(h/2) by design, and remeshing them every step stopped a ball thrown
    /// at 8 m/s at 0.35 of the drag law's speed (docs/BODIES.md, stop 105).
    static constexpr float kDistortionWallGap = 4.0f;
    /// Momentum the fluid received from the bodies in the last step, N·s.
    /// With body_sheet: ρ₀ times the change of the vortons' impulse ½Σx×α the
    /// bodies caused (the sheet they released, the vortons they pushed out),
    /// minus the momentum of the fluid their volume displaces (Wu 1981). In
    /// the skin model: −Σ fluidForce·dt of the closure (MoveBodies), which the
    /// vortons' impulse does not receive. The bodies received the opposite.
    glm::dvec3 LastCollisionImpulse() const { return m_collisionImpulse; }

    /// Ambient density ρ̄(z) = ρ₀ + Δ(z), kg/m³: ρ₀ plus the stratified
    /// profile of the layer groups (docs/METHOD.md §2).
    float AmbientDensity(glm::vec3 x) const;

    /// Density deviation δρ (kg/m³) from the ambient profile of vorton k (its
    /// group's times its mass fraction, 0 for the halo; for layer groups, the
    /// profile at its birth height minus the profile where it is) and of tracer
    /// i (its group's; a layer's own deviation for its tracers).
    float VortonDensityDeviation(std::size_t k) const;
    float TracerDensityDeviation(std::size_t i) const;

    Diagnostics ComputeDiagnostics() const;
    /// Sums over the vortons of the current state, in vorton order in double:
    /// the same bits for any thread count.
    struct VortonMoments {
        glm::dvec3 circulation{0.0};  ///< Σ α_k, m³/s
        double strength = 0.0;        ///< Σ |α_k|, m³/s
        glm::dvec3 impulse{0.0};      ///< ½ Σ x_k × α_k, m⁴/s
        double enstrophy = 0.0;       ///< Σ |ω_k|² V_k (a sheet's vorton: over a cell, CellVorticity), m³/s²
        double excessMass = 0.0;      ///< Σ δρ_k V_k, kg
        double absExcessMass = 0.0;   ///< Σ |δρ_k| V_k, kg: heavy and light dye both counted
        /// Σ u_k·(x_k × α_k), m⁶/s² (ρ₀ times it is the kinetic energy, Saffman
        /// eq. 3.2.4), with `velocity` (N, e.g. VortonVelocities()); 0 when it is empty.
        double energySum = 0.0;
    };
    VortonMoments SumVortonMoments(std::span<const glm::vec3> velocity = {}) const;
    /// Velocity (m/s, without the free stream; with the bodies' fields) at
    /// each vorton of the current state, as the last step computed it for
    /// the next one (N, in vorton order). Empty before the first step, after
    /// a reset, and after anything invalidated it (an edit of the vortons, a
    /// VelocityAt call, a changed solver setting): no solve is run to fill
    /// it. For diagnostics such as the kinetic energy ρ₀Σ u_k·(x_k × α_k).
    std::span<const glm::vec3> VortonVelocities() const {
        if (!m_cacheValid || !(m_cacheKey == CurrentCacheKey()) || m_velocity0.size() != m_vortons.Size()) return {};
        return m_velocity0;
    }

    /// Appends the whole state of the run to `out` (sim/simulation_state.cpp): time and step
    /// count, vortons, tracers, the remeshing lattice and tallies, the velocities cached
    /// for the next step (at the vortons and on the tracers' grid), and the bodies (their
    /// motion and the impulse the next coupling counts), so that RestoreState on a Simulation of the
    /// same setup continues bit for bit as this one would. Raw bytes in this machine's byte
    /// order, each array preceded by its length (u64). Not the setup: the caller keeps it
    /// (scene/snapshot.h writes it as scene JSON). Always Ok today.
    Status AppendState(std::string& out) const;
    /// Replaces the state by `bytes` from AppendState of a simulation with this setup. All
    /// or nothing: on error (truncated, trailing bytes, counts or group indices that do not
    /// fit this setup, another body count) the state is left as it was and the message says what was
    /// wrong and where.
    Status RestoreState(std::string_view bytes);

    /// Seeds group g of Setup().groups now, in the running fluid, as a paint stroke (the app's
    /// paint mode): as SeedVortons seeds a scene's groups, a vorton at rest of the group, of
    /// volume h³ and core coreOverlap·h, on each point of the current lattice inside its shape,
    /// an ambient (δρ = 0) vorton at rest on each point of its halo (which the baroclinic
    /// generation at its edge needs: Conservation.ImpulseGrowsWithBuoyancy), and `tracers`
    /// tracers uniformly at random inside it (seeded by params.seed and g), appended. Adds
    /// δρ_g·Σ V of its vortons to the excess mass; it adds no vorticity. The vorton cap grows
    /// with what is seeded. Errors: no such group, a group that is a layer or an emitter, no
    /// lattice yet (a scene of bodies in clear water), a shape with no lattice point inside.
    ///
    /// With a `velocity` U (m/s, a sphere only) the blob is thrown: the lattice points within
    /// h/2 of its surface carry the vortex sheet of a sphere moving at U through fluid at
    /// rest, γ = −(3/2) n × U (the jump from its uniform inside to the potential flow outside,
    /// as ω = γ/h), whose impulse ½∮x × γ dA = 2πR³U is the blob's momentum with its added
    /// mass, (3/2)ρ₀VU, over ρ₀.
    Status SeedGroupNow(std::size_t g, int tracers, glm::vec3 velocity = glm::vec3(0.0f));

    /// The vorton cap in force: params.maxVortons, or when that is 0, 1.5 times the seeded
    /// count plus, with body_sheet, room for the wake of each body that moves through the
    /// fluid (free; or fixed and oscillating, or moving or spinning relative to the free
    /// stream: carried, held and dragged, spun, or in a stream; its state now): 50 times its
    /// sheet's points, times (R/h)/5 more past R/h 5 (a wake of about 30 ball volumes at any
    /// finer lattice). The rooms together are at most kWakeRooms times the largest, so past
    /// two bodies of a size they share two rooms: another ball shortens the wakes (the
    /// remesh drops the vortons farthest from every body first) rather than slowing every step.
    std::size_t MaxVortons() const;
    /// Wakes' rooms the vorton cap holds at most (MaxVortons): with a room each, falling_ball
    /// with four balls added (stop 99's five_balls) kept 85,504 vortons after each remesh and
    /// took 1.0-1.5 s a step; with two, 0.5-0.8 s (stop 102).
    static constexpr double kWakeRooms = 2.0;
    /// The most points a remesh lets the vortons' solver grid have (cells of
    /// velocity_grid_spacing · h with a margin of 2.5 cells, FitVortonGrid):
    /// min(velocity_grid_cells, kSeededGridFactor × the points of that grid
    /// around the vortons as seeded, at the seeded spacing). Past it the
    /// lattice is coarsened (RemeshSettings::maxGridPoints).
    std::size_t MaxGridPoints() const;
    /// How many times the seeded flow's grid a remesh lets the solver grid
    /// grow to before it coarsens the lattice. The first remesh's receivers
    /// already make the grid of the first seconds 1.3-1.5 times the seeded one
    /// (rayleigh_taylor: 22,476 seeded, 30,324 median over the first 5 s), and
    /// the grid solver's two passes are about 45 % of a step there (13 of 30.6
    /// ms), so 3 keeps a step within about 1.6 times the first seconds' cost
    /// (issue 10, item 5: 2), while every other scene's grid stayed below it
    /// for 60 s (largest: dye_drop 1.9, two_drops 1.2 times its seeded grid).
    static constexpr std::size_t kSeededGridFactor = 3;
    /// Remeshings since reset, how many hit the MaxVortons() cap, and the
    /// summed fraction of Σ|α| they let go (RemeshReport::droppedStrength).
    std::int64_t RemeshCount() const { return m_remeshCount; }
    std::int64_t RemeshCappedCount() const { return m_remeshCapped; }
    double RemeshDroppedStrength() const { return m_remeshDropped; }
    const RemeshReport& LastRemesh() const { return m_lastRemesh; }
    /// Empty while the vortons sit on the lattice spacing they were seeded with (or
    /// that body_resolution set); once remeshing has coarsened it (MaxVortons,
    /// MaxGridPoints), one sentence for the user: the spacing then and now, each
    /// body's radius over it, the cap that bound (as of the last coarsening since
    /// reset) and the parameter that lifts it. A scene asking for a finer ball
    /// than its caps hold gets a coarser one, and this says so (issue 12).
    std::string LatticeNotice() const;
    /// With body_sheet: the Σα (m³/s, world axes) that Kelvin's theorem holds
    /// the fluid's Σα plus the bodies' Σ2Ω_bV_b to: the seeded Σα less what
    /// was deliberately let go since (remeshing's culls and cap, emitters'
    /// outflow, the far wake cut at wake_length, the layers' sponge), each
    /// with its net vorticity. Each step's sheet keeps the fluid at it
    /// (docs/METHOD.md §6, issue 12).
    glm::dvec3 KelvinStrength() const { return m_kelvinStrength; }

    /// The solver of the last step (or of the state at reset): params.solver,
    /// with Auto resolved (ResolveActiveSolver).
    Solver ActiveSolver() const { return m_activeSolver; }

    /// Vorton spacing h (m): the lattice's the vortons were seeded or last
    /// remeshed on (remeshing coarsens it when the count or the solver grid
    /// reaches its cap, MaxVortons and MaxGridPoints),
    /// which sets the density grid, the velocity grid and the subgrid length scale.
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

    /// Tracers that live outside the simulation (render/gpu_tracers.h moves them on the GPU
    /// with LastStepStartGrid and CurrentTracerGrid). From the next step on, the tracers'
    /// nested grids also cover `box` (m: where those tracers were; ignored when empty) grown
    /// by how far a tracer can move in stepsBehind + 1 steps (per step, dt times the grid's
    /// largest speed plus the free stream's). `stepsBehind` (≥ 0, clamped): how many steps
    /// older the box is than the state the next step starts from (0: its positions).
    /// Which points are evaluated: with `cells` (one byte per cell of `cellsGrid`, named by
    /// its lower corner: 1 where an outside tracer was, at the box's time), the corners of
    /// every cell within twice that reach of one of them; without, every point. Call again
    /// each time newer ones are known. The simulation's own tracers, if any, move as before.
    /// Not part of the saved state.
    void SetExternalTracers(const Aabb& box, int stepsBehind, const NestedGrid* cellsGrid = nullptr,
                            std::span<const std::uint8_t> cells = {});
    /// Back to the simulation's own tracers only.
    void ClearExternalTracers() { m_externalTracers = false; }
    bool HasExternalTracers() const { return m_externalTracers; }

    /// Whether the tracers' passes may use their AVX2 path where the CPU has
    /// it (on by default). Both paths give the same bits; for the test that
    /// checks so.
    void UseTracerSimd(bool enabled) { m_tracerSimd = enabled; }

private:
    /// What the stages of one step share.
    struct StepContext {
        float dt = 0.0f;
        std::size_t vortons = 0, tracers = 0;  ///< counts at the start of the step
        std::size_t stepVortons = 0;           ///< vortons at the start of the first substep (SheetMerger)
        bool tracerGrid = false;                ///< tracers here or outside: the tracers' grids are built
        Aabb vortonBox;                         ///< the vortons' box at the start (Bounds)
        bool nothingToMove = false;             ///< Bounds found no vorton, tracer or body: the step only advances t
        float stepDt = 0.0f;                    ///< the whole step's dt (s); dt is the substep's
        int substep = 0, substeps = 1;          ///< this substep's index and the step's count (Substeps)
        /// The step's last substep: remeshing and the emitters' refill run.
        bool LastSubstep() const { return substep + 1 == substeps; }
        /// Time from this substep's start to the step's end (s).
        float StepLeft() const { return stepDt * float(substeps - substep) / float(substeps); }
    };
    /// A stage: empty on success, else what went wrong (a blow-up), which ends the step.
    using StageFunction = std::string (Simulation::*)(StepContext&);
    struct StageEntry {
        Stage stage;
        StageFunction run;
    };
    static const std::array<StageEntry, kStageCount> kStages;
    // The stages (simulation_step.cpp), in the order of `Stage`.
    std::string StageBounds(StepContext& c);
    std::string StageVelocity(StepContext& c);
    std::string StageBaroclinic(StepContext& c);
    std::string StageDiffusion(StepContext& c);
    std::string StagePredictor(StepContext& c);
    std::string StageCorrector(StepContext& c);
    std::string StageBodies(StepContext& c);
    std::string StageRemesh(StepContext& c);
    std::string StageTracerPredictor(StepContext& c);
    std::string StageVelocityNext(StepContext& c);
    std::string StageTracers(StepContext& c);

    /// α = ωV and σ² of the vortons at `position` into m_alpha, m_sigma2.
    void LoadSources(std::span<const glm::vec3> position, std::span<const glm::vec3> vorticity);
    /// The solver of this step's kind (m_activeSolver), one for the
    /// predictor stage and one for the rest: each keeps its own state (the
    /// grid solver its FFT plans and kernel transform, which alternating grid
    /// sizes would rebuild).
    VelocitySolver& SolverFor(bool predictor);
    /// Sets m_activeSolver (Auto resolved) and m_clusterCell for the vortons
    /// as they are (box `vortonBox`): direct below kAutoGridVortons; the grid
    /// while the vortons' grid at the asked cell fits velocityGridCells and
    /// has at most kAutoTreeSparsity points per vorton; else, when the
    /// vortons fall into groups separated by empty space (vorton_clusters.h)
    /// whose own grids each fit GroupGridPoints and together have at most
    /// kAutoTreeSparsity points per vorton, the grid per group (m_clusterCell the
    /// cell); else the treecode (a flow spread so thin that any grid would
    /// be mostly empty).
    void ResolveActiveSolver(const Aabb& vortonBox);
    /// The most points of one group's grid when Auto solves a grid per
    /// group: velocityGridCells, at least kAutoGroupGridPoints.
    std::size_t GroupGridPoints() const;
    /// The solver settings for a load of `sources` vortons: the live
    /// parameters, m_clusterCell, and the bounds (GroupGridPoints,
    /// kAutoTreeSparsity per vorton) that the groups of the loaded vortons
    /// must fit for a grid each, else the treecode solves that load.
    SolverSettings SettingsFor(std::size_t sources) const;
    /// Loads `position` into the solver and fills velocity and stretching at
    /// the vortons (plus the bodies' fields); the grid solver solves on `grid`.
    void EvaluateVortons(std::span<const glm::vec3> position, std::span<const glm::vec3> vorticity,
                         std::span<glm::vec3> velocity, std::span<glm::vec3> stretch, VelocitySolver& solver,
                         const GridGeometry& grid);
    /// The vortons' grid over `box`: cubic cells of velocityGridSpacing·h and
    /// a margin of 2.5 cells for the grid solver's stencil; with more than
    /// velocityGridCells points, coarser cells.
    GridGeometry FitVortonGrid(const Aabb& box) const;
    /// The tracers' nested grid: level 0 the vortons' grid, enough levels for `tracerBox`.
    NestedGrid TracerGrid(const Aabb& vortonBox, const Aabb& tracerBox) const;
    /// Points of the nested grid at its start that come whole from the
    /// solver (level 0 with the grid solver), so need no mask; else 0.
    std::size_t WholeLevelPoints(const NestedGrid& grid) const;
    /// Marks in m_gridNeeded the corners of the cells holding `points` (cleared first), and
    /// with outside tracers those near their known cells (within `externalGrow`, m), or
    /// every point when their cells are not known.
    void MarkNeeded(const NestedGrid& grid, std::span<const glm::vec3> points, float externalGrow = 0.0f);
    /// Where the outside tracers can be (SetExternalTracers) extraSteps steps after the state
    /// the step started from: their box grown by (stepsBehind + extraSteps)·reach, reach (m)
    /// the farthest a tracer moves in one step. Empty without outside tracers.
    Aabb ExternalTracerBox(float reach, int extraSteps) const;
    /// Velocity (plus the bodies' fields) at the grid points whose `mask`
    /// byte is set, written into `packed` (resized to the grid), and, with
    /// `wholeLevels`, at every point of WholeLevelPoints(grid); the others
    /// are left as they are. The solver must hold the grid's state.
    void EvaluateGridPoints(const NestedGrid& grid, std::span<const std::uint8_t> mask,
                            std::vector<GridSampler::Float4>& packed, bool wholeLevels = true);
    /// After tracers moved: evaluates the corners of their cells that the
    /// mask of the last grid evaluation missed, so the next step's
    /// interpolation reads no unevaluated point.
    void FillMissingCorners(std::span<const std::uint8_t> missing, bool any);
    // The tracers' Heun passes (simulation_tracers.cpp).
    /// Bodies or a free stream move tracers after the corrector (collisions, emitters).
    bool TracersMoveAfterCorrector() const;
    /// Predictor: fixes m_nextGrid, parks u0 in tracers.velocity, marks the cells the next grid needs.
    /// `stepDt`: the whole step's (StepContext::stepDt), how far outside tracers may have
    /// moved since their box per step behind.
    void PredictTracers(float dt, float stepDt);
    /// What the corrector gathers: largest |u|², non-finite count, bounds, missed corners.
    struct TracerPass {
        float maxNorm2 = 0.0f;
        std::size_t nonFinite = 0;
        Aabb box;
        bool missing = false;
    };
    /// Corrector: moves the tracers to t + dt (trapezoid) on m_nextGrid.
    TracerPass CorrectTracers(float dt);
    /// After collisions and emitters moved tracers: the bounds of the tracers
    /// and the corners their cells miss (marked in m_gridMissing).
    struct MovedTracers {
        Aabb box;
        bool missing = false;
    };
    MovedTracers ScanMovedTracers();

    /// What the cached first-stage velocities depend on besides the state.
    struct CacheKey {
        Solver solver;
        float theta;
        int leafSize;
        int gridCells;
        float gridSpacing;
        std::size_t vortons, tracers;
        float clusterCell;
        bool operator==(const CacheKey&) const = default;
    };
    CacheKey CurrentCacheKey() const;
    /// The members a state holds, named as here, filled by RestoreState and
    /// checked before the simulation's own are touched (simulation_state.cpp).
    struct StagedState;
    /// Each field of the state, once, for writing (`Io` a writer, `State` a
    /// const Simulation) and reading (a reader; a StagedState or a Simulation).
    template <class Io, class State>
    static void TransferState(Io& io, State& state);
    void BaroclinicRates();
    /// The stratified ambient's absorbing layer at the layers' sides
    /// (StratifiedProfile::Sponge): internal waves leave instead of reflecting.
    void AbsorbAtLayerSides(float dt);
    /// Remeshes and culls the vortons (remesh.h), with `solenoidal_remesh` projects
    /// their vorticity onto its solenoidal part (projection.h), and keeps the tallies.
    void RemeshVortons();
    /// The distortion remesh: remeshes the vortons farther than
    /// kDistortionWallGap spacings from every body and keeps the others as they are.
    void RemeshAwayFromBodies();
    /// Whether x lies within `gap` (m) of a body's surface.
    bool NearABody(glm::vec3 x, float gap) const;
    // Bodies, stratification and emitters (simulation_bodies.cpp).
    /// Bodies that touch bounce off each other (ResolveSphereContacts with
    /// body_restitution and body_friction, which changes their spin): after the bodies moved, before the vortons are pushed
    /// out of them. Held and fixed bodies do not give way; the fluid is not
    /// part of the contact (it feels the new velocities next step). A contact
    /// closing slower than gravity's pull gives in two steps of `dt` (s) is a
    /// resting one and does not bounce.
    void CollideBodies(float dt);
    void AddBodyVelocity(std::span<const glm::vec3> points, std::span<glm::vec3> velocity,
                         std::span<const glm::vec3> vorticity, std::span<glm::vec3> stretch) const;
    float FluidDensityAround(std::size_t body) const;
    // The bodies' boundary conditions (bodies/body_coupling.cpp).
    /// Fits each body's image sources to the vortons' velocity at its surface
    /// (`evaluate` gives the vortons' velocity at points) and keeps the
    /// velocity there for the no-slip step, its slip read with thin cores
    /// from `sources` (the vortons `evaluate` sums, as loaded for it; empty
    /// when it sums none).
    void UpdateBodyImages(const std::function<void(std::span<const glm::vec3>, std::span<glm::vec3>)>& evaluate,
                          const VortonSources& sources);
    /// Adds to `surface` (m/s, one per point of `points`, on the sphere of
    /// `radius` m about `center`) the slip's read with thin cores: for the
    /// vortons within kSlipReadReachSpacings·h of a point, K_{fσ} − K_σ with
    /// f = params.slipReadCore (biot_savart.h; nothing when f ≥ 1), so that
    /// the slip the sheet cancels is read as the thin sheet it was released
    /// as (body_coupling.cpp says why; stops 80–81, docs/BODIES.md). `sources` are
    /// the vortons the velocity at `points` was summed from.
    void ThinCoreSlipCorrection(const VortonSources& sources, glm::vec3 center, float radius,
                                const glm::vec3* points, std::span<glm::vec3> surface) const;
    /// Moves vortons inside a body (or closer to its surface than a quarter
    /// spacing) out along the normal and removes the wall-normal vorticity
    /// of those within two spacings of it; adds their impulse change per body.
    /// `lead` (s): each body is taken at BodyCentreAhead(b, lead), dt when the
    /// vortons are already at t + dt (CoupleBodies), 0 otherwise.
    void PushVortonsOutOfBodies(std::vector<glm::dvec3>* impulse, float lead);
    /// Body b's centre `lead` seconds ahead of its state, x_b + lead·V_b (m).
    glm::vec3 BodyCentreAhead(std::size_t b, float lead) const;
    /// Gravity, buoyancy and the fluid's force on each body, its motion, and
    /// the vortex sheet that cancels the slip on its surface (every
    /// SheetStride steps for its speed).
    /// A held body reaches its target at the step's end (c.StepLeft()). The
    /// slip's sheet keeps its cadence counted in steps, or in a step taken
    /// in substeps in its substeps, whatever is left going at the last.
    void CoupleBodies(const StepContext& c);
    /// Substeps this step takes (kSubstepCourant), from the bodies' state at its start.
    int Substeps(float dt) const;
    /// Why a step of `dt` is not taken: a body not held moving through the fluid
    /// faster than kBodySpeedCourant spacings per step (with body sheets); empty
    /// when none is.
    std::string BodyTooFast(float dt) const;
    /// Body b's speed relative to the free stream (m/s) over the coming step of `dt`
    /// (s): the KinematicVelocity it is moved with, or for a free body its own.
    /// What Substeps and BodyTooFast weigh against the lattice.
    float BodySpeedThroughFluid(std::size_t b, float dt) const;
    /// Held body b's velocity: to its target in `timeLeft` (s), at most GrabSpeedLimit().
    glm::vec3 GrabVelocity(std::size_t b, float timeLeft) const;
    /// The velocity (m/s) body b is moved with over a step or substep that ends at
    /// `endTime` (s) with `timeLeft` (s) of the step still to go, when its motion is
    /// prescribed: held, GrabVelocity(b, timeLeft); fixed and oscillating, its
    /// CarriedVelocity at endTime; fixed, the velocity it had before it was last held
    /// (BodyState::velocityBeforeGrab). std::nullopt for a free body, which the fluid
    /// and gravity move. The one place both body models (CoupleBodies, MoveBodies) and
    /// Substeps decide it.
    std::optional<glm::vec3> KinematicVelocity(std::size_t b, float timeLeft, double endTime) const;
    /// Lets go of the vortons farther than wake_length from every body, but
    /// for those holding a group's fluid and those within two cells of a
    /// layer's fluid or fluid with a density deviation (at each remesh; both
    /// body models). Their net Σα is let go with them (m_kelvinStrength).
    void ForgetFarWake();
    /// Σα of the vortons (m³/s), summed in vorton order in double.
    glm::dvec3 TotalStrength() const;
    // The skin model, body_sheet off (bodies/body_skin.cpp).
    void AddSkinBodyVelocity(std::span<const glm::vec3> points, std::span<glm::vec3> velocity,
                             std::span<const glm::vec3> vorticity, std::span<glm::vec3> stretch) const;
    /// Gravity, buoyancy and the fluid's force on each body, and its motion:
    /// the skin model's closure of an unresolved sphere (added mass, the drag
    /// curve's drag and Stokes's torque relative to the fluid's velocity and
    /// spin at its centre, from the vortons beyond its skin).
    void MoveBodies(float dt);
    /// The skin's vortex layer (no-slip) and the vortons pushed back out of
    /// the bodies (no-through); exchanges no momentum with the bodies.
    void CollideVortons();
    /// True when the bodies make their own vorticity (SimParams::bodySheet) and there are bodies.
    bool BodySheets() const { return m_setup.params.bodySheet && !m_setup.bodies.empty(); }
    void CollideTracers();
    /// Removes the vortons past the emitters' outlet (the stream's outflow): the first of
    /// their downstream faces along the stream, or, with wake_length, that length past the
    /// last body if that is farther.
    void EmitVortons();
    /// Keeps every emitter's box full: a still vorton of its fluid on each
    /// lattice point of the box that has none (the inflow). After remeshing.
    void FillEmitters();
    void EmitTracers();
    /// Groups with release_beyond: their tracers farther than it from their
    /// body are released again at a random point just outside its surface.
    void ReleaseBodyDye();

    SceneSetup m_setup;
    std::vector<BodyState> m_bodies;
    /// The names and radii (m) of m_bodies' bodies at the last SyncBodies.
    std::vector<std::string> m_bodyNames;
    std::vector<float> m_bodyRadii;
    /// CollideBodies' spheres, kept from step to step (no allocation per step).
    std::vector<ContactSphere> m_contactSpheres;
    glm::dvec3 m_collisionImpulse{0.0};
    /// Impulse of vortons a remesh put inside a body and the body pushed
    /// out, per body: the next CoupleBodies counts it.
    std::vector<glm::dvec3> m_pendingPushImpulse;
    /// Per body: 1 until its first CoupleBodies. A body that starts moving
    /// starts with the potential flow around it (its added mass): the sheet
    /// that flow's slip releases in the first step is already the fluid's
    /// momentum (bound vorticity), not an impulse the body gives.
    std::vector<std::uint8_t> m_bodyFresh;
    /// Time ahead of the bodies' state at which UpdateBodyImages places them
    /// (BodyCentreAhead, s): dt while the predictor evaluates the vortons at
    /// t + dt (StagePredictor sets it for that call only), so the image flow,
    /// the inside test and the surface slip the sheet cancels are those of the
    /// body at t + dt, with the vortons; 0 otherwise. UpdateBodyImages is
    /// reached through EvaluateVortons, hence a member, not an argument.
    float m_bodyImageLead = 0.0f;
    /// With body sheets: Σα of the fluid plus Σ2Ω_bV_b of the bodies, which
    /// Kelvin's theorem keeps (the seeded Σα), less what was deliberately let
    /// go since (remeshing's culls, emitters' outflow, the far wake, the
    /// layers' sponge). CoupleBodies' sheet keeps the fluid at it.
    glm::dvec3 m_kelvinStrength{0.0};
    Vortons m_vortons;
    Tracers m_tracers;
    double m_time = 0.0;
    std::int64_t m_steps = 0;
    Aabb m_bounds;
    StageTimes m_stageMs{};
    StepWork m_work;
    bool m_budgetOn = false;
    ImpulseBudget m_budget;
    glm::dvec3 m_budgetImpulse{0.0};  ///< I after the last attributed process of this step
    /// Adds the change of VortonImpulse() since the last attribution to `term`.
    void BudgetAttribute(glm::dvec3 ImpulseBudget::*term);
    /// The corrector's terms (advection, stretching, diffusion, baroclinic), before it runs.
    void BudgetCorrector(float dt);
    double m_stepMs = 0.0;
    double m_lastMaxSpeed = 0.0;
    double m_lastVortonSpeed = 0.0;  // the vortons' fastest speed, last step (early blow-up check)

    Lattice m_lattice;  // the seeding lattice, reused by remeshing
    std::size_t m_seededVortons = 0;
    float m_seededSpacing = 0.0f;  // h at reset; remeshing may coarsen m_lattice
    Aabb m_seededBox;              // box of the vortons seeded at reset and painted since (MaxGridPoints)
    std::int64_t m_remeshCount = 0, m_remeshCapped = 0;
    double m_remeshDropped = 0.0;
    RemeshReport m_lastRemesh;
    // The cap behind the last coarsening since reset (LatticeNotice). Not in the saved
    // state: a restored run reports the caps without naming one.
    CoarseningCause m_coarsenedBy = CoarseningCause::None;
    std::vector<std::uint8_t> m_buoyantGroup;
    std::vector<glm::vec4> m_bodySpheres;  // RemeshVortons: centre, radius
    std::vector<std::uint8_t> m_keep;  // EmitVortons: vortons that stay
    std::vector<std::uint64_t> m_fluidCells;  // ForgetFarWake: sorted keys of the cells holding a layer's or buoyant fluid
    Solver m_activeSolver = Solver::Direct;  // resolved at the start of each step
    float m_clusterCell = 0.0f;  // > 0: the grid solver splits the vortons into groups (SolverSettings)
    bool m_tracerSimd = true;                // UseTracerSimd
    /// The members whose types are the library's internals: the velocity
    /// solvers, PSE, the baroclinic generator, the stratified profile
    /// (sim/simulation_internals.h).
    struct Internals;
    std::unique_ptr<Internals> m_internals;
    NestedGrid m_velocityGrid;  // geometry of m_gridPacked0
    NestedGrid m_nextGrid;      // geometry of m_gridPacked1
    bool m_cacheValid = false;  // m_velocity0, m_stretch0, m_gridPacked0 belong to the current state
    CacheKey m_cacheKey{};
    bool m_densityGridValid = false;  // the baroclinic generator's grid is this step's

    // Per-step scratch, kept between steps so the step does not allocate once sizes settle.
    std::vector<glm::vec3> m_alpha;
    std::vector<float> m_sigma2;
    std::vector<glm::vec3> m_velocity0, m_velocity1, m_stretch0, m_stretch1, m_nextVelocity, m_nextStretch;
    std::vector<glm::vec3> m_baroclinic, m_diffusion;  // dω/dt and dα/dt
    std::vector<glm::vec3> m_predictedPosition, m_predictedVorticity;
    std::vector<float> m_deviationMass;
    std::vector<float> m_eddyViscosity;
    std::vector<glm::vec3> m_gridPoints;
    std::vector<GridSampler::Float4> m_gridPacked0, m_gridPacked1;  // tracer grid velocities, padded to four
    Aabb m_tracerBounds;              // of the tracers now (finite ones)
    bool m_tracerBoundsValid = false;
    // The grids' serials (TracerGridView): of the current grid, of the last step's start grid.
    std::uint64_t m_gridSerialCounter = 0, m_gridSerial = 0, m_startGridSerial = 0;
    NestedGrid m_startGrid;
    std::vector<SubstepGrid> m_substepGrids;  // EarlierSubstepGrids
    void NewGridSerial() { m_gridSerial = ++m_gridSerialCounter; }
    // SetExternalTracers: the outside tracers' box and its age in steps.
    bool m_externalTracers = false;
    Aabb m_externalBox;
    int m_externalStepsBehind = 0;
    NestedGrid m_externalCellsGrid;               // the grid m_externalCells name cells of
    std::vector<std::size_t> m_externalCells;     // its cells an outside tracer was in (empty: unknown)
    /// Marks in `cells` (grid.PointCount() bytes) every cell of `grid` within `grow` (m) of a
    /// cell in m_externalCells.
    void MarkExternalCells(const NestedGrid& grid, float grow, std::span<std::uint8_t> cells) const;
    std::vector<std::uint8_t> m_gridNeeded;   // grid points some tracer interpolates from
    std::vector<std::uint8_t> m_gridMissing;  // corners of final tracer cells the mask missed
    std::vector<std::uint8_t> m_gridCells;    // cells of the next grid holding a predicted tracer
    std::vector<std::size_t> m_gridIndices;    // needed points asked of the solver
    std::vector<glm::vec3> m_gridPointVelocity;
};

}  // namespace vorton
