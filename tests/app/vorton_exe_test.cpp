// End-to-end: runs the `vorton` executable as a user would and checks what it
// prints, its exit status and the files it writes (PNG pixels, MP4 frames).

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

struct RunResult {
    int exitCode = -1;
    std::string output;  // stdout and stderr
};

/// Runs a shell command line; `vorton` in it is the executable under test.
RunResult RunVorton(const std::string& args, const std::string& prefix = "") {
    const std::string command = prefix + " '" + std::string(VORTON_EXE) + "' " + args + " 2>&1";
    RunResult r;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buffer;
    while (std::fgets(buffer.data(), int(buffer.size()), pipe)) r.output += buffer.data();
    const int status = pclose(pipe);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

fs::path TempDir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("vorton_exe_test_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

/// Centroid (pixels) and count of clearly blue pixels: blue well above red and green.
struct BlueBlob {
    double count = 0.0, x = 0.0, y = 0.0;
};
BlueBlob FindBlue(const fs::path& png) {
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load(png.c_str(), &w, &h, &n, 3);
    BlueBlob blob;
    if (!data) return blob;
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            const unsigned char* p = data + 3 * (y * w + x);
            if (p[2] > 90 && p[2] > p[0] + 40 && p[2] > p[1] + 15) {
                blob.count += 1.0;
                blob.x += x;
                blob.y += y;
            }
        }
    }
    stbi_image_free(data);
    if (blob.count > 0.0) {
        blob.x /= blob.count;
        blob.y /= blob.count;
    }
    return blob;
}

/// Lines in a text file (0 if it cannot be read).
int CountLines(const fs::path& file) {
    std::ifstream in(file);
    int lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    return lines;
}

const std::string kSmall = "--set vorton_count=800 --set tracer_count=20000";

TEST(VortonExe, ListScenesFromAnyDirectory) {
    const RunResult r = RunVorton("--list-scenes", "cd / &&");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    for (const char* scene : {"dye_drop", "two_drops", "vortex_ring", "rayleigh_taylor"}) {
        EXPECT_NE(r.output.find(scene), std::string::npos) << scene << " missing from:\n" << r.output;
    }
}

TEST(VortonExe, UnknownFlagIsAUsageErrorListingTheFlags) {
    const RunResult r = RunVorton("--bogus");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.output.find("--bogus"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--scene"), std::string::npos) << "valid flags should be listed:\n" << r.output;
}

TEST(VortonExe, UnknownParameterListsTheValidKeys) {
    const RunResult r = RunVorton("--no-render --set nonsense=1");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.output.find("nonsense"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("ambient_density"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("drop.density_deviation"), std::string::npos) << r.output;
}

TEST(VortonExe, UnknownSceneListsTheScenes) {
    const RunResult r = RunVorton("--no-render --scene no_such_scene");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.output.find("dye_drop"), std::string::npos) << r.output;
}

TEST(VortonExe, MalformedSceneNamesFileAndLine) {
    const fs::path dir = TempDir("bad_scene");
    const fs::path file = dir / "bad.json";
    std::ofstream(file) << "{\n  \"version\": 1,\n  \"groups\": [\n    { \"name\": \"a\", \"radius\": }\n  ]\n}\n";
    const RunResult r = RunVorton("--no-render --scene " + file.string());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.output.find("bad.json:4"), std::string::npos) << r.output;
}

TEST(VortonExe, BadValueInSceneNamesLineAndKey) {
    const fs::path dir = TempDir("bad_value");
    const fs::path file = dir / "neg.json";
    std::ofstream(file) << "{\n  \"version\": 1,\n  \"groups\": [\n    { \"name\": \"a\",\n      \"radius\": -2 }\n  ]\n}\n";
    const RunResult r = RunVorton("--no-render --scene " + file.string());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.output.find("neg.json:5"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("radius"), std::string::npos) << r.output;
}

/// A scene file with the dye drop and a free body "ball" beside it.
fs::path WriteBallScene(const fs::path& dir) {
    const fs::path file = dir / "ball.json";
    std::ofstream(file) << "{\n  \"version\": 1,\n"
                           "  \"groups\": [ { \"name\": \"drop\", \"center\": [0, 0, 0.45], \"radius\": 0.2,\n"
                           "                \"density_deviation\": 50 } ],\n"
                           "  \"bodies\": [ { \"name\": \"ball\", \"position\": [0.8, 0, 0.45], \"radius\": 0.05,\n"
                           "                \"density\": 1100 } ]\n}\n";
    return file;
}

