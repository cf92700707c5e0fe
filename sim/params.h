#pragma once
/// \file
/// Simulation parameters: plain structs with defaults, units and valid ranges,
/// declared once. The panel, the scene files and `--set` all read the tables
/// below (`SimParamInfos`, `GroupParamInfos`), so a key means the same thing
/// everywhere.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include <glm/vec3.hpp>

namespace vorton {

/// How velocity is computed from vorticity (Gourlay part 3).
enum class Solver : std::uint8_t {
    Direct,  ///< Biot–Savart by direct summation, O(N·M): the exact reference.
    Tree,    ///< Barnes–Hut treecode of clustered vortons, O(N log N).
    /// Vortex-in-cell: strengths to a grid, free-space FFT convolution with
    /// the same kernel (Hockney–Eastwood), O(M log M) in grid points; the
    /// tracer velocity grid comes with it. For large N.
    Grid,
    /// Direct summation below kAutoGridVortons vortons (exact, and with its
    /// eight-lane kernel the fastest there), the grid solver from there on
    /// (measured crossover on the bench cases), and the treecode when the
    /// vortons' grid would pass velocity_grid_cells or kAutoTreeSparsity
    /// points per vorton (a flow spread thin over a large box), unless the
    /// vortons fall into groups separated by empty space (or one group)
    /// whose own grids each fit kAutoGroupGridPoints and together pass no
    /// more than kAutoTreeSparsity points per vorton: then a grid per group
    /// (vorton_clusters.h).
    Auto,
};
/// Vorton count from which Solver::Auto uses the grid solver.
inline constexpr std::size_t kAutoGridVortons = 1000;
/// Grid points per vorton beyond which Solver::Auto takes the treecode
/// instead of the grid solver: the vortons fill too little of their box.
inline constexpr std::size_t kAutoTreeSparsity = 16;
/// Most points of one group's grid when Solver::Auto solves the vortons on
/// a grid per group (vorton_clusters.h), whatever velocity_grid_cells (which
/// bounds the one grid the tracers share, whose cells it coarsens): a group's
/// grid keeps the asked cell, and it is taken while the sparsity bound holds.
/// Five balls within 2 m (86,000–100,000 vortons, 1.0–2.0·10⁶ points): 55–105 ms
/// a solve, where the treecode took 180–235 ms an evaluation (stop 98). 2²¹
/// points hold about 400 MB of spectra, kernel and gradient per grid solver.
inline constexpr std::size_t kAutoGroupGridPoints = std::size_t(1) << 21;
/// Every Solver, in the order of the enum.
inline constexpr std::array<Solver, 4> kSolvers{Solver::Direct, Solver::Tree, Solver::Grid, Solver::Auto};
/// The name of a solver as scene files, `--set` and the panel spell it:
/// direct, tree, grid, auto.
std::string_view SolverName(Solver solver);
/// The solver called `name` (SolverName's inverse), or nothing.
std::optional<Solver> SolverFromName(std::string_view name);
/// Every solver name, joined by `separator` ("direct|tree|grid|auto").
std::string SolverNames(std::string_view separator);

/// Fluid and solver parameters. Units in the comments; ranges in SimParamInfos().
struct SimParams {
    float ambientDensity = 1000.0f;          ///< ρ₀, kg/m³ (live)
    glm::vec3 gravity{0.0f, 0.0f, -9.81f};   ///< g, m/s², points down; z is up (live)
    float viscosity = 3.0e-4f;               ///< ν, kinematic viscosity, m²/s (live)
    float dt = 0.02f;                        ///< time step, s (live)
    Solver solver = Solver::Auto;            ///< velocity-from-vorticity solver (live)
    float treeTheta = 0.6f;                  ///< treecode opening angle: cluster radius / distance (live)
    int treeLeafSize = 16;                   ///< vortons per treecode leaf at most (live)
    /// Cell of the velocity grid / vorton spacing h (live): the grid solver's grid and the
    /// tracers' finest grid. The vortons' velocity field is smooth on their core radius
    /// σ = 1.5 h, so the grid must not be much coarser (the panel's slider: 0.75-2).
    float velocityGridSpacing = 1.0f;
    /// Most points of the velocity grid (live): past it the tracers' grid coarsens its cells,
    /// and remeshing coarsens the vortons' lattice so that their grid fits (Simulation::MaxGridPoints).
    int velocityGridCells = 262144;
    float densityCellFactor = 1.0f;          ///< density grid cell size / vorton spacing h (live)
    float smagorinsky = 0.3f;                ///< C of the subgrid eddy viscosity ν_t = (C·h)²·rate; 0: off (live)
    /// The subgrid model's rate (live). Off, the default: |ω| over a lattice cell, so a
    /// resolved vortex core, turning as a solid body, diffuses at several times ν
    /// (vortex_ring's core with it at 3.9 ν over 5 s). On: the stretching rate |(ω·∇)u|/|ω| = |S ω̂|
    /// (S the strain-rate tensor; the rotation drops out of (ω·∇)u), the strain along the
    /// vorton's vorticity, which vanishes in a solid-body core and in a plane shear layer and
    /// is largest where stretching carries vorticity to the lattice's scale (the cascade
    /// whose subfilter part Alvarez & Ning model, arXiv:2206.03658). Costs nothing: the
    /// step's stretching term is Sω. No scene uses it: it leaves an unresolved wall layer (a
    /// ball thrown at 8 spacings a step, Re 2·10⁴) without the viscosity that kept it stable,
    /// and vortex_ring, which used it in stop 108, blew up at 90 s: a vorton far stronger than
    /// its neighbours (|ω| 30 times the 99th percentile) that the flow strains little is not
    /// damped, where the |ω| rate damps it (docs/METHOD.md, PSE).
    bool subgridStretching = false;
    /// The subgrid viscosity's rate is the high-pass part of the vorticity, |ω − ω̄| with ω̄
    /// the box filter over the 3×3×3 lattice points around the vorton (HighPassVorticity;
    /// Stolz, Schlatter & Kleiser 2005), instead of |ω|: small where the lattice resolves
    /// the field (a laminar core), all of |ω| for a vorton far stronger than its neighbours.
    /// Takes precedence over subgridStretching (live).
    bool subgridHighPass = false;
    /// A⁺ of the van Driest damping of the subgrid viscosity at a body's wall:
    /// ν_t × (1 − exp(−y⁺/A⁺))², y⁺ = d·√(|ω|/ν) with d the distance to the
    /// nearest body's surface and |ω| the vorton's own as the wall's shear
    /// (van Driest 1956, J. Aeronaut. Sci. 23; Moin & Kim 1982, J. Fluid
    /// Mech. 118). The bodies' boundary layers are laminar at the scenes'
    /// Reynolds numbers, so there is nothing for the model to stand for;
    /// 0: no damping, the default; falling_ball uses 26 (live)
    float vanDriest = 0.0f;
    /// The cores with which a body's slip is read, as a fraction of the
    /// vortons' σ, for the vortons within 4 h of a surface point (live;
    /// body_sheet only). 1, the default: the solver's cores. 0.25: the wall
    /// layer's vortons read as the thin sheet they were released as, so the
    /// releases stop at the potential flow's layer: an oscillating ball's
    /// added mass is Stokes' (C_a 0.60–0.65 at R/h 5 against 0.64, where
    /// the solver's cores give 0.71–0.74, and 2.1 where the slip is
    /// released every step), but at R/h 5 a fixed ball separates later
    /// and flow_past_ball does not shed (docs/BODIES.md, stops 80–81). Simulation::
    /// ThinCoreSlipCorrection.
    float slipReadCore = 1.0f;
    /// Whether a body sheet's body is charged with the change viscous
    /// diffusion (PSE, the subgrid viscosity included) makes each step to the
    /// fluid's impulse ½Σx×α, each vorton's share to the body nearest its
    /// surface (live; body_sheet only). In the continuum that change is the
    /// wall's: away from walls diffusion leaves the impulse as it is, and
    /// Wu's force (1981) counts it. Off, the default: the body feels only its
    /// sheet, its push and the fluid it displaces, and the thrown ball's
    /// momentum with its fluid holds only while advection and stretching's
    /// loss at the wall offsets PSE's gain (docs/BODIES.md, stops 67, 81); with
    /// slip_read_core 0.25 that loss is nearly gone and this is what keeps it.
    bool chargeDiffusion = false;
    /// Steps between remeshings onto the seeding lattice, with culling of
    /// what carries next to nothing; 0: never (live). Keeps the vortons'
    /// cores overlapping: without it isolated vortons get stretched without
    /// bound and a run blows up within a minute (remesh.h).
    int remeshEvery = 5;
    /// Each remesh projects the vortons' vorticity onto its solenoidal part,
    /// the bodies' own 2Ω inside them (particles/projection.h). Off by
    /// default: on where a scene needs it, the scenes whose bodies make their
    /// own vorticity (spinning_ball, whose wall layer's field is far from
    /// solenoidal and whose swirl tilts off its axis without it, issue 10;
    /// falling_ball and ball_through_smoke, whose wakes' net vorticity drifts
    /// from Kelvin's without it, and the sheet that restores it each step
    /// turns the ball's path oblique, issue 12). Scene files that do not give
    /// it get it where body_sheet is on (scene/scene.h).
    bool solenoidalRemesh = false;
    /// Each remesh keeps zero-strength receivers on the lattice points next to
    /// the vorticity it keeps (where |α| is at least 10⁻³ of the largest,
    /// RemeshSettings::diffusionReceiverFraction), so that viscous diffusion (PSE, which exchanges
    /// strength only between existing vortons) can carry vorticity into still
    /// fluid. Without them the vorton cloud's edge grows only as far as the
    /// vortons drift off the lattice between remeshes, and in slow flow it
    /// holds the vorticity in like a wall: a ball started impulsively at
    /// Re 1.7 then feels a force that does not scale with the stream's speed,
    /// as linear (Stokes) flow must (issue 12; docs/BODIES.md). Off by default: it
    /// costs vortons (+20–27 % at Re 100, about twice at Re 20, where the
    /// diffusing cloud is that large) and stops flow_past_ball's shedding.
    bool diffusionReceivers = false;
    /// Most vortons a remesh may leave (live). Past it the vortons are
    /// remeshed onto a lattice 2^{1/3} times as coarse (half the volume per
    /// vorton; conserves what remeshing conserves), as long as every body
    /// radius still spans 2.5 spacings; only then are the weakest dropped.
    /// Likewise when the vortons' solver grid would pass 3 times the points
    /// of the seeded vortons' grid, or velocity_grid_cells (a flow spread thin
    /// over a growing volume; Simulation::MaxGridPoints).
    /// 0: 1.5 times the seeded count, plus room for the wakes of bodies that make
    /// their own vorticity and move through the fluid (Simulation::MaxVortons).
    int maxVortons = 0;
    float maxSpeed = 100.0f;                 ///< m/s; a faster vorton counts as a blow-up (live)
    /// U∞, m/s: uniform stream added to the velocity everywhere (a Galilean
    /// shift: the vorticity does not see it, bodies and emitters do) (live)
    glm::vec3 freeStream{0.0f};
    int vortonCount = 4000;                  ///< target vorton count, spread over the groups (on reset)
    int tracerCount = 100000;                ///< target tracer count, spread over the groups (on reset)
    float coreOverlap = 1.5f;                ///< vorton core radius σ / lattice spacing h (on reset)
    /// Bodies make their own vorticity (issue 12): no-through by image
    /// sources, no-slip by a vortex sheet released each step, the fluid's
    /// force from the impulse given to it (bodies/body_surface.h). Off: the
    /// skin model (a vortex layer in the vortons near the surface, Gourlay
    /// part 4), which needs vortons seeded around the body (on reset).
    bool bodySheet = false;
    /// In a scene without groups (clear water), the first body's radius over
    /// the vorton spacing h the bodies' vorticity lives on; h is finer only
    /// where another body would span fewer than min(this, 4) spacings
    /// (ClearWaterSpacing; on reset).
    float bodyResolution = 5.0f;
    /// With body_sheet: vortons farther than this from every body (m) are let
    /// go at each remesh, so a body that travels keeps a wake of bounded
    /// extent and a steady cost; 0: kept (live).
    float wakeLength = 0.0f;
    /// e, the coefficient of restitution of two bodies that touch: their
    /// relative velocity along the line of centres leaves at −e times what it
    /// came in with (Simulation::CollideBodies; friction: bodyFriction). A wet
    /// collision loses energy to the fluid squeezed out between the spheres
    /// (Gondret, Lance & Petit 2002, Phys. Fluids 14: e from 0 to about 0.95
    /// by the Stokes number of the approach); 0.5 is a middle value (live).
    float bodyRestitution = 0.5f;
    /// Coulomb friction coefficient μ of two bodies that touch: the tangential
    /// impulse at the contact stops their surfaces' slip, up to μ times the
    /// normal one, and sets them spinning (ResolveSphereContacts). Joseph &
    /// Hunt (2004, J. Fluid Mech. 510) found wet oblique collisions like dry
    /// ones with a lower μ, much lower for smooth surfaces and near the dry
    /// values for rough ones; 0.1 is a smooth wet contact (live).
    float bodyFriction = 0.1f;
    int seed = 1;                            ///< random seed for tracer placement (on reset)
};

/// A named region of fluid seeded with vortons and tracers (a "density group").
struct DensityGroup {
    enum class Shape : std::uint8_t { Sphere, Box, Torus };

