// The panel's edits kept and undone, the scene saved, recordings named per scene (DemoApp's
// editing half; issue 14).
#include "app/demo_app.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include <glm/vec4.hpp>

#include "app/ui/add_ball.h"
#include "app/ui/files.h"
#include "scene/scene_writer.h"
#include "scene/snapshot.h"

namespace vorton {

void DemoApp::TrackEdits() {
    // A slider held is one edit when let go; a text field being typed in likewise.
    const bool editing = m_imgui && ImGui::IsAnyItemActive();
    m_history.Track(PanelEdits{m_setup, m_view.display}, editing);
}

void DemoApp::Undo() { RestoreEdits(m_history.Undo(PanelEdits{m_setup, m_view.display}), "undone"); }

void DemoApp::Redo() { RestoreEdits(m_history.Redo(PanelEdits{m_setup, m_view.display}), "redone"); }

void DemoApp::RestoreEdits(std::optional<PanelEdits> state, const char* what) {
    if (!state) return;
    m_setup = std::move(state->setup);
    m_view.display = std::move(state->display);
    SetupEdited();
    SetStatus(what, false);
}

void DemoApp::RestoreSceneDefaults() {
    // An edit like any other: Ctrl+Z brings the tweaks back. Painted groups stay (their fluid does).
    std::vector<DensityGroup> painted(m_setup.groups.begin() + std::ptrdiff_t(std::min(m_setup.groups.size(), m_scene.setup.groups.size())),
                                      m_setup.groups.end());
    m_setup = m_scene.setup;
    m_setup.groups.insert(m_setup.groups.end(), painted.begin(), painted.end());
    m_view.display = m_scene.display;
    SetupEdited();
    SetStatus("the scene's values restored (Ctrl+Z to undo; settings applied on reset need Reset)", false);
}

void DemoApp::HandleUndoKeys(GLFWwindow* window) {
    const bool ctrl = glfwGetKey(window, GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS ||
                      glfwGetKey(window, GLFW_KEY_RIGHT_CONTROL) == GLFW_PRESS;
    const bool shift = glfwGetKey(window, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                       glfwGetKey(window, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
    auto pressed = [&](int key) {
        const bool down = glfwGetKey(window, key) == GLFW_PRESS;
        const bool edge = down && !m_keyWasDown[key];
        m_keyWasDown[key] = down;
        return edge;
    };
    const bool z = pressed(GLFW_KEY_Z), y = pressed(GLFW_KEY_Y);
    if (!ctrl) return;
    if (z && !shift) Undo();
    if (y || (z && shift)) Redo();
}

void DemoApp::AddBall() {
    // Clear of the bodies where they are now and where a reset puts them.
    std::vector<glm::vec4> occupied;
    for (std::size_t i = 0; i < m_front.bodies.size(); ++i) {
        if (const BodySpec* spec = DrawnBodySpec(i)) occupied.emplace_back(m_front.bodies[i].position, spec->radius);
    }
    for (const BodySpec& b : m_setup.bodies) occupied.emplace_back(b.position, b.radius);
    const BodySpec ball = NewBall(m_setup, m_selectedBody, m_camera.Pose().target, occupied);
    m_setup.bodies.push_back(ball);
    m_selectedBody = int(m_setup.bodies.size()) - 1;
    SetupEdited();
    char where[96];
    std::snprintf(where, sizeof where, " at (%.2f, %.2f, %.2f) m", double(ball.position.x), double(ball.position.y),
                  double(ball.position.z));
    SetStatus("added '" + ball.name + "'" + where + ": drag it to throw it; Ctrl+Z takes it back", false);
}

void DemoApp::RemoveBody(std::size_t i) {
    if (i >= m_setup.bodies.size()) return;
    const std::string name = m_setup.bodies[i].name;
    // Grabs name bodies by index, which shifts: none is posted past this (the panel's
    // button is pressed with the mouse, so no body is being dragged).
    ForgetBodies();
    m_setup.bodies.erase(m_setup.bodies.begin() + std::ptrdiff_t(i));
    if (m_selectedBody > int(i) || m_selectedBody >= int(m_setup.bodies.size())) m_selectedBody = std::max(0, m_selectedBody - 1);
    SetupEdited();
    SetStatus("removed '" + name + "' (Ctrl+Z brings it back at its starting place)", false);
}

Scene DemoApp::SceneAsEdited() const {
    Scene scene = m_scene;
    scene.setup = m_setup;
    scene.display = m_view.display;
    // The view as it is now, kept as given on load (no framing).
    const platform::CameraPose& pose = m_camera.Pose();
    scene.camera.target = pose.target;
    scene.camera.distance = pose.distance;
    scene.camera.yaw = pose.yaw;
    scene.camera.pitch = pose.pitch;
    scene.camera.fovY = pose.fovY;
    scene.camera.follow = m_view.followDye;
    scene.camera.fit = false;
    return scene;
}

void DemoApp::SaveScene(const std::string& file, bool currentState) {
    Scene scene = SceneAsEdited();
    if (currentState) scene = WithBodyStates(std::move(scene), m_front.bodies);
    if (Status s = SaveSceneFile(scene, file); !s) {
        SetStatus("save scene: " + s.error(), true);
        return;
    }
    SetStatus("saved " + file + (currentState ? " (bodies as they are now)" : " (bodies as at reset)") +
                  "; load it with --scene " + file,
              false);
}

void DemoApp::SaveSnapshot(const std::string& file) {
    // The snapshot holds the tracers: back from the GPU first (they go there again next step).
    if (m_front.tracersOnGpu) ReturnGpuTracers();
    if (Status s = m_worker->WriteSnapshot(file, SceneAsEdited()); !s) {
        SetStatus("save snapshot: " + s.error(), true);
        return;
    }
    std::snprintf(m_view.snapshotFile.data(), m_view.snapshotFile.size(), "%s", file.c_str());
    SetStatus("saved " + file + " at t = " + std::to_string(m_front.time) + " s; Load snapshot or --snapshot-load " +
                  file + " continues from it",
              false);
}

void DemoApp::LoadSnapshot(const std::string& file) {
    auto loaded = ReadSnapshotFile(file);
    if (!loaded) {
        SetStatus("load snapshot: " + loaded.error() + " (the running scene goes on)", true);
        return;
    }
    if (m_front.sceneId == m_sceneId) m_previousSetup = m_setup;
    m_scene = std::move(loaded.value().scene);
    m_setup = m_scene.setup;
    m_newScene.reset();
    m_resetRequested = false;
    ++m_sceneId;
    m_worker->ReplaceSimulation(std::move(loaded.value().sim), m_sceneId);
    m_history.Restart(PanelEdits{m_setup, m_view.display});
    m_selectedBody = 0;
    ForgetBodies();
    SetStatus("loaded the snapshot " + file + " (" + m_scene.name + ")", false);
}

void DemoApp::ToggleNamedRecording(double clipSeconds) {
    if (m_recorder.IsRecording()) {
        ToggleRecording({});
        return;
    }
    const int format = std::clamp(m_view.recordFormat, 0, 2);
    const std::string extension = kRecordExtensions[format];
    std::string name = RecordingName(m_scene.name, std::chrono::system_clock::now(), extension.empty() ? "x" : extension);
    if (extension.empty()) name = name.substr(0, name.size() - 2) + "/";  // a folder of PNGs
    const std::filesystem::path dir(m_view.captureDir.data());
    ToggleRecording((dir / name).string());
    // One frame per step plus the first: clipSeconds of simulated time, as many of video.
    m_clipFrames = m_recorder.IsRecording() && clipSeconds > 0.0
                       ? 1 + ClipSteps(clipSeconds, double(m_setup.params.dt))
                       : 0;
}

}  // namespace vorton
