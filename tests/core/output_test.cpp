// Run outputs: the stats CSV and the binary PLY dumps, and the simulation-only run.

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "app/core/output.h"
#include "app/core/run.h"
#include "test_util.h"

namespace vorton {
namespace {

namespace fs = std::filesystem;

/// A fresh folder under the system temp dir, removed at the end of the test.
class OutputTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_dir = fs::temp_directory_path() / ("vorton_test_" + std::to_string(::getpid()) + "_" +
                                             info->test_suite_name() + "_" + info->name());
        fs::remove_all(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    static SceneSetup Small() {
        SceneSetup setup = test::LoadSetup("dye_drop");
        setup.params.vortonCount = 300;
        setup.params.tracerCount = 500;
        return setup;
    }

    /// Small() with a free "ball" that starts moving and spinning, and a fixed "post",
    /// both away from the drop.
    static SceneSetup WithBodies() {
        SceneSetup setup = Small();
        BodySpec ball;
        ball.name = "ball";
        ball.position = glm::vec3(0.8f, 0.0f, 0.45f);
        ball.velocity = glm::vec3(0.0f, 0.05f, 0.0f);
        ball.angularVelocity = glm::vec3(0.0f, 0.0f, 2.0f);
        ball.radius = 0.05f;
        ball.density = 1100.0f;
        setup.bodies.push_back(ball);
        BodySpec post;
        post.name = "post";
        post.position = glm::vec3(-0.8f, 0.0f, 0.0f);
        post.radius = 0.03f;
        post.fixed = true;
        setup.bodies.push_back(post);
        return setup;
    }

    /// Opens a StatsWriter on m_dir, then steps sim and writes a row, `rows` times.
    void WriteRows(Simulation& sim, int rows) {
        StatsWriter stats;
        ASSERT_TRUE(stats.Open(m_dir).ok());
        for (int i = 0; i < rows; ++i) {
            ASSERT_TRUE(test::RunSteps(sim, 1).ok);
            ASSERT_TRUE(stats.WriteRow(sim).ok());
        }
    }

    fs::path m_dir;
};

std::vector<std::string> Split(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    std::string field;
    while (std::getline(in, field, ',')) out.push_back(field);
    return out;
}

std::vector<std::string> ReadLines(const fs::path& file) {
    std::ifstream in(file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

TEST_F(OutputTest, StatsHeaderAndRows) {
    Simulation sim(Small());
    ASSERT_NO_FATAL_FAILURE(WriteRows(sim, 2));

    const auto lines = ReadLines(m_dir / "frames.csv");
    ASSERT_EQ(lines.size(), 3u);
    const auto header = Split(lines[0]);
    std::vector<std::string> required{
        "frame",     "time",      "step_ms",       "vortons",       "tracers",       "impulse_x",
        "impulse_y", "impulse_z", "circulation_x", "circulation_y", "circulation_z", "max_speed"};
    for (int s = 0; s < kStageCount; ++s)
        required.push_back("ms_" + std::string(StageName(Stage(s))));
    required.push_back("substeps");
    required.push_back("lagrangian_cfl");
    for (const std::string& column : required) {
        EXPECT_NE(std::find(header.begin(), header.end(), column), header.end()) << column;
    }
    // The documented leading order.
    for (std::size_t c = 0; c < 12; ++c) EXPECT_EQ(header[c], required[c]);
    for (std::size_t r = 1; r < lines.size(); ++r) {
        const auto row = Split(lines[r]);
        ASSERT_EQ(row.size(), header.size()) << lines[r];
        for (const std::string& f : row) {
            char* end = nullptr;
            std::strtod(f.c_str(), &end);
            EXPECT_EQ(*end, '\0') << "not a number: " << f;
        }
    }
    const auto row = Split(lines[2]);
    EXPECT_EQ(row[0], "2");
    EXPECT_EQ(std::stoul(row[3]), sim.GetVortons().Size());
    EXPECT_EQ(std::stoul(row[4]), sim.GetTracers().Size());
    EXPECT_NEAR(std::stod(row[7]), sim.ComputeDiagnostics().impulse.z,
                1e-6 * std::abs(sim.ComputeDiagnostics().impulse.z));
}

TEST_F(OutputTest, BodiesCsvHeaderOnlyWithoutBodies) {
    Simulation sim(Small());
    ASSERT_NO_FATAL_FAILURE(WriteRows(sim, 1));
    const auto lines = ReadLines(m_dir / "bodies.csv");
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0], "frame,time,body,x,y,z,vx,vy,vz,wx,wy,wz,fx,fy,fz");
}

TEST_F(OutputTest, BodiesCsvHasARowPerBodyPerStepMatchingTheState) {
    Simulation sim(WithBodies());
    StatsWriter stats;
    ASSERT_TRUE(stats.Open(m_dir).ok());
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    ASSERT_TRUE(stats.WriteRow(sim).ok());
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    // Known forces (whatever the step computed), so the net-force columns are checked
    // against fluid + weight and not against zeros.
    sim.MutableBody(0).fluidForce = glm::vec3(1.0f, 2.0f, 3.0f);
    sim.MutableBody(0).weightForce = glm::vec3(0.5f, 0.0f, -4.25f);
    ASSERT_TRUE(stats.WriteRow(sim).ok());

    const auto lines = ReadLines(m_dir / "bodies.csv");
    ASSERT_EQ(lines.size(), 5u) << "a header and two bodies for each of two steps";
    EXPECT_EQ(lines[0], "frame,time,body,x,y,z,vx,vy,vz,wx,wy,wz,fx,fy,fz");
    const std::vector<std::string> expectedNames{"ball", "post", "ball", "post"};
    for (std::size_t r = 1; r < lines.size(); ++r) {
        const auto row = Split(lines[r]);
        ASSERT_EQ(row.size(), 15u) << lines[r];
        EXPECT_EQ(row[0], r <= 2 ? "1" : "2") << lines[r];
        EXPECT_EQ(row[2], expectedNames[r - 1]) << lines[r];
    }
    // The last step's rows against the simulation's state, body by body.
    for (std::size_t i = 0; i < 2; ++i) {
        const auto row = Split(lines[3 + i]);
        ASSERT_EQ(row.size(), 15u);
        const BodyState& b = sim.Bodies()[i];
        EXPECT_EQ(std::stoll(row[0]), sim.StepCount());
        EXPECT_NEAR(std::stod(row[1]), sim.Time(), 1e-6);
        EXPECT_EQ(row[2], sim.Setup().bodies[i].name);
        const glm::vec3 f = b.NetForce();
        const float expected[12] = {b.position.x,        b.position.y,        b.position.z,
                                    b.velocity.x,        b.velocity.y,        b.velocity.z,
                                    b.angularVelocity.x, b.angularVelocity.y, b.angularVelocity.z,
                                    f.x,                 f.y,                 f.z};
        for (int c = 0; c < 12; ++c) {
            // %.9g round-trips a float exactly.
            EXPECT_EQ(std::stof(row[std::size_t(3 + c)]), expected[c]) << "body " << i << " column " << 3 + c;
        }
    }
    const auto ball = Split(lines[3]);
    EXPECT_EQ(std::stof(ball[12]), 1.5f);
    EXPECT_EQ(std::stof(ball[13]), 2.0f);
    EXPECT_EQ(std::stof(ball[14]), -1.25f);
}

TEST_F(OutputTest, ImpulseCsvHasTheStepsBudgetTermByTerm) {
    Simulation sim(WithBodies());
    sim.SetImpulseBudget(true);
    ASSERT_NO_FATAL_FAILURE(WriteRows(sim, 2));
    const auto lines = ReadLines(m_dir / "impulse.csv");
    ASSERT_EQ(lines.size(), 3u);
    const std::vector<std::string> terms{"advection", "stretching", "diffusion", "baroclinic", "layers",
                                         "bodies",    "emitters",   "remesh",    "projection", "far_wake"};
    std::vector<std::string> header{"frame", "time"};
    for (const std::string& t : terms)
        for (const char* c : {"_x", "_y", "_z"}) header.push_back(t + c);
    EXPECT_EQ(Split(lines[0]), header);
    const auto row = Split(lines[2]);
    ASSERT_EQ(row.size(), header.size());
    EXPECT_EQ(row[0], "2");
    const ImpulseBudget& b = sim.LastImpulseBudget();
    const glm::dvec3 expected[] = {b.advection, b.stretching, b.diffusion, b.baroclinic, b.layers,
                                   b.bodies,    b.emitters,   b.remesh,    b.projection, b.farWake};
    for (std::size_t t = 0; t < terms.size(); ++t) {
        for (int c = 0; c < 3; ++c) {
            const double value = expected[t][c];
            EXPECT_NEAR(std::stod(row[2 + 3 * t + std::size_t(c)]), value, 1e-8 * std::abs(value)) << header[2 + 3 * t + c];
        }
    }
    // The drop sinks: the columns hold the step's numbers, not zeros.
    EXPECT_NE(b.baroclinic.z, 0.0);
}

TEST_F(OutputTest, StatsOpenFailsWithAMessage) {
    fs::create_directories(m_dir);
    std::ofstream(m_dir / "file") << "x";
    StatsWriter stats;
    const Status s = stats.Open(m_dir / "file" / "sub");
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().find("file"), std::string::npos) << s.error();
}

/// A parsed PLY header and where its payload starts.
struct PlyHeader {
    std::string format;
    std::size_t vertices = 0;
    std::vector<std::string> properties;  // "float x", ...
    std::size_t payloadOffset = 0;
    bool ended = false;
};

PlyHeader ReadPlyHeader(const std::string& bytes) {
    PlyHeader h;
    std::size_t pos = 0;
    bool first = true;
    while (pos < bytes.size()) {
        const std::size_t eol = bytes.find('\n', pos);
        if (eol == std::string::npos) break;
        const std::string line = bytes.substr(pos, eol - pos);
        pos = eol + 1;
        if (first) {
            if (line != "ply") return h;
            first = false;
        } else if (line.rfind("format ", 0) == 0) {
            h.format = line.substr(7);
        } else if (line.rfind("element vertex ", 0) == 0) {
            h.vertices = std::stoul(line.substr(15));
        } else if (line.rfind("property ", 0) == 0) {
            h.properties.push_back(line.substr(9));
        } else if (line == "end_header") {
            h.ended = true;
            h.payloadOffset = pos;
            return h;
        }
    }
    return h;
}

std::string ReadBytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_F(OutputTest, PlyDumpsHaveAValidHeaderAndPayload) {
    Simulation sim(Small());
    ASSERT_TRUE(test::RunSteps(sim, 2).ok);
    ASSERT_TRUE(WriteDump(m_dir, sim, 7).ok());

    const std::string vortons = ReadBytes(m_dir / "vortons_000007.ply");
    const PlyHeader hv = ReadPlyHeader(vortons);
    ASSERT_TRUE(hv.ended);
    EXPECT_EQ(hv.format, "binary_little_endian 1.0");
    EXPECT_EQ(hv.vertices, sim.GetVortons().Size());
    const std::vector<std::string> vortonProps{"float x",      "float y",      "float z",
                                               "float wx",     "float wy",     "float wz",
                                               "float radius", "float volume", "float density"};
    EXPECT_EQ(hv.properties, vortonProps);
    ASSERT_EQ(vortons.size() - hv.payloadOffset, hv.vertices * vortonProps.size() * sizeof(float));
    // The payload is the state, little-endian floats in vertex order.
    float first[9];
    std::memcpy(first, vortons.data() + hv.payloadOffset, sizeof first);
    EXPECT_EQ(first[0], sim.GetVortons().position[0].x);
    EXPECT_EQ(first[5], sim.GetVortons().vorticity[0].z);
    EXPECT_EQ(first[8], sim.VortonDensityDeviation(0));

    const std::string tracers = ReadBytes(m_dir / "tracers_000007.ply");
    const PlyHeader ht = ReadPlyHeader(tracers);
    ASSERT_TRUE(ht.ended);
    EXPECT_EQ(ht.format, "binary_little_endian 1.0");
    EXPECT_EQ(ht.vertices, sim.GetTracers().Size());
    const std::vector<std::string> tracerProps{"float x",  "float y",  "float z",      "float vx",
                                               "float vy", "float vz", "float density"};
    EXPECT_EQ(ht.properties, tracerProps);
    ASSERT_EQ(tracers.size() - ht.payloadOffset, ht.vertices * tracerProps.size() * sizeof(float));
    // Every tracer's record decodes to its state: position, velocity of the last step, density.
    const Tracers& t = sim.GetTracers();
    ASSERT_GT(t.Size(), 0u);
    std::size_t moving = 0;
    for (std::size_t i = 0; i < t.Size(); ++i) {
        float record[7];
        std::memcpy(record, tracers.data() + ht.payloadOffset + i * sizeof record, sizeof record);
        ASSERT_EQ(record[0], t.position[i].x) << i;
        ASSERT_EQ(record[1], t.position[i].y) << i;
        ASSERT_EQ(record[2], t.position[i].z) << i;
        ASSERT_EQ(record[3], t.velocity[i].x) << i;
        ASSERT_EQ(record[4], t.velocity[i].y) << i;
        ASSERT_EQ(record[5], t.velocity[i].z) << i;
        ASSERT_EQ(record[6], sim.TracerDensityDeviation(i)) << i;
        if (record[5] != 0.0f) ++moving;
    }
    EXPECT_GT(moving, 0u) << "after two steps of a sinking drop the tracers have velocities";

    // No bodies in this scene: a valid body PLY with no vertices and no payload.
    const std::string bodies = ReadBytes(m_dir / "bodies_000007.ply");
    const PlyHeader hb = ReadPlyHeader(bodies);
    ASSERT_TRUE(hb.ended) << bodies;
    EXPECT_EQ(hb.format, "binary_little_endian 1.0");
    EXPECT_EQ(hb.vertices, 0u);
    EXPECT_EQ(hb.properties, (std::vector<std::string>{"float x", "float y", "float z", "float radius"}));
    EXPECT_EQ(bodies.size(), hb.payloadOffset);
}

TEST_F(OutputTest, BodyPlyHasOneVertexPerBody) {
    Simulation sim(WithBodies());
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    // Known, distinct positions (whatever the step did), read back through the dump.
    sim.MutableBody(0).position = glm::vec3(0.25f, -0.5f, 1.125f);
    sim.MutableBody(1).position = glm::vec3(-1.0f, 2.0f, -3.5f);
    ASSERT_TRUE(WriteDump(m_dir, sim, 12).ok());
    const std::string bytes = ReadBytes(m_dir / "bodies_000012.ply");
    const PlyHeader h = ReadPlyHeader(bytes);
    ASSERT_TRUE(h.ended);
    EXPECT_EQ(h.format, "binary_little_endian 1.0");
    ASSERT_EQ(h.vertices, 2u);
    EXPECT_EQ(h.properties, (std::vector<std::string>{"float x", "float y", "float z", "float radius"}));
    ASSERT_EQ(bytes.size() - h.payloadOffset, 2 * 4 * sizeof(float));
    float records[2][4];
    std::memcpy(records, bytes.data() + h.payloadOffset, sizeof records);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(records[i][0], sim.Bodies()[i].position.x) << i;
        EXPECT_EQ(records[i][1], sim.Bodies()[i].position.y) << i;
        EXPECT_EQ(records[i][2], sim.Bodies()[i].position.z) << i;
        EXPECT_EQ(records[i][3], sim.Setup().bodies[i].radius) << i;
    }
    EXPECT_EQ(records[0][2], 1.125f);
    EXPECT_EQ(records[1][3], 0.03f);
}

