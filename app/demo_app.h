#pragma once
/// \file
/// The interactive demo (and its headless twin): owns the GL context, the
/// renderer, Dear ImGui, the camera, the simulation worker and the recorder, and
/// runs the frame loop input → sync with the worker → draw → UI → swap.
///
/// The simulation steps on its own thread (SimWorker) while this one draws the last
/// finished step, so the window stays responsive however long a step takes. Recording
/// and headless runs go in lock-step instead: each frame waits for its step, so every
/// step is a frame, as before.

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/core/options.h"
#include "app/core/run.h"
#include "scene/scene.h"
#include "app/platform/gl_context.h"
#include "app/platform/imgui_layer.h"
#include "app/platform/orbit_camera.h"
#include "app/platform/recorder.h"
#include "app/field_colours.h"
#include "app/gpu_tracer_commands.h"
#include "app/ui/edit_history.h"
#include "app/ui/param_ui.h"
#include "app/render_stats.h"
#include "app/sim_worker.h"
#include "app/ui/paint.h"
#include "render/gpu_tracers.h"
#include "render/renderer.h"
#include "sim/simulation.h"

struct GLFWwindow;

namespace vorton {

/// Live settings the panel edits besides the simulation parameters.
struct ViewSettings {
    bool showVortons = false;
    bool showBounds = false;
    bool showUi = true;            ///< the toolbar, the panel and the hint (H hides them all)
    bool showPanel = false;        ///< the full panel (the toolbar's "More", M); closed at first launch
    bool showHelp = false;         ///< the keys and mouse overlay (F1)
    bool followDye = false;        ///< the camera keeps the dye and bodies framed as they move
    bool showTimings = false;      ///< the timing window: stages, ms per step, steps/s, fps (T)
    bool showDiagnostics = false;  ///< the diagnostics dock: invariants, counts, closed-form checks (D)
    DisplaySettings display;       ///< the look (scene file's "display", --set display.KEY)
    /// What Record writes (RecordFormat): an MP4, a GIF, or a folder of PNGs; named per scene and time.
    int recordFormat = 0;
    std::array<char, 512> captureDir{};  ///< the folder recordings, screenshots and saved scenes go to
    bool saveCurrentState = false;       ///< Save scene: the bodies as they are now, not at reset
    bool paintMode = false;        ///< left drag releases blobs of dye instead of orbiting (I)
    PaintSettings paint;           ///< what a paint stroke releases
    std::array<char, 512> snapshotFile{};  ///< the snapshot Load snapshot reads (the last saved, at first)
};

/// The recording formats of ViewSettings::recordFormat, and the file extension of each ("" for
/// a PNG sequence, a folder).
inline constexpr const char* kRecordFormats[] = {"MP4 video", "GIF", "PNG folder"};
inline constexpr const char* kRecordExtensions[] = {"mp4", "gif", ""};

/// Share of the frame's height the dye and bodies span when the camera frames them (issue 13
/// asks for at least a third), or of its width (kFrameFillWidth) for a scene wider than tall.
inline constexpr float kFrameFill = 0.6f;
inline constexpr float kFrameFillWidth = 0.8f;

class DemoApp {
public:
    /// Creates the window (or the headless EGL context) and everything that draws. Errors: no
    /// display (suggests --headless), no GL 3.3 context, missing shaders.
    /// `loaded`: a simulation read from --snapshot-load (else one is made from the scene).
    static Result<std::unique_ptr<DemoApp>> Create(const Options& options, Scene scene,
                                                   std::unique_ptr<Simulation> loaded = nullptr);
    ~DemoApp();

    /// Runs until the window closes or options.frames steps are done. Returns an ExitCode.
    int Run();

