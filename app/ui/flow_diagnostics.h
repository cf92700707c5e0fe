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
    std::size_t vortons = 0;
    std::size_t tracers = 0;
};

/// Measures `sim` now; `wallSeconds` is stored as given.
FlowSample MeasureFlow(const Simulation& sim, double wallSeconds);

/// Whether and how closely dI/dt = (g/ρ₀) Σ δρ_k V_k holds for a setup.
struct ImpulseLaw {
    /// Empty when the law applies: gravity and some buoyant (non-layer) dye, no bodies (they
    /// exchange momentum with the fluid), no layer groups (the stratified ambient's sponge
    /// takes impulse out), no emitters (they let fluid go). Else why not, for the dock.
    std::string inapplicable;
    /// Relative tolerance of the check (see ImpulseLawFor in flow_diagnostics.cpp).
    double tolerance = 0.0;
    /// What the tolerance allows for, for the dock.
    std::string note;
};
/// Tolerance of the impulse law with the subgrid model off, and with it on (smagorinsky > 0).
inline constexpr double kImpulseTolerance = 0.03;
inline constexpr double kImpulseToleranceSubgrid = 0.10;
ImpulseLaw ImpulseLawFor(const SceneSetup& setup);

/// A closed form measured against what the steps did.
struct ClosedFormCheck {
    bool applies = false;   ///< false: `reason` says why not (or too few steps yet)
    std::string reason;
    glm::dvec3 expected{0.0};   ///< closed-form value
    glm::dvec3 measured{0.0};   ///< finite difference over the window
    double relativeError = 0.0; ///< |measured − expected| / |expected|
    double tolerance = 0.0;
    bool pass = false;          ///< applies and relativeError ≤ tolerance
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

    /// dI/dt measured over the last kWindow steps against the mean of (g/ρ₀)Σδρ_kV_k over
    /// them, within law.tolerance; not applied when law.inapplicable says why not.
    ClosedFormCheck ImpulseCheck(const ImpulseLaw& law) const;
    /// The relative error of ImpulseCheck(law) at each sample from the kWindow-th on (the
    /// windows ending there), oldest first; empty when the law does not apply.
    std::vector<double> ImpulseErrorSeries(const ImpulseLaw& law) const;
    /// Simulated seconds per wall-clock second over the last kWindow steps, if known.
    std::optional<double> RealTimeFactor() const;

private:
    std::deque<FlowSample> m_samples;
};

}  // namespace vorton
