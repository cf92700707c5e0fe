// End-to-end frames: the real `vorton` executable's PNGs and MP4s (what the
// camera frames, the drop sinking, one video frame per step, SIGTERM mid-video).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "exe_util.h"

namespace {

using namespace vorton::test;

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


TEST(VortonExe, HeadlessPngsShowTheBlueDropSinking) {
    // 2 s of the dye drop (40 steps of 0.05 s) at 320x240: the first frame
    // shows a blue blob above the camera target (the drop starts 0.8 m above
    // it), and the blob's centroid moves down the image as the drop sinks
    // (about (2/3)·g·δρ/ρ₀·t²/2 ≈ 0.4 m, tens of pixels at this zoom).
    // The scene's own fixed camera (no framing, no following), so the image shows the motion.
    const fs::path dir = TempDir("pngs");
    const RunResult r = RunVorton("--headless --frames 40 --size 320x240 --set dt=0.05 " + kSmall +
                                  " --set camera.fit=false --set camera.follow=false --record " + dir.string() + "/");
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

/// Rows [first, last] of an image holding anything but the backdrop, a vertical gradient: a
/// pixel counts when it differs by more than 24 (summed over RGB) from its row's left edge.
std::pair<int, int> DrawnRows(const fs::path& png, int* height) {
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load(png.c_str(), &w, &h, &n, 3);
    *height = h;
    int first = -1, last = -1;
    if (!data) return {first, last};
    for (int y = 0; y < h; ++y) {
        const unsigned char* edge = data + 3 * (y * w);
        int differing = 0;
        for (int x = 0; x < w; ++x) {
            const unsigned char* p = data + 3 * (y * w + x);
            if (std::abs(p[0] - edge[0]) + std::abs(p[1] - edge[1]) + std::abs(p[2] - edge[2]) > 24) ++differing;
        }
        if (differing >= 3) {  // a row with a few stray tracers is not yet the dye
            if (first < 0) first = y;
            last = y;
        }
    }
    stbi_image_free(data);
    return {first, last};
}

TEST(VortonExe, FirstFrameOfEverySceneFramesTheDyeAndBodies) {
    // Issue 13: the dye covered 1 % of the frame. On load the camera aims at the dye and bodies
    // and backs off until they span 0.6 of the frame's height or 0.8 of its width, whichever
    // is tighter; the issue asks for at least a third of the height. Without the framing
    // (camera.fit=false) dye_drop spans 0.14 of the height and vortex_ring 0.19. The floor is
    // off: it is context, not the subject, and would fill the bottom rows.
    const RunResult list = RunVorton("--list-scenes");
    ASSERT_EQ(list.exitCode, 0);
    std::istringstream names(list.output);
    int scenes = 0;
    for (std::string scene; names >> scene;) {
        const fs::path dir = TempDir("frame_" + scene);
        const RunResult r = RunVorton("--headless --scene " + scene + " --frames 1 --size 320x180 " + kSmall +
                                      " --set display.floor=false --record " + dir.string() + "/");
        ASSERT_EQ(r.exitCode, 0) << scene << ": " << r.output;
        int height = 0;
        const auto [first, last] = DrawnRows(dir / "frame_000000.png", &height);
        ASSERT_GE(first, 0) << scene << ": nothing drawn";
        const double span = double(last - first + 1) / double(height);
        EXPECT_GT(span, 1.0 / 3.0) << span << " " << scene << " spans rows " << first << ".." << last << " of " << height;
        EXPECT_GT(first, 0) << scene << " is cut off at the top";
        EXPECT_LT(last, height - 1) << scene << " is cut off at the bottom";
        ++scenes;
    }
    EXPECT_GE(scenes, 8);
}

/// Luminance (Rec. 709 weights on the 0..255 sRGB values) of the blue pixels of an image, by row.
struct DyeRows {
    int width = 0, height = 0;
    std::vector<std::vector<double>> luminance;  // per row, of its blue pixels
    int first = -1, last = -1;                    // rows with blue pixels
};
DyeRows BlueRows(const fs::path& png) {
    DyeRows rows;
    int n = 0;
    unsigned char* data = stbi_load(png.c_str(), &rows.width, &rows.height, &n, 3);
    if (!data) return rows;
    rows.luminance.resize(std::size_t(rows.height));
    for (int y = 0; y < rows.height; ++y) {
        for (int x = 0; x < rows.width; ++x) {
            const unsigned char* p = data + 3 * (y * rows.width + x);
            if (p[2] > 60 && p[2] > p[0] + 30 && p[2] > p[1] + 10) {
                rows.luminance[std::size_t(y)].push_back(0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]);
                if (rows.first < 0) rows.first = y;
                rows.last = y;
            }
        }
    }
    stbi_image_free(data);
    return rows;
}

double MeanOverRows(const DyeRows& rows, int from, int to) {
    double sum = 0.0;
    std::size_t count = 0;
    for (int y = from; y <= to; ++y) {
        for (double l : rows.luminance[std::size_t(y)]) sum += l;
        count += rows.luminance[std::size_t(y)].size();
    }
    return count > 0 ? sum / double(count) : 0.0;
}

TEST(VortonExe, ShotsShowTheDyeShadedAndFramed) {
    // --shots writes the listed steps and no others, and stops after the last. The drop at step
    // 40 (0.8 s) is drawn as a volume lit from above (the key light 55 degrees up, the sky):
    // the top third of its rows must be brighter than the bottom third, which the dye shadows.
    // Measured 1.66x (1.57x lit by the sky alone); the flat sprites drawn before issue 13
    // measured 1.10x. It must also span more than a third of the frame without touching its
    // edges.
    const fs::path dir = TempDir("shots");
    const RunResult r = RunVorton("--headless --scene dye_drop --size 320x180 " + kSmall +
                                  " --shots 0,40 --screenshot-dir " + dir.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    int files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
    EXPECT_EQ(files, 2);
    ASSERT_TRUE(fs::exists(dir / "vorton_dye_drop_000000.png"));
    const fs::path shot = dir / "vorton_dye_drop_000040.png";
    ASSERT_TRUE(fs::exists(shot)) << r.output;
    const DyeRows rows = BlueRows(shot);
    ASSERT_GE(rows.first, 0) << "no dye in the shot";
    const int span = rows.last - rows.first + 1;
    EXPECT_GT(double(span) / rows.height, 1.0 / 3.0) << rows.first << ".." << rows.last;
    EXPECT_GT(rows.first, 0);
    EXPECT_LT(rows.last, rows.height - 1);
    const double top = MeanOverRows(rows, rows.first, rows.first + span / 3);
    const double bottom = MeanOverRows(rows, rows.last - span / 3, rows.last);
    EXPECT_GT(top, 1.4 * bottom) << "top " << top << " bottom " << bottom << ": the dye looks flat";
}

TEST(VortonExe, GpuTracersDrawTheSameFramesAsTheCpus) {
    // --gpu-tracers (issue 15): the tracers move on the GPU (Mesa's llvmpipe here, which has
    // OpenGL 4.5 compute shaders) by the CPU's arithmetic, so the PNG of a stratified ball
    // scene after 60 steps (its sphere pushes tracers back out) is the CPU run's, byte for
    // byte, and shows the dye: as a volume (from the positions read back) and as particles
    // (drawn from the GPU's buffer). A scene whose emitter recycles tracers (flow_past_ball)
    // stays on the CPU and is drawn the same too.
    struct Case {
        std::string scene, style;
    };
    const fs::path root = TempDir("gpu_tracers");
    for (const Case& c : {Case{"stratified_ball", "volume"}, Case{"stratified_ball", "particles"},
                          Case{"flow_past_ball", "volume"}}) {
        std::vector<std::vector<char>> pngs;
        for (const std::string flag : {" --cpu-tracers", " --gpu-tracers"}) {
            const fs::path dir = root / (c.scene + "_" + c.style + flag.substr(3, 3));
            const RunResult r = RunVorton("--headless --scene " + c.scene + " --size 320x180 " + kSmall +
                                          " --set display.dye=" + c.style + " --shots 60 --screenshot-dir " +
                                          dir.string() + flag);
            ASSERT_EQ(r.exitCode, 0) << r.output;
            const bool moved = r.output.find("tracers moved on the GPU") != std::string::npos;
            EXPECT_EQ(moved, flag == " --gpu-tracers" && c.scene == "stratified_ball") << r.output;
            const fs::path shot = dir / ("vorton_" + c.scene + "_000060.png");
            ASSERT_TRUE(fs::exists(shot)) << r.output;
            std::ifstream file(shot, std::ios::binary);
            pngs.emplace_back(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
            if (c.scene == "stratified_ball") {
                EXPECT_GE(BlueRows(shot).first, 0) << "no blue dye in " << shot;
            }
        }
        EXPECT_TRUE(pngs[0] == pngs[1]) << c.scene << ", " << c.style << ": the GPU's frame differs from the CPU's";
    }
}

/// Mean image row of clearly red and of clearly blue pixels (-1 when none).
std::pair<double, double> RedAndBlueRows(const fs::path& png) {
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load(png.c_str(), &w, &h, &n, 3);
    double red = 0.0, blue = 0.0, reds = 0.0, blues = 0.0;
    for (int y = 0; data && y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            const unsigned char* p = data + 3 * (y * w + x);
            if (p[0] > 120 && p[0] > p[2] + 60) red += y, reds += 1.0;
            if (p[2] > 120 && p[2] > p[0] + 60) blue += y, blues += 1.0;
        }
    }
    if (data) stbi_image_free(data);
    return {reds > 50.0 ? red / reds : -1.0, blues > 50.0 ? blue / blues : -1.0};
}

TEST(VortonExe, ColourByDensityShowsHeavyRedAndLightBlue) {
    // two_drops dyes its heavy upper drop blue and its light lower drop red; coloured by
    // density deviation (issue 13, item 7) heavy is red and light is blue, so the colours swap.
    const fs::path dir = TempDir("colour");
    for (const char* colour : {"dye", "density"}) {
        const RunResult r = RunVorton(std::string("--headless --scene two_drops --size 320x180 ") + kSmall +
                                      " --shots 0 --screenshot-dir " + (dir / colour).string() +
                                      " --set display.colour=" + colour);
        ASSERT_EQ(r.exitCode, 0) << r.output;
    }
    const auto [dyeRed, dyeBlue] = RedAndBlueRows(dir / "dye" / "vorton_two_drops_000000.png");
    const auto [densityRed, densityBlue] = RedAndBlueRows(dir / "density" / "vorton_two_drops_000000.png");
    ASSERT_GE(std::min({dyeRed, dyeBlue, densityRed, densityBlue}), 0.0) << "both drops should show";
    EXPECT_LT(dyeBlue, dyeRed) << "dye colours: the heavy blue drop is above";
    EXPECT_LT(densityRed, densityBlue) << "by density: the heavy drop above is red";
}

TEST(VortonExe, FollowKeepsTheSinkingDropInTheMiddleThird) {
    // dye_drop follows its dye: after 4 s (the drop has sunk about 0.9 m, several of its
    // diameters) its blue centroid is still in the middle third of the frame, where with the
    // fixed camera it has left that third (HeadlessPngsShowTheBlueDropSinking).
    const fs::path dir = TempDir("follow");
    const RunResult r = RunVorton("--headless --frames 80 --size 320x240 --set dt=0.05 " + kSmall + " --record " +
                                  dir.string() + "/");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const BlueBlob last = FindBlue(dir / "frame_000080.png");
    ASSERT_GT(last.count, 300.0);
    EXPECT_GT(last.y, 80.0);
    EXPECT_LT(last.y, 160.0);
}

TEST(VortonExe, FollowFramesTheFallingBallNotItsWholeWake) {
    // falling_ball frames the ball and the dye within a quarter radius of it (camera.frame_bodies),
    // not the whole dye box, which holds a wake growing as long as the ball's fall. After 3 s
    // (1.5 m of fall) the ball must span at least a third of the frame's height (measured
    // 0.38); framing all the dye (frame_bodies=0) it spans less (measured 0.09). The dye is made
    // clear (extinction 0) so that the drawn rows are the ball's.
    const fs::path dir = TempDir("falling_ball");
    double spans[2] = {0.0, 0.0};
    for (const int margin : {0, 1}) {
        const fs::path shots = dir / std::to_string(margin);
        const std::string frame = margin == 0 ? " --set camera.frame_bodies=0" : "";
        const RunResult r = RunVorton("--headless --scene falling_ball --size 320x180 " + kSmall + frame +
                                      " --set display.floor=false --set display.dye_extinction=0 --shots 150"
                                      " --screenshot-dir " + shots.string());
        ASSERT_EQ(r.exitCode, 0) << r.output;
        int height = 0;
        const auto [first, last] = DrawnRows(shots / "vorton_falling_ball_000150.png", &height);
        ASSERT_GE(first, 0) << "nothing drawn";
        EXPECT_GT(first, 0) << "the ball is cut off at the top";
        EXPECT_LT(last, height - 1) << "the ball is cut off at the bottom";
        spans[margin] = double(last - first + 1) / double(height);
    }
    EXPECT_GT(spans[1], 1.0 / 3.0) << "the ball, framed with the dye near it";
    EXPECT_LT(spans[0], 1.0 / 3.0) << "the ball, framed with all the dye";
}

TEST(VortonExe, BallThroughSmokeKeepsItsBallInView) {
    // ball_through_smoke's ball coasts 4 m in 6 s. The scene's fixed view (aimed at x 0.5 m from
    // 3.2 m) lost it after about 4 s; follow keeps the sheet and the ball framed. At 6 s (step
    // 300) the ball must be drawn whole, away from the frame's edges (measured: 169 orange pixels,
    // 18 across, centred at (269, 105) of 320x180; none with camera.follow=false).
    // The dye is made clear and the floor hidden, so the orange pixels are the ball's.
    const fs::path dir = TempDir("ball_through_smoke");
    const RunResult r = RunVorton("--headless --scene ball_through_smoke --size 320x180 " + kSmall +
                                  " --set display.floor=false --set display.dye_extinction=0 --shots 300"
                                  " --screenshot-dir " + dir.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load((dir / "vorton_ball_through_smoke_000300.png").c_str(), &w, &h, &n, 3);
    ASSERT_NE(data, nullptr);
    int count = 0, left = w, right = -1, top = h, bottom = -1;
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            const unsigned char* p = data + 3 * (y * w + x);
            if (p[0] > 100 && p[0] > p[2] + 50) {  // the ball's orange (0.95, 0.55, 0.2), lit or shaded
                ++count;
                left = std::min(left, x), right = std::max(right, x);
                top = std::min(top, y), bottom = std::max(bottom, y);
            }
        }
    }
    stbi_image_free(data);
    EXPECT_GT(count, 50) << "the ball should be in view";
    EXPECT_GT(left, 0);
    EXPECT_LT(right, w - 1);
    EXPECT_GT(top, 0);
    EXPECT_LT(bottom, h - 1);
}

/// Height in pixels of the toolbar's Rec button (its idle dark red, (0.45, 0.12, 0.12)) in a
/// headless frame of vortex_ring with the toolbar drawn at `scale`; -1 if it is not found.
int RecButtonHeight(const std::string& scale) {
    const fs::path dir = TempDir("ui_scale_" + scale);
    const RunResult r = RunVorton("--headless --scene vortex_ring --size 960x540 " + kSmall +
                                  " --record-panel --ui-scale " + scale + " --shots 0 --screenshot-dir " +
                                  dir.string());
    EXPECT_EQ(r.exitCode, 0) << r.output;
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load((dir / "vorton_vortex_ring_000000.png").c_str(), &w, &h, &n, 3);
    if (!data) return -1;
    int top = h, bottom = -1;
    for (int y = 0; y < h / 3; ++y) {
        for (int x = 0; x < w; ++x) {
            const unsigned char* p = data + 3 * (y * w + x);
            if (p[0] > 95 && p[0] < 135 && p[1] < 50 && p[2] < 50) top = std::min(top, y), bottom = std::max(bottom, y);
        }
    }
    stbi_image_free(data);
    return bottom >= top ? bottom - top + 1 : -1;
}

TEST(VortonExe, UiScaleEnlargesTheToolbarForBigScreens) {
    // --ui-scale 2 (what a 4K screen's desktop asks for) draws the toolbar twice as large: the
    // font at 32 px and the style's paddings doubled. Measured: the Rec button 24 and 48 px tall
    // at scales 1 and 2; 1.8-2.2 allows for the font's rounding to whole pixels.
    const int one = RecButtonHeight("1"), two = RecButtonHeight("2");
    std::printf("the Rec button: %d px tall at --ui-scale 1, %d px at 2\n", one, two);
    ASSERT_GT(one, 10) << "the Rec button should show at scale 1";
    EXPECT_GT(double(two) / one, 1.8) << one << " px, then " << two << " px";
    EXPECT_LT(double(two) / one, 2.2) << one << " px, then " << two << " px";
}

TEST(VortonExe, FloorRecedesUnderDyeThatSinksToIt) {
    // The fluid has no bottom, so dye_drop's drop sank through its floor at about 35 s and the
    // camera, following it, looked at dye in a void from then on (two_drops' heavy drop, with the
    // camera framing both drops, vanished under it). With the floor 0.3 m below the drop, at step
    // 400 (8 s) the drop has sunk past where the floor was placed: the floor must still be under
    // it. Measured: grey floor pixels fill 23,338 of the lower half's 28,800 (81 %); with
    // display.floor_recedes=false, none.
    const fs::path dir = TempDir("floor_recedes");
    const RunResult r = RunVorton("--headless --scene dye_drop --size 320x180 " + kSmall +
                                  " --set display.floor_depth=0.3 --shots 400 --screenshot-dir " + dir.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load((dir / "vorton_dye_drop_000400.png").c_str(), &w, &h, &n, 3);
    ASSERT_NE(data, nullptr);
    int floor = 0;
    for (int y = h / 2; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            const unsigned char* p = data + 3 * (y * w + x);
            if (p[0] > 70 && std::abs(p[0] - p[1]) < 14 && std::abs(p[1] - p[2]) < 14) ++floor;  // lit grey
        }
    }
    stbi_image_free(data);
    EXPECT_GT(floor, w * (h - h / 2) / 2) << "the floor should be drawn under the sunk drop";
    EXPECT_GT(FindBlue(dir / "vorton_dye_drop_000400.png").count, 1000) << "the drop should be in view";
}

/// Frames in a video as ffprobe decodes them (0 if it cannot).
int DecodedFrames(const fs::path& video) {
    FILE* pipe = popen(("ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames "
                        "-of csv=p=0 '" + video.string() + "' 2>&1").c_str(), "r");
    if (!pipe) return 0;
    char buffer[256] = {};
    if (!std::fgets(buffer, sizeof buffer, pipe)) buffer[0] = 0;
    pclose(pipe);
    return std::atoi(buffer);
}

TEST(VortonExe, Mp4HasOneFramePerStepPlusTheFirst) {
    const fs::path dir = TempDir("mp4");
    const fs::path video = dir / "drop.mp4";
    const RunResult r = RunVorton("--headless --frames 12 --size 160x120 " + kSmall + " --record " + video.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(DecodedFrames(video), 13);
}

TEST(VortonExe, GifIsALoopingGifWithAFramePerStepAtMost640Wide) {
    // Issue 14, item 7: GIF as well as MP4. At 25 frames/s (dt = 0.04 s) nothing is dropped.
    const fs::path dir = TempDir("gif");
    const fs::path gif = dir / "drop.gif";
    const RunResult r =
        RunVorton("--headless --frames 8 --size 800x200 --set dt=0.04 " + kSmall + " --record " + gif.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    std::ifstream in(gif, std::ios::binary);
    char magic[6] = {};
    in.read(magic, 6);
    EXPECT_EQ(std::string(magic, 6), "GIF89a");
    // The logical screen width (little-endian, bytes 6-7): scaled down to 640.
    unsigned char size[2] = {};
    in.read(reinterpret_cast<char*>(size), 2);
    EXPECT_EQ(size[0] | (size[1] << 8), 640);
    EXPECT_EQ(DecodedFrames(gif), 9);
}

TEST(VortonExe, SigtermMidRecordingFinishesTheVideo) {
    // `timeout` sends SIGTERM after 4 s of a run that would take minutes: the
    // run ends at a step boundary, ffmpeg is closed and waited for, so the
    // MP4 is complete and holds every frame the message counts.
    const fs::path dir = TempDir("sigterm");
    const fs::path video = dir / "drop.mp4";
    const RunResult r = RunVorton("--headless --frames 100000 --size 160x120 " + kSmall + " --record " + video.string(),
                                  "timeout --preserve-status -s TERM 4");
    EXPECT_EQ(r.exitCode, 128 + 15) << r.output;
    EXPECT_NE(r.output.find("stopped by signal 15"), std::string::npos) << r.output;
    const auto at = r.output.find("recorded ");
    ASSERT_NE(at, std::string::npos) << r.output;
    const int recorded = std::atoi(r.output.c_str() + at + 9);
    EXPECT_GT(recorded, 1) << r.output;
    EXPECT_EQ(DecodedFrames(video), recorded) << r.output;
}


}  // namespace
