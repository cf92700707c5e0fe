// Tracers advected by the compute shader (render/gpu_tracers.h, issue 15) against the CPU
// passes of Simulation::Step on the same velocity grids, through EGL + Mesa's llvmpipe (which
// offers OpenGL 4.5 and compute shaders).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/geometric.hpp>

#include "app/platform/gl_context.h"
#include "render/gl_loader.h"
#include "render/gpu_tracers.h"
#include "sim/simulation.h"
#include "test_util.h"

namespace vorton {
namespace {

using render::GpuTracerGrid;
using render::GpuTracers;

class GpuTracerTest : public ::testing::Test {
protected:
    void SetUp() override {
        auto context = platform::GlContext::CreateHeadless(16, 16);
        ASSERT_TRUE(context.ok()) << context.error();
        m_context = std::move(context.value());
        if (!GpuTracers::ContextSupports()) GTEST_SKIP() << "this OpenGL context has no compute shaders (4.3)";
        auto tracers = GpuTracers::Create(VORTON_TEST_SHADER_DIR);
        ASSERT_TRUE(tracers.ok()) << tracers.error();
        m_tracers = std::move(tracers.value());
    }
    void TearDown() override {
        m_tracers.reset();  // needs the context alive
        m_context.reset();
    }

    std::unique_ptr<platform::GlContext> m_context;
    std::unique_ptr<GpuTracers> m_tracers;
};

// The largest distance between matching positions, m.
float MaxDistance(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
    float worst = 0.0f;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::length(a[i] - b[i]));
    return worst;
}

// A developed dye drop (60 steps, 0.6 s), with and without a free stream (which enters both
// Heun stages). From each of three states, one step of the simulation and one Step of the
// compute shader on the simulation's two grids, from the same positions.
//
// The shader does the CPU's float operations in the CPU's order with no fused multiply-add
// (`precise`), so on a GPU that rounds as IEEE 754 the positions agree to the bit, as they
// must on llvmpipe. The tolerance allows for a GPU whose rounding differs in the last place: a few ulps of
// each velocity, times dt, plus an ulp of a coordinate below 1 m, well under 10⁻⁶ m, which is
// 1/8,000 of the drop's vorton spacing.
TEST_F(GpuTracerTest, OneStepMovesTracersAsTheCpuPassesDo) {
    for (const glm::vec3 freeStream : {glm::vec3(0.0f), glm::vec3(0.05f, 0.0f, -0.02f)}) {
        SceneSetup setup = test::LoadSetup("dye_drop");
        setup.params.vortonCount = 2000;
        setup.params.tracerCount = 40000;
        setup.params.freeStream = freeStream;
        Simulation sim(setup);
        ASSERT_TRUE(test::RunSteps(sim, 60).ok);
        std::uint64_t version = 0;
        for (int state = 0; state < 3; ++state) {
            ASSERT_TRUE(test::RunSteps(sim, 5).ok);
            const std::vector<glm::vec3> before = sim.GetTracers().position;
            const NestedGrid grid0 = sim.VelocityGrid();
            const std::vector<GridSampler::Float4> values0(sim.VelocityGridValues().begin(),
                                                           sim.VelocityGridValues().end());
            ASSERT_TRUE(test::RunSteps(sim, 1).ok);
            const std::vector<glm::vec3>& cpu = sim.GetTracers().position;

            m_tracers->SetPositions(before);
            m_tracers->Step(GpuTracerGrid{grid0, values0, ++version},
                            GpuTracerGrid{sim.VelocityGrid(), sim.VelocityGridValues(), ++version}, freeStream,
                            setup.params.dt, true);
            std::vector<glm::vec3> gpu;
            m_tracers->ReadPositions(gpu);
            ASSERT_EQ(gpu.size(), cpu.size());
            const float worst = MaxDistance(gpu, cpu);
            std::size_t same = 0;
            for (std::size_t i = 0; i < gpu.size(); ++i) same += gpu[i] == cpu[i];
            EXPECT_LT(worst, 1.0e-6f) << "free stream " << freeStream.x << ", state " << state;
            // llvmpipe computes in IEEE float on the CPU and honours `precise`: the same bits.
            if (render::IsSoftwareRenderer()) {
                EXPECT_EQ(same, gpu.size()) << "state " << state;
            }
            // They did move: a comparison of unmoved positions would pass trivially.
            EXPECT_GT(MaxDistance(before, cpu), 1.0e-4f);
            RecordProperty("bitwise_equal_fraction_" + std::to_string(state), std::to_string(double(same) / double(gpu.size())));

            // The statistics and the occupied cells are those of the CPU's positions.
            const render::GpuTracerStats stats = m_tracers->ReadStats();
            const Aabb box = BoundsOf(cpu);
            EXPECT_LT(glm::length(stats.box.min - box.min) + glm::length(stats.box.max - box.max), 2.0e-6f);
            EXPECT_EQ(stats.nonFinite, 0u);
            EXPECT_GT(stats.maxSpeed, 0.0f);
            const NestedGridSampler sampler(sim.VelocityGrid());
            std::vector<std::uint8_t> expected(sim.VelocityGrid().PointCount(), 0);
            for (const glm::vec3& x : cpu) {
                GridSampler::Float4 f;
                expected[sampler.Cell(x, &f)] = 1;
            }
            std::vector<std::uint8_t> occupied;
            m_tracers->ReadOccupiedCells(occupied);
            ASSERT_EQ(occupied.size(), expected.size());
            std::size_t differing = 0, marked = 0;
            for (std::size_t c = 0; c < expected.size(); ++c) {
                differing += occupied[c] != expected[c];
                marked += expected[c];
            }
            EXPECT_GT(marked, 100u);
            // Only a tracer within round-off of a cell face could land in the other cell.
            EXPECT_LE(differing, gpu.size() - same) << "cells differing of " << marked;
        }
    }
}

// Values already on the GPU are not uploaded again: a Step given grid versions it saw before
// gives the same positions as one given every grid afresh, and a changed grid under the same
// version would not be seen (so the version is what decides).
TEST_F(GpuTracerTest, GridsAreReusedByVersion) {
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.vortonCount = 1000;
    setup.params.tracerCount = 5000;
    Simulation sim(setup);
    ASSERT_TRUE(test::RunSteps(sim, 20).ok);
    const std::vector<glm::vec3> start = sim.GetTracers().position;
    std::vector<NestedGrid> grids{sim.VelocityGrid()};
    std::vector<std::vector<GridSampler::Float4>> values{{sim.VelocityGridValues().begin(), sim.VelocityGridValues().end()}};
    for (int s = 0; s < 3; ++s) {
        ASSERT_TRUE(test::RunSteps(sim, 1).ok);
        grids.push_back(sim.VelocityGrid());
        values.emplace_back(sim.VelocityGridValues().begin(), sim.VelocityGridValues().end());
    }
    const float dt = setup.params.dt;
    // Versions 1, 2, 3, 4 chained: grid s+1 is uploaded once and reused as the next step's grid 0.
    m_tracers->SetPositions(start);
    for (int s = 0; s < 3; ++s) {
        m_tracers->Step(GpuTracerGrid{grids[s], values[s], std::uint64_t(s + 1)},
                        GpuTracerGrid{grids[s + 1], values[s + 1], std::uint64_t(s + 2)}, glm::vec3(0.0f), dt);
    }
    std::vector<glm::vec3> chained;
    m_tracers->ReadPositions(chained);
    // Version 4 again with other values: the buffer holding version 4 is read, not the zeros.
    const std::vector<GridSampler::Float4> zeros(values[3].size(), GridSampler::Float4{0, 0, 0, 0});
    m_tracers->SetPositions(start);
    m_tracers->Step(GpuTracerGrid{grids[3], zeros, 4}, GpuTracerGrid{grids[3], zeros, 4}, glm::vec3(0.0f), dt);
    std::vector<glm::vec3> reused;
    m_tracers->ReadPositions(reused);
    EXPECT_GT(MaxDistance(reused, start), 1.0e-5f);
    // Version 0: every grid uploaded.
    m_tracers->SetPositions(start);
    for (int s = 0; s < 3; ++s) {
        m_tracers->Step(GpuTracerGrid{grids[s], values[s], 0}, GpuTracerGrid{grids[s + 1], values[s + 1], 0},
                        glm::vec3(0.0f), dt);
    }
    std::vector<glm::vec3> fresh;
    m_tracers->ReadPositions(fresh);
    EXPECT_EQ(chained, fresh);
    EXPECT_LT(MaxDistance(fresh, sim.GetTracers().position), 1.0e-6f);
}

}  // namespace
}  // namespace vorton