    // Used by the panel.
    /// The last finished state of the simulation (read-only: the worker owns the simulation).
    const SimSnapshot& Snapshot() const { return m_front; }
    /// The panel's copy of the setup; call SetupEdited() after changing it and the worker
    /// applies it at the next step boundary.
    SceneSetup& Setup() { return m_setup; }
    void SetupEdited() { m_setupEdited = true; }
    const Scene& CurrentScene() const { return m_scene; }
    const std::vector<std::string>& SceneNames() const { return m_sceneNames; }
    /// Each scene's one-line description, in the order of SceneNames() ("" when it has none).
    const std::vector<std::string>& SceneDescriptions() const { return m_sceneDescriptions; }
    ViewSettings& View() { return m_view; }
    /// The field the dye is coloured by, as last drawn (for the legend).
    const FieldColours& Colours() const { return m_fieldColours; }
    bool& Paused() { return m_paused; }
    void RequestStep() { m_stepRequested = true; }
    /// Back to the newest state of the rewind ring at or before `time` (s) at the next step
    /// boundary; the run goes on from there (a new branch) if it is running.
    void RequestRewind(double time) { m_rewindTo = time; }
    /// The timeline slider's value while it is dragged (s).
    float& RewindScrub() { return m_rewindScrub; }
    void RequestReset() { m_resetRequested = true; }
    void RequestScene(const std::string& name) { m_pendingScene = name; }
    void RequestScreenshot() { m_screenshotRequested = true; }
    /// The panel reports its right edge as a share of the window's width each frame (DrawPanel).
    void SetPanelShare(float share) { m_panelShare = share; }
    void ResetCamera();
    /// Worker threads; a change recreates the worker's task arena at the next step boundary.
    int Threads() const { return m_threads; }
    void SetThreads(int threads);
    /// Starts or stops recording to `path` (FILE.mp4 or DIR/). Errors go to the status line.
    void ToggleRecording(const std::string& path);
    /// Starts a recording in View().captureDir named per scene and time (RecordingName) in
    /// View().recordFormat; with clipSeconds > 0 it stops by itself after that much simulated
    /// time (as many seconds of video). Stops a recording in progress instead.
    void ToggleNamedRecording(double clipSeconds = 0.0);
    /// Frames a clip still records; 0 when the recording is not a clip.
    int ClipFramesLeft() const { return m_clipFrames > 0 ? std::max(0, m_clipFrames - m_recorder.FrameCount()) : 0; }
    /// Writes the scene as the panel has it (parameters, groups, bodies, the camera's current
    /// view, the display) to `file`; with `currentState`, the bodies as they are now. The
    /// outcome goes to the status line.
    void SaveScene(const std::string& file, bool currentState);
    /// Writes the simulation's whole state and the scene as edited to `file` between steps
    /// (scene/snapshot.h); the status line says where, or why not.
    void SaveSnapshot(const std::string& file);
    /// Reads a snapshot and runs from it, as a scene change; a file that does not load leaves
    /// the running scene as it is and the status line says why.
    void LoadSnapshot(const std::string& file);
    /// The scene as the panel has it, for SaveScene and --save-scene-state current.
    Scene SceneAsEdited() const;
    /// Undo and redo of the panel's edits (Ctrl+Z / Ctrl+Y), and back to the scene file's values.
    void Undo();
    void Redo();
    bool CanUndo() const { return m_history.CanUndo(); }
    bool CanRedo() const { return m_history.CanRedo(); }
    void RestoreSceneDefaults();
    /// Simulated seconds per wall-clock second over the last 0.5 to 3 s (0 while paused).
    double RealTimeFactor() const { return m_stepsPerSecond * double(m_setup.params.dt); }
    bool IsRecording() const { return m_recorder.IsRecording(); }
    int RecordedFrames() const { return m_recorder.FrameCount(); }
    bool& RecordPanel() { return m_recordPanel; }
    const std::string& StatusMessage() const { return m_status; }
    bool StatusIsError() const { return m_statusIsError; }
    const std::string& BlowUp() const { return m_blowUp.message; }
    /// Frames drawn per second, and the render thread's time per frame issuing it (uploads,
    /// draw calls, ImGui; not the sync with the worker, the capture for a recording or the
    /// buffer swap), ms; both smoothed.
    double Fps() const { return m_fps; }
    double DrawMs() const { return m_drawMs; }
    /// The renderer's timings of the last frame (the dye grid's rebuild, the volume pass).
    const render::RenderTimings& RenderTimes() const { return m_renderer->Timings(); }
    /// Whether the renderer waits for the GPU around its passes to time them (slower).
    bool ProfilingGpu() const { return m_profileGpu; }
    void SetProfilingGpu(bool on) {
        m_profileGpu = on;
        m_renderer->SetProfiling(on || m_context->IsHeadless());
    }
    /// Simulation steps finished per second of wall-clock time, over the last 0.5 to 3 s.
    double StepsPerSecond() const { return m_stepsPerSecond; }
    /// True while frames wait for their step (recording, headless).
    bool LockStep() const { return m_lockStep; }
    /// Whether the tracers can move on the GPU (a context with compute shaders), and the switch.
    bool GpuTracersAvailable() const { return m_gpuTracers != nullptr; }
    bool& UseGpuTracers() { return m_useGpuTracers; }
    /// Histories of the bodies since the last reset, in the order of Snapshot().bodies.
    const std::vector<BodyHistory>& BodyHistories() const { return m_front.bodyHistories; }
    /// The body whose history the panel plots (an index into Snapshot().bodies; grabbing selects).
    int& SelectedBody() { return m_selectedBody; }
    /// Adds a free ball to the running scene (the panel's "Add a ball"): the selected
    /// body's size, density and colour (with none, 0.1 m and 1.2 times the ambient
    /// density), at rest at the centre of the view, raised until it touches no other
    /// body, named "ball N". It joins at the next step; Ctrl+Z takes it back.
    void AddBall();
    /// Takes body i (an index into Setup().bodies) out of the running scene; the others
    /// keep their motion. Ctrl+Z brings it back at its starting place.
    void RemoveBody(std::size_t i);
    /// The spec of Snapshot().bodies[i] in the drawn setup, matched by name (the panel's
    /// setup is a step ahead after a body was added or removed); null for a body the setup
    /// no longer has.
    const BodySpec* DrawnBodySpec(std::size_t i) const;
    /// The body under the cursor and the one held by the mouse; -1 for none.
    int HoveredBody() const { return m_hoveredBody; }
    int GrabbedBody() const { return m_drag == Drag::Grab ? m_grabbedBody : -1; }

private:
    DemoApp(const Options& options, Scene scene);
    void HandleInput();
    /// Left button: grab the sphere under the cursor and move it, or orbit over empty space.
    void HandleLeftButton(GLFWwindow* window, glm::vec2 cursor, glm::vec2 delta, bool uiMouse);
    struct BodyHit {
        int body = -1;         ///< index into Snapshot().bodies; -1: none
        float distance = 0.0f; ///< along the ray, m
    };
    /// The nearest body the ray hits.
    BodyHit PickBody(const platform::Ray& ray) const;
    /// While grabbing: moves the grab point with the cursor (and the wheel) and holds the body there.
    void UpdateGrab(GLFWwindow* window, glm::vec2 cursor);
    platform::Ray CursorRay(GLFWwindow* window, glm::vec2 cursor) const;
    void ReleaseGrab();
    void PostGrab(SimWorker::GrabCommand command);
    /// Called after a reset or a scene change: no grab.
    void ForgetBodies();
    /// Scene change and reset requests: load the scene, post them to the worker.
    void ApplyRequests();
    /// Hands this frame's edits to the worker and takes its latest snapshot. Returns true
    /// when the snapshot holds a step this frame has not shown yet.
    bool SyncWithWorker(bool lockStep, bool allowStep);
    /// The setup the drawn snapshot was made with: the previous scene's until the worker has
    /// built the new one.
    const SceneSetup& DrawnSetup() const;
    void DrawScene();
    /// The box around most of the dye (2nd to 98th percentile of the tracers on each axis,
    /// from at most 8192 of them) and around the framed bodies (FramedBodyIndices), m; empty
    /// when there is neither. With camera.frame_bodies > 0 and bodies, only the tracers within
    /// that many radii of a framed body's surface (in the box around it) count, from at most 65536.
    Aabb FramedBox() const;
    /// The drawn bodies the camera frames and follows (FramedBodies: the selected one and
    /// those near enough to it), ascending indices into m_front.bodies.
    std::vector<std::size_t> FramedBodyIndices() const;
    /// Aims the camera at FramedBox()'s centre from the distance at which the box spans
    /// kFrameFill of the frame (issue 13: the dye at 1 % of the frame).
    void FitCamera();
    /// Puts the floor display.floorDepth below FramedBox() (on load and reset).
    void PlaceFloor();
    /// With display.floorRecedes: lowers the floor to stay min(0.25 m, floorDepth / 4) below
    /// FramedBox() (each new step); it never rises but on reset.
    void LowerFloor();
    /// With followDye: eases the target to FramedBox()'s centre and the distance to its fit.
    /// With camera.frame_bodies > 0 the target first moves as far as the framed bodies' mean
    /// position moved since the previous step, so a ball falling steadily stays centred, not a radius
    /// behind (the easing alone lags nine steps' travel).
    void FollowDye();
    /// The share of the frame's width the panel leaves free for framing (1 without it), after
    /// setting the camera's lens shift so the view centres in that part. A recording without
    /// the panel gets the whole frame.
    float FreeWidthShare();
    /// Reads the frame back for the recorder and a requested screenshot. Returns the time it
    /// took, ms (0 when neither wanted it).
    double CaptureFrame(bool recordNow);
    void SetStatus(std::string message, bool error);
    /// After the UI is drawn: records a settled panel edit as an undo step.
    void TrackEdits();
    /// Tracers on the GPU (--gpu-tracers): the worker's commands since the last Sync, applied
    /// in order; then their positions read back into the snapshot for the dye volume, the
    /// camera and the panel, and their bounds kept for the next request.
    void ApplyGpuCommands();
    /// Hands the GPU's tracers back to the simulation (speed colours, a snapshot to save).
    void ReturnGpuTracers();
    /// Whether the next request asks for the tracers on the GPU.
    bool WantGpuTracers() const;
    /// The toolbar, panel, hint, docks and overlays of a UI frame, as the view asks.
    void DrawInterface();
    /// Ctrl+Z, Ctrl+Y (and Ctrl+Shift+Z) from the keyboard.
    void HandleUndoKeys(GLFWwindow* window);
    /// Puts back the panel's state an undo or redo returned (nothing when none).
    void RestoreEdits(std::optional<PanelEdits> state, const char* what);
    /// True (and a screenshot requested) when the step shown is one of --shots not yet taken.
    bool TakeShot();

