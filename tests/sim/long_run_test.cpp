// Runs for minutes, not seconds (issue 10): every shipped scene at small
// counts for 2,000 steps (40 s) without a blow-up and at a steady amount of
// work per step; and the rogue vorton that used to end runs after 20–40 s.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/bodies/body_surface.h"
#include "sim/simulation.h"
#include "test_util.h"

namespace vorton {
namespace {

/// Largest max|ω| / p99|ω| over the steps, or +∞ if a step blew up; stops
/// early once the ratio passes `stopAbove`.
double WorstVorticityRatio(Simulation& sim, int steps, int* completed, double stopAbove = INFINITY) {
    double worst = 0.0;
    tbb::task_arena arena(2);
    *completed = 0;
    arena.execute([&] {
        for (int s = 0; s < steps; ++s) {
            if (!sim.Step().ok) {
                worst = INFINITY;
                return;
            }
            ++*completed;
            const Diagnostics d = sim.ComputeDiagnostics();
            if (d.p99Vorticity > 0.0) worst = std::max(worst, d.maxVorticity / d.p99Vorticity);
            if (worst > stopAbove) return;
        }
    });
    return worst;
}

// In a field resolved on the vortons, the strongest vorton sits in the
// strongest region, with the next 1 % of the vortons around it: across them
// |ω| falls by at most the variation over a core radius. Measured in 60-s
// runs of every scene: max/p99 ≤ 1.5. A vorton stretched on its own grows
// at 0.5–2 per second (measured on the rogue vortons of issue 10) and so
// passes 4 within a few seconds of leaving its neighbours.
constexpr double kRogueRatio = 4.0;

/// Runs `control` for up to `controlSteps` steps, which must grow a rogue vorton (max/p99 of
/// |ω| past kRogueRatio: else the test cannot fail), then `setup` for `steps` steps, which
/// must not and must not blow up; records both under `name`.
void ExpectRogueVortonInTheControlOnly(const SceneSetup& control, int controlSteps, const SceneSetup& setup,
                                       int steps, const std::string& controlName, const std::string& name) {
    int completed = 0;
    Simulation controlSim(control);
    const double controlRatio = WorstVorticityRatio(controlSim, controlSteps, &completed, kRogueRatio);
    test::Measured(controlName, completed);
    EXPECT_GT(controlRatio, kRogueRatio) << "the control no longer grows a rogue vorton: the test cannot fail";

    Simulation sim(setup);
    const double ratio = WorstVorticityRatio(sim, steps, &completed);
    test::Measured(name, ratio);
    EXPECT_EQ(completed, steps);
    EXPECT_LT(ratio, kRogueRatio);
}

TEST(LongRun, NoRogueVortonWithRemeshing) {
    // The smallest case that showed it: a vortex ring of 500 vortons, direct
    // summation (so not a solver's approximation). Without remeshing one
    // vorton, cut off from its neighbours, is stretched until the run blows
    // up, at t = 38–63 s (when depends on the round-off of the sums: 1,900 and
    // 3,136 steps with two orders of the PSE pairs); with remeshing every
    // vorton keeps neighbours within its core.
    SceneSetup setup = test::LoadSetup("vortex_ring");
    setup.params.vortonCount = 500;
    setup.params.tracerCount = 0;
    ASSERT_EQ(setup.params.solver, Solver::Auto);

    SceneSetup without = setup;
    without.params.remeshEvery = 0;
    ExpectRogueVortonInTheControlOnly(without, 4000, setup, 2000, "steps_without_remeshing", "max_over_p99_vorticity");
}

TEST(LongRun, VortexRingGrowsNoRogueVortonInAMinute) {
    // The shipped vortex_ring (10,000 vortons, its high-pass subgrid rate since stop 110) for
    // 3,000 steps (60 s). With stop 108's stretching rate (subgrid_stretching) it blew up at
    // 90 s: after the count's cap had coarsened the lattice to 99 mm (40 s), one vorton far
    // stronger than its neighbours, which the flow strains little and that rate therefore
    // hardly damps, grew to 9.1 times the 99th percentile's |ω| by 60 s (docs/METHOD.md, PSE).
    // The control runs that rate and must pass kRogueRatio within the minute; the scene must
    // not. Measured max/p99: with the |ω| rate 1.2–1.5 over 120 s; with the high-pass rate,
    // which gives such a vorton 26/27 of its |ω| as its rate, 1.2–2.1 over 120 s and at most
    // 2.46 over ten minutes (at 207 s).
    SceneSetup setup = test::LoadSetup("vortex_ring");
    setup.params.tracerCount = 0;
    ASSERT_TRUE(setup.params.subgridHighPass);
    ASSERT_FALSE(setup.params.subgridStretching);
    SceneSetup stretching = setup;
    stretching.params.subgridHighPass = false;
    stretching.params.subgridStretching = true;
    ExpectRogueVortonInTheControlOnly(stretching, 3000, setup, 3000, "stretching_rate_steps_to_a_rogue_vorton",
                                      "vortex_ring_max_over_p99_vorticity_60_s");
}

double Median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
}

double Percentile95(std::vector<double> v) {
    if (v.empty()) return 0.0;
    const std::size_t k = v.size() * 95 / 100;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
    return v[k];
}

class LongRunScene : public ::testing::TestWithParam<std::string> {};

TEST_P(LongRunScene, TwoThousandStepsAtSteadyWork) {
    // Small counts so that every scene fits in CI's time; 1,300 vortons are
    // enough for solver=auto to use the grid solver (from kAutoGridVortons =
    // 1,000; below it, direct summation, whose work is not counted in grid
    // points: a scene crossing the threshold would compare two measures). Work per step is
    // counted, not timed: the vortons (PSE, remeshing, advection) and the
    // points the velocity solver computes (the grid solver's grids and the
    // tracer-grid points asked of a solver). Limits: any 5-s window after
    // 20 s has its median within 2× and its 95th percentile within 3× of the
    // first window's median (issue 10).
    SceneSetup setup = test::LoadSetup(GetParam());
    setup.params.vortonCount = 1300;
    setup.params.tracerCount = 3000;
    Simulation sim(setup);
    const std::size_t seeded = sim.GetVortons().Size();
    std::size_t sheets = 0;  // vortons a step's sheets release (body_sheet), at the seeded spacing
    if (setup.params.bodySheet) {
        for (const BodySpec& b : setup.bodies) sheets += SurfacePointsFor(b.radius, sim.Spacing());
    }
    constexpr int kSteps = 2000, kWindow = 250;  // 5 s at dt = 0.02
    ASSERT_EQ(setup.params.dt, 0.02f);
    std::vector<std::vector<double>> vortons(kSteps / kWindow), solver(kSteps / kWindow);
    tbb::task_arena arena(2);
    StepReport report;
    std::size_t most = 0;
    arena.execute([&] {
        for (int s = 0; s < kSteps && report.ok; ++s) {
            report = sim.Step();
            const StepWork& w = sim.LastStepWork();
            most = std::max(most, w.vortons);
            vortons[std::size_t(s / kWindow)].push_back(double(w.vortons));
            solver[std::size_t(s / kWindow)].push_back(double(w.solverGridPoints + w.solverPoints));
        }
    });
    ASSERT_TRUE(report.ok) << report.message;
    // Bodies that make their own vorticity (body_sheet) start from few
    // vortons and fill the cap's room for their wakes (50 sheets of 4π(R/h)²
    // each) within the first seconds; a remesh enforces the cap, and up to
    // remesh_every sheets are released between two. Once the count is at the
    // cap the same vortons still spread until they reach wake_length from the
    // body, and the solver's box grows with them: falling_ball's grid had
    // 106k points at 5 s, 269k at 10 s, then 264–278k to 35 s (3,000
    // tracers). Their reference window is therefore the third (10–15 s),
    // when the wake fills both its count and its extent; the growth before
    // it is bounded by the cap and by wake_length.
    EXPECT_LE(most, sim.MaxVortons() + std::size_t(setup.params.remeshEvery) * sheets);
    EXPECT_LE(sim.MaxVortons(), 3 * seeded / 2 + 50 * sheets + 64);
    if (setup.params.bodySheet) {
        EXPECT_GT(setup.params.wakeLength, 0.0f) << "the wake would spread without bound";
    }
    const std::size_t first = setup.params.bodySheet ? 2 : 0;
    for (std::size_t w = 0; w < solver.size(); ++w) {
        test::Measured("window_" + std::to_string(w) + "_median_solver_points", Median(solver[w]));
    }
    const double firstVortons = Median(vortons[first]), firstSolver = Median(solver[first]);
    double worstMedian = 0.0, worstP95 = 0.0, vortonP95 = 0.0, solverP95 = 0.0;
    for (std::size_t w = 4; w < vortons.size(); ++w) {  // after 20 s
        worstMedian = std::max(worstMedian, Median(vortons[w]) / firstVortons);
        vortonP95 = std::max(vortonP95, Percentile95(vortons[w]) / firstVortons);
        if (firstSolver > 0.0) {
            worstMedian = std::max(worstMedian, Median(solver[w]) / firstSolver);
            solverP95 = std::max(solverP95, Percentile95(solver[w]) / firstSolver);
        }
    }
    worstP95 = std::max(vortonP95, solverP95);
    test::Measured("worst_window_median_over_first", worstMedian);
    test::Measured("worst_window_p95_over_first_vortons", vortonP95);
    test::Measured("worst_window_p95_over_first_solver", solverP95);
    if (seeded > 0) test::Measured("vortons_end_over_seeded", double(sim.GetVortons().Size()) / double(seeded));
    test::Measured("vortons_end_over_cap", double(sim.GetVortons().Size()) / double(sim.MaxVortons()));
    EXPECT_LE(worstMedian, 2.0);
    EXPECT_LE(worstP95, 3.0);
}

INSTANTIATE_TEST_SUITE_P(Scenes, LongRunScene,
                         ::testing::Values("dye_drop", "two_drops", "vortex_ring", "rayleigh_taylor", "stratified_ball",
                                           "ball_through_smoke", "spinning_ball", "flow_past_ball", "falling_ball"));

}  // namespace
}  // namespace vorton