TEST(VortonExe, FreeBodyWithoutMassIsAUsageErrorNamingTheBody) {
    const fs::path file = WriteBallScene(TempDir("massless"));
    const RunResult r = RunVorton("--no-render --frames 1 " + kSmall + " --scene " + file.string() +
                                  " --set ball.density=0");
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_NE(r.output.find("body 'ball'"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("density > 0"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--set ball.density=0"), std::string::npos) << r.output;
}

TEST(VortonExe, NegativeBodyRadiusIsAUsageErrorNamingTheKey) {
    const fs::path file = WriteBallScene(TempDir("negative_radius"));
    const RunResult r = RunVorton("--no-render --frames 1 " + kSmall + " --scene " + file.string() +
                                  " --set ball.radius=-1");
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_NE(r.output.find("ball.radius"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("range"), std::string::npos) << r.output;
}

TEST(VortonExe, NoRenderWritesBodyRowsAndDumps) {
    const fs::path dir = TempDir("bodies");
    const fs::path file = WriteBallScene(dir);
    const RunResult r = RunVorton("--no-render --frames 2 " + kSmall + " --scene " + file.string() + " --stats " +
                                  (dir / "stats").string() + " --dump-dir " + (dir / "dump").string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(CountLines(dir / "stats" / "bodies.csv"), 3) << "a header and one row per step for the one body";
    for (const char* f : {"bodies_000000.ply", "bodies_000002.ply", "tracers_000002.ply"}) {
        EXPECT_TRUE(fs::exists(dir / "dump" / f)) << f;
    }
}

TEST(VortonExe, NoRenderWritesOneStatsRowPerStep) {
    const fs::path dir = TempDir("stats");
    const RunResult r = RunVorton("--no-render --frames 4 " + kSmall + " --stats " + dir.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    std::ifstream in(dir / "frames.csv");
    std::string header;
    std::getline(in, header);
    EXPECT_EQ(CountLines(dir / "frames.csv"), 5) << "a header and one row per step";
    EXPECT_NE(header.find("impulse_z"), std::string::npos);
    EXPECT_NE(header.find("ms_velocity"), std::string::npos);
}

TEST(VortonExe, HeadlessPngsShowTheBlueDropSinking) {
    // 2 s of the dye drop (40 steps of 0.05 s) at 320x240: the first frame
    // shows a blue blob above the camera target (the drop starts 0.8 m above
    // it), and the blob's centroid moves down the image as the drop sinks
    // (about (2/3)·g·δρ/ρ₀·t²/2 ≈ 0.4 m, tens of pixels at this zoom).
    const fs::path dir = TempDir("pngs");
    const RunResult r = RunVorton("--headless --frames 40 --size 320x240 --set dt=0.05 " + kSmall + " --record " +
                            dir.string() + "/");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    ASSERT_TRUE(fs::exists(dir / "frame_000000.png"));
    ASSERT_TRUE(fs::exists(dir / "frame_000040.png"));
    EXPECT_FALSE(fs::exists(dir / "frame_000041.png"));
    const BlueBlob first = FindBlue(dir / "frame_000000.png"), last = FindBlue(dir / "frame_000040.png");
    EXPECT_GT(first.count, 300.0) << "the drop should be visible as blue pixels";
    EXPECT_GT(last.count, 300.0);
    EXPECT_LT(first.y, 120.0) << "the drop starts in the upper half";
    EXPECT_GT(last.y, first.y + 10.0) << "the drop should sink (image y grows downward)";
}

TEST(VortonExe, Mp4HasOneFramePerStepPlusTheFirst) {
    const fs::path dir = TempDir("mp4");
    const fs::path video = dir / "drop.mp4";
    const RunResult r = RunVorton("--headless --frames 12 --size 160x120 " + kSmall + " --record " + video.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    FILE* pipe = popen(("ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames "
                        "-of csv=p=0 '" + video.string() + "' 2>&1").c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char buffer[256] = {};
    std::fgets(buffer, sizeof buffer, pipe);
    pclose(pipe);
    EXPECT_EQ(std::atoi(buffer), 13) << "ffprobe said: " << buffer;
}

TEST(VortonExe, UnwritableRecordingSaysWhyAndTheSimulationGoesOn) {
    const fs::path dir = TempDir("unwritable");
    const RunResult r = RunVorton("--headless --frames 3 --size 160x120 " + kSmall + " --record /proc/no_such/x.mp4 --stats " +
                            dir.string());
    EXPECT_EQ(r.exitCode, 3) << r.output;
    EXPECT_NE(r.output.find("cannot record"), std::string::npos) << r.output;
    // The run still did all its steps: a header and three rows.
    EXPECT_EQ(CountLines(dir / "frames.csv"), 4);
}

TEST(VortonExe, BlowUpStopsWithStatusThreeNamingStepAndStage) {
    const RunResult r = RunVorton("--no-render --scene vortex_ring --frames 5 " + kSmall + " --set max_speed=0.2");
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.output.find("blow-up at step 0"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("stage velocity"), std::string::npos) << r.output;
}

TEST(VortonExe, NoDisplaySuggestsHeadless) {
    const RunResult r = RunVorton("--frames 2", "env -u DISPLAY -u WAYLAND_DISPLAY");
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.output.find("--headless"), std::string::npos) << r.output;
}

TEST(VortonExe, WindowRunsUnderXvfb) {
    if (std::system("command -v xvfb-run > /dev/null 2>&1") != 0) GTEST_SKIP() << "xvfb-run not installed";
    const fs::path dir = TempDir("window");
    const RunResult r = RunVorton("--frames 5 --size 320x240 " + kSmall + " --stats " + dir.string(),
                            "xvfb-run -a -s '-screen 0 640x480x24'");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(CountLines(dir / "frames.csv"), 6) << "a header and five steps in the window";
}

}  // namespace
