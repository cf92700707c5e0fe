#pragma once
/// \file
/// The diagnostics dock's model (issue 14, item 6): what is measured of the flow after each
/// step, its history, and the closed-form checks measured against what the step did. No
/// ImGui, no OpenGL: the panel draws it, tests check it on short runs.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/simulation.h"

namespace vorton {

/// A vortex ring measured from its vortons (Saffman, *Vortex Dynamics* §10.2; "The velocity
/// of viscous vortex rings", Stud. Appl. Math. 49, 1970). The axis is the direction of the
/// linear impulse I; about the vortons' strength-weighted centre, α_φ is each vorton's
/// strength along the azimuth and ρ its distance from the axis.
struct RingMeasure {
    bool valid = false;        ///< I, Γ and the core's spread came out positive
    glm::dvec3 axis{0.0};      ///< unit vector along I: the way the ring travels
    /// The centre Σ α_φρ·x / Σ α_φρ, m (weights ω_φρ²dA, the impulse's): its rate along the
    /// axis is the ring's speed.
    glm::dvec3 centre{0.0};
    double circulation = 0.0;  ///< Γ = Σ (α_φ/ρ) / 2π, m²/s (the cross-section's Σ ω_φ dA)
    double radius = 0.0;       ///< R = √(|I|/(πΓ)), m (Saffman's ring radius)
    /// a, m: the rms distance of the cross-section's vorticity (weights α_φ/ρ) from its
    /// centroid; a Gaussian core ω ∝ exp(−s²/a²) has exactly this a.
    double core = 0.0;
};

/// Measures a ring from `vortons` (any vortons: a flow that is not a ring gives a ring that
/// the check's tolerance rejects, or valid = false).
RingMeasure MeasureRing(const Vortons& vortons);

/// Saffman's speed of a thin ring with a Gaussian core ω ∝ exp(−s²/a²), m/s:
/// Γ/(4πR)·(ln(8R/a) − 0.558) (docs/METHOD.md, checks with known answers).
double SaffmanRingSpeed(double circulation, double radius, double core);

/// The flow after one step (Cottet & Koumoutsakos §1.4; Saffman, *Vortex Dynamics* §3.2).
struct FlowSample {
    std::int64_t step = 0;       ///< Simulation::StepCount()
    double time = 0.0;           ///< simulated time, s
    double wallSeconds = 0.0;    ///< wall clock when it was measured, s (any origin)
    glm::dvec3 circulation{0.0}; ///< total strength Σ α_k, m³/s (zero for a closed vortex system)
    double strength = 0.0;       ///< Σ |α_k|, m³/s: the scale Σα is small against
    glm::dvec3 impulse{0.0};     ///< linear impulse I = ½ Σ x_k × α_k, m⁴/s (ρ₀I is the momentum, N·s)
    /// Kinetic energy E = ρ₀ Σ u_k·(x_k × α_k), J (Saffman eq. 3.2.4 for an unbounded fluid at
    /// rest at infinity): from the velocities the step left at the vortons. NaN when they are
    /// not at hand (before the first step, after an edit) or with bodies (not an unbounded fluid).
    double kineticEnergy = 0.0;
    double enstrophy = 0.0;      ///< Σ |ω_k|² V_k, m³/s² (μ times it is the viscous dissipation, W)
    double excessMass = 0.0;     ///< Σ δρ_k V_k, kg
    /// (g/ρ₀) Σ δρ_k V_k, m⁴/s², with this step's g and ρ₀: the impulse rate buoyancy gives.
    glm::dvec3 buoyancyImpulseRate{0.0};
    /// (|g|/ρ₀) Σ |δρ_k| V_k, m⁴/s²: the impulse rate the heavy and the light dye would give
    /// each on its own, summed. The impulse law's error is measured against it when they
    /// cancel (two_drops: dI/dt ≈ 0 to within the round-off of the excess masses).
    double buoyancyScale = 0.0;
    std::size_t vortons = 0;
    std::size_t tracers = 0;
    RingMeasure ring;             ///< the vortons read as a ring (RingCheck)
    glm::dvec3 bodyVelocity{0.0}; ///< the first body's velocity, m/s (TerminalCheck); 0 without bodies
    glm::dvec3 bodyForce{0.0};    ///< the fluid's force on the first body, N (DragCheck); 0 without bodies
    bool bodyHeld = false;        ///< the first body was held by the mouse
};

/// Measures `sim` now; `wallSeconds` is stored as given.
FlowSample MeasureFlow(const Simulation& sim, double wallSeconds);

/// Whether a closed-form law applies to a setup, and how closely it must hold there.
struct ClosedFormLaw {
    std::string inapplicable;  ///< empty when the law applies, else why not (for the dock)
    double tolerance = 0.0;    ///< relative tolerance of the check (see each law's ...For)
    std::string note;          ///< what the tolerance allows for (for the dock)
};

/// Whether and how closely dI/dt = (g/ρ₀) Σ δρ_k V_k holds for a setup. It applies with
/// gravity and some buoyant (non-layer) dye, no bodies (they exchange momentum with the
/// fluid), no layer groups (the stratified ambient's sponge takes impulse out), no emitters
/// (they let fluid go).
struct ImpulseLaw : ClosedFormLaw {};
/// Tolerance of the impulse law with the subgrid model off, and with it on (smagorinsky > 0).
inline constexpr double kImpulseTolerance = 0.03;
inline constexpr double kImpulseToleranceSubgrid = 0.10;
ImpulseLaw ImpulseLawFor(const SceneSetup& setup);

/// Whether and how closely a ring moves at Saffman's speed for the Γ, R and a measured of it.
/// It applies with one group carrying circulation (a torus), no bodies, emitters or layers,
/// and no buoyant dye under gravity (buoyancy would push the ring).
struct RingLaw : ClosedFormLaw {};
/// See RingLawFor in flow_diagnostics.cpp for what the tolerance allows for.
inline constexpr double kRingSpeedTolerance = 0.20;
/// Thin-ring limit of the check: beyond, the O((a/R)²) corrections exceed 6 %.
inline constexpr double kRingThinLimit = 0.5;
RingLaw RingLawFor(const SceneSetup& setup);
/// Why the ring law cannot apply to `setup` (RingLawFor's `inapplicable`), or null when it
/// can; allocates nothing, for MeasureFlow's per-step test.
const char* RingLawObstacle(const SceneSetup& setup);

/// Whether and how closely a falling (or rising) ball reaches the drag curve's terminal
/// velocity (sim/bodies/drag_curve.h). It applies with exactly one free body, body_sheet on
/// (the ball makes its own wake), gravity, a density other than the ambient's, no stratified
/// layers.
struct TerminalLaw : ClosedFormLaw {
    glm::dvec3 expected{0.0};  ///< the drag curve's terminal velocity, m/s, along ±g
    double reynolds = 0.0;     ///< U_t·2R/ν at it
};
/// The terminal-velocity tolerance and the settling criterion: issue 12's "within 30 % of the
/// drag curve, reached without wandering by more than ±15 % once settled".
inline constexpr double kTerminalTolerance = 0.30;
inline constexpr double kTerminalWander = 0.15;
/// Simulated seconds the terminal check averages over.
inline constexpr double kTerminalWindowSeconds = 1.0;
TerminalLaw TerminalLawFor(const SceneSetup& setup);

/// Diameters of stream that pass a fixed ball (t·|U|/2R, t from the scene's start) before the
/// drag and shedding checks judge: the drag curve and the Strouhal band are a developed wake's.
/// A stream started at once past a ball leaves it a steady wake first, and shedding grows out of
/// that wake's instability from the round-off's disturbances, so the onset has no universal
/// time. flow_past_ball (Re 480, R/h 5) measured: the side force's swing grows from C_L' 0.003
/// at 12 s to 0.03 at 26 s, and the spectrum of the last 11 s first holds its peak and half its
/// power in the band at 38 s (t·U/2R = 95), passing from then to 60 s; its drag over the last
/// 10 s rises with the shedding from 1.06 of the curve's at 14 s to 1.16 from 30 s on. At Re
/// 1000 the drag check passed over 10–15 s (1.22–1.28 of the curve's) and failed from 16 s
/// (1.30–1.40). So both checks wait for 100 (40 s there); before, each shows what it measures
/// as "the wake is forming", with no mark.
inline constexpr double kWakeOnsetDiameters = 100.0;

/// Whether and how closely a fixed ball in a stream feels the drag curve's drag (issue 12's
/// flow_past_ball). It applies with exactly one body, fixed and not oscillating, body_sheet on
/// (the ball makes its own wake), a free stream and no stratified layers.
struct DragLaw : ClosedFormLaw {
    /// The drag curve's drag ½·C_d·ρ₀·U²·πR² along the free stream U, N (the fluid's force on
    /// the ball less its mean side force).
    glm::dvec3 expected{0.0};
    double reynolds = 0.0;     ///< |U|·2R/ν
    double onsetTime = 0.0;    ///< s: the simulated time from which the check judges, kWakeOnsetDiameters·2R/|U|
};
/// The drag's tolerance: issue 12's 30 % on the drag curve (its terminal-velocity check).
inline constexpr double kDragTolerance = 0.30;
/// Simulated seconds the drag check averages over: four shedding periods 2R/(St·U) of the
/// flow_past_ball scene (St 0.16, U = 0.6 m/s, R = 0.12 m: 2.5 s), within FlowLog::kCapacity
/// steps at its dt (0.02 s).
inline constexpr double kDragWindowSeconds = 10.0;
DragLaw DragLawFor(const SceneSetup& setup);

/// Whether a fixed ball in a stream sheds as a sphere does (issue 12's last check): its side
/// force oscillating at St = f·2R/U in 0.1–0.25 for 300 ≤ Re ≤ 1000 (a sphere: St 0.137 at
/// Re 300, Johnson & Patel 1999; 0.13–0.2 up to Re 1000, Sakamoto & Haniu 1990). It applies
/// where DragLawFor does, within that Re range.
struct SheddingLaw : ClosedFormLaw {
    glm::dvec3 stream{0.0};   ///< the free stream U, m/s
    double diameter = 0.0;    ///< 2R, m
    double reynolds = 0.0;    ///< |U|·2R/ν
    double dynamicForce = 0.0;  ///< ½ρ₀U²πR², N: the side force over it is C_L
    double onsetTime = 0.0;     ///< s: the simulated time from which the check judges, kWakeOnsetDiameters·2R/|U|
};
/// Issue 12's band of Strouhal numbers, and the share of the side force's power that must lie in
/// it (as `BodySheetSettling.FlowPastBallSceneShedsAtASpheresStrouhalNumber` asks).
inline constexpr double kSheddingBandLow = 0.10;
inline constexpr double kSheddingBandHigh = 0.25;
inline constexpr double kSheddingBandShare = 0.5;
inline constexpr double kSheddingLowestReynolds = 300.0;
inline constexpr double kSheddingHighestReynolds = 1000.0;
/// Simulated seconds of side force the check's spectrum takes: within FlowLog::kCapacity steps
/// at flow_past_ball's dt (0.02 s); its bins lie D/(U·11 s) = 0.036 apart in St there, so the
/// band holds four of them.
inline constexpr double kSheddingWindowSeconds = 11.0;
SheddingLaw SheddingLawFor(const SceneSetup& setup);

/// A closed form measured against what the steps did.
struct ClosedFormCheck {
    bool applies = false;   ///< false: `reason` says why not (or too few steps yet)
    std::string reason;
    glm::dvec3 expected{0.0};   ///< closed-form value
    glm::dvec3 measured{0.0};   ///< finite difference over the window
    double relativeError = 0.0; ///< |measured − expected| / |expected|
    double tolerance = 0.0;
    bool pass = false;          ///< applies and relativeError ≤ tolerance (and `detail`'s condition, if any)
    bool scalar = false;        ///< expected and measured are numbers (their x), not vectors
    std::string detail;         ///< one more line of what was measured (empty: none)
};

/// The last kCapacity samples of one run (cleared at a reset, a scene change or a loaded
/// snapshot), and the checks over its last kWindow steps.
class FlowLog {
public:
    static constexpr std::size_t kCapacity = 600;
    /// Steps the rates are measured over: long enough that float round-off in I (7 digits of
    /// a value growing by ~1e-2 of itself per step) is below 1e-4 of the rate.
    static constexpr std::size_t kWindow = 10;

