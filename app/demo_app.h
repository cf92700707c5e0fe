#pragma once
/// \file
/// The interactive demo (and its headless twin): owns the GL context, the
/// renderer, Dear ImGui, the camera, the simulation and the recorder, and runs
/// the frame loop input → step → draw → UI → swap.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <tbb/task_arena.h>

#include "app/core/options.h"
#include "app/core/run.h"
#include "app/core/scene.h"
#include "app/platform/gl_context.h"
#include "app/platform/imgui_layer.h"
#include "app/platform/orbit_camera.h"
#include "app/platform/recorder.h"
#include "render/renderer.h"
#include "sim/simulation.h"

struct GLFWwindow;

namespace vorton {

/// Live settings the panel edits besides the simulation parameters.
struct ViewSettings {
    bool showVortons = false;
    bool showBounds = false;
    bool showPanel = true;
    bool followDye = false;        ///< camera target follows the tracers' centroid
    float tracerSize = 0.006f;     ///< m
    float tracerOpacity = 0.35f;   ///< 0..1
    std::array<char, 512> recordPath{};  ///< the panel's FILE.mp4 or DIR/ field
};

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

class DemoApp {
public:
    /// Creates the window (or the headless EGL context) and everything that draws. Errors: no
    /// display (suggests --headless), no GL 3.3 context, missing shaders.
    static Result<std::unique_ptr<DemoApp>> Create(const Options& options, Scene scene);
    ~DemoApp();

    /// Runs until the window closes or options.frames steps are done. Returns an ExitCode.
    int Run();

    // Used by the panel.
    Simulation& Sim() { return *m_sim; }
    const Scene& CurrentScene() const { return m_scene; }
    const std::vector<std::string>& SceneNames() const { return m_sceneNames; }
    ViewSettings& View() { return m_view; }
    bool& Paused() { return m_paused; }
    void RequestStep() { m_stepRequested = true; }
    void RequestReset() { m_resetRequested = true; }
    void RequestScene(const std::string& name) { m_pendingScene = name; }
    void RequestScreenshot() { m_screenshotRequested = true; }
    void ResetCamera();
    int Threads() const { return m_threads; }
    void SetThreads(int threads);
    /// Starts or stops recording to `path` (FILE.mp4 or DIR/). Errors go to the status line.
    void ToggleRecording(const std::string& path);
    bool IsRecording() const { return m_recorder.IsRecording(); }
    int RecordedFrames() const { return m_recorder.FrameCount(); }
    bool& RecordPanel() { return m_recordPanel; }
    const std::string& StatusMessage() const { return m_status; }
    bool StatusIsError() const { return m_statusIsError; }
    const std::string& BlowUp() const { return m_blowUp; }
    double Fps() const { return m_fps; }
    const std::vector<float>& StepMsHistory() const { return m_stepMsHistory; }
    /// Histories of the bodies since the last reset, in the order of Sim().Bodies().
    const std::vector<BodyHistory>& BodyHistories() const { return m_bodyHistories; }
    /// The body whose history the panel plots (an index into Sim().Bodies(); grabbing selects).
    int& SelectedBody() { return m_selectedBody; }
    /// The body under the cursor and the one held by the mouse; -1 for none.
    int HoveredBody() const { return m_hoveredBody; }
    int GrabbedBody() const { return m_drag == Drag::Grab ? m_grabbedBody : -1; }

private:
    DemoApp(const Options& options, Scene scene);
    void HandleInput();
    /// Left button: grab the sphere under the cursor and move it, or orbit over empty space.
    void HandleLeftButton(GLFWwindow* window, glm::vec2 cursor, glm::vec2 delta, bool uiMouse);
    struct BodyHit {
        int body = -1;         ///< index into Sim().Bodies(); -1: none
        float distance = 0.0f; ///< along the ray, m
    };
    /// The nearest body the ray hits.
    BodyHit PickBody(const platform::Ray& ray) const;
    /// While grabbing: moves the grab point with the cursor (and the wheel) and holds the body there.
    void UpdateGrab(GLFWwindow* window, glm::vec2 cursor);
    platform::Ray CursorRay(GLFWwindow* window, glm::vec2 cursor) const;
    void ReleaseGrab();
    /// Called after a reset or a scene change: no grab, fresh histories.
    void ForgetBodies();
    void RecordBodyHistories();
    void StepSimulation();
    void ApplyRequests();
    void DrawScene();
    void FollowDye();
    void CaptureFrame(bool recordNow);
    void SetStatus(std::string message, bool error);

    Options m_options;
    Scene m_scene;
    std::vector<std::string> m_sceneNames;
    std::unique_ptr<Simulation> m_sim;
    std::unique_ptr<tbb::task_arena> m_arena;
    int m_threads = 1;

    std::unique_ptr<platform::GlContext> m_context;
    std::unique_ptr<render::Renderer> m_renderer;
    std::unique_ptr<platform::ImGuiLayer> m_imgui;
    platform::OrbitCamera m_camera;
    platform::Recorder m_recorder;
    RunOutputs m_outputs;
    ViewSettings m_view;

    bool m_paused = false;
    bool m_stepRequested = false;
    bool m_resetRequested = false;
    bool m_screenshotRequested = false;
    bool m_recordPanel = false;
    bool m_steppedThisFrame = false;
    bool m_outputFailed = false;   // some output failed: exit status 3 at the end
    bool m_runOutputsStopped = false;  // --stats / --dump-dir failed and stopped
    std::optional<std::string> m_pendingScene;
    std::string m_status;
    bool m_statusIsError = false;
    std::string m_blowUp;
    double m_fps = 0.0;
    std::vector<float> m_stepMsHistory;
    std::vector<std::uint8_t> m_pixels;
    std::vector<glm::vec4> m_palette;
    std::vector<float> m_vortonStrength;
    std::vector<render::SphereInstance> m_spheres;
    std::vector<BodyHistory> m_bodyHistories;
    int m_selectedBody = 0;

    // Grabbing a body with the left button. The grab point is where the cursor took hold
    // (on the sphere at the press, then in the plane through it facing the camera); the
    // body's target is the grab point plus m_grabOffset (centre minus the first grab point).
    enum class Drag { None, Orbit, Grab };
    Drag m_drag = Drag::None;
    bool m_leftWasDown = false;
    int m_grabbedBody = -1;
    int m_hoveredBody = -1;
    glm::vec3 m_grabPoint{0.0f};
    glm::vec3 m_grabOffset{0.0f};

    // Mouse state for the camera (the window's scroll callback adds to m_scroll).
    double m_lastX = 0.0, m_lastY = 0.0;
    bool m_keyWasDown[512] = {};

public:
    double m_scroll = 0.0;  // written by the GLFW scroll callback
};

}  // namespace vorton
