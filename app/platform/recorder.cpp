#include "app/platform/recorder.h"

#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

extern char** environ;

namespace vorton::platform {
namespace {

/// write(2) to a pipe whose reader may have died, without the SIGPIPE that
/// would end the process: the signal is blocked in this thread for the write
/// and, if the write raised it (EPIPE), taken off the pending set. The
/// process's own SIGPIPE disposition is left as the application set it.
ssize_t WriteWithoutSigpipe(int fd, const void* data, std::size_t size) {
    sigset_t pipeSignal, previous;
    sigemptyset(&pipeSignal);
    sigaddset(&pipeSignal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous);
    const ssize_t n = ::write(fd, data, size);
    const int error = errno;
    if (n < 0 && error == EPIPE) {
        const timespec now{0, 0};
        while (sigtimedwait(&pipeSignal, nullptr, &now) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    errno = error;
    return n;
}


namespace fs = std::filesystem;

std::string Quoted(const fs::path& path) {
    // Built by appending: GCC 12 gives a bogus -Wrestrict for "'" + std::string&&.
    std::string quoted(1, '\'');
    quoted += path.string();
    quoted += '\'';
    return quoted;
}

// The first executable regular file called `name` in a directory listed in $PATH.
fs::path FindOnPath(const std::string& name) {
    const char* pathVariable = std::getenv("PATH");
    std::string_view rest = pathVariable != nullptr ? pathVariable : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
        const std::size_t end = rest.find(':');
        const std::string_view dir = rest.substr(0, end);
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
        std::error_code error;
        if (fs::is_regular_file(candidate, error) && ::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
        if (end == std::string_view::npos) return {};
        rest.remove_prefix(end + 1);
    }
}

// The last few lines of ffmpeg's stderr: enough to say why it failed without a wall of text.
std::string LogTail(const fs::path& log) {
    std::ifstream file(log);
    std::vector<std::string> lines;
    for (std::string line; std::getline(file, line);) {
        if (!line.empty()) lines.push_back(line);
    }
    std::string tail;
    const std::size_t first = lines.size() > 3 ? lines.size() - 3 : 0;
    for (std::size_t i = first; i < lines.size(); ++i)
        tail += (tail.empty() ? "" : " | ") + lines[i];
    return tail;
}

Status EnsureWritableDirectory(const fs::path& dir) {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) return Error{"Cannot create directory " + Quoted(dir) + ": " + error.message()};
    if (!fs::is_directory(dir, error)) return Error{Quoted(dir) + " is not a directory"};
    if (::access(dir.c_str(), W_OK) != 0) {
        return Error{"Directory " + Quoted(dir) + " is not writable: " + std::strerror(errno)};
    }
    return Ok{};
}

}  // namespace

Recorder::~Recorder() {
    Stop();
}

Status Recorder::Start(const fs::path& path, int width, int height, int fps) {
    if (m_recording) return Error{"Already recording to " + Quoted(m_path)};
    if (width <= 0 || height <= 0 || fps <= 0) {
        return Error{"Recording needs a positive size and frame rate, got " +
                     std::to_string(width) + "x" + std::to_string(height) + " at " +
                     std::to_string(fps) + " fps"};
    }
    if (path.empty()) return Error{"Recording path is empty"};
    std::error_code error;
    const std::string text = path.string();
    m_pngSequence = text.back() == '/' || fs::is_directory(path, error);
    m_path = path;
    m_width = width;
    m_height = height;
    m_frameCount = 0;

    if (m_pngSequence) {
        if (auto ok = EnsureWritableDirectory(path); !ok) return ok;
        m_recording = true;
        return Ok{};
    }
    const fs::path absolute = fs::absolute(path, error);
    if (error)
        return Error{"Cannot resolve recording path " + Quoted(path) + ": " + error.message()};
    if (auto ok = EnsureWritableDirectory(absolute.parent_path()); !ok) return ok;
    // Open the file ourselves first so a bad path fails here, not later inside ffmpeg.
    const bool existed = fs::exists(absolute, error);
    {
        std::ofstream probe(absolute, std::ios::binary | std::ios::app);
        if (!probe) {
            return Error{"Cannot write video file " + Quoted(path) + ": " + std::strerror(errno)};
        }
    }
    if (!existed) fs::remove(absolute, error);
    m_path = absolute;
    return StartFfmpeg(fps);
}

Status Recorder::StartFfmpeg(int fps) {
    const fs::path ffmpeg = FindOnPath("ffmpeg");
    if (ffmpeg.empty()) {
        return Error{"Cannot record " + Quoted(m_path) +
                     ": ffmpeg was not found on PATH (install it, e.g. apt-get install ffmpeg, or "
                     "record to a directory to get PNG frames)"};
    }
    std::string logTemplate = (fs::temp_directory_path() / "vorton-ffmpeg-XXXXXX").string();
    const int logFd = ::mkostemp(logTemplate.data(), O_CLOEXEC);
    if (logFd < 0)
        return Error{std::string("Cannot create ffmpeg log file: ") + std::strerror(errno)};
    m_ffmpegLog = logTemplate;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        ::close(logFd);
        return Error{std::string("Cannot create a pipe to ffmpeg: ") + std::strerror(errno)};
    }

