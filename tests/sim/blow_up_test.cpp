// Blow-up detection: a step that produces non-finite values or a vorton
// faster than max_speed reports where, instead of carrying on with garbage.

#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "sim/simulation.h"
#include "test_util.h"

namespace vorton {
namespace {

SceneSetup SmallDrop(Solver solver) {
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.vortonCount = 1000;
    setup.params.tracerCount = 1000;
    setup.params.solver = solver;
    return setup;
}

class BlowUp : public ::testing::TestWithParam<Solver> {};

TEST_P(BlowUp, NonFiniteVorticityStopsAtTheVelocityStage) {
    Simulation sim(SmallDrop(GetParam()));
    ASSERT_TRUE(test::RunSteps(sim, 3).ok);
    sim.MutableVortons().vorticity[17].x = std::numeric_limits<float>::quiet_NaN();
    const StepReport report = test::RunSteps(sim, 1);
    EXPECT_FALSE(report.ok);
    EXPECT_EQ(report.step, 3);
    EXPECT_EQ(report.stage, "velocity");
    EXPECT_NE(report.message.find("step 3"), std::string::npos) << report.message;
    // The failed step does not count.
    EXPECT_EQ(sim.StepCount(), 3);
}

TEST_P(BlowUp, TooFastStopsAndNamesMaxSpeed) {
    Simulation sim(SmallDrop(GetParam()));
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    sim.Params().maxSpeed = 1.0f;
    // A vorton with a huge spin drives its neighbours at ~|α|/(4πh²) ≫ 1 m/s.
    sim.MutableVortons().vorticity[100] = glm::vec3(0.0f, 1.0e6f, 0.0f);
    const StepReport report = test::RunSteps(sim, 1);
    EXPECT_FALSE(report.ok);
    EXPECT_EQ(report.stage, "velocity");
    EXPECT_NE(report.message.find("max_speed"), std::string::npos) << report.message;
    EXPECT_NE(report.message.find("step 1"), std::string::npos) << report.message;
}

INSTANTIATE_TEST_SUITE_P(Solvers, BlowUp, ::testing::Values(Solver::Direct, Solver::Tree, Solver::Grid),
                         [](const auto& info) { return std::string(SolverName(info.param)); });

TEST(BlowUpLimit, NormalRunStaysBelowMaxSpeed) {
    // The opposite case: the same drop at its real vorticity is far below
    // the default 100 m/s and its speed is reported.
    Simulation sim(SmallDrop(Solver::Tree));
    ASSERT_TRUE(test::RunSteps(sim, 5).ok);
    const double speed = sim.ComputeDiagnostics().maxSpeed;
    EXPECT_GT(speed, 0.0);
    EXPECT_LT(speed, 1.0);
}

}  // namespace
}  // namespace vorton
