// The demo's mouse and keyboard: orbit, pan and zoom the camera, pick, grab,
// push and throw spheres (DemoApp's input half).
#include "app/demo_app.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace vorton {

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
        // While a body is held the wheel pushes and pulls it instead (UpdateGrab); in paint
        // mode it sizes the blob, 10 % a notch.
        if (m_scroll != 0.0 && m_view.paintMode && m_drag != Drag::Grab) {
            const float h = m_front.spacing > 0.0f ? m_front.spacing : 0.02f;
            m_view.paint.radius = std::clamp(m_view.paint.radius * std::pow(1.1f, float(m_scroll)), MinPaintRadius(h),
                                             MaxPaintRadius(h));
        } else if (m_scroll != 0.0 && m_drag != Drag::Grab) {
            m_camera.Zoom(float(m_scroll));
        }
    }
    // After the camera moved, so the target is where the cursor is in the new view.
    UpdateGrab(window, cursor);
    m_hoveredBody = m_drag == Drag::None && !uiMouse ? PickBody(CursorRay(window, cursor)).body : -1;
    m_scroll = 0.0;
    if (m_imgui && m_imgui->WantsKeyboard()) return;
    HandleUndoKeys(window);
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
    if (pressed(GLFW_KEY_H)) m_view.showUi = !m_view.showUi;
    if (pressed(GLFW_KEY_M)) m_view.showPanel = !m_view.showPanel;
    if (pressed(GLFW_KEY_F1)) m_view.showHelp = !m_view.showHelp;
    if (pressed(GLFW_KEY_T)) m_view.showTimings = !m_view.showTimings;
    if (pressed(GLFW_KEY_D)) m_view.showDiagnostics = !m_view.showDiagnostics;
    if (pressed(GLFW_KEY_I)) m_view.paintMode = !m_view.paintMode;
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
    const auto& bodies = m_front.bodies;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const BodySpec* spec = DrawnBodySpec(i);
        if (!spec) continue;
        // |o + t·d − c|² = R² with |d| = 1: t = b ± √(b² − |o − c|² + R²), b = d·(c − o).
        const glm::vec3 toCenter = bodies[i].position - ray.origin;
        const float b = glm::dot(ray.direction, toCenter);
        const float disc = b * b - glm::dot(toCenter, toCenter) + spec->radius * spec->radius;
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
        m_lastPaint.reset();
        m_paintCursor.reset();
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
            m_grabOffset = m_front.bodies[std::size_t(hit.body)].position - m_grabPoint;
            m_postedTarget.reset();
        } else if (m_view.paintMode) {
            m_drag = Drag::Paint;
            m_lastPaint.reset();
        } else {
            m_drag = Drag::Orbit;
        }
    }
    if (m_drag == Drag::Orbit && !uiMouse) m_camera.Orbit(delta.x, delta.y);
    if (m_drag == Drag::Paint && !uiMouse) PaintAt(window, cursor);
}

void DemoApp::PaintAt(GLFWwindow* window, glm::vec2 cursor) {
    const platform::Ray ray = CursorRay(window, cursor);
    const auto point = PaintPoint(ray.origin, ray.direction, m_camera.Forward(), m_camera.Pose().target);
    if (!point) return;
    // The cursor's velocity over the plane, over the last frame: what a blob is thrown with.
    const double now = glfwGetTime();
    const glm::vec3 moved = m_paintCursor && m_lastPaint ? *point - *m_paintCursor : glm::vec3(0.0f);
    const double seconds = now - m_paintCursorTime;
    m_paintCursor = *point;
    m_paintCursorTime = now;
    // Along a drag, a new blob once the cursor has moved a radius from the last one.
    if (m_lastPaint && glm::length(*point - *m_lastPaint) < m_view.paint.radius) return;
    if (m_setup.groups.size() + 1 >= kAmbientGroup) return;
    const float h = m_front.spacing > 0.0f ? m_front.spacing : 0.02f;
    DensityGroup blob = PaintBlob(m_view.paint, *point, ++m_paintCount, h);
    while (std::any_of(m_setup.groups.begin(), m_setup.groups.end(),
                       [&](const DensityGroup& g) { return g.name == blob.name; })) {
        blob.name = "paint_" + std::to_string(++m_paintCount);
    }
    const int tracers = PaintTracers(m_setup, blob);
    m_setup.groups.push_back(blob);
    SetupEdited();
    // The painted fluid is there to stay: undo does not take a group away from under its vortons.
    m_history.Restart(PanelEdits{m_setup, m_view.display});
    // At most half the blow-up speed: the sheet's vortons move faster than the blob.
    const glm::vec3 velocity = ThrowVelocity(m_view.paint, moved, seconds, std::min(2.0f, 0.5f * m_setup.params.maxSpeed));
    m_paints.push_back({m_setup.groups.size() - 1, tracers, velocity});
    m_lastPaint = *point;
}

void DemoApp::UpdateGrab(GLFWwindow* window, glm::vec2 cursor) {
    if (m_drag != Drag::Grab) return;
    if (m_grabbedBody < 0 || std::size_t(m_grabbedBody) >= m_front.bodies.size()) {
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
    const glm::vec3 target = m_grabPoint + m_grabOffset;
    if (m_postedTarget && *m_postedTarget == target) return;
    m_postedTarget = target;
    PostGrab({.body = std::size_t(m_grabbedBody), .hold = true, .target = target});
}

void DemoApp::ReleaseGrab() {
    if (m_drag == Drag::Grab && m_grabbedBody >= 0 && std::size_t(m_grabbedBody) < m_front.bodies.size()) {
        PostGrab({.body = std::size_t(m_grabbedBody), .hold = false});
    }
    if (m_drag == Drag::Grab) m_drag = Drag::None;
    m_grabbedBody = -1;
    m_postedTarget.reset();
}

void DemoApp::PostGrab(SimWorker::GrabCommand command) {
    // One command per body per frame: the latest.
    for (SimWorker::GrabCommand& g : m_grabs) {
        if (g.body == command.body) {
            g = command;
            return;
        }
    }
    m_grabs.push_back(command);
}

}  // namespace vorton
