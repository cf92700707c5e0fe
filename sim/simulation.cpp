#include "simulation.h"
#include "step_helpers.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

#include <glm/geometric.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

namespace vorton {

using namespace step;

namespace {

constexpr std::array<std::string_view, kStageCount> kStageNames{
    "remesh", "bounds", "tree", "velocity", "velocity_grid", "baroclinic", "diffusion", "advection", "bodies"};

constexpr std::size_t kMaxRemeshPoints = std::size_t(1) << 25;

}  // namespace

std::string_view StageName(Stage stage) { return kStageNames[std::size_t(stage)]; }

Simulation::Simulation(SceneSetup setup) : m_setup(std::move(setup)) { Reset(); }

void Simulation::Reset() {
    SeedVortons(m_setup, m_vortons, &m_lattice);
    m_seededVortons = m_vortons.Size();
    m_seededSpacing = Spacing();
    m_remeshCount = m_remeshCapped = 0;
    m_remeshDropped = 0.0;
    m_lastRemesh = RemeshReport{};
    SeedTracers(m_setup, m_tracers);
    m_bodies.clear();
    SyncBodies();  // every body at its spec
    m_collisionImpulse = glm::dvec3(0.0);
    m_profile.Build(m_setup.groups, m_seededSpacing);
    m_densityGridValid = false;
    m_time = 0.0;
    m_steps = 0;
    m_stageMs.fill(0.0);
    m_stepMs = 0.0;
    m_lastMaxSpeed = 0.0;
    m_lastVortonSpeed = 0.0;
    m_cacheValid = false;
    m_tracerBounds = BoundsOf(m_tracers.position);
    m_tracerBoundsValid = true;
    const Aabb vortonBox = BoundsOf(m_vortons.position);
    m_activeSolver = ResolveActiveSolver(vortonBox);
    m_bounds = vortonBox;
    m_bounds.Grow(m_tracerBounds);
}

BodyState& Simulation::MutableBody(std::size_t i) {
    m_cacheValid = false;
    return m_bodies.at(i);
}

void Simulation::GrabBody(std::size_t i, glm::vec3 target) {
    BodyState& b = m_bodies.at(i);
    b.grabbed = true;
    b.grabTarget = target;
}

void Simulation::ReleaseBody(std::size_t i) { m_bodies.at(i).grabbed = false; }

float Simulation::AmbientDensity(glm::vec3 x) const {
    return m_setup.params.ambientDensity + m_profile.Delta(x.z);
}

float Simulation::Spacing() const {
    if (m_lattice.spacing > 0.0f) return m_lattice.spacing;
    // Vortons placed by hand (tests, tools): their mean volume's cube root.
    double volume = 0.0;
    for (const float v : m_vortons.volume) volume += v;
    return m_vortons.Size() ? float(std::cbrt(volume / double(m_vortons.Size()))) : 0.0f;
}

float Simulation::VortonDensityDeviation(std::size_t k) const {
    const std::uint16_t g = m_vortons.group[k];
    // A layer's own deviation is the ambient profile, not carried.
    float deviation = g == kAmbientGroup || m_setup.groups[g].layer
                          ? 0.0f
                          : m_setup.groups[g].densityDeviation * m_vortons.massFraction[k];
    if (!m_profile.Empty()) {
        // Born at the profile's density where it started; what counts is the
        // difference from the profile where it is now (docs/METHOD.md §2).
        deviation += m_profile.Delta(m_vortons.birthHeight[k]) - m_profile.Delta(m_vortons.position[k].z);
    }
    return deviation;
}

float Simulation::TracerDensityDeviation(std::size_t i) const {
    return m_setup.groups[m_tracers.group[i]].densityDeviation;
}

double Simulation::Elapsed(std::int64_t& tick) {
    const std::int64_t now = Now();
    const double ms = double(now - tick) * 1.0e-6;
    tick = now;
    return ms;
}

void Simulation::LoadSources(std::span<const glm::vec3> position, std::span<const glm::vec3> vorticity) {
    const std::size_t n = position.size();
    m_alpha.resize(n);
    m_sigma2.resize(n);
    ParallelFor(n, [&](std::size_t k) {
        m_alpha[k] = vorticity[k] * m_vortons.volume[k];
        m_sigma2[k] = m_vortons.radius[k] * m_vortons.radius[k];
    });
}

VelocitySolver& Simulation::SolverFor(bool predictor) {
    std::unique_ptr<VelocitySolver>& solver = m_solvers[predictor ? 1 : 0][std::size_t(m_activeSolver)];
    if (!solver) solver = MakeVelocitySolver(m_activeSolver);
    return *solver;
}

GridGeometry Simulation::FitVortonGrid(const Aabb& box) const {
    const SimParams& p = m_setup.params;
    // The margin of 2.5 cells keeps the grid solver's four-point stencils
    // around every vorton inside.
    const std::size_t maxPoints = std::size_t(std::max(512, p.velocityGridCells));
    const float h = Spacing();
    if (!(h > 0.0f) || box.Empty()) {
        const float sigma = m_vortons.Size() ? m_vortons.radius[0] : 0.0f;
        return FitGrid(box.Empty() ? Aabb{glm::vec3(-1.0f), glm::vec3(1.0f)} : box, sigma, maxPoints);
    }
    float cell = std::max(0.05f, p.velocityGridSpacing) * h;
    for (;;) {
        const GridGeometry g = FitGridWithCell(box, 2.5f * cell, cell, std::numeric_limits<std::size_t>::max());
        if (g.PointCount() <= maxPoints) return g;
        cell *= 1.1f;
    }
}

Solver Simulation::ResolveActiveSolver(const Aabb& vortonBox) const {
    const SimParams& p = m_setup.params;
    if (p.solver != Solver::Auto) return p.solver;
    const std::size_t n = m_vortons.Size();
    if (n < kAutoGridVortons || vortonBox.Empty()) return Solver::Direct;
    const float cell = std::max(0.05f, p.velocityGridSpacing) * Spacing();
    const GridGeometry g = FitGridWithCell(vortonBox, 2.5f * cell, cell, std::numeric_limits<std::size_t>::max());
    // The grid's cost grows with the box's volume, the tree's with the
    // vortons: a few vortons spread over a large box go to the tree.
    const bool fits = g.PointCount() <= std::size_t(std::max(512, p.velocityGridCells));
    const bool dense = g.PointCount() <= kAutoTreeSparsity * n;
    return fits && dense ? Solver::Grid : Solver::Tree;
}

void Simulation::VelocityAt(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) {
    m_activeSolver = ResolveActiveSolver(BoundsOf(m_vortons.position));
    LoadSources(m_vortons.position, m_vortons.vorticity);
    if (m_vortons.position.empty()) {
        std::fill(velocity.begin(), velocity.end(), glm::vec3(0.0f));
    } else {
        VelocitySolver& solver = SolverFor(false);
        solver.Load(VortonSources{m_vortons.position, m_alpha, m_sigma2}, FitVortonGrid(BoundsOf(m_vortons.position)),
                    SolverSettings{m_setup.params.treeTheta, m_setup.params.treeLeafSize}, false);
        solver.Evaluate(points, velocity);
        // The solver no longer holds the state of the cached tracer grid.
        m_cacheValid = false;
    }
    AddBodyVelocity(points, velocity, {}, {});
}

void Simulation::DirectVelocityAt(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) {
    LoadSources(m_vortons.position, m_vortons.vorticity);
    DirectVelocity(VortonSources{m_vortons.position, m_alpha, m_sigma2}, VelocityQuery{points, velocity, {}, {}});
    AddBodyVelocity(points, velocity, {}, {});
}

void Simulation::BaroclinicRates() {
    const SimParams& p = m_setup.params;
    const std::size_t n = m_vortons.Size();
    m_baroclinic.assign(n, glm::vec3(0.0f));
    m_deviationMass.resize(n);
    bool anyDeviation = false;
    for (std::size_t k = 0; k < n; ++k) {
        m_deviationMass[k] = VortonDensityDeviation(k) * m_vortons.volume[k];
        anyDeviation = anyDeviation || m_deviationMass[k] != 0.0f;
    }
    m_densityGridValid = false;
    if (!anyDeviation || glm::dot(p.gravity, p.gravity) == 0.0f || n == 0) return;
    // Cells of about the vorton spacing h: finer cells show each vorton's own
    // bump (zero gradient at its centre) and lose generation.
    const float cell = p.densityCellFactor * Spacing();
    m_baroclinicGenerator.ComputeRates(m_vortons.position, m_deviationMass, cell, p.gravity, p.ambientDensity,
                                       m_baroclinic);
    m_densityGridValid = true;
    // As dω/dt, like the stretching term.
    ParallelFor(n, [&](std::size_t k) { m_baroclinic[k] /= m_vortons.volume[k]; });
}

void Simulation::EvaluateVortons(std::span<const glm::vec3> position, std::span<const glm::vec3> vorticity,
                                 std::span<glm::vec3> velocity, std::span<glm::vec3> stretch, VelocitySolver& solver,
                                 const GridGeometry& grid) {
    std::int64_t tick = Now();
    LoadSources(position, vorticity);
    if (!position.empty()) {
        solver.Load(VortonSources{position, m_alpha, m_sigma2}, grid,
                    SolverSettings{m_setup.params.treeTheta, m_setup.params.treeLeafSize}, true);
        if (solver.Kind() == Solver::Grid) m_work.solverGridPoints += grid.PointCount();
        m_stageMs[int(m_activeSolver == Solver::Tree ? Stage::Tree : Stage::Velocity)] += Elapsed(tick);
        solver.EvaluateAtSources(vorticity, velocity, stretch);
    }
    AddBodyVelocity(position, velocity, vorticity, stretch);
    m_stageMs[int(Stage::Velocity)] += Elapsed(tick);
}

Simulation::CacheKey Simulation::CurrentCacheKey() const {
    const SimParams& p = m_setup.params;
    return CacheKey{m_activeSolver, p.treeTheta, p.treeLeafSize, p.velocityGridCells, p.velocityGridSpacing,
                    m_vortons.Size(), m_tracers.Size()};
}

StepReport Simulation::Step() {
    const SimParams& p = m_setup.params;
    const float dt = p.dt;
    StepReport report;
    report.step = m_steps;
    auto fail = [&](Stage stage, const std::string& what) {
        report.ok = false;
        report.stage = std::string(StageName(stage));
        std::ostringstream msg;
        msg << "blow-up at step " << m_steps << " (t = " << m_time << " s), stage " << report.stage << ": " << what;
        report.message = msg.str();
        m_cacheValid = false;
        return report;
    };

    const std::int64_t start = Now();
    std::int64_t tick = start;
    m_stageMs.fill(0.0);
    m_work = StepWork{};
    const std::size_t nv = m_vortons.Size(), nt = m_tracers.Size();

    // The layers' deviations are live: the profile follows them (its
    // interfaces keep the seeding's width when remeshing coarsens).
    m_profile.Build(m_setup.groups, m_seededSpacing);
    SyncBodies();

    // 1. Bounds of everything that moves; the grids are fitted to them. The
    // tracers' come from the last step's corrector pass.
    if (!m_tracerBoundsValid) {
        m_tracerBounds = BoundsOf(m_tracers.position);
        m_tracerBoundsValid = true;
    }
    const Aabb vortonBox = BoundsOf(m_vortons.position);
    m_activeSolver = ResolveActiveSolver(vortonBox);
    m_bounds = vortonBox;
    m_bounds.Grow(m_tracerBounds);
    for (std::size_t b = 0; b < m_bodies.size(); ++b) {
        const glm::vec3 r(m_setup.bodies[b].radius);
        m_bounds.Grow(Aabb{m_bodies[b].position - r, m_bodies[b].position + r});
    }
    if (m_bounds.Empty()) {
        m_time += dt;
        ++m_steps;
        return report;
    }
    m_stageMs[int(Stage::Bounds)] += Elapsed(tick);

    // 2. Velocity and stretching at the vortons and velocity on the tracer
    // grid at time t. The previous step ended by computing exactly these for
    // its final state, so they are reused unless something changed since.
    if (!m_cacheValid || !(m_cacheKey == CurrentCacheKey())) {
        m_velocity0.resize(nv);
        m_stretch0.resize(nv);
        m_velocityGrid = TracerGrid(vortonBox, m_tracerBounds);
        EvaluateVortons(m_vortons.position, m_vortons.vorticity, m_velocity0, m_stretch0, SolverFor(false),
                        m_velocityGrid.base);
        tick = Now();
        if (nt > 0) {
            MarkNeeded(m_velocityGrid, m_tracers.position);
            EvaluateGridPoints(m_velocityGrid, m_gridNeeded, m_gridPacked0);
        }
        m_stageMs[int(Stage::VelocityGrid)] += Elapsed(tick);
    }
    {
        const Scan scan = ScanVectors(m_velocity0);
        const Scan stretch = ScanVectors(m_stretch0);
        if (scan.nonFinite || stretch.nonFinite) return fail(Stage::Velocity, "non-finite velocity or stretching");
        if (scan.maxNorm2 > p.maxSpeed * p.maxSpeed) {
            std::ostringstream msg;
            msg << "vorton speed " << std::sqrt(scan.maxNorm2) << " m/s exceeds max_speed " << p.maxSpeed << " m/s";
            return fail(Stage::Velocity, msg.str());
        }
        // Caught at its first sign: a resolved flow does not double its
        // fastest speed within one step, and a vorton crossing more than a
        // lattice spacing per step is no longer resolved in time (a CFL
        // number above 1). Both at once, beyond what a body's surface moves
        // at (a ball thrown by the mouse drags the fluid with it), is a
        // blow-up under way (issue 16 saw dye_drop go 0.7 → 1.6 → 6.6 → 36 m/s
        // in four steps before max_speed caught it).
        const double speed = std::sqrt(scan.maxNorm2);
        double bodySpeed = 0.0;
        for (std::size_t b = 0; b < m_bodies.size(); ++b) {
            bodySpeed = std::max(bodySpeed, double(glm::length(m_bodies[b].velocity)) +
                                                double(glm::length(m_bodies[b].angularVelocity)) *
                                                    double(m_setup.bodies[b].radius));
        }
        if (m_lastVortonSpeed > 0.0 && speed > 2.0 * m_lastVortonSpeed && speed * double(dt) > double(Spacing()) &&
            speed > 1.5 * bodySpeed) {
            std::ostringstream msg;
            msg << "the fastest vorton went from " << m_lastVortonSpeed << " to " << speed
                << " m/s in one step and now crosses " << speed * double(dt) / double(Spacing())
                << " lattice spacings per step (dt too large for this flow?)";
            return fail(Stage::Velocity, msg.str());
        }
        m_lastVortonSpeed = speed;
        m_lastMaxSpeed = speed;
    }
    tick = Now();

    // 3. Baroclinic generation.
    BaroclinicRates();
    if (ScanVectors(m_baroclinic).nonFinite) return fail(Stage::Baroclinic, "non-finite baroclinic generation");
    m_stageMs[int(Stage::Baroclinic)] += Elapsed(tick);

    // 4. Viscous diffusion (PSE), as dα/dt.
    m_diffusion.resize(nv);
    std::span<const float> eddy;
    if (p.smagorinsky > 0.0f && nv > 0) {
        // Subgrid eddy viscosity ν_t = (C h)² |ω| (a Smagorinsky model with
        // |ω| for the strain rate), capped at the explicit PSE stability
        // limit ε²/(8 dt), since ε = σ is the smallest length the exchange sees.
        const float h = Spacing();
        const float ch2 = p.smagorinsky * p.smagorinsky * h * h;
        const float cap = m_vortons.radius[0] * m_vortons.radius[0] / (8.0f * dt);
        m_eddyViscosity.resize(nv);
        ParallelFor(nv, [&](std::size_t k) {
            m_eddyViscosity[k] = std::min(cap, ch2 * glm::length(m_vortons.vorticity[k]));
        });
        eddy = m_eddyViscosity;
    }
    m_pse.ComputeRates(m_vortons.position, m_vortons.vorticity, m_vortons.radius, m_vortons.volume, p.viscosity,
                       m_diffusion, eddy);
    if (ScanVectors(m_diffusion).nonFinite) return fail(Stage::Diffusion, "non-finite viscous diffusion");
    m_stageMs[int(Stage::Diffusion)] += Elapsed(tick);

    // 5. Heun (explicit trapezoid). Predictor: Euler to t + dt with every rate.
    m_predictedPosition.resize(nv);
    m_predictedVorticity.resize(nv);
    ParallelFor(nv, [&](std::size_t k) {
        m_predictedPosition[k] = m_vortons.position[k] + dt * (m_velocity0[k] + p.freeStream);
        m_predictedVorticity[k] = m_vortons.vorticity[k] +
                                  dt * (m_stretch0[k] + m_baroclinic[k] + m_diffusion[k] / m_vortons.volume[k]);
    });
    m_stageMs[int(Stage::Advection)] += Elapsed(tick);
    m_velocity1.resize(nv);
    m_stretch1.resize(nv);
    EvaluateVortons(m_predictedPosition, m_predictedVorticity, m_velocity1, m_stretch1, SolverFor(true),
                    FitVortonGrid(BoundsOf(m_predictedPosition)));
    tick = Now();

    // Corrector for the vortons: trapezoid for advection and stretching, Euler for the rest.
    ParallelFor(nv, [&](std::size_t k) {
        m_vortons.position[k] += dt * (0.5f * (m_velocity0[k] + m_velocity1[k]) + p.freeStream);
        m_vortons.vorticity[k] += 0.5f * dt * (m_stretch0[k] + m_stretch1[k]) +
                                  dt * (m_baroclinic[k] + m_diffusion[k] / m_vortons.volume[k]);
    });
    if (ScanVectors(m_vortons.position).nonFinite || ScanVectors(m_vortons.vorticity).nonFinite) {
        return fail(Stage::Advection, "non-finite vorton position or vorticity");
    }
    AbsorbAtLayerSides(dt);
    m_stageMs[int(Stage::Advection)] += Elapsed(tick);

    // 6. Bodies (parts 4 and 9): buoyancy and gravity, then their motion; the
    // vortons they hit are pushed out and carry the no-slip sheet, and the
    // momentum exchanged moves them. Emitters renew the stream. All before
    // the velocity of the new state is evaluated, so it stays valid for the
    // next step.
    if (!m_bodies.empty()) {
        MoveBodies(dt);
        CollideVortons(dt);
        for (std::size_t b = 0; b < m_bodies.size(); ++b) {
            const BodyState& body = m_bodies[b];
            if (!Finite(body.position) || !Finite(body.velocity) || !Finite(body.angularVelocity)) {
                return fail(Stage::Bodies, "non-finite body state");
            }
            const float speed = glm::length(body.velocity);
            if (speed > p.maxSpeed) {
                std::ostringstream msg;
                msg << "body '" << m_setup.bodies[b].name << "' speed " << speed << " m/s exceeds max_speed "
                    << p.maxSpeed << " m/s";
                return fail(Stage::Bodies, msg.str());
            }
        }
    }
    EmitVortons();
    m_stageMs[int(Stage::Bodies)] += Elapsed(tick);
    // Remeshing closes the step, so the velocity evaluated below for the
    // tracers and the next step is the remeshed vortons'.
    if (p.remeshEvery > 0 && (m_steps + 1) % p.remeshEvery == 0) {
        RemeshVortons();
        FillEmitters();
    } else if (p.remeshEvery <= 0 && (m_steps + 1) % 5 == 0) {
        FillEmitters();  // vortons are off the lattice: each fills the point nearest to it
    }
    m_stageMs[int(Stage::Remesh)] += Elapsed(tick);
    PredictTracers(dt);
    m_stageMs[int(Stage::Advection)] += Elapsed(tick);

    // Velocity at t + dt from the corrected vortons: the tracers' second stage,
    // and the next step's first.
    m_nextVelocity.resize(m_vortons.Size());
    m_nextStretch.resize(m_vortons.Size());
    EvaluateVortons(m_vortons.position, m_vortons.vorticity, m_nextVelocity, m_nextStretch, SolverFor(false),
                    nt > 0 ? m_nextGrid.base : FitVortonGrid(BoundsOf(m_vortons.position)));
    tick = Now();
    if (nt > 0) EvaluateGridPoints(m_nextGrid, m_gridNeeded, m_gridPacked1);
    m_stageMs[int(Stage::VelocityGrid)] += Elapsed(tick);

    const TracerPass tracerScan = CorrectTracers(dt);
    if (tracerScan.nonFinite) return fail(Stage::Advection, "non-finite tracer position");
    m_lastMaxSpeed = std::max(m_lastMaxSpeed, double(std::sqrt(tracerScan.maxNorm2)));
    m_tracerBounds = tracerScan.box;
    m_tracerBoundsValid = true;
    m_stageMs[int(Stage::Advection)] += Elapsed(tick);
    bool missing = tracerScan.missing;
    if (TracersMoveAfterCorrector()) {
        CollideTracers();
        EmitTracers();
        // Pushed-out and re-emitted tracers: bounds and missing corners anew.
        missing = MarkMovedTracersCorners();
        m_tracerBoundsValid = false;
        m_stageMs[int(Stage::Bodies)] += Elapsed(tick);
    }
    if (nt > 0) FillMissingCorners(m_gridMissing, missing);
    m_stageMs[int(Stage::VelocityGrid)] += Elapsed(tick);

    std::swap(m_velocity0, m_nextVelocity);
    std::swap(m_stretch0, m_nextStretch);
    std::swap(m_gridPacked0, m_gridPacked1);
    m_velocityGrid = m_nextGrid;
    m_cacheKey = CurrentCacheKey();
    m_cacheValid = true;
    m_work.vortons = m_vortons.Size();
    m_work.tracerGridPoints = nt > 0 ? m_velocityGrid.PointCount() : 0;

    m_time += dt;
    ++m_steps;
    m_stepMs = double(Now() - start) * 1.0e-6;
    return report;
}

void Simulation::AbsorbAtLayerSides(float dt) {
    if (m_profile.Empty()) return;
    // Relax, over a time 1/N, each vorton's density deviation (its birth
    // height toward where it is) and its vorticity, by the sponge's strength.
    const float n = m_profile.BuoyancyFrequency(glm::length(m_setup.params.gravity), m_setup.params.ambientDensity);
    if (!(n > 0.0f)) return;
    ParallelFor(m_vortons.Size(), [&](std::size_t k) {
        const glm::vec3 x = m_vortons.position[k];
        const float s = m_profile.Sponge(x.x, x.y);
        if (s == 0.0f) return;
        const float keep = std::exp(-s * n * dt);
        m_vortons.birthHeight[k] = x.z + (m_vortons.birthHeight[k] - x.z) * keep;
        m_vortons.vorticity[k] *= keep;
    });
}

std::size_t Simulation::MaxVortons() const {
    const int cap = m_setup.params.maxVortons;
    return cap > 0 ? std::size_t(cap) : std::max<std::size_t>(3 * m_seededVortons / 2, 64);
}

void Simulation::RemeshVortons() {
    if (m_vortons.position.empty() || m_lattice.spacing <= 0.0f) return;
    m_buoyantGroup.assign(m_setup.groups.size(), 0);
    for (std::size_t g = 0; g < m_setup.groups.size(); ++g) {
        const DensityGroup& group = m_setup.groups[g];
        m_buoyantGroup[g] = !group.layer && group.densityDeviation != 0.0f;
    }
    RemeshSettings settings;
    settings.sigma = m_vortons.radius[0];
    settings.buoyantGroup = m_buoyantGroup;
    settings.maxVortons = MaxVortons();
    settings.maxPoints = kMaxRemeshPoints;
    m_bodySpheres.clear();
    for (std::size_t b = 0; b < m_bodies.size(); ++b) {
        m_bodySpheres.emplace_back(m_bodies[b].position, m_setup.bodies[b].radius);
    }
    settings.bodies = m_bodySpheres;
    // A body's surface needs vortons: coarsen only while its radius spans
    // 2.5 spacings (or not at all, if the seeding was coarser already).
    for (const BodySpec& b : m_setup.bodies) {
        settings.maxSpacing = std::min(settings.maxSpacing, std::max(m_seededSpacing, b.radius / 2.5f));
    }
    RemeshReport report;
    if (!Remesh(m_lattice, settings, m_vortons, &report)) return;
    m_lattice = report.lattice;
    m_cacheValid = false;
    ++m_remeshCount;
    m_remeshDropped += report.droppedStrength;
    if (report.capped) ++m_remeshCapped;
    m_lastRemesh = report;
}

Diagnostics Simulation::ComputeDiagnostics() const {
    Diagnostics d;
    for (std::size_t k = 0; k < m_vortons.Size(); ++k) {
        const glm::dvec3 x(m_vortons.position[k]);
        const glm::dvec3 alpha = glm::dvec3(m_vortons.vorticity[k]) * double(m_vortons.volume[k]);
        d.impulse += 0.5 * glm::cross(x, alpha);
        d.circulation += alpha;
        d.excessMass += double(VortonDensityDeviation(k)) * double(m_vortons.volume[k]);
    }
    d.maxSpeed = m_lastMaxSpeed;
    const std::size_t n = m_vortons.Size();
    if (n > 0) {
        std::vector<float> w(n);
        for (std::size_t k = 0; k < n; ++k) w[k] = glm::length(m_vortons.vorticity[k]);
        const std::size_t p99 = std::min(n - 1, n * 99 / 100);
        std::nth_element(w.begin(), w.begin() + std::ptrdiff_t(p99), w.end());
        d.p99Vorticity = w[p99];
        d.maxVorticity = *std::max_element(w.begin() + std::ptrdiff_t(p99), w.end());
    }
    return d;
}

}  // namespace vorton