    const std::string size = std::to_string(m_width) + "x" + std::to_string(m_height);
    // "file:" stops ffmpeg reading a ':' in the path as a protocol name.
    // clang-format off
    std::vector<std::string> args = {
        ffmpeg.string(), "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
        "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size, "-r", std::to_string(fps),
        "-i", "pipe:0"};
    if (m_path.extension() == ".gif") {
        // A GIF: at most 25 frames/s (GIF delays are in 1/100 s) and 640 px wide, one palette
        // made for the whole clip (palettegen) and applied with ordered dithering (paletteuse).
        const std::string gifFps = std::to_string(std::min(fps, 25));
        args.insert(args.end(), {
            "-vf", "fps=" + gifFps + ",scale='min(640,iw)':-1:flags=lanczos,split[a][b];"
                   "[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=4",
            "-loop", "0", "file:" + m_path.string()});
    } else {
        args.insert(args.end(), {
            "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2",  // yuv420p needs even sizes
            "-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p",
            "-movflags", "+faststart", "file:" + m_path.string()});
    }
    // clang-format on
    std::vector<char*> argv;
    for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, logFd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, logFd, STDERR_FILENO);
    // ffmpeg gets its own process group: a Ctrl-C at the terminal goes to
    // vorton alone, which then ends the stream and waits for a complete file.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    const int spawnError =
        ::posix_spawn(&m_ffmpeg, ffmpeg.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[0]);
    ::close(logFd);
    if (spawnError != 0) {
        ::close(fds[1]);
        m_ffmpeg = -1;
        return Error{"Cannot start " + ffmpeg.string() + ": " + std::strerror(spawnError)};
    }
    m_pipe = fds[1];
    m_recording = true;
    return Ok{};
}

Status Recorder::AddFrame(const std::uint8_t* rgbTopDown) {
    if (!m_recording) return Error{"AddFrame called while not recording"};
    const std::size_t bytes = static_cast<std::size_t>(m_width) * m_height * 3;
    if (m_pngSequence) {
        char name[32];
        std::snprintf(name, sizeof(name), "frame_%06d.png", m_frameCount);
        if (auto ok = WritePng(m_path / name, m_width, m_height, rgbTopDown); !ok) {
            m_recording = false;
            return ok;
        }
        ++m_frameCount;
        return Ok{};
    }
    std::size_t written = 0;
    while (written < bytes) {
        const ssize_t n = WriteWithoutSigpipe(m_pipe, rgbTopDown + written, bytes - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const std::string why = std::strerror(errno);
            ::close(m_pipe);
            m_pipe = -1;
            m_recording = false;
            const Status exit = WaitForFfmpeg();
            return Error{"Recording to " + Quoted(m_path) + " failed at frame " +
                         std::to_string(m_frameCount) + ": ffmpeg stopped reading (" + why + ")" +
                         (exit ? std::string() : "; " + exit.error())};
        }
        written += static_cast<std::size_t>(n);
    }
    ++m_frameCount;
    return Ok{};
}

Status Recorder::Stop() {
    if (!m_recording) return Ok{};
    m_recording = false;
    if (m_pngSequence) return Ok{};
    ::close(m_pipe);  // end of input: ffmpeg finishes the file and exits
    m_pipe = -1;
    if (auto exit = WaitForFfmpeg(); !exit) {
        return Error{"Recording to " + Quoted(m_path) + " failed: " + exit.error()};
    }
    return Ok{};
}

Status Recorder::WaitForFfmpeg() {
    int status = 0;
    pid_t reaped = -1;
    do {
        reaped = ::waitpid(m_ffmpeg, &status, 0);
    } while (reaped < 0 && errno == EINTR);
    m_ffmpeg = -1;
    const std::string log = LogTail(m_ffmpegLog);
    std::error_code ignored;
    fs::remove(m_ffmpegLog, ignored);
    if (reaped < 0) return Error{std::string("waiting for ffmpeg failed: ") + std::strerror(errno)};
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Ok{};
    std::string message = WIFEXITED(status)
                              ? "ffmpeg exited with code " + std::to_string(WEXITSTATUS(status))
                              : "ffmpeg was killed by signal " + std::to_string(WTERMSIG(status));
    if (!log.empty()) message += ": " + log;
    return Error{std::move(message)};
}

}  // namespace vorton::platform
