// The demo's camera: the scene's pose, framing the dye and bodies in the part of
// the window the panel leaves free, and following them (DemoApp's camera half).
#include "app/demo_app.h"

#include <algorithm>
#include <vector>

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

}  // namespace

void DemoApp::ResetCamera() {
    m_camera.Reset(ToPose(m_scene.camera));
    m_view.followDye = m_scene.camera.follow;
    // The scene's own state may not be in the snapshot yet (a new scene is built by the worker).
    m_fitPending = m_scene.camera.fit;
    m_floorPending = true;
}

void DemoApp::PlaceFloor() {
    const Aabb box = FramedBox();
    if (!box.Empty()) m_floorHeight = box.min.z - m_view.display.floorDepth;
}

Aabb DemoApp::FramedBox() const {
    Aabb box;
    const std::vector<glm::vec3>& x = m_front.tracerPositions;
    if (!x.empty()) {
        const std::size_t stride = std::max<std::size_t>(1, x.size() / 8192);
        std::vector<float> axis;
        for (int a = 0; a < 3; ++a) {
            axis.clear();
            for (std::size_t i = 0; i < x.size(); i += stride) axis.push_back(x[i][a]);
            const auto at = [&](double q) {
                const auto k = std::ptrdiff_t(q * double(axis.size() - 1));
                std::nth_element(axis.begin(), axis.begin() + k, axis.end());
                return axis[std::size_t(k)];
            };
            box.min[a] = at(0.02);
            box.max[a] = at(0.98);
        }
    }
    const SceneSetup& setup = DrawnSetup();
    for (std::size_t b = 0; b < m_front.bodies.size() && b < setup.bodies.size(); ++b) {
        const glm::vec3 r(setup.bodies[b].radius);
        box.Grow(Aabb{m_front.bodies[b].position - r, m_front.bodies[b].position + r});
    }
    return box;
}

float DemoApp::FreeWidthShare() {
    const bool panelInFrame = m_imgui && (m_view.showPanel || m_recordPanel) && (m_recordPanel || !m_recorder.IsRecording());
    const float share = panelInFrame ? std::clamp(m_panelShare, 0.0f, 0.6f) : 0.0f;
    m_camera.SetCentreShift(share);
    return 1.0f - share;
}

void DemoApp::FitCamera() {
    const Aabb box = FramedBox();
    if (box.Empty()) return;
    const float free = FreeWidthShare();
    m_fittedShare = 1.0f - free;
    const glm::ivec2 size = m_context->FramebufferSize();
    platform::CameraPose pose = m_camera.Pose();
    pose.target = 0.5f * (box.min + box.max);
    pose.distance = platform::OrbitCamera::FitDistance(pose, box.min, box.max, float(size.x) / float(std::max(size.y, 1)),
                                                       kFrameFill, kFrameFillWidth * free);
    m_camera.Reset(pose);
}

void DemoApp::FollowDye() {
    if (!m_view.followDye) return;
    const Aabb box = FramedBox();
    if (box.Empty()) return;
    // Ease towards the framing so the view glides rather than jumps.
    const float free = FreeWidthShare();
    const glm::ivec2 size = m_context->FramebufferSize();
    platform::CameraPose pose = m_camera.Pose();
    const float fit = platform::OrbitCamera::FitDistance(pose, box.min, box.max,
                                                         float(size.x) / float(std::max(size.y, 1)), kFrameFill,
                                                         kFrameFillWidth * free);
    pose.target += 0.1f * (0.5f * (box.min + box.max) - pose.target);
    pose.distance += 0.05f * (fit - pose.distance);
    m_camera.Reset(pose);
}

}  // namespace vorton
