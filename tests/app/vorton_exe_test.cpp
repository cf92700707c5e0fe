// End-to-end: runs the `vorton` executable as a user would and checks what it
// prints, its exit status and the files it writes (the frames and videos are in
// vorton_frames_test.cpp).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "exe_util.h"

namespace {

using namespace vorton::test;

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

/// A scene with the dye drop and a free body "ball" beside it.
std::string WriteBallSceneText() {
    return "{\n  \"version\": 1,\n"
           "  \"groups\": [ { \"name\": \"drop\", \"center\": [0, 0, 0.45], \"radius\": 0.2,\n"
           "                \"density_deviation\": 50 } ],\n"
           "  \"bodies\": [ { \"name\": \"ball\", \"position\": [0.8, 0, 0.45], \"radius\": 0.05,\n"
           "                \"density\": 1100 } ]\n}\n";
}

/// That scene written to dir/ball.json.
fs::path WriteBallScene(const fs::path& dir) {
    const fs::path file = dir / "ball.json";
    std::ofstream(file) << WriteBallSceneText();
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

// A ball shot at 9 m/s (7.5 lattice spacings per step) is taken in substeps
// (Simulation::Substeps), and frames.csv says how many each step took: 1 for a scene as it
// ships (the reference CSVs), more while the ball is fast.
TEST(VortonExe, StatsSayHowManySubstepsAFastBallTook) {
    const fs::path dir = TempDir("substeps");
    const RunResult r = RunVorton("--no-render --scene ball_through_smoke --frames 3 --set tracer_count=0 "
                                  "--set ball.velocity=9,0,0 --stats " + dir.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    std::ifstream in(dir / "frames.csv");
    std::string header, row;
    std::getline(in, header);
    std::vector<std::string> names;
    std::stringstream cells(header);
    for (std::string cell; std::getline(cells, cell, ',');) names.push_back(cell);
    const auto column = std::find(names.begin(), names.end(), "substeps");
    ASSERT_NE(column, names.end()) << header;
    ASSERT_TRUE(std::getline(in, row));
    std::vector<std::string> values;
    std::stringstream rowCells(row);
    for (std::string cell; std::getline(rowCells, cell, ',');) values.push_back(cell);
    ASSERT_EQ(values.size(), names.size()) << row;
    EXPECT_EQ(std::stoi(values[std::size_t(column - names.begin())]), 8) << "9 m/s · 0.02 s / 0.024 m, rounded up";
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
    // The panel open; its place is remembered in ImGui's layout file in the settings folder.
    const RunResult r = RunVorton("--frames 5 --size 320x240 --open-panel " + kSmall + " --stats " + dir.string(),
                                  "XDG_CONFIG_HOME='" + (dir / "config").string() +
                                      "' xvfb-run -a -s '-screen 0 640x480x24'");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(CountLines(dir / "frames.csv"), 6) << "a header and five steps in the window";
    std::ifstream ini(dir / "config" / "vorton" / "imgui.ini");
    std::stringstream layout;
    layout << ini.rdbuf();
    EXPECT_NE(layout.str().find("[Window][Vorton fluid]"), std::string::npos) << layout.str();
}

}  // namespace

// ---- Bad and extreme input (issue 16): every case is refused with exit 2
// (or stopped with 3) and a message that names the problem, or runs right.

/// One bad input: the command line (a scene file written first when `scene`
/// is not empty: "SCENE" in args is its path), the exit status expected and
/// words the message must contain.
struct BadInput {
    const char* label;
    const char* scene;  // file contents, or "" for none
    std::string args;
    int exitCode;
    std::vector<std::string> words;
};

/// A scene around `group` (one group object) and `extra` top-level members.
std::string SceneWith(const std::string& group, const std::string& extra = "") {
    return "{\n\"version\": 1,\n\"groups\": [" + group + "]" + (extra.empty() ? "" : ",\n" + extra) + "\n}\n";
}

TEST(VortonExe, BadInputsAreRefusedWithAMessageOrRunRight) {
    const std::string deep = "{\"version\": 1, \"groups\": [{\"name\": \"a\"}], \"x\": " + std::string(5000, '[') +
                             std::string(5000, ']') + "}";
    std::string ones = "1";
    for (int k = 0; k < 10000; ++k) ones += ",1";
    const std::string longArray = SceneWith("{\"name\": \"a\", \"radius\": [" + ones + "]}");
    const std::string longNumber = SceneWith("{\"name\": \"a\", \"radius\": 1" + std::string(20000, '0') + "}");
    const std::string dup = "{\n\"version\": 1,\n\"groups\": [{\"name\": \"a\",\n\"radius\": 0.1,\n\"radius\": 0.2}]\n}\n";
    const std::string ballA = "{\"name\": \"b1\", \"radius\": 0.1, \"density\": 1000}";
    const std::string ballB = "{\"name\": \"b2\", \"position\": [0.05, 0, 0], \"radius\": 0.1, \"density\": 1000}";
    const std::string huge = "{\"name\": \"b1\", \"radius\": 1, \"density\": 1000}";
    const std::string run = "--no-render --frames 1 " + kSmall + " ";
    const std::vector<BadInput> table = {
        // Scene files: types, numbers, nesting, duplicates.
        {"name is a number", "{\"version\": 1, \"name\": 5, \"groups\": [{\"name\": \"a\"}]}", run + "--scene SCENE", 2,
         {"name: expected a string", ":1:"}},
        {"description is null", "{\"version\": 1, \"description\": null, \"groups\": [{\"name\": \"a\"}]}",
         run + "--scene SCENE", 2, {"description: expected a string"}},
        {"shape is null", "{\"version\": 1, \"groups\": [{\"name\": \"a\", \"shape\": null}]}", run + "--scene SCENE", 2,
         {"shape: expected", "sphere", "box", "torus"}},
        {"shape is a number", "{\"version\": 1, \"groups\": [{\"name\": \"a\", \"shape\": 3}]}", run + "--scene SCENE", 2,
         {"shape: expected", "got 3"}},
        {"number beyond a double", "{\"version\": 1, \"params\": {\"viscosity\": 1e400}, \"groups\": [{\"name\": \"a\"}]}",
         run + "--scene SCENE", 2, {"1e400", "overflow"}},
        {"nesting 5000 deep", deep.c_str(), run + "--scene SCENE", 2, {"nested deeper than 64"}},
        {"long value cut in the message", longArray.c_str(), run + "--scene SCENE", 2, {"radius: expected a number", "…"}},
        {"20001-digit number", longNumber.c_str(), run + "--scene SCENE", 2, {"overflow", "…"}},
        {"duplicate key", dup.c_str(), run + "--scene SCENE", 2, {":5:", "duplicate key \"radius\"", "line 4"}},
        // Physics that cannot run.
        {"negative fluid density", "", run + "--set ambient_density=500 --set drop.density_deviation=-1000", 2,
         {"group 'drop'", "must be > 0"}},
        {"overlapping bodies", "", run + "--scene SCENE", 2, {"body 'b1' and body 'b2' overlap"}},
        {"a body swallowing the fluid", "", run + "--scene SCENE", 2, {"group 'a' lies entirely inside body 'b1'"}},
        {"vorton_count=1 seeds nothing", "", run + "--set vorton_count=1", 2, {"seeds no vorton"}},
        // The skin model's implicit added mass and drag keep it stable: it
        // rises at the drag curve's terminal speed (1.5 m/s) instead of
        // blowing up (stop 84).
        {"a free ball 10^6 times lighter than water", "", "--no-render --frames 50 " + kSmall + " --scene SCENE --set ball.density=0.001",
         0, {"50 steps"}},
        // Ranges: inclusive at the listed ends, counts as any whole number.
        {"viscosity at its upper end", "", run + "--set viscosity=0.01", 0, {"1 steps"}},
        {"tree_theta at its lower end", "", run + "--set tree_theta=0.05", 0, {"1 steps"}},
        {"max_speed at its lower end", "", run + "--set max_speed=0.1 --scene vortex_ring", 3,
         {"blow-up", "exit 3", "--set dt="}},
        {"headless blow-up gives advice for a run without a window", "",
         "--headless --frames 2 --size 160x120 " + kSmall + " --set max_speed=0.1 --scene vortex_ring", 3,
         {"blow-up", "exit 3", "--set dt="}},
        // A ball past what its wall model follows (8.8 m/s in falling_ball): the step is not
        // taken, and the advice is the message's own, not a larger max_speed.
        {"a ball sent down past its wall model's limit", "",
         "--no-render --frames 2 --scene falling_ball --set tracer_count=0 --set ball.velocity=0,0,-9.5", 3,
         {"not taken: body 'ball' moves at 9.5 m/s", "exit 3", "change that"}},
        {"vorton_count=1e3", "", run + "--set vorton_count=1e3", 0, {"1 steps"}},
        {"vorton_count=2.5", "", run + "--set vorton_count=2.5", 2, {"vorton_count", "whole number", "2.5"}},
        {"range printed short", "", run + "--set viscosity=0.02", 2, {"[0, 0.01]"}},
        // Flags.
        {"--frames 0", "", "--no-render --frames 0", 2, {"--frames", "from 1 to 1000000000", "'0'"}},
        {"--frames too large", "", "--no-render --frames 99999999999999999999", 2, {"--frames", "from 1 to 1000000000"}},
        {"--threads abc", "", "--no-render --threads abc", 2, {"--threads", "whole number", "'abc'"}},
        {"--record with --no-render", "", "--no-render --record out.mp4", 2, {"--record", "--headless"}},
        {"--record into a new folder without a slash", "", "--headless --frames 1 --record RECORD_DIR/pngs", 2,
         {"--record", "pngs/"}},
        {"scene is a directory", "", run + "--scene /tmp", 2, {"/tmp", "is a directory"}},
    };
    const fs::path dir = TempDir("bad_inputs");
    for (std::size_t i = 0; i < table.size(); ++i) {
        const BadInput& c = table[i];
        std::string args = c.args;
        std::string scene = c.scene;
        if (std::string(c.label) == "overlapping bodies") {
            scene = SceneWith("{\"name\": \"a\", \"radius\": 0.3}", "\"bodies\": [" + ballA + ", " + ballB + "]");
        } else if (std::string(c.label) == "a body swallowing the fluid") {
            scene = SceneWith("{\"name\": \"a\", \"radius\": 0.2}", "\"bodies\": [" + huge + "]");
        } else if (std::string(c.label).rfind("a free ball", 0) == 0) {
            scene = WriteBallSceneText();
        }
        if (!scene.empty()) {
            const fs::path file = dir / ("case" + std::to_string(i) + ".json");
            std::ofstream(file) << scene;
            args.replace(args.find("SCENE"), 5, file.string());
        }
        if (const auto at = args.find("RECORD_DIR"); at != std::string::npos) args.replace(at, 10, dir.string());
        const RunResult r = RunVorton(args);
        EXPECT_EQ(r.exitCode, c.exitCode) << c.label << "\n" << r.output;
        for (const std::string& w : c.words) {
            EXPECT_NE(r.output.find(w), std::string::npos) << c.label << ": '" << w << "' missing from\n" << r.output;
        }
        EXPECT_LT(r.output.size(), 4000u) << c.label << ": the message pastes too much";
    }
}
