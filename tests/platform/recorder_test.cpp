// Recorder and WritePng against the real ffmpeg / file system.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/platform/recorder.h"

namespace vorton {
namespace {

namespace fs = std::filesystem;
using platform::Recorder;

// A fresh directory per test (ctest runs tests in parallel processes).
class RecorderTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_dir = fs::temp_directory_path() /
                ("vorton_recorder_" + std::to_string(::getpid()) + "_" + info->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    static std::vector<std::uint8_t> Frame(int width, int height, int index) {
        std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width) * height * 3);
        for (std::size_t i = 0; i < rgb.size(); ++i)
            rgb[i] = static_cast<std::uint8_t>(i + index * 40);
        return rgb;
    }

    fs::path m_dir;
};

// Reads width and height from a PNG's IHDR chunk; {0, 0} if the file is not a PNG.
std::array<std::uint32_t, 2> PngSize(const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::array<unsigned char, 24> header{};
    file.read(reinterpret_cast<char*>(header.data()), header.size());
    const std::array<unsigned char, 8> signature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (!file || !std::equal(signature.begin(), signature.end(), header.begin()) ||
        std::string(header.begin() + 12, header.begin() + 16) != "IHDR") {
        return {0, 0};
    }
    const auto be32 = [&](int at) {
        return (std::uint32_t{header[at]} << 24) | (std::uint32_t{header[at + 1]} << 16) |
               (std::uint32_t{header[at + 2]} << 8) | std::uint32_t{header[at + 3]};
    };
    return {be32(16), be32(20)};
}

std::string RunCommand(const std::string& command) {
    std::string output;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return output;
    std::array<char, 256> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) output += buffer.data();
    ::pclose(pipe);
    while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
    return output;
}

TEST_F(RecorderTest, PngSequenceIntoNewDirectory) {
    constexpr int kWidth = 33;  // odd sizes are fine for PNG
    constexpr int kHeight = 17;
    const fs::path dir = m_dir / "nested" / "frames";
    Recorder recorder;
    auto started = recorder.Start(dir.string() + "/", kWidth, kHeight, 30);
    ASSERT_TRUE(started.ok()) << started.error();
    EXPECT_TRUE(recorder.IsRecording());
    for (int i = 0; i < 4; ++i) {
        auto added = recorder.AddFrame(Frame(kWidth, kHeight, i).data());
        ASSERT_TRUE(added.ok()) << added.error();
    }
    EXPECT_EQ(recorder.FrameCount(), 4);
    ASSERT_TRUE(recorder.Stop().ok());
    EXPECT_FALSE(recorder.IsRecording());

    int files = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        ++files;
        EXPECT_EQ(PngSize(entry.path()), (std::array<std::uint32_t, 2>{kWidth, kHeight}))
            << entry.path();
    }
    EXPECT_EQ(files, 4);
    EXPECT_TRUE(fs::exists(dir / "frame_000000.png"));
    EXPECT_TRUE(fs::exists(dir / "frame_000003.png"));
}

TEST_F(RecorderTest, ExistingDirectoryWithoutSlashIsPngMode) {
    Recorder recorder;
    ASSERT_TRUE(recorder.Start(m_dir, 8, 8, 30).ok());
    ASSERT_TRUE(recorder.AddFrame(Frame(8, 8, 0).data()).ok());
    ASSERT_TRUE(recorder.Stop().ok());
    EXPECT_EQ(PngSize(m_dir / "frame_000000.png"), (std::array<std::uint32_t, 2>{8, 8}));
}

TEST_F(RecorderTest, Mp4HasEveryFrame) {
    const fs::path video = m_dir / "sub" / "clip.mp4";  // parent created on demand
    Recorder recorder;
    auto started = recorder.Start(video, 64, 48, 30);
    ASSERT_TRUE(started.ok()) << started.error();
    for (int i = 0; i < 5; ++i) {
        auto added = recorder.AddFrame(Frame(64, 48, i).data());
        ASSERT_TRUE(added.ok()) << added.error();
    }
    auto stopped = recorder.Stop();
    ASSERT_TRUE(stopped.ok()) << stopped.error();
    EXPECT_EQ(recorder.FrameCount(), 5);
    ASSERT_TRUE(fs::exists(video));
    EXPECT_EQ(RunCommand("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                         "stream=nb_read_frames -of csv=p=0 '" +
                         video.string() + "'"),
              "5");
}