    Options m_options;
    std::int64_t m_startStep = 0;  ///< the step the run started at (a loaded snapshot's); --frames counts from it
    Scene m_scene;
    SceneSetup m_setup;          // the panel's copy (see Setup())
    SceneSetup m_previousSetup;  // the last scene's, until the worker shows the new scene
    std::uint64_t m_sceneId = 0;  // counts scene changes; SimSnapshot::sceneId follows
    std::vector<std::string> m_sceneNames;
    std::vector<std::string> m_sceneDescriptions;
    EditHistory<PanelEdits> m_history;
    int m_clipFrames = 0;  ///< frames of the clip being recorded (1 + its steps); 0: not a clip
    std::unique_ptr<SimWorker> m_worker;
    SimSnapshot m_front;
    int m_threads = 1;

    std::unique_ptr<platform::GlContext> m_context;
    std::unique_ptr<render::Renderer> m_renderer;
    std::unique_ptr<render::GpuTracers> m_gpuTracers;  ///< on an OpenGL 4.3 context (not with --cpu-tracers)
    bool m_useGpuTracers = false;  ///< the tracers go to the GPU where the scene allows (the panel's switch)
    std::unique_ptr<GpuTracerLink> m_gpuLink;  ///< with m_gpuTracers: the worker's commands to it
    std::int64_t m_gpuSteps = 0;  ///< steps the GPU moved the tracers
    double m_gpuMs = 0.0;         ///< their wall time with the read-backs, ms
    std::unique_ptr<platform::ImGuiLayer> m_imgui;
    platform::OrbitCamera m_camera;
    bool m_fitPending = false;  ///< FitCamera() once the snapshot shows the scene's state
    bool m_floorPending = true;  ///< PlaceFloor() likewise
    float m_floorHeight = -1.0f; ///< m, world z of the floor
    float m_panelShare = 0.0f;  ///< the panel's right edge / the window's width, last frame
    float m_fittedShare = 0.0f;  ///< m_panelShare when FitCamera() last ran
    /// The bodies' mean position and the step FollowDye() last saw them at (camera.frame_bodies).
    glm::vec3 m_followedBodies{0.0f};
    std::vector<std::size_t> m_followedSet;  ///< the bodies that mean was over
    std::int64_t m_followedStep = -1;
    platform::Recorder m_recorder;
    ViewSettings m_view;

