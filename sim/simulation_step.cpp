// Simulation::Step(): the step as a list of named stages, run and timed by
// one loop (docs/METHOD.md §5 gives the order and why).

#include "sim/simulation.h"
#include "sim/simulation_internals.h"
#include "sim/numerics/step_helpers.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

#include <glm/geometric.hpp>

namespace vorton {

using namespace step;

namespace {

constexpr std::array<std::string_view, kStageCount> kStageNames{
    "bounds",    "velocity", "baroclinic", "diffusion",        "predictor", "corrector",
    "bodies",    "remesh",   "tracer_predictor", "velocity_next", "tracers"};

}  // namespace

std::string_view StageName(Stage stage) { return kStageNames[std::size_t(stage)]; }

/// The stages of a step, in order. Each returns an empty string, or what went
/// wrong (a blow-up), which ends the step.
const std::array<Simulation::StageEntry, kStageCount> Simulation::kStages{{
    {Stage::Bounds, &Simulation::StageBounds},
    {Stage::Velocity, &Simulation::StageVelocity},
    {Stage::Baroclinic, &Simulation::StageBaroclinic},
    {Stage::Diffusion, &Simulation::StageDiffusion},
    {Stage::Predictor, &Simulation::StagePredictor},
    {Stage::Corrector, &Simulation::StageCorrector},
    {Stage::Bodies, &Simulation::StageBodies},
    {Stage::Remesh, &Simulation::StageRemesh},
    {Stage::TracerPredictor, &Simulation::StageTracerPredictor},
    {Stage::VelocityNext, &Simulation::StageVelocityNext},
    {Stage::Tracers, &Simulation::StageTracers},
}};

StepReport Simulation::Step() {
    StepReport report;
    report.step = m_steps;
    const std::int64_t start = Now();
    m_stageMs.fill(0.0);
    m_work = StepWork{};
    m_budget = ImpulseBudget{};
    if (m_budgetOn) m_budgetImpulse = VortonImpulse();
    const float dt = m_setup.params.dt;
    if (std::string fast = BodyTooFast(dt); !fast.empty()) {
        report.ok = false;
        report.stateKept = true;
        report.stage = std::string(StageName(Stage::Bodies));
        std::ostringstream msg;
        msg << "step " << m_steps << " (t = " << m_time << " s) not taken: " << fast;
        report.message = msg.str();
        return report;
    }
    const int substeps = Substeps(dt);
    const double startTime = m_time;
    m_substepGrids.clear();
    const std::size_t stepVortons = m_vortons.Size();
    for (int i = 0; i < substeps; ++i) {
        StepContext context;
        context.dt = dt / float(substeps);
        context.stepDt = dt;
        context.substep = i;
        context.substeps = substeps;
        context.vortons = m_vortons.Size();
        context.stepVortons = stepVortons;
        context.tracers = m_tracers.Size();
        context.tracerGrid = context.tracers > 0 || m_externalTracers;
        for (const StageEntry& entry : kStages) {
            const std::int64_t begin = Now();
            const std::string failure = (this->*entry.run)(context);
            m_stageMs[int(entry.stage)] += double(Now() - begin) * 1.0e-6;
            if (!failure.empty()) {
                report.ok = false;
                report.stage = std::string(StageName(entry.stage));
                std::ostringstream msg;
                msg << "blow-up at step " << m_steps << " (t = " << m_time << " s), stage " << report.stage << ": "
                    << failure;
                report.message = msg.str();
                m_cacheValid = false;
                return report;
            }
            if (context.nothingToMove) break;
        }
        if (!context.nothingToMove) {
            // The velocity at t + dt is the next step's first stage.
            std::swap(m_velocity0, m_nextVelocity);
            std::swap(m_stretch0, m_nextStretch);
            m_startGrid = m_velocityGrid;
            m_startGridSerial = m_gridSerial;
            std::swap(m_gridPacked0, m_gridPacked1);
            m_velocityGrid = m_nextGrid;
            NewGridSerial();
            m_cacheKey = CurrentCacheKey();
            m_cacheValid = true;
            m_work.vortons = m_vortons.Size();
            m_work.tracerGridPoints = context.tracerGrid ? m_velocityGrid.PointCount() : 0;
            if (m_externalTracers && !context.LastSubstep()) {
                // The outside tracers take this substep too (EarlierSubstepGrids).
                SubstepGrid& grid = m_substepGrids.emplace_back();
                grid.grid = m_startGrid;
                grid.values = m_gridPacked1;
                grid.serial = m_startGridSerial;
                for (const BodyState& body : m_bodies) grid.bodyCentres.push_back(body.position);
            }
        }
        // Summed once per step, so t is the same whatever the substeps.
        m_time = context.LastSubstep() ? startTime + double(dt) : m_time + double(context.dt);
    }
    m_work.substeps = substeps;
    ++m_steps;
    m_stepMs = double(Now() - start) * 1.0e-6;
    return report;
}

int Simulation::Substeps(float dt) const {
    // Only with body sheets: a ball thrown by the mouse. A body that crosses
    // several lattice spacings per step leaves its sheets too far apart to
    // stand for one wall layer, and the fast fluid it leaves behind crosses
    // as many: a ball thrown at 8.5 m/s through falling_ball's water (8.5
    // spacings per step) blew up within 21 steps. Keyed on the ball alone,
    // one thrown at 16 m/s blew up about when it had slowed below the
    // trigger, so the vortons' speed counts too (docs/BODIES.md, stop 92).
    if (!BodySheets() || !(dt > 0.0f)) return 1;
    const float h = Spacing();
    if (!(h > 0.0f)) return 1;
    float fastest = float(m_lastVortonSpeed);
    for (std::size_t b = 0; b < m_bodies.size(); ++b) fastest = std::max(fastest, BodySpeedThroughFluid(b, dt));
    const float courant = fastest * dt / h;
    if (courant <= kSubstepTrigger) return 1;
    return std::clamp(int(std::ceil(courant / kSubstepCourant - 1.0e-4f)), 1, kMaxSubsteps);
}

std::string Simulation::BodyTooFast(float dt) const {
    if (!BodySheets() || !(dt > 0.0f) || !(Spacing() > 0.0f)) return {};
    const float limit = kBodySpeedCourant * Spacing() / dt;
    for (std::size_t b = 0; b < m_bodies.size(); ++b) {
        if (m_bodies[b].grabbed) continue;  // held: at most GrabSpeedLimit(b)
        const float speed = BodySpeedThroughFluid(b, dt);
        if (!(speed > limit)) continue;
        std::ostringstream msg;
        msg << std::setprecision(3) << "body '" << m_setup.bodies[b].name << "' moves at " << speed
            << " m/s through the fluid, faster than its wall model follows at this lattice and dt (" << limit
            << " m/s, " << kBodySpeedCourant << " spacings of " << Spacing() << " m a step of " << dt
            << " s; the flow would blow up): lower its speed, gravity, its density against the fluid's, the "
               "stream or dt";
        return msg.str();
    }
    return {};
}

float Simulation::BodySpeedThroughFluid(std::size_t b, float dt) const {
    // A held body moves this step at the velocity that takes it to its target
    // (CoupleBodies), not at the one it has; a fixed one just let go at the one
    // it had before it was held.
    const glm::vec3 v = KinematicVelocity(b, dt, m_time + double(dt)).value_or(m_bodies[b].velocity);
    return glm::length(v - m_setup.params.freeStream);
}

glm::vec3 Simulation::GrabVelocity(std::size_t b, float timeLeft) const {
    const BodyState& body = m_bodies[b];
    glm::vec3 v = (body.grabTarget - body.position) / timeLeft;
    const float vmax = GrabSpeedLimit(b);
    if (glm::length(v) > vmax) v *= vmax / glm::length(v);
    return v;
}

std::optional<glm::vec3> Simulation::KinematicVelocity(std::size_t b, float timeLeft, double endTime) const {
    const BodySpec& spec = m_setup.bodies[b];
    const BodyState& body = m_bodies[b];
    // Held: there at the step's end, at the velocity that takes it there.
    if (body.grabbed) return GrabVelocity(b, timeLeft);
    // Fixed and oscillating: carried at its prescribed velocity.
    if (spec.fixed && spec.oscillationPeriod > 0.0f) return CarriedVelocity(spec, endTime);
    // Fixed: keeps its velocity; let go by a drag, it is back at the one it had
    // before, where it was let go (a drag moves a fixed body, it does not throw it).
    if (spec.fixed) return body.velocityBeforeGrab;
    return std::nullopt;
}

float Simulation::GrabSpeedLimit() const {
    const SimParams& p = m_setup.params;
    float limit = 0.5f * p.maxSpeed;
    if (BodySheets() && p.dt > 0.0f && Spacing() > 0.0f) limit = std::min(limit, kThrowCourant * Spacing() / p.dt);
    return limit;
}

float Simulation::GrabSpeedLimit(std::size_t i) const {
    const SimParams& p = m_setup.params;
    float limit = GrabSpeedLimit();
    if (m_setup.bodies[i].fixed && BodySheets() && p.dt > 0.0f && Spacing() > 0.0f) {
        limit = std::min(limit, kFixedDragCourant * Spacing() / p.dt);
    }
    return limit;
}

std::string Simulation::StageBounds(StepContext& c) {
    // The layers' deviations are live: the profile follows them (its
    // interfaces keep the seeding's width when remeshing coarsens).
    m_internals->profile.Build(m_setup.groups, m_seededSpacing);
    SyncBodies();
    // Bounds of everything that moves; the grids are fitted to them. The
    // tracers' come from the last step's corrector pass.
    if (!m_tracerBoundsValid) {
        m_tracerBounds = BoundsOf(m_tracers.position);
        m_tracerBoundsValid = true;
    }
    c.vortonBox = BoundsOf(m_vortons.position);
    ResolveActiveSolver(c.vortonBox);
    m_bounds = c.vortonBox;
    m_bounds.Grow(m_tracerBounds);
    if (m_externalTracers) m_bounds.Grow(m_externalBox);
    for (std::size_t b = 0; b < m_bodies.size(); ++b) {
        const glm::vec3 r(m_setup.bodies[b].radius);
        m_bounds.Grow(Aabb{m_bodies[b].position - r, m_bodies[b].position + r});
    }
    c.nothingToMove = m_bounds.Empty();
    return {};
}

std::string Simulation::StageVelocity(StepContext& c) {
    const SimParams& p = m_setup.params;
    // Velocity and stretching at the vortons and velocity on the tracer grid
    // at time t. The previous step ended by computing exactly these for its
    // final state, so they are reused unless something changed since.
    if (!m_cacheValid || !(m_cacheKey == CurrentCacheKey())) {
        m_velocity0.resize(c.vortons);
        m_stretch0.resize(c.vortons);
        NewGridSerial();
        m_velocityGrid = TracerGrid(c.vortonBox, m_tracerBounds);
        EvaluateVortons(m_vortons.position, m_vortons.vorticity, m_velocity0, m_stretch0, SolverFor(false),
                        m_velocityGrid.base);
        if (m_externalTracers) {
            // The outside tracers moved stepsBehind steps since their box; no faster than
            // the fastest vorton here (the grid's own speeds are not known yet). A whole
            // step's reach: in substeps they have also moved the substeps before this one.
            // (The base, the vortons' grid, stays the one they were evaluated on.)
            const float reach = c.stepDt * (std::sqrt(ScanVectors(m_velocity0).maxNorm2) + glm::length(p.freeStream));
            Aabb box = m_tracerBounds;
            box.Grow(ExternalTracerBox(reach, 0));
            m_velocityGrid = TracerGrid(c.vortonBox, box);
            MarkNeeded(m_velocityGrid, m_tracers.position, 2.0f * float(m_externalStepsBehind) * reach);
            EvaluateGridPoints(m_velocityGrid, m_gridNeeded, m_gridPacked0);
        } else if (c.tracers > 0) {
            MarkNeeded(m_velocityGrid, m_tracers.position);
            EvaluateGridPoints(m_velocityGrid, m_gridNeeded, m_gridPacked0);
        }
    }
    const Scan scan = ScanVectors(m_velocity0);
    const Scan stretch = ScanVectors(m_stretch0);
    if (scan.nonFinite || stretch.nonFinite) return "non-finite velocity or stretching";
    if (scan.maxNorm2 > p.maxSpeed * p.maxSpeed) {
        std::ostringstream msg;
        msg << "vorton speed " << std::sqrt(scan.maxNorm2) << " m/s exceeds max_speed " << p.maxSpeed << " m/s";
        return msg.str();
    }
    // Caught at its first sign: a resolved flow does not double its fastest
    // speed within one step, and a vorton crossing more than a lattice
    // spacing per step is no longer resolved in time (a CFL number above 1).
    // Both at once, beyond what a body's surface moves at through the fluid
    // (a ball thrown by the mouse drags the fluid with it), is a blow-up under
    // way (issue 16 saw dye_drop go 0.7 → 1.6 → 6.6 → 36 m/s in four steps
    // before max_speed caught it). Through the fluid: relative to the free
    // stream, since a body's images and sheet answer the stream at once, so
    // flow_past_ball's stream set from 0.6 to 2 m/s on the panel doubled the
    // induced speed in the next step, and was stopped as a blow-up.
    const double speed = std::sqrt(scan.maxNorm2);
    double bodySpeed = 0.0;
    for (std::size_t b = 0; b < m_bodies.size(); ++b) {
        bodySpeed = std::max(bodySpeed, double(glm::length(m_bodies[b].velocity - p.freeStream)) +
                                            double(glm::length(m_bodies[b].angularVelocity)) *
                                                double(m_setup.bodies[b].radius));
    }
    if (m_lastVortonSpeed > 0.0 && speed > 2.0 * m_lastVortonSpeed && speed * double(c.dt) > double(Spacing()) &&
        speed > 1.5 * bodySpeed) {
        std::ostringstream msg;
        msg << "the fastest vorton went from " << m_lastVortonSpeed << " to " << speed
            << " m/s in one step and now crosses " << speed * double(c.dt) / double(Spacing())
            << " lattice spacings per step (dt too large for this flow?)";
        return msg.str();
    }
    m_lastVortonSpeed = speed;
    m_lastMaxSpeed = speed;
    // The fastest stretching rate |(ω·∇)u|/|ω| this substep of the vortons away
    // from the bodies, for the distortion remesh (StageRemesh). Linear in ω, so
    // bounded by ‖∇u‖ however weak the vorton; a max, so the same for any
    // thread count.
    const float wallGap = kDistortionWallGap * Spacing();
    const Scan rate = ParallelScan(c.vortons, [&](std::size_t k, Scan& s) {
        const float w2 = glm::dot(m_vortons.vorticity[k], m_vortons.vorticity[k]);
        if (w2 > 0.0f && !NearABody(m_vortons.position[k], wallGap)) s.Add(m_stretch0[k] / std::sqrt(w2));
    });
    m_work.stretchRate = std::max(m_work.stretchRate, double(std::sqrt(rate.maxNorm2)));
    return {};
}

std::string Simulation::StageBaroclinic(StepContext&) {
    BaroclinicRates();
    if (ScanVectors(m_baroclinic).nonFinite) return "non-finite baroclinic generation";
    return {};
}

std::string Simulation::StageDiffusion(StepContext& c) {
    // Viscous diffusion (PSE), as dα/dt.
    const SimParams& p = m_setup.params;
    const std::size_t nv = c.vortons;
    m_diffusion.resize(nv);
    std::span<const float> eddy;
    if (p.smagorinsky > 0.0f && nv > 0) {
        // Subgrid eddy viscosity ν_t = (C h)² |ω| (a Smagorinsky model with
        // |ω| for the strain rate; ω over a lattice cell, CellVorticity),
        // capped at the explicit PSE stability limit ε²/(8 dt), since ε = σ
        // is the smallest length the exchange sees.
        const float h = Spacing();
        const float cell = h * h * h;
        const float ch2 = p.smagorinsky * p.smagorinsky * h * h;
        const float cap = m_vortons.radius[0] * m_vortons.radius[0] / (8.0f * c.dt);
        // Near a body's wall the model is damped as van Driest's mixing length
        // is, ν_t × (1 − exp(−y⁺/A⁺))², with y⁺ = d·u_τ/ν and u_τ = √(ν|ω|)
        // from the vorton's own vorticity (in the wall layer |ω| is its
        // shear): a sphere's boundary layer is laminar below Re ≈ 3·10⁵, and
        // the undamped model thickens it: a fixed ball's Cd at Re 480, R/h 5
        // is 0.896 with it, 0.662 damped (A⁺ 26) and 0.639 without the model,
        // the curve 0.571 (docs/BODIES.md, stop 73).
        const bool damp = p.vanDriest > 0.0f && p.viscosity > 0.0f && !m_bodies.empty();
        const float invAPlusSqrtNu = damp ? 1.0f / (p.vanDriest * std::sqrt(p.viscosity)) : 0.0f;
        m_eddyViscosity.resize(nv);
        // With subgrid_stretching the rate is |(ω·∇)u|/|ω| = |S ω̂| instead, from the
        // vorton's own ω and this step's stretching (the same for the transpose form,
        // (∇u)ᵀω = Sω too): zero where a core turns as a solid body. With subgrid_high_pass
        // (which wins over it) the rate is |ω − ω̄|, ω̄ the box filter over the lattice points
        // around the vorton (HighPassVorticity, written into m_eddyViscosity first).
        const bool highPass = p.subgridHighPass;
        const bool stretching = p.subgridStretching && !highPass;
        if (highPass) HighPassVorticity(m_vortons, m_lattice.origin, h, m_eddyViscosity);
        ParallelFor(nv, [&](std::size_t k) {
            // |ω| over a cell: the |ω| rate's, and the wall damping's shear.
            const float w = (!stretching && !highPass) || damp ? glm::length(CellVorticity(m_vortons, k, cell)) : 0.0f;
            float rate = highPass ? m_eddyViscosity[k] : w;
            if (stretching) {
                const float wk = glm::length(m_vortons.vorticity[k]);
                rate = wk > 0.0f ? glm::length(m_stretch0[k]) / wk : 0.0f;
            }
            float nuT = std::min(cap, ch2 * rate);
            if (damp) {
                float d = std::numeric_limits<float>::max();
                for (std::size_t b = 0; b < m_bodies.size(); ++b)
                    d = std::min(d, glm::length(m_vortons.position[k] - m_bodies[b].position) - m_setup.bodies[b].radius);
                const float f = 1.0f - std::exp(-std::max(d, 0.0f) * std::sqrt(w) * invAPlusSqrtNu);
                nuT *= f * f;
            }
            m_eddyViscosity[k] = nuT;
        });
        eddy = m_eddyViscosity;
    }
    m_internals->pse.ComputeRates(m_vortons.position, m_vortons.vorticity, m_vortons.radius, m_vortons.volume, p.viscosity,
                       m_diffusion, eddy);
    if (ScanVectors(m_diffusion).nonFinite) return "non-finite viscous diffusion";
    return {};
}

std::string Simulation::StagePredictor(StepContext& c) {
    // Heun (explicit trapezoid). Predictor: Euler to t + dt with every rate,
    // then velocity and stretching at the predicted state.
    const SimParams& p = m_setup.params;
    const std::size_t nv = c.vortons;
    const float dt = c.dt;
    m_predictedPosition.resize(nv);
    m_predictedVorticity.resize(nv);
    ParallelFor(nv, [&](std::size_t k) {
        m_predictedPosition[k] = m_vortons.position[k] + dt * (m_velocity0[k] + p.freeStream);
        m_predictedVorticity[k] = m_vortons.vorticity[k] +
                                  dt * (m_stretch0[k] + m_baroclinic[k] + m_diffusion[k] / m_vortons.volume[k]);
    });
    m_velocity1.resize(nv);
    m_stretch1.resize(nv);
    // The bodies where they will be at t + dt (x_b + dt·V_b), with the
    // predicted vortons: their image flow, the inside test, and the surface
    // slip CoupleBodies turns into the sheet. With the bodies left at t a ball
    // moving through still water read its slip V·dt behind its surface (0.75
    // spacings in falling_ball) and had 5 % more drag than the same ball held
    // in the same stream (Galilean invariance; BodySheetSettling.ABallMoving…).
    // Back to 0 however the evaluation ends, an exception included.
    struct LeadReset {
        float& lead;
        ~LeadReset() { lead = 0.0f; }
    } leadReset{m_bodyImageLead};
    m_bodyImageLead = dt;
    EvaluateVortons(m_predictedPosition, m_predictedVorticity, m_velocity1, m_stretch1, SolverFor(true),
                    FitVortonGrid(BoundsOf(m_predictedPosition)));
    return {};
}

std::string Simulation::StageCorrector(StepContext& c) {
    // Trapezoid for advection and stretching, Euler for the rest.
    const SimParams& p = m_setup.params;
    const float dt = c.dt;
    if (m_budgetOn) BudgetCorrector(dt);
    ParallelFor(c.vortons, [&](std::size_t k) {
        m_vortons.position[k] += dt * (0.5f * (m_velocity0[k] + m_velocity1[k]) + p.freeStream);
        m_vortons.vorticity[k] += 0.5f * dt * (m_stretch0[k] + m_stretch1[k]) +
                                  dt * (m_baroclinic[k] + m_diffusion[k] / m_vortons.volume[k]);
    });
    if (ScanVectors(m_vortons.position).nonFinite || ScanVectors(m_vortons.vorticity).nonFinite) {
        return "non-finite vorton position or vorticity";
    }
    if (m_budgetOn) m_budgetImpulse = VortonImpulse();
    AbsorbAtLayerSides(dt);
    BudgetAttribute(&ImpulseBudget::layers);
    return {};
}

std::string Simulation::StageBodies(StepContext& c) {
    // Bodies (parts 4 and 9): buoyancy, gravity and the fluid's force, then
    // their motion; the vortons they hit are pushed out and carry the
    // no-slip sheet. Emitters renew the stream. All before
    // the velocity of the new state is evaluated, so it stays valid for the
    // next step.
    if (!m_bodies.empty()) {
        if (BodySheets()) {
            CoupleBodies(c);
            CollideBodies(c.dt);
        } else {
            MoveBodies(c.dt);
            CollideBodies(c.dt);
            CollideVortons();
        }
        BudgetAttribute(&ImpulseBudget::bodies);
        for (std::size_t b = 0; b < m_bodies.size(); ++b) {
            const BodyState& body = m_bodies[b];
            if (!Finite(body.position) || !Finite(body.velocity) || !Finite(body.angularVelocity)) {
                return "non-finite body state";
            }
            const float speed = glm::length(body.velocity);
            if (speed > m_setup.params.maxSpeed) {
                std::ostringstream msg;
                msg << "body '" << m_setup.bodies[b].name << "' speed " << speed << " m/s exceeds max_speed "
                    << m_setup.params.maxSpeed << " m/s";
                return msg.str();
            }
        }
    }
    EmitVortons();
    BudgetAttribute(&ImpulseBudget::emitters);
    return {};
}

std::string Simulation::StageRemesh(StepContext& c) {
    // Remeshing closes the vortons' step, so the velocity evaluated next for
    // the tracers and the next step is the remeshed vortons'.
    const SimParams& p = m_setup.params;
    // Once per step, at its last substep: a step's substeps are one step of the
    // remesh's cadence. A run at dt/4 remeshing every 10 of its steps, as
    // remeshing per substep would, stopped a ball thrown at 10 m/s at 0.28 of
    // the quasi-steady law's speed by 0.8 s; remeshing every 40 (every 0.2 s,
    // as here), it went at 0.98 of it (docs/BODIES.md, stop 92).
    if (!c.LastSubstep()) return {};
    // Off the cadence too, when the step strained the flow away from the
    // bodies by more than kRemeshStretchCourant (a Lagrangian CFL number):
    // then only the vortons away from the bodies are remeshed.
    const bool cadence = p.remeshEvery > 0 && (m_steps + 1) % p.remeshEvery == 0;
    m_work.lagrangianCfl = m_work.stretchRate * double(c.stepDt);
    const bool distorted = p.remeshEvery > 0 && m_work.lagrangianCfl > double(kRemeshStretchCourant);
    m_work.distortionRemesh = distorted && !cadence;
    if (cadence || distorted) {
        // What the remesh drops (culls, the cap) takes its net Σα with it,
        // as the far wake does (ForgetFarWake); that and round-off are let go
        // on purpose (m_kelvinStrength).
        const glm::dvec3 before = BodySheets() ? TotalStrength() : glm::dvec3(0.0);
        if (cadence) {
            RemeshVortons();
        } else {
            RemeshAwayFromBodies();
        }
        if (BodySheets()) m_kelvinStrength += TotalStrength() - before;
        BudgetAttribute(&ImpulseBudget::remesh);
        ForgetFarWake();
        BudgetAttribute(&ImpulseBudget::farWake);
        if (BodySheets() && !m_bodies.empty()) {
            std::vector<glm::dvec3> impulse;
            PushVortonsOutOfBodies(&impulse, 0.0f);
            m_pendingPushImpulse.resize(impulse.size(), glm::dvec3(0.0));
            for (std::size_t b = 0; b < impulse.size(); ++b) m_pendingPushImpulse[b] += impulse[b];
        }
        BudgetAttribute(&ImpulseBudget::bodies);
        FillEmitters();
        BudgetAttribute(&ImpulseBudget::emitters);
    } else if (p.remeshEvery <= 0 && (m_steps + 1) % 5 == 0) {
        FillEmitters();  // vortons are off the lattice: each fills the point nearest to it
        BudgetAttribute(&ImpulseBudget::emitters);
    }
    return {};
}

std::string Simulation::StageTracerPredictor(StepContext& c) {
    PredictTracers(c.dt, c.stepDt);
    return {};
}

std::string Simulation::StageVelocityNext(StepContext& c) {
    // Velocity at t + dt from the corrected vortons: the tracers' second
    // stage, and the next step's first.
    m_nextVelocity.resize(m_vortons.Size());
    m_nextStretch.resize(m_vortons.Size());
    EvaluateVortons(m_vortons.position, m_vortons.vorticity, m_nextVelocity, m_nextStretch, SolverFor(false),
                    c.tracerGrid ? m_nextGrid.base : FitVortonGrid(BoundsOf(m_vortons.position)));
    if (c.tracerGrid) EvaluateGridPoints(m_nextGrid, m_gridNeeded, m_gridPacked1);
    return {};
}

std::string Simulation::StageTracers(StepContext& c) {
    // The tracers' corrector, then what bodies and emitters do to them.
    const TracerPass tracerScan = CorrectTracers(c.dt);
    if (tracerScan.nonFinite) return "non-finite tracer position";
    m_lastMaxSpeed = std::max(m_lastMaxSpeed, double(std::sqrt(tracerScan.maxNorm2)));
    m_tracerBounds = tracerScan.box;
    m_tracerBoundsValid = true;
    bool missing = tracerScan.missing;
    if (TracersMoveAfterCorrector()) {
        CollideTracers();
        EmitTracers();
        ReleaseBodyDye();
        // Pushed-out and re-emitted tracers: bounds and missing corners anew.
        const MovedTracers moved = ScanMovedTracers();
        missing = moved.missing;
        m_tracerBounds = moved.box;
    }
    if (c.tracers > 0) FillMissingCorners(m_gridMissing, missing);
    return {};
}

glm::dvec3 Simulation::VortonImpulse() const {
    glm::dvec3 sum(0.0);
    for (std::size_t k = 0; k < m_vortons.Size(); ++k) {
        sum += 0.5 * glm::cross(glm::dvec3(m_vortons.position[k]),
                                glm::dvec3(m_vortons.vorticity[k]) * double(m_vortons.volume[k]));
    }
    return sum;
}

void Simulation::BudgetAttribute(glm::dvec3 ImpulseBudget::*term) {
    if (!m_budgetOn) return;
    const glm::dvec3 now = VortonImpulse();
    m_budget.*term += now - m_budgetImpulse;
    m_budgetImpulse = now;
}

void Simulation::BudgetCorrector(float dt) {
    // The corrector's update term by term (StageCorrector), in exact arithmetic
    // on its float inputs: x₁×α₁ − x₀×α₀ = (x₁ − x₀)×α₀ + x₁×(α₁ − α₀).
    const SimParams& p = m_setup.params;
    const double step = double(dt);
    for (std::size_t k = 0; k < m_vortons.Size(); ++k) {
        const double volume = double(m_vortons.volume[k]);
        const glm::dvec3 x0(m_vortons.position[k]);
        const glm::dvec3 alpha0 = glm::dvec3(m_vortons.vorticity[k]) * volume;
        const glm::dvec3 dx = step * (0.5 * (glm::dvec3(m_velocity0[k]) + glm::dvec3(m_velocity1[k])) + glm::dvec3(p.freeStream));
        const glm::dvec3 x1 = x0 + dx;
        m_budget.advection += 0.5 * glm::cross(dx, alpha0);
        m_budget.stretching += 0.5 * glm::cross(x1, 0.5 * step * volume * (glm::dvec3(m_stretch0[k]) + glm::dvec3(m_stretch1[k])));
        m_budget.diffusion += 0.5 * glm::cross(x1, step * glm::dvec3(m_diffusion[k]));
        m_budget.baroclinic += 0.5 * glm::cross(x1, step * volume * glm::dvec3(m_baroclinic[k]));
    }
}

}  // namespace vorton
