#include "options.h"

#include <cstring>
#include <filesystem>

#include <CLI/CLI.hpp>

namespace vorton {

namespace {

/// A CLI11 check that the value is a whole number in [lo, hi], with a message
/// that says so (CLI11's own Range says "not in range" for "abc" too).
CLI::Validator WholeNumber(long long lo, long long hi) {
    const std::string range = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            long long v = 0;
            std::size_t used = 0;
            try {
                v = std::stoll(text, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != text.size() || v < lo || v > hi) return "expected " + range + ", got '" + text + "'";
            return {};
        },
        "");
}

bool HasVideoExtension(const std::string& path) {
    for (const char* ext : {".mp4", ".mkv", ".mov", ".webm", ".avi", ".gif"}) {
        const std::size_t n = std::strlen(ext);
        if (path.size() > n && path.compare(path.size() - n, n, ext) == 0) return true;
    }
    return false;
}

}  // namespace

ParsedCommandLine ParseCommandLine(int argc, const char* const* argv) {
    ParsedCommandLine result;
    Options& o = result.options;
    CLI::App app{"vorton: interactive vortex-particle fluid demo (heavy fluid sinks, light fluid rises)", "vorton"};
    std::string size;
    auto* sceneOption = app.add_option("--scene", o.scene, "scene name (see --list-scenes) or path to a .json scene file")
                            ->capture_default_str();
    auto* headless = app.add_flag("--headless", o.headless, "render offscreen through EGL (no window, no X server)");
    auto* noRender = app.add_flag("--no-render", o.noRender, "simulation only, no OpenGL at all");
    headless->excludes(noRender);
    auto* gpuTracers = app.add_flag("--gpu-tracers", o.gpuTracers,
                                    "move the dye tracers with a compute shader (OpenGL 4.3) even on a software "
                                    "renderer (by default: where the context has compute shaders and is a real GPU, and "
                                    "the scene has no emitters, no dye released by a body and no --stats/--dump outputs)");
    auto* cpuTracers = app.add_flag("--cpu-tracers", o.cpuTracers, "move the dye tracers on the CPU only");
    gpuTracers->excludes(noRender);
    gpuTracers->excludes(cpuTracers);
    app.add_option("--frames", o.frames, "run N steps, then exit (default: until closed; 250 without a window)")
        ->check(WholeNumber(1, 1000000000));
    app.add_option("--threads", o.threads, "worker threads (0: all cores)")->check(WholeNumber(0, 256));
    auto* setOption = app.add_option("--set", o.sets, "set a parameter, e.g. ambient_density=2, gravity=0,0,-9.81, drop.density_deviation=0.5 "
                                    "(--list-params lists them)");
    app.add_option("--stats", o.statsDir, "write DIR/frames.csv, bodies.csv and impulse.csv, one row per step");
    auto* dump = app.add_option("--dump-dir", o.dumpDir, "write vortons_NNNNNN.ply and tracers_NNNNNN.ply to DIR");
    app.add_option("--dump-every", o.dumpEvery, "dump every K-th step (with --dump-dir)")
        ->check(WholeNumber(1, 1000000000))
        ->needs(dump);
    app.add_option("--record", o.record, "record FILE.mp4 or FILE.gif (through ffmpeg) or a PNG sequence into DIR/");
    app.add_flag("--record-panel", o.recordPanel,
                 "include the toolbar and the panel (when open) in recorded frames and screenshots");
    app.add_flag("--open-panel", o.openPanel, "start with the full control panel open (else the toolbar only)");
    app.add_option("--ui-scale", o.uiScale,
                   "size of the panel, toolbar and their text (e.g. 2 on a 4K screen); default: the monitor's "
                   "content scale (the desktop's DPI setting), 1 headless")
        ->check(CLI::Range(0.5f, 4.0f));
    app.add_flag("--open-diagnostics", o.openDiagnostics,
                 "start with the diagnostics dock open (circulation, impulse, energy, enstrophy, counts, "
                 "the impulse law, ring speed, terminal velocity, drag and shedding checks; D toggles it)");
    app.add_option("--screenshot-dir", o.screenshotDir, "folder for screenshots (F12 / P key, --shots)")
        ->capture_default_str();
    app.add_option("--shots", o.shots, "save a PNG of each of these steps, e.g. 0,150,500 (headless: draws only these)")
        ->delimiter(',')
        ->check(WholeNumber(0, 1000000000));
    app.add_option("--size", size, "framebuffer size WxH in pixels (default 1280x720)");
    auto* saveScene = app.add_option("--save-scene", o.saveScene,
                                     "write the scene (parameters, groups, bodies, camera, display, with --set "
                                     "applied) as a scene file that loads back to the same run");
    app.add_option("--save-scene-state", o.saveSceneState,
                   "the bodies' state --save-scene writes: initial (as loaded, written before the run) or "
                   "current (at the end of the run)")
        ->check(CLI::IsMember({"initial", "current"}))
        ->needs(saveScene)
        ->capture_default_str();
    app.add_option("--snapshot-load", o.snapshotLoad,
                   "start from a snapshot file (its scene and state; --frames N runs N more steps), which "
                   "continues bit for bit the run that saved it")
        ->excludes(sceneOption)
        ->excludes(setOption);
    app.add_option("--snapshot-save", o.snapshotSave,
                   "at the end of the run, save the whole simulation state and its scene to FILE, a versioned "
                   "binary file --snapshot-load continues from (every scene, bodies included)");
    auto* vdb = app.add_option("--dump-vdb", o.vdbDir,
                               "write DIR/density_NNNNNN.vdb, the dye's density as an OpenVDB fog volume "
                               "(1 = as seeded; Blender, Houdini), at the start and after every step");
    app.add_option("--vdb-every", o.vdbEvery, "with --dump-vdb, every K-th step")
        ->check(WholeNumber(1, 1000000000))
        ->needs(vdb);
    app.add_flag("--vdb-vorticity", o.vdbVorticity,
                 "with --dump-vdb, also a grid \"vorticity\" in each file: |w| (1/s) of the vortons on voxels of "
                 "their spacing")
        ->needs(vdb);
    app.add_flag("--list-scenes", o.listScenes, "print the scene names and exit");
    app.add_flag("--list-params", o.listParams, "print every parameter of the scene and exit");
    app.add_flag("--paused", o.paused, "start paused (window only)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        result.exitNow = true;
        result.message = app.help();
        return result;
    } catch (const CLI::ParseError& e) {
        result.exitNow = true;
        result.exitCode = kExitUsage;
        // An unknown flag gets the list of valid ones; a bad value, the one line that says what is wrong.
        const bool unknownFlag = dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr;
        result.message = std::string("vorton: ") + e.what() +
                         (unknownFlag ? "\n\n" + app.help() : std::string("\n(vorton --help lists every flag)"));
        return result;
    }
    if (!o.record.empty() && o.noRender) {
        result.exitNow = true;
        result.exitCode = kExitUsage;
        result.message = "vorton: --record draws frames, which --no-render does not; use --headless to record "
                         "without a window";
        return result;
    }
    if (!o.shots.empty() && o.noRender) {
        result.exitNow = true;
        result.exitCode = kExitUsage;
        result.message = "vorton: --shots draws frames, which --no-render does not; use --headless";
        return result;
    }
    if (!o.record.empty() && o.record.back() != '/' && !HasVideoExtension(o.record)) {
        std::error_code ec;
        if (!std::filesystem::is_directory(o.record, ec)) {
            result.exitNow = true;
            result.exitCode = kExitUsage;
            result.message = "vorton: --record " + o.record +
                             ": not a folder and not a video file; end it with '/' (" + o.record +
                             "/) to record PNG frames into a new folder, or give FILE.mp4 (also .gif, .mkv, .mov, .webm, .avi)";
            return result;
        }
    }
    if (!size.empty()) {
        int w = 0, h = 0;
        char x = 0, extra = 0;
        if (std::sscanf(size.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X') || w < 16 ||
            h < 16 || w > 16384 || h > 16384) {
            result.exitNow = true;
            result.exitCode = kExitUsage;
            result.message = "vorton: --size: expected WxH with 16 <= W, H <= 16384 (e.g. 1280x720), got '" + size + "'";
            return result;
        }
        o.width = w;
        o.height = h;
    }
    return result;
}

}  // namespace vorton
