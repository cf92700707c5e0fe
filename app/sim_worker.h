#pragma once
/// \file
/// The simulation on its own thread. The worker steps in its task arena while the frame loop
/// draws the last finished state; the two meet once per frame in SimWorker::Sync, under one
/// mutex, to swap a snapshot and hand over the panel's edits.
///
/// Ownership: after construction only the worker thread touches the Simulation, the arena
/// and the run outputs. The snapshot is triple-buffered: the worker fills its back buffer
/// without the lock, swaps it with the shared `ready` one under the lock, and Sync swaps
/// `ready` with the caller's front buffer. Swaps exchange vectors, never copy them, so the
/// tracer positions are copied once per step (simulation → back buffer) and read in place
/// by the renderer.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <tbb/task_arena.h>

#include "app/core/run.h"
#include "app/ui/flow_diagnostics.h"
#include "app/ui/rewind.h"
#include "scene/snapshot.h"
#include "sim/simulation.h"

namespace vorton {

/// The last kCapacity values of one quantity, one per simulation step, kept in a ring.
class StepHistory {
public:
    static constexpr std::size_t kCapacity = 600;

    void Push(float value);
    /// Values in storage order; the oldest is at Offset() (ImGui::PlotLines' values_offset).
    const std::vector<float>& Values() const { return m_values; }
    int Offset() const { return int(m_next); }
    float Latest() const;

private:
    std::vector<float> m_values;
    std::size_t m_next = 0;  // slot the next value overwrites once full
};

/// Per-step history of one rigid body, for the panel's plots.
struct BodyHistory {
    StepHistory height;  ///< z of the centre, m
    StepHistory speed;   ///< |velocity|, m/s
};

/// One thing the frame loop's GPU tracers (render/gpu_tracers.h) must do, in the order given,
/// while the tracers live on the GPU (SimSnapshot::tracersOnGpu).
struct GpuTracerCommand {
    enum class Kind : std::uint8_t {
        Replace,  ///< the tracers are `positions` from now on (seeding, reset, a new scene)
        Append,   ///< `positions` join the tracers (painted dye)
        Step,     ///< one Heun step of the simulation's step that ended at `step`
    };
    Kind kind = Kind::Step;
    std::uint64_t id = 0;              ///< counts the worker's commands from 1 (never reused)
    /// the simulation's StepCount() once this is done (of a step's earlier substeps: the
    /// count before it; a step of k substeps is k Step commands)
    std::int64_t step = 0;
    std::vector<glm::vec3> positions;  ///< Replace, Append: m
    /// Step: the grids the step (or substep: Simulation::EarlierSubstepGrids) started and
    /// ended on (Simulation::LastStepStartGrid and CurrentTracerGrid), their values shared
    /// with the commands before and after.
    NestedGrid grid0, grid1;
    std::uint64_t serial0 = 0, serial1 = 0;
    std::shared_ptr<const std::vector<GridSampler::Float4>> values0, values1;
    glm::vec3 freeStream{0.0f};  ///< m/s
    float dt = 0.0f;             ///< s: the step's, or a substep's (dt/k)
    std::vector<glm::vec4> spheres;  ///< the bodies at the (sub)step's end: centre (m), radius (m) in w
    /// Step: the worker kept this step's state for rewinding; it wants the positions after
    /// it back (FrameRequest::gpuKept).
    bool keep = false;
};

/// The GPU tracers' positions after a step whose state the worker kept (GpuTracerCommand::keep).
struct KeptGpuTracers {
    std::uint64_t command = 0;  ///< GpuTracerCommand::id of the step
    std::vector<glm::vec3> positions;  ///< m
};

/// A step that stopped the run (a StepReport with ok false), as the worker, its snapshot
/// and the window carry it.
struct BlowUpReport {
    std::string message;     ///< StepReport::message; empty while the simulation is healthy
    bool stateKept = false;  ///< StepReport::stateKept: the step was not taken, so an edit lets the run go on
    bool Empty() const { return message.empty(); }
};

/// What the renderer and the panel read about the simulation, copied by the worker at a
/// step boundary (after a step, a reset or a scene change).
struct SimSnapshot {
    std::uint64_t serial = 0;      ///< counts publications from 1; names tracerPositions' contents
    std::uint64_t generation = 0;  ///< changes at every reset and scene change
    std::uint64_t sceneId = 0;     ///< SimWorker::FrameRequest::sceneId of the simulation shown
    std::uint64_t stepsCompleted = 0;  ///< successful steps over the worker's life (never reset)
    double totalStepMs = 0.0;          ///< their summed LastStepMs(), ms
    double time = 0.0;                 ///< simulated time, s
    std::int64_t stepCount = 0;        ///< steps since the last reset
    double stepMs = 0.0;               ///< wall-clock time of the last step, ms
    int substeps = 1;                  ///< substeps the last step took (a fast body: Simulation::Substeps)
    /// The last step's Lagrangian CFL number dt·max_k |(ω_k·∇)u|/|ω_k| over the vortons away
    /// from the bodies (StepWork::lagrangianCfl): past Simulation::kRemeshStretchCourant the
    /// step remeshes at once.
    double lagrangianCfl = 0.0;
    StageTimes stageMs{};              ///< per stage of the last step, ms
    std::size_t vortonCount = 0;
    /// m. Empty while the tracers live on the GPU: the frame loop fills it from there.
    std::vector<glm::vec3> tracerPositions;
    /// The tracers live on the frame loop's GPU (FrameRequest::gpuTracers): the simulation
    /// keeps none, and gpuCommands say what to do with them.
    bool tracersOnGpu = false;
    /// Appended by every Sync (a snapshot or not), oldest first; the caller empties it.
    std::vector<GpuTracerCommand> gpuCommands;
    std::vector<std::uint16_t> tracerGroups;
    std::uint64_t tracerGroupsVersion = 0;   ///< changes whenever tracerGroups' contents do
    /// |velocity| per tracer at the last step, m/s, when asked for (tracerSpeeds); else empty.
    std::vector<float> tracerSpeeds;
    glm::vec3 tracerCentroid{0.0f};          ///< m; the origin without tracers
    bool hasVortons = false;                 ///< vortons were asked for (showVortons)
    std::vector<glm::vec3> vortonPositions;  ///< m
    std::vector<float> vortonStrength;       ///< |vorticity|, 1/s
    float vortonSize = 0.02f;                ///< sprite diameter, m
    float spacing = 0.0f;                    ///< the vortons' lattice spacing h, m (Simulation::Spacing)
    std::vector<BodyState> bodies;           ///< in the order of Setup().bodies
    std::vector<std::string> bodyNames;      ///< bodies' names, in their order (the panel's setup may be ahead of them)
    Aabb bounds;
    Diagnostics diagnostics;
    BlowUpReport blowUp;        ///< the failed step's report; Empty() while the simulation is healthy
    /// Simulation::LatticeNotice: empty until remeshing coarsens the lattice, then why.
    std::string latticeNotice;
    StepHistory stepMsHistory;  ///< LastStepMs() per step, ms
    std::vector<BodyHistory> bodyHistories;  ///< since the last reset, one per body
    /// The flow measured after each step since the last reset (the diagnostics dock).
    FlowLog flow;
    /// ImpulseLawFor() the simulation's setup: whether and how closely dI/dt = (g/ρ₀)Σδρ_kV_k holds.
    ImpulseLaw impulseLaw;
    RingLaw ringLaw;          ///< RingLawFor() the setup: a ring's speed against Saffman's
    TerminalLaw terminalLaw;  ///< TerminalLawFor() the setup: a ball's fall against the drag curve
    DragLaw dragLaw;          ///< DragLawFor() the setup: a fixed ball's drag in a stream against the drag curve
    SheddingLaw sheddingLaw;  ///< SheddingLawFor() the setup: a fixed ball's side force against a sphere's shedding
    /// The rewind ring's states, oldest first (simulated s), its bytes and budget; empty times
    /// with rewindUnavailable saying why when the scene cannot be rewound.
    std::vector<double> rewindTimes;
    std::size_t rewindBytes = 0, rewindBudget = 0;
    std::string rewindUnavailable;
};

/// Most GPU tracer commands that wait for the frame loop before free-running steps pause.
inline constexpr std::size_t kMaxGpuBacklog = 16;

/// The rewind ring's bounds: the span it covers and the bytes its states may take.
inline constexpr double kRewindSeconds = 10.0;
inline constexpr std::size_t kRewindBudgetBytes = std::size_t(256) << 20;

/// Runs a Simulation on a worker thread (see the file comment).
class SimWorker {
public:
    /// A body held by the mouse (Simulation::GrabBody) or let go (ReleaseBody).
    struct GrabCommand {
        std::size_t body = 0;
        bool hold = true;
        glm::vec3 target{0.0f};  ///< m, while held
    };

