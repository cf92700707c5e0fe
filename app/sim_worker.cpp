#include "app/sim_worker.h"

#include <algorithm>
#include <utility>

#include <glm/geometric.hpp>

namespace vorton {

void StepHistory::Push(float value) {
    if (m_values.size() < kCapacity) {
        m_values.push_back(value);
        return;
    }
    m_values[m_next] = value;
    m_next = (m_next + 1) % kCapacity;
}

float StepHistory::Latest() const {
    if (m_values.empty()) return 0.0f;
    return m_values[(m_next + m_values.size() - 1) % m_values.size()];
}

bool SimWorker::Pending::Any() const {
    // (The GPU tracers' box rides along with whatever round comes next.)
    return newScene || setup || reset || !grabs.empty() || threads || showVortons || tracerSpeeds || newSim ||
           !paints.empty() || rewindTo || gpuTracers || !gpuKept.empty();
}

SimWorker::SimWorker(std::unique_ptr<Simulation> sim, int threads, RunOutputs outputs,
                     std::int64_t maxSteps)
    : m_sim(std::move(sim)),
      m_arena(std::make_unique<tbb::task_arena>(threads)),
      m_threads(threads),
      m_outputs(std::move(outputs)),
      m_maxSteps(maxSteps),
      m_postedThreads(threads) {
    NewGeneration();
    Fill(m_ready);
    m_readyIsNew = true;
    m_thread = std::thread([this] { Loop(); });
}

SimWorker::~SimWorker() {
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_wakeWorker.notify_one();
    m_thread.join();
}

bool SimWorker::HasWork() const {
    // Free-running steps wait while the frame loop has not taken the GPU tracers' last steps
    // (each holds a copy of a velocity grid): a window that stops drawing stops the run.
    const bool backlog = m_gpuQueue.size() >= kMaxGpuBacklog;
    return m_pending.Any() || m_stepOnce || (m_run && !backlog && (m_frameToken || RealTimeAllows()));
}

bool SimWorker::RealTimeAllows() const {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_paceStart).count();
    return m_paceSimTime + double(m_dt) <= wall;
}

bool SimWorker::Idle() const {
    return !m_busy && !HasWork();
}

bool SimWorker::Sync(const FrameRequest& request, SimSnapshot& front,
                     std::vector<std::string>& errors) {
    std::unique_lock lock(m_mutex);
    if (request.newScene) {
        // The old scene's edits and grabs (body indices) mean nothing to the new one; a thread
        // count or vorton display still waiting applies to it too.
        m_pending.setup.reset();
        m_pending.reset = false;
        m_pending.grabs.clear();
        m_pending.newScene = *request.newScene;
        m_pending.sceneId = request.sceneId;
    }
    if (request.setup) m_pending.setup = *request.setup;
    if (request.rewindTo && !request.newScene) m_pending.rewindTo = request.rewindTo;
    if (!request.newScene) m_pending.paints.insert(m_pending.paints.end(), request.paints.begin(), request.paints.end());
    if (request.reset) m_pending.reset = true;
    for (const GrabCommand& grab : request.grabs) {
        auto same = std::find_if(m_pending.grabs.begin(), m_pending.grabs.end(),
                                 [&](const GrabCommand& g) { return g.body == grab.body; });
        if (same != m_pending.grabs.end()) {
            *same = grab;
        } else {
            m_pending.grabs.push_back(grab);
        }
    }
    if (request.threads != m_postedThreads) m_pending.threads = m_postedThreads = request.threads;
    if (request.showVortons != m_postedVortons)
        m_pending.showVortons = m_postedVortons = request.showVortons;
    if (request.tracerSpeeds != m_postedSpeeds)
        m_pending.tracerSpeeds = m_postedSpeeds = request.tracerSpeeds;
    if (request.gpuTracers != m_postedGpu) m_pending.gpuTracers = m_postedGpu = request.gpuTracers;
    if (request.gpuKept) {
        for (KeptGpuTracers& kept : *request.gpuKept) m_pending.gpuKept.push_back(std::move(kept));
        request.gpuKept->clear();
    }
    if (request.gpuTracerBoxStep >= 0) {
        m_pending.gpuTracerBox = request.gpuTracerBox;
        m_pending.gpuTracerBoxStep = request.gpuTracerBoxStep;
        m_pending.gpuTracerBoxCommand = request.gpuTracerBoxCommand;
        m_pending.gpuTracerCells.clear();
        if (request.gpuTracerCells) {
            m_pending.gpuTracerCellsGrid = request.gpuTracerCellsGrid;
            m_pending.gpuTracerCells = std::move(*request.gpuTracerCells);
            request.gpuTracerCells->clear();
        }
    }

    const bool step = request.run || request.singleStep;
    if (request.lockStep) {
        m_run = false;
        m_frameToken = false;
        // Edits first, and a free-running step in progress (recording just started) counts as
        // this frame's step.
        m_wakeWorker.notify_one();
        m_wakeUi.wait(lock, [&] { return Idle(); });
        if (step && m_publishedSteps == front.stepsCompleted) {
            m_stepOnce = true;
            m_wakeWorker.notify_one();
            m_wakeUi.wait(lock, [&] { return Idle(); });
        }
    } else {
        if (request.run && !m_run) {
            m_paceStart = std::chrono::steady_clock::now();
            m_paceSimTime = 0.0;
        }
        m_run = request.run;
        m_frameToken = request.run;
        if (request.singleStep) m_stepOnce = true;
        if (HasWork()) m_wakeWorker.notify_one();
    }

    errors.insert(errors.end(), std::make_move_iterator(m_errors.begin()),
                  std::make_move_iterator(m_errors.end()));
    m_errors.clear();
    // After the swap, so that the commands stay with the caller's snapshot.
    bool fresh = false;
    if (m_readyIsNew) {
        std::vector<GpuTracerCommand> untaken = std::move(front.gpuCommands);
        std::swap(front, m_ready);
        m_ready.gpuCommands.clear();
        front.gpuCommands = std::move(untaken);
        m_readyIsNew = false;
        fresh = true;
    }
    front.gpuCommands.insert(front.gpuCommands.end(), std::make_move_iterator(m_gpuQueue.begin()),
                             std::make_move_iterator(m_gpuQueue.end()));
    m_gpuQueue.clear();
    return fresh;
}

