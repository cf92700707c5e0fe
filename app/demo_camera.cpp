// The demo's camera: the scene's pose, framing the dye and bodies in the part of
// the window the panel leaves free, and following them (DemoApp's camera half).
#include "app/demo_app.h"

#include "app/ui/framing.h"

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

void DemoApp::LowerFloor() {
    if (!m_view.display.floor || !m_view.display.floorRecedes) return;
    const Aabb box = FramedBox();
    if (box.Empty()) return;
    const float clearance = std::min(0.25f, 0.25f * m_view.display.floorDepth);
    m_floorHeight = std::min(m_floorHeight, box.min.z - clearance);
}

std::vector<std::size_t> DemoApp::FramedBodyIndices() const {
    std::vector<glm::vec4> spheres;
    int selected = 0;
    std::vector<std::size_t> drawn;
    for (std::size_t b = 0; b < m_front.bodies.size(); ++b) {
        const BodySpec* spec = DrawnBodySpec(b);
        if (!spec) continue;
        if (int(b) == m_selectedBody) selected = int(spheres.size());
        spheres.emplace_back(m_front.bodies[b].position, spec->radius);
        drawn.push_back(b);
    }
    std::vector<std::size_t> framed = FramedBodies(spheres, selected);
    for (std::size_t& i : framed) i = drawn[i];
    return framed;
}

Aabb DemoApp::FramedBox() const {
    const std::vector<std::size_t> bodies = FramedBodyIndices();
    // camera.frame_bodies: only the dye within that many radii of a body's surface counts.
    const float margin = m_scene.camera.frameBodies;
    std::vector<Aabb> near;
    if (margin > 0.0f) {
        for (const std::size_t b : bodies) {
            const BodySpec* spec = DrawnBodySpec(b);
            const glm::vec3 reach((1.0f + margin) * spec->radius);
            near.push_back(Aabb{m_front.bodies[b].position - reach, m_front.bodies[b].position + reach});
        }
    }
    const auto counts = [&near](const glm::vec3& p) {
        if (near.empty()) return true;
        return std::any_of(near.begin(), near.end(), [&p](const Aabb& box) {
            return glm::all(glm::greaterThanEqual(p, box.min)) && glm::all(glm::lessThanEqual(p, box.max));
        });
    };
    Aabb box;
    const std::vector<glm::vec3>& x = m_front.tracerPositions;
    if (!x.empty()) {
        // Near bodies, a finer sample: most tracers may be in the wake left out.
        const std::size_t stride = std::max<std::size_t>(1, x.size() / (near.empty() ? 8192 : 65536));
        std::vector<glm::vec3> sample;
        for (std::size_t i = 0; i < x.size(); i += stride) {
            if (counts(x[i])) sample.push_back(x[i]);
        }
        std::vector<float> axis;
        for (int a = 0; a < 3 && !sample.empty(); ++a) {
            axis.clear();
            for (const glm::vec3& p : sample) axis.push_back(p[a]);
            const auto at = [&](double q) {
                const auto k = std::ptrdiff_t(q * double(axis.size() - 1));
                std::nth_element(axis.begin(), axis.begin() + k, axis.end());
                return axis[std::size_t(k)];
            };
            box.min[a] = at(0.02);
            box.max[a] = at(0.98);
        }
    }
    for (const std::size_t b : bodies) {
        const glm::vec3 r(DrawnBodySpec(b)->radius);
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
    const std::vector<std::size_t> bodies = FramedBodyIndices();
    if (m_scene.camera.frameBodies > 0.0f && !bodies.empty()) {
        glm::vec3 mean(0.0f);
        for (const std::size_t b : bodies) mean += m_front.bodies[b].position;
        mean /= float(bodies.size());
        // Only a step forward of the same bodies moves it: a reset's jump back, and a body
        // joining or leaving the framing (or another selected), are eased like any new framing.
        if (m_followedStep >= 0 && m_front.stepCount > m_followedStep && bodies == m_followedSet) {
            pose.target += mean - m_followedBodies;
        }
        m_followedBodies = mean;
        m_followedSet = bodies;
        m_followedStep = m_front.stepCount;
    }
    const float fit = platform::OrbitCamera::FitDistance(pose, box.min, box.max,
                                                         float(size.x) / float(std::max(size.y, 1)), kFrameFill,
                                                         kFrameFillWidth * free);
    pose.target += 0.1f * (0.5f * (box.min + box.max) - pose.target);
    pose.distance += 0.05f * (fit - pose.distance);
    m_camera.Reset(pose);
}

}  // namespace vorton
