// Results must not depend on the number of threads (docs/METHOD.md §8: no
// floating-point accumulation whose order depends on scheduling).

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/simulation.h"
#include "sim/solvers/vorton_clusters.h"
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

TEST(Determinism, AutoSolvesFarApartGroupsOnAGridEachWhateverTheTracerGridsCap) {
    // two_drops with its drops 6 m apart: one grid over both would be mostly
    // empty, so Auto solves each drop on its own grid at the asked cell (two
    // balls' wakes took 30 ms a solve on their own grids against 65 ms in the
    // treecode, stop 96). velocity_grid_cells bounds the one grid the tracers
    // share, not those (kAutoGroupGridPoints does, stop 98): with the cap
    // between the larger grid and the sum, or below half the larger, the
    // groups' grids are solved, whole.
    SceneSetup setup = test::LoadSetup("two_drops");
    setup.params.tracerCount = 2000;
    setup.groups[0].center.z = 3.0f;
    setup.groups[1].center.z = -3.0f;
    Simulation probe(setup);
    const float cell = setup.params.velocityGridSpacing * probe.Spacing();
    std::size_t largest = 0, sum = 0;
    const std::vector<VortonCluster> groups = SplitIntoClusters(probe.GetVortons().position, cell, 2.5f * cell);
    ASSERT_EQ(groups.size(), 2u);
    for (const VortonCluster& g : groups) {
        const std::size_t points = GridPointCount(g.box, cell, 2.5f * cell);
        largest = std::max(largest, points);
        sum += points;
    }
    ASSERT_LT(largest + 64, sum);  // room for a cap between them
    ASSERT_LE(sum, kAutoGroupGridPoints);
    std::vector<std::size_t> solved;
    for (const std::size_t cap : {(largest + sum) / 2, largest / 2}) {
        setup.params.velocityGridCells = int(cap);
        Simulation sim(setup);
        ASSERT_TRUE(test::RunSteps(sim, 1).ok);
        EXPECT_EQ(sim.ActiveSolver(), Solver::Grid) << "cap " << cap;
        solved.push_back(sim.LastStepWork().solverGridPoints);
    }
    // The same grids under either cap (a step's solves together), not grids coarsened to it.
    EXPECT_GE(solved[0], sum);
    EXPECT_EQ(solved[1], solved[0]);
}

TEST(Determinism, AutoSolvesOneGroupPastTheTracerGridsCapOnItsOwnGridAtTheAskedCell) {
    // One drop whose grid at the asked cell (one spacing) has more points than
    // velocity_grid_cells: the one grid the tracers share would coarsen its
    // cells to fit, and Auto took the treecode instead. Now the drop is solved
    // on its own grid at the asked cell, as a group (kAutoGroupGridPoints; five
    // balls within 2 m: 55–105 ms a solve against the treecode's 180–235 ms,
    // stop 98). Its vortons then move exactly as with a cap the one grid fits
    // (the same grid, the same sums), and not as with the treecode.
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.tracerCount = 0;
    setup.params.remeshEvery = 0;  // a remesh would coarsen the lattice past the cap (MaxGridPoints)
    setup.params.solver = Solver::Auto;
    Simulation probe(setup);
    const std::size_t n = probe.GetVortons().Size();
    const float cell = setup.params.velocityGridSpacing * probe.Spacing();
    const std::size_t points = GridPointCount(BoundsOf(probe.GetVortons().position), cell, 2.5f * cell);
    ASSERT_GE(n, kAutoGridVortons);
    ASSERT_LE(2 * points, kAutoTreeSparsity * n);  // sparse enough for a grid, with room for the drop to spread
    setup.params.velocityGridCells = int(4 * points);
    const std::uint64_t oneGrid = HashAfter(setup, 4, 2);
    setup.params.velocityGridCells = int(points / 4);
    Simulation sim(setup);
    ASSERT_TRUE(test::RunSteps(sim, 4).ok);
    EXPECT_EQ(sim.ActiveSolver(), Solver::Grid);
    EXPECT_GT(sim.LastStepWork().solverGridPoints, std::size_t(setup.params.velocityGridCells));
    EXPECT_EQ(test::StateHash(sim), oneGrid);
    setup.params.solver = Solver::Tree;
    EXPECT_NE(HashAfter(setup, 4, 2), oneGrid);
}

}  // namespace
}  // namespace vorton