std::size_t SimWorker::GpuBacklog() const {
    std::lock_guard lock(m_mutex);
    return m_gpuQueue.size();
}

Status SimWorker::WriteSnapshot(const std::filesystem::path& file, const Scene& scene) {
    std::unique_lock lock(m_mutex);
    // Holding the mutex, the worker cannot start a round: only its current one can be running.
    m_wakeUi.wait(lock, [&] { return !m_busy; });
    return WriteSnapshotFile(file, scene, *m_sim);
}

void SimWorker::ReplaceSimulation(std::unique_ptr<Simulation> sim, std::uint64_t sceneId) {
    std::unique_lock lock(m_mutex);
    m_pending.setup.reset();
    m_pending.newScene.reset();
    m_pending.reset = false;
    m_pending.grabs.clear();
    m_pending.newSim = std::move(sim);
    m_pending.sceneId = sceneId;
    m_wakeWorker.notify_one();
}

Status SimWorker::ReturnGpuTracers(
    const std::function<std::vector<glm::vec3>(std::vector<GpuTracerCommand>&)>& finish) {
    std::unique_lock lock(m_mutex);
    // Holding the mutex, the worker cannot start a round: only its current one can be running.
    m_wakeUi.wait(lock, [&] { return !m_busy; });
    if (!m_gpuMode) return Ok{};
    std::vector<GpuTracerCommand> rest = std::move(m_gpuQueue);
    m_gpuQueue.clear();
    std::vector<glm::vec3> positions = finish(rest);
    m_gpuMode = false;
    m_gpuWanted = false;
    m_postedGpu = false;
    m_pending.gpuTracers.reset();
    m_sim->ClearExternalTracers();
    Tracers& tracers = m_sim->MutableTracers();
    Status status = Ok{};
    if (positions.size() == m_gpuGroups.size()) {
        tracers.position = std::move(positions);
        tracers.group = std::move(m_gpuGroups);
        tracers.velocity.assign(tracers.position.size(), glm::vec3(0.0f));
    } else {
        status = Error{"the GPU returned " + std::to_string(positions.size()) + " tracers, " +
                       std::to_string(m_gpuGroups.size()) + " expected; the dye is lost"};
        tracers.Clear();
    }
    m_gpuGroups.clear();
    m_lastGridValues.reset();
    // Published at once: the next snapshot has the tracers back.
    Fill(m_back);
    std::swap(m_back, m_ready);
    m_readyIsNew = true;
    m_publishedSteps = m_ready.stepsCompleted;
    return status;
}

