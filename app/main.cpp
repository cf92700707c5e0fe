// vorton: the interactive vortex-particle fluid demo. See README.md and
// app/core/options.h for the command line.

#include <iostream>

#include "app/core/options.h"
#include "scene/param_access.h"
#include "app/core/run.h"
#include "scene/scene.h"
#include "scene/snapshot.h"
#include "app/demo_app.h"

int main(int argc, char** argv) {
    using namespace vorton;
    const ParsedCommandLine parsed = ParseCommandLine(argc, argv);
    if (parsed.exitNow) {
        (parsed.exitCode == kExitOk ? std::cout : std::cerr) << parsed.message << "\n";
        return parsed.exitCode;
    }
    const Options& options = parsed.options;
    if (options.listScenes) {
        for (const std::string& name : ListSceneNames(DataDirectory() / "scenes")) std::cout << name << "\n";
        return kExitOk;
    }
    // --snapshot-load: the scene and the state come from the file.
    std::unique_ptr<Simulation> loaded;
    Result<Scene> scene = Error{"no scene"};
    if (!options.snapshotLoad.empty()) {
        auto snapshot = ReadSnapshotFile(options.snapshotLoad);
        if (!snapshot) {
            std::cerr << "vorton: --snapshot-load: " << snapshot.error() << "\n";
            return kExitUsage;
        }
        scene = std::move(snapshot.value().scene);
        loaded = std::move(snapshot.value().sim);
    } else {
        scene = PrepareScene(options);
    }
    if (!scene) {
        std::cerr << "vorton: " << scene.error() << "\n";
        return kExitUsage;
    }
    if (options.listParams) {
        std::cout << DescribeParams(scene.value().setup) << DescribeDisplay(scene.value().display);
        return kExitOk;
    }
    if (Status s = SaveSceneIfAsked(options, "initial", scene.value()); !s) {
        std::cerr << "vorton: " << s.error() << "\n";
        return kExitRuntime;
    }
    if (options.noRender) return RunWithoutRendering(options, std::move(scene.value()), std::cerr, std::move(loaded));
    auto app = DemoApp::Create(options, std::move(scene.value()), std::move(loaded));
    if (!app) {
        std::cerr << "vorton: " << app.error() << "\n";
        return kExitRuntime;
    }
    return app.value()->Run();
}
