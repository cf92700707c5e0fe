#include "app/demo_app.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <tbb/info.h>

#include "app/panel.h"

namespace vorton {

namespace {

platform::CameraPose ToPose(const CameraSettings& c) {
    platform::CameraPose pose;
    pose.target = c.target;
    pose.distance = c.distance;
    pose.yaw = c.yaw;
    pose.pitch = c.pitch;
    pose.fovY = c.fovY;
    return pose;
}

void ScrollCallback(GLFWwindow* window, double, double dy) {
    if (auto* app = static_cast<DemoApp*>(glfwGetWindowUserPointer(window))) app->m_scroll += dy;
}

int RecordingFps(float dt) { return std::clamp(int(std::lround(1.0 / double(dt))), 1, 120); }

}  // namespace

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

DemoApp::DemoApp(const Options& options, Scene scene) : m_options(options), m_scene(std::move(scene)) {}

DemoApp::~DemoApp() {
    if (m_recorder.IsRecording()) {
        if (Status s = m_recorder.Stop(); !s) std::cerr << "vorton: recording: " << s.error() << "\n";
    }
    m_imgui.reset();     // before its context
    m_renderer.reset();  // GL objects need the context
    m_context.reset();
}

Result<std::unique_ptr<DemoApp>> DemoApp::Create(const Options& options, Scene scene) {
    std::unique_ptr<DemoApp> app(new DemoApp(options, std::move(scene)));
    app->m_sceneNames = ListSceneNames(DataDirectory() / "scenes");
    app->SetThreads(options.threads);
    app->m_sim = std::make_unique<Simulation>(app->m_scene.setup);
    app->ForgetBodies();
    app->m_paused = options.paused;
    app->m_recordPanel = options.recordPanel;

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
    if (!options.headless || options.recordPanel) {
        auto imgui = platform::ImGuiLayer::Create(*app->m_context);
        if (!imgui) return Error{imgui.error()};
        app->m_imgui = std::move(imgui.value());
    }
    app->ResetCamera();
    if (Status s = app->m_outputs.Open(options, *app->m_sim); !s) return Error{s.error()};
    if (!options.record.empty()) app->ToggleRecording(options.record);
    return app;
}

void DemoApp::SetThreads(int threads) {
    m_threads = threads > 0 ? threads : tbb::info::default_concurrency();
    m_arena = std::make_unique<tbb::task_arena>(m_threads);
}

void DemoApp::ResetCamera() {
    m_camera.Reset(ToPose(m_scene.camera));
    m_view.followDye = m_scene.camera.follow;
}

void DemoApp::FollowDye() {
    const Tracers& t = m_sim->GetTracers();
    if (!m_view.followDye || t.Size() == 0) return;
    glm::dvec3 sum(0.0);
    for (const glm::vec3& x : t.position) sum += glm::dvec3(x);
    const glm::vec3 centroid = glm::vec3(sum / double(t.Size()));
    // Ease towards it so the view glides rather than jumps.
    platform::CameraPose pose = m_camera.Pose();
    pose.target += 0.1f * (centroid - pose.target);
    m_camera.Reset(pose);
}

void DemoApp::SetStatus(std::string message, bool error) {
    if (error) std::cerr << "vorton: " << message << "\n";
    m_status = std::move(message);
    m_statusIsError = error;
}

void DemoApp::ToggleRecording(const std::string& path) {
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
    if (Status s = m_recorder.Start(path, size.x, size.y, RecordingFps(m_sim->Params().dt)); !s) {
        SetStatus("cannot record: " + s.error() + " (the simulation goes on)", true);
        m_outputFailed = true;
        return;
    }
    SetStatus("recording to " + path, false);
}

void DemoApp::HandleInput() {
    GLFWwindow* window = m_context->Window();
    if (!window) return;
    double x, y;
    glfwGetCursorPos(window, &x, &y);
    const glm::vec2 cursor{float(x), float(y)};
    const glm::vec2 delta{float(x - m_lastX), float(y - m_lastY)};
    m_lastX = x;
    m_lastY = y;
    const bool uiMouse = m_imgui && m_imgui->WantsMouse();
    HandleLeftButton(window, cursor, delta, uiMouse);
    if (!uiMouse) {
        if (glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
            glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS) {
            m_camera.Pan(delta.x, delta.y, m_context->FramebufferSize().y);
        }
        // While a body is held the wheel pushes and pulls it instead (UpdateGrab).
        if (m_scroll != 0.0 && m_drag != Drag::Grab) m_camera.Zoom(float(m_scroll));
    }
    // After the camera moved, so the target is where the cursor is in the new view.
    UpdateGrab(window, cursor);
    m_hoveredBody = m_drag == Drag::None && !uiMouse ? PickBody(CursorRay(window, cursor)).body : -1;
    m_scroll = 0.0;
    if (m_imgui && m_imgui->WantsKeyboard()) return;
    auto pressed = [&](int key) {
        const bool down = glfwGetKey(window, key) == GLFW_PRESS;
        const bool edge = down && !m_keyWasDown[key];
        m_keyWasDown[key] = down;
        return edge;
    };
    if (pressed(GLFW_KEY_SPACE)) m_paused = !m_paused;
    if (pressed(GLFW_KEY_N)) m_stepRequested = true;
    if (pressed(GLFW_KEY_R)) m_resetRequested = true;
    if (pressed(GLFW_KEY_C)) ResetCamera();
    if (pressed(GLFW_KEY_V)) m_view.showVortons = !m_view.showVortons;
    if (pressed(GLFW_KEY_B)) m_view.showBounds = !m_view.showBounds;
    if (pressed(GLFW_KEY_F)) m_view.followDye = !m_view.followDye;
    if (pressed(GLFW_KEY_H)) m_view.showPanel = !m_view.showPanel;
    if (pressed(GLFW_KEY_F12) || pressed(GLFW_KEY_P)) m_screenshotRequested = true;
    if (pressed(GLFW_KEY_ESCAPE)) glfwSetWindowShouldClose(window, GLFW_TRUE);
}

platform::Ray DemoApp::CursorRay(GLFWwindow* window, glm::vec2 cursor) const {
    // The cursor is in window coordinates, which may differ from the framebuffer's pixels
    // (HiDPI) but span the same view.
    int width = 1, height = 1;
    glfwGetWindowSize(window, &width, &height);
    return m_camera.RayThroughPixel(cursor, {width, height});
}

DemoApp::BodyHit DemoApp::PickBody(const platform::Ray& ray) const {
    BodyHit nearest;
    const auto bodies = m_sim->Bodies();
    const auto& specs = m_sim->Setup().bodies;
    for (std::size_t i = 0; i < bodies.size() && i < specs.size(); ++i) {
        // |o + t·d − c|² = R² with |d| = 1: t = b ± √(b² − |o − c|² + R²), b = d·(c − o).
        const glm::vec3 toCenter = bodies[i].position - ray.origin;
        const float b = glm::dot(ray.direction, toCenter);
        const float disc = b * b - glm::dot(toCenter, toCenter) + specs[i].radius * specs[i].radius;
        if (disc < 0.0f) continue;
        const float root = std::sqrt(disc);
        const float t = b - root >= 0.0f ? b - root : b + root;  // the far side from inside it
        if (t < 0.0f) continue;
        if (nearest.body < 0 || t < nearest.distance) nearest = BodyHit{int(i), t};
    }
    return nearest;
}

void DemoApp::HandleLeftButton(GLFWwindow* window, glm::vec2 cursor, glm::vec2 delta, bool uiMouse) {
    const bool down = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    const bool pressed = down && !m_leftWasDown;
    m_leftWasDown = down;
    if (!down) {
        ReleaseGrab();
        m_drag = Drag::None;
        return;
    }
    if (pressed && !uiMouse) {
        const platform::Ray ray = CursorRay(window, cursor);
        const BodyHit hit = PickBody(ray);
        if (hit.body >= 0) {
            m_drag = Drag::Grab;
            m_grabbedBody = hit.body;
            m_selectedBody = hit.body;
            m_grabPoint = ray.origin + hit.distance * ray.direction;
            m_grabOffset = m_sim->Bodies()[std::size_t(hit.body)].position - m_grabPoint;
        } else {
            m_drag = Drag::Orbit;
        }
    }
    if (m_drag == Drag::Orbit && !uiMouse) m_camera.Orbit(delta.x, delta.y);
}

void DemoApp::UpdateGrab(GLFWwindow* window, glm::vec2 cursor) {
    if (m_drag != Drag::Grab) return;
    if (m_grabbedBody < 0 || std::size_t(m_grabbedBody) >= m_sim->Bodies().size()) {
        m_drag = Drag::None;
        m_grabbedBody = -1;
        return;
    }
    const platform::Ray ray = CursorRay(window, cursor);
    const glm::vec3 forward = m_camera.Forward();
    if (m_scroll != 0.0) {
        // Each wheel step forward pushes the grab point 10% further from the eye, backward pulls
        // it closer, but not behind the near plane.
        const float scale = std::pow(1.0f / 0.9f, float(m_scroll));
        const float minDepth = 0.05f * m_camera.Pose().distance;
        glm::vec3 fromEye = scale * (m_grabPoint - ray.origin);
        const float depth = glm::dot(fromEye, forward);
        if (depth < minDepth && depth > 0.0f) fromEye *= minDepth / depth;
        m_grabPoint = ray.origin + fromEye;
    }
    // The cursor ray meets the plane through the grab point that faces the camera.
    const float along = glm::dot(ray.direction, forward);  // > 0 for any ray inside the view
    const float t = glm::dot(m_grabPoint - ray.origin, forward) / along;
    if (along > 1e-4f && t > 0.0f) m_grabPoint = ray.origin + t * ray.direction;
    m_sim->GrabBody(std::size_t(m_grabbedBody), m_grabPoint + m_grabOffset);
}

void DemoApp::ReleaseGrab() {
    if (m_drag == Drag::Grab && m_grabbedBody >= 0 && std::size_t(m_grabbedBody) < m_sim->Bodies().size()) {
        m_sim->ReleaseBody(std::size_t(m_grabbedBody));
    }
    if (m_drag == Drag::Grab) m_drag = Drag::None;
    m_grabbedBody = -1;
}

void DemoApp::ForgetBodies() {
    // The simulation was rebuilt or reset: its bodies are no longer held. The button stays
    // down until released, so the drag ends here rather than turning into an orbit.
    if (m_drag == Drag::Grab) m_drag = Drag::None;
    m_grabbedBody = -1;
    m_hoveredBody = -1;
    const std::size_t n = m_sim->Bodies().size();
    m_bodyHistories.assign(n, BodyHistory{});
    if (m_selectedBody < 0 || std::size_t(m_selectedBody) >= n) m_selectedBody = 0;
    RecordBodyHistories();  // the initial state
}

void DemoApp::RecordBodyHistories() {
    const auto bodies = m_sim->Bodies();
    m_bodyHistories.resize(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        m_bodyHistories[i].height.Push(bodies[i].position.z);
        m_bodyHistories[i].speed.Push(glm::length(bodies[i].velocity));
    }
}

void DemoApp::ApplyRequests() {
    if (m_pendingScene) {
        const std::string name = *m_pendingScene;
        m_pendingScene.reset();
        auto scene = LoadSceneFile(DataDirectory() / "scenes" / (name + ".json"));
        if (!scene) {
            SetStatus(scene.error(), true);
        } else {
            m_scene = std::move(scene.value());
            m_sim = std::make_unique<Simulation>(m_scene.setup);
            m_blowUp.clear();
            m_selectedBody = 0;
            ForgetBodies();
            ResetCamera();
            SetStatus("loaded " + m_scene.name, false);
            if (GLFWwindow* window = m_context->Window()) glfwSetWindowTitle(window, ("vorton: " + name).c_str());
        }
    }
    if (m_resetRequested) {
        m_resetRequested = false;
        m_sim->Reset();
        m_blowUp.clear();
        ForgetBodies();
    }
}

void DemoApp::StepSimulation() {
    m_steppedThisFrame = false;
    const bool step = m_blowUp.empty() && (!m_paused || m_stepRequested);
    m_stepRequested = false;
    if (!step) return;
    StepReport report;
    m_arena->execute([&] { report = m_sim->Step(); });
    if (!report.ok) {
        m_blowUp = report.message;
        m_paused = true;
        SetStatus(report.message + ". Paused: lower dt or the density deviation, then Reset.", true);
        return;
    }
    m_steppedThisFrame = true;
    m_stepMsHistory.push_back(float(m_sim->LastStepMs()));
    if (m_stepMsHistory.size() > 240) m_stepMsHistory.erase(m_stepMsHistory.begin());
    RecordBodyHistories();
    if (!m_runOutputsStopped) {
        if (Status s = m_outputs.AfterStep(*m_sim); !s) {
            SetStatus(s.error() + " (outputs stopped; the simulation goes on)", true);
            m_outputFailed = true;
            m_runOutputsStopped = true;
        }
    }
}

void DemoApp::DrawScene() {
    const Simulation& sim = *m_sim;
    const auto& groups = sim.Setup().groups;
    m_palette.resize(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) m_palette[g] = glm::vec4(groups[g].dye, 1.0f);

    render::FrameInput input;
    input.view = m_camera.MakeView(m_context->FramebufferSize());
    input.tracerPositions = sim.GetTracers().position;
    input.tracerGroups = sim.GetTracers().group;
    input.groupColors = m_palette;
    input.tracerSize = m_view.tracerSize;
    input.tracerOpacity = m_view.tracerOpacity;
    input.showVortons = m_view.showVortons;
    if (m_view.showVortons) {
        const Vortons& v = sim.GetVortons();
        m_vortonStrength.resize(v.Size());
        for (std::size_t k = 0; k < v.Size(); ++k) m_vortonStrength[k] = glm::length(v.vorticity[k]);
        input.vortonPositions = v.position;
        input.vortonStrength = m_vortonStrength;
        input.vortonSize = sim.GetVortons().Size() ? 0.6f * v.radius[0] : 0.02f;
    }
    const auto bodies = sim.Bodies();
    const auto& specs = sim.Setup().bodies;
    m_spheres.clear();
    for (std::size_t i = 0; i < bodies.size() && i < specs.size(); ++i) {
        render::SphereInstance sphere;
        sphere.center = bodies[i].position;
        sphere.radius = specs[i].radius;
        sphere.rotation = glm::mat3_cast(bodies[i].orientation);
        sphere.color = specs[i].color;
        sphere.highlight = int(i) == m_hoveredBody || int(i) == GrabbedBody() || bodies[i].grabbed;
        m_spheres.push_back(sphere);
    }
    input.spheres = m_spheres;
    input.showBounds = m_view.showBounds;
    input.boundsMin = sim.Bounds().min;
    input.boundsMax = sim.Bounds().max;
    m_renderer->Draw(input);
}

void DemoApp::CaptureFrame(bool recordNow) {
    if (!recordNow && !m_screenshotRequested) return;
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
                      static_cast<long long>(m_sim->StepCount()));
        const std::filesystem::path file = std::filesystem::path(m_options.screenshotDir) / name;
        if (Status s = platform::WritePng(file, size.x, size.y, m_pixels.data()); !s) {
            SetStatus("screenshot: " + s.error(), true);
        } else {
            SetStatus("saved " + file.string(), false);
        }
    }
}