bool SimWorker::GpuTracersAllowed() const {
    if (m_outputs.Any() || m_tracerSpeeds) return false;
    for (const DensityGroup& g : m_sim->Setup().groups) {
        if (g.emit || g.releaseBeyond > 0.0f) return false;  // the CPU moves those tracers about
    }
    return true;
}

void SimWorker::HandTracersToGpu(bool replace) {
    Tracers& tracers = m_sim->MutableTracers();
    GpuTracerCommand command;
    command.kind = replace ? GpuTracerCommand::Kind::Replace : GpuTracerCommand::Kind::Append;
    command.id = ++m_gpuCommands;
    command.step = m_sim->StepCount();
    // The frame loop's reports of earlier steps do not know these tracers.
    m_gpuFeedbackFrom = command.id;
    Aabb box = BoundsOf(tracers.position);
    if (replace) {
        m_gpuGroups = tracers.group;
    } else {
        m_gpuGroups.insert(m_gpuGroups.end(), tracers.group.begin(), tracers.group.end());
        box.Grow(m_gpuBox);
    }
    m_gpuBox = box;
    command.positions = std::move(tracers.position);
    tracers.Clear();
    m_sim->SetExternalTracers(m_gpuBox, 0);
    m_gpuOut.push_back(std::move(command));
}

void SimWorker::QueueGpuStep() {
    // One Step command per substep (Simulation::Substeps: a fast ball), each a Heun step of
    // dt/k between the grids its substep started and ended on, as the CPU moves its tracers.
    const std::span<const Simulation::SubstepGrid> earlier = m_sim->EarlierSubstepGrids();
    const int substeps = m_sim->LastStepWork().substeps;
    const bool split = substeps > 1 && earlier.size() == std::size_t(substeps - 1);
    std::vector<TracerGridView> grids;
    if (split) {
        for (const Simulation::SubstepGrid& g : earlier) grids.push_back({g.grid, g.values, g.serial});
    }
    grids.push_back(m_sim->LastStepStartGrid());
    grids.push_back(m_sim->CurrentTracerGrid());
    // Each grid ends one (sub)step and starts the next: copied once, shared by serial.
    const auto shared = [&](const TracerGridView& view) {
        if (view.serial != 0 && view.serial == m_lastGridSerial && m_lastGridValues) return m_lastGridValues;
        return std::make_shared<const std::vector<GridSampler::Float4>>(view.values.begin(), view.values.end());
    };
    const auto bodies = m_sim->Bodies();
    const float dt = split ? m_sim->Params().dt / float(substeps) : m_sim->Params().dt;
    for (std::size_t i = 0; i + 1 < grids.size(); ++i) {
        const bool last = i + 2 == grids.size();
        GpuTracerCommand command;
        command.kind = GpuTracerCommand::Kind::Step;
        command.id = ++m_gpuCommands;
        command.step = last ? m_sim->StepCount() : m_sim->StepCount() - 1;
        command.grid0 = grids[i].grid;
        command.serial0 = grids[i].serial;
        command.values0 = shared(grids[i]);
        command.grid1 = grids[i + 1].grid;
        command.serial1 = grids[i + 1].serial;
        command.values1 = shared(grids[i + 1]);
        m_lastGridSerial = command.serial1;
        m_lastGridValues = command.values1;
        command.freeStream = m_sim->Params().freeStream;
        command.dt = dt;
        for (std::size_t b = 0; b < bodies.size(); ++b) {
            const glm::vec3 centre = last ? bodies[b].position : earlier[i].bodyCentres[b];
            command.spheres.emplace_back(centre, m_sim->Setup().bodies[b].radius);
        }
        m_gpuOut.push_back(std::move(command));
    }
}

void SimWorker::Loop() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        // Free-running, work can appear by the clock alone: wake now and then.
        while (!(m_quit || HasWork())) {
            if (m_run) {
                m_wakeWorker.wait_for(lock, std::chrono::milliseconds(2));
            } else {
                m_wakeWorker.wait(lock);
            }
        }
        if (m_quit) return;
        Pending work = std::move(m_pending);
        m_pending = Pending{};
        const bool freeStep = m_run && (m_frameToken || RealTimeAllows());
        const bool step = m_stepOnce || freeStep;
        m_stepOnce = false;
        if (step) m_frameToken = false;
        if (freeStep) {
            m_paceSimTime += double(m_dt);
            // At most 0.1 s behind: after slow steps, do not race to catch up.
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_paceStart).count();
            if (wall - m_paceSimTime > 0.1) {
                m_paceStart += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(wall - m_paceSimTime - 0.1));
            }
        }
        m_busy = true;
        lock.unlock();

        bool publish = Apply(work);
        if (step && CanStep()) {
            Step();
            publish = true;
        }
        if (publish) Fill(m_back);

        const float dt = m_sim->Params().dt;
        lock.lock();
        m_dt = dt;
        if (publish) {
            std::swap(m_back, m_ready);
            m_readyIsNew = true;
            m_publishedSteps = m_ready.stepsCompleted;
        }
        m_gpuQueue.insert(m_gpuQueue.end(), std::make_move_iterator(m_gpuOut.begin()),
                          std::make_move_iterator(m_gpuOut.end()));
        m_gpuOut.clear();
        m_errors.insert(m_errors.end(), std::make_move_iterator(m_newErrors.begin()),
                        std::make_move_iterator(m_newErrors.end()));
        m_newErrors.clear();
        m_busy = false;
        m_wakeUi.notify_all();
    }
}

