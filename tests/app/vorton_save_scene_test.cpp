// Save scene end to end (issue 14, item 3): a run saved with --save-scene and run again from the
// saved file gives the same frames.csv and bodies.csv, bit for bit (wall times aside).

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "exe_util.h"

namespace {

using namespace vorton::test;

std::vector<std::string> Split(const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
    return cells;
}

/// The CSV's rows with the wall-time columns (step_ms, ms_*) left out.
std::vector<std::string> RowsWithoutWallTimes(const fs::path& csv) {
    std::ifstream in(csv);
    std::string line;
    std::vector<std::string> rows;
    if (!std::getline(in, line)) return rows;
    const std::vector<std::string> header = Split(line);
    std::vector<bool> keep;
    for (const std::string& h : header) keep.push_back(h != "step_ms" && h.rfind("ms_", 0) != 0);
    rows.push_back(line);
    while (std::getline(in, line)) {
        const std::vector<std::string> cells = Split(line);
        std::string row;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (i >= keep.size() || keep[i]) row += cells[i] + ",";
        }
        rows.push_back(row);
    }
    return rows;
}

TEST(VortonExe, SavedSceneRunsBitForBitTheSame) {
    const fs::path dir = TempDir("save_scene");
    // Edits by --set (a body's density, the fluid's viscosity, the camera) must be in the file.
    const std::string sets = kSmall + " --set ball.density=1007.3 --set viscosity=0.00041 --set camera.distance=3";
    const fs::path saved = dir / "saved.json";
    const RunResult first = RunVorton("--no-render --scene stratified_ball --frames 20 --threads 2 " + sets +
                                      " --stats " + (dir / "a").string() + " --save-scene " + saved.string());
    ASSERT_EQ(first.exitCode, 0) << first.output;
    ASSERT_TRUE(fs::exists(saved));
    const RunResult second = RunVorton("--no-render --scene " + saved.string() + " --frames 20 --threads 1 --stats " +
                                       (dir / "b").string());
    ASSERT_EQ(second.exitCode, 0) << second.output;
    for (const char* csv : {"frames.csv", "bodies.csv"}) {
        SCOPED_TRACE(csv);
        const auto a = RowsWithoutWallTimes(dir / "a" / csv), b = RowsWithoutWallTimes(dir / "b" / csv);
        ASSERT_EQ(a.size(), 21u);
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << "row " << i;
    }
    // Without the --set, the run differs: the comparison can fail.
    const RunResult plain = RunVorton("--no-render --scene stratified_ball --frames 20 --threads 2 " + kSmall +
                                      " --stats " + (dir / "c").string());
    ASSERT_EQ(plain.exitCode, 0) << plain.output;
    EXPECT_NE(RowsWithoutWallTimes(dir / "a" / "bodies.csv"), RowsWithoutWallTimes(dir / "c" / "bodies.csv"));
    std::ifstream in(saved);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("\"distance\": 3.0"), std::string::npos) << text.str();
}

TEST(VortonExe, SaveSceneCurrentWritesTheBodiesWhereTheRunEnded) {
    const fs::path dir = TempDir("save_scene_current");
    const fs::path saved = dir / "end.json";
    const RunResult run = RunVorton("--no-render --scene falling_ball --frames 10 " + kSmall + " --save-scene " +
                                    saved.string() + " --save-scene-state current");
    ASSERT_EQ(run.exitCode, 0) << run.output;
    const RunResult list = RunVorton("--scene " + saved.string() + " --list-params");
    ASSERT_EQ(list.exitCode, 0) << list.output;
    const RunResult original = RunVorton("--scene falling_ball --list-params");
    // The ball has fallen: its velocity at reset is no longer the scene's.
    auto line = [](const std::string& text, const std::string& key) {
        const auto at = text.find("\n" + key + " ");
        return at == std::string::npos ? std::string() : text.substr(at + 1, text.find('\n', at + 1) - at - 1);
    };
    const std::string before = line(original.output, "ball.velocity"), after = line(list.output, "ball.velocity");
    ASSERT_FALSE(before.empty()) << original.output;
    ASSERT_FALSE(after.empty()) << list.output;
    EXPECT_NE(before, after);
    const RunResult bad = RunVorton("--no-render --scene dye_drop --frames 1 --save-scene-state later --save-scene x.json");
    EXPECT_EQ(bad.exitCode, 2) << bad.output;
    EXPECT_NE(bad.output.find("save-scene-state"), std::string::npos) << bad.output;
}

}  // namespace