    bool m_paused = false;
    bool m_stepRequested = false;
    std::optional<double> m_rewindTo;
    float m_rewindScrub = 0.0f;
    bool m_resetRequested = false;
    bool m_setupEdited = false;
    bool m_screenshotRequested = false;
    std::int64_t m_lastShot = -1;  ///< the step of the last --shots PNG
    bool m_recordPanel = false;
    bool m_lockStep = false;
    bool m_outputFailed = false;   // some output failed: exit status 3 at the end
    std::optional<std::string> m_pendingScene;
    std::optional<SceneSetup> m_newScene;  // loaded, to post to the worker
    std::vector<SimWorker::GrabCommand> m_grabs;  // to post to the worker
    std::vector<std::string> m_workerErrors;
    std::string m_status;
    bool m_statusIsError = false;
    BlowUpReport m_blowUp;  // the worker's, held until its snapshot is healthy again
    std::string m_latticeNotice;  // the last SimSnapshot::latticeNotice shown (once per change)
    double m_fps = 0.0;
    double m_drawMs = 0.0;
    bool m_profileGpu = false;
    double m_stepsPerSecond = 0.0;
    std::uint64_t m_rateSteps = 0;  // stepsCompleted at the start of the rate window
    double m_rateSeconds = 0.0;     // length of the rate window so far, s
    std::vector<std::uint8_t> m_pixels;
    std::vector<glm::vec4> m_palette;
    std::vector<render::SphereInstance> m_spheres;
    RenderStats m_renderStats;
    FieldColours m_fieldColours;
    int m_selectedBody = 0;