    /// A paint stroke's blob: group `group` of the setup posted with it (or before), seeded now
    /// (Simulation::SeedGroupNow) with `tracers` tracers.
    struct PaintCommand {
        std::size_t group = 0;
        int tracers = 0;
        glm::vec3 velocity{0.0f};  ///< m/s: thrown (Simulation::SeedGroupNow), or at rest
    };

    /// What the frame loop hands over once per frame. Edits apply at the next step boundary,
    /// in this order: scene, setup, threads, grabs, reset.
    struct FrameRequest {
        /// Rebuild the simulation from this setup (a scene change); null: keep it.
        const SceneSetup* newScene = nullptr;
        std::uint64_t sceneId = 0;  ///< with newScene: reported back as SimSnapshot::sceneId
        /// The panel's copy of the setup, replacing Simulation::Setup(); null: unchanged.
        const SceneSetup* setup = nullptr;
        bool reset = false;
        std::span<const GrabCommand> grabs;
        std::span<const PaintCommand> paints;  ///< seeded after the setup is applied
        /// Back to the newest kept state at or before this simulated time (s), the later ones
        /// dropped: what follows is a new branch. Applied first, before the setup.
        std::optional<double> rewindTo;
        int threads = 1;           ///< task arena size; a change recreates the arena
        bool showVortons = false;  ///< copy the vortons into snapshots
        bool tracerSpeeds = false; ///< copy the tracers' speeds into snapshots
        /// The frame loop can move tracers on its GPU and wants to: where the scene allows
        /// (no emitters, no dye released by bodies, no run outputs, no speed colours), the
        /// tracers move there at the next step boundary (GpuTracerCommand). Turning it off
        /// takes ReturnGpuTracers first.
        bool gpuTracers = false;
        /// The GPU tracers' bounds after the step that ended at gpuTracerBoxStep (m; empty:
        /// none known), and the cells of that step's end grid that hold them (one byte per
        /// cell; moved from; empty: not known), so the simulation evaluates its tracer grids
        /// where they are (Simulation::SetExternalTracers).
        Aabb gpuTracerBox;
        std::int64_t gpuTracerBoxStep = -1;
        std::uint64_t gpuTracerBoxCommand = 0;  ///< GpuTracerCommand::id of that step
        NestedGrid gpuTracerCellsGrid;
        std::vector<std::uint8_t>* gpuTracerCells = nullptr;
        /// The positions after the kept steps since the last request (moved from).
        std::vector<KeptGpuTracers>* gpuKept = nullptr;
        /// Free-running: step whenever the last step is done and the frame loop has been
        /// through Sync since it started, i.e. at most one step per frame unless a step
        /// outlasts a frame, in which case steps follow each other at once.
        bool run = false;
        bool singleStep = false;  ///< one step even when not running (kept until taken)
        /// Lock-step: step once if run or singleStep (unless a step already finished since
        /// the caller's snapshot), then wait until the worker is idle, so the snapshot
        /// returned is this frame's step.
        bool lockStep = false;
    };

