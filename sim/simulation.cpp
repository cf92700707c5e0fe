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

/// Lattice points with |α| or mass below this fraction of the largest are dropped when remeshing.
constexpr float kRemeshThreshold = 1.0e-2f;
constexpr std::size_t kMaxRemeshPoints = std::size_t(1) << 25;

}  // namespace

std::string_view StageName(Stage stage) { return kStageNames[std::size_t(stage)]; }

Simulation::Simulation(SceneSetup setup) : m_setup(std::move(setup)) { Reset(); }

void Simulation::Reset() {
    SeedVortons(m_setup, m_vortons, &m_lattice);
    SeedTracers(m_setup, m_tracers);
    m_bodies.clear();
    SyncBodies();  // every body at its spec
    m_collisionImpulse = glm::dvec3(0.0);
    m_profile.Build(m_setup.groups, Spacing());
    m_densityGridValid = false;
    m_time = 0.0;
    m_steps = 0;
    m_stageMs.fill(0.0);
    m_stepMs = 0.0;
    m_lastMaxSpeed = 0.0;
    m_cacheValid = false;
    m_tracerBounds = BoundsOf(m_tracers.position);
    m_tracerBoundsValid = true;
    m_bounds = BoundsOf(m_vortons.position);
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
        // difference from the profile where it is now (METHOD.md).
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
    if (ActiveSolver() == Solver::Tree) {
        m_tree.Build(VortonSources{position, m_alpha, m_sigma2}, std::max(1, m_setup.params.treeLeafSize));
    }
}