    // Grabbing a body with the left button. The grab point is where the cursor took hold
    // (on the sphere at the press, then in the plane through it facing the camera); the
    // body's target is the grab point plus m_grabOffset (centre minus the first grab point).
    enum class Drag { None, Orbit, Grab, Paint };
    /// Paint mode: releases a blob at the cursor (PaintPoint at the camera target's depth).
    void PaintAt(GLFWwindow* window, glm::vec2 cursor);
    std::vector<SimWorker::PaintCommand> m_paints;  // posted at the next Sync
    std::optional<glm::vec3> m_lastPaint;           // the stroke's last blob
    std::optional<glm::vec3> m_paintCursor;         // the cursor on the paint plane last frame
    double m_paintCursorTime = 0.0;                 // glfwGetTime() then, s
    int m_paintCount = 0;
    Drag m_drag = Drag::None;
    bool m_leftWasDown = false;
    int m_grabbedBody = -1;
    int m_hoveredBody = -1;
    glm::vec3 m_grabPoint{0.0f};
    glm::vec3 m_grabOffset{0.0f};
    std::optional<glm::vec3> m_postedTarget;  // the last target sent for the held body

    // Mouse state for the camera (the window's scroll callback adds to m_scroll).
    double m_lastX = 0.0, m_lastY = 0.0;
    bool m_keyWasDown[512] = {};

public:
    double m_scroll = 0.0;  // written by the GLFW scroll callback
};

}  // namespace vorton
