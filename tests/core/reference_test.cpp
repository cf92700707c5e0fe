// The same scenes give the same frames.csv, bit for bit (minus the timing
// columns), and bodies.csv as the committed references in tests/reference/: the guard for
// restructuring the code with "behaviour unchanged" (issue 11). Every scene,
// at small counts, for 60 steps: 12 remeshes, bodies, emitters, layers.
//
// After a change that is meant to change the results, regenerate with
//   VORTON_UPDATE_REFERENCE=1 build/release/bin/vorton_core_tests --gtest_filter='Reference*'
// and say why in the commit.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "app/core/run.h"

#ifndef VORTON_REFERENCE_DIR
#error "VORTON_REFERENCE_DIR must name tests/reference"
#endif

namespace vorton {
namespace {

namespace fs = std::filesystem;

constexpr int kSteps = 60;

std::vector<std::string> SplitCsv(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
    return out;
}

/// frames.csv without its timing columns (step_ms and ms_<stage>), which
/// differ from run to run.
std::string WithoutTimings(const fs::path& csv) {
    std::ifstream in(csv);
    std::string header;
    std::getline(in, header);
    const std::vector<std::string> names = SplitCsv(header);
    std::vector<bool> keep(names.size());
    for (std::size_t c = 0; c < names.size(); ++c) keep[c] = names[c] != "step_ms" && names[c].rfind("ms_", 0) != 0;
    std::string out;
    auto emit = [&](const std::vector<std::string>& cells) {
        std::string row;
        for (std::size_t c = 0; c < cells.size() && c < keep.size(); ++c) {
            if (!keep[c]) continue;
            if (!row.empty()) row += ',';
            row += cells[c];
        }
        out += row + "\n";
    };
    emit(names);
    for (std::string line; std::getline(in, line);) emit(SplitCsv(line));
    return out;
}

class Reference : public ::testing::TestWithParam<const char*> {};

TEST_P(Reference, FramesCsvIsBitwiseTheCommittedOne) {
    const std::string scene = GetParam();
    const fs::path dir = fs::temp_directory_path() / ("vorton_reference_" + std::to_string(::getpid()) + "_" + scene);
    fs::remove_all(dir);
    Options options;
    options.scene = scene;
    options.noRender = true;
    options.frames = kSteps;
    options.threads = 2;
    options.sets = {"vorton_count=800", "tracer_count=4000"};
    options.statsDir = dir.string();
    auto prepared = PrepareScene(options);
    ASSERT_TRUE(prepared.ok()) << prepared.error();
    std::ostringstream log;
    ASSERT_EQ(RunWithoutRendering(options, prepared.value(), log), kExitOk) << log.str();
    // frames.csv (timings out) and bodies.csv (the spheres' motion and forces).
    std::string got = WithoutTimings(dir / "frames.csv");
    {
        std::ifstream bodies(dir / "bodies.csv");
        std::stringstream text;
        text << bodies.rdbuf();
        got += text.str();
    }
    fs::remove_all(dir);

    const fs::path reference = fs::path(VORTON_REFERENCE_DIR) / (scene + ".csv");
    if (const char* update = std::getenv("VORTON_UPDATE_REFERENCE"); update && std::string(update) == "1") {
        std::ofstream(reference) << got;
        GTEST_SKIP() << "wrote " << reference;
    }
    std::ifstream in(reference);
    ASSERT_TRUE(in) << reference << " is missing (VORTON_UPDATE_REFERENCE=1 writes it)";
    std::stringstream want;
    want << in.rdbuf();
    if (got == want.str()) return;
    // Name the first row and column that differ.
    std::stringstream g(got), w(want.str());
    std::string gl, wl, header;
    for (int row = 0; std::getline(w, wl); ++row) {
        if (!std::getline(g, gl)) FAIL() << scene << ": the run has fewer rows than the reference (" << row << ")";
        if (row == 0) header = wl;
        if (gl == wl) continue;
        const auto names = SplitCsv(header), gc = SplitCsv(gl), wc = SplitCsv(wl);
        for (std::size_t c = 0; c < wc.size(); ++c) {
            if (c >= gc.size() || gc[c] != wc[c]) {
                FAIL() << scene << ": row " << row << ", column " << (c < names.size() ? names[c] : "?") << ": got "
                       << (c < gc.size() ? gc[c] : "nothing") << ", reference " << wc[c];
            }
        }
    }
    FAIL() << scene << ": the run has more rows than the reference";
}

INSTANTIATE_TEST_SUITE_P(Scenes, Reference,
                         ::testing::Values("ball_through_smoke", "dye_drop", "falling_ball", "flow_past_ball", "rayleigh_taylor",
                                           "spinning_ball", "stratified_ball", "two_drops", "vortex_ring"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace vorton
