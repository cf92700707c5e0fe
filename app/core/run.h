#pragma once
/// \file
/// What every way of running a scene shares: loading it with the command
/// line's --set applied, the per-step outputs, and the simulation-only loop.

#include <iosfwd>
#include <memory>
#include <span>
#include <string_view>

#include "app/core/options.h"
#include "app/core/output.h"
#include "scene/scene.h"
#include "sim/simulation.h"

namespace vorton {

/// The scene the command line asks for: PrepareScene(options.scene, options.sets).
inline Result<Scene> PrepareScene(const Options& options) { return PrepareScene(options.scene, options.sets); }

/// --stats and --dump-dir outputs of a run.
class RunOutputs {
public:
    /// Opens the outputs the options ask for and dumps frame 0.
    Status Open(const Options& options, const Simulation& sim);
    /// After each step: a stats row, a dump every dumpEvery steps, a VDB every vdbEvery.
    Status AfterStep(const Simulation& sim);
    /// Whether any output is open (each reads the simulation's tracers: their count, positions
    /// or dye).
    bool Any() const { return m_stats.IsOpen() || !m_dumpDir.empty() || !m_vdbDir.empty(); }
    /// Whether the steps should measure their ImpulseBudget (Simulation::SetImpulseBudget):
    /// `--stats` writes it to impulse.csv.
    bool WantsImpulseBudget() const { return m_stats.IsOpen(); }

private:
    StatsWriter m_stats;
    std::string m_dumpDir;
    int m_dumpEvery = 1;
    std::string m_vdbDir;
    int m_vdbEvery = 1;
    bool m_vdbVorticity = false;
    Status WriteVdb(const Simulation& sim) const;
};

/// Installs SIGINT and SIGTERM handlers that only note the signal, so a run
/// can end cleanly (outputs flushed, a recording's ffmpeg closed) instead of
/// dying mid-file. Idempotent.
void InstallStopSignals();
/// The SIGINT/SIGTERM received since InstallStopSignals(), or 0.
int StopSignal();
/// Exit status of a run ended by `signal`: 128 + signal, as a shell reports it.
inline int ExitForSignal(int signal) { return 128 + signal; }

/// What to do after a blow-up, for the way the run is watched: the window
/// pauses (Reset after a change); a run without one has ended with exit 3.
/// `stateKept`: the step was not taken (StepReport::stateKept) and its message
/// says what to change; the window plays on after the change.
std::string BlowUpAdvice(bool window, bool stateKept = false);

/// Number of steps to run when no window decides: --frames, else the last of --shots, else 250.
std::int64_t FramesWithoutWindow(const Options& options);

/// --save-scene: writes `scene` to options.saveScene when options.saveSceneState is `when`
/// ("initial" or "current"), the bodies given their state `bodies` (the running simulation's
/// at the end; empty: the scene's). Ok without --save-scene; the error names the file.
Status SaveSceneIfAsked(const Options& options, std::string_view when, const Scene& scene,
                        std::span<const BodyState> bodies = {});

/// --no-render: steps the scene options.frames times in a task arena of
/// options.threads, writing the outputs; progress and errors go to `log`.
/// Returns an ExitCode.
/// `loaded`: a simulation read from --snapshot-load (else one is made from the scene).
int RunWithoutRendering(const Options& options, Scene scene, std::ostream& log,
                        std::unique_ptr<Simulation> loaded = nullptr);
/// --snapshot-save: writes `sim` and `scene` to options.snapshotSave. Ok without the flag;
/// the error names the flag and the file.
Status SaveSnapshotIfAsked(const Options& options, const Scene& scene, const Simulation& sim);

}  // namespace vorton