    /// Takes the simulation (whose state is published as the first snapshot), the arena size,
    /// the run outputs written after every step, and the step count at which stepping stops
    /// (-1: never). Starts the thread.
    SimWorker(std::unique_ptr<Simulation> sim, int threads, RunOutputs outputs,
              std::int64_t maxSteps);
    SimWorker(const SimWorker&) = delete;
    SimWorker& operator=(const SimWorker&) = delete;
    /// Waits for a step in progress to end.
    ~SimWorker();

    /// Posts the request's edits, and if a newer snapshot was published, swaps it into
    /// `front` (returns true). Appends the worker's error messages (outputs that failed) to
    /// `errors`. Blocks only for lock-step, for the length of one step.
    bool Sync(const FrameRequest& request, SimSnapshot& front, std::vector<std::string>& errors);

    /// The GPU tracer commands published and not yet taken by Sync (at most kMaxGpuBacklog
    /// Step commands while free-running; a Replace or Return may come on top).
    std::size_t GpuBacklog() const;

    /// Writes the simulation's state and `scene` to a snapshot file (WriteSnapshotFile) between
    /// steps: waits for a step in progress, and the worker starts none until it is written.
    Status WriteSnapshot(const std::filesystem::path& file, const Scene& scene);
    /// Replaces the simulation by `sim` (a loaded snapshot) at the next step boundary, as a scene
    /// change does; `sceneId` is reported back as SimSnapshot::sceneId.
    void ReplaceSimulation(std::unique_ptr<Simulation> sim, std::uint64_t sceneId);
    /// Brings tracers that live on the GPU back into the simulation, between steps: waits for a
    /// round in progress, hands `finish` the commands not yet taken by Sync (it applies them
    /// to the GPU tracers and returns their positions), and gives those positions to the
    /// simulation. Until a FrameRequest asks for GPU tracers again they stay there. Nothing
    /// happens (finish is not called) when the tracers are not on the GPU. Error when the
    /// positions are not one per tracer.
    Status ReturnGpuTracers(const std::function<std::vector<glm::vec3>(std::vector<GpuTracerCommand>&)>& finish);

private:
    /// Edits taken from FrameRequests, waiting for a step boundary.
    struct Pending {
        std::optional<SceneSetup> newScene;
        std::uint64_t sceneId = 0;
        std::optional<SceneSetup> setup;
        bool reset = false;
        std::vector<GrabCommand> grabs;  // at most one per body, the latest
        std::optional<int> threads;
        std::optional<bool> showVortons;
        std::optional<bool> tracerSpeeds;
        std::unique_ptr<Simulation> newSim;  // a loaded snapshot
        std::vector<PaintCommand> paints;
        std::optional<double> rewindTo;
        std::optional<bool> gpuTracers;
        std::vector<KeptGpuTracers> gpuKept;
        NestedGrid gpuTracerCellsGrid;
        std::vector<std::uint8_t> gpuTracerCells;
        Aabb gpuTracerBox;
        std::int64_t gpuTracerBoxStep = -1;
        std::uint64_t gpuTracerBoxCommand = 0;
        bool Any() const;
    };

