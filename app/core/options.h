#pragma once
/// \file
/// The `vorton` command line (a contract: tests and tools rely on it).
///
///     vorton [--scene NAME|FILE] [--headless | --no-render] [--frames N]
///            [--threads T] [--set KEY=VALUE]... [--stats DIR]
///            [--dump-dir DIR [--dump-every K]] [--record FILE.mp4|FILE.gif|DIR]
///            [--size WxH] [--shots STEP,STEP...] [--screenshot-dir DIR]
///            [--save-scene FILE [--save-scene-state initial|current]]
///            [--snapshot-load FILE] [--snapshot-save FILE] [--dump-vdb DIR [--vdb-every K] [--vdb-vorticity]]
///            [--list-scenes] [--list-params]

#include <cstdint>
#include <string>
#include <vector>

namespace vorton {

/// Exit statuses of the executable.
enum ExitCode : int { kExitOk = 0, kExitUsage = 2, kExitRuntime = 3 };

struct Options {
    std::string scene = "dye_drop";
    bool headless = false;     ///< render offscreen through EGL, no window
    bool noRender = false;     ///< simulation only, no OpenGL at all
    /// Where the dye tracers move: by default on the GPU (OpenGL 4.3 compute) where the context
    /// has compute shaders and is not a software renderer (and the scene allows), else on the
    /// CPU; --gpu-tracers also on a software renderer, --cpu-tracers never on the GPU.
    bool gpuTracers = false;
    bool cpuTracers = false;
    std::int64_t frames = -1;  ///< steps to run, then exit; -1: until the window closes (250 without a window)
    int threads = 0;           ///< worker threads; 0: all cores
    std::vector<std::string> sets;  ///< KEY=VALUE
    std::string statsDir;
    std::string dumpDir;
    int dumpEvery = 1;
    std::string record;        ///< FILE.mp4, FILE.gif or DIR (PNG sequence)
    bool recordPanel = false;  ///< include the panel in recorded frames
    std::string screenshotDir = ".";
    /// Steps to save a PNG of (vorton_SCENE_STEP.png in screenshotDir); a headless run with
    /// shots and no recording draws only those frames, and without --frames stops at the last.
    std::vector<std::int64_t> shots;
    int width = 1280, height = 720;
    bool listScenes = false;
    bool listParams = false;
    bool paused = false;       ///< start paused (window only)
    bool openPanel = false;    ///< start with the full panel open (else the toolbar only)
    /// Size of the panel, toolbar and their text relative to 16-px DejaVu Sans; 0: the
    /// monitor's content scale (the desktop's DPI setting over 96), 1 headless.
    float uiScale = 0.0f;
    bool openDiagnostics = false;  ///< start with the diagnostics dock open
    /// Write the scene as a scene file here (SaveSceneFile): with saveSceneState "initial" before
    /// the run (the scene and --set as loaded), with "current" at its end (the bodies' state then).
    std::string saveScene;
    std::string saveSceneState = "initial";
    /// Start from this snapshot file (scene/snapshot.h) instead of a scene; --frames N runs N more steps.
    std::string snapshotLoad;
    /// At the end of the run, save the whole state (bodies included) and its scene here.
    std::string snapshotSave;
    /// Write DIR/density_NNNNNN.vdb (the dye as an OpenVDB volume) at the start and every vdbEvery steps.
    std::string vdbDir;
    int vdbEvery = 1;
    /// With vdbDir: each file also holds |ω| ("vorticity", VdbContents::vorticity).
    bool vdbVorticity = false;
};

/// Outcome of parsing: run with `options`, or exit at once with `exitCode`
/// after printing `message` (to stdout for --help, else stderr).
struct ParsedCommandLine {
    Options options;
    bool exitNow = false;
    int exitCode = kExitOk;
    std::string message;
};

/// Parses argv with CLI11. Unknown flags and bad values give exitCode 2 and a
/// message that names the flag and lists the valid ones.
ParsedCommandLine ParseCommandLine(int argc, const char* const* argv);

}  // namespace vorton