TEST_F(OutputTest, RunWithoutRenderingWritesStatsAndDumps) {
    Options options;
    options.scene = "dye_drop";
    options.noRender = true;
    options.frames = 4;
    options.threads = 2;
    options.sets = {"vorton_count=300", "tracer_count=500"};
    options.statsDir = (m_dir / "stats").string();
    options.dumpDir = (m_dir / "dump").string();
    options.dumpEvery = 2;
    auto scene = PrepareScene(options);
    ASSERT_TRUE(scene.ok()) << scene.error();
    EXPECT_EQ(scene.value().setup.params.vortonCount, 300);
    std::ostringstream log;
    EXPECT_EQ(RunWithoutRendering(options, scene.value(), log), kExitOk) << log.str();
    EXPECT_EQ(ReadLines(m_dir / "stats" / "frames.csv").size(), 5u);  // header + 4 steps
    EXPECT_EQ(ReadLines(m_dir / "stats" / "bodies.csv").size(), 1u);  // header only: no bodies
    for (const char* f : {"vortons_000000.ply", "tracers_000000.ply", "bodies_000000.ply", "vortons_000002.ply",
                          "vortons_000004.ply", "bodies_000004.ply"}) {
        EXPECT_TRUE(fs::exists(m_dir / "dump" / f)) << f;
    }
    EXPECT_FALSE(fs::exists(m_dir / "dump" / "vortons_000001.ply"));
    EXPECT_EQ(log.str().find("coarsened"), std::string::npos) << log.str();
}

