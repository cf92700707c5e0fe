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
    StatsWriter stats;
    ASSERT_TRUE(stats.Open(m_dir).ok());
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    ASSERT_TRUE(stats.WriteRow(sim).ok());
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    ASSERT_TRUE(stats.WriteRow(sim).ok());

    const auto lines = ReadLines(m_dir / "frames.csv");
    ASSERT_EQ(lines.size(), 3u);
    const auto header = Split(lines[0]);
    std::vector<std::string> required{
        "frame",     "time",      "step_ms",       "vortons",       "tracers",       "impulse_x",
        "impulse_y", "impulse_z", "circulation_x", "circulation_y", "circulation_z", "max_speed"};
    for (int s = 0; s < kStageCount; ++s)
        required.push_back("ms_" + std::string(StageName(Stage(s))));
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
    const std::vector<std::string> tracerProps{"float x", "float y", "float z", "float density"};
    EXPECT_EQ(ht.properties, tracerProps);
    ASSERT_EQ(tracers.size() - ht.payloadOffset, ht.vertices * tracerProps.size() * sizeof(float));
    float last[4];
    std::memcpy(last, tracers.data() + tracers.size() - sizeof last, sizeof last);
    EXPECT_EQ(last[2], sim.GetTracers().position.back().z);
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
    for (const char* f :
         {"vortons_000000.ply", "tracers_000000.ply", "vortons_000002.ply", "vortons_000004.ply"}) {
        EXPECT_TRUE(fs::exists(m_dir / "dump" / f)) << f;
    }
    EXPECT_FALSE(fs::exists(m_dir / "dump" / "vortons_000001.ply"));
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

}  // namespace
}  // namespace vorton
