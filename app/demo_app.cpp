#include "app/demo_app.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <tbb/info.h>

#include "app/gpu_tracer_commands.h"
#include "app/panel.h"
#include "app/ui/files.h"
#include "render/gl_loader.h"

namespace vorton {

namespace {


void ScrollCallback(GLFWwindow* window, double, double dy) {
    if (auto* app = static_cast<DemoApp*>(glfwGetWindowUserPointer(window))) app->m_scroll += dy;
}

int RecordingFps(float dt) { return std::clamp(int(std::lround(1.0 / double(dt))), 1, 120); }

/// The "description" of a scene file, or "" (read for the picker, without loading the scene).
std::string SceneDescription(const std::filesystem::path& file) {
    std::ifstream in(file);
    const nlohmann::json root = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
    if (!root.is_object() || !root.contains("description") || !root["description"].is_string()) return {};
    return root["description"].get<std::string>();
}

}  // namespace

DemoApp::DemoApp(const Options& options, Scene scene)
    : m_options(options), m_scene(std::move(scene)), m_setup(m_scene.setup), m_previousSetup(m_setup) {}

DemoApp::~DemoApp() {
    m_worker.reset();  // waits for a step in progress
    if (m_recorder.IsRecording()) {
        if (Status s = m_recorder.Stop(); !s) std::cerr << "vorton: recording: " << s.error() << "\n";
    }
    m_imgui.reset();     // before its context
    m_renderer.reset();  // GL objects need the context
    m_context.reset();
}

Result<std::unique_ptr<DemoApp>> DemoApp::Create(const Options& options, Scene scene,
                                                 std::unique_ptr<Simulation> loaded) {
    std::unique_ptr<DemoApp> app(new DemoApp(options, std::move(scene)));
    app->m_sceneNames = ListSceneNames(DataDirectory() / "scenes");
    for (const std::string& name : app->m_sceneNames) {
        app->m_sceneDescriptions.push_back(SceneDescription(DataDirectory() / "scenes" / (name + ".json")));
    }
    app->m_view.showPanel = options.openPanel;
    app->m_view.showDiagnostics = options.openDiagnostics;
    std::snprintf(app->m_view.captureDir.data(), app->m_view.captureDir.size(), "%s", options.screenshotDir.c_str());
    app->SetThreads(options.threads);
    auto sim = loaded ? std::move(loaded) : std::make_unique<Simulation>(app->m_scene.setup);
    app->m_startStep = sim->StepCount();
    app->m_paused = options.paused;
    app->m_recordPanel = options.recordPanel;
    app->m_view.display = app->m_scene.display;

    auto context = options.headless ? platform::GlContext::CreateHeadless(options.width, options.height)
                                    : platform::GlContext::CreateWindow(options.width, options.height,
                                                                        "vorton: " + app->m_scene.name);
    if (!context) return Error{context.error()};
    app->m_context = std::move(context.value());
    if (GLFWwindow* window = app->m_context->Window()) {
        // Installed before ImGui's backend, which then chains to it.
        glfwSetWindowUserPointer(window, app.get());
        glfwSetScrollCallback(window, ScrollCallback);
        app->m_context->SetVsync(true);
    }
    auto renderer = render::Renderer::Create(DataDirectory() / "shaders");
    if (!renderer) return Error{renderer.error()};
    app->m_renderer = std::move(renderer.value());
    // Headless frames wait for the GPU anyway (ReadPixels): time its passes too.
    app->m_renderer->SetProfiling(options.headless);
    // The tracers on the GPU where it has compute shaders; by default not on a software
    // renderer, where the CPU's own passes are faster (issue 15's note).
    if (!options.cpuTracers && (render::GpuTracers::ContextSupports() || options.gpuTracers)) {
        auto gpu = render::GpuTracers::Create(DataDirectory() / "shaders");
        if (gpu) {
            app->m_gpuTracers = std::move(gpu.value());
            app->m_gpuLink = std::make_unique<GpuTracerLink>(*app->m_gpuTracers);
            app->m_useGpuTracers = options.gpuTracers || !render::IsSoftwareRenderer();
        } else if (options.gpuTracers) {
            app->SetStatus(gpu.error() + "; the CPU moves the tracers", true);
        } else {
            std::cerr << "vorton: " << gpu.error() << "; the CPU moves the tracers\n";
        }
    }
    // A window on a software renderer (Mesa's llvmpipe, no GPU) marches the dye at half
    // resolution, about 3x faster; headless frames (stills, videos) keep the scene's choice.
    if (!options.headless && render::IsSoftwareRenderer() && !app->m_view.display.halfResolution) {
        app->m_view.display.halfResolution = true;
        app->SetStatus("software renderer: the dye is marched at half resolution (Display to change)", false);
    }
    if (!options.headless || options.recordPanel) {
        // A window remembers its panels' places (headless frames do not depend on a file).
        const std::filesystem::path config = ConfigDirectory();
        const std::string ini = options.headless || config.empty() ? std::string() : (config / "imgui.ini").string();
        auto imgui = platform::ImGuiLayer::Create(*app->m_context, ini, options.uiScale);
        if (!imgui) return Error{imgui.error()};
        app->m_imgui = std::move(imgui.value());
    }
    app->ResetCamera();
    RunOutputs outputs;
    if (Status s = outputs.Open(options, *sim); !s) return Error{s.error()};
    // A window given --frames stops stepping there; headless frames step one by one anyway.
    const std::int64_t maxSteps = options.headless || options.frames < 0 ? -1 : app->m_startStep + options.frames;
    app->m_worker = std::make_unique<SimWorker>(std::move(sim), app->m_threads, std::move(outputs), maxSteps);
    SimWorker::FrameRequest first;  // takes the initial state; nothing to post yet
    first.threads = app->m_threads;
    std::vector<std::string> errors;
    app->m_worker->Sync(first, app->m_front, errors);
    if (app->m_fitPending) {
        app->FitCamera();  // the first frame already framed
        app->m_fitPending = false;
    }
    app->PlaceFloor();
    app->m_floorPending = false;
    if (!options.record.empty()) app->ToggleRecording(options.record);
    app->m_history.Restart(PanelEdits{app->m_setup, app->m_view.display});
    return app;
}

void DemoApp::SetThreads(int threads) {
    m_threads = threads > 0 ? threads : tbb::info::default_concurrency();
}

void DemoApp::SetStatus(std::string message, bool error) {
    if (error) std::cerr << "vorton: " << message << "\n";
    m_status = std::move(message);
    m_statusIsError = error;
}

void DemoApp::ToggleRecording(const std::string& path) {
    m_clipFrames = 0;
    if (m_recorder.IsRecording()) {
        const int frames = m_recorder.FrameCount();
        const std::string where = m_recorder.Path().string();
        if (Status s = m_recorder.Stop(); !s) {
            SetStatus("recording: " + s.error(), true);
        } else {
            SetStatus("recorded " + std::to_string(frames) + " frames to " + where, false);
        }
        return;
    }
    const glm::ivec2 size = m_context->FramebufferSize();
    if (Status s = m_recorder.Start(path, size.x, size.y, RecordingFps(m_setup.params.dt)); !s) {
        SetStatus("cannot record: " + s.error() + " (the simulation goes on)", true);
        m_outputFailed = true;
        return;
    }
    SetStatus("recording to " + path, false);
}

void DemoApp::ForgetBodies() {
    // The simulation is being rebuilt or reset: its bodies will no longer be held. The button
    // stays down until released, so the drag ends here rather than turning into an orbit.
    if (m_drag == Drag::Grab) m_drag = Drag::None;
    m_grabbedBody = -1;
    m_hoveredBody = -1;
    m_postedTarget.reset();
    m_grabs.clear();  // the worker forgets holds at a reset anyway; releases are moot
}

void DemoApp::ApplyRequests() {
    if (m_pendingScene) {
        const std::string name = *m_pendingScene;
        m_pendingScene.reset();
        auto scene = LoadSceneFile(DataDirectory() / "scenes" / (name + ".json"));
        if (!scene) {
            SetStatus(scene.error(), true);
        } else {
            // Drawn with the old setup until the worker has built the new simulation.
            if (m_front.sceneId == m_sceneId) m_previousSetup = m_setup;
            m_scene = std::move(scene.value());
            m_setup = m_scene.setup;
            // The user's look stays; where the floor goes is the scene's.
            m_view.display.floor = m_scene.display.floor;
            m_view.display.floorDepth = m_scene.display.floorDepth;
            m_newScene = m_setup;
            ++m_sceneId;
            m_resetRequested = false;  // a new scene starts afresh anyway
            m_history.Restart(PanelEdits{m_setup, m_view.display});
            m_selectedBody = 0;
            ForgetBodies();
            ResetCamera();
            SetStatus("loaded " + m_scene.name, false);
            if (GLFWwindow* window = m_context->Window()) glfwSetWindowTitle(window, ("vorton: " + name).c_str());
        }
    }
    if (m_resetRequested) {
        ForgetBodies();
        m_floorPending = true;
    }
}

bool DemoApp::SyncWithWorker(bool lockStep, bool allowStep) {
    const bool canStep = allowStep && m_blowUp.Empty();
    SimWorker::FrameRequest request;
    request.newScene = m_newScene ? &*m_newScene : nullptr;
    request.sceneId = m_sceneId;
    request.setup = m_setupEdited ? &m_setup : nullptr;
    request.reset = m_resetRequested;
    request.grabs = m_grabs;
    request.paints = m_paints;
    request.rewindTo = m_rewindTo;
    request.threads = m_threads;
    request.showVortons = m_view.showVortons;
    request.tracerSpeeds = ColourField(m_view.display.colour) == ColourField::Speed;
    // Speed colours need the tracers' velocities, which only the CPU keeps.
    if (m_front.tracersOnGpu && !WantGpuTracers()) ReturnGpuTracers();
    request.gpuTracers = WantGpuTracers();
    if (m_gpuLink) m_gpuLink->FillRequest(request);
    request.run = canStep && !m_paused;
    request.singleStep = canStep && m_stepRequested;
    request.lockStep = lockStep;
    const std::uint64_t stepsBefore = m_front.stepsCompleted;
    const bool fresh = m_worker->Sync(request, m_front, m_workerErrors);
    ApplyGpuCommands();
    m_newScene.reset();
    m_setupEdited = false;
    m_resetRequested = false;
    m_grabs.clear();
    m_paints.clear();
    m_rewindTo.reset();
    if (allowStep) m_stepRequested = false;  // handed over, or dropped after a blow-up as before

    for (std::string& error : m_workerErrors) {
        SetStatus(std::move(error), true);
        m_outputFailed = true;
    }
    m_workerErrors.clear();
    if (!fresh) return false;
    if (m_fitPending && m_front.sceneId == m_sceneId) {
        FitCamera();
        m_fitPending = false;
    }
    if (m_floorPending && m_front.sceneId == m_sceneId && m_front.stepCount == 0) {
        PlaceFloor();
        m_floorPending = false;
    } else if (!m_floorPending) {
        LowerFloor();
    }
    if (m_front.blowUp.Empty()) {
        m_blowUp = {};
    } else if (m_blowUp.Empty()) {
        m_blowUp = m_front.blowUp;
        m_paused = true;
        if (m_context->IsHeadless()) {
            m_status = m_blowUp.message;  // printed with its advice when the run ends
            m_statusIsError = true;
        } else {
            SetStatus(m_blowUp.message + ". " + BlowUpAdvice(true, m_blowUp.stateKept), true);
        }
    }
    if (m_front.latticeNotice != m_latticeNotice) {
        // Once per change, in the status line and on stderr: a coarser lattice than the scene
        // asked for changes what the user sees (a ball's wake, its drag) without any error.
        m_latticeNotice = m_front.latticeNotice;
        if (!m_latticeNotice.empty()) {
            std::cerr << "vorton: step " << m_front.stepCount << ": " << m_latticeNotice << "\n";
            if (m_blowUp.Empty()) SetStatus(m_latticeNotice, false);
        }
    }
    // (A ball just added is selected before the worker has it.)
    const std::size_t bodies = std::max(m_front.bodies.size(), m_setup.bodies.size());
    if (m_selectedBody < 0 || std::size_t(m_selectedBody) >= bodies) m_selectedBody = 0;
    if (m_grabbedBody >= 0 && std::size_t(m_grabbedBody) >= m_front.bodies.size()) ReleaseGrab();
    return m_front.stepsCompleted != stepsBefore;
}

bool DemoApp::WantGpuTracers() const {
    return m_gpuTracers && m_useGpuTracers && ColourField(m_view.display.colour) != ColourField::Speed;
}

void DemoApp::ApplyGpuCommands() {
    std::vector<GpuTracerCommand>& commands = m_front.gpuCommands;
    if (!m_gpuLink) {
        commands.clear();
        return;
    }
    const auto start = std::chrono::steady_clock::now();
    const bool any = !commands.empty();
    const GpuTracerLink::Applied applied = m_gpuLink->Apply(commands);
    if (applied.stats.nonFinite > 0) {
        SetStatus(std::to_string(applied.stats.nonFinite) + " GPU tracers left the finite numbers", true);
    }
    if (m_front.tracersOnGpu && (any || m_front.tracerPositions.size() != m_gpuTracers->Count())) {
        // The dye volume, the camera and the panel read them on the CPU.
        m_gpuTracers->ReadPositions(m_front.tracerPositions);
    }
    if (applied.steps > 0) {
        m_gpuSteps += applied.steps;
        m_gpuMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
}

void DemoApp::ReturnGpuTracers() {
    if (!m_gpuLink) return;
    if (const Status s = m_gpuLink->TakeBack(*m_worker); !s) SetStatus("GPU tracers: " + s.error(), true);
}

const SceneSetup& DemoApp::DrawnSetup() const {
    return m_front.sceneId == m_sceneId ? m_setup : m_previousSetup;
}

const BodySpec* DemoApp::DrawnBodySpec(std::size_t i) const {
    const std::vector<BodySpec>& specs = DrawnSetup().bodies;
    if (i >= m_front.bodies.size()) return nullptr;
    // A snapshot from before names were published (none yet): by index.
    if (i >= m_front.bodyNames.size()) return i < specs.size() ? &specs[i] : nullptr;
    const std::string& name = m_front.bodyNames[i];
    if (i < specs.size() && specs[i].name == name) return &specs[i];
    for (const BodySpec& spec : specs) {
        if (spec.name == name) return &spec;
    }
    return nullptr;
}

double DemoApp::CaptureFrame(bool recordNow) {
    if (!recordNow && !m_screenshotRequested) return 0.0;
    const auto start = std::chrono::steady_clock::now();
    m_context->ReadPixels(m_pixels);
    const glm::ivec2 size = m_context->FramebufferSize();
    if (recordNow) {
        if (Status s = m_recorder.AddFrame(m_pixels.data()); !s) {
            SetStatus("recording stopped: " + s.error() + " (the simulation goes on)", true);
            m_outputFailed = true;
            (void)m_recorder.Stop();
        }
    }
    if (m_screenshotRequested) {
        m_screenshotRequested = false;
        char name[128];
        std::snprintf(name, sizeof name, "vorton_%s_%06lld.png", m_scene.name.c_str(),
                      static_cast<long long>(m_front.stepCount));
        const std::filesystem::path dir(m_options.screenshotDir);
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);  // a new folder is made; a failure shows below
        const std::filesystem::path file = dir / name;
        if (Status s = platform::WritePng(file, size.x, size.y, m_pixels.data()); !s) {
            SetStatus("screenshot: " + s.error(), true);
            m_outputFailed = true;
        } else {
            SetStatus("saved " + file.string(), false);
        }
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void DemoApp::DrawInterface() {
    const bool ui = m_view.showUi || m_recordPanel;
    if (ui) DrawToolbar(*this);
    if (ui && m_view.showPanel) {
        DrawPanel(*this);
    } else {
        SetPanelShare(0.0f);
    }
    if (ui && !m_view.showPanel) DrawMouseHint(*this);
    if (m_view.showTimings) DrawTimings(*this);
    if (m_view.showDiagnostics) DrawDiagnostics(*this);
    if (m_view.showHelp) DrawHelp(*this);
    if (ColourField(m_view.display.colour) != ColourField::Dye) DrawLegend(*this);
    if (!m_recordPanel) DrawRecordingIndicator(*this);  // no REC mark in the recording
    DrawGrabFeedback(*this);
}

bool DemoApp::TakeShot() {
    const auto& shots = m_options.shots;
    const std::int64_t step = m_front.stepCount;
    if (step == m_lastShot || std::find(shots.begin(), shots.end(), step) == shots.end()) return false;
    m_lastShot = step;
    m_screenshotRequested = true;
    return true;
}

int DemoApp::Run() {
    using Clock = std::chrono::steady_clock;
    const bool headless = m_context->IsHeadless();
    std::int64_t frames = headless ? FramesWithoutWindow(m_options) : m_options.frames;
    if (frames >= 0 && m_options.frames > 0) frames += m_startStep;  // --frames N: N more steps
    const auto start = Clock::now();
    auto lastFrame = start;
    std::int64_t frameCount = 0;
    double syncMsTotal = 0.0, drawMsTotal = 0.0;  // for the summary at the end
    bool first = true;
    // The frame rate and the steps per second, over every frame, drawn or not (a headless
    // --shots run draws only its shots, and their panel shows these rates).
    const auto updateRates = [&] {
        const auto now = Clock::now();
        const double seconds = std::chrono::duration<double>(now - lastFrame).count();
        lastFrame = now;
        if (seconds > 0.0) m_fps = m_fps == 0.0 ? 1.0 / seconds : 0.9 * m_fps + 0.1 / seconds;
        // Over at least half a second, longer while steps are slower than that (up to 3 s,
        // after which a paused simulation reads 0).
        m_rateSeconds += seconds;
        const bool anyStep = m_front.stepsCompleted != m_rateSteps;
        if ((m_rateSeconds >= 0.5 && anyStep) || m_rateSeconds >= 3.0) {
            m_stepsPerSecond = double(m_front.stepsCompleted - m_rateSteps) / m_rateSeconds;
            m_rateSteps = m_front.stepsCompleted;
            m_rateSeconds = 0.0;
        }
    };
    InstallStopSignals();
    while (!m_context->ShouldClose() && StopSignal() == 0) {
        m_context->PollEvents();
        // With the UI, after its NewFrame: whether it has the mouse is this frame's answer.
        if (!m_imgui) HandleInput();
        // m_front is the state the last frame showed.
        if (!first && frames >= 0 && m_front.stepCount >= frames) break;
        ApplyRequests();
        // Every recorded frame is one step, and a headless run's output must not depend on
        // timing: there the frame waits for its step. Frame 0 shows the initial state.
        m_lockStep = headless || m_recorder.IsRecording();
        const auto syncStart = Clock::now();
        const bool stepped = SyncWithWorker(m_lockStep, !first || !m_lockStep);
        syncMsTotal += std::chrono::duration<double, std::milli>(Clock::now() - syncStart).count();
        if (headless && !m_blowUp.Empty()) break;
        const bool recordThisFrame = m_recorder.IsRecording() && (first || stepped);
        first = false;
        // --shots: a PNG of each listed step; headless frames without a shot or a recording are
        // not drawn at all (the simulation still steps).
        const bool shot = TakeShot();
        if (headless && !m_options.shots.empty() && !shot && !recordThisFrame) {
            FollowDye();
            ++frameCount;
            updateRates();
            continue;
        }

        const auto drawStart = Clock::now();
        // The lens shift for where the panel is now; the first frame with the panel drawn
        // tells its width, so a framing made without it is redone once.
        if (FreeWidthShare() < 1.0f - m_fittedShare - 0.02f && frameCount == 1 && m_scene.camera.fit) FitCamera();
        FollowDye();
        m_context->BeginFrame();
        DrawScene();
        double captureMs = m_recordPanel ? 0.0 : CaptureFrame(recordThisFrame);
        if (m_imgui) {
            // ImGui sizes an auto-sized window (the toolbar) to the previous frame's contents
            // and hides it the first frame it appears; a headless --shots run draws no frame
            // between its shots, so an undrawn frame first lets the windows fit this one.
            if (headless) {
                m_imgui->NewFrame();
                DrawInterface();
                m_imgui->EndFrameUndrawn();
            }
            m_imgui->NewFrame();
            HandleInput();
            DrawInterface();
            TrackEdits();
            m_imgui->Render();
        }
        if (m_recordPanel) captureMs = CaptureFrame(recordThisFrame);
        // A clip stops by itself once it has its frames.
        if (m_clipFrames > 0 && m_recorder.IsRecording() && m_recorder.FrameCount() >= m_clipFrames) {
            ToggleRecording({});
        }
        const auto drawEnd = Clock::now();
        m_context->EndFrame();
        ++frameCount;

        const double drawMs = std::chrono::duration<double, std::milli>(drawEnd - drawStart).count() - captureMs;
        m_drawMs = m_drawMs == 0.0 ? drawMs : 0.9 * m_drawMs + 0.1 * drawMs;
        drawMsTotal += drawMs;
        updateRates();
    }
    // A free-running step in progress ends (its outputs and their errors count), then the
    // worker stops; edits still pending are dropped.
    m_resetRequested = m_setupEdited = false;
    SyncWithWorker(/*lockStep=*/true, /*allowStep=*/false);
    if (!m_options.snapshotSave.empty()) {
        if (m_front.tracersOnGpu) ReturnGpuTracers();  // the snapshot holds the tracers
        if (Status s = m_worker->WriteSnapshot(m_options.snapshotSave, SceneAsEdited()); !s) {
            std::cerr << "vorton: --snapshot-save: " << s.error() << "\n";
            m_outputFailed = true;
        }
    }
    m_worker.reset();
    if (Status s = SaveSceneIfAsked(m_options, "current", SceneAsEdited(), m_front.bodies); !s) {
        std::cerr << "vorton: " << s.error() << "\n";
        m_outputFailed = true;
    }
    const double wallSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (m_front.stepsCompleted > 0 && frameCount > 0) {
        std::cerr << "vorton: " << m_scene.name << ": " << m_front.stepsCompleted << " steps, mean "
                  << m_front.totalStepMs / double(m_front.stepsCompleted) << " ms/step; " << frameCount
                  << " frames, mean " << 1000.0 * wallSeconds / double(frameCount) << " ms/frame (waiting for steps "
                  << syncMsTotal / double(frameCount) << " ms, drawing " << drawMsTotal / double(frameCount)
                  << " ms)\n";
        if (headless) std::cerr << "vorton: " << m_renderStats.Summary() << "\n";
    }
    if (m_gpuTracers && m_useGpuTracers) {
        if (m_gpuSteps > 0) {
            std::cerr << "vorton: tracers moved on the GPU (" << reinterpret_cast<const char*>(glGetString(GL_RENDERER))
                      << "): " << m_gpuSteps << " steps, mean " << m_gpuMs / double(m_gpuSteps)
                      << " ms per step with the read-back\n";
        } else {
            std::cerr << "vorton: --gpu-tracers: the CPU moved the tracers (the scene emits or releases dye, "
                         "an output or the colours need them there)\n";
        }
    }
    const int signal = StopSignal();
    if (signal != 0) std::cerr << "vorton: stopped by signal " << signal << " at step " << m_front.stepCount << "\n";
    if (m_recorder.IsRecording()) {
        const int recorded = m_recorder.FrameCount();
        if (Status s = m_recorder.Stop(); !s) {
            SetStatus("recording: " + s.error(), true);
            if (signal != 0) std::cerr << "vorton: recording: " << s.error() << "\n";
            m_outputFailed = true;
        } else if (headless || signal != 0) {
            std::cerr << "vorton: recorded " << recorded << " frames to " << m_recorder.Path().string()
                      << (signal != 0 ? " (finished: the file is complete)" : "") << "\n";
        }
    }
    if (signal != 0) return ExitForSignal(signal);
    if (!m_blowUp.Empty() && headless) {
        std::cerr << "vorton: " << m_blowUp.message << "\nvorton: " << BlowUpAdvice(false, m_blowUp.stateKept) << "\n";
        return kExitRuntime;
    }
    return m_outputFailed ? kExitRuntime : kExitOk;
}

}  // namespace vorton