    void Loop();
    bool HasWork() const;  // with m_mutex held
    bool Idle() const;     // with m_mutex held
    // The rest runs on the worker thread (or in the constructor, before it starts).
    bool Apply(Pending& work);
    bool CanStep() const;
    void Step();
    void NewGeneration();
    void RecordBodyHistories();
    void Fill(SimSnapshot& s);
    /// Whether this scene and run can keep their tracers on the GPU.
    bool GpuTracersAllowed() const;
    /// Moves the simulation's own tracers (all of them: `replace`; new ones: append) into a
    /// GPU command; the simulation then keeps none.
    void HandTracersToGpu(bool replace);
    /// The last step's grids into a Step command.
    void QueueGpuStep();

    // Worker-owned.
    std::unique_ptr<Simulation> m_sim;
    std::unique_ptr<tbb::task_arena> m_arena;
    int m_threads = 1;
    RunOutputs m_outputs;
    bool m_outputsStopped = false;
    std::int64_t m_maxSteps = -1;
    bool m_showVortons = false;
    bool m_tracerSpeeds = false;
    std::uint64_t m_sceneId = 0;
    std::uint64_t m_generation = 0;
    std::uint64_t m_serial = 0;
    std::uint64_t m_groupsVersion = 0;
    std::uint64_t m_stepsCompleted = 0;
    double m_totalStepMs = 0.0;
    /// With stateKept (a step not taken, StepReport::stateKept) the
    /// next setup edit clears it, so the run can go on once the cause is edited away.
    BlowUpReport m_blowUp;
    StepHistory m_stepMsHistory;
    std::vector<BodyHistory> m_bodyHistories;
    FlowLog m_flow;
    RewindRing m_rewind{kRewindBudgetBytes, kRewindSeconds};
    std::size_t m_stateBytes = 0;  // the last kept state's size, for RewindRing::Due
    void KeepRewindState();
    std::chrono::steady_clock::time_point m_wallStart = std::chrono::steady_clock::now();
    std::vector<std::string> m_newErrors;
    SimSnapshot m_back;
    // Tracers on the GPU: whether they are, the frame loop's wish, their groups (kept here,
    // in order), their bounds as last reported, and this round's commands.
    bool m_gpuMode = false;
    bool m_gpuWanted = false;
    std::vector<std::uint16_t> m_gpuGroups;
    Aabb m_gpuBox;
    std::vector<GpuTracerCommand> m_gpuOut;
    std::uint64_t m_gpuCommands = 0;      // ids given so far
    std::uint64_t m_gpuFeedbackFrom = 0;  // the last Replace or Append: reports of steps before it are stale
    std::uint64_t m_lastGridSerial = 0;  // the last Step command's grid1, shared with the next
    std::shared_ptr<const std::vector<GridSampler::Float4>> m_lastGridValues;

