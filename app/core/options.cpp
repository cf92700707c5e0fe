#include "options.h"

#include <CLI/CLI.hpp>

namespace vorton {

ParsedCommandLine ParseCommandLine(int argc, const char* const* argv) {
    ParsedCommandLine result;
    Options& o = result.options;
    CLI::App app{"vorton: interactive vortex-particle fluid demo (heavy fluid sinks, light fluid rises)", "vorton"};
    std::string size;
    app.add_option("--scene", o.scene, "scene name (see --list-scenes) or path to a .json scene file")
        ->capture_default_str();
    auto* headless = app.add_flag("--headless", o.headless, "render offscreen through EGL (no window, no X server)");
    auto* noRender = app.add_flag("--no-render", o.noRender, "simulation only, no OpenGL at all");
    headless->excludes(noRender);
    app.add_option("--frames", o.frames, "run N steps, then exit (default: until closed; 250 without a window)")
        ->check(CLI::PositiveNumber);
    app.add_option("--threads", o.threads, "worker threads (0: all cores)")->check(CLI::Range(0, 256));
    app.add_option("--set", o.sets, "set a parameter, e.g. ambient_density=2, gravity=0,0,-9.81, drop.density_deviation=0.5 "
                                    "(--list-params lists them)");
    app.add_option("--stats", o.statsDir, "write DIR/frames.csv, one row per step");
    auto* dump = app.add_option("--dump-dir", o.dumpDir, "write vortons_NNNNNN.ply and tracers_NNNNNN.ply to DIR");
    app.add_option("--dump-every", o.dumpEvery, "dump every K-th step (with --dump-dir)")
        ->check(CLI::PositiveNumber)
        ->needs(dump);
    app.add_option("--record", o.record, "record FILE.mp4 (through ffmpeg) or a PNG sequence into DIR/");
    app.add_flag("--record-panel", o.recordPanel, "include the control panel in recorded frames");
    app.add_option("--screenshot-dir", o.screenshotDir, "folder for screenshots (F12 / P key)")->capture_default_str();
    app.add_option("--size", size, "framebuffer size WxH in pixels (default 1280x720)");
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
        result.message = std::string("vorton: ") + e.what() + "\n\n" + app.help();
        return result;
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
