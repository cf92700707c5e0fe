// The first launch as a frame (issue 14, item 1): at 1280x720 the toolbar and the mouse hint
// cover a few per cent of the window and the fluid the rest; the panel waits for "More".

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <stb_image.h>

#include <gtest/gtest.h>

#include "exe_util.h"

namespace {

using namespace vorton::test;

/// Share of the pixels of `a` that differ from `b` (any channel by more than 8), over the
/// rectangle [x0, x1) x [y0, y1) (clipped to the image); -1 when either cannot be read or the
/// sizes differ.
double DifferingShare(const fs::path& a, const fs::path& b, int x0 = 0, int y0 = 0, int x1 = 1 << 20,
                      int y1 = 1 << 20) {
    int wa = 0, ha = 0, wb = 0, hb = 0, n = 0;
    unsigned char* pa = stbi_load(a.c_str(), &wa, &ha, &n, 3);
    unsigned char* pb = stbi_load(b.c_str(), &wb, &hb, &n, 3);
    double share = -1.0;
    if (pa && pb && wa == wb && ha == hb) {
        x1 = std::min(x1, wa);
        y1 = std::min(y1, ha);
        long differing = 0, total = 0;
        for (int y = y0; y < y1; ++y) {
            for (int x = x0; x < x1; ++x) {
                const unsigned char* p = pa + 3 * (y * wa + x);
                const unsigned char* q = pb + 3 * (y * wa + x);
                bool differs = false;
                for (int c = 0; c < 3; ++c) differs |= std::abs(int(p[c]) - int(q[c])) > 8;
                differing += differs ? 1 : 0;
                ++total;
            }
        }
        share = total > 0 ? double(differing) / double(total) : -1.0;
    }
    if (pa) stbi_image_free(pa);
    if (pb) stbi_image_free(pb);
    return share;
}

TEST(VortonExe, FirstLaunchLeavesTheWindowToTheFluid) {
    const fs::path dir = TempDir("first_launch");
    const std::string run = "--headless --scene stratified_ball --frames 2 " + kSmall + " --record ";
    const RunResult bare = RunVorton(run + (dir / "bare").string() + "/");
    ASSERT_EQ(bare.exitCode, 0) << bare.output;
    const RunResult ui = RunVorton(run + (dir / "ui").string() + "/ --record-panel");
    ASSERT_EQ(ui.exitCode, 0) << ui.output;
    const fs::path withoutUi = dir / "bare" / "frame_000002.png", withUi = dir / "ui" / "frame_000002.png";
    const double share = DifferingShare(withUi, withoutUi);
    std::printf("first launch at 1280x720: the interface covers %.1f %% of the window\n", 100.0 * share);
    // The toolbar (~800 x 44 px) and the hint (~610 x 26 px) are ~5.5 % of 1280 x 720; the old
    // first view (panel and timings) covered ~46 %.
    EXPECT_GT(share, 0.02) << "no toolbar drawn";
    EXPECT_LT(share, 0.08) << "the interface covers more than the toolbar and the hint";
    // The toolbar is along the top left, and the view under the rest is left alone.
    EXPECT_GT(DifferingShare(withUi, withoutUi, 10, 6, 800, 46), 0.3);
    EXPECT_LT(DifferingShare(withUi, withoutUi, 0, 60, 1280, 680), 0.01);
    // With the panel open the interface takes a third of the window or more.
    const RunResult panel = RunVorton(run + (dir / "panel").string() + "/ --record-panel --open-panel");
    ASSERT_EQ(panel.exitCode, 0) << panel.output;
    const double panelShare = DifferingShare(dir / "panel" / "frame_000002.png", withoutUi, 10, 60, 450, 700);
    std::printf("panel open: %.1f %% of the panel's rectangle differs from the bare frame\n", 100.0 * panelShare);
    EXPECT_GT(panelShare, 0.5);
}

}  // namespace