TEST_F(RecorderTest, Mp4OddSizeIsPaddedToEven) {
    const fs::path video = m_dir / "odd.mp4";
    Recorder recorder;
    ASSERT_TRUE(recorder.Start(video, 65, 49, 24).ok());
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(recorder.AddFrame(Frame(65, 49, i).data()).ok());
    auto stopped = recorder.Stop();
    ASSERT_TRUE(stopped.ok()) << stopped.error();
    EXPECT_EQ(RunCommand("ffprobe -v error -select_streams v:0 -show_entries stream=width,height "
                         "-of csv=p=0 '" +
                         video.string() + "'"),
              "66,50");
}

TEST_F(RecorderTest, UnwritablePathsAreErrors) {
    const fs::path regularFile = m_dir / "plain.txt";
    std::ofstream(regularFile) << "not a directory";
    const fs::path bad[] = {"/proc/forbidden/x.mp4", regularFile / "x.mp4",
                            regularFile / "frames/"};
    for (const auto& path : bad) {
        Recorder recorder;
        auto started = recorder.Start(path, 64, 48, 30);
        ASSERT_FALSE(started.ok()) << path;
        EXPECT_FALSE(started.error().empty());
        EXPECT_FALSE(recorder.IsRecording());
        EXPECT_FALSE(recorder.AddFrame(Frame(64, 48, 0).data()).ok());
    }
}

TEST_F(RecorderTest, WritePngNamesPathOnFailure) {
    const std::vector<std::uint8_t> pixel(3, 255);
    auto written = platform::WritePng("/nonexistent_dir/x.png", 1, 1, pixel.data());
    ASSERT_FALSE(written.ok());
    EXPECT_NE(written.error().find("/nonexistent_dir/x.png"), std::string::npos);
    ASSERT_TRUE(platform::WritePng(m_dir / "one.png", 1, 1, pixel.data()).ok());
    EXPECT_EQ(PngSize(m_dir / "one.png"), (std::array<std::uint32_t, 2>{1, 1}));
}

// Swaps PATH for the test's lifetime.
class ScopedPath {
public:
    explicit ScopedPath(const std::string& value) {
        const char* old = std::getenv("PATH");
        m_old = old != nullptr ? old : "";
        ::setenv("PATH", value.c_str(), 1);
    }
    ~ScopedPath() { ::setenv("PATH", m_old.c_str(), 1); }

private:
    std::string m_old;
};

TEST_F(RecorderTest, MissingFfmpegIsAnError) {
    ScopedPath path(m_dir.string());  // holds no ffmpeg
    Recorder recorder;
    auto started = recorder.Start(m_dir / "x.mp4", 64, 48, 30);
    ASSERT_FALSE(started.ok());
    EXPECT_NE(started.error().find("ffmpeg"), std::string::npos) << started.error();
    EXPECT_FALSE(recorder.IsRecording());
}

TEST_F(RecorderTest, FfmpegDyingEarlyIsReportedNotFatal) {
    const fs::path fake = m_dir / "ffmpeg";
    std::ofstream(fake) << "#!/bin/sh\necho 'fake encoder gave up' >&2\nexit 3\n";
    fs::permissions(fake, fs::perms::owner_all);
    ScopedPath path(m_dir.string());

    Recorder recorder;
    auto started = recorder.Start(m_dir / "x.mp4", 64, 48, 30);
    ASSERT_TRUE(started.ok()) << started.error();
    std::string error;
    // The pipe buffers a few frames before the dead reader is noticed; keep writing until then.
    for (int i = 0; i < 200 && error.empty(); ++i) {
        ::usleep(2000);
        auto added = recorder.AddFrame(Frame(64, 48, i).data());
        if (!added.ok()) error = added.error();
    }
    if (error.empty()) {
        auto stopped = recorder.Stop();
        ASSERT_FALSE(stopped.ok());
        error = stopped.error();
    }
    EXPECT_FALSE(recorder.IsRecording());
    EXPECT_NE(error.find("code 3"), std::string::npos) << error;
    EXPECT_NE(error.find("fake encoder gave up"), std::string::npos) << error;
}

}  // namespace
}  // namespace vorton
