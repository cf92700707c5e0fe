#pragma once
/// \file
/// Saving rendered frames: an MP4 or a GIF through ffmpeg, a PNG sequence, or a single PNG.

#include <sys/types.h>
#include <cstdint>
#include <filesystem>
#include <string>

#include "sim/result.h"

namespace vorton::platform {

/// Writes frames to an MP4 through an `ffmpeg` pipe (path not ending in '/' and not an
/// existing directory; libx264, yuv420p, given fps; odd width/height are padded to even by
/// ffmpeg's pad filter; a path ending in .gif: a looping GIF, at most 25 frames/s and 640 px
/// wide, through ffmpeg's palettegen and paletteuse), or to a PNG sequence `frame_000000.png`, ... when the path is a
/// directory or ends in '/' (created if missing, with parents).
/// Errors (never thrown, never fatal): ffmpeg not found on PATH, directory not
/// creatable/writable, ffmpeg exited (its pipe is written with SIGPIPE blocked for the
/// write, so a dead ffmpeg shows up as a failed write, not a killed process; the
/// process's signal dispositions are left alone), with a message saying why. After an
/// error the recording is over (IsRecording() is false).
class Recorder {
public:
    Recorder() = default;
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;
    ~Recorder();  // Stop() if recording

    /// Starts a recording of width x height pixel frames at fps frames per second.
    /// Error if already recording, the sizes are not positive, or the output can't be created.
    Status Start(const std::filesystem::path& path, int width, int height, int fps);
    /// Appends one frame: width*height*3 bytes of RGB8, top row first.
    Status AddFrame(const std::uint8_t* rgbTopDown);
    /// Ends the recording: closes the pipe, waits for ffmpeg and reports its non-zero exit.
    /// Ok (and a no-op) when not recording.
    Status Stop();
    bool IsRecording() const { return m_recording; }
    /// Frames written since Start().
    int FrameCount() const { return m_frameCount; }
    /// Output file or directory of the current / last recording.
    const std::filesystem::path& Path() const { return m_path; }

private:
    Status StartFfmpeg(int fps);
    /// Reaps ffmpeg and returns why it failed (or Ok if it exited with 0).
    Status WaitForFfmpeg();

    bool m_recording = false;
    bool m_pngSequence = false;
    std::filesystem::path m_path;
    std::filesystem::path m_ffmpegLog;  // ffmpeg's stderr, quoted in error messages
    int m_width = 0;
    int m_height = 0;
    int m_frameCount = 0;
    int m_pipe = -1;  // write end of ffmpeg's stdin
    pid_t m_ffmpeg = -1;
};

/// Writes an RGB8 top-down image as PNG (stb_image_write). Error names the path.
Status WritePng(const std::filesystem::path& path, int width, int height,
                const std::uint8_t* rgbTopDown);

}  // namespace vorton::platform
