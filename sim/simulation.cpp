#include "sim/simulation.h"
#include "sim/simulation_internals.h"
#include "sim/numerics/step_helpers.h"
#include "sim/particles/projection.h"
#include "sim/solvers/vorton_clusters.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>

#include <glm/geometric.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

namespace vorton {

using namespace step;

namespace {

constexpr std::size_t kMaxRemeshPoints = std::size_t(1) << 25;
/// The remesh's absolute floor (RemeshSettings::cullVorticity), in radians a
/// step: vorticity that turns the fluid by less than 10⁻⁷ rad a step (a radian
/// in 10⁷ steps, 2.3 days at dt 0.02 s; 5·10⁻⁶ 1/s) is let go. Over a 2-m region
/// it moves fluid at most ~ωL = 10⁻⁵ m/s: 6 mm in ten minutes, a quarter of
/// falling_ball's spacing. Strong flows have dropped such points under the
/// relative budget already; it lets a flow that has died everywhere (a ball
/// come to rest in still water) shed its vortons and its cost (stop 94).
constexpr float kCullRadiansPerStep = 1.0e-7f;

}  // namespace

Simulation::Simulation(SceneSetup setup)
    : m_setup(std::move(setup)), m_internals(std::make_unique<Internals>()) {
    Reset();
}

Simulation::~Simulation() = default;

void Simulation::Reset() {
    SeedVortons(m_setup, m_vortons, &m_lattice);
    if (m_lattice.spacing <= 0.0f && !m_setup.bodies.empty()) {
        // Clear water: the bodies make all the vorticity, on a lattice fitted
        // to the first of them (and fine enough for the others), centred on it.
        m_lattice = Lattice{m_setup.bodies[0].position, ClearWaterSpacing(m_setup.bodies, m_setup.params.bodyResolution)};
    }
    m_seededVortons = m_vortons.Size();
    m_seededSpacing = Spacing();
    m_seededBox = BoundsOf(m_vortons.position);
    m_remeshCount = m_remeshCapped = 0;
    m_remeshDropped = 0.0;
    m_lastRemesh = RemeshReport{};
    m_coarsenedBy = CoarseningCause::None;
    SeedTracers(m_setup, m_tracers);
    m_bodies.clear();
    m_bodyFresh.clear();
    SyncBodies();  // every body at its spec
    m_collisionImpulse = glm::dvec3(0.0);
    m_pendingPushImpulse.clear();
    m_kelvinStrength = TotalStrength();
    m_internals->images.clear();
    m_internals->surfaceVelocity.clear();
    m_internals->profile.Build(m_setup.groups, m_seededSpacing);
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
    ResolveActiveSolver(vortonBox);
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
    return m_setup.params.ambientDensity + m_internals->profile.Delta(x.z);
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
    const StratifiedProfile& profile = m_internals->profile;
    if (!profile.Empty()) {
        // Born at the profile's density where it started; what counts is the
        // difference from the profile where it is now (docs/METHOD.md §2).
        deviation += profile.Delta(m_vortons.birthHeight[k]) - profile.Delta(m_vortons.position[k].z);
    }
    return deviation;
}

float Simulation::TracerDensityDeviation(std::size_t i) const {
    return m_setup.groups[m_tracers.group[i]].densityDeviation;
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
    std::unique_ptr<VelocitySolver>& solver = m_internals->solvers[predictor ? 1 : 0][std::size_t(m_activeSolver)];
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

void Simulation::ResolveActiveSolver(const Aabb& vortonBox) {
    const SimParams& p = m_setup.params;
    m_clusterCell = 0.0f;
    m_activeSolver = p.solver;
    if (p.solver != Solver::Auto) return;
    const std::size_t n = m_vortons.Size();
    m_activeSolver = Solver::Direct;
    if (n < kAutoGridVortons || vortonBox.Empty()) return;
    const float cell = std::max(0.05f, p.velocityGridSpacing) * Spacing();
    // The grid's cost grows with the box's volume, the tree's with the
    // vortons: a few vortons spread over a large box go to the tree.
    const std::size_t maxPoints = std::size_t(std::max(512, p.velocityGridCells));
    const auto pays = [&](std::size_t points) { return points <= maxPoints && points <= kAutoTreeSparsity * n; };
    m_activeSolver = Solver::Grid;
    if (pays(GridPointCount(vortonBox, cell, 2.5f * cell))) return;
    // Groups far apart (a ball risen out of its layers with its wake): a
    // grid each, if together they pay. Each group's grid is solved on its own at the asked
    // cell and serves the solver alone (the tracers' grid is the one above, whose cells
    // velocity_grid_cells coarsens), so kAutoGroupGridPoints bounds each; sparsity counts
    // them together. Two balls' wakes of 210,000 points each took 30 ms a solve on their
    // grids and 65 ms in the treecode (stop 96). One group too, past velocity_grid_cells:
    // five balls within 2 m, whose grid of 1-2 million points took half the treecode's
    // time (stop 98).
    const std::vector<VortonCluster> groups = SplitIntoClusters(m_vortons.position, cell, 2.5f * cell);
    if (GroupGridsFit(groups, cell, 2.5f * cell, GroupGridPoints(), kAutoTreeSparsity * n)) {
        m_clusterCell = cell;
        return;
    }
    m_activeSolver = Solver::Tree;
}

std::size_t Simulation::GroupGridPoints() const {
    return std::max(std::size_t(std::max(512, m_setup.params.velocityGridCells)), kAutoGroupGridPoints);
}

SolverSettings Simulation::SettingsFor(std::size_t sources) const {
    SolverSettings s{m_setup.params.treeTheta, m_setup.params.treeLeafSize, m_clusterCell, m_internals->kernelStore};
    // The groups of the vortons a load gets: they have moved since Auto split them.
    s.clusterGridPoints = GroupGridPoints();
    s.clusterTotalPoints = kAutoTreeSparsity * sources;
    return s;
}

void Simulation::VelocityAt(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) {
    ResolveActiveSolver(BoundsOf(m_vortons.position));
    LoadSources(m_vortons.position, m_vortons.vorticity);
    if (m_vortons.position.empty()) {
        std::fill(velocity.begin(), velocity.end(), glm::vec3(0.0f));
    } else {
        VelocitySolver& solver = SolverFor(false);
        solver.Load(VortonSources{m_vortons.position, m_alpha, m_sigma2}, FitVortonGrid(BoundsOf(m_vortons.position)),
                    SettingsFor(m_vortons.Size()), false);
        solver.Evaluate(points, velocity);
        if (BodySheets()) {
            UpdateBodyImages([&](std::span<const glm::vec3> x, std::span<glm::vec3> v) { solver.Evaluate(x, v); },
                             VortonSources{m_vortons.position, m_alpha, m_sigma2});
        }
        // The solver no longer holds the state of the cached tracer grid.
        m_cacheValid = false;
    }
    AddBodyVelocity(points, velocity, {}, {});
}

void Simulation::DirectVelocityAt(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) {
    LoadSources(m_vortons.position, m_vortons.vorticity);
    const VortonSources sources{m_vortons.position, m_alpha, m_sigma2};
    DirectVelocity(sources, VelocityQuery{points, velocity, {}, {}});
    if (BodySheets()) {
        UpdateBodyImages([&](std::span<const glm::vec3> x, std::span<glm::vec3> v) {
            DirectVelocity(sources, VelocityQuery{x, v, {}, {}});
        }, sources);
    }
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
    m_internals->baroclinicGenerator.ComputeRates(m_vortons.position, m_deviationMass, cell, p.gravity, p.ambientDensity,
                                       m_baroclinic);
    m_densityGridValid = true;
    // As dω/dt, like the stretching term.
    ParallelFor(n, [&](std::size_t k) { m_baroclinic[k] /= m_vortons.volume[k]; });
}

void Simulation::EvaluateVortons(std::span<const glm::vec3> position, std::span<const glm::vec3> vorticity,
                                 std::span<glm::vec3> velocity, std::span<glm::vec3> stretch, VelocitySolver& solver,
                                 const GridGeometry& grid) {
    LoadSources(position, vorticity);
    if (!position.empty()) {
        solver.Load(VortonSources{position, m_alpha, m_sigma2}, grid,
                    SettingsFor(position.size()), true);
        m_work.solverGridPoints += solver.SolvedGridPoints();
        solver.EvaluateAtSources(vorticity, velocity, stretch);
    }
    if (BodySheets()) {
        UpdateBodyImages([&](std::span<const glm::vec3> x, std::span<glm::vec3> v) { solver.Evaluate(x, v); },
                         VortonSources{position, m_alpha, m_sigma2});
    }
    AddBodyVelocity(position, velocity, vorticity, stretch);
}

Simulation::CacheKey Simulation::CurrentCacheKey() const {
    const SimParams& p = m_setup.params;
    return CacheKey{m_activeSolver, p.treeTheta, p.treeLeafSize, p.velocityGridCells, p.velocityGridSpacing,
                    m_vortons.Size(), m_tracers.Size(), m_clusterCell};
}

void Simulation::AbsorbAtLayerSides(float dt) {
    if (m_internals->profile.Empty()) return;
    // Relax, over a time 1/N, each vorton's density deviation (its birth
    // height toward where it is) and its vorticity, by the sponge's strength.
    const float n = m_internals->profile.BuoyancyFrequency(glm::length(m_setup.params.gravity), m_setup.params.ambientDensity);
    if (!(n > 0.0f)) return;
    const glm::dvec3 before = BodySheets() ? TotalStrength() : glm::dvec3(0.0);
    ParallelFor(m_vortons.Size(), [&](std::size_t k) {
        const glm::vec3 x = m_vortons.position[k];
        const float s = m_internals->profile.Sponge(x.x, x.y);
        if (s == 0.0f) return;
        const float keep = std::exp(-s * n * dt);
        m_vortons.birthHeight[k] = x.z + (m_vortons.birthHeight[k] - x.z) * keep;
        m_vortons.vorticity[k] *= keep;
    });
    if (BodySheets()) m_kelvinStrength += TotalStrength() - before;
}

std::size_t Simulation::MaxVortons() const {
    const int cap = m_setup.params.maxVortons;
    if (cap > 0) return std::size_t(cap);
    // Room for the bodies' wakes: 50 sheets' worth each at R/h up to 5. A sheet's points grow
    // as (R/h)² but a wake's vortons, in a volume set by the flow, as (R/h)³; so on a finer
    // lattice the room grows by (R/h)/5 more, and the wake keeps the volume it has at R/h 5
    // (50 sheets then covered 50·4πR²·R/5 = 30 ball volumes), rather than the lattice being
    // coarsened back to R/h 5 within 5 s (flow_past_ball at R/h 8 and 12, stop 78).
    // Only a body that moves through the fluid makes a wake of its own: a free one, or a
    // fixed one that oscillates, or moves or spins relative to the stream (carried, held and
    // dragged, spun, or set in one; the speed CoupleBodies paces its sheet by). A fixed ball
    // at rest in still water sheds only what other flows bring past it, which their own
    // rooms hold; with a room each, a ball dropped between two such posts filled three rooms
    // with its one wake (50,431 vortons; 16,842 and half the step's cost with one, stop 100).
    const auto makesAWake = [&](std::size_t i) {
        const BodySpec& b = m_setup.bodies[i];
        if (!b.fixed || (b.oscillationPeriod > 0.0f && b.oscillationVelocity != glm::vec3(0.0f))) return true;
        const glm::vec3 v = i < m_bodies.size() ? m_bodies[i].velocity : b.velocity;
        const glm::vec3 w = i < m_bodies.size() ? m_bodies[i].angularVelocity : b.angularVelocity;
        return v != m_setup.params.freeStream || w != glm::vec3(0.0f);
    };
    // At most two rooms of the largest's size (kWakeRooms): each ball a user adds would
    // otherwise add its room to every step's cost.
    double wakes = 0.0, largest = 0.0;
    if (BodySheets()) {
        for (std::size_t i = 0; i < m_setup.bodies.size(); ++i) {
            if (!makesAWake(i)) continue;
            const BodySpec& b = m_setup.bodies[i];
            const double finer = std::max(1.0, double(b.radius / m_seededSpacing) / 5.0);
            const double room = 50.0 * double(SurfacePointsFor(b.radius, m_seededSpacing)) * finer;
            wakes += room;
            largest = std::max(largest, room);
        }
    }
    wakes = std::min(wakes, kWakeRooms * largest);
    return std::max<std::size_t>(3 * m_seededVortons / 2, 64) + std::size_t(std::lround(wakes));
}

std::size_t Simulation::MaxGridPoints() const {
    const std::size_t cells = std::size_t(std::max(512, m_setup.params.velocityGridCells));
    if (m_seededBox.Empty() || !(m_seededSpacing > 0.0f)) return cells;
    const float cell = std::max(0.05f, m_setup.params.velocityGridSpacing) * m_seededSpacing;
    return std::min(cells, kSeededGridFactor * GridPointCount(m_seededBox, cell, 2.5f * cell));
}

bool Simulation::NearABody(glm::vec3 x, float gap) const {
    for (std::size_t b = 0; b < m_bodies.size(); ++b) {
        if (glm::length(x - m_bodies[b].position) < m_setup.bodies[b].radius + gap) return true;
    }
    return false;
}

void Simulation::RemeshAwayFromBodies() {
    const auto append = [](const Vortons& from, std::size_t k, Vortons& to) {
        to.Add(from.position[k], from.vorticity[k], from.radius[k], from.volume[k], from.group[k],
               from.massFraction[k], from.birthHeight[k]);
    };
    const float gap = kDistortionWallGap * Spacing();
    std::vector<std::uint8_t> away(m_vortons.Size(), 1);
    Vortons near;
    for (std::size_t k = 0; k < m_vortons.Size(); ++k) {
        if (!NearABody(m_vortons.position[k], gap)) continue;
        away[k] = 0;
        append(m_vortons, k, near);
    }
    // The cap is the cadence's: as between remeshes, the wall layers' vortons
    // come on top of it until the next one.
    m_vortons.Compact(away);
    RemeshVortons();
    for (std::size_t k = 0; k < near.Size(); ++k) append(near, k, m_vortons);
    m_cacheValid = false;
}

void Simulation::RemeshVortons() {
    if (m_vortons.position.empty() || m_lattice.spacing <= 0.0f) return;
    // Receivers (zero-vorticity lattice points kept for baroclinic generation)
    // go around a group's fluid when the group carries its own deviation. A
    // layer's fluid needs none inside the layers, which the lattice already
    // fills; ForgetFarWake keeps the vorticity around a layer's parcels too,
    // wherever they drift, which is a different question (what the far-wake
    // cut may let go), so the two tests differ on purpose.
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
    settings.maxGridPoints = MaxGridPoints();
    settings.gridCellRatio = std::max(0.05f, m_setup.params.velocityGridSpacing);
    if (m_setup.params.dt > 0.0f) settings.cullVorticity = kCullRadiansPerStep / m_setup.params.dt;
    m_bodySpheres.clear();
    for (std::size_t b = 0; b < m_bodies.size(); ++b) {
        m_bodySpheres.emplace_back(m_bodies[b].position, m_setup.bodies[b].radius);
    }
    settings.bodies = m_bodySpheres;
    settings.keepInside = BodySheets();
    settings.diffusionReceivers = m_setup.params.diffusionReceivers;
    settings.capFarthestFirst = BodySheets();
    // The skin model needs vortons within its skin (one spacing) wherever the
    // body goes; two spacings cover the body's travel between remeshes.
    if (!BodySheets()) settings.bodyShell = 2.0f * m_lattice.spacing;
    // A body's surface needs vortons: coarsen only while its radius spans
    // 2.5 spacings (or not at all, if the seeding was coarser already); a
    // body that makes its own vorticity, 4 (coarser, its sheet's drag grows
    // and a spinning ball's wall layer went unstable at R/h = 3.2, measured).
    const float minSpans = BodySheets() ? kMinSheetBodySpans : 2.5f;
    for (const BodySpec& b : m_setup.bodies) {
        settings.maxSpacing = std::min(settings.maxSpacing, std::max(m_seededSpacing, b.radius / minSpans));
    }
    RemeshReport report;
    if (!Remesh(m_lattice, settings, m_vortons, &report)) return;
    m_lattice = report.lattice;
    // The particles' field need not stay a curl: stretching a field that is not
    // one, and a wall layer whose lines end on the wall, let its divergence
    // grow (spinning_ball's is 0.36–0.64 of its diagonal gradients without
    // this), and its swirl tilted off the spin axis until the run blew up.
    if (m_setup.params.solenoidalRemesh) {
        BudgetAttribute(&ImpulseBudget::remesh);
        std::vector<ProjectionSphere> spheres;
        for (std::size_t b = 0; b < m_bodies.size(); ++b) {
            spheres.push_back({m_bodies[b].position, m_setup.bodies[b].radius, m_bodies[b].angularVelocity});
        }
        m_internals->projection.Project(m_lattice, spheres, m_vortons);
        BudgetAttribute(&ImpulseBudget::projection);
    }
    m_cacheValid = false;
    ++m_remeshCount;
    m_remeshDropped += report.droppedStrength;
    if (report.capped) ++m_remeshCapped;
    if (report.cause != CoarseningCause::None) m_coarsenedBy = report.cause;
    m_lastRemesh = report;
}

std::string Simulation::LatticeNotice() const {
    const float h = Spacing();
    if (!(m_seededSpacing > 0.0f) || !(h > 1.001f * m_seededSpacing)) return {};
    char text[160];
    std::snprintf(text, sizeof text, "Remeshing has coarsened the vortons' lattice from h = %.1f mm to %.1f mm",
                  1e3 * double(m_seededSpacing), 1e3 * double(h));
    std::string notice = text;
    for (std::size_t b = 0; b < m_setup.bodies.size(); ++b) {
        const BodySpec& body = m_setup.bodies[b];
        std::snprintf(text, sizeof text, "%s%s: R/h %.1f to %.1f", b == 0 ? " (" : "; ",
                      body.name.empty() ? ("body " + std::to_string(b)).c_str() : body.name.c_str(),
                      double(body.radius / m_seededSpacing), double(body.radius / h));
        notice += text;
        if (b + 1 == m_setup.bodies.size()) notice += ")";
    }
    const std::size_t cells = std::size_t(std::max(512, m_setup.params.velocityGridCells));
    const std::size_t gridCap = MaxGridPoints();
    const std::string vortonCap = m_setup.params.maxVortons > 0
                                      ? "the vortons reached max_vortons (" + std::to_string(MaxVortons()) + ")"
                                      : "the vortons reached their automatic cap (" + std::to_string(MaxVortons()) +
                                            "; max_vortons 0: 1.5 times the seeded count and each moving body's "
                                            "wake room, two rooms at most)";
    const std::string gridCapText =
        gridCap >= cells ? "their solver grid reached velocity_grid_cells (" + std::to_string(cells) + " points)"
                         : "their solver grid reached " + std::to_string(kSeededGridFactor) +
                               " times the seeded flow's grid (" + std::to_string(gridCap) + " points)";
    const std::string shorterWake = m_setup.params.wakeLength > 0.0f ? " (or shorten wake_length)" : "";
    switch (m_coarsenedBy) {
        case CoarseningCause::Vortons:
            notice += ": " + vortonCap + ". Set max_vortons higher" + shorterWake + " to keep it finer.";
            break;
        case CoarseningCause::GridPoints:
            notice += ": " + gridCapText + ". " +
                      (gridCap >= cells ? "Raise velocity_grid_cells" + shorterWake + " to keep it finer."
                                        : std::string("That cap keeps a step's cost near the first seconds' and "
                                                      "follows the seeded flow, not a parameter."));
            break;
        case CoarseningCause::None:
            notice += ": " + vortonCap + " or " + gridCapText + ".";
            break;
    }
    return notice;
}

Simulation::VortonMoments Simulation::SumVortonMoments(std::span<const glm::vec3> velocity) const {
    assert(velocity.empty() || velocity.size() == m_vortons.Size());
    VortonMoments m;
    const float h = Spacing();
    const float cell = h * h * h;
    for (std::size_t k = 0; k < m_vortons.Size(); ++k) {
        const glm::dvec3 x(m_vortons.position[k]);
        const glm::dvec3 w(m_vortons.vorticity[k]);
        const double volume = double(m_vortons.volume[k]);
        const glm::dvec3 alpha = w * volume;
        // A sheet's vorton (CellVorticity) counts as its strength over a cell.
        const glm::dvec3 wc(CellVorticity(m_vortons, k, cell));
        m.circulation += alpha;
        m.strength += glm::length(alpha);
        m.impulse += 0.5 * glm::cross(x, alpha);
        m.enstrophy += glm::dot(wc, wc) * std::max(volume, double(cell));
        const double mass = double(VortonDensityDeviation(k)) * volume;
        m.excessMass += mass;
        m.absExcessMass += std::abs(mass);
        if (!velocity.empty()) m.energySum += glm::dot(glm::dvec3(velocity[k]), glm::cross(x, alpha));
    }
    return m;
}

Diagnostics Simulation::ComputeDiagnostics() const {
    Diagnostics d;
    const VortonMoments m = SumVortonMoments();
    d.impulse = m.impulse;
    d.circulation = m.circulation;
    d.excessMass = m.excessMass;
    d.maxSpeed = m_lastMaxSpeed;
    const std::size_t n = m_vortons.Size();
    if (n > 0) {
        std::vector<float> w(n);
        const float h = Spacing();
        for (std::size_t k = 0; k < n; ++k) w[k] = glm::length(CellVorticity(m_vortons, k, h * h * h));
        const std::size_t p99 = std::min(n - 1, n * 99 / 100);
        std::nth_element(w.begin(), w.begin() + std::ptrdiff_t(p99), w.end());
        d.p99Vorticity = w[p99];
        d.maxVorticity = *std::max_element(w.begin() + std::ptrdiff_t(p99), w.end());
    }
    return d;
}

}  // namespace vorton