TEST_F(OutputTest, RunWithoutRenderingSaysWhenTheLatticeCoarsens) {
    // flow_past_ball asked for a ball of R/h 8 with a solver grid of 512 points: the
    // first remesh (step 10) coarsens the lattice, and the log says so once, with the
    // cap and the parameter that lifts it (Simulation::LatticeNotice).
    Options options;
    options.scene = "flow_past_ball";
    options.noRender = true;
    options.frames = 20;
    options.threads = 2;
    options.sets = {"body_resolution=8", "velocity_grid_cells=512", "tracer_count=0"};
    auto scene = PrepareScene(options);
    ASSERT_TRUE(scene.ok()) << scene.error();
    std::ostringstream log;
    ASSERT_EQ(RunWithoutRendering(options, scene.value(), log), kExitOk) << log.str();
    const std::string text = log.str();
    const std::size_t at = text.find("vorton: step 10: Remeshing has coarsened the vortons' lattice");
    EXPECT_NE(at, std::string::npos) << text;
    EXPECT_NE(text.find("Raise velocity_grid_cells (or shorten wake_length)"), std::string::npos) << text;
    EXPECT_EQ(text.find("Remeshing has coarsened", text.find("coarsened", at) + 1), std::string::npos) << "said once: " << text;
}

TEST_F(OutputTest, PrepareSceneErrorsNameTheFlag) {
    Options options;
    options.sets = {"gravty=0,0,1"};
    auto bad = PrepareScene(options);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().rfind("--set gravty=0,0,1: ", 0), 0u) << bad.error();
    options.sets.clear();
    options.scene = "no_such_scene";
    auto unknown = PrepareScene(options);
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.error().rfind("--scene: ", 0), 0u) << unknown.error();
}

