#include "sim/params.h"

#include <array>
#include <cmath>
#include <numbers>
#include <string>

namespace vorton {

namespace {
constexpr std::array<std::string_view, kSolvers.size()> kSolverNames{"direct", "tree", "grid", "auto"};
}  // namespace

std::string_view SolverName(Solver solver) {
    return std::size_t(solver) < kSolverNames.size() ? kSolverNames[std::size_t(solver)] : "?";
}

std::optional<Solver> SolverFromName(std::string_view name) {
    for (const Solver s : kSolvers) {
        if (SolverName(s) == name) return s;
    }
    return std::nullopt;
}

std::string SolverNames(std::string_view separator) {
    std::string out;
    for (const Solver s : kSolvers) {
        if (!out.empty()) out += separator;
        out += SolverName(s);
    }
    return out;
}

std::span<const ParamInfo<SimParams>> SimParamInfos() {
    using P = SimParams;
    using Panel = ParamInfo<P>::Panel;
    static const std::array<ParamInfo<P>, 31> infos{{
        {"ambient_density", "Ambient density", "kg/m^3", &P::ambientDensity, 1.0f, 1.0e4f, true, true,
         "density rho0 of the fluid around the dye; baroclinic generation scales as 1/rho0", Panel::Fluid, 10.0f, 1.0e4f},
        {"gravity", "Gravity", "m/s^2", &P::gravity, -50.0f, 50.0f, true, false,
         "gravity vector g; points down (z is up)", Panel::Fluid},
        {"viscosity", "Viscosity", "m^2/s", &P::viscosity, 0.0f, 1.0e-2f, true, false,
         "kinematic viscosity nu, applied by particle strength exchange", Panel::Fluid, 0.0f, 1.0e-3f},
        {"dt", "Time step", "s", &P::dt, 1.0e-4f, 0.1f, true, true, "simulated time per step", Panel::Solver, 0.001f, 0.05f},
        {"solver", "Solver", "", &P::solver, 0.0f, 3.0f, true, false,
         "velocity from vorticity: direct (exact, O(N^2)), tree (treecode, O(N log N)), grid (FFT vortex-in-cell on "
         "the velocity grid, O(M log M), for large N) or auto (direct below 1000 vortons, then grid while its box fits at <= 16 grid points per vorton, else a grid per group of vortons where they lie in groups far apart or fill a box too large for velocity_grid_cells, else tree)", Panel::Solver},
        {"tree_theta", "Tree opening angle", "", &P::treeTheta, 0.05f, 1.0f, true, false,
         "treecode accepts a cluster when its radius / distance is below this", Panel::Solver, 0.1f, 1.0f},
        {"tree_leaf_size", "Tree leaf size", "", &P::treeLeafSize, 1.0f, 64.0f, true, false,
         "vortons per treecode leaf at most"},
        {"velocity_grid_spacing", "Velocity grid cell / h", "", &P::velocityGridSpacing, 0.25f, 8.0f, true, true,
         "cell of the velocity grid in vorton spacings h: the grid solver's grid (solver grid, or auto past 1000 "
         "vortons) and the grid the tracers interpolate velocity from. Coarser than about 2 h misses the vortons' "
         "cores (1.5 h): vortex_ring's ring 7 % slower at 4 h, 24 % at 8 h; finer costs (1/cell^3) and, past "
         "velocity_grid_cells, coarsens the vortons' lattice (at 0.25 h the ring 37 % slower)",
         Panel::Solver, 0.75f, 2.0f},
        {"velocity_grid_cells", "Velocity grid max points", "", &P::velocityGridCells, 512.0f, 1.6e7f, true,
         true, "most points of the velocity grid: beyond, the tracers' grid coarsens its cells, and remeshing "
         "coarsens the vortons' lattice until their grid fits (the run says so). Far below the seeded flow's grid "
         "the lattice is coarsened at the first remesh: at 8,000 vortex_ring's ring moves at half its speed, at 1,000 "
         "every scene's flow is lost", Panel::Solver, 65536.0f, 2097152.0f},
        {"density_cell_factor", "Density cell / vorton spacing", "", &P::densityCellFactor, 0.5f, 8.0f, true, false,
         "cell size of the density grid for baroclinic generation, in vorton spacings h; too fine leaves holes "
         "between vortons where no gradient is seen"},
        {"smagorinsky", "Subgrid constant", "", &P::smagorinsky, 0.0f, 1.0f, true, false,
         "C of the subgrid eddy viscosity (C h)^2 |w| (or the rate subgrid_stretching or subgrid_high_pass picks) added where "
         "the flow is finer than the vorton spacing h can resolve; 0 turns it off"},
        {"subgrid_stretching", "Subgrid rate: stretching", "", &P::subgridStretching, 0.0f, 1.0f, true, false,
         "the subgrid viscosity's rate is the stretching rate |(w.grad)u|/|w| (the strain along w) instead of |w|: "
         "a laminar vortex core, turning as a solid body, is left to the viscosity (vortex_ring's core diffuses at "
         "1.8 nu over 5 s instead of 3.9 nu, and the ring moves 43 % faster at 20 s), but so is a vorton far "
         "stronger than its neighbours that the flow strains little (vortex_ring blew up at 90 s with it), and an "
         "unresolved wall layer (a ball thrown fast blew up): off in every scene", Panel::Solver},
        {"subgrid_high_pass", "Subgrid rate: high-pass", "", &P::subgridHighPass, 0.0f, 1.0f, true, false,
         "the subgrid viscosity's rate is the high-pass part of the vorticity, |w - w_box| with w_box its mean over "
         "the 3x3x3 lattice points around the vorton, instead of |w|: small where the lattice resolves the flow "
         "(a laminar vortex core), all of |w| for a vorton far stronger than its neighbours (Stolz, Schlatter & "
         "Kleiser 2005); vortex_ring uses it; takes precedence over subgrid_stretching", Panel::Solver},
        {"van_driest", "Subgrid wall damping A+", "", &P::vanDriest, 0.0f, 100.0f, true, false,
         "van Driest's A+ for damping the subgrid viscosity near a body's wall by (1 - exp(-y+/A+))^2, y+ = d "
         "sqrt(|w|/nu) at distance d from the surface: the bodies' boundary layers are laminar (26: the usual "
         "value; 0: no damping)", Panel::Solver, 0.0f, 50.0f},
        {"slip_read_core", "Slip read core / sigma", "", &P::slipReadCore, 0.05f, 1.0f, true, false,
         "with body_sheet, the slip on a body's surface is read with the cores of the vortons within 4 h of it "
         "shrunk to this fraction of sigma; 1 (the default): the solver's own cores; 0.25: the wall layer read "
         "as the thin sheet it was released as, which gives an oscillating ball Stokes' added mass, but at "
         "R/h 5 a later separation and no shedding past a fixed ball", Panel::Solver},
        {"charge_diffusion", "Charge diffusion to bodies", "", &P::chargeDiffusion, 0.0f, 1.0f, true, false,
         "with body_sheet, each body also feels the change viscous diffusion makes to the fluid's impulse (each "
         "vorton's share to the nearest body), as Wu's force counts it: with slip_read_core 0.25 it keeps a "
         "thrown ball's momentum with its fluid; off (the default): only the sheet and push are charged",
         Panel::Solver},
        {"remesh_every", "Remesh every", "steps", &P::remeshEvery, 0.0f, 1000.0f, true, false,
         "steps between remeshings of the vortons onto their seeding lattice, which also culls what carries next to "
         "nothing (0: never); remeshing keeps the vortons' cores overlapping, without which isolated vortons "
         "get stretched without bound", Panel::Solver, 0.0f, 50.0f},
        {"solenoidal_remesh", "Solenoidal remesh", "", &P::solenoidalRemesh, 0.0f, 1.0f, true, false,
         "each remesh takes the divergence out of the vortons' vorticity (with the bodies' own 2 Omega inside "
         "them): the particles' field need not stay a curl, and a spinning ball's swirl tilts off its axis "
         "when it does not; a scene file that does not give it has it on where body_sheet is on", Panel::Solver},
        {"diffusion_receivers", "Diffusion receivers", "", &P::diffusionReceivers, 0.0f, 1.0f, true, false,
         "each remesh keeps empty vortons next to the vorticity it keeps, so that viscous diffusion can carry "
         "vorticity into still fluid (without them the cloud's edge holds it in, in slow flow); costs vortons",
         Panel::Solver},
        {"max_vortons", "Max vortons", "", &P::maxVortons, 0.0f, float(kMaxVortons), true, true,
         "most vortons a remesh may leave: beyond, the lattice coarsens (then the weakest are dropped); 0: 1.5 "
         "times the seeded count, plus room for the wakes of bodies that make their own vorticity (two wakes' "
         "room at most, shared past two bodies)", Panel::Solver, 0.0f, 200000.0f},
        {"max_speed", "Blow-up speed", "m/s", &P::maxSpeed, 0.1f, 1.0e4f, true, true,
         "a vorton faster than this stops the run as a blow-up"},
        {"free_stream", "Free stream", "m/s", &P::freeStream, -20.0f, 20.0f, true, false,
         "uniform stream velocity added everywhere; bodies and emitting groups feel it", Panel::Fluid, -2.0f, 2.0f},
        {"vorton_count", "Vortons", "", &P::vortonCount, 1.0f, float(kMaxVortons), false, true,
         "target vorton count, spread over the groups (applied on reset)", Panel::Solver, 100.0f, 200000.0f},
        {"tracer_count", "Tracers", "", &P::tracerCount, 0.0f, float(kMaxTracers), false, true,
         "target tracer count, spread over the groups (applied on reset)", Panel::Solver, 1000.0f, 4000000.0f},
        {"core_overlap", "Core overlap", "", &P::coreOverlap, 0.5f, 4.0f, false, false,
         "vorton core radius / spacing; vortex methods need overlapping cores (> 1) to stay accurate and stable "
         "(applied on reset)"},
        {"body_sheet", "Bodies make vorticity", "", &P::bodySheet, 0.0f, 1.0f, false, false,
         "bodies make their own wake: image sources keep the fluid out, a vortex sheet released each step "
         "cancels the slip on the surface, and the fluid's force follows from the impulse given to it (works "
         "in clear water); off: the skin model, a vortex layer in the vortons seeded near the surface (applied on reset)"},
        {"body_resolution", "Body radius / h", "", &P::bodyResolution, 1.0f, 32.0f, false, false,
         "in clear water (a scene without groups) the vortons the bodies make live on a lattice of spacing h = "
         "the first body's radius / this, finer only where another body would span fewer than min(this, 4) "
         "spacings (applied on reset)"},
        {"wake_length", "Wake length", "m", &P::wakeLength, 0.0f, 1.0e4f, true, false,
         "vortons that carry only vorticity and are farther than this from every body (and from a layer's or "
         "buoyant fluid) are let go at each remesh, so a travelling body's wake keeps a bounded extent and the step a steady cost (0: kept)", Panel::Solver, 0.0f, 20.0f},
        {"body_restitution", "Ball bounce", "", &P::bodyRestitution, 0.0f, 1.0f, true, false,
         "coefficient of restitution e of two bodies that touch: the speed at which they close along the line "
         "of their centres leaves at e times it (0: they stop against each other, 1: elastic)",
         Panel::Fluid},
        {"body_friction", "Ball friction", "", &P::bodyFriction, 0.0f, 1.0f, true, false,
         "Coulomb friction coefficient of two bodies that touch: where their surfaces slide past each other "
         "the contact pushes back, up to this times its normal push, and sets them spinning (0: frictionless)",
         Panel::Fluid},
        {"seed", "Random seed", "", &P::seed, 0.0f, 1.0e9f, false, false,
         "seed of the tracer placement (applied on reset)"},
    }};
    return infos;
}

std::span<const ParamInfo<DensityGroup>> GroupParamInfos() {
    using G = DensityGroup;
    constexpr float kBig = 1.0e4f;  // m: any place or size a scene can use
    static const std::array<ParamInfo<G>, 13> infos{{
        {"density_deviation", "Density deviation", "kg/m^3", &G::densityDeviation, -1.0e3f, 1.0e3f, true,
         false, "density of this group's fluid minus the ambient density"},
        {"dye", "Dye colour", "rgb", &G::dye, 0.0f, 1.0f, true, false, "colour of this group's tracers"},
        {"center", "Centre", "m", &G::center, -kBig, kBig, false, false, "centre of the shape (applied on reset)"},
        {"radius", "Radius", "m", &G::radius, 1.0e-4f, kBig, false, false,
         "sphere radius, or the torus's major radius (applied on reset)"},
        {"minor_radius", "Minor radius", "m", &G::minorRadius, 1.0e-4f, kBig, false, false,
         "torus core radius a (applied on reset)"},
        {"half_extents", "Half extents", "m", &G::halfExtents, 1.0e-4f, kBig, false, false,
         "box half sizes (applied on reset)"},
        {"wave_amplitude", "Wave amplitude", "m", &G::waveAmplitude, -kBig, kBig, false, false,
         "box top and bottom faces displaced by a cos(kx) cos(ky) (applied on reset)"},
        {"wave_length", "Wave length", "m", &G::waveLength, 1.0e-4f, kBig, false, false,
         "wavelength of that displacement (applied on reset)"},
        {"halo", "Halo", "m", &G::halo, 0.0f, kBig, false, false,
         "shell of zero-deviation vortons seeded around the shape (applied on reset)"},
        {"circulation", "Circulation", "m^2/s", &G::circulation, -kBig, kBig, false, false,
         "torus only: circulation Gamma of its core, azimuthal vorticity Gamma/(pi a^2) (applied on reset)"},
        {"layer", "Layer", "", &G::layer, 0.0f, 1.0f, false, false,
         "part of the stratified ambient: density_deviation sets the ambient profile over the box's height "
         "instead of being carried by its vortons (applied on reset)"},
        {"emit", "Emitter", "", &G::emit, 0.0f, 1.0f, false, false,
         "an emitter in the free stream: fluid leaving the box downstream re-enters upstream (applied on reset)"},
        {"release_beyond", "Released by a body", "m", &G::releaseBeyond, 0.0f, kBig, true, false,
         "dye released by the group's body (the first in the group's shape at reset, else the nearest): its "
         "tracers farther than this from that body are "
         "released again at the body's surface, so a moving body trails this much dye (0: off)"},
    }};
    return infos;
}

std::span<const ParamInfo<BodySpec>> BodyParamInfos() {
    using B = BodySpec;
    static const std::array<ParamInfo<B>, 9> infos{{
        {"density", "Density", "kg/m^3", &B::density, 0.0f, 1.0e5f, true, true,
         "density of the sphere; it sinks where the fluid around it is lighter"},
        {"radius", "Radius", "m", &B::radius, 1.0e-3f, 100.0f, true, true, "radius R of the sphere"},
        {"fixed", "Fixed", "", &B::fixed, 0.0f, 1.0f, true, false,
         "infinite mass: keeps its velocity and spin whatever the fluid does"},
        {"position", "Position", "m", &B::position, -1.0e4f, 1.0e4f, false, false, "centre (applied on reset)"},
        {"velocity", "Velocity", "m/s", &B::velocity, -100.0f, 100.0f, false, false,
         "linear velocity (applied on reset)"},
        {"angular_velocity", "Angular velocity", "rad/s", &B::angularVelocity, -1000.0f, 1000.0f, false, false,
         "spin about the centre (applied on reset)"},
        {"oscillation_velocity", "Oscillation velocity", "m/s", &B::oscillationVelocity, -100.0f, 100.0f, false,
         false,
         "a fixed body's velocity amplitude U0: it is carried at velocity + U0 sin(2 pi t / T) "
         "(applied on reset)"},
        {"oscillation_period", "Oscillation period", "s", &B::oscillationPeriod, 0.0f, 1.0e4f, false, false,
         "the period T of a fixed body's oscillation; 0: none (applied on reset)"},
        {"color", "Colour", "rgb", &B::color, 0.0f, 1.0f, true, false, "colour of the sphere"},
    }};
    return infos;
}

glm::vec3 CarriedVelocity(const BodySpec& spec, double time) {
    if (!(spec.oscillationPeriod > 0.0f)) return spec.velocity;
    const double phase = 2.0 * std::numbers::pi * time / double(spec.oscillationPeriod);
    return spec.velocity + float(std::sin(phase)) * spec.oscillationVelocity;
}

}  // namespace vorton
