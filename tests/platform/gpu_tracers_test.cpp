// Tracers advected by the compute shader (render/gpu_tracers.h, issue 15) against the CPU
// passes of Simulation::Step on the same velocity grids, through EGL + Mesa's llvmpipe (which
// offers OpenGL 4.5 and compute shaders).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "app/gpu_tracer_commands.h"
#include "app/platform/gl_context.h"
#include "app/sim_worker.h"
#include "render/gl_loader.h"
#include "render/gpu_tracers.h"
#include "sim/simulation.h"
#include "test_util.h"

namespace vorton {
namespace {

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

// The simulation's rigid spheres where they are now.
std::vector<render::GpuTracerSphere> Spheres(const Simulation& sim) {
    std::vector<render::GpuTracerSphere> spheres;
    for (std::size_t b = 0; b < sim.Bodies().size(); ++b) {
        spheres.push_back({sim.Bodies()[b].position, sim.Setup().bodies[b].radius});
    }
    return spheres;
}

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
        for (int state = 0; state < 3; ++state) {
            ASSERT_TRUE(test::RunSteps(sim, 5).ok);
            const std::vector<glm::vec3> before = sim.GetTracers().position;
            ASSERT_TRUE(test::RunSteps(sim, 1).ok);
            const std::vector<glm::vec3>& cpu = sim.GetTracers().position;

            m_tracers->SetPositions(before);
            m_tracers->Step(sim.LastStepStartGrid(), sim.CurrentTracerGrid(), freeStream, setup.params.dt, {}, true);
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

// Values already on the GPU are not uploaded again: a Step given grid serials it saw before
// gives the same positions as one given every grid afresh, and a changed grid under the same
// serial would not be seen (so the serial is what decides).
TEST_F(GpuTracerTest, GridsAreReusedBySerial) {
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
    // Serials 1, 2, 3, 4 chained: grid s+1 is uploaded once and reused as the next step's grid 0.
    m_tracers->SetPositions(start);
    for (int s = 0; s < 3; ++s) {
        m_tracers->Step(TracerGridView{grids[s], values[s], std::uint64_t(s + 1)},
                        TracerGridView{grids[s + 1], values[s + 1], std::uint64_t(s + 2)}, glm::vec3(0.0f), dt);
    }
    std::vector<glm::vec3> chained;
    m_tracers->ReadPositions(chained);
    // Serial 4 again with other values: the buffer holding serial 4 is read, not the zeros.
    const std::vector<GridSampler::Float4> zeros(values[3].size(), GridSampler::Float4{0, 0, 0, 0});
    m_tracers->SetPositions(start);
    m_tracers->Step(TracerGridView{grids[3], zeros, 4}, TracerGridView{grids[3], zeros, 4}, glm::vec3(0.0f), dt);
    std::vector<glm::vec3> reused;
    m_tracers->ReadPositions(reused);
    EXPECT_GT(MaxDistance(reused, start), 1.0e-5f);
    // Serial 0: every grid uploaded.
    m_tracers->SetPositions(start);
    for (int s = 0; s < 3; ++s) {
        m_tracers->Step(TracerGridView{grids[s], values[s], 0}, TracerGridView{grids[s + 1], values[s + 1], 0},
                        glm::vec3(0.0f), dt);
    }
    std::vector<glm::vec3> fresh;
    m_tracers->ReadPositions(fresh);
    EXPECT_EQ(chained, fresh);
    EXPECT_LT(MaxDistance(fresh, sim.GetTracers().position), 1.0e-6f);
}

// Tracers that live on the GPU only (Simulation::SetExternalTracers): the simulation keeps
// none, evaluates its tracers' grids where the GPU reports them after each step, and the GPU
// moves the tracers on them. Over 100 steps they stay where the same simulation with its own
// tracers moves them: the grid values at the tracers' cells are the same evaluations, so on
// llvmpipe the bits agree. Elsewhere the round-off of one step (see above) may grow along the
// flow's stretching over the steps; 10⁻⁵ m is 1/800 of the dye drop's vorton spacing. Each
// case twice: the simulation told only the GPU tracers' box (every point of its grids
// evaluated), and told the cells they ended in too (as the demo does). Cases: the dye drop
// (1 s) with its dye in the vortons' grid (level 0); the same with a quarter of the tracers
// moved out to 1–4 times the drop's size, where coarser levels hold them and the solver's far
// field fills those levels; and two scenes whose spheres push tracers back out (the ball
// sinking through the layers, the spinning ball).
struct OutsideCase {
    const char* scene;
    bool far;
};

TEST_F(GpuTracerTest, TracersOnTheGpuOnlyFollowTheSimulationsOwn) {
    std::map<std::string, std::size_t> boxPoints;  // solver points asked knowing only the box
    for (const bool cells : {false, true})
    for (const OutsideCase& c : {OutsideCase{"dye_drop", false}, OutsideCase{"dye_drop", true},
                                 OutsideCase{"stratified_ball", false}, OutsideCase{"spinning_ball", false}}) {
        const std::string name = std::string(c.scene) + (c.far ? "_far" : "") + (cells ? "_cells" : "_box");
        SceneSetup setup = test::LoadSetup(c.scene);
        setup.params.vortonCount = std::min(setup.params.vortonCount, 2000);
        setup.params.tracerCount = 40000;
        Simulation own(setup), outside(setup);
        if (c.far) {
            const Aabb box = BoundsOf(own.GetVortons().position);
            const float size = glm::length(box.Extent());
            std::mt19937 random(5);
            std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
            std::vector<glm::vec3>& x = own.MutableTracers().position;
            for (std::size_t i = 0; i < x.size(); i += 4) {
                glm::vec3 d(unit(random), unit(random), unit(random));
                while (glm::dot(d, d) > 1.0f || glm::dot(d, d) < 1e-4f) d = glm::vec3(unit(random), unit(random), unit(random));
                x[i] = box.Center() + glm::normalize(d) * size * (1.0f + 1.5f * (unit(random) + 1.0f));
            }
            outside.MutableTracers().position = x;
        }
        const std::vector<glm::vec3> start = outside.GetTracers().position;
        ASSERT_GT(start.size(), 0u) << name;
        m_tracers->SetPositions(start);
        outside.SetExternalTracers(BoundsOf(start), 0);
        outside.MutableTracers().Clear();
        std::size_t solverPoints = 0, ownSolverPoints = 0;
        int levels = 0;
        for (int step = 0; step < 100; ++step) {
            ASSERT_TRUE(test::RunSteps(own, 1).ok) << name;
            ASSERT_TRUE(test::RunSteps(outside, 1).ok) << name;
            m_tracers->Step(outside.LastStepStartGrid(), outside.CurrentTracerGrid(), setup.params.freeStream,
                            setup.params.dt, Spheres(outside), cells);
            const render::GpuTracerStats stats = m_tracers->ReadStats();
            ASSERT_EQ(stats.nonFinite, 0u) << name;
            std::vector<std::uint8_t> occupied;
            m_tracers->ReadOccupiedCells(occupied);
            const NestedGrid grid = outside.CurrentTracerGrid().grid;
            outside.SetExternalTracers(stats.box, 0, cells ? &grid : nullptr, occupied);
            solverPoints += outside.LastStepWork().solverPoints;
            ownSolverPoints += own.LastStepWork().solverPoints;
            levels = std::max(levels, outside.VelocityGrid().levels);
        }
        EXPECT_EQ(outside.GetTracers().Size(), 0u);
        // The far tracers are on coarser levels, which the solver filled: knowing only the
        // box, at every point; knowing the cells, at those within twice the reach of a cell
        // that held a tracer, fewer (the own tracers' masks, exact, fewer still).
        if (c.far) {
            EXPECT_GE(levels, 2);
            EXPECT_GT(solverPoints, 0u);
        }
        const std::string caseName = std::string(c.scene) + (c.far ? "_far" : "");
        if (!cells) boxPoints[caseName] = solverPoints;
        if (cells && boxPoints[caseName] > 0) {
            EXPECT_LT(solverPoints, boxPoints[caseName]) << name;
            EXPECT_GE(solverPoints, ownSolverPoints) << name;
        }
        // The vortons and bodies never see the tracers.
        EXPECT_EQ(test::HashVector(own.GetVortons().position), test::HashVector(outside.GetVortons().position)) << name;
        std::vector<glm::vec3> gpu;
        m_tracers->ReadPositions(gpu);
        const std::vector<glm::vec3>& cpu = own.GetTracers().position;
        ASSERT_EQ(gpu.size(), cpu.size());
        const float worst = MaxDistance(gpu, cpu);
        EXPECT_LT(worst, 1.0e-5f) << name;
        if (render::IsSoftwareRenderer()) {
            EXPECT_TRUE(gpu == cpu) << name;
        }
        EXPECT_GT(MaxDistance(gpu, start), 0.01f) << name;  // they moved
        // Every sphere keeps the tracers out (to round-off of its radius).
        std::size_t inside = 0;
        for (const render::GpuTracerSphere& sphere : Spheres(outside)) {
            for (const glm::vec3& x : gpu) inside += glm::length(x - sphere.center) < sphere.radius * 0.9999f;
        }
        EXPECT_EQ(inside, 0u) << name;
        RecordProperty("max_distance_m_" + name, std::to_string(worst));
        RecordProperty("levels_" + name, std::to_string(levels));
        RecordProperty("solver_points_" + name, std::to_string(solverPoints));
        RecordProperty("own_solver_points_" + name, std::to_string(ownSolverPoints));
    }
}

// The worker hands its tracers to the GPU and takes them back (app/sim_worker.h,
// GpuTracerCommand), as the demo does with --gpu-tracers: over lock-step frames with painted
// dye (appended), a reset (replaced) and a rewind (the kept states' tracers come back from
// the GPU to the worker's ring, and from there to the GPU again), the GPU's tracers are where
// a worker moving them on the CPU has them, bit for bit on llvmpipe (the shader's steps are
// the CPU's, see above); after ReturnGpuTracers the simulation has them back and goes on as
// the CPU worker does.
class GpuWorker {
public:
    GpuWorker(const SceneSetup& setup, bool gpu, GpuTracers* tracers)
        : m_worker(std::make_unique<Simulation>(setup), 2, RunOutputs{}, -1), m_gpu(gpu), m_tracers(tracers),
          m_link(*tracers) {}

    void Frame(const std::vector<SimWorker::PaintCommand>& paints = {}, bool reset = false,
               std::optional<double> rewindTo = std::nullopt) {
        SimWorker::FrameRequest request;
        request.rewindTo = rewindTo;
        request.threads = 2;
        request.run = true;
        request.lockStep = true;
        request.paints = paints;
        request.reset = reset;
        request.gpuTracers = m_gpu;
        m_link.FillRequest(request);
        if (m_corrupt && request.gpuTracerCells) {
            // The report says the tracers were in one far corner cell of the last grid.
            std::fill(request.gpuTracerCells->begin(), request.gpuTracerCells->end(), std::uint8_t(0));
            if (!request.gpuTracerCells->empty()) request.gpuTracerCells->back() = 1;
            m_corrupt = false;
        }
        std::vector<std::string> errors;
        m_worker.Sync(request, m_front, errors);
        EXPECT_TRUE(errors.empty()) << errors.front();
        m_link.Apply(m_front.gpuCommands);
    }
    std::vector<glm::vec3> Positions() const {
        if (!m_front.tracersOnGpu) return m_front.tracerPositions;
        std::vector<glm::vec3> positions;
        m_tracers->ReadPositions(positions);
        return positions;
    }
    void TakeBack() {
        const Status s = m_link.TakeBack(m_worker);
        EXPECT_TRUE(s.ok()) << s.error();
        m_gpu = false;
    }
    const SimSnapshot& Front() const { return m_front; }
    /// The next report is false: a report of a step before a reset must not be believed
    /// (the worker's command ids).
    void CorruptReport() { m_corrupt = true; }

private:
    SimWorker m_worker;
    bool m_gpu;
    GpuTracers* m_tracers;
    GpuTracerLink m_link;
    SimSnapshot m_front;
    bool m_corrupt = false;
};

TEST_F(GpuTracerTest, WorkerMovesItsTracersOnTheGpuAsOnTheCpu) {
    SceneSetup setup = test::LoadSetup("two_drops");
    setup.params.vortonCount = 800;
    setup.params.tracerCount = 8000;
    GpuWorker cpu(setup, false, m_tracers.get()), gpu(setup, true, m_tracers.get());
    const std::vector<SimWorker::PaintCommand> paint{SimWorker::PaintCommand{1, 3000, glm::vec3(0.0f)}};
    const auto same = [&](const char* when) {
        const std::vector<glm::vec3> a = cpu.Positions(), b = gpu.Positions();
        ASSERT_EQ(a.size(), b.size()) << when;
        EXPECT_LT(MaxDistance(a, b), 1.0e-5f) << when;
        if (render::IsSoftwareRenderer()) {
            EXPECT_TRUE(a == b) << when;
        }
        EXPECT_EQ(cpu.Front().tracerGroups, gpu.Front().tracerGroups) << when;
        EXPECT_EQ(cpu.Front().stepCount, gpu.Front().stepCount) << when;
    };
    for (int frame = 0; frame < 30; ++frame) {
        if (frame == 20) gpu.CorruptReport();  // comes with the reset: to be ignored
        cpu.Frame(frame == 10 ? paint : std::vector<SimWorker::PaintCommand>{}, frame == 20);
        gpu.Frame(frame == 10 ? paint : std::vector<SimWorker::PaintCommand>{}, frame == 20);
        if (frame == 15) same("after the paint");
    }
    EXPECT_TRUE(gpu.Front().tracersOnGpu);
    EXPECT_TRUE(gpu.Front().tracerPositions.empty());
    EXPECT_GT(gpu.Front().stepCount, 5);  // reset at frame 20, stepped since
    same("after the reset");
    // Back 5 kept states: the GPU worker's kept tracers come back from its ring.
    const std::vector<double> times = gpu.Front().rewindTimes;
    ASSERT_GE(times.size(), 6u);
    // The newest kept state waits for its tracers, which the next request brings.
    const std::vector<double>& cpuTimes = cpu.Front().rewindTimes;
    ASSERT_EQ(times.size() + 1, cpuTimes.size());
    EXPECT_TRUE(std::equal(times.begin(), times.end(), cpuTimes.begin()));
    const double back = times[times.size() - 6];
    cpu.Frame({}, false, back);
    gpu.Frame({}, false, back);
    EXPECT_NEAR(gpu.Front().time, back + setup.params.dt, 1e-9);  // rewound, then one step
    EXPECT_TRUE(gpu.Front().tracersOnGpu);
    same("after a rewind");
    for (int frame = 0; frame < 3; ++frame) {
        cpu.Frame();
        gpu.Frame();
    }
    same("after a rewind and 3 steps");
    gpu.TakeBack();
    gpu.Frame();
    cpu.Frame();
    EXPECT_FALSE(gpu.Front().tracersOnGpu);
    same("taken back");
    for (int frame = 0; frame < 5; ++frame) {
        cpu.Frame();
        gpu.Frame();
    }
    same("on the CPU again");
}

// A ball thrown hard is taken in substeps (Simulation::Substeps): the CPU moves its tracers
// by k Heun substeps of dt/k, each between its own two grids, and pushes them out of the ball
// where it is at each substep's end. The worker hands the GPU one Step command per substep
// (Simulation::EarlierSubstepGrids), so the GPU's tracers follow the CPU's. Before, the GPU
// took the whole dt on the last substep's two grids, and the tracers the ball went through in
// the earlier substeps were never moved by it: after 8 steps at up to 8 substeps, tracers
// were 0.29 m from the CPU's (12 lattice spacings); now 1.2·10⁻⁶ m.
//
// Not to the bit, as one step is: within a step, the simulation knows the GPU's tracers only
// by their box at the step's start, so the coarser levels of the tracer grids of its later
// substeps lie elsewhere than the CPU worker's, fitted to its tracers as they move each
// substep, and the sheet's tracers (beyond the vortons' box) interpolate from other points:
// the likely reason, not traced further. The tolerance is the one above, 10⁻⁵ m (1/2,400 of
// the spacing, 0.024 m); the old way fails it 29,000-fold.
TEST_F(GpuTracerTest, WorkerMovesTracersThroughAFastBallsSubstepsAsOnTheCpu) {
    SceneSetup setup = test::LoadSetup("ball_through_smoke");
    setup.params.tracerCount = 8000;
    ASSERT_EQ(setup.bodies.size(), 1u);
    // At the fastest throw (Simulation::GrabSpeedLimit, 9.6 m/s here), into the smoke 0.6 m ahead.
    setup.bodies[0].velocity = glm::vec3(9.0f, 0.0f, 0.0f);
    GpuWorker cpu(setup, false, m_tracers.get()), gpu(setup, true, m_tracers.get());
    int mostSubsteps = 0;
    std::vector<glm::vec3> first;
    for (int frame = 0; frame < 8; ++frame) {
        cpu.Frame();
        gpu.Frame();
        if (frame == 0) first = cpu.Positions();
        mostSubsteps = std::max(mostSubsteps, gpu.Front().substeps);
        ASSERT_EQ(cpu.Front().substeps, gpu.Front().substeps) << "frame " << frame;
    }
    EXPECT_TRUE(gpu.Front().tracersOnGpu);
    EXPECT_GE(mostSubsteps, 6);  // 9 m/s at 0.02 s and h 0.024 m: 7.5 spacings per step
    const std::vector<glm::vec3> a = cpu.Positions(), b = gpu.Positions();
    ASSERT_EQ(a.size(), b.size());
    ASSERT_EQ(a.size(), first.size());
    EXPECT_GT(MaxDistance(a, first), 0.1f);  // the ball went through the smoke and took some along
    const float worst = MaxDistance(a, b);
    EXPECT_LT(worst, 1.0e-5f);
    RecordProperty("most_substeps", std::to_string(mostSubsteps));
    RecordProperty("max_distance_m", std::to_string(worst));
    RecordProperty("largest_displacement_m", std::to_string(MaxDistance(a, first)));
}

}  // namespace
}  // namespace vorton