TEST_F(OutputTest, PrepareSceneRejectsASetupThatCannotRun) {
    fs::create_directories(m_dir);
    const fs::path file = m_dir / "ball.json";
    std::ofstream(file) << "{ \"version\": 1,\n"
                           "  \"groups\": [ { \"name\": \"drop\", \"density_deviation\": 50 } ],\n"
                           "  \"bodies\": [ { \"name\": \"ball\", \"position\": [0.8, 0, 0], \"density\": 1200 } ] }\n";
    Options options;
    options.scene = file.string();
    auto fine = PrepareScene(options);
    ASSERT_TRUE(fine.ok()) << fine.error();
    ASSERT_EQ(fine.value().setup.bodies.size(), 1u);

    // Each value is in range on its own, but a free body without mass cannot move.
    options.sets = {"vorton_count=300", "ball.density=0"};
    auto massless = PrepareScene(options);
    ASSERT_FALSE(massless.ok());
    EXPECT_NE(massless.error().find("--set ball.density=0"), std::string::npos) << massless.error();
    EXPECT_NE(massless.error().find("body 'ball': a free body needs density > 0"), std::string::npos)
        << massless.error();
    // Fixed, it may have no mass.
    options.sets = {"ball.density=0", "ball.fixed=true"};
    auto fixed = PrepareScene(options);
    ASSERT_TRUE(fixed.ok()) << fixed.error();
    EXPECT_TRUE(fixed.value().setup.bodies[0].fixed);
    EXPECT_EQ(fixed.value().setup.bodies[0].density, 0.0f);
    // A negative radius is already out of range.
    options.sets = {"ball.radius=-1"};
    auto negative = PrepareScene(options);
    ASSERT_FALSE(negative.ok());
    EXPECT_EQ(negative.error().rfind("--set ball.radius=-1: ", 0), 0u) << negative.error();
    EXPECT_NE(negative.error().find("range"), std::string::npos) << negative.error();
}

}  // namespace
}  // namespace vorton
