// The simulation worker thread: lock-step frames see every step and the same states as a
// simulation stepped directly, free-running steps happen without the caller waiting, and
// edits, grabs, resets, scene changes and thread counts apply at step boundaries.

#include <algorithm>
#include <cmath>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "app/sim_worker.h"
#include "app/ui/paint.h"
#include "test_util.h"

namespace vorton {
namespace {

using test::HashVector;
using test::LoadSetup;

SceneSetup SmallSetup(const std::string& scene = "dye_drop") {
    SceneSetup setup = LoadSetup(scene);
    setup.params.vortonCount = 600;
    setup.params.tracerCount = 5000;
    return setup;
}

std::unique_ptr<SimWorker> MakeWorker(const SceneSetup& setup, int threads = 2,
                                      std::int64_t maxSteps = -1) {
    return std::make_unique<SimWorker>(std::make_unique<Simulation>(setup), threads, RunOutputs{},
                                       maxSteps);
}

/// One frame of a lock-step loop: posts `request` with lockStep set and returns the snapshot.
void LockStepFrame(SimWorker& worker, SimWorker::FrameRequest request, SimSnapshot& front) {
    request.lockStep = true;
    std::vector<std::string> errors;
    worker.Sync(request, front, errors);
    EXPECT_TRUE(errors.empty()) << errors.front();
}

SimWorker::FrameRequest Running(int threads = 2) {
    SimWorker::FrameRequest request;
    request.threads = threads;
    request.run = true;
    return request;
}

TEST(SimWorker, FirstSnapshotIsTheInitialState) {
    const SceneSetup setup = SmallSetup();
    Simulation direct(setup);
    auto worker = MakeWorker(setup);
    SimSnapshot front;
    LockStepFrame(*worker, SimWorker::FrameRequest{}, front);
    EXPECT_EQ(front.stepCount, 0);
    EXPECT_EQ(front.serial, 1u);
    EXPECT_EQ(HashVector(front.tracerPositions), HashVector(direct.GetTracers().position));
    EXPECT_EQ(front.tracerGroups, direct.GetTracers().group);
    EXPECT_EQ(front.vortonCount, direct.GetVortons().Size());
    EXPECT_TRUE(front.vortonPositions.empty()) << "vortons are copied only when shown";
}

TEST(SimWorker, LockStepShowsEveryStepAndMatchesDirectSteppingWhateverTheThreads) {
    const SceneSetup setup = SmallSetup();
    Simulation direct(setup);
    auto worker = MakeWorker(setup, 1);
    SimSnapshot front;
    const int threads[] = {1, 2, 2, 1, 3, 2};
    for (int f = 0; f < 6; ++f) {
        LockStepFrame(*worker, Running(threads[f]), front);
        ASSERT_TRUE(front.blowUp.Empty()) << front.blowUp.message;
        test::RunSteps(direct, 1, 2);
        EXPECT_EQ(front.stepCount, f + 1) << "one step per lock-step frame";
        EXPECT_EQ(front.stepsCompleted, std::uint64_t(f + 1));
        EXPECT_EQ(HashVector(front.tracerPositions), HashVector(direct.GetTracers().position))
            << "frame " << f;
        // The panel's Lagrangian CFL number is the step's. The drop starts at rest: its first
        // step has no vorticity to stretch until baroclinic generation makes some.
        if (f > 0) {
            EXPECT_GT(front.lagrangianCfl, 0.0) << "frame " << f;
        }
        EXPECT_DOUBLE_EQ(front.lagrangianCfl, direct.LastStepWork().stretchRate * double(setup.params.dt));
    }
    EXPECT_EQ(front.stepMsHistory.Values().size(), 6u);
    EXPECT_DOUBLE_EQ(front.time, direct.Time());
}

TEST(SimWorker, FreeRunningStepsWithoutTheCallerWaitingAndStopsWhenPaused) {
    auto worker = MakeWorker(SmallSetup());
    SimSnapshot front;
    std::vector<std::string> errors;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (front.stepCount < 3 && std::chrono::steady_clock::now() < deadline) {
        worker->Sync(Running(), front, errors);  // a frame: never blocks for a step
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_GE(front.stepCount, 3);
    // Paused: the step in progress ends, then nothing more happens.
    SimWorker::FrameRequest paused;
    paused.threads = 2;
    LockStepFrame(*worker, paused, front);
    const std::int64_t stopped = front.stepCount;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    worker->Sync(paused, front, errors);
    EXPECT_EQ(front.stepCount, stopped);
    // A single step while paused is exactly one.
    paused.singleStep = true;
    LockStepFrame(*worker, paused, front);
    EXPECT_EQ(front.stepCount, stopped + 1);
    EXPECT_TRUE(errors.empty());
}

TEST(SimWorker, StopsAtMaxSteps) {
    auto worker = MakeWorker(SmallSetup(), 2, 2);
    SimSnapshot front;
    for (int f = 0; f < 4; ++f) LockStepFrame(*worker, Running(), front);
    EXPECT_EQ(front.stepCount, 2);
}

TEST(SimWorker, SetupEditsApplyAtTheNextStep) {
    const SceneSetup setup = SmallSetup();
    Simulation direct(setup);
    auto worker = MakeWorker(setup);
    SimSnapshot front;
    LockStepFrame(*worker, Running(), front);
    test::RunSteps(direct, 1);

    SceneSetup edited = setup;
    edited.params.gravity = glm::vec3(3.0f, 0.0f, -5.0f);
    edited.groups[0].densityDeviation *= 2.0f;
    SimWorker::FrameRequest request = Running();
    request.setup = &edited;
    LockStepFrame(*worker, request, front);
    direct.Setup() = edited;
    test::RunSteps(direct, 1);
    LockStepFrame(*worker, Running(), front);
    test::RunSteps(direct, 1);
    EXPECT_EQ(HashVector(front.tracerPositions), HashVector(direct.GetTracers().position));
}

TEST(SimWorker, ResetPublishesTheInitialStateAsANewGeneration) {
    const SceneSetup setup = SmallSetup();
    const Simulation initial(setup);
    auto worker = MakeWorker(setup);
    SimSnapshot front;
    for (int f = 0; f < 3; ++f) LockStepFrame(*worker, Running(), front);
    const std::uint64_t generation = front.generation;
    SimWorker::FrameRequest request;
    request.threads = 2;
    request.reset = true;
    LockStepFrame(*worker, request, front);
    EXPECT_EQ(front.stepCount, 0);
    EXPECT_NE(front.generation, generation);
    EXPECT_EQ(front.stepsCompleted, 3u) << "the step counter over the worker's life is not reset";
    EXPECT_EQ(HashVector(front.tracerPositions), HashVector(initial.GetTracers().position));
}

TEST(SimWorker, VortonsAreCopiedOnceShownEvenWhilePaused) {
    const SceneSetup setup = SmallSetup();
    auto worker = MakeWorker(setup);
    SimSnapshot front;
    SimWorker::FrameRequest request;
    request.threads = 2;
    request.showVortons = true;
    LockStepFrame(*worker, request, front);
    EXPECT_TRUE(front.hasVortons);
    EXPECT_EQ(front.vortonPositions.size(), front.vortonCount);
    EXPECT_EQ(front.vortonStrength.size(), front.vortonCount);
    EXPECT_EQ(front.stepCount, 0);
}

TEST(SimWorker, TracerSpeedsAreCopiedWhenAskedFor) {
    // For colouring the dye by speed: one |velocity| per tracer, none unless asked. After a few
    // steps the sinking drop's tracers move (the dye drop reaches tens of cm/s).
    const SceneSetup setup = SmallSetup();
    auto worker = MakeWorker(setup);
    SimSnapshot front;
    SimWorker::FrameRequest request = Running();
    for (int i = 0; i < 3; ++i) LockStepFrame(*worker, request, front);
    EXPECT_TRUE(front.tracerSpeeds.empty());
    request.tracerSpeeds = true;
    LockStepFrame(*worker, request, front);
    ASSERT_EQ(front.tracerSpeeds.size(), front.tracerPositions.size());
    const float fastest = *std::max_element(front.tracerSpeeds.begin(), front.tracerSpeeds.end());
    EXPECT_GT(fastest, 0.0f);
    EXPECT_LT(fastest, setup.params.maxSpeed);
    request.tracerSpeeds = false;
    LockStepFrame(*worker, request, front);
    EXPECT_TRUE(front.tracerSpeeds.empty());
}

/// SmallSetup with a small ball (1,100 kg/m³) 0.8 m from the drop.
SceneSetup SmallSetupWithBall() {
    SceneSetup setup = SmallSetup();
    BodySpec ball;
    ball.name = "ball";
    ball.position = glm::vec3(0.8f, 0.0f, 0.45f);
    ball.radius = 0.05f;
    ball.density = 1100.0f;
    setup.bodies.push_back(ball);
    return setup;
}

TEST(SimWorker, GrabbedBodyMovesToItsTargetInOneStep) {
    const SceneSetup setup = SmallSetupWithBall();
    auto worker = MakeWorker(setup);
    SimSnapshot front;
    const glm::vec3 target(0.7f, 0.1f, 0.5f);
    const SimWorker::GrabCommand grab{.body = 0, .hold = true, .target = target};
    SimWorker::FrameRequest request = Running();
    request.grabs = std::span(&grab, 1);
    LockStepFrame(*worker, request, front);
    ASSERT_EQ(front.bodies.size(), 1u);
    EXPECT_TRUE(front.bodies[0].grabbed);
    EXPECT_NEAR(glm::length(front.bodies[0].position - target), 0.0f, 1e-4f);

    const SimWorker::GrabCommand release{.body = 0, .hold = false, .target = {}};
    request.grabs = std::span(&release, 1);
    LockStepFrame(*worker, request, front);
    EXPECT_FALSE(front.bodies[0].grabbed);
    EXPECT_EQ(front.bodyHistories.size(), 1u);
    EXPECT_EQ(front.bodyHistories[0].height.Values().size(), 3u)
        << "the initial state and two steps";
}

TEST(SimWorker, BodiesAddedAndRemovedByThePanelKeepTheirStatesAndPlotsByName) {
    // The panel's "Add a ball" and "Remove": the setup it posts has a body more, then one
    // fewer at the front; each body the worker keeps keeps its state and its plots.
    const SceneSetup setup = SmallSetupWithBall();
    const BodySpec& ball = setup.bodies[0];
    auto worker = MakeWorker(setup);
    SimSnapshot front;
    LockStepFrame(*worker, Running(), front);
    LockStepFrame(*worker, Running(), front);
    ASSERT_EQ(front.bodies.size(), 1u);
    const BodyState before = front.bodies[0];
    SceneSetup edited = setup;
    BodySpec added = ball;
    added.name = "ball_2";
    added.position = glm::vec3(-0.8f, 0.0f, 0.45f);
    edited.bodies.push_back(added);
    SimWorker::FrameRequest request = Running();
    request.setup = &edited;
    LockStepFrame(*worker, request, front);
    ASSERT_EQ(front.bodies.size(), 2u);
    EXPECT_EQ(front.bodyNames, (std::vector<std::string>{"ball", "ball_2"}));
    // The first went on from its state (it is sinking), the new one from its spec.
    EXPECT_LT(front.bodies[0].position.z, before.position.z);
    EXPECT_EQ(front.bodyHistories[0].height.Values().size(), 4u) << "the initial state and three steps";
    EXPECT_EQ(front.bodyHistories[1].height.Values().size(), 1u) << "one step since it was added";
    EXPECT_LT(std::abs(front.bodies[1].position.x + 0.8f), 1e-3f);
    const BodyState second = front.bodies[1];
    // The first removed: the second is now first, with its state and its plot.
    edited.bodies.erase(edited.bodies.begin());
    SimWorker::FrameRequest paused;
    paused.threads = 2;
    paused.setup = &edited;
    LockStepFrame(*worker, paused, front);
    ASSERT_EQ(front.bodies.size(), 1u);
    EXPECT_EQ(front.bodyNames, (std::vector<std::string>{"ball_2"}));
    EXPECT_EQ(front.bodies[0].position, second.position);
    EXPECT_EQ(front.bodies[0].velocity, second.velocity);
    ASSERT_EQ(front.bodyHistories[0].height.Values().size(), 1u) << "paused: no step since";
    EXPECT_EQ(front.bodyHistories[0].height.Latest(), second.position.z) << "the plot is ball_2's";
}

TEST(SimWorker, SceneChangeRebuildsTheSimulation) {
    auto worker = MakeWorker(SmallSetup());
    SimSnapshot front;
    LockStepFrame(*worker, Running(), front);
    const SceneSetup other = SmallSetup("two_drops");
    const Simulation expected(other);
    SimWorker::FrameRequest request;
    request.threads = 2;
    request.newScene = &other;
    request.sceneId = 7;
    LockStepFrame(*worker, request, front);
    EXPECT_EQ(front.sceneId, 7u);
    EXPECT_EQ(front.stepCount, 0);
    EXPECT_EQ(HashVector(front.tracerPositions), HashVector(expected.GetTracers().position));
}

TEST(SimWorker, BlowUpIsReportedAndStopsStepping) {
    SceneSetup setup = SmallSetup("vortex_ring");
    setup.params.maxSpeed = 0.2f;
    auto worker = MakeWorker(setup);
    SimSnapshot front;
    LockStepFrame(*worker, Running(), front);
    EXPECT_NE(front.blowUp.message.find("stage velocity"), std::string::npos) << front.blowUp.message;
    EXPECT_EQ(front.stepsCompleted, 0u);
    LockStepFrame(*worker, Running(), front);  // must not wait forever
    EXPECT_EQ(front.stepsCompleted, 0u);
    SimWorker::FrameRequest reset;
    reset.threads = 2;
    reset.reset = true;
    LockStepFrame(*worker, reset, front);
    EXPECT_TRUE(front.blowUp.Empty()) << "a reset clears the blow-up";
}

TEST(SimWorker, AStepNotTakenForAFastBodyGoesOnOnceAnEditRemovesTheCause) {
    // falling_ball's ball sent down at 9.5 m/s, past the 8.8 m/s its wall model follows at
    // dt 0.02 s (Simulation::BodyTooFast): the first step is not taken and the snapshot says
    // why, as a blow-up does; unlike a blow-up the state is kept, so the panel's dt halved
    // (the limit doubles) lets the run go on without a reset.
    SceneSetup setup = LoadSetup("falling_ball");
    setup.params.tracerCount = 0;
    setup.bodies[0].velocity = {0.0f, 0.0f, -9.5f};
    auto worker = MakeWorker(setup);
    SimSnapshot front;
    LockStepFrame(*worker, Running(), front);
    EXPECT_NE(front.blowUp.message.find("body 'ball' moves at"), std::string::npos) << front.blowUp.message;
    EXPECT_TRUE(front.blowUp.stateKept);
    EXPECT_EQ(front.stepsCompleted, 0u);
    LockStepFrame(*worker, Running(), front);
    EXPECT_EQ(front.stepsCompleted, 0u) << "still too fast: not taken again";
    SceneSetup halved = setup;
    halved.params.dt = 0.01f;
    SimWorker::FrameRequest edit = Running();
    edit.setup = &halved;
    LockStepFrame(*worker, edit, front);
    LockStepFrame(*worker, Running(), front);
    EXPECT_TRUE(front.blowUp.Empty()) << front.blowUp.message;
    EXPECT_GE(front.stepsCompleted, 1u);
}

TEST(SimWorker, PaintSeedsTheBlobAndItsMassShowsInTheDiagnostics) {
    // Issue 14, item 5, through the worker as the window does it: the setup with the new group
    // and the paint command in one frame; the snapshot's excess mass grows by δρ·(lattice
    // volume of the blob), the tracers by the count asked; a later setup without the group (an
    // undo) keeps it; the diagnostics log goes on (no gap) and counts the new tracers.
    SceneSetup setup = SmallSetup();
    auto worker = MakeWorker(setup);
    SimSnapshot front;
    for (int f = 0; f < 3; ++f) LockStepFrame(*worker, Running(), front);
    const double before = front.diagnostics.excessMass;
    const std::size_t tracers = front.tracerPositions.size();
    ASSERT_GT(front.spacing, 0.0f);
    PaintSettings paint;
    paint.radius = 0.1f;
    paint.densityDeviation = -40.0f;
    SceneSetup painted = setup;
    painted.groups.push_back(PaintBlob(paint, glm::vec3(0.5f, 0.0f, 0.0f), 1, front.spacing));
    const std::vector<SimWorker::PaintCommand> paints{{painted.groups.size() - 1, 300}};
    SimWorker::FrameRequest request = Running();
    request.setup = &painted;
    request.paints = paints;
    LockStepFrame(*worker, request, front);
    const double added = front.diagnostics.excessMass - before;
    const double exact = -40.0 * (4.0 / 3.0) * 3.14159265358979 * 0.1 * 0.1 * 0.1;
    test::Measured("worker_painted_mass_over_exact", added / exact);
    EXPECT_NEAR(added / exact, 1.0, 0.15);  // a blob of 0.1 m on a coarse (600-vorton) lattice: ~3 h across
    EXPECT_EQ(front.tracerPositions.size(), tracers + 300);
    EXPECT_EQ(front.flow.Latest().tracers, tracers + 300);
    EXPECT_EQ(front.flow.Samples().size(), 4u) << "painting is not a reset: the log goes on";
    // An undo posts the setup without the group: its vortons keep their group.
    SimWorker::FrameRequest undo = Running();
    undo.setup = &setup;
    LockStepFrame(*worker, undo, front);
    ASSERT_TRUE(front.blowUp.Empty()) << front.blowUp.message;
    EXPECT_NEAR(front.diagnostics.excessMass - before, added, 1e-5 * std::abs(added));
}

TEST(SimWorker, RewindGoesBackAndResumesBitForBit) {
    // 30 steps keep states in the rewind ring (every step: small states); rewinding to t =
    // 0.2 s (step 10) shows a direct simulation's step 10, and 5 more steps its step 15,
    // bit for bit; the ring then ends at step 15 (the old future dropped).
    const SceneSetup setup = SmallSetup();
    auto worker = MakeWorker(setup);
    SimSnapshot front;
    for (int f = 0; f < 30; ++f) LockStepFrame(*worker, Running(), front);
    ASSERT_EQ(front.rewindTimes.size(), 31u) << "t = 0 and every step";
    Simulation direct(setup);
    test::RunSteps(direct, 10);
    SimWorker::FrameRequest rewind;  // paused: the rewind alone
    rewind.rewindTo = 10 * 0.02 + 1e-6;
    LockStepFrame(*worker, rewind, front);
    EXPECT_EQ(front.stepCount, 10);
    EXPECT_EQ(HashVector(front.tracerPositions), HashVector(direct.GetTracers().position));
    for (int f = 0; f < 5; ++f) LockStepFrame(*worker, Running(), front);
    test::RunSteps(direct, 5);
    EXPECT_EQ(front.stepCount, 15);
    EXPECT_EQ(HashVector(front.tracerPositions), HashVector(direct.GetTracers().position));
    EXPECT_EQ(front.diagnostics.impulse, direct.ComputeDiagnostics().impulse);
    EXPECT_NEAR(front.rewindTimes.back(), 15 * 0.02, 1e-6);  // t sums float dt
    EXPECT_EQ(front.rewindTimes.size(), 16u);
    // With bodies (their image flow and sheets are state too) the ring keeps states as well.
    auto ball = MakeWorker(SmallSetup("falling_ball"));
    LockStepFrame(*ball, Running(), front);
    EXPECT_FALSE(front.rewindTimes.empty());
    EXPECT_TRUE(front.rewindUnavailable.empty()) << front.rewindUnavailable;
}

TEST(SimWorker, GpuTracerStepsWaitForTheFrameLoop) {
    // With the tracers on the GPU each step's command holds a copy of a velocity grid: a frame
    // loop that stops taking them (a minimised window) pauses free-running steps at
    // kMaxGpuBacklog commands instead of piling up grids. The worker needs no GL for this.
    const SceneSetup setup = SmallSetup();
    auto worker = MakeWorker(setup);
    SimSnapshot front;
    std::vector<std::string> errors;
    SimWorker::FrameRequest request = Running();
    request.gpuTracers = true;
    worker->Sync(request, front, errors);
    // Waits for the backlog to fill (0.3 s of real time at 50 steps/s; much longer under the
    // sanitizers, where a step can take longer than its 20 ms), then 0.5 s more (25 steps of
    // real time) in which it must not grow.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (worker->GpuBacklog() < kMaxGpuBacklog && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_GE(worker->GpuBacklog(), kMaxGpuBacklog) << "the backlog did not fill in 120 s";
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    EXPECT_LE(worker->GpuBacklog(), kMaxGpuBacklog + 1) << "steps went on past the backlog";
    SimWorker::FrameRequest stopped;
    stopped.threads = 2;
    stopped.gpuTracers = true;
    stopped.lockStep = true;  // waits for the worker to be idle
    worker->Sync(stopped, front, errors);
    EXPECT_TRUE(errors.empty());
    EXPECT_TRUE(front.tracersOnGpu);
    EXPECT_TRUE(front.tracerPositions.empty());
    // One Replace (the hand-over), then the steps.
    ASSERT_GE(front.gpuCommands.size(), 2u);
    EXPECT_EQ(front.gpuCommands.front().kind, GpuTracerCommand::Kind::Replace);
    EXPECT_EQ(front.gpuCommands.front().positions.size(), std::size_t(setup.params.tracerCount));
    std::size_t steps = 0;
    for (const GpuTracerCommand& c : front.gpuCommands) steps += c.kind == GpuTracerCommand::Kind::Step;
    EXPECT_GE(steps, kMaxGpuBacklog - 1);
    EXPECT_LE(front.gpuCommands.size(), kMaxGpuBacklog + 1);
    EXPECT_EQ(std::int64_t(steps), front.stepCount);
}

}  // namespace
}  // namespace vorton