    std::string name;
    Shape shape = Shape::Sphere;
    glm::vec3 center{0.0f};            ///< m
    float radius = 0.25f;              ///< m: sphere radius, torus major radius
    float minorRadius = 0.05f;         ///< m: torus core radius
    glm::vec3 halfExtents{0.25f};      ///< m: box half sizes
    float waveAmplitude = 0.0f;        ///< m: box top/bottom faces displaced by a·cos(kx)·cos(ky)
    float waveLength = 0.5f;           ///< m: wavelength of that displacement
    float halo = 0.0f;                 ///< m: shell of zero-deviation vortons seeded around the shape
    float densityDeviation = 0.0f;     ///< δρ, kg/m³ relative to the ambient density (live)
    glm::vec3 dye{0.85f, 0.85f, 0.9f}; ///< RGB 0..1 colour of its tracers (live)
    float circulation = 0.0f;          ///< Γ, m²/s: torus only, azimuthal vorticity Γ/(πa²)
    /// Part of the stratified ambient (docs/METHOD.md §2): the
    /// group's density_deviation is not carried by its vortons but sets the
    /// ambient profile ρ̄(z) over the group's height range (box groups).
    bool layer = false;
    /// An emitter in the free stream: its vortons and tracers that leave the
    /// shape's box downstream re-enter upstream as fresh, still fluid (box groups).
    bool emit = false;
    /// Dye released by a body (m; 0: off): this group's tracers that are
    /// farther than this from the group's body (the first whose reset
    /// position is in the group's shape grown by its radius, else the one
    /// nearest the group's centre) are released again at a random point of
    /// its surface, so a moving body keeps trailing a wake of dye this long
    /// (a dye-only group).
    float releaseBeyond = 0.0f;
};

/// A rigid sphere in the flow (Gourlay parts 4 and 9). Position, velocity and
/// angular velocity are the state at reset; radius, density and fixed apply live.
struct BodySpec {
    std::string name;
    glm::vec3 position{0.0f};         ///< centre at reset, m
    glm::vec3 velocity{0.0f};         ///< m/s at reset
    glm::vec3 angularVelocity{0.0f};  ///< rad/s at reset
    float radius = 0.1f;              ///< R, m (live)
    float density = 1000.0f;          ///< ρ_b, kg/m³; mass ρ_b·4/3·πR³ (live)
    /// Infinite mass and inertia: keeps its velocity and spin whatever the fluid does (live).
    bool fixed = false;
    /// Prescribed oscillation of a fixed body (applied on reset): it is carried at
    /// velocity + U₀ sin(2πt/T), t from reset, U₀ = oscillationVelocity (m/s) and
    /// T = oscillationPeriod (s; 0: none). The check of a body's added mass against
    /// Stokes' oscillating sphere (Landau & Lifshitz, *Fluid Mechanics* §24;
    /// scripts/added-mass). Only a fixed body may oscillate (SetupProblem).
    glm::vec3 oscillationVelocity{0.0f};
    float oscillationPeriod = 0.0f;
    glm::vec3 color{0.92f, 0.9f, 0.85f};  ///< RGB 0..1 (live)
};

/// The velocity (m/s) a fixed body is carried at at time `time` (s from reset):
/// spec.velocity plus its oscillation, if any (BodySpec::oscillationPeriod).
glm::vec3 CarriedVelocity(const BodySpec& spec, double time);

/// One parameter: its key (as in scene files and `--set`), label, unit,
/// range and whether an edit applies on the next step (live) or on reset.
template <typename Struct>
struct ParamInfo {
    using Member = std::variant<float Struct::*, int Struct::*, glm::vec3 Struct::*, Solver Struct::*, bool Struct::*>;
    /// Where the panel shows a parameter of SimParams (groups and bodies have their own sections).
    enum class Panel : std::uint8_t { Hidden, Fluid, Solver };
    std::string_view key;
    std::string_view label;
    std::string_view unit;
    Member member;
    float min;
    float max;
    bool live;
    bool logScale;
    std::string_view help;
    Panel panel = Panel::Hidden;
    /// The panel slider's range when narrower than [min, max] (the useful
    /// part; typing a value beyond it still works up to the range); 0, 0: [min, max].
    float sliderMin = 0.0f;
    float sliderMax = 0.0f;
};

/// All SimParams fields, in panel order.
std::span<const ParamInfo<SimParams>> SimParamInfos();
/// Per-group fields settable as `<group>.<key>` (all but name and shape;
/// geometry applies on reset).
std::span<const ParamInfo<DensityGroup>> GroupParamInfos();
/// Per-body fields settable as `<body>.<key>` (bool members: min/max unused).
std::span<const ParamInfo<BodySpec>> BodyParamInfos();

/// Thread-count-free upper bound on vortons and tracers a scene may ask for.
inline constexpr int kMaxVortons = 1 << 22;
inline constexpr int kMaxTracers = 1 << 26;

}  // namespace vorton