void Simulation::VelocityAt(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) {
    LoadSources(m_vortons.position, m_vortons.vorticity);
    if (ActiveSolver() == Solver::Grid) {
        Aabb box = BoundsOf(m_vortons.position);
        box.Grow(BoundsOf(points));
        if (!box.Empty() && !m_vortons.position.empty()) {
            m_gridSolver.Solve(FitVelocityGrid(box), VortonSources{m_vortons.position, m_alpha, m_sigma2}, false);
            m_gridSolver.Evaluate(VelocityQuery{points, velocity, {}, {}});
        } else {
            std::fill(velocity.begin(), velocity.end(), glm::vec3(0.0f));
        }
    } else if (ActiveSolver() == Solver::Tree) {
        m_tree.Evaluate(VelocityQuery{points, velocity, {}, {}}, std::clamp(m_setup.params.treeTheta, 0.01f, 1.0f));
    } else {
        DirectVelocity(VortonSources{m_vortons.position, m_alpha, m_sigma2}, VelocityQuery{points, velocity, {}, {}});
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
                                 std::span<glm::vec3> velocity, std::span<glm::vec3> stretch, double* treeMs,
                                 double* velocityMs, const GridGeometry* solverGrid) {
    std::int64_t tick = Now();
    LoadSources(position, vorticity);
    *treeMs += Elapsed(tick);
    if (ActiveSolver() == Solver::Grid) {
        if (!position.empty()) {
            GridSolver& solver = solverGrid ? m_gridSolver : m_predictorGridSolver;
            const GridGeometry grid = solverGrid ? *solverGrid : FitVelocityGrid(BoundsOf(position));
            solver.Solve(grid, VortonSources{position, m_alpha, m_sigma2}, true);
            solver.Evaluate(VelocityQuery{position, velocity, vorticity, stretch});
        }
    } else if (ActiveSolver() == Solver::Tree) {
        m_tree.EvaluateAtSources(vorticity, velocity, stretch, std::clamp(m_setup.params.treeTheta, 0.01f, 1.0f));
    } else {
        DirectVelocity(VortonSources{position, m_alpha, m_sigma2}, VelocityQuery{position, velocity, vorticity, stretch});
    }
    AddBodyVelocity(position, velocity, vorticity, stretch);
    *velocityMs += Elapsed(tick);
}

Simulation::CacheKey Simulation::CurrentCacheKey() const {
    const SimParams& p = m_setup.params;
    return CacheKey{ActiveSolver(), p.treeTheta, p.treeLeafSize, p.velocityGridCells, p.velocityGridSpacing,
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
    if (p.remeshEvery > 0 && m_steps > 0 && m_steps % p.remeshEvery == 0 && !m_vortons.position.empty()) {
        const float sigma = m_vortons.radius[0];
        if (Remesh(m_lattice, sigma, kRemeshThreshold, m_setup.groups.size(), kMaxRemeshPoints, m_vortons)) {
            m_cacheValid = false;
        }
        m_stageMs[int(Stage::Remesh)] += Elapsed(tick);
    }
    double& treeMs = m_stageMs[int(Stage::Tree)];
    double& velocityMs = m_stageMs[int(Stage::Velocity)];
    const std::size_t nv = m_vortons.Size(), nt = m_tracers.Size();

    // The layers' deviations are live: the profile follows them.
    m_profile.Build(m_setup.groups, Spacing());
    SyncBodies();

    // 1. Bounds of everything that moves; the grids are fitted to them. The
    // tracers' come from the last step's corrector pass.
    if (!m_tracerBoundsValid) {
        m_tracerBounds = BoundsOf(m_tracers.position);
        m_tracerBoundsValid = true;
    }
    m_bounds = BoundsOf(m_vortons.position);
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
        m_velocityGrid = FitVelocityGrid(m_bounds);
        EvaluateVortons(m_vortons.position, m_vortons.vorticity, m_velocity0, m_stretch0, &treeMs, &velocityMs,
                        &m_velocityGrid);
        tick = Now();
        if (nt > 0) {
            m_gridVelocity0.assign(m_velocityGrid.PointCount(), glm::vec3(0.0f));
            MarkNeeded(m_velocityGrid, m_tracers.position);
            EvaluateGridPoints(m_velocityGrid, m_gridNeeded, m_gridVelocity0);
            PackGridValues(m_gridVelocity0, m_gridPacked0);
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
        m_lastMaxSpeed = std::sqrt(scan.maxNorm2);
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
    EvaluateVortons(m_predictedPosition, m_predictedVorticity, m_velocity1, m_stretch1, &treeMs, &velocityMs);
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
    m_stageMs[int(Stage::Advection)] += Elapsed(tick);

    // 6. Bodies (parts 4 and 9): buoyancy and gravity, then their motion; the
    // vortons they hit are pushed out and carry the no-slip sheet, and the
    // momentum exchanged moves them. Emitters renew the stream. All before
    // the velocity of the new state is evaluated, so it stays valid for the
    // next step.
    if (!m_bodies.empty()) {
        MoveBodies(dt);
        CollideVortons(dt);
        for (const BodyState& b : m_bodies) {
            if (!Finite(b.position) || !Finite(b.velocity) || !Finite(b.angularVelocity)) {
                return fail(Stage::Bodies, "non-finite body state");
            }
        }
    }
    EmitVortons();
    m_stageMs[int(Stage::Bodies)] += Elapsed(tick);
    PredictTracers(dt);
    m_stageMs[int(Stage::Advection)] += Elapsed(tick);

    // Velocity at t + dt from the corrected vortons: the tracers' second stage,
    // and the next step's first.
    m_nextVelocity.resize(nv);
    m_nextStretch.resize(nv);
    EvaluateVortons(m_vortons.position, m_vortons.vorticity, m_nextVelocity, m_nextStretch, &treeMs, &velocityMs,
                    nt > 0 ? &m_nextGrid : nullptr);
    tick = Now();
    if (nt > 0) {
        m_gridVelocity1.resize(m_nextGrid.PointCount());
        EvaluateGridPoints(m_nextGrid, m_gridNeeded, m_gridVelocity1);
        PackGridValues(m_gridVelocity1, m_gridPacked1);
    }
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
    std::swap(m_gridVelocity0, m_gridVelocity1);
    std::swap(m_gridPacked0, m_gridPacked1);
    m_velocityGrid = m_nextGrid;
    m_cacheKey = CurrentCacheKey();
    m_cacheValid = true;

    m_time += dt;
    ++m_steps;
    m_stepMs = double(Now() - start) * 1.0e-6;
    return report;
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
    return d;
}

}  // namespace vorton
