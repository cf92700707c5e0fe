// Snapshots (issue 14, item 4): a run saved and loaded continues bit for bit; bad files are
// refused with a clear error and leave the running simulation as it was.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "scene/snapshot.h"
#include "sim/numerics/uniform_grid.h"
#include "sim/solvers/vorton_clusters.h"
#include "test_util.h"

namespace vorton {
namespace {

namespace fs = std::filesystem;

fs::path TempDir(const std::string& name) {
    // Per process: two runs of the suite at once (a developer's and CI's) must not share it.
    const fs::path dir = fs::temp_directory_path() / ("vorton_snapshot_" + name + "_" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

Scene LoadScene(const std::string& name) {
    auto scene = LoadSceneFile(test::SceneDir() / (name + ".json"));
    EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error());
    return scene.ok() ? scene.value() : Scene{};
}

/// The state hash and the diagnostics' bits after each of `steps` steps.
std::vector<std::uint64_t> Trajectory(Simulation& sim, int steps) {
    std::vector<std::uint64_t> hashes;
    for (int s = 0; s < steps; ++s) {
        EXPECT_TRUE(test::RunSteps(sim, 1).ok);
        const Diagnostics d = sim.ComputeDiagnostics();
        std::uint64_t h = test::StateHash(sim);
        h = test::HashBytes(&d.impulse, sizeof d.impulse, h);
        h = test::HashVector(sim.GetTracers().velocity, h);
        for (const BodyState& b : sim.Bodies()) {
            for (const glm::vec3& v : {b.position, b.velocity, b.angularVelocity, b.fluidForce, b.fluidTorque}) {
                h = test::HashBytes(&v, sizeof v, h);
            }
        }
        hashes.push_back(h);
    }
    return hashes;
}

std::string ReadBytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void WriteBytes(const fs::path& file, const std::string& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

TEST(Snapshot, LoadedRunContinuesBitForBit) {
    // Every scene: run 23 steps, save, run 24 more (a remeshing falls in both halves:
    // remesh_every is at most 10 in these scenes); a fresh simulation loaded from the file
    // runs the same 24 steps to the same bits at every step, the bodies' motion and forces
    // included. Bodies of both models: the skin (stratified_ball) and the sheets with their
    // image flow (falling_ball, ball_through_smoke, spinning_ball, and flow_past_ball with its
    // emitter and the dye its ball releases). Tracers cut to 20,000 (they take the same path
    // as a million, at a fiftieth of the time).
    for (const std::string name : {"dye_drop", "two_drops", "rayleigh_taylor", "vortex_ring", "stratified_ball",
                                   "spinning_ball", "flow_past_ball", "falling_ball", "ball_through_smoke"}) {
        SCOPED_TRACE(name);
        Scene scene = LoadScene(name);
        scene.setup.params.tracerCount = std::min(scene.setup.params.tracerCount, 20000);
        ASSERT_LE(scene.setup.params.remeshEvery, 10);
        const fs::path file = TempDir("continue") / (name + ".vsnap");
        Simulation original(scene.setup);
        ASSERT_TRUE(test::RunSteps(original, 23).ok);
        const Status saved = WriteSnapshotFile(file, scene, original);
        ASSERT_TRUE(saved.ok()) << saved.error();
        const double savedTime = original.Time();
        const std::vector<std::uint64_t> expected = Trajectory(original, 24);

        auto loaded = ReadSnapshotFile(file);
        ASSERT_TRUE(loaded.ok()) << loaded.error();
        Simulation& sim = *loaded.value().sim;
        EXPECT_EQ(loaded.value().scene.name, name);
        EXPECT_EQ(sim.StepCount(), 23);
        EXPECT_EQ(sim.Time(), savedTime);
        EXPECT_EQ(Trajectory(sim, 24), expected);
        EXPECT_EQ(sim.RemeshCount(), original.RemeshCount());
    }
}

TEST(Snapshot, ARunOnAGridPerGroupContinuesBitForBit) {
    // two_drops with its drops 6 m apart: one grid over both would be mostly
    // empty (past kAutoTreeSparsity points per vorton, so once the treecode),
    // so the grid solver solves each drop on its own grid (SolverSettings::
    // clusterCell), a choice the state carries in its cache key.
    Scene scene = LoadScene("two_drops");
    scene.setup.params.tracerCount = 20000;
    scene.setup.groups[0].center.z = 3.0f;
    scene.setup.groups[1].center.z = -3.0f;
    Simulation original(scene.setup);
    ASSERT_TRUE(test::RunSteps(original, 13).ok);
    EXPECT_EQ(original.ActiveSolver(), Solver::Grid);
    const float cell = scene.setup.params.velocityGridSpacing * original.Spacing();
    const std::size_t oneGrid = GridPointCount(BoundsOf(original.GetVortons().position), cell, 2.5f * cell);
    EXPECT_GT(original.LastStepWork().solverGridPoints, 0u);
    EXPECT_LT(original.LastStepWork().solverGridPoints, oneGrid);  // two solves a step, each on two small grids
    const fs::path file = TempDir("groups") / "groups.vsnap";
    ASSERT_TRUE(WriteSnapshotFile(file, scene, original).ok());
    const std::vector<std::uint64_t> expected = Trajectory(original, 12);
    auto loaded = ReadSnapshotFile(file);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_EQ(Trajectory(*loaded.value().sim, 12), expected);
}

TEST(Snapshot, APaintedRunContinuesBitForBit) {
    // Painted fluid (a thrown light blob, Simulation::SeedGroupNow) is a group of the setup the
    // snapshot's scene JSON carries, and its vortons and tracers are state: a run painted at
    // step 8 and saved at step 13 continues from the file as it does in memory.
    Scene scene = LoadScene("dye_drop");
    scene.setup.params.tracerCount = 20000;
    Simulation original(scene.setup);
    ASSERT_TRUE(test::RunSteps(original, 8).ok);
    DensityGroup blob;
    blob.name = "paint_1";
    blob.center = glm::vec3(0.5f, 0.0f, 0.2f);
    blob.radius = 0.1f;
    blob.halo = 0.08f;
    blob.densityDeviation = -25.0f;
    blob.dye = glm::vec3(1.0f, 0.5f, 0.1f);
    original.Setup().groups.push_back(blob);
    ASSERT_TRUE(original.SeedGroupNow(1, 3000, glm::vec3(0.0f, 0.2f, 0.0f)).ok());
    ASSERT_TRUE(test::RunSteps(original, 5).ok);
    const fs::path file = TempDir("painted") / "painted.vsnap";
    ASSERT_TRUE(WriteSnapshotFile(file, scene, original).ok());
    const std::vector<std::uint64_t> expected = Trajectory(original, 10);
    auto loaded = ReadSnapshotFile(file);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    ASSERT_EQ(loaded.value().scene.setup.groups.size(), 2u);
    EXPECT_EQ(loaded.value().scene.setup.groups[1].name, "paint_1");
    EXPECT_EQ(loaded.value().sim->MaxVortons(), original.MaxVortons());
    EXPECT_EQ(Trajectory(*loaded.value().sim, 10), expected);
}

TEST(Snapshot, BadFilesGetAClearError) {
    Scene scene = LoadScene("dye_drop");
    scene.setup.params.tracerCount = 2000;
    const fs::path dir = TempDir("bad");
    Simulation sim(scene.setup);
    ASSERT_TRUE(test::RunSteps(sim, 3).ok);
    const fs::path good = dir / "good.vsnap";
    ASSERT_TRUE(WriteSnapshotFile(good, scene, sim).ok());
    const std::string bytes = ReadBytes(good);
    ASSERT_GT(bytes.size(), 1000u);

    auto expectError = [&](const std::string& label, const std::string& contents, const std::string& words) {
        const fs::path file = dir / (label + ".vsnap");
        WriteBytes(file, contents);
        auto r = ReadSnapshotFile(file);
        ASSERT_FALSE(r.ok()) << label;
        EXPECT_NE(r.error().find(file.string()), std::string::npos) << r.error();
        EXPECT_NE(r.error().find(words), std::string::npos) << label << ": " << r.error();
    };
    expectError("scene_json", ReadBytes(test::SceneDir() / "dye_drop.json"), "not a vorton snapshot");
    expectError("empty", "", "not a vorton snapshot");
    // Cut anywhere: in the header, the scene, the state's arrays, the checksum.
    for (const std::size_t cut : {std::size_t(10), std::size_t(40), bytes.size() / 2, bytes.size() - 1}) {
        expectError("cut_" + std::to_string(cut), bytes.substr(0, cut), "truncated");
    }
    std::string version = bytes;
    version[8] = char(kSnapshotVersion + 1);  // the u32 after the magic
    expectError("version", version, "version " + std::to_string(kSnapshotVersion + 1));
    std::string damaged = bytes;
    damaged[bytes.size() / 2] ^= 0x10;
    expectError("damaged", damaged, "damaged");
    expectError("trailing", bytes + "x", "after the snapshot's end");
    auto missing = ReadSnapshotFile(dir / "missing.vsnap");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().find("cannot read"), std::string::npos) << missing.error();
    // The good one still loads.
    EXPECT_TRUE(ReadSnapshotFile(good).ok());
}

TEST(Snapshot, ABadStateLeavesTheRunningSimulationAlone) {
    // RestoreState is all or nothing: a truncated state, or one of another scene (a tracer of
    // a group this scene lacks), is refused and the simulation steps on exactly as a twin that
    // never saw it.
    SceneSetup drop = test::LoadSetup("dye_drop");
    drop.params.tracerCount = 2000;
    SceneSetup two = test::LoadSetup("two_drops");
    two.params.tracerCount = 2000;
    ASSERT_LT(drop.groups.size(), two.groups.size());
    Simulation sim(drop), twin(drop), other(two);
    ASSERT_TRUE(test::RunSteps(sim, 3).ok);
    ASSERT_TRUE(test::RunSteps(twin, 3).ok);
    ASSERT_TRUE(test::RunSteps(other, 3).ok);
    std::string state;
    ASSERT_TRUE(sim.AppendState(state).ok());
    const Status cut = sim.RestoreState(std::string_view(state).substr(0, state.size() - 7));
    ASSERT_FALSE(cut.ok());
    EXPECT_NE(cut.error().find("truncated"), std::string::npos) << cut.error();
    std::string foreign;
    ASSERT_TRUE(other.AppendState(foreign).ok());
    const Status wrong = sim.RestoreState(foreign);
    ASSERT_FALSE(wrong.ok());
    EXPECT_NE(wrong.error().find("another scene"), std::string::npos) << wrong.error();
    EXPECT_EQ(Trajectory(sim, 4), Trajectory(twin, 4));
}

}  // namespace
}  // namespace vorton