bool SimWorker::Apply(Pending& work) {
    bool changed = false;
    for (KeptGpuTracers& kept : work.gpuKept) m_rewind.AttachGpuTracers(kept.command, std::move(kept.positions));
    bool reseeded = work.newScene || work.newSim || work.reset;  // the tracers seeded anew
    if (work.newScene) {
        // Seeding uses the arena like a step does.
        m_arena->execute([&] { m_sim = std::make_unique<Simulation>(std::move(*work.newScene)); });
        m_sceneId = work.sceneId;
        NewGeneration();
        changed = true;
    }
    if (work.newSim) {
        m_sim = std::move(work.newSim);
        m_sceneId = work.sceneId;
        NewGeneration();
        changed = true;
    }
    if (work.rewindTo && !work.newScene && !work.newSim && !work.reset) {
        if (const RewindRing::Entry* entry = m_rewind.AtOrBefore(*work.rewindTo)) {
            Status s = Ok{};
            m_arena->execute([&] { s = m_sim->RestoreState(entry->state); });
            if (s && !entry->gpuPositions.empty()) {
                // Kept while the tracers lived on the GPU: the state has none.
                m_sim->ClearExternalTracers();
                Tracers& tracers = m_sim->MutableTracers();
                tracers.position = entry->gpuPositions;
                tracers.group = entry->gpuGroups;
                tracers.velocity.assign(tracers.position.size(), glm::vec3(0.0f));
            }
            if (s) {
                reseeded = true;
                m_rewind.TruncateAfter(entry->step);
                m_blowUp = {};
                m_flow.Clear();
                changed = true;
            } else {
                m_newErrors.push_back("rewind: " + s.error());
            }
        }
    }
    if (work.setup) {
        // Groups painted at run time have vortons and tracers: a setup without them (an undo,
        // "restore scene defaults") gets them back rather than leaving those orphaned.
        const auto& groups = m_sim->Setup().groups;
        for (std::size_t g = work.setup->groups.size(); g < groups.size(); ++g) work.setup->groups.push_back(groups[g]);
        // Bodies added, removed or reordered (the panel's "Add a ball", "Remove", an undo): each
        // keeps its state and its plots by name.
        m_sim->Setup() = std::move(*work.setup);
        if (m_blowUp.stateKept) {
            // A step not taken (a body too fast): the edit may have removed the cause; the
            // next step tries again, and stops again if not.
            m_blowUp = {};
            changed = true;
        }
        if (const std::optional<std::vector<int>> from = m_sim->SyncBodies()) {
            std::vector<BodyHistory> histories(from->size());
            for (std::size_t i = 0; i < from->size(); ++i) {
                const int j = (*from)[i];
                if (j >= 0 && std::size_t(j) < m_bodyHistories.size()) {
                    histories[i] = std::move(m_bodyHistories[std::size_t(j)]);
                }
            }
            m_bodyHistories = std::move(histories);
            // The states kept for rewinding hold the old bodies, which this setup cannot take back.
            m_rewind.Clear();
            changed = true;
        }
    }
    for (const PaintCommand& paint : work.paints) {
        Status s = Ok{};
        m_arena->execute([&] { s = m_sim->SeedGroupNow(paint.group, paint.tracers, paint.velocity); });
        if (!s) m_newErrors.push_back("paint: " + s.error());
        changed = true;
    }
    if (work.threads && *work.threads != m_threads) {
        // Results do not depend on the thread count, so the state carries on as it is.
        m_threads = *work.threads;
        m_arena = std::make_unique<tbb::task_arena>(m_threads);
    }
    if (work.showVortons) {
        changed |= *work.showVortons && !m_showVortons;  // the snapshot lacks them
        m_showVortons = *work.showVortons;
    }
    if (work.tracerSpeeds) {
        changed |= *work.tracerSpeeds && !m_tracerSpeeds;
        m_tracerSpeeds = *work.tracerSpeeds;
    }
    for (const GrabCommand& grab : work.grabs) {
        if (grab.body >= m_sim->Bodies().size()) continue;
        if (grab.hold) {
            m_sim->GrabBody(grab.body, grab.target);
        } else {
            m_sim->ReleaseBody(grab.body);
        }
    }
    if (work.reset) {
        m_arena->execute([&] { m_sim->Reset(); });
        NewGeneration();
        changed = true;
    }
    if (work.gpuTracers) m_gpuWanted = *work.gpuTracers;
    if (m_gpuMode && reseeded) {
        // The simulation has its tracers again (a new one does not know the old GPU ones).
        m_sim->ClearExternalTracers();
        m_gpuMode = false;
        m_gpuGroups.clear();
        m_lastGridValues.reset();
        changed = true;
    }
    if (m_gpuMode && m_sim->GetTracers().Size() > 0) HandTracersToGpu(false);  // painted dye
    if (!m_gpuMode && m_gpuWanted && GpuTracersAllowed()) {
        HandTracersToGpu(true);
        m_gpuMode = true;
        changed = true;
    }
    if (m_gpuMode && work.gpuTracerBoxStep >= 0 && work.gpuTracerBoxCommand > m_gpuFeedbackFrom) {
        m_gpuBox = work.gpuTracerBox;
        const int behind = int(std::max<std::int64_t>(0, m_sim->StepCount() - work.gpuTracerBoxStep));
        m_sim->SetExternalTracers(m_gpuBox, behind, &work.gpuTracerCellsGrid, work.gpuTracerCells);
    }
    return changed;
}