    // Shared, guarded by m_mutex.
    mutable std::mutex m_mutex;
    std::condition_variable m_wakeWorker;  // work was posted, or quit
    std::condition_variable m_wakeUi;      // the worker finished a round
    Pending m_pending;
    int m_postedThreads = 0;
    bool m_postedVortons = false;
    bool m_postedSpeeds = false;
    bool m_postedGpu = false;
    std::vector<GpuTracerCommand> m_gpuQueue;  // published, not yet taken by Sync
    bool m_run = false;
    bool m_frameToken = false;  // the frame loop passed Sync since the last free-running step
    // Real-time pacing while free-running: besides one step per frame, the
    // worker steps whenever the simulated time since m_paceStart lags the wall
    // clock, so slow frames (a software renderer drawing a million tracers) do
    // not slow the simulation, and fast steps do not run ahead of real time.
    std::chrono::steady_clock::time_point m_paceStart;
    double m_paceSimTime = 0.0;  // simulated s of free-running steps since m_paceStart
    float m_dt = 0.02f;          // the simulation's time step, copied at each round
    bool RealTimeAllows() const;
    bool m_stepOnce = false;
    bool m_busy = false;  // the worker is applying edits or stepping
    bool m_quit = false;
    SimSnapshot m_ready;
    bool m_readyIsNew = false;
    std::uint64_t m_publishedSteps = 0;  // m_ready's stepsCompleted when it was published
    std::vector<std::string> m_errors;

    std::thread m_thread;  // last: starts after everything above exists
};

}  // namespace vorton
