#pragma once
/// \file
/// Mouse-driven orbit camera for inspecting the simulation.

#include <glm/glm.hpp>

#include "render/frame_input.h"

namespace vorton::platform {

/// Orbit / pan / zoom camera around a target, z up. Angles in degrees, distance in m.
/// Yaw is measured in the xy plane from +x towards +y; pitch is the elevation above that plane
/// (kept within +-89 degrees so "up" stays defined).
struct CameraPose {
    glm::vec3 target{0.0f};  ///< point looked at and orbited, m
    float distance = 3.0f;   ///< eye to target, m (> 0)
    float yaw = 30.0f;       ///< degrees
    float pitch = 15.0f;     ///< degrees
    float fovY = 45.0f;      ///< vertical field of view, degrees
};

/// A half-line in world space: origin + t·direction, t ≥ 0.
struct Ray {
    glm::vec3 origin{0.0f};
    glm::vec3 direction{0.0f, 0.0f, -1.0f};  ///< unit length
};

class OrbitCamera {
public:
    /// Replaces the pose (distance and pitch are clamped to their valid ranges).
    void Reset(const CameraPose& pose);
    const CameraPose& Pose() const { return m_pose; }
    /// Left drag: dragging right turns the scene right, dragging down raises the eye.
    void Orbit(float dxPixels, float dyPixels);
    /// Right or middle drag: moves the target in the view plane so the point under the cursor
    /// (at the target's depth) follows it. viewportHeight in pixels.
    void Pan(float dxPixels, float dyPixels, int viewportHeight);
    /// Mouse wheel: each step forward (positive) moves 10% closer, multiplicatively.
    void Zoom(float scrollSteps);
    /// Eye position, m.
    glm::vec3 Eye() const;
    /// World -> view matrix (right-handed, looking down -z in view space).
    glm::mat4 View() const;
    /// Perspective projection; near/far planes scale with distance so any zoom level works.
    glm::mat4 Projection(float aspect) const;
    /// Unit vector from the eye towards the target (the view direction).
    glm::vec3 Forward() const;
    /// The ray from the eye through a point of a viewport of the given size, in pixels with x to
    /// the right and y down from the top-left corner (GLFW cursor coordinates; any unit works as
    /// long as the viewport is in the same one). Consistent with MakeView(viewport).
    Ray RayThroughPixel(glm::vec2 pixel, glm::ivec2 viewport) const;
    /// Moves the image of the target (and the whole view with it) right by `ndcX` in normalised
    /// device coordinates (a lens shift, no rotation): 0 centres it; the window uses the panel's
    /// share of the width, so the target sits mid-way across the part the panel leaves free.
    void SetCentreShift(float ndcX) { m_centreShift = ndcX; }
    float CentreShift() const { return m_centreShift; }
    /// Everything the renderer needs for a viewport of the given pixel size.
    render::SceneView MakeView(glm::ivec2 viewport) const;
    /// The distance from pose.target at which the box [lo, hi] (m), seen with the pose's yaw,
    /// pitch and field of view, fills `fill` (0..1] of the height of a viewport of aspect ratio
    /// `aspect` (width / height), or `fillWidth` of its width if that is tighter: every projected
    /// corner within ±fill vertically and ±fillWidth horizontally in normalised device
    /// coordinates, one of them on its edge. Clamped to the camera's distance range.
    static float FitDistance(const CameraPose& pose, glm::vec3 lo, glm::vec3 hi, float aspect, float fill,
                             float fillWidth);

private:
    CameraPose m_pose;
    float m_centreShift = 0.0f;
};

}  // namespace vorton::platform
