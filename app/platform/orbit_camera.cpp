#include "app/platform/orbit_camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace vorton::platform {
namespace {

constexpr float kDegreesPerPixel = 0.3f;
constexpr float kMaxPitch = 89.0f;
constexpr float kZoomPerStep = 0.9f;
constexpr float kMinDistance = 1e-3f;
constexpr float kMaxDistance = 1e4f;
constexpr glm::vec3 kUp{0.0f, 0.0f, 1.0f};

CameraPose Clamped(CameraPose pose) {
    pose.distance = std::clamp(pose.distance, kMinDistance, kMaxDistance);
    pose.pitch = std::clamp(pose.pitch, -kMaxPitch, kMaxPitch);
    pose.fovY = std::clamp(pose.fovY, 1.0f, 170.0f);
    pose.yaw = std::fmod(pose.yaw, 360.0f);
    return pose;
}

}  // namespace

void OrbitCamera::Reset(const CameraPose& pose) {
    m_pose = Clamped(pose);
}

void OrbitCamera::Orbit(float dxPixels, float dyPixels) {
    m_pose.yaw -= dxPixels * kDegreesPerPixel;
    m_pose.pitch += dyPixels * kDegreesPerPixel;
    m_pose = Clamped(m_pose);
}

void OrbitCamera::Pan(float dxPixels, float dyPixels, int viewportHeight) {
    // World size of one pixel at the target's depth.
    const float metresPerPixel = 2.0f * m_pose.distance *
                                 std::tan(glm::radians(m_pose.fovY) * 0.5f) /
                                 static_cast<float>(std::max(viewportHeight, 1));
    const glm::mat4 view = View();
    const glm::vec3 right(view[0][0], view[1][0], view[2][0]);
    const glm::vec3 up(view[0][1], view[1][1], view[2][1]);
    // Screen y grows downwards; moving the target against the drag makes the scene follow it.
    m_pose.target += (-dxPixels * right + dyPixels * up) * metresPerPixel;
}

void OrbitCamera::Zoom(float scrollSteps) {
    m_pose.distance *= std::pow(kZoomPerStep, scrollSteps);
    m_pose = Clamped(m_pose);
}

glm::vec3 OrbitCamera::Eye() const {
    const float yaw = glm::radians(m_pose.yaw);
    const float pitch = glm::radians(m_pose.pitch);
    const glm::vec3 direction(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw),
                              std::sin(pitch));
    return m_pose.target + m_pose.distance * direction;
}

glm::mat4 OrbitCamera::View() const {
    return glm::lookAt(Eye(), m_pose.target, kUp);
}

glm::mat4 OrbitCamera::Projection(float aspect) const {
    const float safeAspect = aspect > 0.0f && std::isfinite(aspect) ? aspect : 1.0f;
    glm::mat4 projection = glm::perspective(glm::radians(m_pose.fovY), safeAspect, m_pose.distance * 0.01f,
                                            m_pose.distance * 100.0f);
    // x_ndc += shift: x_clip gains shift * w_clip = shift * (-z_view).
    projection[2][0] -= m_centreShift;
    return projection;
}

glm::vec3 OrbitCamera::Forward() const {
    return glm::normalize(m_pose.target - Eye());
}

Ray OrbitCamera::RayThroughPixel(glm::vec2 pixel, glm::ivec2 viewport) const {
    const glm::vec2 size = glm::vec2(glm::max(viewport, glm::ivec2(1)));
    // Normalised device coordinates: x right, y up, -1..1 across the viewport.
    const float ndcX = 2.0f * pixel.x / size.x - 1.0f - m_centreShift;
    const float ndcY = 1.0f - 2.0f * pixel.y / size.y;
    const float tanHalf = std::tan(glm::radians(m_pose.fovY) * 0.5f);
    const float aspect = size.x / size.y;
    const glm::mat4 view = View();
    const glm::vec3 right(view[0][0], view[1][0], view[2][0]);
    const glm::vec3 up(view[0][1], view[1][1], view[2][1]);
    const glm::vec3 direction = Forward() + ndcX * tanHalf * aspect * right + ndcY * tanHalf * up;
    return Ray{Eye(), glm::normalize(direction)};
}

float OrbitCamera::FitDistance(const CameraPose& pose, glm::vec3 lo, glm::vec3 hi, float aspect, float fill,
                               float fillWidth) {
    OrbitCamera camera;
    camera.Reset(pose);
    const glm::mat4 view = camera.View();
    const glm::vec3 right(view[0][0], view[1][0], view[2][0]);
    const glm::vec3 up(view[0][1], view[1][1], view[2][1]);
    const glm::vec3 back(view[0][2], view[1][2], view[2][2]);  // towards the eye
    const float tanHalf = std::tan(glm::radians(camera.Pose().fovY) * 0.5f);
    const float safeAspect = aspect > 0.0f && std::isfinite(aspect) ? aspect : 1.0f;
    const float tanVertical = tanHalf * std::clamp(fill, 0.01f, 1.0f);
    const float tanHorizontal = tanHalf * safeAspect * std::clamp(fillWidth, 0.01f, 1.0f);
    float distance = kMinDistance;
    for (int c = 0; c < 8; ++c) {
        const glm::vec3 corner((c & 1) ? hi.x : lo.x, (c & 2) ? hi.y : lo.y, (c & 4) ? hi.z : lo.z);
        const glm::vec3 o = corner - pose.target;
        // A corner at depth z towards the eye, x and y off-axis, projects inside ±fill when
        // |y| <= tanHalf (d - z) and |x| <= tanHalf aspect (d - z).
        const float z = glm::dot(o, back);
        distance = std::max(distance, z + std::abs(glm::dot(o, up)) / tanVertical);
        distance = std::max(distance, z + std::abs(glm::dot(o, right)) / tanHorizontal);
    }
    return std::clamp(distance, kMinDistance, kMaxDistance);
}

render::SceneView OrbitCamera::MakeView(glm::ivec2 viewport) const {
    render::SceneView scene;
    scene.viewport = glm::max(viewport, glm::ivec2(1));
    scene.view = View();
    scene.projection =
        Projection(static_cast<float>(scene.viewport.x) / static_cast<float>(scene.viewport.y));
    scene.eye = Eye();
    return scene;
}

}  // namespace vorton::platform