bool SimWorker::CanStep() const {
    return m_blowUp.Empty() && (m_maxSteps < 0 || m_sim->StepCount() < m_maxSteps);
}

void SimWorker::Step() {
    StepReport report;
    m_sim->SetImpulseBudget(!m_outputsStopped && m_outputs.WantsImpulseBudget());
    m_arena->execute([&] { report = m_sim->Step(); });
    if (!report.ok) {
        m_blowUp = {report.message, report.stateKept};
        return;
    }
    ++m_stepsCompleted;
    if (m_gpuMode) QueueGpuStep();
    m_totalStepMs += m_sim->LastStepMs();
    m_stepMsHistory.Push(float(m_sim->LastStepMs()));
    RecordBodyHistories();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wallStart).count();
    FlowSample sample = MeasureFlow(*m_sim, wall);
    if (m_gpuMode) sample.tracers = m_gpuGroups.size();
    m_flow.Push(sample);
    KeepRewindState();
    if (!m_outputsStopped) {
        if (Status s = m_outputs.AfterStep(*m_sim); !s) {
            m_newErrors.push_back(s.error() + " (outputs stopped; the simulation goes on)");
            m_outputsStopped = true;
        }
    }
}

void SimWorker::NewGeneration() {
    ++m_generation;
    m_blowUp = {};
    m_bodyHistories.assign(m_sim->Bodies().size(), BodyHistory{});
    RecordBodyHistories();  // the initial state
    m_flow.Clear();
    m_rewind.Clear();
    m_stateBytes = 0;
    KeepRewindState();  // the start: rewinding can go back to t = 0
}

void SimWorker::KeepRewindState() {
    m_rewind.Configure(kRewindBudgetBytes, kRewindSeconds, double(m_sim->Params().dt));
    if (!m_rewind.Due(m_sim->StepCount(), m_stateBytes)) return;
    RewindRing::Entry entry;
    entry.step = m_sim->StepCount();
    entry.time = m_sim->Time();
    if (!m_sim->AppendState(entry.state)) return;
    // Tracers on the GPU: their positions after this step come back with a later request,
    // asked for by the step's command (QueueGpuStep ran just before).
    const bool gpu = m_gpuMode && m_sim->GetTracers().Size() == 0;
    if (gpu) {
        if (m_gpuOut.empty() || m_gpuOut.back().kind != GpuTracerCommand::Kind::Step ||
            m_gpuOut.back().step != m_sim->StepCount()) {
            return;  // (a state right after a hand-over: the next step's is kept instead)
        }
        m_gpuOut.back().keep = true;
        entry.gpuCommand = m_gpuOut.back().id;
        entry.gpuGroups = m_gpuGroups;
        entry.awaitingGpu = true;
    }
    m_stateBytes = entry.state.size() + (gpu ? m_gpuGroups.size() * (sizeof(glm::vec3) + sizeof(std::uint16_t)) : 0);
    m_rewind.Push(std::move(entry));
}

