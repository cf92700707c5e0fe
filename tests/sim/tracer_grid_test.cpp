// The tracers' nested velocity grid (nested_grid.h): tracers far from the
// vortons get their velocity from coarser levels filled by the solver's far
// field; the vortons' own velocity does not depend on where the tracers are.

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/tracers/nested_grid.h"
#include "sim/simulation.h"
#include "test_util.h"

namespace vorton {
namespace {

TEST(NestedGrid, LevelsNestAndShareTheirCentre) {
    NestedGrid g;
    g.base.origin = glm::vec3(-1.0f, -2.0f, 0.5f);
    g.base.spacing = glm::vec3(0.1f);
    g.base.points = glm::ivec3(21, 41, 11);
    g.levels = 4;
    const glm::vec3 c = g.Center();
    for (int l = 0; l < g.levels; ++l) {
        const GridGeometry level = g.Level(l);
        EXPECT_NEAR(glm::length(level.origin + 0.5f * glm::vec3(level.points - 1) * level.spacing - c), 0.0f, 1e-5f);
        EXPECT_FLOAT_EQ(level.spacing.x, 0.1f * float(1 << l));
    }
    // Points of each level are where Position says, and the sampler puts a
    // point in the finest level that holds it.
    const NestedGridSampler sampler(g);
    for (const glm::vec3 x : {c, c + glm::vec3(0.99f, 0.0f, 0.0f), c + glm::vec3(1.01f, 0.0f, 0.0f),
                              c + glm::vec3(0.0f, 0.0f, 1.9f), c + glm::vec3(0.0f, 7.9f, 0.0f)}) {
        GridSampler::Float4 f;
        const std::size_t o = sampler.Cell(x, &f);
        const int level = int(o / g.LevelPointCount());
        const GridGeometry lg = g.Level(level);
        const glm::vec3 lower = g.Position(o);
        for (int a = 0; a < 3; ++a) {
            EXPECT_NEAR(lower[a] + f[a] * lg.spacing[a], x[a], 1e-4f * lg.spacing[a]) << "axis " << a;
        }
        if (level > 0) {
            // Outside the next finer level's box.
            const GridGeometry finer = g.Level(level - 1);
            const glm::vec3 hi = finer.Max();
            EXPECT_TRUE(glm::any(glm::lessThan(x, finer.origin)) || glm::any(glm::greaterThan(x, hi)));
        }
    }
}

TEST(NestedGrid, FarTracersGetTheFarFieldWithinOnePercent) {
    // A developed dye drop; tracers at 0.6 to 12 times the vortons’ extent
    // from them. Velocity the tracers are moved with (the nested grid) against
    // direct summation at the same points, split by level.
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.vortonCount = 3000;
    setup.params.tracerCount = 20000;
    Simulation sim(setup);
    ASSERT_TRUE(test::RunSteps(sim, 60).ok);
    const Aabb box = BoundsOf(sim.GetVortons().position);
    const glm::vec3 c = box.Center();
    const float size = glm::length(box.Extent());
    {
        Tracers& t = sim.MutableTracers();
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (std::size_t i = 0; i < t.Size(); i += 2) {  // half stay with the dye
            glm::vec3 d(u(rng), u(rng), u(rng));
            while (glm::dot(d, d) > 1.0f || glm::dot(d, d) < 1e-4f) d = glm::vec3(u(rng), u(rng), u(rng));
            const float r = size * (0.6f + 11.4f * 0.5f * (u(rng) + 1.0f));
            t.position[i] = c + glm::normalize(d) * r;
        }
    }
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    const std::vector<glm::vec3> points = sim.GetTracers().position;
    std::vector<glm::vec3> grid(points.size()), direct(points.size());
    sim.TracerGridVelocity(points, grid);
    sim.DirectVelocityAt(points, direct);
    const NestedGrid& nested = sim.VelocityGrid();
    EXPECT_GE(nested.levels, 4);
    const NestedGridSampler sampler(nested);
    std::vector<glm::vec3> nearGrid, nearDirect, farGrid, farDirect;
    for (std::size_t i = 0; i < points.size(); ++i) {
        GridSampler::Float4 f;
        const bool far = sampler.Cell(points[i], &f) >= nested.LevelPointCount();
        (far ? farGrid : nearGrid).push_back(grid[i]);
        (far ? farDirect : nearDirect).push_back(direct[i]);
    }
    ASSERT_GT(farGrid.size(), 5000u);
    ASSERT_GT(nearGrid.size(), 5000u);
    const double farError = test::RelativeRms(farGrid, farDirect);
    const double nearError = test::RelativeRms(nearGrid, nearDirect);
    test::Measured("far_tracers", double(farGrid.size()));
    test::Measured("far_rms_error", farError);
    test::Measured("near_rms_error", nearError);
    test::Measured("levels", nested.levels);
    EXPECT_LT(farError, 0.01);
    // Level 0 is the vortons' grid at cell h: trilinear interpolation of a
    // field smooth on σ = 1.5 h, about 1.5 % (the bench's grid_rms_error).
    EXPECT_LT(nearError, 0.03);
}

TEST(NestedGrid, VortonVelocityDoesNotDependOnTheTracers) {
    // The same vortons with the dye where it was seeded or spread 20 m wide:
    // every vorton ends the steps bitwise where it would have.
    for (const Solver solver : {Solver::Direct, Solver::Tree, Solver::Grid}) {
        SceneSetup setup = test::LoadSetup("two_drops");
        setup.params.vortonCount = 1500;
        setup.params.tracerCount = 4000;
        setup.params.solver = solver;
        Simulation a(setup), b(setup);
        Tracers& t = b.MutableTracers();
        for (std::size_t i = 0; i < t.Size(); i += 3) t.position[i] *= 20.0f;
        ASSERT_TRUE(test::RunSteps(a, 10).ok);
        ASSERT_TRUE(test::RunSteps(b, 10).ok);
        EXPECT_EQ(a.GetVortons().position, b.GetVortons().position) << SolverName(solver);
        EXPECT_EQ(a.GetVortons().vorticity, b.GetVortons().vorticity) << SolverName(solver);
        EXPECT_GT(b.VelocityGrid().levels, a.VelocityGrid().levels);
    }
}

}  // namespace
}  // namespace vorton
