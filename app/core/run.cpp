#include "run.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <ostream>

#include <tbb/info.h>
#include <tbb/task_arena.h>

#include "scene/param_access.h"
#include "scene/scene_writer.h"
#include "scene/snapshot.h"
#include "app/core/vdb_output.h"

namespace vorton {

namespace {
volatile std::sig_atomic_t g_stopSignal = 0;
extern "C" void NoteStopSignal(int signal) { g_stopSignal = signal; }
}  // namespace

void InstallStopSignals() {
    struct sigaction action {};
    action.sa_handler = NoteStopSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

int StopSignal() { return int(g_stopSignal); }

std::string BlowUpAdvice(bool window, bool stateKept) {
    if (stateKept) return window ? "Paused: change that, then play on." : "stopped (exit 3); change that (--set ...)";
    if (window) return "Paused: lower dt or the density deviation, then Reset.";
    return "stopped (exit 3); try a smaller time step (--set dt=...), a smaller density deviation or speed, "
           "or a larger max_speed if the flow is meant to be that fast";
}

Status RunOutputs::Open(const Options& options, const Simulation& sim) {
    if (!options.statsDir.empty()) {
        if (Status s = m_stats.Open(options.statsDir); !s) return Error{"--stats: " + s.error()};
    }
    m_dumpDir = options.dumpDir;
    m_dumpEvery = std::max(1, options.dumpEvery);
    if (!m_dumpDir.empty()) {
        if (Status s = WriteDump(m_dumpDir, sim, sim.StepCount()); !s) return Error{"--dump-dir: " + s.error()};
    }
    m_vdbDir = options.vdbDir;
    m_vdbEvery = std::max(1, options.vdbEvery);
    m_vdbVorticity = options.vdbVorticity;
    if (!m_vdbDir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(m_vdbDir, ec);
        if (ec) return Error{"--dump-vdb: " + m_vdbDir + ": cannot create the folder: " + ec.message()};
        if (Status s = WriteVdb(sim); !s) return s;
    }
    return Ok{};
}

Status RunOutputs::WriteVdb(const Simulation& sim) const {
    char name[32];
    std::snprintf(name, sizeof name, "density_%06lld.vdb", static_cast<long long>(sim.StepCount()));
    if (Status s = WriteDyeVdb(std::filesystem::path(m_vdbDir) / name, sim, VdbContents{m_vdbVorticity}); !s) return Error{"--dump-vdb: " + s.error()};
    return Ok{};
}

Status RunOutputs::AfterStep(const Simulation& sim) {
    if (m_stats.IsOpen()) {
        if (Status s = m_stats.WriteRow(sim); !s) return Error{"--stats: " + s.error()};
    }
    if (!m_dumpDir.empty() && sim.StepCount() % m_dumpEvery == 0) {
        if (Status s = WriteDump(m_dumpDir, sim, sim.StepCount()); !s) return Error{"--dump-dir: " + s.error()};
    }
    if (!m_vdbDir.empty() && sim.StepCount() % m_vdbEvery == 0) {
        if (Status s = WriteVdb(sim); !s) return s;
    }
    return Ok{};
}

std::int64_t FramesWithoutWindow(const Options& options) {
    if (options.frames > 0) return options.frames;
    if (!options.shots.empty()) return std::max<std::int64_t>(1, *std::max_element(options.shots.begin(), options.shots.end()));
    return 250;
}

Status SaveSceneIfAsked(const Options& options, std::string_view when, const Scene& scene,
                        std::span<const BodyState> bodies) {
    if (options.saveScene.empty() || options.saveSceneState != when) return Ok{};
    if (Status s = SaveSceneFile(WithBodyStates(scene, bodies), options.saveScene); !s) {
        return Error{"--save-scene: " + s.error()};
    }
    return Ok{};
}

Status SaveSnapshotIfAsked(const Options& options, const Scene& scene, const Simulation& sim) {
    if (options.snapshotSave.empty()) return Ok{};
    if (Status s = WriteSnapshotFile(options.snapshotSave, scene, sim); !s) return Error{"--snapshot-save: " + s.error()};
    return Ok{};
}

int RunWithoutRendering(const Options& options, Scene scene, std::ostream& log, std::unique_ptr<Simulation> loaded) {
    const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
    tbb::task_arena arena(threads);
    std::unique_ptr<Simulation> owned = loaded ? std::move(loaded) : std::make_unique<Simulation>(scene.setup);
    Simulation& sim = *owned;
    RunOutputs outputs;
    if (Status s = outputs.Open(options, sim); !s) {
        log << "vorton: " << s.error() << "\n";
        return kExitRuntime;
    }
    const std::int64_t frames = FramesWithoutWindow(options);
    double totalMs = 0.0;
    std::string latticeNotice = sim.LatticeNotice();
    InstallStopSignals();
    for (std::int64_t f = 0; f < frames; ++f) {
        if (const int signal = StopSignal(); signal != 0) {
            log << "vorton: stopped by signal " << signal << " after " << f << " steps (outputs written up to there)\n";
            return ExitForSignal(signal);
        }
        StepReport report;
        sim.SetImpulseBudget(outputs.WantsImpulseBudget());
        arena.execute([&] { report = sim.Step(); });
        if (!report.ok) {
            log << "vorton: " << report.message << "\nvorton: " << BlowUpAdvice(false, report.stateKept) << "\n";
            return kExitRuntime;
        }
        totalMs += sim.LastStepMs();
        if (std::string notice = sim.LatticeNotice(); notice != latticeNotice) {
            latticeNotice = std::move(notice);
            if (!latticeNotice.empty()) log << "vorton: step " << sim.StepCount() << ": " << latticeNotice << "\n";
        }
        if (Status s = outputs.AfterStep(sim); !s) {
            log << "vorton: " << s.error() << "\n";
            return kExitRuntime;
        }
    }
    if (Status s = SaveSceneIfAsked(options, "current", scene, sim.Bodies()); !s) {
        log << "vorton: " << s.error() << "\n";
        return kExitRuntime;
    }
    if (Status s = SaveSnapshotIfAsked(options, scene, sim); !s) {
        log << "vorton: " << s.error() << "\n";
        return kExitRuntime;
    }
    log << "vorton: " << scene.name << ": " << frames << " steps, " << sim.GetVortons().Size() << " vortons, "
        << sim.GetTracers().Size() << " tracers, " << threads << " threads, mean " << totalMs / double(frames)
        << " ms/step\n";
    return kExitOk;
}

}  // namespace vorton