void SimWorker::RecordBodyHistories() {
    const auto bodies = m_sim->Bodies();
    m_bodyHistories.resize(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        m_bodyHistories[i].height.Push(bodies[i].position.z);
        m_bodyHistories[i].speed.Push(glm::length(bodies[i].velocity));
    }
}

void SimWorker::Fill(SimSnapshot& s) {
    const Simulation& sim = *m_sim;
    s.serial = ++m_serial;
    s.generation = m_generation;
    s.sceneId = m_sceneId;
    s.stepsCompleted = m_stepsCompleted;
    s.totalStepMs = m_totalStepMs;
    s.time = sim.Time();
    s.stepCount = sim.StepCount();
    s.stepMs = sim.LastStepMs();
    s.substeps = sim.LastStepWork().substeps;
    s.lagrangianCfl = sim.LastStepWork().lagrangianCfl;
    s.stageMs = sim.LastStageTimes();
    s.vortonCount = sim.GetVortons().Size();

    // The one copy of the tracer positions on their way to the GPU (none when they live there).
    const Tracers& tracers = sim.GetTracers();
    s.tracerPositions.assign(tracers.position.begin(), tracers.position.end());
    s.tracersOnGpu = m_gpuMode;
    glm::dvec3 sum(0.0);
    for (const glm::vec3& x : s.tracerPositions) sum += glm::dvec3(x);
    s.tracerCentroid = s.tracerPositions.empty()
                           ? (m_gpuMode && !m_gpuBox.Empty() ? m_gpuBox.Center() : glm::vec3(0.0f))
                           : glm::vec3(sum / double(s.tracerPositions.size()));
    // Groups rarely change: the renderer re-uploads them only for a new version.
    const std::vector<std::uint16_t>& groups = m_gpuMode ? m_gpuGroups : tracers.group;
    if (!std::equal(s.tracerGroups.begin(), s.tracerGroups.end(), groups.begin(), groups.end())) {
        s.tracerGroups.assign(groups.begin(), groups.end());
        s.tracerGroupsVersion = ++m_groupsVersion;
    }

    if (m_tracerSpeeds) {
        s.tracerSpeeds.resize(tracers.Size());
        for (std::size_t i = 0; i < tracers.Size() && i < tracers.velocity.size(); ++i)
            s.tracerSpeeds[i] = glm::length(tracers.velocity[i]);
    } else {
        s.tracerSpeeds.clear();
    }

    s.hasVortons = m_showVortons;
    if (m_showVortons) {
        const Vortons& v = sim.GetVortons();
        s.vortonPositions.assign(v.position.begin(), v.position.end());
        s.vortonStrength.resize(v.Size());
        const float h = sim.Spacing();
        for (std::size_t k = 0; k < v.Size(); ++k)
            s.vortonStrength[k] = glm::length(CellVorticity(v, k, h * h * h));
        s.vortonSize = v.Size() ? 0.6f * v.radius[0] : 0.02f;
    } else {
        s.vortonPositions.clear();
        s.vortonStrength.clear();
    }

    s.bodies.assign(sim.Bodies().begin(), sim.Bodies().end());
    s.bodyNames.clear();
    for (const BodySpec& b : sim.Setup().bodies) s.bodyNames.push_back(b.name);
    s.bounds = sim.Bounds();
    s.spacing = sim.Spacing();
    s.diagnostics = sim.ComputeDiagnostics();
    s.blowUp = m_blowUp;
    s.latticeNotice = sim.LatticeNotice();
    s.stepMsHistory = m_stepMsHistory;
    s.bodyHistories = m_bodyHistories;
    s.flow = m_flow;
    s.impulseLaw = ImpulseLawFor(sim.Setup());
    s.ringLaw = RingLawFor(sim.Setup());
    s.terminalLaw = TerminalLawFor(sim.Setup());
    s.dragLaw = DragLawFor(sim.Setup());
    s.sheddingLaw = SheddingLawFor(sim.Setup());
    s.rewindTimes = m_rewind.Times();
    s.rewindBytes = m_rewind.Bytes();
    s.rewindBudget = m_rewind.Budget();
}

}  // namespace vorton