    void Clear() { m_samples.clear(); }
    /// Appends a sample; one that does not follow the last by one step starts the log anew.
    void Push(const FlowSample& sample);
    const std::deque<FlowSample>& Samples() const { return m_samples; }
    bool Empty() const { return m_samples.empty(); }
    const FlowSample& Latest() const { return m_samples.back(); }

    /// The law's check over the last kWindow steps (see CheckAt for each law); not applied
    /// when law.inapplicable says why not, or too few steps were logged yet.
    template <typename Law>
    ClosedFormCheck Check(const Law& law) const {
        return CheckAt(law, m_samples.empty() ? 0 : m_samples.size() - 1);
    }
    /// The relative error of Check(law) at each sample from the kWindow-th on (the windows
    /// ending there, where it applies), oldest first; empty when the law does not apply.
    template <typename Law>
    std::vector<double> ErrorSeries(const Law& law) const {
        std::vector<double> errors;
        if (!law.inapplicable.empty()) return errors;
        for (std::size_t i = 0; i < m_samples.size(); ++i) {
            const ClosedFormCheck c = CheckAt(law, i);
            if (c.applies) errors.push_back(c.relativeError);
        }
        return errors;
    }
    /// Simulated seconds per wall-clock second over the last kWindow steps, if known.
    std::optional<double> RealTimeFactor() const;

private:
    /// The checks over the window ending at sample `last` (an index into m_samples):
    /// - impulse: dI/dt measured over the window against the mean of (g/ρ₀)Σδρ_kV_k over it;
    /// - ring: the ring centre's rate against the mean of SaffmanRingSpeed·axis, not applied
    ///   when the ring is not measurable or a/R > kRingThinLimit;
    /// - terminal: the first body's mean velocity over the last kTerminalWindowSeconds against
    ///   law.expected, once settled (every sample's speed along the expected direction within
    ///   kTerminalWander of the mean), not while held;
    /// - drag: the mean of the first body's force along law.expected over the last
    ///   kDragWindowSeconds against law.expected, not while held, and not before
    ///   law.onsetTime (c.reason then gives what it measured).
    /// Each within law.tolerance.
    ClosedFormCheck CheckAt(const ImpulseLaw& law, std::size_t last) const;
    ClosedFormCheck CheckAt(const RingLaw& law, std::size_t last) const;
    ClosedFormCheck CheckAt(const TerminalLaw& law, std::size_t last) const;
    ClosedFormCheck CheckAt(const DragLaw& law, std::size_t last) const;
    /// - shedding: the St of the strongest bin of the first body's side force over the last
    ///   kSheddingWindowSeconds (MeasureSideForceSpectrum) against the band's middle, within
    ///   the band, and more than kSheddingBandShare of the power in the band; not while held,
    ///   and not before law.onsetTime (c.reason then gives what it measured).
    ClosedFormCheck CheckAt(const SheddingLaw& law, std::size_t last) const;

    std::deque<FlowSample> m_samples;
};

}  // namespace vorton
