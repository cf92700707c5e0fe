// The diagnostics dock's model (issue 14, item 6): the flow's measures, and the impulse law
// measured against what the steps did on short runs.

#include <cmath>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "app/ui/flow_diagnostics.h"
#include "test_util.h"

namespace vorton {
namespace {

/// Steps `sim` `steps` times, pushing a sample after each into `log`; returns the worst
/// relative error of the impulse check over the steps where it applied (-1 if never).
double RunAndCheck(Simulation& sim, FlowLog& log, int steps, int* checked = nullptr) {
    const ImpulseLaw law = ImpulseLawFor(sim.Setup());
    double worst = -1.0;
    int n = 0;
    tbb::task_arena arena(2);
    for (int s = 0; s < steps; ++s) {
        StepReport r;
        arena.execute([&] { r = sim.Step(); });
        EXPECT_TRUE(r.ok) << r.message;
        if (!r.ok) break;
        log.Push(MeasureFlow(sim, 0.05 * s));
        const ClosedFormCheck c = log.ImpulseCheck(law);
        if (c.applies) {
            worst = std::max(worst, c.relativeError);
            ++n;
        }
    }
    if (checked) *checked = n;
    return worst;
}

TEST(FlowDiagnostics, ImpulseLawHoldsOnDyeDrop) {
    // The dock's check on the scene a user meets it in: dye_drop at its own settings
    // (viscosity, subgrid model, remeshing) with fewer tracers (they do not feed back), 3 s.
    // The check must apply from the 11th step on and pass at every window (tolerances
    // justified in flow_diagnostics.cpp: measured 2.9 % worst with the subgrid model,
    // 0.2 % without, against 10 % and 3 %).
    for (const float smagorinsky : {-1.0f, 0.0f}) {
        SceneSetup setup = test::LoadSetup("dye_drop");
        setup.params.tracerCount = 2000;
        if (smagorinsky >= 0.0f) setup.params.smagorinsky = smagorinsky;
        const ImpulseLaw law = ImpulseLawFor(setup);
        ASSERT_EQ(law.inapplicable, "");
        EXPECT_EQ(law.tolerance, setup.params.smagorinsky > 0.0f ? kImpulseToleranceSubgrid : kImpulseTolerance);
        Simulation sim(setup);
        FlowLog log;
        int checked = 0;
        const double worst = RunAndCheck(sim, log, 150, &checked);
        test::Measured(smagorinsky < 0.0f ? "impulse_law_worst_error_3s" : "impulse_law_worst_error_3s_no_subgrid",
                       worst);
        EXPECT_EQ(checked, 150 - int(FlowLog::kWindow));
        EXPECT_GE(worst, 0.0);
        EXPECT_LT(worst, law.tolerance);
        const ClosedFormCheck c = log.ImpulseCheck(law);
        EXPECT_TRUE(c.pass);
        // Heavy dye: the impulse grows along g (down), at −g·M/ρ₀ with M ≈ δρ·V of the drop.
        EXPECT_LT(c.measured.z, 0.0);
        const FlowSample& last = log.Latest();
        EXPECT_NEAR(c.expected.z, double(setup.params.gravity.z) * last.excessMass / setup.params.ambientDensity,
                    1e-5 * std::abs(c.expected.z));  // the mean over the window; remeshing keeps M to 1e-5
        // Σα of a closed vortex system stays zero against the strength it is made of.
        test::Measured("circulation_over_strength", glm::length(last.circulation) / last.strength);
        EXPECT_LT(glm::length(last.circulation), 1e-3 * last.strength);
        // The sinking drop has kinetic energy and enstrophy; the log kept every step.
        EXPECT_GT(last.kineticEnergy, 0.0);
        EXPECT_GT(last.enstrophy, 0.0);
        EXPECT_EQ(log.Samples().size(), 150u);
        EXPECT_EQ(last.vortons, sim.GetVortons().Size());
        EXPECT_EQ(last.tracers, 2000u);
    }
}

TEST(FlowDiagnostics, ImpulseCheckFailsAWrongRate) {
    // Samples whose impulse grows at 0.9 of (g/ρ₀)Σδρ_kV_k fail the check with a 10 % error;
    // at exactly the rate they pass with none. The check is not a constant.
    for (const double factor : {1.0, 0.97, 0.9}) {
        FlowLog log;
        const glm::dvec3 rate(0.0, 0.0, -2.0e-3);
        for (int s = 0; s <= int(FlowLog::kWindow); ++s) {
            FlowSample sample;
            sample.step = s + 1;
            sample.time = 0.02 * (s + 1);
            sample.impulse = factor * rate * sample.time;
            sample.buoyancyImpulseRate = rate;
            log.Push(sample);
        }
        const ClosedFormCheck c = log.ImpulseCheck(ImpulseLaw{{}, kImpulseTolerance, {}});
        ASSERT_TRUE(c.applies);
        EXPECT_NEAR(c.relativeError, 1.0 - factor, 1e-9);
        EXPECT_EQ(c.pass, 1.0 - factor <= kImpulseTolerance) << factor;
        // The dock's error plot: one window so far, the same error.
        const auto series = log.ImpulseErrorSeries(ImpulseLaw{{}, kImpulseTolerance, {}});
        ASSERT_EQ(series.size(), 1u);
        EXPECT_EQ(series[0], c.relativeError);
    }
}

TEST(FlowDiagnostics, LogStartsAnewAfterAGapAndNeedsAWindow) {
    FlowLog log;
    for (int s = 1; s <= 5; ++s) {
        FlowSample sample;
        sample.step = s;
        sample.time = 0.02 * s;
        log.Push(sample);
    }
    EXPECT_FALSE(log.ImpulseCheck(ImpulseLaw{{}, kImpulseTolerance, {}}).applies);
    EXPECT_NE(log.ImpulseCheck(ImpulseLaw{{}, kImpulseTolerance, {}}).reason.find("needs"), std::string::npos);
    FlowSample reset;
    reset.step = 1;  // a reset: not step 6
    log.Push(reset);
    EXPECT_EQ(log.Samples().size(), 1u);
}

TEST(FlowDiagnostics, RealTimeFactorFromWallClock) {
    // Steps of 0.02 s simulated taking 0.04 s of wall clock each: half real time.
    FlowLog log;
    EXPECT_FALSE(log.RealTimeFactor().has_value());
    for (int s = 1; s <= 20; ++s) {
        FlowSample sample;
        sample.step = s;
        sample.time = 0.02 * s;
        sample.wallSeconds = 100.0 + 0.04 * s;
        log.Push(sample);
    }
    ASSERT_TRUE(log.RealTimeFactor().has_value());
    EXPECT_NEAR(*log.RealTimeFactor(), 0.5, 1e-9);
}

TEST(FlowDiagnostics, ImpulseLawNamesWhyItDoesNotApply) {
    EXPECT_NE(ImpulseLawFor(test::LoadSetup("falling_ball")).inapplicable.find("bodies"), std::string::npos);
    SceneSetup layers = test::LoadSetup("stratified_ball");
    layers.bodies.clear();
    EXPECT_NE(ImpulseLawFor(layers).inapplicable.find("stratified"), std::string::npos);
    EXPECT_EQ(ImpulseLawFor(test::LoadSetup("two_drops")).inapplicable, "");
    SceneSetup weightless = test::LoadSetup("dye_drop");
    weightless.params.gravity = glm::vec3(0.0f);
    EXPECT_EQ(ImpulseLawFor(weightless).inapplicable, "no gravity");
    // A law that does not apply is never marked as passing, even with samples that fit it.
    FlowLog log;
    for (int s = 1; s <= 20; ++s) {
        FlowSample sample;
        sample.step = s;
        sample.time = 0.02 * s;
        log.Push(sample);
    }
    EXPECT_FALSE(log.ImpulseCheck(ImpulseLawFor(weightless)).pass);
}

TEST(FlowDiagnostics, InviscidRingKeepsItsEnergy) {
    // E = ρ₀Σu_k·(x_k×α_k) is an invariant of inviscid, weightless flow (Saffman §3.2).
    // The regularised kernel and Heun's step keep it only approximately, as they do the
    // impulse (Conservation tests: 2e-5 of I over 50 steps); measured −0.17 % over 40
    // steps of the ring: 1 % bound. A wrong sign or a missing factor of x would not be
    // constant, nor positive. The energy is there from the first step, not before.
    SceneSetup setup = test::LoadSetup("vortex_ring");
    setup.params.viscosity = 0.0f;
    setup.params.smagorinsky = 0.0f;
    setup.params.gravity = glm::vec3(0.0f);
    setup.params.tracerCount = 0;
    setup.params.vortonCount = 1500;
    setup.params.remeshEvery = 0;
    Simulation sim(setup);
    EXPECT_TRUE(std::isnan(MeasureFlow(sim, 0.0).kineticEnergy));
    FlowLog log;
    RunAndCheck(sim, log, 41);
    const double e0 = log.Samples().front().kineticEnergy, e1 = log.Latest().kineticEnergy;
    test::Measured("ring_energy_J", e0);
    test::Measured("ring_energy_drift_inviscid", e1 / e0 - 1.0);
    ASSERT_GT(e0, 0.0);
    EXPECT_NEAR(e1 / e0, 1.0, 0.01);
}

}  // namespace
}  // namespace vorton