int DemoApp::Run() {
    const bool headless = m_context->IsHeadless();
    const std::int64_t frames = headless ? FramesWithoutWindow(m_options) : m_options.frames;
    auto lastFrame = std::chrono::steady_clock::now();
    // Frame 0 is recorded too, so a video starts from the initial state.
    bool recordThisFrame = m_recorder.IsRecording();
    bool first = true;
    while (!m_context->ShouldClose()) {
        m_context->PollEvents();
        HandleInput();
        ApplyRequests();
        if (!first) {
            if (frames >= 0 && m_sim->StepCount() >= frames) break;
            StepSimulation();
            if (headless && !m_blowUp.empty()) break;
            recordThisFrame = m_steppedThisFrame && m_recorder.IsRecording();
        }
        first = false;

        FollowDye();
        m_context->BeginFrame();
        DrawScene();
        if (!m_recordPanel) CaptureFrame(recordThisFrame);
        if (m_imgui) {
            m_imgui->NewFrame();
            if (m_view.showPanel || m_recordPanel) DrawPanel(*this);
            DrawRecordingIndicator(*this);
            m_imgui->Render();
        }
        if (m_recordPanel) CaptureFrame(recordThisFrame);
        m_context->EndFrame();

        const auto now = std::chrono::steady_clock::now();
        const double seconds = std::chrono::duration<double>(now - lastFrame).count();
        lastFrame = now;
        if (seconds > 0.0) m_fps = m_fps == 0.0 ? 1.0 / seconds : 0.9 * m_fps + 0.1 / seconds;
    }
    if (m_recorder.IsRecording()) {
        const int recorded = m_recorder.FrameCount();
        if (Status s = m_recorder.Stop(); !s) {
            SetStatus("recording: " + s.error(), true);
            m_outputFailed = true;
        } else if (headless) {
            std::cerr << "vorton: recorded " << recorded << " frames to " << m_recorder.Path().string() << "\n";
        }
    }
    if (!m_blowUp.empty() && headless) {
        std::cerr << "vorton: " << m_blowUp << "\n";
        return kExitRuntime;
    }
    return m_outputFailed ? kExitRuntime : kExitOk;
}

}  // namespace vorton
