// Results must not depend on the number of threads (docs/METHOD.md §8: no
// floating-point accumulation whose order depends on scheduling).

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "sim/simulation.h"
#include "sim/tracers/tracer_simd.h"
#include "test_util.h"

namespace vorton {
namespace {

std::uint64_t HashAfter(const SceneSetup& setup, int steps, int threads, bool tracerSimd = true) {
    Simulation sim(setup);
    sim.UseTracerSimd(tracerSimd);
    const StepReport r = test::RunSteps(sim, steps, threads);
    EXPECT_TRUE(r.ok) << r.message;
    return test::StateHash(sim);
}

class Determinism : public ::testing::TestWithParam<Solver> {};

TEST_P(Determinism, DyeDropIsBitwiseTheSameForAnyThreadCount) {
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.vortonCount = 1000;
    setup.params.tracerCount = 5000;
    setup.params.velocityGridCells =
        4096;                          // the direct solver sums every source at every grid point
    setup.params.viscosity = 1.0e-3f;  // PSE on, and strong enough to matter in 10 steps
    setup.params.solver = GetParam();
    const std::uint64_t one = HashAfter(setup, 10, 1);
    EXPECT_EQ(HashAfter(setup, 10, 2), one);
    EXPECT_EQ(HashAfter(setup, 10, 4), one);  // more workers than cores: other splits
    // The hash is sensitive: one step fewer gives another state.
    EXPECT_NE(HashAfter(setup, 9, 1), one);
}

INSTANTIATE_TEST_SUITE_P(Solvers, Determinism, ::testing::Values(Solver::Direct, Solver::Tree, Solver::Grid),
                         [](const auto& info) { return std::string(SolverName(info.param)); });

TEST(Determinism, ResetReproducesTheRun) {
    SceneSetup setup = test::LoadSetup("two_drops");
    setup.params.vortonCount = 1500;
    setup.params.tracerCount = 3000;
    Simulation sim(setup);
    ASSERT_TRUE(test::RunSteps(sim, 5).ok);
    const std::uint64_t first = test::StateHash(sim);
    sim.Reset();
    EXPECT_EQ(sim.StepCount(), 0);
    EXPECT_EQ(sim.Time(), 0.0);
    ASSERT_TRUE(test::RunSteps(sim, 5).ok);
    EXPECT_EQ(test::StateHash(sim), first);
}

TEST(Determinism, TracerSimdPathGivesTheScalarBits) {
    // The AVX2 tracer passes (when the CPU has them) against the scalar loop,
    // with and without a body (collisions, the missed-corner check) and for
    // the masked (tree) and unmasked (grid) velocity grids.
    for (const char* scene : {"two_drops", "ball_through_smoke"}) {
        for (const Solver solver : {Solver::Tree, Solver::Grid}) {
            SceneSetup setup = test::LoadSetup(scene);
            setup.params.vortonCount = 1200;
            setup.params.tracerCount = 20001;  // not a multiple of 8
            setup.params.solver = solver;
            const std::uint64_t simd = HashAfter(setup, 8, 2);
            const std::uint64_t scalar = HashAfter(setup, 8, 2, false);
            EXPECT_EQ(simd, scalar) << scene << " " << SolverName(solver);
        }
    }
    if (!TracerSimdAvailable()) GTEST_SKIP() << "no AVX2 here: only the scalar path ran";
}

TEST(Determinism, AutoSolverIsDirectForFewVortonsAndTheGridForMany) {
    // Auto picks by the vorton count (kAutoGridVortons): its run must be the
    // chosen solver's run to the bit, and the two solvers must differ.
    for (const int count : {300, 3000}) {
        SceneSetup setup = test::LoadSetup("dye_drop");
        setup.params.vortonCount = count;
        setup.params.tracerCount = 2000;
        setup.params.solver = Solver::Auto;
        const std::uint64_t autoHash = HashAfter(setup, 5, 2);
        Simulation probe(setup);
        const Solver expected = probe.GetVortons().Size() >= kAutoGridVortons ? Solver::Grid : Solver::Direct;
        EXPECT_EQ(probe.ActiveSolver(), expected);
        EXPECT_EQ(expected, count < 1000 ? Solver::Direct : Solver::Grid);
        setup.params.solver = expected;
        EXPECT_EQ(HashAfter(setup, 5, 2), autoHash) << count << " vortons";
        setup.params.solver = Solver::Tree;
        EXPECT_NE(HashAfter(setup, 5, 2), autoHash) << count << " vortons";
    }
}

}  // namespace
}  // namespace vorton
